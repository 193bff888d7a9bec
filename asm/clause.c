/* The kernel header's clauses (docs/ir.md): a parameter written
 * `constant const uchar *s byval(SIZE, ALIGN, "TYPE", "LAYOUT")` is a
 * struct or union passed by value (bc_byval); `reqd_work_group_size(X, Y,
 * Z)` after the parameters is the local size the kernel requires. */
#include "asm/asmint.h"

#include <stdlib.h>
#include <string.h>

#include "asm/lit.h"
#include "vm/bcfile.h"
#include "vm/layout.h"
#include "vm/vm.h"

/* A decimal number token into *v (at most max), for clause what. */
static bool number(A *a, const char *what, uint32_t max, uint32_t *v)
{
    const tok *t = parse_next(a);
    lit l;
    if (t->kind != TK_NUMBER || lit_parse(t->s, t->len, &l) ||
        l.kind != LIT_INT || l.mag > max) {
        asm_error(a, t->col, t->col + t->len, "%s needs a number up to %u "
                  "here", what, max);
        return false;
    }
    *v = (uint32_t)l.mag;
    return true;
}

/* A string token without escapes into the module's strings (*off). */
static bool string(A *a, uint32_t *off, const tok **at)
{
    const tok *t = *at = parse_next(a);
    if (t->kind != TK_STRING || t->len < 2 ||
        memchr(t->s, '\\', t->len)) {
        asm_error(a, t->col, t->col + t->len, "byval needs a string without "
                  "escapes here");
        return false;
    }
    *off = kb_str(a, t->s + 1, t->len - 2);
    return true;
}

bool byval_clause(A *a)
{
    if (!tok_is(parse_peek(a), "byval"))
        return true;
    const tok *kw = parse_next(a), *ts, *ls;
    const bc_reg *r = kb_regp(a, a->k.params[a->k.nparams - 1].reg);
    bc_byval b;
    if (r->kind != BC_REG_PTR || r->space != BC_CONSTANT) {
        asm_error(a, kw->col, kw->col + kw->len, "byval is for a constant "
                  "pointer parameter");
        return false;
    }
    if (!parse_expect(a, P_LPAREN, "'('") ||
        !number(a, "byval", BC_MAX_BYVAL, &b.size) || !parse_expect(a, P_COMMA, "','")
        || !number(a, "byval", 128, &b.align) || !parse_expect(a, P_COMMA, "','") ||
        !string(a, &b.type, &ts) || !parse_expect(a, P_COMMA, "','") ||
        !string(a, &b.layout, &ls) || !parse_expect(a, P_RPAREN, "')'"))
        return false;
    if (!b.size || !b.align || (b.align & (b.align - 1)) ||
        b.size % b.align) {
        asm_error(a, kw->col, kw->col + kw->len, "byval: %u bytes aligned to %u "
                  "(a size that is a multiple of a power of two)", b.size,
                  b.align);
        return false;
    }
    lay_item *v;
    size_t n;
    char why[200];
    if (lay_parse(kb_strat(a, b.layout), b.size, &v, &n, why, sizeof why)) {
        asm_error(a, ls->col, ls->col + ls->len, "byval: %s", why);
        return false;
    }
    free(v);
    (void)ts;
    kb_byval(a, b);
    return true;
}

bool reqd_clause(A *a)
{
    static const char rq[] = "reqd_work_group_size";
    const tok *kw = parse_peek(a);
    if (tok_is(kw, "work_group_size_hint") || tok_is(kw, "vec_type_hint")) {
        asm_error(a, kw->col, kw->col + kw->len, "%.*s is a hint that clvm "
                  "does not use: leave it out", (int)kw->len, kw->s);
        return false;
    }
    if (!tok_is(kw, rq))
        return true;
    parse_next(a);
    uint32_t *q = a->k.reqd;
    if (!parse_expect(a, P_LPAREN, "after reqd_work_group_size"))
        return false;
    for (int d = 0; d < 3; d++)
        if (!number(a, rq, UINT32_MAX, &q[d]) ||
            !parse_expect(a, d < 2 ? P_COMMA : P_RPAREN, "in "
                          "reqd_work_group_size(X, Y, Z)"))
            return false;
    if (!q[0] || !q[1] || !q[2] || !bc_groupsize_ok(q)) {
        asm_error(a, kw->col, kw->col + kw->len, "%s(%u, %u, %u): a "
                  "work-group holds 1 to %u work-items, at least 1 in each "
                  "dimension", rq, q[0], q[1], q[2], VM_MAX_GROUP);
        return false;
    }
    return true;
}
