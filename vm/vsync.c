/* The verifier's rules for barriers, fences, atomics and async copies:
 * what the handlers (vm/atomic.c, vm/async.c) trust about their
 * operands. */
#include "vm/vsync.h"

#include <stdio.h>

#include "stdlib/atomic.h"

static bool scalar_int(const bc_reg *r)
{
    return r->kind == BC_REG_VALUE && r->type.n == 1 &&
           !ty_is_float((enum ty_scalar)r->type.s) && r->type.s != TY_HALF;
}

static bool writable(const bc_reg *p)
{
    return !(p->flags & BC_REGF_CONSTPTR) && p->space != BC_CONSTANT;
}

/* ATOM d, p, a, b, i: operands a function does not take repeat d (a, b)
 * or a (b), so that each instruction has one spelling. */
static char *atom(unsigned n, const bc_reg *const *reg,
                        const uint32_t *word, char *buf, size_t len)
{
    if (word[4] >= AT_COUNT || n != 1 || reg[1]->type.n != 1 ||
        !writable(reg[1]) ||
        (atomic_fns[word[4]].nvals == 0 && word[2] != word[0]) ||
        (atomic_fns[word[4]].nvals < 2 && word[3] != word[2])) {
        snprintf(buf, len, "not function %u of stdlib/atomic.h on a "
                 "writable scalar", word[4]);
        return buf;
    }
    return NULL;
}

/* ACOPY(S) d, a, b, c[, o], p: a uint event from one between local and
 * global memory of one type, integer count (and stride), a uint event. */
static char *acopy(bool strided, const bc_reg *const *reg,
                         const uint32_t *word, char *buf, size_t len)
{
    const bc_reg *d = reg[0], *a = reg[1], *b = reg[2], *ev = reg[strided ? 5 : 4];
    bool ok = d->kind == BC_REG_VALUE && d->type.s == TY_UINT &&
              d->type.n == 1 && ev->kind == BC_REG_VALUE &&
              ev->type.s == TY_UINT && ev->type.n == 1 &&
              a->kind == BC_REG_PTR && b->kind == BC_REG_PTR &&
              ty_eq(a->type, b->type) && writable(a) && scalar_int(reg[3]) &&
              (!strided || scalar_int(reg[4])) &&
              ((a->space == BC_LOCAL &&
                (b->space == BC_GLOBAL || b->space == BC_CONSTANT)) ||
               (a->space == BC_GLOBAL && b->space == BC_LOCAL));
    if (ok)
        return NULL;
    snprintf(buf, len, "registers %u, %u, %u: not a uint event, a writable "
             "local (global) pointer and a global (local) pointer of one "
             "type, an integer count%s and a uint event", word[0], word[1],
             word[2], strided ? " and stride" : "");
    return buf;
}

char *vm_sync_rule(unsigned base, unsigned n,
                   const bc_reg *const *reg, const uint32_t *word,
                   char *buf, size_t len)
{
    switch (base) {
    case BCB_BARRIER: case BCB_FENCE: case BCB_RFENCE: case BCB_WFENCE:
        if (!(word[0] & ~(uint32_t)(BC_FENCE_LOCAL | BC_FENCE_GLOBAL)))
            return NULL;
        snprintf(buf, len, "unknown fence flags 0x%x",
                 word[0] & ~(uint32_t)(BC_FENCE_LOCAL | BC_FENCE_GLOBAL));
        return buf;
    case BCB_ATOM:
        return atom(n, reg, word, buf, len);
    case BCB_ACOPY: case BCB_ACOPYS:
        return acopy(base == BCB_ACOPYS, reg, word, buf, len);
    case BCB_WAITEV:
        if (scalar_int(reg[0]) && reg[1]->kind == BC_REG_PTR &&
            reg[1]->type.s == TY_UINT && reg[1]->type.n == 1)
            return NULL;
        snprintf(buf, len, "registers %u, %u: not an integer count and a "
                 "pointer to uint events", word[0], word[1]);
        return buf;
    default:
        return NULL;
    }
}
