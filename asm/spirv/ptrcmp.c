/* Pointer comparisons: `p == q`, `p != NULL`, `p < q`, `if (p)`, `p ? a
 * : b`. clang converts each pointer with OpConvertPtrToU and compares the
 * integers. A pointer so converted whose every use is such a comparison
 * becomes its buffer and byte offset as one ulong, buffer << 40 | offset
 * (the 8-byte slot STP writes, read back): equal pointers give equal
 * numbers, the null pointer (no buffer) 0, and two pointers into one
 * buffer compare as their offsets. Other uses of the integer are mem.c's
 * (sx_ptrtou). */
#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"

static bool compare(uint32_t op)
{
    switch (op) {
    case SpvOpIEqual: case SpvOpINotEqual:
    case SpvOpULessThan: case SpvOpULessThanEqual:
    case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual:
    case SpvOpSLessThan: case SpvOpSLessThanEqual:
    case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual:
        return true;
    }
    return false;
}

/* Is every use of id in the current function an integer comparison? */
static bool only_compared(SX *x, uint32_t id)
{
    spv_mod *m = &x->m;
    const spv_func *f = x->fr->f;
    unsigned uses = 0;
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t at = f->blocks[b].at; at <= f->blocks[b].term;
             at += spv_wc(m, at)) {
            uint32_t op = spv_op(m, at), wc = spv_wc(m, at);
            bool res = false, rtype = false;
            spv_result(op, &res, &rtype);
            if (op == SpvOpLine || op == SpvOpName ||
                (op == SpvOpExtInst && wc > 3 &&
                 spv_word(m, at, 3) < m->bound &&
                 m->extset[spv_word(m, at, 3)] == SE_SKIP))
                continue;   /* debug information */
            for (uint32_t i = rtype ? 3 : res ? 2 : 1; i < wc; i++)
                if (spv_word(m, at, i) == id) {
                    if (!compare(op))
                        return false;
                    uses++;
                }
        }
    return uses > 0;
}

/* The kernel's private 8-byte slot the pointers pass through. */
static uint32_t slot(SX *x)
{
    bc_reg r = {0};
    r.type = TY(TY_ULONG, 1), r.kind = BC_REG_PTR, r.space = BC_PRIVATE;
    r.init = BC_INIT_ARRAY, r.arg = 1;
    int32_t s = kb_find(x->a, "ptr_slot", 8);
    if (s >= 0) {
        const bc_reg *g = sx_r(x, (uint32_t)s);
        if (g->kind == r.kind && g->space == r.space && g->init == r.init &&
            g->arg == 1 && ty_eq(g->type, r.type))
            return (uint32_t)s;
    }
    s = sx_named(x, "ptr_slot", r);
    if (s < 0)
        s = sx_named(x, "ptrcmp_slot", r);
    if (s < 0)
        sx_refuse(x, "too many registers");
    return (uint32_t)s;
}

bool sx_ptrcmp(SX *x)
{
    spv_mod *m = &x->m;
    ty_t t = sx_vty(x, spv_word(m, x->at, 1));
    if (t.n != 1 || ty_scalar_size((enum ty_scalar)t.s) != 8 ||
        !only_compared(x, spv_word(m, x->at, 2)))
        return false;
    uint32_t p = sx_reg(x, 3);
    if (sx_r(x, p)->kind != BC_REG_PTR)
        return false;
    uint32_t s = slot(x), zero = sx_const(x, TY(TY_INT, 1), 0);
    uint32_t st[3] = {s, zero, p};
    sx_emit(x, BCB_STP, TY_UINT, 1, 0, st, 3);
    uint32_t ld[3] = {sx_def(x, TY(TY_ULONG, 1)), s, zero};
    sx_emit(x, BCB_LD, TY_ULONG, 1, 0, ld, 3);
    return true;
}
