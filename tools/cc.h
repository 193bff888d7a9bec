/* OpenCL C through clang-14 and llvm-spirv-14 (tools/cc.c). */
#ifndef CLVM_CC_H
#define CLVM_CC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/bytecode.h"

/* Compiles the OpenCL C file path (with the user's clang options) into
 * SPIR-V: *spv (malloc'd) and *len. clang's messages go to stderr as it
 * writes them; 1 with why set on failure. */
int cc_compile(const char *path, char *const *opts, int nopts,
               uint8_t **spv, size_t *len, char *why, size_t wlen);
/* ... and translates it into *m (messages to diag). */
int cc_load(const char *path, char *const *opts, int nopts, bc_module *m,
            FILE *diag, char *why, size_t wlen);
/* Is the file OpenCL C (by its extension .cl, or a text with braces,
 * which IR never has)? */
bool cc_is_opencl_c(const char *path, const char *text, size_t len);

#endif
