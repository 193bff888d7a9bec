/* A struct or union kernel argument passed by value (bc_byval) as text:
 * `clvm run --arg` and the REPL's `arg` read it, `--print` shows it.
 *
 * The text is a C initialiser of the struct: a brace list of the members'
 * values in declaration order, `{1, 2.5, (float4)(1, 2, 3, 4), {3, 4}}`,
 * each an OpenCL C literal of the member's type (tools/value.h); a nested
 * struct or array takes its own braces or, as in C, its members' values
 * in line; members left out are 0. An integer member takes a literal of
 * either sign's range. */
#ifndef CLVM_STRUCTARG_H
#define CLVM_STRUCTARG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/bytecode.h"

/* Parses text v for by-value parameter p (called name, of module m) into
 * out[0..p->byval.size). Returns 0, or -1 with a one-line reason in why
 * naming the member. */
int sa_parse(const bc_module *m, const bc_param *p, const char *name,
             const char *v, uint8_t *out, char *why, size_t len);

/* Prints the argument's bytes as such a brace list ("{1, 2.5, {3, 4}}",
 * flags as val_format's), or as hexadecimal bytes when the module has no
 * layout for it. */
void sa_print(FILE *f, const bc_module *m, const bc_param *p,
              const uint8_t *data, unsigned flags);

#endif
