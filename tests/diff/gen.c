/* The difftest kernel generator. Every construct is written so that its
 * result is one OpenCL C pins down for every input (docs/difftest.md):
 * operations whose result the specification leaves open are masked or
 * never generated. Each expression is built as text in both languages at
 * once, so the two kernels agree by construction. */
#include "tests/diff/gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const dt_buf_suffix[DT_NBUF] = {
#define X(suf, S) #suf,
    DT_BUFS(X)
#undef X
};
const uint8_t dt_buf_scalar[DT_NBUF] = {
#define X(suf, S) S,
    DT_BUFS(X)
#undef X
};

enum { MAXVAR = 10, MAXDECL = 512, MAXBODY = 24, MAXSTMT = 4096 };

typedef struct {
    char *cl, *ir;
} ex;

typedef struct {
    dt_kernel *k;
    uint64_t rng;
    int nvar;
    ty_t vt[MAXVAR];
    int nconst;
    int nout[DT_NBUF];
    int active[8], nactive;   /* loop counters of the enclosing loops */
    int budget;               /* statements left to generate */
} gen;

/* ---- allocation: everything of a kernel lives in its pool ---- */

typedef struct blk {
    struct blk *next;
    max_align_t data[];
} blk;

static void *kalloc(dt_kernel *k, size_t n)
{
    blk *b = calloc(1, sizeof *b + n);
    if (!b) {
        fprintf(stderr, "difftest: out of memory\n");
        exit(2);
    }
    b->next = k->pool;
    k->pool = b;
    return b->data;
}

static char *kstr(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = kalloc(g->k, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void dt_free(dt_kernel *k)
{
    for (blk *b = k->pool, *nx; b; b = nx) {
        nx = b->next;
        free(b);
    }
    for (int i = 0; i < DT_NBUF; i++)
        free(k->in[i]);
    memset(k, 0, sizeof *k);
}

/* ---- random numbers (splitmix64: reproducible on every host) ---- */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static unsigned rnd(gen *g, unsigned n) { return (unsigned)(mix(&g->rng) % n); }

/* ---- types ---- */

static const uint8_t value_scalars[] = {
    TY_CHAR, TY_UCHAR, TY_SHORT, TY_USHORT, TY_INT, TY_UINT,
    TY_LONG, TY_ULONG, TY_FLOAT, TY_DOUBLE,
};
enum { NVALUE = sizeof value_scalars };

static unsigned pick_width(gen *g)
{
    static const uint8_t w[] = {1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 8, 8, 16};
    return w[rnd(g, sizeof w)];
}

static ty_t mkty(unsigned s, unsigned n) { return (ty_t){(uint8_t)s, (uint8_t)n}; }
static bool is_int(unsigned s) { return !ty_is_float((enum ty_scalar)s); }
static bool is_signed(unsigned s) { return ty_is_signed((enum ty_scalar)s); }
static unsigned ssize(unsigned s) { return ty_scalar_size((enum ty_scalar)s); }

static const char *tn(gen *g, ty_t t)
{
    char buf[TY_NAME_MAX];
    return kstr(g, "%s", ty_name(t, buf));
}

static const char *sn(unsigned s) { return ty_scalar_name((enum ty_scalar)s); }

static int buf_of(unsigned s)
{
    for (int b = 0; b < DT_NBUF; b++)
        if (dt_buf_scalar[b] == s)
            return b;
    return -1;
}

/* The integer scalar of a size: signed or not. */
static unsigned int_of_size(unsigned size, bool sgn)
{
    switch (size) {
    case 1: return sgn ? TY_CHAR : TY_UCHAR;
    case 2: return sgn ? TY_SHORT : TY_USHORT;
    case 4: return sgn ? TY_INT : TY_UINT;
    default: return sgn ? TY_LONG : TY_ULONG;
    }
}

static uint64_t umask(unsigned s) { return ssize(s) == 8 ? ~0ull : (1ull << 8 * ssize(s)) - 1; }
static uint64_t smin_bits(unsigned s) { return 1ull << (8 * ssize(s) - 1); }

static int64_t sext(unsigned s, uint64_t v)
{
    uint64_t x = v & umask(s);
    if (x & smin_bits(s))
        x |= ~umask(s);
    return (x >> 63) ? -(int64_t)~x - 1 : (int64_t)x;
}

/* ---- values: random, with the special ones weighted in ---- */

static uint64_t rand_bits(uint64_t *r, unsigned s)
{
    static const uint32_t fsp[] = {
        0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
        0x7fa00001, 0x7fc12345, 0x00000001, 0x80000001, 0x007fffff,
        0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
        0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000, 0xc0200000,
        0x4f000000, 0x4effffff, 0xcf000000, 0xcf000001, 0x4f800000,
        0x5f000000, 0xdf000000, 0x5f800000, 0x477fe000, 0x477ff000,
        0x477fefff, 0x33800000, 0x33000000, 0x38800000, 0x387fc000,
        0x3f800001, 0x4b000001, 0x42fe0000, 0xc3000000, 0x437f0000,
    };
    static const uint64_t dsp[] = {
        0, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
        0x7ff8000000000000, 0xfff8000000000000, 0x7ff4000000000001,
        0x7ff8000012345678, 0x0000000000000001, 0x800fffffffffffff,
        0x0010000000000000, 0x7fefffffffffffff, 0x3ff0000000000000,
        0xbff0000000000000, 0x3fe0000000000000, 0x3ff8000000000000,
        0x4004000000000000, 0xbff8000000000000, 0x41e0000000000000,
        0x41dfffffffffffff, 0xc1e0000000000000, 0x41f0000000000000,
        0x43e0000000000000, 0xc3e0000000000000, 0x43f0000000000000,
        0x40effc0000000000, 0x40effe0000000000, 0x3e70000000000000,
        0x47efffffe0000000, 0x47efffff00000000, 0x36a0000000000000,
        0x3ff0000010000000, 0x3ff0000000000001, 0x380fffffffffffff,
    };
    static const uint16_t hsp[] = {
        0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7d01, 0x7e55, 0x0001,
        0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800,
        0x3e00, 0x5bf8, 0x57f0,
    };
    uint64_t x = mix(r), y = mix(r);
    if (s == TY_FLOAT) {
        switch (x % 4) {
        case 0: return fsp[y % (sizeof fsp / sizeof *fsp)];
        case 1: { /* k/4: ties and exact halves for the rounding modes */
            float f = (float)((int64_t)(y % 2001) - 1000) / 4;
            uint32_t u;
            memcpy(&u, &f, 4);
            return u;
        }
        default: return (uint32_t)y;
        }
    }
    if (s == TY_DOUBLE) {
        switch (x % 4) {
        case 0: return dsp[y % (sizeof dsp / sizeof *dsp)];
        case 1: {
            double d = (double)((int64_t)(y % 2000001) - 1000000) / 8;
            uint64_t u;
            memcpy(&u, &d, 8);
            return u;
        }
        case 2: { /* a float widened: narrowing back is exact or a tie */
            uint32_t f = (uint32_t)y;
            uint64_t e = f >> 23 & 0xff;
            if (e == 0 || e == 0xff)
                return y;
            return (uint64_t)(f >> 31) << 63 | (e - 127 + 1023) << 52 |
                   (uint64_t)(f & 0x7fffff) << 29 | (x >> 8 & 1) << 28;
        }
        default: return y;
        }
    }
    if (s == TY_HALF)
        return x % 3 == 0 ? hsp[y % (sizeof hsp / sizeof *hsp)] : (uint16_t)y;
    uint64_t m = umask(s), mn = smin_bits(s);
    switch (x % 6) {
    case 0: {
        const uint64_t sp[] = {0, 1, m, mn, mn - 1, mn + 1, m - 1, 2, 7, 8};
        return sp[y % 10] & m;
    }
    case 1: return ((y % 21) - 10) & m;
    case 2: return (1ull << (y % (8 * ssize(s)))) & m;
    default: return y & m;
    }
}

/* ---- literals ---- */

static ex ilit(gen *g, unsigned s, uint64_t v)
{
    static const char *const mins[] = {"CHAR_MIN", "SHRT_MIN", "INT_MIN", "", "LONG_MIN"};
    v &= umask(s);
    if (!is_signed(s))
        return (ex){kstr(g, "((%s)0x%llxul)", sn(s), (unsigned long long)v),
                    kstr(g, "0x%llx", (unsigned long long)v)};
    if (v == smin_bits(s)) {
        const char *m = mins[ssize(s) / 2];
        return (ex){kstr(g, "((%s)%s)", sn(s), m), kstr(g, "%s", m)};
    }
    long long x = sext(s, v);
    return (ex){kstr(g, "((%s)%lld)", sn(s), x), kstr(g, "%lld", x)};
}

/* A scalar floating literal by its bits (constants: any value). */
static ex flit_bits(gen *g, unsigned s, uint64_t v)
{
    if (s == TY_FLOAT)
        return (ex){kstr(g, "as_float(0x%08xu)", (unsigned)v), kstr(g, "as_float(0x%08x)", (unsigned)v)};
    return (ex){kstr(g, "as_double(0x%016llxul)", (unsigned long long)v),
                kstr(g, "as_double(0x%016llx)", (unsigned long long)v)};
}

/* A finite floating literal by value, exact in its type (the bounds). */
static ex flit(gen *g, unsigned s, double v)
{
    return (ex){kstr(g, s == TY_FLOAT ? "%af" : "%a", v), kstr(g, "%a", v)};
}

/* Literal of type t broadcast: scalar literals of vector type. */
static ex vlit(gen *g, ty_t t, uint64_t v)
{
    ex e = ilit(g, t.s, v);
    if (t.n > 1)
        e.cl = kstr(g, "((%s)(%s))", tn(g, t), e.cl);
    return e;
}

/* ---- declarations ---- */

static void add_decl(gen *g, char *name, char *cl, char *ir)
{
    dt_kernel *k = g->k;
    if (k->ndecl == MAXDECL)
        return;
    k->decl_name[k->ndecl] = name;
    k->decl_cl[k->ndecl] = cl;
    k->decl_ir[k->ndecl] = ir;
    k->ndecl++;
}

static ex new_const(gen *g, ty_t t)
{
    if (g->k->ndecl >= MAXDECL - 1)
        return (ex){NULL, NULL};
    char *name = kstr(g, "k%d", g->nconst++);
    char *cl = "", *ir = "";
    for (unsigned i = 0; i < t.n; i++) {
        uint64_t v = rand_bits(&g->rng, t.s);
        ex e = ty_is_float((enum ty_scalar)t.s) ? flit_bits(g, t.s, v) : ilit(g, t.s, v);
        cl = kstr(g, "%s%s%s", cl, i ? ", " : "", e.cl);
        ir = kstr(g, "%s%s%s", ir, i ? ", " : "", e.ir);
    }
    const char *T = tn(g, t);
    if (t.n > 1) {
        cl = kstr(g, "(%s)(%s)", T, cl);
        ir = kstr(g, "(%s)(%s)", T, ir);
    }
    /* volatile: PoCL 3.1 crashes on convert_T_sat_rte of a constant
     * float (docs/difftest.md); clvm still sees a constant. */
    add_decl(g, name, kstr(g, "volatile const %s %s = %s;", T, name, cl),
             kstr(g, "const %s %s = %s", T, name, ir));
    return (ex){name, name};
}

/* ---- leaves: registers, constants, loads ---- */

static ex same(gen *g, char *s) { (void)g; return (ex){s, s}; }

static ex load(gen *g, ty_t t)
{
    if (t.s == TY_FLOAT && rnd(g, 3) == 0) { /* through half */
        bool aligned = t.n > 1 && rnd(g, 2);
        unsigned stride = aligned && t.n == 3 ? 4 : t.n;
        unsigned j = rnd(g, DT_NIN / stride);
        if (t.n == 1)
            return same(g, kstr(g, "vload_half(gid * %d + %u, i_h)", DT_NIN, j));
        return same(g, kstr(g, "vload%s_half%u(gid * %u + %u, i_h)", aligned ? "a" : "",
                            t.n, DT_NIN / stride, j));
    }
    const char *p = dt_buf_suffix[buf_of(t.s)];
    if (t.n == 1)
        return same(g, kstr(g, "i_%s[gid * %d + %u]", p, DT_NIN, rnd(g, DT_NIN)));
    return same(g, kstr(g, "vload%u(gid * %u + %u, i_%s)", t.n, DT_NIN / t.n,
                        rnd(g, DT_NIN / t.n), p));
}

static ex leaf(gen *g, ty_t t)
{
    int match[MAXVAR], nm = 0;
    for (int v = 0; v < g->nvar; v++)
        if (ty_eq(g->vt[v], t))
            match[nm++] = v;
    unsigned r = rnd(g, 10);
    if (t.s == TY_UINT && t.n == 1 && g->nactive && r == 0)
        return same(g, kstr(g, "i%d", g->active[rnd(g, (unsigned)g->nactive)]));
    if (nm && r < 5)
        return same(g, kstr(g, "v%d", match[rnd(g, (unsigned)nm)]));
    if (r < 7) {
        ex c = new_const(g, t);
        if (c.cl)
            return c;
    }
    return load(g, t);
}

/* ---- expressions ---- */

static ex gen_expr(gen *g, ty_t t, int d);

static ex bin(gen *g, ex a, const char *op, ex b)
{
    return (ex){kstr(g, "((%s) %s (%s))", a.cl, op, b.cl), kstr(g, "((%s) %s (%s))", a.ir, op, b.ir)};
}

static ex call(gen *g, const char *f, int n, ex *a)
{
    char *cl = kstr(g, "%s(", f), *ir = kstr(g, "%s(", f);
    for (int i = 0; i < n; i++) {
        cl = kstr(g, "%s%s%s", cl, i ? ", " : "", a[i].cl);
        ir = kstr(g, "%s%s%s", ir, i ? ", " : "", a[i].ir);
    }
    return (ex){kstr(g, "%s)", cl), kstr(g, "%s)", ir)};
}

/* OpenCL C promotes scalar char and short operands to int: the result is
 * cast back (it fits, or the operation is done in uint and wraps). */
static bool promotes(ty_t t) { return t.n == 1 && ssize(t.s) < 4; }

static ex narrow_cl(gen *g, ty_t t, ex e)
{
    if (promotes(t))
        e.cl = kstr(g, "((%s)%s)", sn(t.s), e.cl);
    return e;
}

static ex as_uint_cl(gen *g, ty_t t, ex e)
{
    if (promotes(t))
        e.cl = kstr(g, "((uint)%s)", e.cl);
    return e;
}

static ex int_arith(gen *g, ty_t t, int d)
{
    bool sg = is_signed(t.s);
    static const char *const uops[] = {"+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%",
                                       "neg", "~", "min", "max", "clamp", "abs"};
    static const char *const sops[] = {"&", "|", "^", ">>", "/", "%", "~", "min", "max",
                                       "clamp", "abs"};
    const char *op = sg ? sops[rnd(g, sizeof sops / sizeof *sops)]
                        : uops[rnd(g, sizeof uops / sizeof *uops)];
    if (!strcmp(op, "abs")) {
        /* abs gives the unsigned type: for a signed t, as_T of it */
        unsigned src = int_of_size(ssize(t.s), rnd(g, 3) != 0);
        ex a = gen_expr(g, mkty(src, t.n), d - 1);
        if (is_signed(src)) /* PoCL 3.1 miscompiles abs(MIN) (docs/difftest.md) */
            a = call(g, "max", 2, (ex[]){a, ilit(g, src, smin_bits(src) + 1)});
        ex r = call(g, "abs", 1, &a);
        if (sg) {
            const char *f = kstr(g, "as_%s", tn(g, t));
            r = call(g, f, 1, &r);
        }
        return r;
    }
    ex a = gen_expr(g, t, d - 1);
    if (!strcmp(op, "neg") || !strcmp(op, "~")) {
        const char *o = op[0] == 'n' ? "-" : "~";
        ex r = {kstr(g, "(%s%s)", o, as_uint_cl(g, t, a).cl), kstr(g, "(%s(%s))", o, a.ir)};
        return narrow_cl(g, t, r);
    }
    if (!strcmp(op, "min") || !strcmp(op, "max")) {
        ex b[2] = {a, gen_expr(g, t, d - 1)};
        return call(g, op, 2, b);
    }
    if (!strcmp(op, "clamp")) { /* lo <= hi, or the result is undefined */
        ex l1 = leaf(g, t), l2 = leaf(g, t);
        ex x[3] = {a, call(g, "min", 2, (ex[]){l1, l2}), call(g, "max", 2, (ex[]){l1, l2})};
        return call(g, "clamp", 3, x);
    }
    if (!strcmp(op, "/") || !strcmp(op, "%")) {
        ex dv = leaf(g, t), one = vlit(g, t, 1), zero = vlit(g, t, 0);
        if (sg) { /* no zero divisor, no MIN / -1 */
            dv = (ex){kstr(g, "(%s == %s ? %s : %s)", dv.cl, zero.cl, one.cl, dv.cl),
                      kstr(g, "(%s == 0 ? 1 : %s)", dv.ir, dv.ir)};
            ex mn = ilit(g, t.s, smin_bits(t.s) + 1);
            a = call(g, "max", 2, (ex[]){a, mn});
        } else {
            dv = call(g, "max", 2, (ex[]){dv, ilit(g, t.s, 1)});
        }
        return narrow_cl(g, t, bin(g, a, op, dv));
    }
    ex b = gen_expr(g, t, d - 1);
    if (op[0] == '<' || op[0] == '>') { /* count below the width: OpenCL
                                           masks by the promoted width */
        b = bin(g, b, "&", ilit(g, t.s, 8 * ssize(t.s) - 1));
        if (op[0] == '<')
            a = as_uint_cl(g, t, a);
        return narrow_cl(g, t, bin(g, a, op, b));
    }
    if (op[0] == '+' || op[0] == '-' || op[0] == '*')
        return narrow_cl(g, t, bin(g, as_uint_cl(g, t, a), op, as_uint_cl(g, t, b)));
    return narrow_cl(g, t, bin(g, a, op, b));
}

static ex float_arith(gen *g, ty_t t, int d)
{
    ex a = gen_expr(g, t, d - 1);
    switch (rnd(g, 10)) {
    case 0: return bin(g, a, "+", gen_expr(g, t, d - 1));
    case 1: return bin(g, a, "-", gen_expr(g, t, d - 1));
    case 2: return bin(g, a, "*", gen_expr(g, t, d - 1));
    case 3: return bin(g, a, "/", gen_expr(g, t, d - 1));
    case 4: return call(g, "fma", 3, (ex[]){a, gen_expr(g, t, d - 1), gen_expr(g, t, d - 1)});
    case 5: return (ex){kstr(g, "(-%s)", a.cl), kstr(g, "(-(%s))", a.ir)};
    case 6: return call(g, "fabs", 1, &a);
    case 7: case 8: { /* the sign of a zero result is not pinned: + 0 makes it + */
        ex m = call(g, rnd(g, 2) ? "fmin" : "fmax", 2, (ex[]){a, gen_expr(g, t, d - 1)});
        return (ex){kstr(g, "(%s + %s)", m.cl, t.s == TY_FLOAT ? "0.0f" : "0.0"),
                    kstr(g, "(%s + 0.0)", m.ir)};
    }
    default: return bin(g, a, "+", gen_expr(g, t, d - 1));
    }
}

/* The greatest value of floating type fs that is at most integer type
 * is's maximum, and is's minimum: clamping to them keeps a conversion
 * in range after rounding in any mode. */
static double int_max_in(unsigned fs, unsigned is)
{
    unsigned bits = 8 * ssize(is) - (is_signed(is) ? 1 : 0);
    unsigned mant = fs == TY_FLOAT ? 24 : 53;
    double two = 1;
    for (unsigned i = 0; i < bits; i++)
        two *= 2;
    if (bits <= mant)
        return two - 1;
    double ulp = 1;
    for (unsigned i = 0; i < bits - mant; i++)
        ulp *= 2;
    return two - ulp;
}

static double int_min_of(unsigned is)
{
    if (!is_signed(is))
        return 0;
    double v = -1;
    for (unsigned i = 1; i < 8 * ssize(is); i++)
        v *= 2;
    return v;
}

static ex convert(gen *g, ty_t t, int d)
{
    unsigned src = value_scalars[rnd(g, NVALUE)];
    ty_t st = mkty(src, t.n);
    ex x = gen_expr(g, st, d - 1);
    bool to_int = is_int(t.s);
    bool sat = to_int && rnd(g, 3) == 0;
    static const char *const modes[] = {"", "", "_rte", "_rtz", "_rtp", "_rtn"};
    const char *mode = modes[rnd(g, 6)];
    if (to_int && !sat) {
        if (!is_int(src)) { /* NaN and out of range: clamp first */
            ex lo = flit(g, src, int_min_of(t.s)), hi = flit(g, src, int_max_in(src, t.s));
            x = call(g, "fmin", 2, (ex[]){call(g, "fmax", 2, (ex[]){x, lo}), hi});
        } else if (is_signed(t.s)) { /* narrowing into a signed type */
            uint64_t mx = umask(t.s) >> 1;
            bool wider = ssize(src) > ssize(t.s);
            if (is_signed(src) && wider)
                x = call(g, "clamp", 3, (ex[]){x, ilit(g, src, -(uint64_t)(mx + 1)), ilit(g, src, mx)});
            else if (!is_signed(src) && ssize(src) >= ssize(t.s))
                x = call(g, "min", 2, (ex[]){x, ilit(g, src, mx)});
        }
    }
    const char *f = kstr(g, "convert_%s%s%s", tn(g, t), sat ? "_sat" : "", mode);
    return call(g, f, 1, &x);
}

static ex as_type(gen *g, ty_t t, int d)
{
    unsigned size = ssize(t.s);
    unsigned c[3], n = 0;
    for (unsigned i = 0; i < NVALUE; i++)
        if (ssize(value_scalars[i]) == size)
            c[n++] = value_scalars[i];
    unsigned src = c[rnd(g, n)];
    /* A floating operand only as a leaf: those hold defined NaN bits
     * (registers are canonicalised when assigned). */
    ex x = is_int(src) ? gen_expr(g, mkty(src, t.n), d - 1) : leaf(g, mkty(src, t.n));
    return call(g, kstr(g, "as_%s", tn(g, t)), 1, &x);
}

static ex compare(gen *g, ty_t t, int d)
{
    static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
    unsigned src;
    if (t.n > 1)
        src = rnd(g, 3) || ssize(t.s) == 1 || ssize(t.s) == 2
                  ? int_of_size(ssize(t.s), rnd(g, 2))
                  : (ssize(t.s) == 4 ? TY_FLOAT : TY_DOUBLE);
    else
        src = value_scalars[rnd(g, NVALUE)];
    ty_t st = mkty(src, t.n);
    ex a = gen_expr(g, st, d - 1), r;
    unsigned k = rnd(g, is_int(src) ? 9 : 6);
    if (k < 6)
        r = bin(g, a, ops[k], gen_expr(g, st, d - 1));
    else if (k == 6)
        r = (ex){kstr(g, "(!%s)", a.cl), kstr(g, "(!(%s))", a.ir)};
    else
        r = bin(g, a, k == 7 ? "&&" : "||", gen_expr(g, st, d - 1));
    if (t.n == 1) /* a truth value, 1 or 0, in t */
        r = (ex){kstr(g, "((%s)%s)", sn(t.s), r.cl), kstr(g, "(%s)%s", sn(t.s), r.ir)};
    return r;
}

static ex choose(gen *g, ty_t t, int d)
{
    ty_t ct = t.n == 1 ? mkty(int_of_size(1u << rnd(g, 4), rnd(g, 2)), 1)
                       : mkty(int_of_size(ssize(t.s), rnd(g, 2)), t.n);
    ex c = gen_expr(g, ct, d - 1), a = gen_expr(g, t, d - 1), b = gen_expr(g, t, d - 1);
    if (rnd(g, 2))
        return narrow_cl(g, t, (ex){kstr(g, "((%s) ? (%s) : (%s))", c.cl, a.cl, b.cl),
                                    kstr(g, "((%s) ? (%s) : (%s))", c.ir, a.ir, b.ir)});
    if (t.n == 1) /* select's scalar condition has the element's size */
        c = gen_expr(g, mkty(int_of_size(ssize(t.s), rnd(g, 2)), 1), d - 1);
    return call(g, "select", 3, (ex[]){a, b, c});
}

static ex swizzle(gen *g, ty_t t, int d)
{
    static const uint8_t ws[] = {2, 3, 4, 8, 16};
    unsigned m = ws[rnd(g, 5)];
    ex x = gen_expr(g, mkty(t.s, m), d - 1);
    char sel[20] = ".s";
    for (unsigned i = 0; i < t.n; i++)
        sel[2 + i] = "0123456789abcdef"[rnd(g, m)];
    sel[2 + t.n] = 0;
    return (ex){kstr(g, "(%s)%s", x.cl, sel), kstr(g, "(%s)%s", x.ir, sel)};
}

static ex build(gen *g, ty_t t, int d)
{
    static const uint8_t ws[] = {1, 2, 3, 4, 8};
    char *cl = "", *ir = "";
    for (unsigned left = t.n, first = 1; left; first = 0) {
        unsigned w;
        do
            w = ws[rnd(g, 5)];
        while (w > left || (first && w == t.n));
        ex p = gen_expr(g, mkty(t.s, w), d - 1);
        cl = kstr(g, "%s%s%s", cl, first ? "" : ", ", p.cl);
        ir = kstr(g, "%s%s%s", ir, first ? "" : ", ", p.ir);
        left -= w;
    }
    const char *T = tn(g, t);
    return (ex){kstr(g, "((%s)(%s))", T, cl), kstr(g, "((%s)(%s))", T, ir)};
}

static ex gen_expr(gen *g, ty_t t, int d)
{
    if (d <= 0)
        return leaf(g, t);
    for (;;) {
        switch (rnd(g, 12)) {
        case 0: return leaf(g, t);
        case 1:
            if (t.n > 1 || rnd(g, 2))
                return swizzle(g, t, d);
            break;
        case 2:
            if (t.n > 1)
                return build(g, t, d);
            break;
        case 3: case 4: case 5:
            return is_int(t.s) ? int_arith(g, t, d) : float_arith(g, t, d);
        case 6: case 7: return convert(g, t, d);
        case 8: return as_type(g, t, d);
        case 9:
            if (is_int(t.s) && (t.n == 1 || is_signed(t.s)))
                return compare(g, t, d);
            break;
        default: return choose(g, t, d);
        }
    }
}

/* ---- statements ---- */

static dt_stmt *stmt(gen *g, enum dt_kind kind, char *cl, char *ir)
{
    dt_stmt *s = kalloc(g->k, sizeof *s);
    s->kind = kind;
    s->cl = cl;
    s->ir = ir;
    g->budget--;
    return s;
}

static ty_t rand_type(gen *g) { return mkty(value_scalars[rnd(g, NVALUE)], pick_width(g)); }

/* A NaN result's bits are not defined: a floating register gets one NaN
 * after every assignment, so as_T of it is defined. */
static void canon(gen *g, int v, char **cl, char **ir)
{
    ty_t t = g->vt[v];
    if (!ty_is_float((enum ty_scalar)t.s))
        return;
    ex nan = flit_bits(g, t.s, t.s == TY_FLOAT ? 0x7fc00000u : 0x7ff8000000000000u);
    if (t.n > 1) {
        const char *T = tn(g, t);
        nan = (ex){kstr(g, "(%s)(%s)", T, nan.cl), kstr(g, "(%s)(%s)", T, nan.ir)};
    }
    *cl = kstr(g, "%s\nv%d = (v%d != v%d) ? %s : v%d;", *cl, v, v, v, nan.cl, v);
    *ir = kstr(g, "%s\nv%d = (v%d != v%d) ? %s : v%d", *ir, v, v, v, nan.ir, v);
}

static int expr_depth(gen *g) { return 1 + (int)rnd(g, 3); }

static dt_stmt *assign(gen *g)
{
    int v = (int)rnd(g, (unsigned)g->nvar);
    ty_t t = g->vt[v];
    char sel[20] = "";
    if (t.n > 1 && rnd(g, 4) == 0) { /* some components, none twice */
        char idx[16];
        for (unsigned i = 0; i < t.n; i++)
            idx[i] = "0123456789abcdef"[i];
        for (unsigned i = t.n - 1; i > 0; i--) {
            unsigned j = rnd(g, i + 1);
            char c = idx[i];
            idx[i] = idx[j];
            idx[j] = c;
        }
        static const uint8_t ws[] = {1, 2, 3, 4, 8};
        unsigned w;
        do
            w = ws[rnd(g, 5)];
        while (w >= t.n);
        sel[0] = '.';
        sel[1] = 's';
        memcpy(sel + 2, idx, w);
        sel[2 + w] = 0;
        t.n = (uint8_t)w;
    }
    ex e = gen_expr(g, t, expr_depth(g));
    char *cl = kstr(g, "v%d%s = %s;", v, sel, e.cl), *ir = kstr(g, "v%d%s = %s", v, sel, e.ir);
    canon(g, v, &cl, &ir);
    return stmt(g, DT_LINE, cl, ir);
}

static dt_stmt *store(gen *g)
{
    bool half = rnd(g, 4) == 0;
    ty_t t = half ? mkty(rnd(g, 3) ? TY_FLOAT : TY_DOUBLE, pick_width(g)) : rand_type(g);
    bool aligned = half && t.n > 1 && rnd(g, 2);
    unsigned stride = aligned && t.n == 3 ? 4 : t.n;
    int b = buf_of(half ? TY_HALF : t.s);
    unsigned at = ((unsigned)g->nout[b] + stride - 1) / stride * stride;
    if (at + stride > DT_NOUT)
        return NULL;
    g->nout[b] = (int)(at + stride);
    ex e = gen_expr(g, t, expr_depth(g));
    const char *p = dt_buf_suffix[b];
    char *cl, *ir;
    if (half) {
        static const char *const modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
        const char *m = modes[rnd(g, 5)];
        char n[4] = "";
        if (t.n > 1)
            snprintf(n, sizeof n, "%u", t.n);
        const char *f = kstr(g, "vstore%s_half%s%s", aligned ? "a" : "", n, m);
        cl = kstr(g, "%s(%s, gid * %u + %u, o_h);", f, e.cl, DT_NOUT / stride, at / stride);
        ir = kstr(g, "%s(%s, gid * %u + %u, o_h)", f, e.ir, DT_NOUT / stride, at / stride);
    } else if (t.n == 1) {
        cl = kstr(g, "o_%s[gid * %d + %u] = %s;", p, DT_NOUT, at, e.cl);
        ir = kstr(g, "o_%s[gid * %d + %u] = %s", p, DT_NOUT, at, e.ir);
    } else {
        cl = kstr(g, "vstore%u(%s, gid * %u + %u, o_%s);", t.n, e.cl, DT_NOUT / t.n, at / t.n, p);
        ir = kstr(g, "vstore%u(%s, gid * %u + %u, o_%s)", t.n, e.ir, DT_NOUT / t.n, at / t.n, p);
    }
    return stmt(g, DT_LINE, cl, ir);
}

static ex cond(gen *g)
{
    static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
    if (rnd(g, 10) < 7) {
        ty_t t = mkty(value_scalars[rnd(g, NVALUE)], 1);
        ex a = gen_expr(g, t, 1), b = gen_expr(g, t, 1);
        const char *op = ops[rnd(g, 6)];
        return (ex){kstr(g, "(%s) %s (%s)", a.cl, op, b.cl), kstr(g, "(%s) %s (%s)", a.ir, op, b.ir)};
    }
    return gen_expr(g, mkty(int_of_size(1u << rnd(g, 4), rnd(g, 2)), 1), 2);
}

static int gen_block(gen *g, dt_stmt **out, int max, int depth, bool in_loop);

static dt_stmt *gen_stmt(gen *g, int depth, bool in_loop)
{
    for (;;) {
        unsigned r = rnd(g, 20);
        if (r < 10)
            return assign(g);
        if (r < 14) {
            dt_stmt *s = store(g);
            if (s)
                return s;
        } else if (r < 16 && depth < 2) {
            ex c = cond(g);
            dt_stmt *s = stmt(g, DT_IF, c.cl, c.ir);
            s->body = kalloc(g->k, MAXBODY * sizeof *s->body);
            s->els = kalloc(g->k, MAXBODY * sizeof *s->els);
            s->nbody = gen_block(g, s->body, 1 + (int)rnd(g, 4), depth + 1, in_loop);
            if (rnd(g, 2))
                s->nels = gen_block(g, s->els, 1 + (int)rnd(g, 3), depth + 1, in_loop);
            return s;
        } else if (r < 18 && depth < 2 && g->nactive < 8) {
            int c = g->k->ncounter++;
            ex n = gen_expr(g, mkty(TY_UINT, 1), 1);
            dt_stmt *s = stmt(g, DT_WHILE, n.cl, n.ir);
            s->counter = c;
            add_decl(g, kstr(g, "i%d", c), kstr(g, "uint i%d = 0;", c), kstr(g, "uint i%d = 0", c));
            s->body = kalloc(g->k, MAXBODY * sizeof *s->body);
            g->active[g->nactive++] = c;
            s->nbody = gen_block(g, s->body, 1 + (int)rnd(g, 5), depth + 1, true);
            g->nactive--;
            return s;
        } else if (in_loop && r >= 18) {
            ex c = cond(g);
            return stmt(g, r == 18 ? DT_BREAKIF : DT_CONTIF, c.cl, c.ir);
        }
    }
}

static int gen_block(gen *g, dt_stmt **out, int max, int depth, bool in_loop)
{
    int n = 0;
    while (n < max && n < MAXBODY && (g->budget > 0 || n == 0))
        out[n++] = gen_stmt(g, depth, in_loop);
    return n;
}

static void collect(dt_kernel *k, dt_stmt **list, int n)
{
    for (int i = 0; i < n && k->nstmt < MAXSTMT; i++) {
        k->all[k->nstmt++] = list[i];
        collect(k, list[i]->body, list[i]->nbody);
        collect(k, list[i]->els, list[i]->nels);
    }
}

void dt_generate(dt_kernel *k, uint64_t seed, uint64_t index)
{
    memset(k, 0, sizeof *k);
    gen G = {.k = k, .rng = seed ^ mix(&(uint64_t){index + 0x5eed})}, *g = &G;
    k->seed = seed;
    snprintf(k->name, sizeof k->name, "t%llu", (unsigned long long)index);
    k->decl_cl = kalloc(k, MAXDECL * sizeof(char *));
    k->decl_ir = kalloc(k, MAXDECL * sizeof(char *));
    k->decl_name = kalloc(k, MAXDECL * sizeof(char *));
    k->top = kalloc(k, 64 * sizeof *k->top);
    k->all = kalloc(k, MAXSTMT * sizeof *k->all);

    for (int b = 0; b < DT_NBUF; b++) {
        unsigned sz = ssize(dt_buf_scalar[b]);
        k->in[b] = malloc((size_t)DT_ITEMS * DT_NIN * sz);
        if (!k->in[b]) {
            fprintf(stderr, "difftest: out of memory\n");
            exit(2);
        }
        uint64_t r = mix(&G.rng);
        for (unsigned e = 0; e < DT_ITEMS * DT_NIN; e++) {
            uint64_t v = rand_bits(&r, dt_buf_scalar[b]);
            for (unsigned i = 0; i < sz; i++)
                k->in[b][e * sz + i] = (uint8_t)(v >> 8 * i);
        }
    }

    g->nvar = 3 + (int)rnd(g, MAXVAR - 2);
    for (int v = 0; v < g->nvar; v++) {
        g->vt[v] = rand_type(g);
        ex init = load(g, g->vt[v]);
        const char *T = tn(g, g->vt[v]);
        add_decl(g, kstr(g, "v%d", v), kstr(g, "%s v%d = %s;", T, v, init.cl),
                 kstr(g, "%s v%d = %s", T, v, init.ir));
    }
    g->budget = 8 + (int)rnd(g, 16);
    k->ntop = gen_block(g, k->top, 40, 0, false);
    /* every register goes out at the end */
    for (int v = 0; v < g->nvar && k->ntop < 64; v++) {
        ty_t t = g->vt[v];
        int b = buf_of(t.s);
        unsigned at = ((unsigned)g->nout[b] + t.n - 1) / t.n * t.n;
        if (at + t.n > DT_NOUT)
            continue;
        g->nout[b] = (int)(at + t.n);
        const char *p = dt_buf_suffix[b];
        char *cl, *ir;
        if (t.n == 1) {
            cl = kstr(g, "o_%s[gid * %d + %u] = v%d;", p, DT_NOUT, at, v);
            ir = kstr(g, "o_%s[gid * %d + %u] = v%d", p, DT_NOUT, at, v);
        } else {
            cl = kstr(g, "vstore%u(v%d, gid * %u + %u, o_%s);", t.n, v, DT_NOUT / t.n, at / t.n, p);
            ir = kstr(g, "vstore%u(v%d, gid * %u + %u, o_%s)", t.n, v, DT_NOUT / t.n, at / t.n, p);
        }
        k->top[k->ntop++] = stmt(g, DT_LINE, cl, ir);
    }
    collect(k, k->top, k->ntop);
}

/* ---- rendering ---- */

typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)n + 1 > b->cap) {
        b->cap = (b->n + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) {
            fprintf(stderr, "difftest: out of memory\n");
            exit(2);
        }
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

/* Each line of text (they are separated by '\n'), indented. */
static void lines(sbuf *b, int ind, const char *text)
{
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        put(b, "%*s%.*s\n", ind * 4, "", (int)n, p);
        p += n + (e != NULL);
    }
}

static void render_list(sbuf *b, dt_stmt **list, int n, int ind, bool cl);

static void render_stmt(sbuf *b, const dt_stmt *s, int ind, bool cl)
{
    if (s->dead)
        return;
    switch (s->kind) {
    case DT_LINE:
        lines(b, ind, cl ? s->cl : s->ir);
        break;
    case DT_IF:
        put(b, cl ? "%*sif (%s) {\n" : "%*sif %s\n", ind * 4, "", cl ? s->cl : s->ir);
        render_list(b, s->body, s->nbody, ind + 1, cl);
        put(b, cl ? "%*s} else {\n" : "%*selse\n", ind * 4, "");
        render_list(b, s->els, s->nels, ind + 1, cl);
        put(b, cl ? "%*s}\n" : "%*send\n", ind * 4, "");
        break;
    case DT_WHILE: /* at most 7 iterations: the bound is masked */
        if (cl) {
            put(b, "%*si%d = 0;\n%*swhile (i%d < ((%s) & 7u)) {\n%*si%d = i%d + 1u;\n",
                ind * 4, "", s->counter, ind * 4, "", s->counter, s->cl,
                ind * 4 + 4, "", s->counter, s->counter);
        } else {
            put(b, "%*si%d = 0\n%*swhile i%d < ((%s) & 7)\n%*si%d = i%d + 1\n",
                ind * 4, "", s->counter, ind * 4, "", s->counter, s->ir,
                ind * 4 + 4, "", s->counter, s->counter);
        }
        render_list(b, s->body, s->nbody, ind + 1, cl);
        put(b, cl ? "%*s}\n" : "%*send\n", ind * 4, "");
        break;
    case DT_BREAKIF:
        if (cl)
            put(b, "%*sif (%s) break;\n", ind * 4, "", s->cl);
        else
            put(b, "%*sbreak if %s\n", ind * 4, "", s->ir);
        break;
    case DT_CONTIF:
        if (cl)
            put(b, "%*sif (%s) continue;\n", ind * 4, "", s->cl);
        else
            put(b, "%*sif %s\n%*scontinue\n%*send\n", ind * 4, "", s->ir, ind * 4 + 4, "",
                ind * 4, "");
        break;
    }
}

static void render_list(sbuf *b, dt_stmt **list, int n, int ind, bool cl)
{
    for (int i = 0; i < n; i++)
        render_stmt(b, list[i], ind, cl);
}

static bool uses(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)); p += n) {
        bool l = p == text || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
                                ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'));
        char c = p[n];
        bool r = !(c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'));
        if (l && r)
            return true;
    }
    return false;
}

static char *render(const dt_kernel *k, bool cl)
{
    sbuf body = {0}, out = {0};
    put(&body, "");
    render_list(&body, k->top, k->ntop, 1, cl);
    put(&out, cl ? "kernel void %s(" : "kernel %s(", k->name);
    for (int io = 0; io < 2; io++)
        for (int b = 0; b < DT_NBUF; b++)
            put(&out, "%sglobal %s%s *%c_%s", io || b ? ",\n    " : "", io ? "" : "const ",
                sn(dt_buf_scalar[b]), io ? 'o' : 'i', dt_buf_suffix[b]);
    put(&out, cl ? ")\n{\n    ulong gid = get_global_id(0);\n" : ")\n    ulong gid = get_global_id(0)\n");
    for (int d = 0; d < k->ndecl; d++)
        if (uses(body.s, k->decl_name[d]))
            put(&out, "    %s\n", cl ? k->decl_cl[d] : k->decl_ir[d]);
    put(&out, "%s%s", body.s, cl ? "}\n" : "end\n");
    free(body.s);
    return out.s;
}

char *dt_render_cl(const dt_kernel *k) { return render(k, true); }
char *dt_render_ir(const dt_kernel *k) { return render(k, false); }
