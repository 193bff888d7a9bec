/* The disassembler: a module printed as IR (docs/ir.md) that assembles
 * back to identical bytes: every register declared in index order with its
 * exact type, constants with their values, structured control flow, an
 * operand read as another type printed as an as_T view, and #line
 * directives that rebuild the line table. */
#ifndef CLVM_DIS_H
#define CLVM_DIS_H

#include <stdio.h>

#include "vm/bytecode.h"

enum {
    DIS_VERBOSE = 1,   /* "; pc  OPCODE  synopsis" after each instruction */
};

/* Prints m. Returns 0, or -1 if part of m could not be printed as IR that
 * assembles (a module that fails bc_verify); that part is shown as
 * comments. */
int dis_module(const bc_module *m, FILE *out, unsigned flags);

#endif
