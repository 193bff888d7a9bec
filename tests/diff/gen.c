/* The difftest kernel generator. Every construct is written so that its
 * result is one OpenCL C pins down for every input (docs/difftest.md):
 * operations whose result the specification leaves open are masked or
 * never generated. Each expression is built as text in both languages at
 * once, so the two kernels agree by construction. */
#include "tests/diff/genint.h"

#include "tests/diff/accuracy.h"

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


/* What every component of a special operand (a literal, a constant or a
 * parameter, drawn by the generator) satisfies, so that it can stand
 * where other operands are masked: LF_LOW components are at most LF_HIGH
 * ones (a clamp's bounds). Floating components are unconstrained. */
enum {
    LF_NONZERO = 1, /* no zero: a divisor */
    LF_NOMIN = 2,   /* signed: no MIN (a dividend, abs) */
    LF_LOW = 4,     /* unsigned: top bit clear; signed: negative */
    LF_HIGH = 8,    /* unsigned: top bit set; signed: not negative */
};

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

static char *vkstr(gen *g, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = kalloc(g->k, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static char *kstr(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vkstr(g, fmt, ap);
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

/* Two draws in one expression would be made in an order the compiler
 * picks (gcc and clang differ): every draw here is a statement of its own,
 * so a seed gives the same kernels whatever compiled the generator. */
static ty_t rand_type(gen *g)
{
    unsigned s = value_scalars[rnd(g, NVALUE)];
    return mkty(s, pick_width(g));
}

/* A scalar integer type of random size and signedness. */
static ty_t rand_int_scalar(gen *g)
{
    unsigned size = 1u << rnd(g, 4);
    return mkty(int_of_size(size, rnd(g, 2)), 1);
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

/* A component satisfying fl (see LF_*). */
static uint64_t fix(unsigned s, unsigned fl, uint64_t v)
{
    if (!is_int(s))
        return v;
    uint64_t top = smin_bits(s);
    v &= umask(s);
    if (fl & LF_LOW)
        v = is_signed(s) ? v | top : v & ~top;
    if (fl & LF_HIGH)
        v = is_signed(s) ? v & ~top : v | top;
    if ((fl & LF_NOMIN) && is_signed(s) && v == top)
        v = top + 1;
    if ((fl & LF_NONZERO) && v == 0)
        v = 1;
    return v;
}

/* The components of a special operand: drawn like the inputs, or (for
 * integers, a third of the time) a progression such as 0, 1, 2, 3 (shift
 * counts); a vector's components are never all equal, so that an
 * operation that reads one component for all of them shows. */
static void draw_vals(gen *g, ty_t t, unsigned fl, uint64_t *v)
{
    bool seq = is_int(t.s) && t.n > 1 && rnd(g, 3) == 0;
    uint64_t base = rnd(g, 2) ? 0 : rand_bits(&g->rng, t.s);
    uint64_t step = 1 + rnd(g, 3);
    if (rnd(g, 3) == 0)
        step = -step;
    for (unsigned i = 0; i < t.n; i++)
        v[i] = fix(t.s, fl, seq ? base + i * step : rand_bits(&g->rng, t.s));
    for (int tries = 0; t.n > 1 && tries < 32; tries++) {
        unsigned i = 1;
        while (i < t.n && v[i] == v[0])
            i++;
        if (i < t.n)
            break;
        unsigned c = 1 + rnd(g, t.n - 1u);
        v[c] = fix(t.s, fl, rand_bits(&g->rng, t.s));
    }
}

/* The text of a value of type t in both languages: cast scalars, vector
 * literals (T)(a, b, ...). */
static ex value_text(gen *g, ty_t t, const uint64_t *v)
{
    char *cl = "", *ir = "";
    for (unsigned i = 0; i < t.n; i++) {
        ex e = ty_is_float((enum ty_scalar)t.s) ? flit_bits(g, t.s, v[i]) : ilit(g, t.s, v[i]);
        cl = kstr(g, "%s%s%s", cl, i ? ", " : "", e.cl);
        ir = kstr(g, "%s%s%s", ir, i ? ", " : "", e.ir);
    }
    const char *T = tn(g, t);
    if (t.n > 1)
        return (ex){kstr(g, "(%s)(%s)", T, cl), kstr(g, "(%s)(%s)", T, ir)};
    if (is_int(t.s)) /* an IR literal takes the type it meets: cast it */
        ir = kstr(g, "(%s)%s", T, ir);
    return (ex){cl, ir};
}

static ex new_const(gen *g, ty_t t, unsigned fl)
{
    if (g->k->ndecl >= MAXDECL - 1)
        return (ex){NULL, NULL};
    char *name = kstr(g, "k%d", g->nconst++);
    uint64_t v[16];
    draw_vals(g, t, fl, v);
    ex e = value_text(g, t, v);
    const char *T = tn(g, t);
    /* volatile: PoCL 3.1 crashes on convert_T_sat_rte of a constant
     * float (docs/difftest.md); clvm still sees a constant. */
    add_decl(g, name, kstr(g, "volatile const %s %s = %s;", T, name, e.cl),
             kstr(g, "const %s %s = %s", T, name, e.ir));
    return (ex){name, name};
}

/* A literal operand written where it is used: (uint4)(0, 1, 2, 3) in
 * both languages. */
static ex literal(gen *g, ty_t t, unsigned fl)
{
    if (g->nolit)
        return (ex){NULL, NULL};
    uint64_t v[16];
    draw_vals(g, t, fl, v);
    ex e = value_text(g, t, v);
    return (ex){kstr(g, "(%s)", e.cl), kstr(g, "(%s)", e.ir)};
}

/* A by-value kernel parameter of type t whose components satisfy fl: one
 * the kernel has (usually), or a new one with its own random value. */
static ex param(gen *g, ty_t t, unsigned fl)
{
    dt_kernel *k = g->k;
    int match[DT_MAXPARAM], nm = 0;
    for (int i = 0; i < k->nparam; i++)
        if (ty_eq(k->param[i].type, t) && (k->param[i].flags & fl) == fl)
            match[nm++] = i;
    size_t size = ty_sizeof(t);
    bool room = k->nparam < DT_MAXPARAM && g->pbytes + size <= DT_PARAM_BYTES;
    int i;
    if (nm && (!room || rnd(g, 3)))
        i = match[rnd(g, (unsigned)nm)];
    else if (room) {
        i = k->nparam++;
        dt_param *p = &k->param[i];
        uint64_t v[16];
        draw_vals(g, t, fl, v);
        p->type = t;
        p->flags = fl;
        p->size = size;
        p->bytes = kalloc(k, size);
        unsigned es = ssize(t.s);
        for (unsigned c = 0; c < size / es; c++) {
            /* a 3-vector's fourth lane is padding: random, unused */
            uint64_t x = c < t.n ? v[c] : mix(&g->rng);
            for (unsigned b = 0; b < es; b++)
                p->bytes[c * es + b] = (uint8_t)(x >> 8 * b);
        }
        g->pbytes += size;
    } else
        return (ex){NULL, NULL};
    char *name = kstr(g, "p%d", i);
    return (ex){name, name};
}

/* A special operand: a literal, a parameter or a constant register, the
 * same in every work-item and (vectors) different in every component.
 * NULL when none can be had. */
static ex special(gen *g, ty_t t, unsigned fl)
{
    ex e = {NULL, NULL};
    unsigned r = rnd(g, 5);
    if (r < 2)
        e = literal(g, t, fl);
    else if (r < 4)
        e = param(g, t, fl);
    if (!e.cl)
        e = param(g, t, fl);
    if (!e.cl)
        e = new_const(g, t, fl);
    return e;
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

/* A leaf: a register, a loop counter, a special operand (see special;
 * a third of the leaves, half of an apply statement's operands) or a
 * load. */
static ex leaf(gen *g, ty_t t)
{
    int match[MAXVAR], nm = 0;
    for (int v = 0; v < g->nvar; v++)
        if (ty_eq(g->vt[v], t))
            match[nm++] = v;
    if (t.s == TY_UINT && t.n == 1 && g->nactive && rnd(g, 10) == 0)
        return same(g, kstr(g, "i%d", g->active[rnd(g, (unsigned)g->nactive)]));
    if (g->apply ? rnd(g, 2) == 0 : rnd(g, 3) == 0) {
        ex e = special(g, t, 0);
        if (e.cl)
            return e;
    }
    unsigned r = rnd(g, 10);
    if (nm && r < (g->apply ? 7u : 6u))
        return same(g, kstr(g, "v%d", match[rnd(g, (unsigned)nm)]));
    if (r < 7 && !g->apply) {
        ex c = new_const(g, t, 0);
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

/* OpenCL C promotes scalar char and short operands to int, and so does the
 * IR: the result is cast back in both texts (it fits, or the operation is
 * done in uint and wraps). */
static bool promotes(ty_t t) { return t.n == 1 && ssize(t.s) < 4; }

static ex narrowed(gen *g, ty_t t, ex e)
{
    if (promotes(t))
        e.cl = kstr(g, "((%s)%s)", sn(t.s), e.cl), e.ir = kstr(g, "((%s)%s)", sn(t.s), e.ir);
    return e;
}

static ex in_uint(gen *g, ty_t t, ex e)
{
    if (promotes(t))
        e.cl = kstr(g, "((uint)%s)", e.cl), e.ir = kstr(g, "((uint)%s)", e.ir);
    return e;
}

/* An operand of type t (an expression of depth below d) of an operation
 * that needs its components to satisfy fl: sometimes (in an apply
 * statement half the time) a special operand drawn so, and *ok is set;
 * otherwise an expression the caller masks (*ok is set only for fl 0). */
static ex opnd(gen *g, ty_t t, int d, unsigned fl, bool *ok)
{
    if (fl && rnd(g, g->apply ? 2 : 4) == 0) {
        ex e = special(g, t, fl);
        if (e.cl) {
            *ok = true;
            return e;
        }
    }
    *ok = fl == 0;
    return gen_expr(g, t, d - 1);
}

/* The operands a and b of a binary operation on t (depths da and db,
 * requirements fla and flb as for opnd). When t is a vector and bc
 * allows it (1: a, 2: b, 3: either), one of them may be a scalar special
 * operand of t's element type, which both languages widen to t. */
static void operands(gen *g, ty_t t, int da, int db, unsigned bc, unsigned fla,
                     unsigned flb, ex *a, bool *oka, ex *b, bool *okb)
{
    unsigned side = 0;
    if (t.n > 1 && bc && rnd(g, g->apply ? 3 : 10) == 0)
        side = bc == 3 ? 1 + rnd(g, 2) : bc;
    ex sc = side ? special(g, mkty(t.s, 1), side == 1 ? fla : flb) : (ex){NULL, NULL};
    if (side == 1 && sc.cl)
        *a = sc, *oka = true;
    else
        *a = opnd(g, t, da, fla, oka);
    if (side == 2 && sc.cl)
        *b = sc, *okb = true;
    else
        *b = opnd(g, t, db, flb, okb);
}

static ex int_arith(gen *g, ty_t t, int d)
{
    bool sg = is_signed(t.s), oka, okb;
    static const char *const uops[] = {"+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%",
                                       "neg", "~", "min", "max", "clamp", "abs"};
    static const char *const sops[] = {"&", "|", "^", ">>", "/", "%", "~", "min", "max",
                                       "clamp", "abs"};
    const char *op = sg ? sops[rnd(g, sizeof sops / sizeof *sops)]
                        : uops[rnd(g, sizeof uops / sizeof *uops)];
    ex a, b;
    if (!strcmp(op, "abs")) {
        /* abs gives the unsigned type: for a signed t, as_T of it */
        unsigned src = int_of_size(ssize(t.s), rnd(g, 3) != 0);
        a = opnd(g, mkty(src, t.n), d, is_signed(src) ? LF_NOMIN : 0, &oka);
        if (!oka) /* PoCL 3.1 miscompiles abs(MIN) (docs/difftest.md) */
            a = call(g, "max", 2, (ex[]){a, ilit(g, src, smin_bits(src) + 1)});
        ex r = call(g, "abs", 1, &a);
        if (sg) {
            const char *f = kstr(g, "as_%s", tn(g, t));
            r = call(g, f, 1, &r);
        }
        return r;
    }
    if (!strcmp(op, "neg") || !strcmp(op, "~")) {
        a = gen_expr(g, t, d - 1);
        const char *o = op[0] == 'n' ? "-" : "~";
        ex u = in_uint(g, t, a);
        ex r = {kstr(g, "(%s%s)", o, u.cl), kstr(g, "(%s(%s))", o, u.ir)};
        return narrowed(g, t, r);
    }
    if (!strcmp(op, "min") || !strcmp(op, "max")) { /* min(gentype, sgentype) too */
        operands(g, t, d, d, 2, 0, 0, &a, &oka, &b, &okb);
        return call(g, op, 2, (ex[]){a, b});
    }
    if (!strcmp(op, "clamp")) { /* lo <= hi, or the result is undefined */
        ex x = gen_expr(g, t, d - 1), lo, hi;
        switch (rnd(g, 4)) {
        case 1: { /* special bounds: every LF_LOW value is below every LF_HIGH */
            ty_t bt = t.n > 1 && rnd(g, g->apply ? 3 : 6) == 0 ? mkty(t.s, 1) : t;
            lo = special(g, bt, LF_LOW);
            hi = special(g, bt, LF_HIGH);
            if (lo.cl && hi.cl)
                return call(g, "clamp", 3, (ex[]){x, lo, hi});
            break;
        }
        case 2: /* a special lo; hi = max(leaf, lo) */
            lo = special(g, t, 0);
            if (lo.cl)
                return call(g, "clamp", 3, (ex[]){x, lo, call(g, "max", 2, (ex[]){leaf(g, t), lo})});
            break;
        case 3: /* a special hi; lo = min(leaf, hi) */
            hi = special(g, t, 0);
            if (hi.cl)
                return call(g, "clamp", 3, (ex[]){x, call(g, "min", 2, (ex[]){leaf(g, t), hi}), hi});
            break;
        }
        ex l1 = leaf(g, t), l2 = leaf(g, t);
        return call(g, "clamp", 3,
                    (ex[]){x, call(g, "min", 2, (ex[]){l1, l2}), call(g, "max", 2, (ex[]){l1, l2})});
    }
    if (!strcmp(op, "/") || !strcmp(op, "%")) {
        /* no zero divisor, no MIN / -1: a special operand drawn so is
         * used as it is; any other is masked (the divisor is a leaf) */
        operands(g, t, d, 1, 3, sg ? LF_NOMIN : 0, LF_NONZERO, &a, &oka, &b, &okb);
        if (!okb && sg) {
            ex one = vlit(g, t, 1), zero = vlit(g, t, 0);
            b = (ex){kstr(g, "(%s == %s ? %s : %s)", b.cl, zero.cl, one.cl, b.cl),
                     kstr(g, "(%s == 0 ? 1 : %s)", b.ir, b.ir)};
        } else if (!okb) {
            b = call(g, "max", 2, (ex[]){b, ilit(g, t.s, 1)});
        }
        if (!oka)
            a = call(g, "max", 2, (ex[]){a, ilit(g, t.s, smin_bits(t.s) + 1)});
        return narrowed(g, t, bin(g, a, op, b));
    }
    if (op[0] == '<' || op[0] == '>') {
        /* OpenCL C masks the count by the width (vectors, int, long) and
         * by int's width for a promoted char or short: those are masked
         * to their own width here, the others now and then */
        operands(g, t, d, d, 2, 0, 0, &a, &oka, &b, &okb);
        if (promotes(t) || rnd(g, 4) == 0)
            b = bin(g, b, "&", ilit(g, t.s, 8 * ssize(t.s) - 1));
        if (op[0] == '<')
            a = in_uint(g, t, a);
        return narrowed(g, t, bin(g, a, op, b));
    }
    operands(g, t, d, d, 3, 0, 0, &a, &oka, &b, &okb);
    if (op[0] == '+' || op[0] == '-' || op[0] == '*')
        return narrowed(g, t, bin(g, in_uint(g, t, a), op, in_uint(g, t, b)));
    return narrowed(g, t, bin(g, a, op, b));
}

static ex float_arith(gen *g, ty_t t, int d)
{
    static const char *const ops[] = {"+", "-", "*", "/", "+"};
    ex a, b;
    bool oka, okb;
    unsigned k = rnd(g, 10);
    switch (k) {
    case 4: {
        a = gen_expr(g, t, d - 1);
        b = gen_expr(g, t, d - 1);
        return call(g, "fma", 3, (ex[]){a, b, gen_expr(g, t, d - 1)});
    }
    case 5:
        a = gen_expr(g, t, d - 1);
        return (ex){kstr(g, "(-%s)", a.cl), kstr(g, "(-(%s))", a.ir)};
    case 6:
        a = gen_expr(g, t, d - 1);
        return call(g, "fabs", 1, &a);
    case 7: case 8: { /* the sign of a zero result is not pinned: + 0 makes it +;
                         fmin(gentype, sgentype) too */
        operands(g, t, d, d, 2, 0, 0, &a, &oka, &b, &okb);
        ex m = call(g, rnd(g, 2) ? "fmin" : "fmax", 2, (ex[]){a, b});
        return (ex){kstr(g, "(%s + %s)", m.cl, t.s == TY_FLOAT ? "0.0f" : "0.0"),
                    kstr(g, "(%s + %s)", m.ir, t.s == TY_FLOAT ? "0.0f" : "0.0")};
    }
    default:
        operands(g, t, d, d, 3, 0, 0, &a, &oka, &b, &okb);
        return bin(g, a, ops[k < 4 ? k : 4], b);
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
    bool to_int = is_int(t.s);
    bool sat = to_int && rnd(g, 3) == 0;
    static const char *const modes[] = {"", "", "_rte", "_rtz", "_rtp", "_rtn"};
    const char *mode = modes[rnd(g, 6)];
    /* PoCL 3.1 crashes on convert_T_sat_rte of a floating constant and
     * gets convert_(u)longN_sat_rt[pn] of a constant NaN wrong
     * (docs/difftest.md): no literal in the operand of a _sat
     * conversion from a floating type (parameters and constants are);
     * it folds convert_floatN_rt[zpn] of a constant integer wrongly
     * (fault 8): none there either */
    bool nolit = (sat && !is_int(src)) ||
                 (!to_int && is_int(src) && *mode && strcmp(mode, "_rte"));
    g->nolit += nolit;
    ex x = gen_expr(g, st, d - 1);
    g->nolit -= nolit;
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
    ex a, b, r;
    bool oka, okb;
    unsigned k = rnd(g, is_int(src) ? 9 : 6);
    if (k < 6) { /* vector op scalar too */
        operands(g, st, d, d, 3, 0, 0, &a, &oka, &b, &okb);
        r = bin(g, a, ops[k], b);
    } else if (k == 6) {
        a = gen_expr(g, st, d - 1);
        r = (ex){kstr(g, "(!%s)", a.cl), kstr(g, "(!(%s))", a.ir)};
    } else {
        a = gen_expr(g, st, d - 1);
        r = bin(g, a, k == 7 ? "&&" : "||", gen_expr(g, st, d - 1));
    }
    if (t.n == 1) /* a truth value, 1 or 0, in t */
        r = (ex){kstr(g, "((%s)%s)", sn(t.s), r.cl), kstr(g, "(%s)%s", sn(t.s), r.ir)};
    return r;
}

static ex choose(gen *g, ty_t t, int d)
{
    ty_t ct = t.n == 1 ? rand_int_scalar(g) : mkty(int_of_size(ssize(t.s), rnd(g, 2)), t.n);
    ex c = gen_expr(g, ct, d - 1), a = gen_expr(g, t, d - 1), b = gen_expr(g, t, d - 1);
    if (rnd(g, 2))
        return narrowed(g, t, (ex){kstr(g, "((%s) ? (%s) : (%s))", c.cl, a.cl, b.cl),
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

/* ---- built-in functions (docs/difftest.md: which, and why) ---- */

/* An operand of type t: an expression, or for floating types a leaf (its
 * NaNs have defined bits). */
static ex bopnd(gen *g, ty_t t, int d)
{
    return is_int(t.s) ? gen_expr(g, t, d - 1) : leaf(g, t);
}

/* A mask of m unsigned components of size sz: a literal vector (any
 * bits: the functions read the low ones), a parameter or an expression. */
static ex shuffle_mask(gen *g, unsigned sz, unsigned m, int d)
{
    ty_t mt = mkty(int_of_size(sz, false), m);
    if (rnd(g, 2)) {
        ex e = special(g, mt, 0);
        if (e.cl)
            return e;
    }
    return gen_expr(g, mt, d - 1);
}

/* Small whole numbers 0..15 as t (float or double): every sum of their
 * products is exact, so dot and cross agree bit for bit with any
 * correct implementation. */
static ex small_whole(gen *g, ty_t t, int d)
{
    ty_t it = mkty(TY_INT, t.n);
    ex x = gen_expr(g, it, d - 1);
    ex m = bin(g, x, "&", vlit(g, it, 15));
    return call(g, kstr(g, "convert_%s", tn(g, t)), 1, &m);
}

/* An integer built-in of result type t, or {NULL} where none fits. */
static ex int_builtin(gen *g, ty_t t, int d)
{
    static const char *const two[] = {"hadd", "rhadd", "add_sat", "sub_sat",
                                      "mul_hi", "rotate"};
    bool sg = is_signed(t.s);
    bool relok = (t.n == 1 && t.s == TY_INT) ||
               (t.n > 1 && (t.s == TY_INT || t.s == TY_LONG));
    unsigned k = relok && rnd(g, 3) == 0 ? 8 : rnd(g, 9);
    ex a = bopnd(g, t, d), b, c;
    switch (k) {
    case 0: case 1: case 2:
        b = bopnd(g, t, d);
        return narrowed(g, t, call(g, two[rnd(g, 6)], 2, (ex[]){a, b}));
    case 3:
        b = bopnd(g, t, d), c = bopnd(g, t, d);
        return call(g, rnd(g, 2) ? "mad_hi" : "mad_sat", 3, (ex[]){a, b, c});
    case 4: { /* abs_diff gives the unsigned type */
        ty_t st = mkty(int_of_size(ssize(t.s), rnd(g, 2)), t.n);
        ex x = bopnd(g, st, d), y = bopnd(g, st, d);
        ex r = call(g, "abs_diff", 2, (ex[]){x, y});
        return sg ? call(g, kstr(g, "as_%s", tn(g, t)), 1, &r) : r;
    }
    case 5:
        return narrowed(g, t, call(g, rnd(g, 2) ? "clz" : "popcount", 1, &a));
    case 6: { /* mul24, mad24: operands of 24 bits (wider ones are
                 implementation-defined) */
        if (ssize(t.s) != 4)
            break;
        const char *sh = sg ? ">>" : "&";
        uint64_t v = sg ? 8 : 0xffffff;
        ex x = bin(g, a, sh, vlit(g, t, v));
        ex y = bin(g, bopnd(g, t, d), sh, vlit(g, t, v));
        if (rnd(g, 2))
            return call(g, "mul24", 2, (ex[]){x, y});
        return call(g, "mad24", 3, (ex[]){x, y, bopnd(g, t, d)});
    }
    case 7: { /* upsample: t twice as wide as its operands */
        if (ssize(t.s) == 1)
            break;
        ty_t ht = mkty(int_of_size(ssize(t.s) / 2, sg), t.n);
        ty_t lt = mkty(int_of_size(ssize(t.s) / 2, false), t.n);
        return call(g, "upsample", 2, (ex[]){bopnd(g, ht, d), bopnd(g, lt, d)});
    }
    default: { /* relational functions and any/all give int (vectors: the
                  signed integer of the operands' size) */
        static const char *const rel[] = {
            "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless",
            "islessequal", "islessgreater", "isordered", "isunordered"};
        static const char *const one[] = {"isnormal", "isfinite", "isnan",
                                          "isinf", "signbit"};
        unsigned fs;
        if (t.n == 1 && t.s == TY_INT)
            fs = rnd(g, 2) ? TY_FLOAT : TY_DOUBLE;
        else if (t.n > 1 && (t.s == TY_INT || t.s == TY_LONG))
            fs = t.s == TY_INT ? TY_FLOAT : TY_DOUBLE;
        else
            break;
        ty_t ft = mkty(fs, t.n);
        if (t.n == 1 && rnd(g, 4) == 0) {
            ty_t it = mkty(int_of_size(1u << rnd(g, 4), true), pick_width(g));
            ex v = gen_expr(g, it, d - 1);
            return call(g, rnd(g, 2) ? "any" : "all", 1, &v);
        }
        ex x = leaf(g, ft);
        if (rnd(g, 3) == 0)
            return call(g, one[rnd(g, 5)], 1, &x);
        return call(g, rel[rnd(g, 9)], 2, (ex[]){x, leaf(g, ft)});
    }
    }
    return (ex){NULL, NULL};
}

/* A built-in call of result type t: the integer and relational ones, the
 * exact floating ones, dot and cross of small whole numbers, shuffle and
 * shuffle2, bitselect; {NULL} where none fits. */
static ex builtin(gen *g, ty_t t, int d)
{
    static const uint8_t ws[] = {2, 4, 8, 16};
    unsigned k = rnd(g, 4);
    if (k == 0 && (t.n == 2 || t.n == 4 || t.n == 8 || t.n == 16)) {
        unsigned n = ws[rnd(g, 4)];
        ex x = bopnd(g, mkty(t.s, n), d);
        ex m = shuffle_mask(g, ssize(t.s), t.n, d);
        if (rnd(g, 2))
            return call(g, "shuffle", 2, (ex[]){x, m});
        return call(g, "shuffle2", 3, (ex[]){x, bopnd(g, mkty(t.s, n), d), m});
    }
    if (k == 1)
        return call(g, "bitselect", 3, (ex[]){bopnd(g, t, d), bopnd(g, t, d),
                                              bopnd(g, t, d)});
    if (is_int(t.s))
        return int_builtin(g, t, d);
    if (t.n == 1 && rnd(g, 3) == 0) {
        ty_t v = mkty(t.s, 1 + rnd(g, 4));
        return call(g, "dot", 2, (ex[]){small_whole(g, v, d), small_whole(g, v, d)});
    }
    if ((t.n == 3 || t.n == 4) && rnd(g, 2))
        return call(g, "cross", 2, (ex[]){small_whole(g, t, d), small_whole(g, t, d)});
    if (rnd(g, 2)) { /* ldexp by a small exponent, a vector or one int */
        ty_t it = mkty(TY_INT, rnd(g, 2) ? t.n : 1);
        ex e = gen_expr(g, it, d - 1);
        ex k8 = bin(g, bin(g, e, "&", vlit(g, it, 15)), "-", vlit(g, it, 8));
        return call(g, "ldexp", 2, (ex[]){leaf(g, t), k8});
    }
    return call(g, "copysign", 2, (ex[]){leaf(g, t), leaf(g, t)});
}

static ex gen_expr(gen *g, ty_t t, int d)
{
    if (d <= 0)
        return leaf(g, t);
    for (;;) {
        switch (rnd(g, 13)) {
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
        case 12: {
            ex e = builtin(g, t, d);
            if (e.cl)
                return e;
            break;
        }
        default: return choose(g, t, d);
        }
    }
}

/* ---- what gensync.c builds on (genint.h) ---- */

unsigned dt_rnd(gen *g, unsigned n) { return rnd(g, n); }
ex dt_expr(gen *g, ty_t t, int depth) { return gen_expr(g, t, depth); }
ex dt_ilit(gen *g, unsigned s) { return ilit(g, s, rand_bits(&g->rng, s)); }
int dt_buf_of(unsigned s) { return buf_of(s); }
void dt_decl(gen *g, char *name, char *cl, char *ir) { add_decl(g, name, cl, ir); }

char *dt_str(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vkstr(g, fmt, ap);
    va_end(ap);
    return s;
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

/* The next free place for a t (stride elements, stride a multiple of t.n)
 * in output buffer b, reserved; -1 when the buffer is full. */
static int reserve(gen *g, int b, unsigned stride)
{
    unsigned at = ((unsigned)g->nout[b] + stride - 1) / stride * stride;
    if (at + stride > DT_NOUT)
        return -1;
    g->nout[b] = (int)(at + stride);
    return (int)at;
}

/* The statement that stores e, of type t, at element at of buffer b. */
static dt_stmt *store_at(gen *g, ty_t t, int b, unsigned at, ex e)
{
    const char *p = dt_buf_suffix[b];
    char *cl, *ir;
    if (t.n == 1) {
        cl = kstr(g, "o_%s[gid * %d + %u] = %s;", p, DT_NOUT, at, e.cl);
        ir = kstr(g, "o_%s[gid * %d + %u] = %s", p, DT_NOUT, at, e.ir);
    } else {
        cl = kstr(g, "vstore%u(%s, gid * %u + %u, o_%s);", t.n, e.cl, DT_NOUT / t.n, at / t.n, p);
        ir = kstr(g, "vstore%u(%s, gid * %u + %u, o_%s)", t.n, e.ir, DT_NOUT / t.n, at / t.n, p);
    }
    return stmt(g, DT_LINE, cl, ir);
}

int dt_reserve(gen *g, int b, unsigned stride) { return reserve(g, b, stride); }
dt_stmt *dt_store_at(gen *g, ty_t t, int b, unsigned at, ex e) { return store_at(g, t, b, at, e); }
dt_stmt *dt_line(gen *g, char *cl, char *ir) { return stmt(g, DT_LINE, cl, ir); }

static dt_stmt *store(gen *g)
{
    bool half = rnd(g, 4) == 0;
    ty_t t = rand_type(g);
    if (half) {
        unsigned s = rnd(g, 3) ? TY_FLOAT : TY_DOUBLE;
        t = mkty(s, pick_width(g));
    }
    bool aligned = half && t.n > 1 && rnd(g, 2);
    unsigned stride = aligned && t.n == 3 ? 4 : t.n;
    int b = buf_of(half ? TY_HALF : t.s);
    int at = reserve(g, b, stride);
    if (at < 0)
        return NULL;
    ex e = gen_expr(g, t, expr_depth(g));
    if (!half)
        return store_at(g, t, b, (unsigned)at, e);
    static const char *const modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
    const char *m = modes[rnd(g, 5)];
    char n[4] = "";
    if (t.n > 1)
        snprintf(n, sizeof n, "%u", t.n);
    const char *f = kstr(g, "vstore%s_half%s%s", aligned ? "a" : "", n, m);
    char *cl = kstr(g, "%s(%s, gid * %u + %u, o_h);", f, e.cl, DT_NOUT / stride, (unsigned)at / stride);
    char *ir = kstr(g, "%s(%s, gid * %u + %u, o_h)", f, e.ir, DT_NOUT / stride, (unsigned)at / stride);
    return stmt(g, DT_LINE, cl, ir);
}

/* An apply statement: one operation (a binary operator, a built-in, a
 * comparison, ?:, select, a conversion, as_T, a swizzle) whose operands
 * are leaves, each of them half the time a special operand (a literal
 * vector, a parameter, a constant) and otherwise a register or a load,
 * so every operand position meets special operands next to ordinary
 * ones. The result is stored (two times in three) or assigned to a
 * register of its type. */
static dt_stmt *apply(gen *g)
{
    unsigned kind = rnd(g, 12);
    ty_t t;
    int v = -1;
    if (rnd(g, 3)) { /* a register's type: its register is an operand */
        v = (int)rnd(g, (unsigned)g->nvar);
        t = g->vt[v];
    } else {
        t = rand_type(g);
    }
    if (kind == 7 && !(is_int(t.s) && (t.n == 1 || is_signed(t.s)))) {
        t = mkty(int_of_size(ssize(t.s), true), t.n);
        v = -1;
    }
    if (kind == 11 && t.n == 1)
        kind = 0;
    int at = -1, b = buf_of(t.s);
    if (v < 0 || rnd(g, 3)) {
        at = reserve(g, b, t.n);
        if (at < 0 && v < 0)
            return NULL;
    }
    g->apply = true;
    ex e;
    switch (kind) {
    case 7: e = compare(g, t, 1); break;
    case 8: e = choose(g, t, 1); break;
    case 9: e = convert(g, t, 1); break;
    case 10: e = as_type(g, t, 1); break;
    case 11: e = swizzle(g, t, 1); break;
    default: e = is_int(t.s) ? int_arith(g, t, 1) : float_arith(g, t, 1); break;
    }
    g->apply = false;
    if (at >= 0)
        return store_at(g, t, b, (unsigned)at, e);
    char *cl = kstr(g, "v%d = %s;", v, e.cl), *ir = kstr(g, "v%d = %s", v, e.ir);
    canon(g, v, &cl, &ir);
    return stmt(g, DT_LINE, cl, ir);
}

/* A float literal of type s in both texts (v exact in s). */
static ex fconst(gen *g, unsigned s, double v)
{
    const char *f = s == TY_FLOAT ? "%af" : "%a";
    return (ex){kstr(g, f, v), kstr(g, f, v)};
}

/* fmin(fmax(x, lo), hi): x within [lo, hi], NaN becomes lo. */
static ex within(gen *g, unsigned s, ex x, double lo, double hi)
{
    ex m = call(g, "fmax", 2, (ex[]){x, fconst(g, s, lo)});
    return call(g, "fmin", 2, (ex[]){m, fconst(g, s, hi)});
}

/* The statement that stores e at a fresh place of buffer b, marking it as
 * function f's result (accuracy.h); NULL when the buffer is full. */
static dt_stmt *math_store(gen *g, ty_t t, int b, int f, bool dbl, bool second, ex e,
                           unsigned n)
{
    int at = reserve(g, b, t.n);
    if (at < 0)
        return NULL;
    for (unsigned c = 0; c < t.n; c++)
        g->k->math[b][at + (int)c] = (dt_math){(int16_t)(f + 1), (uint8_t)n, second, dbl};
    return store_at(g, t, b, (unsigned)at, e);
}

/* The value a pointer output of f (in private array m, of type o) is
 * compared by: what the spec defines of it. frexp's exponent of an
 * infinity or NaN is unspecified (C99), so it is kept only where x is
 * finite; remquo's quotient is defined in its sign and 3 low bits. */
static ex out_value(gen *g, int f, ty_t o, const char *m, ex x, unsigned s)
{
    ex v = same(g, kstr(g, "%s[0]", m));
    if (f == MF_FREXP) { /* isfinite of a double vector is a long vector */
        ex fin = call(g, "isfinite", 1, &x);
        if (o.n > 1 && s == TY_DOUBLE)
            fin = call(g, kstr(g, "convert_int%u", o.n), 1, &fin);
        return call(g, "select", 3, (ex[]){vlit(g, o, 0), v, fin});
    }
    if (f == MF_REMQUO)
        return bin(g, bin(g, v, "&", vlit(g, o, 7)), "|",
                   bin(g, bin(g, v, ">>", vlit(g, o, 28)), "&", vlit(g, o, 8)));
    return v;
}

/* A math built-in of float or double (stdlib/mathfn.h) on leaves, its
 * result (and its pointer output) stored: compared within what OpenCL
 * allows (tests/diff/accuracy.c), not bit for bit. Operands are kept
 * where the spec defines the function (half_ trigonometry within 2^16,
 * mix's a within [0, 1], smoothstep's edges ordered). */
static dt_stmt *math_call(gen *g)
{
    int f;
    bool dbl;
    do {
        f = (int)rnd(g, MF_COUNT);
        dbl = rnd(g, 3) == 0;
    } while (!dt_acc_float_fn((enum mathfn)f) || !dt_acc_compared((enum mathfn)f, dbl));
    const mathfn_info *mi = &mathfns[f];
    unsigned s = dbl ? TY_DOUBLE : TY_FLOAT, sh = mi->shape;
    unsigned n = sh == MFS_RED || sh == MFS_VEC ? 1 + rnd(g, 4) : pick_width(g);
    ty_t t = mkty(s, n);
    mf_sig sig;
    const char *why;
    if (!mathfn_sig((enum mathfn)f, t, 0, &sig, &why))
        return NULL;
    ex a[3];
    for (int i = 0; i < mi->nargs; i++)
        a[i] = leaf(g, sig.arg[i]);
    if (sh == MFS_ARGN) { /* pown, rootn: a small exponent, -8..7 */
        ex e = gen_expr(g, sig.arg[1], 1);
        a[1] = bin(g, bin(g, e, "&", vlit(g, sig.arg[1], 15)), "-", vlit(g, sig.arg[1], 8));
    }
    if (!strncmp(mi->name, "half_", 5) && (f == MF_HALF_SIN || f == MF_HALF_COS ||
                                           f == MF_HALF_TAN))
        a[0] = within(g, s, a[0], -0x1p16, 0x1p16);
    if (f == MF_MIX) { /* the absolute bound means operands of moderate size */
        a[0] = within(g, s, a[0], -64, 64);
        a[1] = within(g, s, a[1], -64, 64);
        a[2] = within(g, s, a[2], 0, 1);
    }
    if (f == MF_SMOOTHSTEP) {
        a[0] = fconst(g, s, -1.5);
        a[1] = fconst(g, s, 2.5);
        a[2] = within(g, s, a[2], -4, 4);
    }
    for (int i = 0; sh == MFS_RED || sh == MFS_VEC ? i < mi->nargs : 0; i++) {
        if (!strncmp(mi->name, "fast_", 5)) { /* the sum of squares in range */
            ex m = within(g, s, call(g, "fabs", 1, &a[i]), 0x1p-40, 0x1p40);
            a[i] = call(g, "copysign", 2, (ex[]){m, a[i]});
        } else { /* no NaN: with an infinity, the spec says neither NaN nor inf */
            a[i] = call(g, "fmax", 2, (ex[]){a[i], flit_bits(g, s, dbl ? 0xfff0000000000000u
                                                                     : 0xff800000u)});
        }
    }
    if (f == MF_ILOGB) /* ilogb of 0 and NaN is implementation-defined */
        a[0] = call(g, "fmax", 2, (ex[]){call(g, "fabs", 1, a), fconst(g, s, dbl ? 0x1p-1022 : 0x1p-126)});
    ex x = a[0];
    char *m = NULL;
    if (sh == MFS_PTR || sh == MFS_PTRI) {
        m = kstr(g, "m%d", g->nmath++);
        const char *T = tn(g, sig.out);
        add_decl(g, m, kstr(g, "%s %s[1];", T, m), kstr(g, "%s %s[1]", T, m));
        a[mi->nargs] = same(g, m);
    }
    ex e = call(g, mi->name, mi->nargs + (m != NULL), a);
    dt_stmt *st = math_store(g, sig.res, buf_of(sig.res.s), f, dbl, false, e, n);
    if (!st || !m)
        return st;
    dt_stmt *o = math_store(g, sig.out, buf_of(sig.out.s), f, dbl, true,
                            out_value(g, f, sig.out, m, x, s), n);
    if (o) {
        st->cl = kstr(g, "%s\n%s", st->cl, o->cl);
        st->ir = kstr(g, "%s\n%s", st->ir, o->ir);
    }
    return st;
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
    return gen_expr(g, rand_int_scalar(g), 2);
}

static int gen_block(gen *g, dt_stmt **out, int max, int depth, bool in_loop);

static dt_stmt *gen_stmt(gen *g, int depth, bool in_loop)
{
    for (;;) {
        unsigned r = rnd(g, 24);
        if (r >= 20) { /* atomics anywhere; async copies in uniform flow */
            dt_stmt *s = r < 22 ? dt_sync_atomic(g)
                         : r == 22 ? (depth == 0 && !in_loop ? dt_sync_async(g) : NULL)
                                   : dt_sync_printf(g);
            if (s)
                return s;
            continue;
        }
        if (r < 7)
            return assign(g);
        if (r < 10) {
            dt_stmt *s = store(g);
            if (s)
                return s;
        } else if (r < 13) {
            dt_stmt *s = apply(g);
            if (s)
                return s;
        } else if (r < 14) {
            dt_stmt *s = math_call(g);
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
    dt_stmt *pro = dt_sync_prologue(g);
    if (pro) {
        memmove(k->top + 1, k->top, (size_t)k->ntop * sizeof *k->top);
        k->top[0] = pro;
        k->ntop++;
    }
    dt_stmt *epi = dt_sync_epilogue(g);
    if (epi)
        k->top[k->ntop++] = epi;
    /* every register goes out at the end */
    for (int v = 0; v < g->nvar && k->ntop < 64; v++) {
        ty_t t = g->vt[v];
        int b = buf_of(t.s), at = reserve(g, b, t.n);
        if (at < 0)
            continue;
        char *name = kstr(g, "v%d", v);
        k->top[k->ntop++] = store_at(g, t, b, (unsigned)at, (ex){name, name});
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

/* The kernel's statements; DT_NAME_MARK (in printf's formats) becomes
 * the kernel's name. */
static char *body_of(const dt_kernel *k, bool cl)
{
    sbuf body = {0}, named = {0};
    put(&body, "");
    render_list(&body, k->top, k->ntop, 1, cl);
    if (!strchr(body.s, DT_NAME_MARK))
        return body.s;
    put(&named, "");
    for (const char *p = body.s, *m; *p; p = m + 1) {
        m = strchr(p, DT_NAME_MARK);
        put(&named, "%.*s%s", (int)(m ? m - p : (ptrdiff_t)strlen(p)), p, m ? k->name : "");
        if (!m)
            break;
    }
    free(body.s);
    return named.s;
}

static uint32_t params_in(const dt_kernel *k, const char *body)
{
    uint32_t used = 0;
    for (int i = 0; i < k->nparam; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        if (uses(body, name))
            used |= 1u << i;
    }
    return used;
}

uint32_t dt_params_used(const dt_kernel *k)
{
    char *body = body_of(k, true);
    uint32_t used = params_in(k, body);
    free(body);
    return used;
}

static char *render(const dt_kernel *k, bool cl)
{
    sbuf out = {0};
    char *body = body_of(k, cl);
    uint32_t used = params_in(k, body);
    put(&out, cl ? "kernel void %s(" : "kernel %s(", k->name);
    for (int io = 0; io < 2; io++)
        for (int b = 0; b < DT_NBUF; b++)
            put(&out, "%sglobal %s%s *%c_%s", io || b ? ",\n    " : "", io ? "" : "const ",
                sn(dt_buf_scalar[b]), io ? 'o' : 'i', dt_buf_suffix[b]);
    for (int i = 0; i < k->nparam; i++)
        if (used >> i & 1) {
            char tb[TY_NAME_MAX];
            put(&out, ",\n    %s p%d", ty_name(k->param[i].type, tb), i);
        }
    put(&out, cl ? ")\n{\n    ulong gid = get_global_id(0);\n" : ")\n    ulong gid = get_global_id(0)\n");
    for (int d = 0; d < k->ndecl; d++)
        if (uses(body, k->decl_name[d]))
            put(&out, "    %s\n", cl ? k->decl_cl[d] : k->decl_ir[d]);
    put(&out, "%s%s", body, cl ? "}\n" : "end\n");
    free(body);
    return out.s;
}

char *dt_render_cl(const dt_kernel *k) { return render(k, true); }
char *dt_render_ir(const dt_kernel *k) { return render(k, false); }
