/* The kernel header's by-value clause: a parameter written
 * `constant const uchar *s byval(SIZE, ALIGN, "TYPE", "LAYOUT")` is a
 * struct or union passed by value (bc_byval, docs/ir.md). */
#include "asm/asmint.h"

#include <stdlib.h>
#include <string.h>

#include "asm/lit.h"
#include "vm/layout.h"

/* A decimal number token into *v (at most max). */
static bool number(A *a, uint32_t max, uint32_t *v)
{
    const tok *t = parse_next(a);
    lit l;
    if (t->kind != TK_NUMBER || lit_parse(t->s, t->len, &l) ||
        l.kind != LIT_INT || l.mag > max) {
        asm_error(a, t->col, t->col + t->len, "byval needs a number up to %u "
                  "here", max);
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
        !number(a, BC_MAX_BYVAL, &b.size) || !parse_expect(a, P_COMMA, "','")
        || !number(a, 128, &b.align) || !parse_expect(a, P_COMMA, "','") ||
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
