/* The SPIR-V front end: a SPIR-V module of OpenCL C kernels (as clang-14
 * and llvm-spirv-14 write them, docs/opencl-c.md) translated into a clvm
 * module on the text assembler's module builder (asm/kbuild.c). The input
 * is untrusted: every bound, id, type and decoration is checked before
 * use, and bad input gives a message with the word offset, never a crash.
 */
#ifndef CLVM_SPIRV_H
#define CLVM_SPIRV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/bytecode.h"

enum { SPV_MAGIC = 0x07230203 };

/* Is buf a SPIR-V module (by its magic, either byte order)? */
int spv_is(const uint8_t *buf, size_t len);

/* Translates the module in buf (name: for messages) into *out, which
 * bc_verify accepts. Messages go to diag: "NAME: word N: error: ..." for
 * malformed input, "FILE.cl:LINE: error: ..." for what clvm refuses in a
 * valid module. Returns the number of errors (0: *out is the module). */
int spv_translate(const uint8_t *buf, size_t len, const char *name,
                  bc_module *out, FILE *diag);

#endif
