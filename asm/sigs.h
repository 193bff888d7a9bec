/* The built-ins' signatures, what they give and their accuracy, in
 * words, from the assembler's own tables (asm/sigs.c). */
#ifndef CLVM_SIGS_H
#define CLVM_SIGS_H

#include <stdbool.h>
#include <stdio.h>

/* Prints the help of built-in name (signatures, one line of what it
 * gives, its types, accuracy and OpenCL.std number); false if no
 * built-in has that name. */
bool asm_builtin_help(const char *name, FILE *out);

/* The list of built-ins of docs/ir.md (markdown rows, no markers). */
void asm_builtins_md(FILE *out);

#endif
