/* The type checker: OpenCL C typing of an expression tree (operators,
 * vectors, swizzles, built-in and extern calls), stricter than C in one way
 * (no implicit conversions between registers) and friendlier in another (a
 * literal takes the type of the operand it meets: settle.c). */
#include <string.h>

#include "asm/asmint.h"
#include "stdlib/reinterpret.h"

static ty_t elem(ty_t t) { return TY(t.s, 1); }
static bool is_int(ty_t t) { return !ty_is_float((enum ty_scalar)t.s); }
static bool is_flex(const node *n) { return xty_flexible(&n->x); }

static const char *tn(ty_t t, char buf[TY_NAME_MAX]) { return ty_name(t, buf); }

static const char *fname(const node *n, char buf[BI_NAME_MAX])
{
    if (n->op == F_BI)
        return bi_format(&n->bi, buf);
    if (n->op == F_EXT) {
        snprintf(buf, BI_NAME_MAX, "%.*s", (int)n->nlen, n->name);
        return buf;
    }
    return asm_fns[n->op].name;
}

bool check_int_scalar(A *a, node *n, const char *what)
{
    char b1[48];
    if (!check_expr(a, n) || !settle_default(a, n))
        return false;
    if (n->x.cls != X_VAL || n->x.t.n != 1 || !is_int(n->x.t)) {
        asm_error_node(a, n, "%s must be a scalar integer, not %s", what,
                       diag_xty_name(&n->x, b1));
        return false;
    }
    return true;
}

/* An address as an integer: a ulong or long (docs/semantics.md,
 * "Addresses"). */
static bool addr_type(A *a, node *n, ty_t t, bool to_ptr)
{
    char b1[TY_NAME_MAX];
    if (t.n == 1 && (t.s == TY_ULONG || t.s == TY_LONG))
        return true;
    ty_name(t, b1);
    asm_error_node(a, n, "%s must be a ulong or long, not %s (write %s%s%s)",
                   to_ptr ? "an integer converted to a pointer"
                          : "a pointer converted to an integer", b1,
                   to_ptr ? "" : "convert_", to_ptr ? "" : b1,
                   to_ptr ? "(SPACE T *)((ulong)a)" : "((ulong)p)");
    return false;
}

static bool check_cast(A *a, node *n)
{
    char b1[48];
    node *c = n->a;
    if (!check_expr(a, c) || !settle_default(a, c))
        return false;
    if (c->x.cls == X_PTR) {   /* (ulong)p: its address (PTOU) */
        if (!addr_type(a, n, n->ty, false))
            return false;
        n->x = (xty){n->ty, X_VAL, 0, false};
        return true;
    }
    if (c->x.cls != X_VAL || c->x.t.n != 1) {
        asm_error_node(a, n, "a cast takes a scalar, not %s (for vectors "
                       "write convert_T)", diag_xty_name(&c->x, b1));
        return false;
    }
    n->x = (xty){n->ty, X_VAL, 0, false};
    if (c->isconst)
        fold_cast(a, n, c);
    return true;
}

static bool check_vec(A *a, node *n)
{
    char b1[48], b2[TY_NAME_MAX];
    ty_t t = n->ty;
    unsigned count = 0;
    bool allc = true;
    for (unsigned i = 0; i < n->nargs; i++) {
        node *e = n->args[i];
        if (!check_expr(a, e) || !settle_type(a, e, elem(t)))
            return false;
        if (e->x.cls != X_VAL || e->x.t.s != t.s) {
            asm_error_node(a, e, "a component of (%s)(...) must be %s, not "
                           "%s", tn(t, b2), ty_scalar_name((enum ty_scalar)t.s),
                           diag_xty_name(&e->x, b1));
            return false;
        }
        count += e->x.t.n;
        allc &= e->isconst;
    }
    if (!(n->nargs == 1 && count == 1) && count != t.n) {
        asm_error_node(a, n, "(%s)(...) needs %u components, got %u",
                       tn(t, b2), t.n, count);
        return false;
    }
    n->x = (xty){t, X_VAL, 0, false};
    if (allc) {
        unsigned k = 0;
        for (unsigned i = 0; i < n->nargs; i++)
            for (unsigned j = 0; j < n->args[i]->x.t.n; j++)
                n->vv[k++] = n->args[i]->vv[j];
        for (; k < t.n; k++)
            n->vv[k] = n->vv[0];   /* (float4)(1.0f) */
        n->isconst = true;
    }
    return true;
}

/* Component indices of a selector name; the count, or 0 (reported). */
static unsigned selector(A *a, node *n, unsigned vn, uint8_t *sel)
{
    const char *s = n->name;
    unsigned len = n->nlen, k = 0;
    const char *what = NULL;
    if ((len == 2 && !memcmp(s, "lo", 2)) || (len == 2 && !memcmp(s, "hi", 2))
        || (len == 4 && !memcmp(s, "even", 4)) ||
        (len == 3 && !memcmp(s, "odd", 3))) {
        unsigned half = (vn == 3 ? 4 : vn) / 2;
        bool hi = s[0] == 'h', odd = s[0] == 'o', even = s[0] == 'e';
        if (vn == 3 && (hi || odd)) {
            asm_error_node(a, n, ".%.*s of a 3-component vector reads its "
                           "undefined w; write .%s", (int)len, s,
                           hi ? "z" : "y");
            return 0;
        }
        for (unsigned i = 0; i < half; i++)
            sel[k++] = (uint8_t)(even ? 2 * i : odd ? 2 * i + 1
                                 : hi ? half + i : i);
        return k;
    }
    if ((s[0] == 's' || s[0] == 'S') && len > 1) {
        for (unsigned i = 1; i < len; i++) {
            int c = s[i] | 32;
            int v = c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (v < 0) {
                what = "bad .s selector (hex digits 0-f)";
                break;
            }
            if (k == 16) {
                what = "more than 16 components";
                break;
            }
            sel[k++] = (uint8_t)v;
        }
    } else {
        for (unsigned i = 0; i < len && !what; i++) {
            const char *p = strchr("xyzw", s[i]);
            if (!p || !s[i])
                what = "bad component name (x y z w, s0-sf, lo hi even odd)";
            else if (k == 16)
                what = "more than 16 components";
            else
                sel[k++] = (uint8_t)(p - "xyzw");
        }
        if (!what && vn > 4)
            what = "x y z w name the components of vectors of up to 4; "
                   "write .s0-.sf";
    }
    if (what) {
        asm_error_node(a, n, ".%.*s: %s", (int)(len > 40 ? 40 : len), s, what);
        return 0;
    }
    for (unsigned i = 0; i < k; i++)
        if (sel[i] >= vn) {
            asm_error_node(a, n, ".%.*s: component %u is out of range for "
                           "a %u-component vector", (int)(len > 40 ? 40 : len),
                           s, sel[i], vn);
            return 0;
        }
    if (!ty_valid_width(k)) {
        asm_error_node(a, n, ".%.*s: %u components is no vector type (1, "
                       "2, 3, 4, 8 or 16)", (int)(len > 40 ? 40 : len), s, k);
        return 0;
    }
    return k;
}

static bool check_swz(A *a, node *n)
{
    char b1[48];
    node *v = n->a;
    if (!check_expr(a, v))
        return false;
    if (v->x.cls != X_VAL || v->x.t.n < 2) {
        asm_error_node(a, n, ".%.*s needs a vector, not %s",
                       (int)(n->nlen > 40 ? 40 : n->nlen), n->name,
                       is_flex(v) ? "a scalar" : diag_xty_name(&v->x, b1));
        return false;
    }
    uint8_t sel[16];
    unsigned k = selector(a, n, v->x.t.n, sel);
    if (!k)
        return false;
    if (v->kind == N_SWZ && !v->isconst && !v->bcast) {
        /* v.zyx.x is v.z: compose, so the base is read once. */
        for (unsigned i = 0; i < k; i++)
            sel[i] = v->sel[sel[i]];
        n->a = v->a;
    }
    memcpy(n->sel, sel, k);
    n->nsel = (uint8_t)k;
    n->x = (xty){TY(v->x.t.s, k), X_VAL, 0, false};
    if (v->isconst) {
        for (unsigned i = 0; i < k; i++)
            n->vv[i] = v->vv[sel[i]];
        n->isconst = true;
    }
    return true;
}

static bool check_index(A *a, node *n)
{
    char b1[48];
    if (!check_expr(a, n->a))
        return false;
    if (n->a->x.cls != X_PTR) {
        asm_error_node(a, n->a, "only pointers and arrays can be indexed, "
                       "not %s", is_flex(n->a) ? "a number"
                                               : diag_xty_name(&n->a->x, b1));
        return false;
    }
    if (!check_int_scalar(a, n->b, "an index"))
        return false;
    n->x = (xty){n->a->x.t, X_VAL, 0, false};
    return true;
}

/* ---- calls ---- */

static bool nargs_ok(A *a, node *n, unsigned want)
{
    char b[BI_NAME_MAX];
    if (n->nargs == want)
        return true;
    asm_error_node(a, n, "%s takes %u argument%s, got %u", fname(n, b), want,
                   want == 1 ? "" : "s", n->nargs);
    return false;
}

static bool check_ptr(A *a, node *p, const char *fn, bool store, bool half)
{
    char b1[48];
    if (!check_expr(a, p))
        return false;
    if (p->x.cls != X_PTR) {
        asm_error_node(a, p, "%s needs a pointer, not %s", fn,
                       is_flex(p) ? "a number" : diag_xty_name(&p->x, b1));
        return false;
    }
    if (p->x.t.n != 1 || (half && p->x.t.s != TY_HALF)) {
        asm_error_node(a, p, "%s needs a pointer to %s, not %s", fn,
                       half ? "half" : "a scalar type",
                       diag_xty_name(&p->x, b1));
        return false;
    }
    if (store && (p->x.cptr || p->x.space == BC_CONSTANT)) {
        asm_error_node(a, p, "%s stores through %s, which points to %s "
                       "data", fn, diag_xty_name(&p->x, b1),
                       p->x.cptr ? "const" : "constant");
        return false;
    }
    return true;
}

static bool check_as(A *a, node *n)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX], bn[BI_NAME_MAX];
    node *c = n->args[0];
    ty_t t = n->bi.type;
    if (!check_expr(a, c))
        return false;
    /* An integer literal operand takes the integer type of the result's
     * size, so as_float(0x3f800000) and as_half(0x7e00) read naturally. */
    size_t sz = ty_sizeof(t);
    if (c->litonly && c->x.cls == X_LIT && is_int(c->x.t) &&
        (sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
        ty_t it = TY(sz == 1 ? TY_UCHAR : sz == 2 ? TY_USHORT
                     : sz == 4 ? TY_UINT : TY_ULONG, 1);
        if (c->kind == N_LIT && c->l.neg)
            it = ty_signed(it);
        if (!settle_type(a, c, it))
            return false;
    }
    if (!settle_default(a, c))
        return false;
    if (c->x.cls != X_VAL) {
        asm_error_node(a, c, "%s cannot take %s", bi_format(&n->bi, bn),
                       diag_xty_name(&c->x, (char[48]){0}));
        return false;
    }
    ty_t s = c->x.t;
    if (c->bcast)
        s.n = c->bcast;
    switch (as_classify(t, s)) {
    case AS_SIZE:
        asm_error_node(a, n, "%s: operand %s is %zu bytes, result %s is %zu "
                       "bytes", bi_format(&n->bi, bn), tn(s, b1),
                       ty_sizeof(s), tn(t, b2), ty_sizeof(t));
        return false;
    case AS_3TO4:
        asm_warning(a, n->col, n->end, "%s of %s: equal sizes, but the "
                    "OpenCL programming guide calls this an error; clvm takes "
                    "w from the operand's padding lane (docs/semantics.md)",
                    bi_format(&n->bi, bn), tn(s, b1));
        break;
    default:
        break;
    }
    n->x = (xty){t, X_VAL, 0, false};
    if (c->isconst && !a->nofold)
        fold_as(n, c);
    return true;
}

static bool check_convert(A *a, node *n)
{
    char b1[TY_NAME_MAX], bn[BI_NAME_MAX];
    node *c = n->args[0];
    ty_t t = n->bi.type;
    if (!check_expr(a, c) || !settle_default(a, c))
        return false;
    if (c->x.cls != X_VAL) {
        asm_error_node(a, c, "%s cannot take %s", bi_format(&n->bi, bn),
                       diag_xty_name(&c->x, (char[48]){0}));
        return false;
    }
    ty_t s = c->x.t;
    if (c->bcast)
        s.n = c->bcast;
    if (s.n != t.n) {
        asm_error_node(a, n, "%s needs an operand of %u component%s, not %s",
                       bi_format(&n->bi, bn), t.n, t.n == 1 ? "" : "s",
                       tn(s, b1));
        return false;
    }
    n->x = (xty){t, X_VAL, 0, false};
    if (c->isconst && !c->bcast && !a->nofold)
        fold_convert(a, n, c);
    return true;
}

static bool check_bi(A *a, node *n)
{
    char bn[BI_NAME_MAX], b1[TY_NAME_MAX];
    const char *why = bi_check(&n->bi);
    bi_format(&n->bi, bn);
    if (why) {
        asm_error(a, n->col, n->col + n->nlen, "%.*s: %s", (int)n->nlen,
                  n->name, why);
        return false;
    }
    unsigned N = n->bi.n;
    switch (n->bi.kind) {
    case BI_CONVERT:
        return nargs_ok(a, n, 1) && check_convert(a, n);
    case BI_AS:
        return nargs_ok(a, n, 1) && check_as(a, n);
    case BI_VLOAD:
    case BI_VLOAD_HALF:
    case BI_VLOADA_HALF: {
        bool half = n->bi.kind != BI_VLOAD;
        if (!nargs_ok(a, n, 2) || !check_int_scalar(a, n->args[0], "the offset")
            || !check_ptr(a, n->args[1], bn, false, half))
            return false;
        n->x = (xty){TY(half ? TY_FLOAT : n->args[1]->x.t.s, N), X_VAL, 0,
                     false};
        return true;
    }
    default: {   /* the stores */
        bool half = n->bi.kind != BI_VSTORE;
        if (!nargs_ok(a, n, 3))
            return false;
        node *v = n->args[0];
        if (!check_int_scalar(a, n->args[1], "the offset")
            || !check_ptr(a, n->args[2], bn, true, half) || !check_expr(a, v))
            return false;
        ty_t t = TY(half ? TY_FLOAT : n->args[2]->x.t.s, N);
        if (half && (v->x.cls == X_VAL || v->x.cls == X_IMPL) &&
            v->x.t.s == TY_DOUBLE)
            t.s = TY_DOUBLE;   /* the double overload: rounded once */
        if (!settle_coerce(a, v, t, true, "the value"))
            return false;
        if (half && v->x.cls == X_VAL && !ty_is_float((enum ty_scalar)v->x.t.s)) {
            asm_error_node(a, v, "%s stores float or double, not %s", bn,
                           tn(v->x.t, b1));
            return false;
        }
        n->x = (xty){t, X_VOID, 0, false};
        return true;
    }
    }
}

/* The arguments of an elementwise built-in as one type t: the widest
 * typed argument's (a scalar of its element type is broadcast), or the
 * first argument's own default when all are literals. */
static bool args_type(A *a, node *n, const char *name, ty_t *tp)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX];
    ty_t t = {0, 0};
    node *typed = NULL;
    bool impl = true;   /* no argument has a written type */
    for (unsigned i = 0; i < n->nargs; i++) {
        node *e = n->args[i];
        if (e->x.cls == X_PTR || e->x.cls == X_VOID) {
            asm_error_node(a, e, "%s cannot take %s", name,
                           diag_xty_name(&e->x, (char[48]){0}));
            return false;
        }
        /* arguments are not promoted: an implicitly typed one has its
         * type (min(a + b, c) is min of int and uchar) */
        bool flex = is_flex(e) && e->x.cls != X_IMPL;
        impl &= e->x.cls != X_VAL;
        if (!flex && (!typed || e->x.t.n > t.n ||
                      (e->x.t.n == t.n && typed->x.cls == X_IMPL &&
                       e->x.cls == X_VAL)))
            typed = e, t = e->x.t;   /* a written type first */
    }
    if (!typed) {
        if (!settle_default(a, n->args[0]))
            return false;
        typed = n->args[0], t = typed->x.t;
    }
    for (unsigned i = 0; i < n->nargs; i++) {
        char what[32];
        node *e = n->args[i];
        snprintf(what, sizeof what, "argument %u of %s", i + 1, name);
        if (e->x.cls == X_IMPL && !ty_eq(e->x.t, TY(t.s, 1))) {
            asm_error_node(a, e, "%s is %s in OpenCL C (%s), not %s: "
                           "write convert_%s(...)", what, tn(e->x.t, b1),
                           settle_why(e), tn(TY(t.s, 1), b2), b2);
            return false;
        }
        if (!settle_coerce(a, e, t, true, what))
            return false;
    }
    *tp = t;
    n->x.cls = impl && t.n == 1 ? X_IMPL : X_VAL;
    return true;
}

_Static_assert(BCB_MATH2 == BCB_MATH1 + 1 && BCB_MATH3 == BCB_MATH1 + 2,
               "ASM_MF_BASE_SAME counts on MATH1..3 in a row");

static const char *const dom_words[] = {
    "half, float or double", "float", "integers", "int or uint",
    "char, uchar, short, ushort, int or uint", "signed integers",
    "ushort, uint or ulong", "any type", "any type"};

/* A math built-in of stdlib/mathfn.h: the gentype t comes from the
 * operands (all of them alike, or the first where the others have other
 * types), stdlib's mathfn_sig gives every operand's and the result's
 * type; the masks give a truth value (scalar) or a -1/0 mask (vector), as
 * comparisons do. A pointer output must point to the type it gets, in
 * global, local or private memory. */
static bool check_math(A *a, node *n, enum mathfn f, bool second)
{
    const mathfn_info *m = &mathfns[f];
    char b1[48], b2[TY_NAME_MAX];
    unsigned nv = m->nargs, shape = m->shape, mw = 0;
    bool ptr = (shape == MFS_PTR || shape == MFS_PTRI) && !second &&
               n->nargs > nv;
    bool first = shape == MFS_ARGI || shape == MFS_ARGN ||
                 shape == MFS_WIDE || shape == MFS_SHUF;
    ty_t t;
    if (first) {
        node *x = n->args[0];
        if (!settle_default(a, x))
            return false;
        if (x->x.cls != X_VAL || (shape == MFS_SHUF && x->x.t.n < 2)) {
            asm_error_node(a, x, "%s takes %s, not %s", m->name,
                           shape == MFS_SHUF ? "a vector" : dom_words[m->dom],
                           diag_xty_name(&x->x, b1));
            return false;
        }
        t = x->x.t;
        n->x.cls = X_VAL;
    } else {
        uint8_t all = n->nargs;
        /* nan's code: a literal is a uint */
        if (shape == MFS_UTOF && is_flex(n->args[0]) &&
            !settle_type(a, n->args[0], TY(TY_UINT, 1)))
            return false;
        n->nargs = (uint8_t)nv;   /* the values; not the pointer */
        bool ok = args_type(a, n, m->name, &t);
        n->nargs = all;
        if (!ok)
            return false;
    }
    if (!mathfn_takes(f, (enum ty_scalar)t.s)) {
        asm_error_node(a, n, "%s takes %s, not %s", m->name, dom_words[m->dom],
                       tn(t, b2));
        return false;
    }
    if (shape == MFS_SHUF) {
        node *k = n->args[nv - 1];
        if (!settle_default(a, k))
            return false;
        mw = k->x.cls == X_VAL ? k->x.t.n : 0;
    }
    mf_sig s;
    const char *why;
    if (!mathfn_sig(f, t, mw, &s, &why)) {
        asm_error_node(a, n, "%s takes %s, not %s", m->name,
                       shape == MFS_SHUF ? "vectors of 2, 4, 8 or 16 "
                                           "components (the mask too)"
                       : shape == MFS_VEC && nv == 2 ? "3 or 4 components"
                                                     : "at most 4 components",
                       tn(t, b2));
        return false;
    }
    for (unsigned i = first ? 1 : nv; i < nv; i++) {
        char what[48];
        node *e = n->args[i];
        snprintf(what, sizeof what, "argument %u of %s", i + 1, m->name);
        if (shape == MFS_SHUF && i == nv - 1) {
            if (e->x.cls != X_VAL || !ty_eq(e->x.t, s.arg[i])) {
                asm_error_node(a, e, "%s's mask must be %s (unsigned, with "
                               "the elements' size), not %s", m->name,
                               tn(s.arg[i], b2), diag_xty_name(&e->x, b1));
                return false;
            }
            continue;
        }
        if (!settle_coerce(a, e, s.arg[i], shape == MFS_ARGI, what))
            return false;
    }
    if (ptr) {
        node *p = n->args[nv];
        if (!check_expr(a, p))
            return false;
        if (p->x.cls != X_PTR || p->x.cptr || p->x.space == BC_CONSTANT) {
            asm_error_node(a, p, "%s stores through its last argument, which "
                           "must point to global, local or private data, "
                           "not to %s", m->name, p->x.cls != X_PTR
                           ? "be a value" : p->x.cptr ? "const data"
                                                      : "constant data");
            return false;
        }
        if (!ty_eq(p->x.t, s.out)) {
            asm_error_node(a, p, "%s stores %s through its pointer, but %s "
                           "points to %s", m->name, tn(s.out, b2),
                           diag_xty_name(&p->x, b1),
                           tn(p->x.t, (char[TY_NAME_MAX]){0}));
            return false;
        }
    } else if (n->nargs > nv) {
        asm_error_node(a, n->args[nv], "%s takes %u argument%s", m->name,
                       nv, nv == 1 ? "" : "s");
        return false;
    }
    ty_t r = second ? s.out : s.res;
    if (shape == MFS_MASK)
        n->x = (xty){r, t.n > 1 ? X_VAL : X_BOOL, 0, false};
    else
        n->x = (xty){r, shape == MFS_SAME ? n->x.cls : X_VAL, 0, false};
    if (!ty_is_float((enum ty_scalar)r.s))
        n->r = rng_type(r);
    n->sel[0] = (uint8_t)mw;
    return true;
}

/* vec_step and sizeof: constants of the operand's type, which is not
 * evaluated; the call becomes an int (vec_step) or size_t literal. */
static bool check_typeof(A *a, node *n)
{
    node *c = n->args[0];
    if (!check_expr(a, c) || !settle_default(a, c))
        return false;
    if (c->x.cls != X_VAL && c->x.cls != X_PTR) {
        asm_error_node(a, c, "%s needs a value or a type, not %s",
                       asm_fns[n->op].name,
                       diag_xty_name(&c->x, (char[48]){0}));
        return false;
    }
    const bool vs = n->op == F_VEC_STEP, ptr = c->x.cls == X_PTR;
    if (vs && ptr) {
        asm_error_node(a, c, "vec_step takes a scalar or vector type, not a "
                       "pointer");
        return false;
    }
    /* an array's name: its bytes, as in C (a pointer everywhere else) */
    const bc_reg *r = c->kind == N_NAME && c->reg >= 0
                          ? kb_regp(a, (uint32_t)c->reg) : NULL;
    uint64_t v = vs ? ty_lanes(c->x.t)
                 : r && r->init == BC_INIT_ARRAY ? r->arg * ty_sizeof(r->type)
                 : ptr ? 8 : ty_sizeof(c->x.t);
    n->kind = N_LIT;
    n->l = (lit){.kind = LIT_INT, .mag = v,
                 .nat = TY(vs ? TY_INT : TY_ULONG, 1)};
    n->nargs = 0;
    n->x = (xty){n->l.nat, X_LIT, 0, false};
    n->litonly = true;
    return true;
}

/* atomic_NAME(p, ...), atom_NAME(p, ...): p points to a scalar of the
 * function's types in global or local memory that may be written; the
 * values have its type. */
static bool check_atomic(A *a, node *n, enum atomic_fn f, bool atom)
{
    char b1[48];
    const char *name = asm_fns[n->op].name;
    node *p = n->args[0];
    enum ty_scalar s = (enum ty_scalar)p->x.t.s;
    if (p->x.cls != X_PTR) {
        asm_error_node(a, p, "%s needs a pointer, not %s", name,
                       is_flex(p) ? "a number" : diag_xty_name(&p->x, b1));
        return false;
    }
    if (p->x.t.n != 1 ||
        !(s == TY_INT || s == TY_UINT ||
          (atom && (s == TY_LONG || s == TY_ULONG)) ||
          (!atom && atomic_fns[f].flt && s == TY_FLOAT))) {
        asm_error_node(a, p, "%s takes a pointer to int or uint%s, not %s",
                       name, atom ? ", long or ulong"
                             : atomic_fns[f].flt ? " or float" : "",
                       diag_xty_name(&p->x, b1));
        return false;
    }
    if ((p->x.space != BC_GLOBAL && p->x.space != BC_LOCAL) || p->x.cptr) {
        asm_error_node(a, p, "%s needs a pointer to global or local data "
                       "that may be written, not %s", name,
                       diag_xty_name(&p->x, b1));
        return false;
    }
    for (unsigned i = 1; i < n->nargs; i++) {
        char what[48];
        snprintf(what, sizeof what, "argument %u of %s", i + 1, name);
        if (!settle_coerce(a, n->args[i], TY(s, 1), false, what))
            return false;
    }
    n->x = (xty){TY(s, 1), X_VAL, 0, false};
    n->r = rng_type(n->x.t);
    return true;
}

/* A scalar integer operand (already checked) of a built-in. */
static bool int_operand(A *a, node *n, const char *what)
{
    char b1[48];
    if (!settle_default(a, n))
        return false;
    if (n->x.cls == X_VAL && n->x.t.n == 1 && is_int(n->x.t))
        return true;
    asm_error_node(a, n, "%s must be a scalar integer, not %s", what,
                   diag_xty_name(&n->x, b1));
    return false;
}

/* async_work_group[_strided]_copy(dst, src, n, [stride,] event): dst and
 * src of one type, local from global (or constant) or global from local;
 * events are uint. wait_group_events(n, events), prefetch(p, n). */
static bool check_async(A *a, node *n)
{
    char b1[48], b2[48];
    const char *name = asm_fns[n->op].name;
    node *p = n->args[n->op == F_WAIT_GROUP_EVENTS];
    if (p->x.cls != X_PTR) {
        asm_error_node(a, p, "%s needs a pointer, not %s", name,
                       is_flex(p) ? "a number" : diag_xty_name(&p->x, b1));
        return false;
    }
    if (n->op == F_WAIT_GROUP_EVENTS || n->op == F_PREFETCH) {
        bool ok = n->op == F_PREFETCH
                      ? p->x.space == BC_GLOBAL || p->x.space == BC_CONSTANT
                      : ty_eq(p->x.t, TY(TY_UINT, 1));
        if (!ok) {
            asm_error_node(a, p, "%s needs %s, not %s", name,
                           n->op == F_PREFETCH ? "a global pointer"
                           : "a pointer to uint events", diag_xty_name(&p->x, b1));
            return false;
        }
        n->x = (xty){TY(TY_UINT, 1), X_VOID, 0, false};
        return int_operand(a, n->args[n->op == F_PREFETCH], "the count");
    }
    node *s = n->args[1];
    bool in = p->x.space == BC_LOCAL &&
              (s->x.space == BC_GLOBAL || s->x.space == BC_CONSTANT);
    if (s->x.cls != X_PTR || !ty_eq(p->x.t, s->x.t) || p->x.cptr ||
        !(in || (p->x.space == BC_GLOBAL && s->x.space == BC_LOCAL))) {
        asm_error_node(a, n, "%s copies to local from global memory or to "
                       "global from local, between pointers of one type, "
                       "not to %s from %s", name, diag_xty_name(&p->x, b1),
                       diag_xty_name(&s->x, b2));
        return false;
    }
    node *ev = n->args[n->nargs - 1];
    if (!int_operand(a, n->args[2], "the count") ||
        (n->op == F_ASYNC_STRIDED_COPY &&
         !int_operand(a, n->args[3], "the stride")) ||
        !settle_coerce(a, ev, TY(TY_UINT, 1), false, "the event (uint)"))
        return false;
    n->x = (xty){TY(TY_UINT, 1), X_VAL, 0, false};
    n->r = rng_type(n->x.t);
    return true;
}

static bool check_fn(A *a, node *n)
{
    char b1[TY_NAME_MAX];
    const char *name = asm_fns[n->op].name;
    int mf = asm_fns[n->op].mf;
    /* a pointer function without its pointer gives its value alone */
    bool ptrfn = mf >= 0 && !(mf & ASM_MF_OUT) &&
                 (mathfns[mf].shape == MFS_PTR ||
                  mathfns[mf].shape == MFS_PTRI);
    if (!(ptrfn && n->nargs == asm_fns[n->op].nargs - 1) &&
        !nargs_ok(a, n, asm_fns[n->op].nargs))
        return false;
    for (unsigned i = 0; i < n->nargs; i++)
        if (n->op != F_VEC_STEP && n->op != F_SIZEOF &&
            !check_expr(a, n->args[i]))
            return false;
    if (mf >= 0)
        return check_math(a, n, (enum mathfn)(mf & (ASM_MF_OUT - 1)),
                          mf & ASM_MF_OUT);
    if (n->op == F_VEC_STEP || n->op == F_SIZEOF)
        return check_typeof(a, n);
    enum atomic_fn af;
    bool atom;
    if (asm_fn_atomic(n->op, &af, &atom))
        return check_atomic(a, n, af, atom);
    if (n->op >= F_ASYNC_COPY && n->op <= F_PREFETCH)
        return check_async(a, n);
    switch (n->op) {
    case F_GET_GLOBAL_ID: case F_GET_LOCAL_ID: case F_GET_GROUP_ID:
    case F_GET_GLOBAL_SIZE: case F_GET_LOCAL_SIZE: case F_GET_NUM_GROUPS:
    case F_GET_GLOBAL_OFFSET: {
        node *d = n->args[0];
        if (!d->litonly || !fold_lit(a, d, TY(TY_UINT, 1)) || d->vv[0] > 2) {
            if (!a->failed)
                asm_error_node(a, d, "%s: the dimension must be 0, 1 or 2",
                               name);
            return false;
        }
        n->sel[0] = (uint8_t)d->vv[0];
    }
        /* fallthrough */
    case F_GET_WORK_DIM:
        n->x = (xty){TY(TY_ULONG, 1), X_SIZE, 0, false};
        n->r = n->op == F_GET_WORK_DIM ? (rng){1, 3, false}
                                       : (rng){0, INT64_MAX, false};
        return true;
    case F_BARRIER: case F_MEM_FENCE: case F_READ_MEM_FENCE:
    case F_WRITE_MEM_FENCE: {
        node *f = n->args[0];
        if (!f->litonly || !fold_lit(a, f, TY(TY_UINT, 1)) || f->vv[0] > 3) {
            if (!a->failed)
                asm_error_node(a, f, "%s takes CLK_LOCAL_MEM_FENCE, "
                               "CLK_GLOBAL_MEM_FENCE or both joined by '|'",
                               name);
            return false;
        }
        n->sel[0] = (uint8_t)f->vv[0];
        n->x = (xty){TY(TY_UINT, 1), X_VOID, 0, false};
        return true;
    }
    case F_ABS:
    case F_FABS: {
        node *c = n->args[0];
        bool impl_arg = c->x.cls == X_IMPL;
        if (!settle_default(a, c))
            return false;
        if (c->x.cls != X_VAL || (n->op == F_ABS) != is_int(c->x.t)) {
            asm_error_node(a, c, n->op == F_ABS
                           ? "abs takes integers, not %s (for floating "
                             "point use fabs)"
                           : "fabs takes half, float or double, not %s (for "
                             "integers use abs)",
                           diag_xty_name(&c->x, (char[48]){0}));
            return false;
        }
        n->x = (xty){n->op == F_ABS ? ty_unsigned(c->x.t) : c->x.t,
                     impl_arg ? X_IMPL : X_VAL, 0, false};
        n->r = rng_type(n->x.t);
        return true;
    }
    case F_SELECT: {
        ty_t t;
        node *c = n->args[2];
        /* half is fine here: select moves bits. */
        if (!conv_unify(a, n, n->args[0], n->args[1], "select", &t) ||
            (c->x.cls == X_IMPL && !settle_default(a, c)))
            return false;   /* an implicitly typed condition has its type */
        if (is_flex(c)) {
            if (!settle_type(a, c, ty_signed(t)))
                return false;
        } else if (c->x.cls != X_VAL || !is_int(c->x.t) ||
                   c->x.t.n != t.n ||
                   ty_scalar_size((enum ty_scalar)c->x.t.s) !=
                       ty_scalar_size((enum ty_scalar)t.s)) {
            asm_error_node(a, c, "select's condition must be an integer "
                           "type with %s's element size and count (%s or "
                           "%s), not %s", tn(t, b1),
                           tn(ty_signed(t), (char[TY_NAME_MAX]){0}),
                           tn(ty_unsigned(t), (char[TY_NAME_MAX]){0}),
                           diag_xty_name(&c->x, (char[48]){0}));
            return false;
        }
        n->x = (xty){t, X_VAL, 0, false};
        return true;
    }
    default: {   /* mad fma min max fmin fmax clamp */
        ty_t t;
        if (!args_type(a, n, name, &t))
            return false;
        bool flt = n->op == F_MAD || n->op == F_FMA || n->op == F_FMULADD ||
                   n->op == F_FMULADD_ACROSS || n->op == F_FMIN ||
                   n->op == F_FMAX;
        if (flt && is_int(t)) {
            asm_error_node(a, n, "%s takes half, float or double, not %s", name,
                           tn(t, b1));
            return false;
        }
        n->x = (xty){t, n->x.cls, 0, false};
        n->r = rng_type(t);
        return true;
    }
    }
}

/* An extern's parameter type, for messages: "const float *". */
static const char *ctype_name(bc_ctype t, char buf[32])
{
    snprintf(buf, 32, "%s%s%s", t.kind == BC_C_CPTR ? "const " : "",
             ty_scalar_name((enum ty_scalar)t.s),
             t.kind == BC_C_VALUE ? "" : " *");
    return buf;
}

/* A call of a declared extern: each argument the C type of its parameter;
 * value arguments may be vectors of one component count, the call's. */
static bool check_extern_call(A *a, node *n)
{
    const bc_extern *x = &a->ext[n->reg];
    const char *name = a->extn[n->reg];
    char b1[48], b2[32];
    if (n->nargs != x->nparams) {
        asm_error_node(a, n, "'%s' takes %u argument%s, got %u", name,
                       x->nparams, x->nparams == 1 ? "" : "s", n->nargs);
        return false;
    }
    unsigned vn = 1;   /* the call's component count */
    for (unsigned i = 0; i < n->nargs; i++) {
        node *e = n->args[i];
        if (!check_expr(a, e))
            return false;
        if (x->params[i].kind == BC_C_VALUE && e->x.cls == X_VAL &&
            e->x.t.n > 1) {
            if (vn > 1 && e->x.t.n != vn) {
                asm_error_node(a, e, "'%s': vector arguments of %u and %u "
                               "components", name, vn, e->x.t.n);
                return false;
            }
            vn = e->x.t.n;
        }
    }
    for (unsigned i = 0; i < n->nargs; i++) {
        node *e = n->args[i];
        bc_ctype t = x->params[i];
        char what[64];
        snprintf(what, sizeof what, "argument %u of '%s'", i + 1, name);
        if (t.kind == BC_C_VALUE) {
            unsigned en = e->x.cls == X_VAL ? e->x.t.n : 1;
            if (e->x.cls == X_PTR || e->x.cls == X_VOID) {
                asm_error_node(a, e, "%s is %s, not %s", what,
                               ctype_name(t, b2), diag_xty_name(&e->x, b1));
                return false;
            }
            if (!settle_coerce(a, e, (ty_t){t.s, (uint8_t)en}, false, what))
                return false;
            continue;
        }
        if (e->x.cls != X_PTR || e->x.t.s != t.s) {
            asm_error_node(a, e, "%s is %s, not %s", what, ctype_name(t, b2),
                           diag_xty_name(&e->x, b1));
            return false;
        }
        if (t.kind == BC_C_PTR && (e->x.cptr || e->x.space == BC_CONSTANT)) {
            asm_error_node(a, e, "%s is %s: the function may write through "
                           "it, but %s points to %s data (declare the "
                           "parameter const)", what, ctype_name(t, b2),
                           diag_xty_name(&e->x, b1),
                           e->x.cptr ? "const" : "constant");
            return false;
        }
    }
    n->sel[0] = (uint8_t)vn;
    n->x = x->ret.kind == BC_C_VOID
               ? (xty){{TY_UINT, 1}, X_VOID, 0, false}
               : (xty){{x->ret.s, (uint8_t)vn}, X_VAL, 0, false};
    return true;
}

static bool check_node(A *a, node *n);

bool check_expr(A *a, node *n)
{
    if (n->checked)
        return true;
    n->checked = check_node(a, n);
    return n->checked;
}

static bool check_node(A *a, node *n)
{
    char b1[48];
    switch (n->kind) {
    case N_LIT:
        n->x = (xty){n->l.nat, X_LIT, 0, false};
        n->litonly = true;
        return true;
    case N_NAME: {
        int32_t r = kb_find(a, n->name, n->nlen);
        if (r < 0) {
            kb_unknown(a, n);
            return false;
        }
        const bc_reg *reg = kb_regp(a, (uint32_t)r);
        n->reg = r;
        n->x = (xty){reg->type, reg->kind == BC_REG_PTR ? X_PTR : X_VAL,
                     reg->space, (reg->flags & BC_REGF_CONSTPTR) != 0};
        if (reg->init == BC_INIT_CONST && reg->kind == BC_REG_VALUE &&
            reg->type.n == 1 && is_int(reg->type) &&
            reg->arg + ty_sizeof(reg->type) <= a->npool) {
            /* a shift by a constant register narrows (narrow.c) */
            n->cknown = true;
            n->cval = lit_load(a->pool + reg->arg, (enum ty_scalar)reg->type.s);
        }
        return true;
    }
    case N_UNARY: return check_expr(a, n->a) && conv_unary(a, n);
    case N_BINARY:
        return check_expr(a, n->a) && check_expr(a, n->b) && conv_binary(a, n);
    case N_COND:
        return check_expr(a, n->a) && check_expr(a, n->b) &&
               check_expr(a, n->c) && conv_cond(a, n);
    case N_CAST: return check_cast(a, n);
    case N_PCAST:
        if (!check_expr(a, n->a))
            return false;
        if (n->a->x.cls == X_VAL && n->sel[0] && n->a->x.t.n == 1 &&
            !ty_is_float((enum ty_scalar)n->a->x.t.s)) {
            /* (SPACE T *)a: the pointer whose address a is (UTOP) */
            if (!settle_default(a, n->a) ||
                !addr_type(a, n, n->a->x.t, true))
                return false;
            n->x = (xty){n->ty, X_PTR, (uint8_t)(n->sel[0] - 1), false};
            return true;
        }
        if (n->a->x.cls != X_PTR) {
            asm_error_node(a, n, "a pointer cast takes a pointer, not %s",
                           diag_xty_name(&n->a->x, b1));
            return false;
        }
        if (n->sel[0] && n->sel[0] - 1 != n->a->x.space) {
            asm_error_node(a, n, "a pointer cast keeps the address space "
                           "(the operand is %s)", diag_xty_name(&n->a->x, b1));
            return false;
        }
        n->x = n->a->x;   /* the space and const kept */
        n->x.t = n->ty;
        return true;
    case N_VEC: return check_vec(a, n);
    case N_SWZ: return check_swz(a, n);
    case N_INDEX: return check_index(a, n);
    case N_CALL:
        return n->op == F_BI ? check_bi(a, n)
               : n->op == F_EXT ? check_extern_call(a, n) : check_fn(a, n);
    }
    asm_error_node(a, n, "internal error: node kind %d (%s)", n->kind,
                   diag_xty_name(&n->x, b1));
    return false;
}
