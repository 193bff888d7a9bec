/* The math built-ins of stdlib/mathfn.h's table, one element at a time. */
#include "stdlib/mathfn.h"

#include <string.h>

#include "stdlib/libm.h"

/* ---- the float functions: clvm's own library (stdlib/libm.h), never the
 * host's libm. F32 is true in a float loop: the float function on the
 * operands (exact as floats), its result exact in double. ---- */
#define CL1(n, a) (F32 ? (double)clvm_##n##f((float)(a)) : clvm_##n(a))
#define CL2(n, a, b)                                                        \
    (F32 ? (double)clvm_##n##f((float)(a), (float)(b)) : clvm_##n(a, b))
#define cl_sqrt(a) CL1(sqrt, a)
#define cl_rsqrt(a) CL1(rsqrt, a)
#define cl_floor(a) CL1(floor, a)
#define cl_ceil(a) CL1(ceil, a)
#define cl_trunc(a) CL1(trunc, a)
#define cl_round(a) CL1(round, a)
#define cl_rint(a) CL1(rint, a)
#define cl_exp(a) CL1(exp, a)
#define cl_exp2(a) CL1(exp2, a)
#define cl_log(a) CL1(log, a)
#define cl_log2(a) CL1(log2, a)
#define cl_sin(a) CL1(sin, a)
#define cl_cos(a) CL1(cos, a)
#define cl_tan(a) CL1(tan, a)
#define cl_exp10(a) CL1(exp10, a)
#define cl_expm1(a) CL1(expm1, a)
#define cl_log10(a) CL1(log10, a)
#define cl_log1p(a) CL1(log1p, a)
#define cl_cbrt(a) CL1(cbrt, a)
#define cl_asin(a) CL1(asin, a)
#define cl_acos(a) CL1(acos, a)
#define cl_atan(a) CL1(atan, a)
#define cl_sinh(a) CL1(sinh, a)
#define cl_cosh(a) CL1(cosh, a)
#define cl_tanh(a) CL1(tanh, a)
#define cl_asinh(a) CL1(asinh, a)
#define cl_acosh(a) CL1(acosh, a)
#define cl_atanh(a) CL1(atanh, a)
#define cl_sinpi(a) CL1(sinpi, a)
#define cl_cospi(a) CL1(cospi, a)
#define cl_tanpi(a) CL1(tanpi, a)
#define cl_asinpi(a) CL1(asinpi, a)
#define cl_acospi(a) CL1(acospi, a)
#define cl_atanpi(a) CL1(atanpi, a)
#define cl_logb(a) CL1(logb, a)
#define cl_erf(a) CL1(erf, a)
#define cl_erfc(a) CL1(erfc, a)
#define cl_tgamma(a) CL1(tgamma, a)
#define cl_lgamma(a) CL1(lgamma, a)
#define cl_pow(a, b) CL2(pow, a, b)
#define cl_atan2(a, b) CL2(atan2, a, b)
#define cl_atan2pi(a, b) CL2(atan2pi, a, b)
#define cl_hypot(a, b) CL2(hypot, a, b)
#define cl_powr(a, b) CL2(powr, a, b)
#define cl_fmod(a, b) CL2(fmod, a, b)
#define cl_remainder(a, b) CL2(remainder, a, b)
#define cl_fdim(a, b) CL2(fdim, a, b)
#define cl_maxmag(a, b) CL2(maxmag, a, b)
#define cl_minmag(a, b) CL2(minmag, a, b)
#define cl_nextafter(a, b) CL2(nextafter, a, b)
#define cl_copysign(a, b) CL2(copysign, a, b)

static bool mf_isinf(double x) { return x - x != x - x && x == x; }
static bool mf_isfinite(double x) { return x - x == x - x; }
static bool mf_signbit(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b >> 63;
}

/* ---- helpers the table's expressions call ---- */

static double mf_smoothstep(double e0, double e1, double x)
{
    double t = (x - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

static uint64_t mask_of(unsigned w)
{
    return w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

/* The w-bit value x as a signed number. */
static int64_t sx(uint64_t x, unsigned w)
{
    uint64_t m = UINT64_C(1) << (w - 1);
    x &= mask_of(w);
    return x & m ? -(int64_t)(~x & mask_of(w)) - 1 : (int64_t)x;
}

static uint64_t mf_clz(uint64_t x, unsigned w)
{
    unsigned n = w;
    for (x &= mask_of(w); x; x >>= 1)
        n--;
    return n;
}

static uint64_t mf_popcount(uint64_t x, unsigned w)
{
    unsigned n = 0;
    for (x &= mask_of(w); x; x &= x - 1)
        n++;
    return n;
}

static uint64_t mf_add_sat(uint64_t x, uint64_t y, unsigned w, bool s)
{
    if (!s) {
        uint64_t r = x + y;
        return w == 64 ? (r < x ? UINT64_MAX : r) : r > mask_of(w) ? mask_of(w) : r;
    }
    int64_t a = sx(x, w), b = sx(y, w);
    int64_t hi = (int64_t)(mask_of(w) >> 1), lo = -hi - 1;
    if (b > 0 && a > hi - b)
        return (uint64_t)hi;
    if (b < 0 && a < lo - b)
        return (uint64_t)lo;
    return (uint64_t)(a + b);
}

static uint64_t mf_sub_sat(uint64_t x, uint64_t y, unsigned w, bool s)
{
    if (!s)
        return x < y ? 0 : x - y;
    int64_t a = sx(x, w), b = sx(y, w);
    int64_t hi = (int64_t)(mask_of(w) >> 1), lo = -hi - 1;
    if (b < 0 && a > hi + b)
        return (uint64_t)hi;
    if (b > 0 && a < lo + b)
        return (uint64_t)lo;
    return (uint64_t)(a - b);
}

/* The high 64 bits of the 128-bit product, from 32-bit halves. */
static uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32;
    uint64_t bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static uint64_t mf_mul_hi(uint64_t x, uint64_t y, unsigned w, bool s)
{
    if (w == 64) {
        /* Signed from unsigned: subtract the other operand once for each
         * negative one (modulo 2^64). */
        uint64_t h = mulhi_u64(x, y);
        return s ? h - (x >> 63 ? y : 0) - (y >> 63 ? x : 0) : h;
    }
    /* Both products fit 64 bits; its bits w..2w-1 are the high half. */
    if (s)
        return (uint64_t)(sx(x, w) * sx(y, w)) >> w;
    return (x & mask_of(w)) * (y & mask_of(w)) >> w;
}

/* Left by y modulo w; bits leaving the top come back at the bottom. */
static uint64_t mf_rotate(uint64_t x, uint64_t y, unsigned w)
{
    unsigned r = (unsigned)(y & (w - 1));
    x &= mask_of(w);
    return r ? (x << r | x >> (w - r)) & mask_of(w) : x;
}

/* ---- loads and stores of elements in native byte order ---- */

#define LD(T, p, i) ld_##T(p, i)
#define DEF_LD(T)                                                           \
    static inline T ld_##T(const void *p, size_t i)                         \
    {                                                                       \
        T v;                                                                \
        memcpy(&v, (const unsigned char *)p + i * sizeof v, sizeof v);      \
        return v;                                                           \
    }                                                                       \
    static inline void st_##T(void *p, size_t i, T v)                       \
    {                                                                       \
        memcpy((unsigned char *)p + i * sizeof v, &v, sizeof v);            \
    }
DEF_LD(float)
DEF_LD(double)
DEF_LD(uint8_t)
DEF_LD(uint16_t)
DEF_LD(uint32_t)
DEF_LD(uint64_t)

typedef struct {
    void *d;
    const void *a, *b, *c;
    size_t n;
    uint64_t tv;   /* a MASK result's true value */
} mf_io;

/* Operands beyond the arity read as 0 (their pointers may be NULL). */
#define OPS(T, K, i)                                                        \
    x = (K)LD(T, io->a, i);                                                 \
    y = nargs > 1 ? (K)LD(T, io->b, i) : 0;                                 \
    z = nargs > 2 ? (K)LD(T, io->c, i) : 0;                                 \
    (void)y, (void)z;

/* Element type T with unsigned storage U of its size. */
#define RES_SAME(T, U, v) st_##T(io->d, i, (T)(v))
#define RES_MASK(T, U, v) st_##U(io->d, i, (v) ? (U)io->tv : 0)
#define LOOP_FLT(T, U, res, impl)                                           \
    for (size_t i = 0; i < io->n; i++) {                                    \
        const bool F32 = sizeof(T) == 4;                                    \
        double x, y, z;                                                     \
        (void)F32;                                                          \
        OPS(T, double, i)                                                   \
        RES_##res(T, U, impl);                                              \
    }
#define LOOP_INT(U, SGN, impl)                                              \
    for (size_t i = 0; i < io->n; i++) {                                    \
        const unsigned w = 8 * sizeof(U);                                   \
        const bool s = SGN;                                                 \
        uint64_t x, y, z;                                                   \
        OPS(U, uint64_t, i)                                                 \
        (void)w, (void)s;                                                   \
        st_##U(io->d, i, (U)(impl));                                        \
    }

#define BODY_FLT(res, impl)                                                 \
    if (t == TY_FLOAT) {                                                    \
        LOOP_FLT(float, uint32_t, res, impl)                                \
    } else if (t == TY_DOUBLE) {                                            \
        LOOP_FLT(double, uint64_t, res, impl)                               \
    }
#define BODY_INT(res, impl)                                                 \
    switch (t) {                                                            \
    case TY_CHAR: LOOP_INT(uint8_t, true, impl) break;                      \
    case TY_UCHAR: LOOP_INT(uint8_t, false, impl) break;                    \
    case TY_SHORT: LOOP_INT(uint16_t, true, impl) break;                    \
    case TY_USHORT: LOOP_INT(uint16_t, false, impl) break;                  \
    case TY_INT: LOOP_INT(uint32_t, true, impl) break;                      \
    case TY_UINT: LOOP_INT(uint32_t, false, impl) break;                    \
    case TY_LONG: LOOP_INT(uint64_t, true, impl) break;                     \
    case TY_ULONG: LOOP_INT(uint64_t, false, impl) break;                   \
    default: break;                                                         \
    }
/* Bits only: one loop per element size serves every type of that size. */
#define BODY_ANY(res, impl)                                                 \
    switch (ty_scalar_size(t)) {                                            \
    case 1: LOOP_INT(uint8_t, false, impl) break;                           \
    case 2: LOOP_INT(uint16_t, false, impl) break;                          \
    case 4: LOOP_INT(uint32_t, false, impl) break;                          \
    default: LOOP_INT(uint64_t, false, impl) break;                         \
    }

#define MF_RUN(P, E, name, args, dom, res, unit, bf, bd, impl)              \
    static void run_##E(enum ty_scalar t, const mf_io *io)                  \
    {                                                                       \
        const unsigned nargs = args;                                        \
        BODY_##dom(res, impl)                                               \
    }
MATHFNS(MF_RUN, _)
#undef MF_RUN

const mathfn_info mathfns[MF_COUNT] = {
#define MF_INFO(P, E, name, args, dom, res, unit, bf, bd, impl)             \
    [MF_##E] = {#name, args, MF_##dom, MF_##res, MF_##unit, {bf, bd}, #impl},
    MATHFNS(MF_INFO, _)
#undef MF_INFO
};

int mathfn_find(const char *name, size_t len)
{
    for (int f = 0; f < MF_COUNT; f++)
        if (strlen(mathfns[f].name) == len && !memcmp(mathfns[f].name, name, len))
            return f;
    return -1;
}

bool mathfn_takes(enum mathfn f, enum ty_scalar t)
{
    if ((unsigned)f >= MF_COUNT || t >= TY_NSCALAR || t == TY_HALF)
        return false;
    switch (mathfns[f].dom) {
    case MF_FLT: return ty_is_float(t);
    case MF_INT: return !ty_is_float(t);
    default: return true;
    }
}

void mathfn_run(enum mathfn f, enum ty_scalar t, void *d, const void *a,
                const void *b, const void *c, size_t n, bool vec)
{
    const mf_io io = {d, a, b, c, n, vec ? UINT64_MAX : 1};
    if (!mathfn_takes(f, t))
        return;
    switch (f) {
#define MF_CASE(P, E, ...) case MF_##E: run_##E(t, &io); break;
        MATHFNS(MF_CASE, _)
#undef MF_CASE
    default: break;
    }
}

/* One bound as text: "<= 3 ulp", "correctly rounded", "exact", ... */
static void bound_text(const mathfn_info *m, int k, char buf[32])
{
    double b = m->bound[k];
    if (m->unit == MF_EXACT || (m->unit == MF_ULP && b == 0))
        snprintf(buf, 32, "exact");
    else if (m->unit == MF_ABS)
        snprintf(buf, 32, "abs. error <= %g", b);
    else if (b == 0.5)
        snprintf(buf, 32, "correctly rounded");
    else if (b > 1e300)
        snprintf(buf, 32, "undefined (see below)");
    else
        snprintf(buf, 32, "<= %g ulp", b);
}

void mathfn_write_md(FILE *out)
{
    static const char *const dom[] = {"float, double", "integers",
                                      "integers, float, double"};
    fputs("| function | operands | accuracy | computed as |\n"
          "|---|---|---|---|\n", out);
    for (int f = 0; f < MF_COUNT; f++) {
        const mathfn_info *m = &mathfns[f];
        char acc[2][32];
        bound_text(m, 0, acc[0]);
        bound_text(m, 1, acc[1]);
        fprintf(out, "| `%s` | %d, %s%s | ", m->name, m->nargs, dom[m->dom],
                m->res == MF_MASK ? "; gives 1/0 (scalar), -1/0 (vector)"
                                  : "");
        if (strcmp(acc[0], acc[1]))
            fprintf(out, "float %s, double %s", acc[0], acc[1]);
        else
            fputs(acc[0], out);
        /* a | inside a table cell needs its backslash, code or not */
        fputs(" | `", out);
        for (const char *c = m->impl; *c; c++)
            fputs(*c == '|' ? "\\|" : (char[2]){*c, 0}, out);
        fputs("` |\n", out);
    }
}
