/* OpenCL C's implicit conversions at an operator (C99 6.3.1.1, 6.3.1.8;
 * OpenCL C "Usual Arithmetic Conversions"): scalar char, uchar, short and
 * ushort operands are promoted to int, then the two operands meet in their
 * common type. Vectors are never promoted.
 *
 * The IR makes such a conversion itself only where it keeps the value: a
 * promotion, a widening (int to long, float to double) of an operand that
 * meets an implicitly typed one (a literal, size_t, a promoted result),
 * and a constant that fits (or a negative constant wrapping into an
 * unsigned type, as ~0 does). Any other conversion OpenCL C would make
 * (int to uint, int to float, long to ulong, between two registers of
 * different types) is an error that says what OpenCL C converts and how
 * to write it. A result whose type no written type decided is implicitly
 * typed (X_IMPL): narrow.c converts it to the destination. */
#include <string.h>

#include "asm/asmint.h"

static bool is_int(ty_t t) { return !ty_is_float((enum ty_scalar)t.s); }
static ty_t elem(ty_t t) { return TY(t.s, 1); }

static bool narrow_int(ty_t t)
{
    return t.n == 1 && is_int(t) && ty_scalar_size((enum ty_scalar)t.s) < 4;
}

/* Source text of n for messages (at most 40 bytes). */
static int slen(const node *n)
{
    uint32_t l = n->end > n->col ? n->end - n->col : 1;
    return (int)(l > 40 ? 40 : l);
}
#define SRC(a, n) slen(n), (a)->text + (n)->col - 1

node *conv_cast(A *a, node *c, ty_t t)
{
    node *n = parse_node(a, N_CAST, c->col, c->end);
    if (!n)
        return NULL;
    n->a = c, n->ty = t, n->implicit = true, n->checked = true;
    n->height = c->height + 1;
    n->x = (xty){t, X_IMPL, 0, false};
    if (c->isconst && !c->bcast && c->x.cls == X_VAL)
        fold_cast(a, n, c);
    if (c->cknown && is_int(c->x.t))
        n->cknown = true, n->cval = lit_convert((enum ty_scalar)t.s,
                                                (enum ty_scalar)c->x.t.s,
                                                c->cval);
    rng_set(n);
    return n;
}

bool conv_promote(A *a, node **p)
{
    node *c = *p;
    if (c->x.cls != X_VAL || !narrow_int(c->x.t))
        return true;
    return (*p = conv_cast(a, c, TY(TY_INT, 1))) != NULL;
}

/* ---- the C type of an operand ---- */

/* The operand's C type after promotion: a literal its own, a truth value
 * int, size_t ulong. */
static ty_t ctype(const node *n)
{
    if (n->x.cls == X_BOOL)
        return TY(TY_INT, 1);
    if (n->x.cls == X_SIZE)
        return TY(TY_ULONG, 1);
    return n->x.t;
}

static bool implicit(const node *n)
{
    return n->x.cls != X_VAL;
}

/* Would converting n to t keep its value? */
static bool keeps(const node *n, ty_t t)
{
    ty_t s = ctype(n);
    if (ty_eq(s, t))
        return true;
    if (is_int(s) != is_int(t))
        return false;
    if (!is_int(s))   /* float to double; never narrower */
        return ty_scalar_size((enum ty_scalar)t.s) >
               ty_scalar_size((enum ty_scalar)s.s);
    return rng_in(node_rng(n), t);
}

/* Makes operand *p a value of C type t (keeps() or a constant). final: the
 * operation is typed by a written type, so nothing stays flexible. */
static bool to_type(A *a, node **p, ty_t t, bool final)
{
    node *n = *p;
    switch (n->x.cls) {
    case X_LIT:
        return settle_type(a, n, t);
    case X_BOOL:
        if (final)
            narrow_bool(n, t);
        return true;
    case X_SIZE: case X_IMPL:
        if (ty_eq(n->x.t, t))
            return !final || narrow_to(a, n, t);
        if (n->kind == N_CAST && n->implicit && n->a->x.cls == X_VAL &&
            !n->isconst) {
            n->x.t = t, n->ty = t;   /* a promotion, retargeted */
            if (n->a->cknown)
                n->cval = lit_convert((enum ty_scalar)t.s,
                                      (enum ty_scalar)n->a->x.t.s,
                                      n->a->cval);
            rng_set(n);
        } else if (!(n = *p = conv_cast(a, n, t))) {
            return false;
        }
        return !final || narrow_to(a, n, t);
    default:
        if (ty_eq(n->x.t, t))
            return true;
        return (*p = conv_cast(a, n, t)) != NULL;
    }
}

static const char *tn(ty_t t, char buf[TY_NAME_MAX]) { return ty_name(t, buf); }
static bool is_flex(const node *n) { return xty_flexible(&n->x); }

/* Conditions take a truth value in the comparison's own type: no
 * conversion needed. */
static bool settle_cond(A *a, node *n)
{
    if (n->x.cls == X_BOOL) {
        n->x.cls = X_VAL;
        return true;
    }
    return settle_default(a, n);
}

/* ---- messages ---- */

/* OpenCL C would convert operand f (left: fl) to t, meeting o, which the
 * IR does not do implicitly. */
static void reject(A *a, node *n, const char *op, node *f, node *o, bool fl,
                   ty_t t)
{
    char bf[TY_NAME_MAX], bo[TY_NAME_MAX], bt[TY_NAME_MAX];
    ty_t s = ctype(f);
    bool ints = is_int(s) && is_int(t);
    bool narrower = ints && ty_scalar_size((enum ty_scalar)t.s) <
                                ty_scalar_size((enum ty_scalar)s.s);
    bool wraps = ints && ty_is_signed((enum ty_scalar)s.s) &&
                 !ty_is_signed((enum ty_scalar)t.s);
    const char *how = !is_int(s) && is_int(t) ? ", toward zero"
                      : is_int(s) && !is_int(t) ? ", rounding if it must"
                      : narrower ? ", wrapping a value that does not fit"
                      : wraps ? ", so a negative value wraps to a large one"
                      : "";
    ty_name(s, bf), ty_name(t, bt);
    if (o->x.cls == X_SIZE)
        snprintf(bo, sizeof bo, "size_t");
    else
        ty_name(ctype(o), bo);
    bool same = is_int(s) && is_int(t) &&
                ty_scalar_size((enum ty_scalar)s.s) ==
                    ty_scalar_size((enum ty_scalar)t.s);
    const char *as1 = same ? " or as_" : "", *as2 = same ? bt : "",
               *as3 = same ? "(...)" : "";
    if (f->x.cls == X_VAL && o->x.cls == X_VAL) {
        asm_error_node(a, n, "type mismatch: %s %s %s (OpenCL C converts "
                       "'%.*s' to %s%s; the IR converts no register "
                       "implicitly: write convert_%s(...)%s%s%s on it, or "
                       "convert the other operand)", fl ? bf : bo, op,
                       fl ? bo : bf, SRC(a, f), bt, how, bt, as1, as2, as3);
        return;
    }
    asm_error_node(a, n, "'%s': OpenCL C converts '%.*s' (%s) to %s here, "
                   "the usual arithmetic conversions with '%.*s' (%s)%s; "
                   "the IR converts implicitly only where no value changes: "
                   "write convert_%s(...)%s%s%s on it%s", op, SRC(a, f), bf,
                   bt, SRC(a, o), bo, how, bt, as1, as2, as3,
                   o->x.cls == X_LIT ? ", or write the constant so that it "
                   "has the operand's type" : "");
}

/* ---- operators ---- */

enum opcls { O_ARITH, O_INT, O_CMP, O_LOGIC };

static enum opcls op_class(int op)
{
    switch (op) {
    case P_ADD: case P_SUB: case P_MUL: case P_DIV: return O_ARITH;
    case P_LT: case P_LE: case P_GT: case P_GE: case P_EQ: case P_NE:
        return O_CMP;
    case P_ANDAND: case P_OROR: return O_LOGIC;
    default: return O_INT;
    }
}

static void vmismatch(A *a, node *n, const char *op, ty_t l, ty_t r)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX];
    tn(l, b1), tn(r, b2);
    if (l.n == r.n && ty_sizeof(l) == ty_sizeof(r))
        asm_error_node(a, n, "type mismatch: %s %s %s (write convert_%s(...) "
                       "to convert a value, or as_%s(...) to reinterpret its "
                       "bits)", b1, op, b2, b1, b1);
    else if (l.n == r.n)
        asm_error_node(a, n, "type mismatch: %s %s %s (write convert_%s(...) "
                       "to convert)", b1, op, b2, b1);
    else
        asm_error_node(a, n, "type mismatch: %s %s %s (different component "
                       "counts)", b1, op, b2);
}

/* Brings two checked operands to one type T (a scalar of T's element type
 * is broadcast). Returns false after reporting. */
bool conv_unify(A *a, node *n, node *l, node *r, const char *op, ty_t *t)
{
    char b1[48];
    if ((l->x.cls == X_IMPL && !settle_default(a, l)) ||
        (r->x.cls == X_IMPL && !settle_default(a, r)))
        return false;   /* an implicitly typed value has its type here */
    bool fl = is_flex(l), fr = is_flex(r);
    if (l->x.cls == X_PTR || r->x.cls == X_PTR || l->x.cls == X_VOID ||
        r->x.cls == X_VOID) {
        node *bad = l->x.cls == X_PTR || l->x.cls == X_VOID ? l : r;
        asm_error_node(a, bad, "'%s' cannot take %s", op,
                       diag_xty_name(&bad->x, b1));
        return false;
    }
    if (fl && fr) {
        if (!settle_default(a, l))
            return false;
        fl = false;
    }
    if (fl || fr) {
        node *f = fl ? l : r, *k = fl ? r : l;
        *t = k->x.t;
        return settle_type(a, f, *t);
    }
    ty_t lt = l->x.t, rt = r->x.t;
    if (ty_eq(lt, rt)) {
        *t = lt;
        return true;
    }
    if (lt.n == 1 && rt.n > 1 && ty_eq(lt, elem(rt))) {
        l->bcast = rt.n, *t = rt;
        return true;
    }
    if (rt.n == 1 && lt.n > 1 && ty_eq(rt, elem(lt))) {
        r->bcast = lt.n, *t = lt;
        return true;
    }
    vmismatch(a, n, op, lt, rt);
    return false;
}

/* ---- operands ---- */

/* A vector meets a vector or a scalar: no promotion; a scalar of the
 * vector's element type is broadcast, a literal or flexible scalar is
 * converted to it (if it keeps its value), as OpenCL C converts a scalar
 * to the element type. */
static bool vector_operands(A *a, node *n, node **l, node **r,
                            const char *op, ty_t *t)
{
    node *L = *l, *R = *r;
    bool lv = L->x.cls == X_VAL && L->x.t.n > 1;
    node **sp = lv ? r : l, *S = *sp, *V = lv ? L : R;
    ty_t vt = V->x.t;
    if (S->x.cls == X_VAL && S->x.t.n > 1) {
        if (ty_eq(L->x.t, R->x.t)) {
            *t = vt;
            return true;
        }
        vmismatch(a, n, op, L->x.t, R->x.t);
        return false;
    }
    if (S->x.cls == X_VAL) {
        if (ty_eq(S->x.t, elem(vt))) {
            S->bcast = vt.n, *t = vt;
            return true;
        }
        vmismatch(a, n, op, L->x.t, R->x.t);
        return false;
    }
    if (S->x.cls == X_IMPL && !keeps(S, elem(vt))) {
        char b1[TY_NAME_MAX], b2[TY_NAME_MAX];
        if (!ty_eq(lit_common(S->x.t, elem(vt)), elem(vt)))
            asm_error_node(a, n, "'%s': '%.*s' is %s in OpenCL C, which "
                           "rejects a scalar whose type ranks above the "
                           "element type of the vector %s: write "
                           "convert_%s(...) on it", op, SRC(a, S),
                           tn(S->x.t, b1), tn(vt, b2),
                           ty_scalar_name((enum ty_scalar)vt.s));
        else
            reject(a, n, op, S, V, !lv, elem(vt));
        return false;
    }
    *t = vt;
    return settle_type(a, S, vt);
}

bool conv_operands(A *a, node *n, node **l, node **r, const char *op,
                   ty_t *t, uint8_t *cls)
{
    char b1[48];
    node *L = *l, *R = *r;
    if (L->x.cls == X_PTR || R->x.cls == X_PTR || L->x.cls == X_VOID ||
        R->x.cls == X_VOID) {
        node *bad = L->x.cls == X_PTR || L->x.cls == X_VOID ? L : R;
        asm_error_node(a, bad, "'%s' cannot take %s", op,
                       diag_xty_name(&bad->x, b1));
        return false;
    }
    if ((L->x.cls == X_VAL && L->x.t.n > 1) ||
        (R->x.cls == X_VAL && R->x.t.n > 1)) {
        *cls = X_VAL;
        return vector_operands(a, n, l, r, op, t);
    }
    if (!conv_promote(a, l) || !conv_promote(a, r))
        return false;
    L = *l, R = *r;
    if ((L->litonly && !fold_nat(a, L)) || (R->litonly && !fold_nat(a, R)))
        return false;
    ty_t lt = ctype(L), rt = ctype(R), c = lit_common(lt, rt);
    /* who converts: a written type never, unless it meets an implicit
     * one and keeps its value; a constant if it fits */
    for (int side = 0; side < 2; side++) {
        node *f = side ? R : L, *o = side ? L : R;
        if (ty_eq(ctype(f), c))
            continue;
        bool ok = f->x.cls == X_LIT ? true
                  : f->x.cls == X_VAL ? implicit(o) && keeps(f, c)
                                      : keeps(f, c);
        if (!ok) {
            reject(a, n, op, f, o, side == 0, c);
            return false;
        }
    }
    bool typed = (L->x.cls == X_VAL && ty_eq(lt, c)) ||
                 (R->x.cls == X_VAL && ty_eq(rt, c));
    *cls = typed ? X_VAL : X_IMPL;
    *t = c;
    return to_type(a, l, c, typed) && to_type(a, r, c, typed);
}

/* The count of a shift whose left operand has (promoted) type t: any
 * integer scalar; only its low bits count, so it is converted to t's
 * unsigned type where needed (that keeps them). typed: the shift's type
 * is written, nothing stays flexible. */
static bool conv_count(A *a, node **p, ty_t t, bool typed)
{
    char b1[48];
    node *c = *p;
    ty_t u = ty_unsigned(TY(t.s, 1));
    if (c->x.cls == X_PTR || c->x.cls == X_VOID ||
        (c->x.cls == X_VAL && c->x.t.n > 1) || !is_int(ctype(c))) {
        asm_error_node(a, c, "a shift count of a scalar must be a scalar "
                       "integer, not %s", diag_xty_name(&c->x, b1));
        return false;
    }
    switch (c->x.cls) {
    case X_LIT:
        if (!fold_nat(a, c))
            return false;
        c->cknown = true, c->cval = c->litv;
        return !typed || fold_lit_wrap(a, c, t);
    case X_BOOL:
        if (typed)
            narrow_bool(c, u);
        return true;
    case X_VAL:
        if (ty_scalar_size((enum ty_scalar)c->x.t.s) ==
            ty_scalar_size((enum ty_scalar)t.s) && typed)
            return true;   /* read as t: the same bits */
        if (!(*p = conv_cast(a, c, u)))
            return false;
        return !typed || narrow_to(a, *p, u);
    default:
        return !typed || narrow_to(a, c, u);
    }
}

/* ---- operators ---- */

/* A zero literal at n's place, for the tests C makes implicitly. */
static node *zero_at(A *a, const node *n)
{
    node *z = parse_node(a, N_LIT, n->col, n->end);
    if (z) {
        z->l.kind = LIT_INT, z->l.nat = TY(TY_INT, 1);
        z->litonly = true, z->height = 1, z->checked = true;
        z->x = (xty){TY(TY_INT, 1), X_LIT, 0, false};
    }
    return z;
}

/* n (a checked scalar or vector) compared with zero: what C's logical
 * operators and conditions test. A truth value is its own test. */
static bool truthy(A *a, node **p)
{
    node *o = *p;
    if (o->x.cls == X_BOOL)
        return true;
    node *t = parse_node(a, N_BINARY, o->col, o->end);
    if (!t || !(t->b = zero_at(a, o)))
        return false;
    t->op = P_NE, t->a = o, t->height = o->height + 1;
    *p = t;
    return (t->checked = conv_binary(a, t));
}

static bool is_float_val(const node *n)
{
    return (n->x.cls == X_VAL || n->x.cls == X_IMPL || n->x.cls == X_LIT) &&
           !is_int(n->x.t);
}

/* An operand of a comparison settled to w (its C value fits w). */
static bool operand_to(A *a, node *o, ty_t w)
{
    if (o->litonly)
        return fold_lit(a, o, w);
    switch (o->x.cls) {
    case X_BOOL: narrow_bool(o, w); return true;
    case X_IMPL: case X_SIZE: return narrow_to(a, o, w);
    default: return true;
    }
}

/* A type narrower than the common type t in which a comparison of l and
 * r gives the same truth: the type both were promoted from (uchar == uchar
 * is LT_U8, and so prints again), or float for floats meeting double
 * constants that are floats exactly. */
static ty_t compare_type(const node *l, const node *r, ty_t t)
{
    const node *o[2] = {l, r};
    if (t.s == TY_DOUBLE) {
        for (int i = 0; i < 2; i++) {
            const node *x = o[i];
            bool fx = (x->kind == N_CAST && x->implicit &&
                       x->a->x.t.s == TY_FLOAT);
            if (x->litonly && x->isconst) {
                double d;
                memcpy(&d, &x->vv[0], 8);
                fx = d != d || (double)(float)d == d;
            }
            if (!fx)
                return t;
        }
        return TY(TY_FLOAT, 1);
    }
    if (t.s != TY_INT)
        return t;
    for (int i = 0; i < 2; i++) {
        const node *x = o[i];
        if (!(x->kind == N_CAST && x->implicit && x->a->x.cls == X_VAL))
            continue;
        ty_t w = x->a->x.t;
        bool fits = true;
        for (int j = 0; j < 2; j++) {
            const node *y = o[j];
            if (y->kind == N_CAST && y->implicit && y->a->x.cls == X_VAL)
                fits &= rng_in(rng_type(y->a->x.t), w);
            else
                fits &= y->litonly && rng_in(node_rng(y), w);
        }
        if (fits)
            return w;
    }
    return t;
}

/* l and r are in their common type t: a comparison gives a truth value
 * (scalars) or a mask (vectors). */
static bool compare(A *a, node *n, ty_t t)
{
    if (t.n > 1) {
        n->x = (xty){ty_signed(t), X_VAL, 0, false};
        return true;
    }
    ty_t w = compare_type(n->a, n->b, t);
    if (!operand_to(a, n->a, w) || !operand_to(a, n->b, w))
        return false;
    n->x = (xty){ty_signed(w), X_BOOL, 0, false};
    return true;
}

/* && and ||. Scalars short-circuit (lower.c), each operand tested against
 * zero in its own type, as C does; vectors are tested per component, both
 * evaluated. */
static bool logic(A *a, node *n)
{
    const char *op = lex_punct_text(n->op);
    char b1[48];
    node **o[2] = {&n->a, &n->b};
    bool vec = (n->a->x.cls == X_VAL && n->a->x.t.n > 1) ||
               (n->b->x.cls == X_VAL && n->b->x.t.n > 1);
    for (int i = 0; i < 2; i++) {
        node *e = *o[i];
        if (e->x.cls == X_PTR || e->x.cls == X_VOID) {
            asm_error_node(a, e, "'%s' cannot take %s", op,
                           diag_xty_name(&e->x, b1));
            return false;
        }
        if ((!vec || is_float_val(e)) && !truthy(a, o[i]))
            return false;
    }
    if (!vec) {
        n->x = (xty){TY(TY_INT, 1), X_BOOL, 0, false};
        return true;
    }
    ty_t t;
    uint8_t cls;
    if (!conv_operands(a, n, &n->a, &n->b, op, &t, &cls))
        return false;
    n->x = (xty){ty_signed(t), X_VAL, 0, false};
    return true;
}

/* << and >>: the result has the promoted left operand's type; the count
 * is promoted on its own and only its low bits count (OpenCL C masks it
 * by the promoted width). Vectors: the count is a vector of the same type
 * or a scalar of its element type. */
static bool shift(A *a, node *n)
{
    const char *op = lex_punct_text(n->op);
    char b1[TY_NAME_MAX];
    node *l = n->a;
    ty_t t;
    uint8_t cls;
    node *c = n->b;
    if (l->x.cls == X_VAL && l->x.t.n > 1 && c->x.cls == X_VAL &&
        is_int(l->x.t) && is_int(c->x.t) && !ty_eq(c->x.t, l->x.t) &&
        (c->x.t.n == 1 || c->x.t.n == l->x.t.n)) {
        /* a vector shifted by a count of another integer type (a scalar,
         * or a vector of as many components): only the count's low bits
         * matter, so it converts (OpenCL C applies no usual arithmetic
         * conversions to shifts) */
        ty_t u = ty_unsigned(TY(l->x.t.s, c->x.t.n));
        if (!(n->b = conv_cast(a, c, u)))
            return false;
        n->b->x.cls = X_VAL;   /* of a typed count: nothing to settle */
        if (c->x.t.n == 1)
            n->b->bcast = l->x.t.n;
        t = l->x.t, cls = X_VAL;
    } else if ((l->x.cls == X_VAL && l->x.t.n > 1) ||
        (c->x.cls == X_VAL && c->x.t.n > 1) || l->x.cls == X_PTR ||
        l->x.cls == X_VOID) {
        if (!conv_operands(a, n, &n->a, &n->b, op, &t, &cls))
            return false;
    } else {
        if (!conv_promote(a, &n->a))
            return false;
        l = n->a;
        cls = l->x.cls == X_VAL ? X_VAL : X_IMPL;
        if (l->x.cls == X_LIT && !settle_type(a, l, l->x.t))
            return false;
        if (l->x.cls == X_SIZE)
            cls = n->op == P_SHL && n->b->litonly ? X_SIZE : X_IMPL;
        t = l->x.cls == X_SIZE ? TY(TY_ULONG, 1)
            : l->x.cls == X_BOOL ? TY(TY_INT, 1) : l->x.t;
        if (is_int(t) && !conv_count(a, &n->b, t, cls == X_VAL))
            return false;
    }
    if (!is_int(t)) {
        asm_error_node(a, n, "'%s' needs integer operands, not %s", op,
                       tn(t, b1));
        return false;
    }
    n->x = (xty){t, cls, 0, false};
    if (cls != X_VAL)
        rng_set(n);
    return true;
}

static bool is_size_lit(const node *x, const node *y)
{
    return x->x.cls == X_SIZE &&
           ((y->litonly && is_int(y->x.t)) || y->x.cls == X_SIZE);
}

bool conv_binary(A *a, node *n)
{
    node *l = n->a, *r = n->b;
    const char *op = lex_punct_text(n->op);
    enum opcls oc = op_class(n->op);
    char b1[TY_NAME_MAX];
    int kept = l->litonly && r->litonly ? fold_kept(a, n) : 0;
    if (kept < 0)
        return false;
    n->litonly = false;
    if (l->litonly && r->litonly && !kept) {
        n->litonly = true;
        ty_t nat = oc == O_CMP || oc == O_LOGIC ? TY(TY_INT, 1)
                   : n->op == P_SHL || n->op == P_SHR
                       ? lit_common(l->x.t, TY(TY_INT, 1))
                       : lit_common(l->x.t, r->x.t);
        n->x = (xty){nat, X_LIT, 0, false};
        return true;
    }
    /* Pointer arithmetic: p + i, i + p, p - i. */
    if ((n->op == P_ADD || n->op == P_SUB) &&
        (l->x.cls == X_PTR || r->x.cls == X_PTR)) {
        if (r->x.cls == X_PTR && n->op == P_ADD && l->x.cls != X_PTR)
            n->a = r, n->b = l, l = n->a, r = n->b;
        if (r->x.cls == X_PTR) {
            asm_error_node(a, n, "'%s' between two pointers", op);
            return false;
        }
        if (!settle_default(a, r) || r->x.cls != X_VAL || r->x.t.n != 1 ||
            !is_int(r->x.t)) {
            asm_error_node(a, r, "a pointer offset must be a scalar integer");
            return false;
        }
        n->x = l->x;
        return true;
    }
    if (oc == O_LOGIC)
        return logic(a, n);
    if (n->op == P_SHL || n->op == P_SHR)
        return shift(a, n);
    /* size_t + - * & | ^ with integer literals stays size_t: it takes the
     * type it is assigned to where that gives OpenCL C's bits (narrow.c) */
    if (n->op != P_DIV && n->op != P_MOD && oc != O_CMP &&
        (is_size_lit(l, r) || is_size_lit(r, l))) {
        if ((l->litonly && !fold_nat(a, l)) || (r->litonly && !fold_nat(a, r)))
            return false;
        n->x = (xty){TY(TY_ULONG, 1), X_SIZE, 0, false};
        rng_set(n);
        return true;
    }
    ty_t t;
    uint8_t cls;
    if (!conv_operands(a, n, &n->a, &n->b, op, &t, &cls))
        return false;
    if (oc == O_INT && !is_int(t)) {
        asm_error_node(a, n, "'%s' needs integer operands, not %s", op,
                       tn(t, b1));
        return false;
    }
    if (oc == O_CMP)
        return compare(a, n, t);
    n->x = (xty){t, cls, 0, false};
    if (cls != X_VAL)
        rng_set(n);
    return true;
}

bool conv_unary(A *a, node *n)
{
    char b1[48];
    node *c = n->a;
    const char *op = lex_punct_text(n->op);
    int kept = c->litonly ? fold_kept(a, n) : 0;
    if (kept < 0)
        return false;
    n->litonly = false;
    if (c->litonly && !kept) {
        n->litonly = true;
        n->x = (xty){n->op == P_NOT ? TY(TY_INT, 1) : c->x.t, X_LIT, 0, false};
        return true;
    }
    if (c->x.cls == X_PTR || c->x.cls == X_VOID) {
        asm_error_node(a, n, "'%s' cannot take %s", op,
                       diag_xty_name(&c->x, b1));
        return false;
    }
    if (n->op == P_NOT) {
        if (!settle_default(a, c))
            return false;
        if (!is_int(c->x.t)) {
            /* !f is f == 0, an int (vectors: a mask), as OpenCL C says */
            n->kind = N_BINARY, n->op = P_EQ;
            if (!(n->b = zero_at(a, n)))
                return false;
            return conv_binary(a, n);
        }
        n->x = (xty){ty_signed(c->x.t), c->x.t.n > 1 ? X_VAL : X_BOOL, 0,
                     false};
        return true;
    }
    /* - ~ +: a scalar char or short is promoted to int first */
    if (!conv_promote(a, &n->a))
        return false;
    c = n->a;
    uint8_t cls = c->x.cls == X_VAL ? X_VAL
                  : c->x.cls == X_SIZE ? X_SIZE : X_IMPL;
    ty_t t = c->x.cls == X_SIZE ? TY(TY_ULONG, 1)
             : c->x.cls == X_BOOL ? TY(TY_INT, 1) : c->x.t;
    if (n->op == P_TILDE && !is_int(t)) {
        asm_error_node(a, n, "'~' needs an integer operand, not %s",
                       tn(t, (char[TY_NAME_MAX]){0}));
        return false;
    }
    n->x = (xty){t, cls, 0, false};
    if (cls != X_VAL)
        rng_set(n);
    return true;
}

bool conv_cond(A *a, node *n)
{
    char b1[48], b2[TY_NAME_MAX], b3[TY_NAME_MAX];
    /* a floating scalar condition is tested against zero, as in C */
    if (n->a->x.t.n == 1 && is_float_val(n->a) && !truthy(a, &n->a))
        return false;
    if (!settle_cond(a, n->a))
        return false;
    node *c = n->a;
    if (c->x.cls != X_VAL || !is_int(c->x.t)) {
        asm_error_node(a, c, "the condition of ?: must be an integer, not %s",
                       diag_xty_name(&c->x, b1));
        return false;
    }
    ty_t t;
    uint8_t cls = X_VAL;
    if (n->b->litonly && n->c->litonly) {
        if (!fold_nat(a, n->b) || !fold_nat(a, n->c))
            return false;
        if (c->x.t.n == 1) {
            /* literal arms: their common C type, each converted to it */
            t = lit_common(n->b->litt, n->c->litt);
            node *arm[2] = {n->b, n->c};
            for (int i = 0; i < 2; i++) {
                if (!fold_lit(a, arm[i], t))
                    return false;
                arm[i]->litv = arm[i]->vv[0], arm[i]->litt = t;
            }
            n->x = (xty){t, X_IMPL, 0, false};
            rng_set(n);
            return true;
        }
        t = ty_signed(c->x.t);   /* select with literal arms */
        if (!settle_type(a, n->b, t) || !settle_type(a, n->c, t))
            return false;
    } else if (!conv_operands(a, n, &n->b, &n->c, "?:", &t, &cls)) {
        return false;
    }
    if (c->x.t.n == 1) {
        n->x = (xty){t, cls, 0, false};
        if (cls != X_VAL)
            rng_set(n);
        return true;
    }
    /* A vector condition selects per component (select). */
    if (t.n != c->x.t.n || ty_scalar_size((enum ty_scalar)t.s) !=
                               ty_scalar_size((enum ty_scalar)c->x.t.s)) {
        asm_error_node(a, n, "a %s condition selects between vectors of %u "
                       "components with %u-byte elements, not %s",
                       tn(c->x.t, b2), c->x.t.n,
                       ty_scalar_size((enum ty_scalar)c->x.t.s),
                       tn(t, b3));
        return false;
    }
    n->x = (xty){t, X_VAL, 0, false};
    return true;
}

