/* Narrowing: an implicitly typed value (class X_IMPL: int from promoted
 * char/short operands, double from a float meeting an unsuffixed literal;
 * or X_SIZE, a size_t expression) converted to the type of what it meets,
 * as OpenCL C converts it: modulo 2^N into unsigned integers, wrapped with
 * the NARROW note into signed ones (C99 6.3.1.3), rounded to nearest even
 * into float. Where computing the tree in that type gives the same bits
 * and the same notes, it is computed there (`uchar r = a + b` is one
 * ADD_B8); elsewhere it is computed in its own type and converted (CVT).
 *
 * Whether an operation narrows to an 8- or 16-bit type is decided from
 * the operation and that type alone (and a constant shift count), never
 * from the values of deeper operands: clvm dis prints a narrowed
 * instruction with registers of the narrow type as operands, those promote
 * to int again, and the same rule must give the same instruction back.
 * Value ranges only ever forbid narrowing (they keep OpenCL C's overflow
 * and division notes), so the round trip holds.
 *
 * Also here: the integer value ranges the checker tracks for implicitly
 * typed nodes, and a truth value settled to an integer type. */
#include <string.h>

#include "asm/asmint.h"

static bool is_int(ty_t t) { return !ty_is_float((enum ty_scalar)t.s); }
static unsigned bits(ty_t t) { return 8 * ty_scalar_size((enum ty_scalar)t.s); }

/* ---- ranges ---- */

static const rng FULL = {0, 0, true};

rng rng_type(ty_t t)
{
    if (!is_int(t) || t.s == TY_ULONG)
        return FULL;
    unsigned b = bits(t);
    if (ty_is_signed((enum ty_scalar)t.s))
        return b == 64 ? (rng){INT64_MIN, INT64_MAX, false}
                       : (rng){-((int64_t)1 << (b - 1)),
                               ((int64_t)1 << (b - 1)) - 1, false};
    return (rng){0, (int64_t)(((uint64_t)1 << b) - 1), false};
}

/* The value of element bits v of integer type t. */
rng rng_value(ty_t t, uint64_t v)
{
    unsigned b = bits(t);
    if (!is_int(t))
        return FULL;
    if (ty_is_signed((enum ty_scalar)t.s)) {
        uint64_t sb = (uint64_t)1 << (b - 1), m = b == 64 ? ~(uint64_t)0
                                                     : (sb << 1) - 1;
        v &= m;
        int64_t x = (v & sb) ? -(int64_t)((~v & m)) - 1 : (int64_t)v;
        return (rng){x, x, false};
    }
    if (v > INT64_MAX)
        return FULL;
    return (rng){(int64_t)v, (int64_t)v, false};
}

bool rng_in(rng r, ty_t t)
{
    if (!is_int(t) || r.full)
        return false;
    if (t.s == TY_ULONG)
        return r.lo >= 0;
    rng w = rng_type(t);
    return r.lo >= w.lo && r.hi <= w.hi;
}

rng node_rng(const node *n)
{
    if (n->x.cls != X_VAL && n->x.cls != X_IMPL && n->x.cls != X_SIZE &&
        n->x.cls != X_BOOL && n->x.cls != X_LIT)
        return FULL;
    if (n->cknown)
        return rng_value(n->x.t, n->cval);
    if (n->isconst && !n->bcast && n->x.t.n == 1)
        return rng_value(n->x.t, n->vv[0]);
    if (n->litonly && n->litdone)
        return rng_value(n->litt, n->litv);
    if (n->x.cls == X_BOOL)
        return (rng){0, 1, false};
    if (n->x.cls == X_IMPL || n->x.cls == X_SIZE)
        return n->r;
    return rng_type(n->x.t);
}

/* The smallest [-2^k, 2^k - 1] (or [0, 2^k - 1] when both are non-negative)
 * holding both ranges: what & | ^ of them can give. */
static rng span(rng x, rng y)
{
    int64_t m = 0;
    int64_t c[4] = {x.lo, x.hi, y.lo, y.hi};
    for (int i = 0; i < 4; i++) {
        int64_t v = c[i] < 0 ? -(c[i] + 1) : c[i];
        if (v > m)
            m = v;
    }
    int64_t p = 1;
    while (p <= m && p < ((int64_t)1 << 62))
        p <<= 1;
    if (p <= m)
        return FULL;
    return x.lo >= 0 && y.lo >= 0 ? (rng){0, p - 1, false}
                                   : (rng){-p, p - 1, false};
}

static int64_t floor_shift(int64_t v, unsigned k)
{
    /* v >> k rounded toward minus infinity, without shifting a negative */
    if (k > 62)
        return v < 0 ? -1 : 0;
    int64_t d = (int64_t)1 << k;
    int64_t q = v / d;
    return v % d != 0 && v < 0 ? q - 1 : q;
}

/* The mathematical range of op on x and y; *ok false if it does not fit
 * 64 bits. count: the shift count when known (k >= 0). */
static rng math(int op, bool unary, rng x, rng y, int64_t k, bool *ok)
{
    int64_t c[4];
    *ok = true;
    if (x.full || (!unary && y.full && op != P_SHL && op != P_SHR))
        return *ok = false, FULL;
    if (unary) {
        switch (op) {
        case P_SUB:
            if (x.lo == INT64_MIN)
                return *ok = false, FULL;
            return (rng){-x.hi, -x.lo, false};
        case P_TILDE: return (rng){-x.hi - 1, -x.lo - 1, false};
        default: return x;
        }
    }
    switch (op) {
    case P_ADD: case P_SUB: case P_MUL: {
        int64_t xs[2] = {x.lo, x.hi}, ys[2] = {y.lo, y.hi};
        for (int i = 0; i < 4; i++) {
            int64_t a = xs[i >> 1], b = ys[i & 1];
            bool o = op == P_ADD ? __builtin_add_overflow(a, b, &c[i])
                     : op == P_SUB ? __builtin_sub_overflow(a, b, &c[i])
                                   : __builtin_mul_overflow(a, b, &c[i]);
            if (o)
                return *ok = false, FULL;
        }
        rng r = {c[0], c[0], false};
        for (int i = 1; i < 4; i++)
            r.lo = c[i] < r.lo ? c[i] : r.lo, r.hi = c[i] > r.hi ? c[i] : r.hi;
        return r;
    }
    case P_AND:
        if (x.lo >= 0 || y.lo >= 0)
            return (rng){0, x.lo >= 0 && y.lo >= 0 ? (x.hi < y.hi ? x.hi : y.hi)
                                : x.lo >= 0 ? x.hi : y.hi, false};
        return span(x, y);
    case P_OR: case P_XOR:
        return span(x, y);
    case P_SHL:
        if (k < 0 || k > 62 || x.full)
            return *ok = false, FULL;
        if (__builtin_mul_overflow(x.lo, (int64_t)1 << k, &c[0]) ||
            __builtin_mul_overflow(x.hi, (int64_t)1 << k, &c[1]))
            return *ok = false, FULL;
        return (rng){c[0], c[1], false};
    case P_SHR:
        if (k < 0)
            return (rng){x.lo < 0 ? x.lo : 0, x.hi > 0 ? x.hi : 0, false};
        return (rng){floor_shift(x.lo, (unsigned)k),
                     floor_shift(x.hi, (unsigned)k), false};
    case P_DIV: case P_MOD: {
        if (x.lo == INT64_MIN)
            return *ok = false, FULL;
        int64_t m = -x.lo > x.hi ? -x.lo : x.hi;
        if (x.lo >= 0)
            return (rng){0, x.hi, false};
        return (rng){-m, m, false};
    }
    default:
        return *ok = false, FULL;
    }
}

void rng_set(node *n)
{
    ty_t t = n->x.t;
    rng x = node_rng(n->a), y = n->b ? node_rng(n->b) : FULL, r;
    bool ok = true, unary = n->kind == N_UNARY;
    n->ovf = false;
    if (n->kind == N_COND) {
        rng p = node_rng(n->b), q = node_rng(n->c);
        r = p.full || q.full ? FULL
            : (rng){p.lo < q.lo ? p.lo : q.lo, p.hi > q.hi ? p.hi : q.hi, false};
    } else if (n->kind == N_CAST) {
        r = x;
    } else if (n->kind == N_UNARY || n->kind == N_BINARY) {
        int64_t k = -1;
        if (!unary && (n->op == P_SHL || n->op == P_SHR) && n->b->cknown)
            k = (int64_t)(n->b->cval & (bits(t) - 1));
        r = math(n->op, unary, x, y, k, &ok);
    } else {
        r = FULL, ok = false;
    }
    if (!ok || !rng_in(r, t)) {
        /* signed: OpenCL C's value overflows (undefined, OVERFLOW);
         * unsigned: it wraps (defined) */
        n->ovf = ty_is_signed((enum ty_scalar)t.s) &&
                 (n->kind == N_BINARY || n->kind == N_UNARY) &&
                 n->op != P_SHL && n->op != P_SHR && n->op != P_AND &&
                 n->op != P_OR && n->op != P_XOR && n->op != P_TILDE;
        r = rng_type(t);
    }
    n->r = r;
}

/* ---- truth values ---- */

void narrow_bool(node *n, ty_t w)
{
    bool logic = n->kind == N_BINARY && (n->op == P_ANDAND ||
                                         n->op == P_OROR);
    /* a scalar && or || computes its operands' truth straight in w */
    if (!logic && ty_scalar_size((enum ty_scalar)w.s) !=
                      ty_scalar_size((enum ty_scalar)n->x.t.s))
        n->via = n->x.t;   /* compare, then convert */
    n->x = (xty){w, X_VAL, 0, false};
}

/* ---- narrowing ---- */

static bool finish(A *a, node *n);
static bool child_to(A *a, node *c, ty_t w);

/* A constant shift count: its value, else -1. */
static int64_t count_of(const node *c)
{
    if (c->cknown)
        return (int64_t)(c->cval & 0x3f);
    if (c->isconst && !c->bcast && c->x.t.n == 1 && is_int(c->x.t))
        return (int64_t)(c->vv[0] & 0x3f);
    return -1;
}

/* Does computing integer node n (C type t) in w give OpenCL C's bits and
 * notes, its operands computed in w or converted to it? */
static bool op_narrows(const node *n, ty_t w)
{
    ty_t t = n->x.t;
    unsigned bw = bits(w), bt = bits(t);
    bool sg = ty_is_signed((enum ty_scalar)w.s);
    bool local = bw < 32;   /* dis's operands promote again */
    bool sgl = sg && local; /* C's int result may not fit: NARROW */
    if (n->ovf)
        return false;       /* keep OpenCL C's OVERFLOW note */
    if (sg && !rng_in(n->r, w))
        return false;       /* keep its NARROW note */
    if (n->kind == N_COND)
        return true;        /* converting each arm converts the result */
    if (n->kind == N_CAST)
        return !sg || rng_in(node_rng(n->a), w);
    node *l = n->a, *r = n->kind == N_BINARY ? n->b : NULL;
    if (sg && (!rng_in(node_rng(l), w) ||
               (r && n->op != P_SHL && n->op != P_SHR &&
                !rng_in(node_rng(r), w))))
        return false;
    if (n->kind == N_UNARY)
        return n->op == P_SUB ? !sgl : n->op == P_TILDE || n->op == P_ADD;
    switch (n->op) {
    case P_AND: case P_OR: case P_XOR:
        return true;
    case P_ADD: case P_SUB:
        return !sgl;
    case P_MUL:   /* ushort * ushort overflows int: a note narrow lacks */
        return !sgl && bw != 16;
    case P_DIV: case P_MOD:
        return !sgl && rng_in(node_rng(l), w) && rng_in(node_rng(r), w);
    case P_SHL: case P_SHR: {
        int64_t k = count_of(r);
        if (n->op == P_SHL ? sgl : !rng_in(node_rng(l), w))
            return false;
        return bw == bt || (k >= 0 && (k & (bt - 1)) < bw);
    }
    default:
        return false;
    }
}

/* Float: one + - * / of two operands that are floats exactly (a float
 * widened, a literal whose double is a float) rounds once either way. */
static bool float_exact(const node *c)
{
    if (c->kind == N_CAST && c->implicit && c->a->x.t.s == TY_FLOAT)
        return true;
    if (c->litonly && c->isconst && c->x.t.s == TY_DOUBLE) {
        double d;
        memcpy(&d, &c->vv[0], 8);
        return d != d || (double)(float)d == d;
    }
    return false;
}

static bool float_narrows(const node *n, ty_t w)
{
    if (w.s != TY_FLOAT || n->x.t.s != TY_DOUBLE)
        return false;
    if (n->kind == N_COND || (n->kind == N_CAST && n->implicit &&
                              n->a->x.t.s == TY_FLOAT))
        return true;
    return n->kind == N_BINARY && (n->op == P_ADD || n->op == P_SUB ||
                                   n->op == P_MUL || n->op == P_DIV) &&
           float_exact(n->a) && float_exact(n->b);
}

/* The count of a shift computed in w: any integer type of w's size reads
 * its low bits; another size is converted (it keeps them). */
static bool count_to(A *a, node *c, ty_t w)
{
    if (c->litonly)
        return fold_lit_wrap(a, c, w);
    return child_to(a, c, ty_unsigned(w));
}

/* n narrowed (op_narrows said yes): it and its operands in w. */
static bool apply(A *a, node *n, ty_t w)
{
    switch (n->kind) {
    case N_CAST:
        if (n->a->x.cls == X_IMPL || n->a->x.cls == X_SIZE) {
            if (!child_to(a, n->a, w))
                return false;
        } else if (n->isconst) {
            n->x.t = w;
            fold_cast(a, n, n->a);
        }
        break;
    case N_UNARY:
        if (!child_to(a, n->a, w))
            return false;
        break;
    case N_BINARY:
        if (!child_to(a, n->a, w) ||
            !(n->op == P_SHL || n->op == P_SHR ? count_to(a, n->b, w)
                                               : child_to(a, n->b, w)))
            return false;
        break;
    case N_COND:
        if (!child_to(a, n->b, w) || !child_to(a, n->c, w))
            return false;
        break;
    case N_CALL:
        break;   /* a work-item function: written as w */
    default:
        asm_error_node(a, n, "internal error: narrowing");
        return false;
    }
    n->x = (xty){w, X_VAL, 0, false};
    return true;
}

/* n computed in its own type, then converted to w. */
static bool convert_to(A *a, node *n, ty_t w)
{
    ty_t t = n->x.t;
    if (!finish(a, n))
        return false;
    if (!ty_eq(t, w))
        n->via = t, n->x.t = w;
    return true;
}

static bool child_to(A *a, node *c, ty_t w)
{
    switch (c->x.cls) {
    case X_BOOL:
        narrow_bool(c, w);
        return true;
    case X_LIT:
        return fold_lit_wrap(a, c, w);
    case X_IMPL: case X_SIZE:
        return narrow_to(a, c, w);
    default:
        if (c->litonly)   /* a literal folded in C's type already */
            return fold_lit_wrap(a, c, w);
        if (!ty_eq(c->x.t, w) && !c->via.n) {
            asm_error_node(a, c, "internal error: narrowing a typed value");
            return false;
        }
        return true;
    }
}

/* n in its own type t: its flexible operands settled to t. */
static bool finish(A *a, node *n)
{
    ty_t t = n->x.t;
    bool ok = true;
    if (n->x.cls != X_IMPL && n->x.cls != X_SIZE)
        return true;
    switch (n->kind) {
    case N_UNARY:
        ok = child_to(a, n->a, t);
        break;
    case N_BINARY:
        ok = child_to(a, n->a, t) &&
             (n->op == P_SHL || n->op == P_SHR ? count_to(a, n->b, t)
                                               : child_to(a, n->b, t));
        break;
    case N_COND:
        ok = child_to(a, n->b, t) && child_to(a, n->c, t);
        break;
    case N_CAST:
        if (n->a->x.cls == X_IMPL || n->a->x.cls == X_SIZE ||
            n->a->x.cls == X_BOOL || n->a->x.cls == X_LIT)
            ok = child_to(a, n->a, n->a->x.cls == X_BOOL
                                       ? TY(TY_INT, 1) : n->a->x.t);
        break;
    default:
        break;
    }
    n->x.cls = X_VAL;
    return ok;
}

bool narrow_to(A *a, node *n, ty_t w)
{
    ty_t t = n->x.t;
    w.n = 1;
    if (ty_eq(t, w))
        return finish(a, n);
    if (is_int(t) != is_int(w)) {
        asm_error_node(a, n, "internal error: narrowing across kinds");
        return false;
    }
    bool can;
    if (!is_int(t))
        can = float_narrows(n, w);
    else if (bits(w) > bits(t))
        can = false;      /* wider: computed in t, then extended */
    else if (n->kind == N_CALL)   /* a work-item function: B32 or B64 */
        can = n->x.cls == X_SIZE && (bits(w) == 32 || bits(w) == 64) &&
              (!ty_is_signed((enum ty_scalar)w.s) || rng_in(n->r, w));
    else
        can = op_narrows(n, w);
    return can ? apply(a, n, w) : convert_to(a, n, w);
}
