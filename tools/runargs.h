/* What `clvm run` and `clvm repl` share: loading a module, choosing a
 * kernel, the NDRange number lists, kernel arguments from NAME=VALUE text,
 * --print specs and the printing of buffers.
 *
 * Functions that can fail return 0, or -1 with a one-line message in why
 * (no prefix: each tool adds its own). */
#ifndef CLVM_RUNARGS_H
#define CLVM_RUNARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/bytecode.h"
#include "vm/vm.h"

enum { RA_WHY = 512 };

/* argv[*i] is --name VALUE (*i advances) or --name=VALUE: VALUE, else
 * NULL. */
const char *ra_optval(int argc, char **argv, int *i, const char *name);

/* A decimal number, nothing else (no sign, no octal surprises). */
bool ra_number(const char *s, size_t len, uint64_t *v);

/* "A[,B[,C]]" into v; returns the count, 0 if malformed. */
unsigned ra_numlist(const char *s, uint64_t v[3]);

/* Fills nd's dims, global, local and offset from --global (required),
 * --local and --offset text (NULL: not given), checking what can be
 * checked before running. */
int ra_ndrange(const char *global, const char *local, const char *offset,
               vm_ndrange *nd, char *why, size_t len);

/* --threads, --warp, --max-steps (opt names which) into nd. */
int ra_count(const char *opt, const char *v, vm_ndrange *nd, char *why,
             size_t len);

/* Reads path: a bytecode module (by magic or the .bc extension), else IR
 * assembled with its diagnostics on diag. */
int ra_load(const char *path, bc_module *m, FILE *diag, char *why,
            size_t len);
/* ... with clang options for an OpenCL C file (refused for any other). */
int ra_load_cc(const char *path, char *const *ccopts, int nccopts,
               bc_module *m, FILE *diag, char *why, size_t len);

/* Kernel `name` of m (NULL: the only one). */
int ra_find_kernel(const bc_module *m, const char *path, const char *name,
                   uint32_t *k, char *why, size_t len);

/* The parameter called name[0..nlen); -1 if none. */
int ra_param_of(const bc_kernel *k, const bc_module *m, const char *name,
                size_t nlen, uint32_t *p);

/* "x, y, a" (or "none") for messages. */
void ra_param_list(const bc_kernel *k, const bc_module *m, char *buf,
                   size_t len);

/* Parameter p's declaration: "global const float *x", "uint n", "struct
 * foo s" (by value). */
char *ra_decl(const bc_module *m, const bc_kernel *k, uint32_t p, char *buf,
              size_t len);

/* What --arg takes for it: "LITERAL", "local:BYTES", "@FILE|zeros:BYTES",
 * "{VALUES}|@FILE" (by value). */
const char *ra_form_of(const bc_kernel *k, uint32_t p);

/* The parameter an --arg NAME=VALUE text names. */
int ra_arg_param(const bc_module *m, const bc_kernel *k, const char *nv,
                 uint32_t *p, char *why, size_t len);

/* Builds the argument of parameter p from VALUE text; a->data is
 * malloc'd (free it). */
int ra_make_arg(const bc_module *m, const bc_kernel *k, uint32_t p,
                const char *v, vm_arg *a, char *why, size_t len);

/* --print NAME[:TYPE][:hex]: the name's length, the type if one was
 * given, and the hex flag. */
typedef struct {
    size_t nlen;
    ty_t type;
    bool typed, hex;
} ra_view;
int ra_print_spec(const char *v, ra_view *out, char *why, size_t len);

/* Prints elements first..first+count of data (as type t) to f, one a line:
 * "NAME[i] = VALUE", flags as val_format's. */
void ra_print_elems(FILE *f, const char *name, size_t nlen, ty_t t,
                    unsigned flags, const uint8_t *data, uint64_t first,
                    uint64_t count);

#endif
