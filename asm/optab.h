/* What the assembler and the disassembler need to know about opcodes
 * beyond vm/bytecode.h: which variant of an operation serves an OpenCL
 * type, whether a variant is sign-agnostic, how an operation prints as IR.
 * Derived from vm/opcodes.def, so it never goes stale. */
#ifndef CLVM_OPTAB_H
#define CLVM_OPTAB_H

#include <stdbool.h>
#include <stdio.h>

#include "vm/bytecode.h"

/* The element-type classes of vm/opcodes.def, by number: OPC_TC_BITS ...
 * (the list is the .def's TC_CLASSES, which vm/bytecode.h brings in). */
enum op_class {
#define X(C) OPC_##C,
    TC_CLASSES(X)
#undef X
    OPC_COUNT
};

/* The variant of base that runs on elements of type s: the exact element
 * type if the base has one, else (for the sign-agnostic classes TC_BITS
 * and TC_ARITH) the _B variant of the same size. -1 if none. */
int op_variant(enum bc_base base, enum ty_scalar s);

/* Is op a sign-agnostic (_B8.._B64) variant? */
bool op_is_bits(enum bc_op op);

/* Does the base stamp out one variant only (TC_NONE)? */
bool op_is_single(enum bc_base base);

/* The PRINT column: a form letter, then a space and a spelling ("o +",
 * "k else", "v"); "" for no base. */
const char *op_print(enum bc_base base);

/* The name of the class column ("TC_BITS"). */
const char *op_class_name(enum bc_base base);

/* Writes the opcode table of docs/ir.md (markdown, no markers). */
void op_write_md(FILE *out);

#endif
