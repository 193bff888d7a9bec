/* Constant folding: the value of a literal-only tree, in C's types (the
 * usual arithmetic conversions among literals: 1 / 2 is int 0, 1.0 / 3 a
 * double), converted to the type it meets as OpenCL C converts it; and the
 * value of a cast, convert_T or as_T of a constant. Computed here with the
 * VM's own semantics. An operation whose value OpenCL leaves to the device
 * (5 / 0, INT_MIN / -1, (char)300) is not folded: it is kept for run time,
 * where the profile gives its result (and strict traps), with a warning. */
#include "asm/asmint.h"
#include "stdlib/convert.h"
#include "stdlib/profile.h"
#include "stdlib/reinterpret.h"

#include <string.h>

/* The source text of n, for messages (at most 40 bytes). */
static int span_len(const node *n)
{
    uint32_t l = n->end > n->col ? n->end - n->col : 1;
    return (int)(l > 40 ? 40 : l);
}
#define SPAN(a, n) span_len(n), (a)->text + (n)->col - 1

/* An operation on constants whose value OpenCL leaves to the device: it is
 * computed when the kernel runs, where the profile decides. (The REPL,
 * which folds nothing, reports the run's note instead.) */
static void warn_kept(A *a, const node *n, int notes)
{
    if (a->nofold)
        return;
    for (unsigned id = 0; notes > 0 && id < NOTE_COUNT; id++)
        if (notes & 1 << id)
            asm_warning(a, n->col, n->end, "%s result (%s): %s; computed "
                        "when the kernel runs, as the profile says "
                        "(docs/semantics.md)", note_kind((enum note_id)id),
                        note_name((enum note_id)id),
                        note_what((enum note_id)id));
}

/* The notes of integer op (x / 0, MIN / -1, signed overflow) on constants
 * x, y of type s; unary minus is 0 - y. */
static int op_notes(int op, enum ty_scalar s, uint64_t x, uint64_t y)
{
    static const uint8_t pa[][2] = {{P_ADD, PA_ADD}, {P_SUB, PA_SUB},
                                    {P_MUL, PA_MUL}};
    uint8_t bx[8], by[8], d[8];
    if (ty_is_float(s))
        return 0;
    ty_put_bits(bx, ty_scalar_size(s), x);
    ty_put_bits(by, ty_scalar_size(s), y);
    if (op == P_DIV || op == P_MOD)
        return prof_divrem(PROF_CLVM, s, op == P_MOD, d, bx, by);
    for (unsigned k = 0; k < sizeof pa / sizeof pa[0]; k++)
        if (pa[k][0] == op && ty_is_signed(s))
            return prof_arith(PROF_CLVM, s, (enum prof_arith)pa[k][1], d, bx,
                              by);
    return 0;
}

int fold_kept(A *a, node *n)
{
    node *l = n->a, *r = n->kind == N_BINARY ? n->b : NULL;
    if (n->op != P_DIV && n->op != P_MOD && n->op != P_ADD &&
        n->op != P_SUB && n->op != P_MUL)
        return 0;
    if (!r && n->op != P_SUB)
        return 0;
    if (!fold_nat(a, l) || (r && !fold_nat(a, r)))
        return -1;
    ty_t c = r ? lit_common(l->litt, r->litt) : l->litt;
    enum ty_scalar cs = (enum ty_scalar)c.s;
    uint64_t x = r ? lit_convert(cs, (enum ty_scalar)l->litt.s, l->litv) : 0;
    uint64_t y = r ? lit_convert(cs, (enum ty_scalar)r->litt.s, r->litv)
                   : l->litv;
    int notes = op_notes(n->op, cs, x, y);
    if (notes)
        warn_kept(a, n, notes);
    return notes;
}

/* ---- literal-only trees, in C's types ---- */

static bool is_intt(ty_t t) { return !ty_is_float((enum ty_scalar)t.s); }
static unsigned bitsof(ty_t t) { return 8 * ty_scalar_size((enum ty_scalar)t.s); }

static bool inf_bits(ty_t t, uint64_t b)
{
    switch (t.s) {
    case TY_HALF: return (b & 0x7fff) == 0x7c00;
    case TY_FLOAT: return (b & 0x7fffffffu) == 0x7f800000u;
    case TY_DOUBLE: return (b & 0x7fffffffffffffffu) == 0x7ff0000000000000u;
    default: return false;
    }
}

/* The value of a literal token in its own C type: a negative literal of
 * an unsigned type wraps (-1u is 0xffffffff), as unary minus does in C. */
static bool lit_nat(A *a, node *n)
{
    char b1[TY_NAME_MAX];
    ty_t t = n->l.nat;
    uint64_t r = 0;
    if (n->l.kind == LIT_INT && n->l.neg && !ty_is_signed((enum ty_scalar)t.s)) {
        lit_unop(P_SUB, (enum ty_scalar)t.s, n->l.mag, &r);
    } else if (lit_bits(&n->l, (enum ty_scalar)t.s, &r) != LIT_OK) {
        asm_error_node(a, n, "literal %.*s is out of range for %s",
                       SPAN(a, n), ty_name(t, b1));
        return false;
    }
    n->litv = r, n->litt = t;
    return true;
}

/* The C type of an operator on literals of types l and r. */
static ty_t nat_binop(int op, ty_t l, ty_t r)
{
    switch (op) {
    case P_LT: case P_LE: case P_GT: case P_GE: case P_EQ: case P_NE:
    case P_ANDAND: case P_OROR:
        return TY(TY_INT, 1);
    case P_SHL: case P_SHR:
        return lit_common(l, TY(TY_INT, 1));
    default:
        return lit_common(l, r);
    }
}

static bool truth(ty_t t, uint64_t v)
{
    uint64_t z = 0;
    if (t.s == TY_HALF)
        return (v & 0x7fff) != 0 || (v & 0x7c00) == 0x7c00;
    lit_binop(P_NE, (enum ty_scalar)t.s, v, 0, &z);
    return z != 0;
}

static bool nat_binary(A *a, node *n)
{
    char b1[TY_NAME_MAX];
    node *l = n->a, *r = n->b;
    const char *why = NULL;
    if (!fold_nat(a, l))
        return false;
    if ((n->op == P_ANDAND || n->op == P_OROR) &&
        truth(l->litt, l->litv) == (n->op == P_OROR)) {
        /* short-circuit: the right operand is not evaluated */
        n->litv = n->op == P_OROR, n->litt = TY(TY_INT, 1);
        return true;
    }
    if (!fold_nat(a, r))
        return false;
    ty_t t = nat_binop(n->op, l->litt, r->litt);
    uint64_t x = l->litv, y = r->litv, z = 0;
    switch (n->op) {
    case P_ANDAND: case P_OROR:
        z = truth(r->litt, y);
        break;
    case P_SHL: case P_SHR: {
        x = lit_convert((enum ty_scalar)t.s, (enum ty_scalar)l->litt.s, x);
        y = lit_convert(TY_ULONG, (enum ty_scalar)r->litt.s, y);
        unsigned w = bitsof(t);
        if (y >= w)
            asm_warning(a, n->col, n->end, "shift count %llu >= the width "
                        "of %s: OpenCL C masks it to %u (write %s for a "
                        "wider left operand)", (unsigned long long)y,
                        ty_name(t, b1), (unsigned)(y & (w - 1)),
                        w == 32 ? "1L" : "a narrower count");
        why = lit_binop(n->op, (enum ty_scalar)t.s, x, y, &z);
        break;
    }
    default: {
        ty_t c = lit_common(l->litt, r->litt);
        x = lit_convert((enum ty_scalar)c.s, (enum ty_scalar)l->litt.s, x);
        y = lit_convert((enum ty_scalar)c.s, (enum ty_scalar)r->litt.s, y);
        why = lit_binop(n->op, (enum ty_scalar)c.s, x, y, &z);
    }
    }
    if (why) {
        asm_error_node(a, n, "%s (in %s)", why, ty_name(t, b1));
        return false;
    }
    n->litv = z, n->litt = t;
    return true;
}

bool fold_nat(A *a, node *n)
{
    char b1[TY_NAME_MAX];
    bool ok;
    const char *why = NULL;
    if (n->litdone)
        return true;
    switch (n->kind) {
    case N_LIT:
        ok = lit_nat(a, n);
        break;
    case N_UNARY:
        if (!(ok = fold_nat(a, n->a)))
            break;
        if (n->op == P_NOT) {
            n->litv = !truth(n->a->litt, n->a->litv);
            n->litt = TY(TY_INT, 1);
            break;
        }
        n->litt = n->a->litt;
        why = lit_unop(n->op, (enum ty_scalar)n->litt.s, n->a->litv,
                       &n->litv);
        break;
    case N_BINARY:
        ok = nat_binary(a, n);
        break;
    default:
        asm_error_node(a, n, "internal error: cannot fold this");
        return false;
    }
    if (why) {
        asm_error_node(a, n, "%s (in %s)", why, ty_name(n->litt, b1));
        return false;
    }
    n->litdone = ok;
    return ok;
}

/* Does the value of integer bits v of type s fit integer type t, or is
 * it a negative value that fits t's signed type (all bits set is ~0)? */
static bool int_fits(ty_t s, uint64_t v, ty_t t)
{
    unsigned bs = bitsof(s), bt = bitsof(t);
    bool ss = ty_is_signed((enum ty_scalar)s.s);
    bool st = ty_is_signed((enum ty_scalar)t.s);
    uint64_t ms = bs == 64 ? UINT64_MAX : ((uint64_t)1 << bs) - 1;
    v &= ms;
    bool neg = ss && (v >> (bs - 1) & 1);
    /* |v| for a negative v, as an unsigned magnitude */
    uint64_t mag = neg ? ((~v & ms) + 1) & ms : v;
    if (neg && bs == 64 && mag == 0)
        mag = (uint64_t)1 << 63;
    uint64_t smax = ((uint64_t)1 << (bt - 1)) - 1;
    uint64_t umax = bt == 64 ? UINT64_MAX : ((uint64_t)1 << bt) - 1;
    if (neg)
        return mag <= smax + 1;    /* fits signed t; wraps into unsigned */
    return v <= (st ? smax : umax);
}

/* Why a constant of value v (type s) does not fit integer type t, and
 * what OpenCL C would make of it. */
static void range_error(A *a, node *n, ty_t s, uint64_t v, ty_t t)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX], val[LIT_TEXT_MAX];
    uint64_t w = lit_convert((enum ty_scalar)t.s, (enum ty_scalar)s.s, v);
    lit_format((enum ty_scalar)t.s, w, val);
    const char *what = n->kind == N_LIT ? "literal" : "constant";
    if (ty_is_signed((enum ty_scalar)t.s))
        asm_error_node(a, n, "%s %.*s (%s) is out of range for %s (OpenCL "
                       "C's conversion is implementation-defined there; "
                       "clvm would wrap it to %s: write that, or as_%s of "
                       "an unsigned constant)", what, SPAN(a, n),
                       ty_name(s, b1), ty_name(t, b2), val, b2);
    else
        asm_error_node(a, n, "%s %.*s (%s) is out of range for %s (OpenCL "
                       "C would convert it modulo 2^%u to %s: write that if "
                       "you mean it)", what, SPAN(a, n), ty_name(s, b1),
                       ty_name(t, b2), bitsof(t), val);
}

/* The constant (litv in litt) converted to t as OpenCL C converts it.
 * strict: an integer must keep its value (a negative one may wrap into
 * an unsigned type: ~0 and -1 are all bits set), a finite floating value
 * must stay finite, a floating value cannot become an integer. */
static bool convert_lit(A *a, node *n, ty_t t, bool strict)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX];
    ty_t s = n->litt;
    uint64_t v = n->litv, r;
    t.n = 1;
    if (is_intt(t) && !is_intt(s)) {
        asm_error_node(a, n, "floating %s %.*s where an integer (%s) is "
                       "needed (OpenCL C would convert it toward zero: "
                       "write convert_%s(...) for that)",
                       n->kind == N_LIT ? "literal" : "constant", SPAN(a, n),
                       ty_name(t, b1), b1);
        return false;
    }
    if (is_intt(t)) {
        r = lit_convert((enum ty_scalar)t.s, (enum ty_scalar)s.s, v);
        if (strict && !int_fits(s, v, t)) {
            range_error(a, n, s, v, t);
            return false;
        }
    } else {
        /* NAN and INFINITY (float constants) mean the same in half */
        bool special = (v & 0x7f800000u) == 0x7f800000u;
        if (s.s == TY_FLOAT && t.s == TY_HALF && strict && !special) {
            asm_error_node(a, n, "%.*s is a %s constant; the operand is %s "
                           "(drop the suffix)", SPAN(a, n),
                           ty_name(s, b1), ty_name(t, b2));
            return false;
        }
        r = lit_convert((enum ty_scalar)t.s, (enum ty_scalar)s.s, v);
        if (inf_bits(t, r) && !inf_bits(s, v)) {
            asm_error_node(a, n, "%s %.*s is out of range for %s (it would "
                           "round to infinity)",
                           n->kind == N_LIT ? "literal" : "constant",
                           SPAN(a, n), ty_name(t, b1));
            return false;
        }
    }
    n->vv[0] = r, n->isconst = true;
    n->x = (xty){t, X_VAL, 0, false};
    return true;
}

bool fold_lit(A *a, node *n, ty_t t)
{
    return fold_nat(a, n) && convert_lit(a, n, t, true);
}

bool fold_lit_wrap(A *a, node *n, ty_t t)
{
    return fold_nat(a, n) && convert_lit(a, n, t, false);
}

void fold_cast(A *a, node *n, const node *c)
{
    enum ty_scalar d = (enum ty_scalar)n->x.t.s, s = (enum ty_scalar)c->x.t.s;
    uint8_t sb[8], db[8];
    ty_put_bits(sb, ty_scalar_size(s), c->vv[0]);
    int notes = cv_scalar(d, s, db, sb, false, cv_default_round(d));
    if (notes) {
        warn_kept(a, n, notes);
        return;
    }
    n->vv[0] = lit_convert(d, s, c->vv[0]);
    n->isconst = true;
}

void fold_convert(A *a, node *n, const node *c)
{
    ty_t t = n->x.t, s = c->x.t;
    enum rnd r = n->bi.has_round ? n->bi.round
                                 : cv_default_round((enum ty_scalar)t.s);
    uint64_t v[TY_MAXLANES];
    int notes = 0;
    for (unsigned i = 0; i < t.n; i++) {
        uint64_t hs = 0, hd = 0;
        lit_host_put(&hs, (enum ty_scalar)s.s, 0, c->vv[i]);
        notes |= cv_scalar((enum ty_scalar)t.s, (enum ty_scalar)s.s, &hd, &hs,
                           n->bi.sat, r);
        v[i] = lit_host_get(&hd, (enum ty_scalar)t.s, 0);
    }
    if (notes) {
        warn_kept(a, n, notes);
        return;
    }
    memcpy(n->vv, v, t.n * sizeof v[0]);
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
