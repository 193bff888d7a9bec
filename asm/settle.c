/* Settling: the type a flexible operand (a literal, a size_t value, a
 * truth value, an implicitly typed value) takes from the operand or
 * destination it meets, and the check that a checked operand is of the
 * type a context demands. */
#include "asm/asmint.h"

/* Why OpenCL C gave implicitly typed n its type, for messages. */
const char *settle_why(const node *n)
{
    if (!n)
        return NULL;
    if (n->kind == N_CAST && n->implicit) {
        enum ty_scalar s = (enum ty_scalar)n->a->x.t.s;
        if (n->x.t.s == TY_INT && ty_scalar_size(s) < 4 && !ty_is_float(s))
            return "char and short operands are promoted to int";
        if (n->x.t.s == TY_DOUBLE && s == TY_FLOAT)
            return "an unsuffixed floating literal is a double, and the "
                   "float meeting it is converted to double";
    }
    if (n->x.cls == X_SIZE)
        return "size_t is ulong";
    const char *w = NULL;
    node *kids[3] = {n->a, n->b, n->c};
    for (int i = 0; i < 3 && !w; i++)
        if (kids[i] && (kids[i]->x.cls == X_IMPL ||
                        kids[i]->x.cls == X_SIZE))
            w = settle_why(kids[i]);
    return w ? w : "the usual arithmetic conversions with a literal's type";
}

/* Gives flexible n the scalar type w. */
static bool settle_scalar(A *a, node *n, ty_t w)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX];
    bool flt = ty_is_float((enum ty_scalar)w.s);
    uint32_t len = n->end > n->col ? n->end - n->col : 1;
    switch (n->x.cls) {
    case X_LIT:
        return fold_lit(a, n, w);
    case X_SIZE:
    case X_IMPL:
        if (n->kind == N_COND && n->b->litonly && n->c->litonly) {
            /* c ? 1 : 2: converting each arm (in the arms' common type)
             * converts the result, as OpenCL C does */
            n->x = (xty){w, X_VAL, 0, false};
            return fold_lit(a, n->b, w) && fold_lit(a, n->c, w);
        }
        if (flt != ty_is_float((enum ty_scalar)n->x.t.s)) {
            asm_error_node(a, n, "%.*s is %s in OpenCL C (%s); it becomes "
                           "%s only by a conversion: write convert_%s(...)",
                           (int)(len > 40 ? 40 : len), a->text + n->col - 1,
                           ty_name(n->x.t, b1), settle_why(n),
                           ty_name(w, b2), b2);
            return false;
        }
        return narrow_to(a, n, w);
    case X_BOOL:
        if (w.n != 1 || flt) {
            asm_error_node(a, n, "a truth value (1 or 0) is an integer; it "
                           "cannot be %s (convert it)", ty_name(w, b1));
            return false;
        }
        narrow_bool(n, w);
        return true;
    default:
        asm_error_node(a, n, "internal error: settling %s to %s",
                       ty_name(n->x.t, b1), ty_name(w, b2));
        return false;
    }
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
    case X_IMPL: return settle_type(a, n, n->x.t);
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
