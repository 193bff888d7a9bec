/* OpenCL C through clang-14 and llvm-spirv-14 (tools/cc.c). */
#ifndef CLVM_CC_H
#define CLVM_CC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/cccache.h"
#include "vm/bytecode.h"

/* The OpenCL C extensions of clvm's device, only what the VM really does
 * (cl_khr_fp16: half arithmetic rounded once, docs/semantics.md; the
 * atomics: every atom_* function, docs/ir.md). The device's
 * CL_DEVICE_EXTENSIONS (tools/ocl/platform.c) and the extension macros
 * clang defines (tools/cc.c: clang-14 alone defines every extension it
 * knows for spir, images and Intel's subgroups among them) both come
 * from this list. */
#define CC_EXTENSIONS(X)                                                    \
    X(cl_khr_fp64) X(cl_khr_fp16) X(cl_khr_byte_addressable_store)          \
    X(cl_khr_global_int32_base_atomics)                                     \
    X(cl_khr_global_int32_extended_atomics)                                 \
    X(cl_khr_local_int32_base_atomics) X(cl_khr_local_int32_extended_atomics) \
    X(cl_khr_int64_base_atomics) X(cl_khr_int64_extended_atomics)

/* Compiles the OpenCL C file path (with the user's clang options) into
 * SPIR-V: *spv (malloc'd) and *len; *msgs (malloc'd, *mlen bytes, NULL if
 * none) gets what clang and llvm-spirv wrote to stderr, verbatim. 1 with
 * why set on failure. The tools are clang-14 and llvm-spirv-14, or the
 * commands CLVM_CLANG and CLVM_LLVM_SPIRV name. */
int cc_compile(const char *path, char *const *opts, int nopts,
               uint8_t **spv, size_t *len, char **msgs, size_t *mlen,
               char *why, size_t wlen);
/* Links n objects of cc_make with llvm-link-14 (CLVM_LLVM_LINK) into
 * one: with library, another object (*out: LLVM bitcode), else through
 * llvm-spirv into SPIR-V (*out) for cc_translate. */
int cc_link(const uint8_t *const *objs, const size_t *lens, int n,
            bool library, uint8_t **out, size_t *len, char **msgs,
            size_t *mlen, char *why, size_t wlen);
/* Translates the SPIR-V spv[0..len) (named name in messages) into *m,
 * the translator's messages to diag; 1 with why set on failure. */
int cc_translate(const uint8_t *spv, size_t len, const char *name,
                 bc_module *m, FILE *diag, char *why, size_t wlen);
/* cc_compile, and translates it into *m, the tools' messages and the
 * translator's to diag; through the compile cache (tools/cccache.h). */
int cc_load(const char *path, char *const *opts, int nopts, bc_module *m,
            FILE *diag, char *why, size_t wlen);
/* cc_load of the file at path, cached under the name `name`: the OpenCL
 * platform compiles each program in a temporary folder of its own, whose
 * name would make every key new. A hit gives the module and the messages
 * of the first compilation, which name its temporary file. */
int cc_load_as(const char *path, const char *name, char *const *opts,
               int nopts, bc_module *m, FILE *diag, char *why, size_t wlen);
/* One OpenCL C unit the OpenCL platform compiles (clCompileProgram): the
 * file at path, cached under the name `name` (as cc_load_as), its
 * embedded headers hdrs[0..nh) written in the folder hdir (NULL if none),
 * which clang searches first; the headers' names and texts are in the
 * cache's key. */
typedef struct {
    const char *path, *name, *hdir;
    const ccc_header *hdrs;
    int nh;
    char *const *opts;
    int nopts;
} cc_unit;
/* What a unit becomes: a translated module, clang's object (LLVM
 * bitcode), or the preprocessed text (clang -E -P). */
typedef enum { CC_MODULE, CC_OBJECT, CC_TEXT } cc_what;
/* clang alone on u, through the compile cache: CC_OBJECT, LLVM bitcode an
 * object clvm links with cc_link, or CC_TEXT, the text after the
 * preprocessor, into *out (malloc'd, a NUL after its *len bytes); clang's
 * messages (a hit's: the first compilation's) to diag; 1 with why set on
 * failure. */
int cc_make(const cc_unit *u, cc_what what, uint8_t **out, size_t *len,
            FILE *diag, char *why, size_t wlen);
/* Does b[0..n) start with LLVM bitcode's magic number (an OpenCL C
 * object, not clvm bytecode)? */
bool cc_is_bitcode(const uint8_t *b, size_t n);
/* What this thread's last cc_load did: 0 nothing, 1 took the module from
 * the cache, 2 ran the tools (*tools: the seconds they took). */
int cc_last(double *tools);
/* If argv[*i] is a clang option (one dash: -DN=4, -I DIR, -cl-std=CL1.1,
 * -Werror ...), appends it and, for -D, -I ... written apart, its value
 * (*i advances) to opts; false if it is not one. */
bool cc_take_opt(int argc, char **argv, int *i, char **opts, int *nopts);
/* Is the file OpenCL C (by its extension .cl, or a text with braces,
 * which IR never has)? */
bool cc_is_opencl_c(const char *path, const char *text, size_t len);
/* Is an OpenCL program's source (which has no file name) OpenCL C: a
 * text with braces, or with no line that starts a kernel, which IR
 * always has (OpenCL C of declarations alone: "extern int f(int);")? */
bool cc_program_is_opencl_c(const char *text, size_t len);

#endif
