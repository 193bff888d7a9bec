/* Constant folding: the value of a literal-only tree, and of a cast,
 * convert_T or as_T of a constant, computed here with the VM's own
 * semantics. What OpenCL leaves open is warned about: no run-time note will
 * say it. */
#include "asm/asmint.h"
#include "stdlib/convert.h"
#include "stdlib/profile.h"
#include "stdlib/reinterpret.h"

/* The source text of n, for messages (at most 40 bytes). */
static int span_len(const node *n)
{
    uint32_t l = n->end > n->col ? n->end - n->col : 1;
    return (int)(l > 40 ? 40 : l);
}
#define SPAN(a, n) span_len(n), (a)->text + (n)->col - 1

/* A constant whose value OpenCL leaves open: clvm's value is used. */
static void warn_notes(A *a, const node *n, int notes)
{
    for (unsigned id = 0; notes > 0 && id < NOTE_COUNT; id++)
        if (notes & 1 << id)
            asm_warning(a, n->col, n->end, "%s result (%s): %s "
                        "(docs/semantics.md)", note_kind((enum note_id)id),
                        note_name((enum note_id)id),
                        note_what((enum note_id)id));
}

/* Constant integer arithmetic that OpenCL leaves unspecified or undefined
 * (x / 0, MIN / -1, signed overflow) folds to clvm's value, as the VM
 * would compute it; say so, since no run-time note will. */
static void fold_note(A *a, node *n, enum ty_scalar s, uint64_t x, uint64_t y)
{
    static const uint8_t pa[][2] = {{P_ADD, PA_ADD}, {P_SUB, PA_SUB},
                                    {P_MUL, PA_MUL}};
    uint8_t bx[8], by[8], d[8];
    int notes = 0;
    if (ty_is_float(s))
        return;
    ty_put_bits(bx, ty_scalar_size(s), x);
    ty_put_bits(by, ty_scalar_size(s), y);
    if (n->op == P_DIV || n->op == P_MOD)
        notes = prof_divrem(PROF_CLVM, s, n->op == P_MOD, d, bx, by);
    for (unsigned k = 0; k < sizeof pa / sizeof pa[0]; k++)
        if (pa[k][0] == n->op && ty_is_signed(s))
            notes = prof_arith(PROF_CLVM, s, (enum prof_arith)pa[k][1], d,
                               bx, by);
    warn_notes(a, n, notes);
}

bool fold_lit(A *a, node *n, ty_t t)
{
    char b1[TY_NAME_MAX];
    enum ty_scalar s = (enum ty_scalar)t.s;
    uint64_t x, y, r = 0;
    const char *why = NULL;
    switch (n->kind) {
    case N_LIT:
        switch (lit_bits(&n->l, s, &r)) {
        case LIT_OK:
            break;
        case LIT_RANGE:
            asm_error_node(a, n, "literal %.*s is out of range for %s%s",
                           SPAN(a, n), ty_name(t, b1),
                           n->l.neg && n->l.mag && ty_scalar_kind(s) == 'u'
                               ? " (for all bits set write ~0)" : "");
            return false;
        case LIT_FLT_IN_INT:
            asm_error_node(a, n, "floating literal %.*s where an integer "
                           "(%s) is needed", SPAN(a, n), ty_name(t, b1));
            return false;
        case LIT_NARROW:
            asm_error_node(a, n, "%.*s is a %s literal; the operand is %s "
                           "(drop the suffix)", SPAN(a, n),
                           ty_scalar_name((enum ty_scalar)n->l.nat.s),
                           ty_name(t, b1));
            return false;
        }
        break;
    case N_UNARY:
        if (n->op == P_NOT) {
            if (!fold_lit(a, n->a, n->a->x.t))
                return false;
            why = lit_unop(P_NOT, (enum ty_scalar)n->a->x.t.s, n->a->vv[0], &x);
            r = lit_convert(s, TY_INT, x);
        } else {
            if (!fold_lit(a, n->a, t))
                return false;
            why = lit_unop(n->op, s, n->a->vv[0], &r);
        }
        break;
    case N_BINARY:
        switch (n->op) {
        case P_LT: case P_LE: case P_GT: case P_GE: case P_EQ: case P_NE:
        case P_ANDAND: case P_OROR: {
            ty_t c = lit_common(n->a->x.t, n->b->x.t);
            if (!fold_lit(a, n->a, c) || !fold_lit(a, n->b, c))
                return false;
            why = lit_binop(n->op, (enum ty_scalar)c.s, n->a->vv[0],
                            n->b->vv[0], &x);
            r = lit_convert(s, TY_INT, x);
            break;
        }
        default:
            if (!fold_lit(a, n->a, t) || !fold_lit(a, n->b, t))
                return false;
            x = n->a->vv[0], y = n->b->vv[0];
            why = lit_binop(n->op, s, x, y, &r);
            if (!why)
                fold_note(a, n, s, x, y);
        }
        break;
    default:
        asm_error_node(a, n, "internal error: cannot fold this");
        return false;
    }
    if (why) {
        asm_error_node(a, n, "%s (in %s)", why, ty_name(t, b1));
        return false;
    }
    n->vv[0] = r, n->isconst = true;
    n->x = (xty){t, X_VAL, 0, false};
    return true;
}

void fold_cast(A *a, node *n, const node *c)
{
    enum ty_scalar d = (enum ty_scalar)n->x.t.s, s = (enum ty_scalar)c->x.t.s;
    uint8_t sb[8], db[8];
    n->vv[0] = lit_convert(d, s, c->vv[0]);
    n->isconst = true;
    ty_put_bits(sb, ty_scalar_size(s), c->vv[0]);
    warn_notes(a, n, cv_scalar(d, s, db, sb, false, cv_default_round(d)));
}

void fold_convert(node *n, const node *c)
{
    ty_t t = n->x.t, s = c->x.t;
    enum rnd r = n->bi.has_round ? n->bi.round
                                 : cv_default_round((enum ty_scalar)t.s);
    for (unsigned i = 0; i < t.n; i++) {
        uint64_t hs = 0, hd = 0;
        lit_host_put(&hs, (enum ty_scalar)s.s, 0, c->vv[i]);
        cv_scalar((enum ty_scalar)t.s, (enum ty_scalar)s.s, &hd, &hs,
                  n->bi.sat, r);
        n->vv[i] = lit_host_get(&hd, (enum ty_scalar)t.s, 0);
    }
    n->isconst = true;
}

void fold_as(node *n, const node *c)
{
    uint64_t hs[16] = {0}, hd[16] = {0};   /* host-order registers */
    ty_t st = c->x.t, dt = n->x.t;
    if (c->bcast)
        st.n = c->bcast;
    for (unsigned i = 0; i < st.n; i++)
        lit_host_put(hs, (enum ty_scalar)st.s, i, c->vv[c->bcast ? 0 : i]);
    as_reinterpret(dt, st, hd, hs);
    for (unsigned i = 0; i < dt.n; i++)
        n->vv[i] = lit_host_get(hd, (enum ty_scalar)dt.s, i);
    n->isconst = true;
}
