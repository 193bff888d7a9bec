/* Settling: the type a flexible operand (a literal, a size_t value, a
 * truth value) takes from the operand or destination it meets, and the
 * check that a checked operand is of the type a context demands. */
#include "asm/asmint.h"

/* Gives flexible n the scalar type w. */
static bool settle_scalar(A *a, node *n, ty_t w)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX];
    bool flt = ty_is_float((enum ty_scalar)w.s);
    switch (n->x.cls) {
    case X_LIT:
        if (n->litonly)
            return fold_lit(a, n, w);
        break;
    case X_SIZE:
        if (w.n != 1 || flt || ty_scalar_size((enum ty_scalar)w.s) < 4) {
            asm_error_node(a, n, "a size_t value (a work-item function) "
                           "needs uint, int, ulong or long, not %s",
                           ty_name(w, b1));
            return false;
        }
        break;
    case X_BOOL:
        if (w.n != 1 || flt) {
            asm_error_node(a, n, "a truth value (1 or 0) is an integer; it "
                           "cannot be %s (convert it)", ty_name(w, b1));
            return false;
        }
        if (ty_scalar_size((enum ty_scalar)w.s) !=
            ty_scalar_size((enum ty_scalar)n->x.t.s))
            n->via = n->x.t;   /* compare, then convert */
        n->x = (xty){w, X_VAL, 0, false};
        return true;
    default:
        asm_error_node(a, n, "internal error: settling %s to %s",
                       ty_name(n->x.t, b1), ty_name(w, b2));
        return false;
    }
    /* A flexible operator node: its operands take the type too. */
    bool ok = true;
    switch (n->kind) {
    case N_UNARY:
        ok = settle_type(a, n->a, w);
        break;
    case N_BINARY:
        ok = settle_type(a, n->a, w) && settle_type(a, n->b, w);
        if (ok && flt &&
            (n->op == P_MOD || n->op == P_AND || n->op == P_OR ||
             n->op == P_XOR || n->op == P_SHL || n->op == P_SHR)) {
            asm_error_node(a, n, "'%s' needs integer operands, not %s",
                           lex_punct_text(n->op), ty_name(w, b1));
            ok = false;
        }
        break;
    case N_COND:
        ok = settle_type(a, n->b, w) && settle_type(a, n->c, w);
        break;
    case N_CALL:
        break;   /* a work-item function: written as w */
    default:
        asm_error_node(a, n, "internal error: flexible node");
        return false;
    }
    n->x = (xty){w, X_VAL, 0, false};
    return ok;
}

bool settle_type(A *a, node *n, ty_t want)
{
    if (!xty_flexible(&n->x))
        return true;
    if (!settle_scalar(a, n, TY(want.s, 1)))
        return false;
    if (want.n > 1)
        n->bcast = want.n;
    return true;
}

bool settle_default(A *a, node *n)
{
    switch (n->x.cls) {
    case X_LIT: return settle_type(a, n, n->x.t);
    case X_SIZE: return settle_type(a, n, TY(TY_ULONG, 1));
    case X_BOOL: return settle_type(a, n, TY(TY_INT, 1));
    default: return true;
    }
}

bool settle_coerce(A *a, node *n, ty_t want, bool bcast, const char *what)
{
    char b1[48], b2[TY_NAME_MAX];
    if (xty_flexible(&n->x)) {
        if (want.n > 1 && !bcast && n->x.cls != X_LIT) {
            asm_error_node(a, n, "%s must be %s, not a scalar", what,
                           ty_name(want, b2));
            return false;
        }
        return settle_type(a, n, want);
    }
    if (n->x.cls == X_VAL && ty_eq(n->x.t, want))
        return true;
    if (n->x.cls == X_VAL && bcast && n->x.t.n == 1 && want.n > 1 &&
        ty_eq(n->x.t, TY(want.s, 1))) {
        n->bcast = want.n;
        return true;
    }
    asm_error_node(a, n, "%s is %s, expected %s", what,
                   diag_xty_name(&n->x, b1), ty_name(want, b2));
    return false;
}
