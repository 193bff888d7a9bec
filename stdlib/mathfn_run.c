/* The built-ins of stdlib/mathfn.h's table computed: elementwise loops for
 * the MATH and TEST forms, one work-item's whole vectors for the rest. */
#include "stdlib/mathfn.h"

#include <string.h>

#include "stdlib/geom.h"
#include "stdlib/half.h"
#include "stdlib/libm.h"

/* ---- the float functions: clvm's own library (stdlib/libm.h), never the
 * host's libm. F32 is true in a float loop: the float function on the
 * operands (exact as floats), its result exact in double. A half loop
 * (F16) runs the double function on its exact operands, and the result is
 * rounded once to half when it is stored. ---- */
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
#define cl_nextafter(a, b) (F16 ? mf_nextafter_h(a, b) : CL2(nextafter, a, b))
#define cl_copysign(a, b) CL2(copysign, a, b)

static bool mf_isinf(double x) { return x - x != x - x && x == x; }
static bool mf_isfinite(double x) { return x - x == x - x; }
static bool mf_signbit(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b >> 63;
}
/* normal: finite, and at least the type's smallest normal in magnitude */
static bool mf_isnormal(double x, bool f16, bool f32)
{
    double a = x < 0 ? -x : x;
    return mf_isfinite(x) &&
           a >= (f16 ? 0x1p-14 : f32 ? 0x1p-126 : 0x1p-1022);
}

/* nextafter at half: the next half, not the next double (x, y halves) */
static double mf_nextafter_h(double x, double y)
{
    return half_to_double(half_nextafter(half_from_double(x, RND_RTE),
                                         half_from_double(y, RND_RTE)));
}

/* ---- helpers the table's expressions call ---- */

/* x * 180/pi and x * pi/180, in double, rounded once to the type */
static double mf_degrees(double x, bool f32)
{
    double r = x * 57.295779513082320876798154814105;
    return f32 ? (double)(float)r : r;
}
static double mf_radians(double x, bool f32)
{
    double r = x * 0.017453292519943295769236907684886;
    return f32 ? (double)(float)r : r;
}

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

/* |x - y| as the unsigned type: exact, it always fits. */
static uint64_t mf_abs_diff(uint64_t x, uint64_t y, unsigned w, bool s)
{
    bool gt = s ? sx(x, w) > sx(y, w) : (x & mask_of(w)) > (y & mask_of(w));
    return gt ? x - y : y - x;
}

/* (x + y) >> 1 (hadd) or (x + y + 1) >> 1 (rhadd) without overflow. A
 * signed operand is biased by 2^(w-1) into the unsigned order, where the
 * mean moves by the same bias, and back. */
static uint64_t mf_hadd(uint64_t x, uint64_t y, unsigned w, bool s, bool up)
{
    uint64_t bias = s ? UINT64_C(1) << (w - 1) : 0;
    x = (x ^ bias) & mask_of(w), y = (y ^ bias) & mask_of(w);
    uint64_t r = (x >> 1) + (y >> 1) + ((up ? x | y : x & y) & 1);
    return r ^ bias;
}

/* a * b + c, exact, saturated to w bits. Below 64 bits the exact value
 * fits 64 bits (unsigned 32-bit: the sum is checked for its carry); at 64
 * bits the 128-bit product (hi:lo) takes c with its carry. */
static uint64_t mf_mad_sat(uint64_t x, uint64_t y, uint64_t z, unsigned w,
                           bool s)
{
    uint64_t m = mask_of(w);
    if (s) {
        int64_t hi = (int64_t)(m >> 1), lo = -hi - 1;
        if (w < 64) {
            int64_t p = sx(x, w) * sx(y, w);   /* |p| <= 2^62 */
            int64_t c = sx(z, w), r;
            /* p + c: both fit, and the sum of a 2^62 and a 2^31 fits */
            r = p + c;
            return (uint64_t)(r > hi ? hi : r < lo ? lo : r);
        }
        uint64_t plo = x * y, phi = mf_mul_hi(x, y, 64, true);
        uint64_t chi = z >> 63 ? UINT64_MAX : 0, rlo = plo + z;
        uint64_t rhi = phi + chi + (rlo < plo);
        bool fits = rhi == (rlo >> 63 ? UINT64_MAX : 0);
        if (fits)
            return rlo;
        return rhi >> 63 ? (uint64_t)lo : (uint64_t)hi;
    }
    x &= m, y &= m, z &= m;
    uint64_t plo = x * y, phi = w == 64 ? mulhi_u64(x, y) : 0;
    uint64_t r = plo + z;   /* below 64 bits, x * y < 2^64 */
    return phi || r < plo || r > m ? m : r;
}

/* upsample(hi, lo): hi in the upper w bits, lo in the lower. */
static uint64_t mf_upsample(uint64_t x, uint64_t y, unsigned w)
{
    return (x & mask_of(w)) << w | (y & mask_of(w));
}

/* nan(code) as the bits of the float type of w bits (half: the quiet
 * bit and the code's low 9 bits, as nanf keeps 22). */
static uint64_t mf_nan(uint64_t x, unsigned w)
{
    if (w == 16)
        return 0x7e00u | (x & 0x1ffu);
    if (w == 32) {
        float f = clvm_nanf((uint32_t)x);
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    double d = clvm_nan(x);
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* any/all: the most significant bit of any/every component. */
static int mf_any(const uint64_t *X, unsigned n, unsigned w)
{
    for (unsigned k = 0; k < n; k++)
        if (X[k] >> (w - 1) & 1)
            return 1;
    return 0;
}

static int mf_all(const uint64_t *X, unsigned n, unsigned w)
{
    for (unsigned k = 0; k < n; k++)
        if (!(X[k] >> (w - 1) & 1))
            return 0;
    return 1;
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
DEF_LD(int32_t)

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
        const bool F32 = sizeof(T) == 4, F16 = false;                       \
        double x, y, z;                                                     \
        (void)F32, (void)F16;                                               \
        OPS(T, double, i)                                                   \
        RES_##res(T, U, impl);                                              \
    }
/* half: operands widened exactly, the double result rounded once */
#define RES_SAME_H(v) st_uint16_t(io->d, i, half_from_double(v, RND_RTE))
#define RES_MASK_H(v) RES_MASK(uint16_t, uint16_t, v)
#define HLD(p, i) half_to_double(ld_uint16_t(p, i))
#define LOOP_HALF(res, impl)                                                \
    for (size_t i = 0; i < io->n; i++) {                                    \
        const bool F32 = false, F16 = true;                                 \
        double x = HLD(io->a, i), y = nargs > 1 ? HLD(io->b, i) : 0;        \
        double z = nargs > 2 ? HLD(io->c, i) : 0;                           \
        (void)F32, (void)F16, (void)y, (void)z;                             \
        RES_##res##_H(impl);                                                \
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
    } else if (t == TY_HALF) {                                              \
        LOOP_HALF(res, impl)                                                \
    }
#define BODY_F32 BODY_FLT
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
#define BODY_I32 BODY_INT
#define BODY_SGN BODY_INT
#define BODY_UNS BODY_INT
#define BODY_NRW BODY_INT
/* Bits only: one loop per element size serves every type of that size. */
#define BODY_ANY(res, impl)                                                 \
    switch (ty_scalar_size(t)) {                                            \
    case 1: LOOP_INT(uint8_t, false, impl) break;                           \
    case 2: LOOP_INT(uint16_t, false, impl) break;                          \
    case 4: LOOP_INT(uint32_t, false, impl) break;                          \
    default: LOOP_INT(uint64_t, false, impl) break;                         \
    }
#define BODY_ALL BODY_ANY

/* The elementwise rows (forms MATH and TEST): run_E over n elements. */
#define RUNFN(E, args, dom, res, impl)                                      \
    static void run_##E(enum ty_scalar t, const mf_io *io)                  \
    {                                                                       \
        const unsigned nargs = args;                                        \
        BODY_##dom(res, impl)                                               \
    }

/* ---- one work-item's whole values (form SHAPED) ---- */

/* An element of a FLT operand (of type t) as a double, and back (rounded
 * once). */
static double ldf(const void *p, size_t k, enum ty_scalar t)
{
    return t == TY_FLOAT ? (double)ld_float(p, k)
           : t == TY_HALF ? half_to_double(ld_uint16_t(p, k))
                          : ld_double(p, k);
}
static void stf(void *p, size_t k, enum ty_scalar t, double v)
{
    if (t == TY_FLOAT)
        st_float(p, k, (float)v);
    else if (t == TY_HALF)
        st_uint16_t(p, k, half_from_double(v, RND_RTE));
    else
        st_double(p, k, v);
}

/* The float forms of the pointer functions, through doubles. */
static double mf_modf(double x, double *ip, bool f32)
{
    if (!f32)
        return clvm_modf(x, ip);
    float i, r = clvm_modff((float)x, &i);
    *ip = i;
    return r;
}
/* fract's cap is the largest value below 1 of the type: half's 0x1.ffcp-1
 * (x - floor(x) of the smallest negative denormal would round to 1). */
static double mf_fract(double x, double *ip, bool f16, bool f32)
{
    if (f16) {
        double r = clvm_fract(x, ip);
        return r < 0x1.ffcp-1 ? r : r == r ? 0x1.ffcp-1 : r;
    }
    if (!f32)
        return clvm_fract(x, ip);
    float i, r = clvm_fractf((float)x, &i);
    *ip = i;
    return r;
}
static double mf_sincos(double x, double *c, bool f32)
{
    if (!f32) {
        double s;
        clvm_sincos(x, &s, c);
        return s;
    }
    float s, cf;
    clvm_sincosf((float)x, &s, &cf);
    *c = cf;
    return s;
}
static double mf_lgamma_r(double x, int *sign, bool f32)
{
    return f32 ? (double)clvm_lgammaf_r((float)x, sign)
               : clvm_lgamma_r(x, sign);
}
#define cl_frexp(a, p)                                                      \
    (F32 ? (double)clvm_frexpf((float)(a), p) : clvm_frexp(a, p))
#define cl_remquo(a, b, p)                                                  \
    (F32 ? (double)clvm_remquof((float)(a), (float)(b), p)                  \
         : clvm_remquo(a, b, p))
#define cl_ldexp(a, n) (F32 ? (double)clvm_ldexpf((float)(a), n)            \
                            : clvm_ldexp(a, n))
#define cl_pown(a, n) (F32 ? (double)clvm_pownf((float)(a), n)              \
                           : clvm_pown(a, n))
#define cl_rootn(a, n) (F32 ? (double)clvm_rootnf((float)(a), n)            \
                            : clvm_rootn(a, n))
#define cl_ilogb(a) (F32 ? clvm_ilogbf((float)(a)) : clvm_ilogb(a))

/* The operands of one call: sig's types, elements in native order. */
typedef struct {
    mf_sig s;
    unsigned n, m;     /* t.n; SHUF's mask components */
    enum ty_scalar ft; /* t.s */
    bool F32, second;
    void *d;
    const void *a, *b, *c;
} mf_one;

#define ONE_HEAD(E)                                                         \
    static void one_##E(const mf_one *o)                                    \
    {                                                                       \
        const bool F32 = o->F32, F16 = o->ft == TY_HALF;                    \
        const enum ty_scalar FT = o->ft;                                    \
        const unsigned n = o->n;                                            \
        (void)F32, (void)F16, (void)FT, (void)n;
/* ldexp, pown, rootn: x of T, y an int */
#define ONE_ARGI(E, args, dom, impl)                                        \
    ONE_HEAD(E)                                                             \
        for (unsigned k = 0; k < n; k++) {                                  \
            double x = ldf(o->a, k, FT);                                   \
            int y = ld_int32_t(o->b, k);                                    \
            stf(o->d, k, FT, impl);                                        \
        }                                                                   \
    }
#define ONE_ARGN ONE_ARGI
#define ONE_ILOG(E, args, dom, impl)                                        \
    ONE_HEAD(E)                                                             \
        for (unsigned k = 0; k < n; k++) {                                  \
            double x = ldf(o->a, k, FT);                                   \
            st_int32_t(o->d, k, impl);                                      \
        }                                                                   \
    }
/* The result, or (second) the pointer output o2 / i2. */
#define ONE_PTR(E, args, dom, impl)                                         \
    ONE_HEAD(E)                                                             \
        for (unsigned k = 0; k < n; k++) {                                  \
            double x = ldf(o->a, k, FT), o2 = 0;                           \
            double y = args > 1 ? ldf(o->b, k, FT) : 0, r = impl;          \
            (void)y;                                                        \
            stf(o->d, k, FT, o->second ? o2 : r);                          \
        }                                                                   \
    }
#define ONE_PTRI(E, args, dom, impl)                                        \
    ONE_HEAD(E)                                                             \
        for (unsigned k = 0; k < n; k++) {                                  \
            double x = ldf(o->a, k, FT);                                   \
            double y = args > 1 ? ldf(o->b, k, FT) : 0;                    \
            int i2 = 0;                                                     \
            double r = impl;                                                \
            (void)y;                                                        \
            if (o->second)                                                  \
                st_int32_t(o->d, k, i2);                                    \
            else                                                            \
                stf(o->d, k, FT, r);                                       \
        }                                                                   \
    }
#define ONE_WIDE(E, args, dom, impl)                                        \
    ONE_HEAD(E)                                                             \
        const unsigned es = ty_scalar_size((enum ty_scalar)o->s.arg[0].s);  \
        const unsigned w = 8 * es;                                          \
        for (unsigned k = 0; k < n; k++) {                                  \
            uint64_t x = ty_get_bits((const char *)o->a + k * es, es);      \
            uint64_t y = ty_get_bits((const char *)o->b + k * es, es);      \
            ty_put_bits((char *)o->d + k * 2 * es, 2 * es, impl);           \
        }                                                                   \
    }
/* Whole vectors: FLT operands as doubles, others as bits. */
#define ONE_GATHER(dom)                                                     \
        double va[16], vb[16], vc[16], vr[16];                              \
        uint64_t ua[16], ub[16], uc[16], ur[16];                            \
        const unsigned es = ty_scalar_size((enum ty_scalar)o->s.arg[0].s);  \
        const unsigned w = 8 * es;                                          \
        gather(o, va, vb, vc, ua, ub, uc);                                  \
        (void)va, (void)vb, (void)vc, (void)vr, (void)w;                    \
        (void)ua, (void)ub, (void)uc, (void)ur;
#define ONE_RED(E, args, dom, impl)                                         \
    ONE_HEAD(E)                                                             \
        ONE_GATHER(dom)                                                     \
        if (MFD_##dom == MFD_FLT || MFD_##dom == MFD_F32)                       \
            stf(o->d, 0, FT, (double)(impl));                              \
        else                                                                \
            st_int32_t(o->d, 0, (int32_t)(impl));                           \
    }
#define ONE_VEC(E, args, dom, impl)                                         \
    ONE_HEAD(E)                                                             \
        ONE_GATHER(dom)                                                     \
        (void)(impl);                                                       \
        for (unsigned k = 0; k < n; k++)                                    \
            stf(o->d, k, FT, vr[k]);                                        \
    }
#define ONE_SHUF(E, args, dom, impl)                                        \
    ONE_HEAD(E)                                                             \
        ONE_GATHER(dom)                                                     \
        const unsigned m = o->m;                                            \
        (void)(impl);                                                       \
        for (unsigned k = 0; k < m; k++)                                    \
            ty_put_bits((char *)o->d + k * es, es, ur[k]);                  \
    }

/* The operands of a whole-vector row, both as doubles (FLT) and as bits. */
static void gather(const mf_one *o, double *va, double *vb, double *vc,
                   uint64_t *ua, uint64_t *ub, uint64_t *uc)
{
    const void *src[3] = {o->a, o->b, o->c};
    double *fd[3] = {va, vb, vc};
    uint64_t *bd[3] = {ua, ub, uc};
    for (unsigned i = 0; i < 3; i++) {
        ty_t t = o->s.arg[i];
        unsigned es = ty_scalar_size((enum ty_scalar)t.s);
        if (!src[i] || !t.n)
            continue;
        for (unsigned k = 0; k < t.n; k++) {
            bd[i][k] = ty_get_bits((const char *)src[i] + k * es, es);
            if (ty_is_float((enum ty_scalar)t.s))
                fd[i][k] = ldf(src[i], k, (enum ty_scalar)t.s);
        }
    }
}

/* Each row: run_E (elementwise) or one_E (whole values), by shape. */
#define GEN_SAME(E, args, dom, impl) RUNFN(E, args, dom, SAME, impl)
#define GEN_UTYP GEN_SAME
#define GEN_UTOF GEN_SAME
#define GEN_MASK(E, args, dom, impl) RUNFN(E, args, dom, MASK, impl)
#define GEN_ARGI ONE_ARGI
#define GEN_ARGN ONE_ARGN
#define GEN_ILOG ONE_ILOG
#define GEN_PTR ONE_PTR
#define GEN_PTRI ONE_PTRI
#define GEN_WIDE ONE_WIDE
#define GEN_RED ONE_RED
#define GEN_VEC ONE_VEC
#define GEN_SHUF ONE_SHUF
#define MF_GEN(P, E, name, args, dom, shape, unit, bf, bd, bh, oc, doc,    \
               impl)                                                        \
    GEN_##shape(E, args, dom, impl)
MATHFNS(MF_GEN, _)
#undef MF_GEN

void mathfn_run(enum mathfn f, enum ty_scalar t, void *d, const void *a,
                const void *b, const void *c, size_t n, bool vec)
{
    const mf_io io = {d, a, b, c, n, vec ? UINT64_MAX : 1};
    if (!mathfn_takes(f, t) || mathfn_form(f) == MF_FORM_SHAPED)
        return;
    switch (f) {
#define RUNCASE_SAME(E) case MF_##E: run_##E(t, &io); break;
#define RUNCASE_UTYP RUNCASE_SAME
#define RUNCASE_UTOF RUNCASE_SAME
#define RUNCASE_MASK RUNCASE_SAME
#define RUNCASE_ARGI(E)
#define RUNCASE_ARGN(E)
#define RUNCASE_ILOG(E)
#define RUNCASE_PTR(E)
#define RUNCASE_PTRI(E)
#define RUNCASE_WIDE(E)
#define RUNCASE_RED(E)
#define RUNCASE_VEC(E)
#define RUNCASE_SHUF(E)
#define MF_CASE(P, E, name, args, dom, shape, ...) RUNCASE_##shape(E)
        MATHFNS(MF_CASE, _)
#undef MF_CASE
    default: break;
    }
}

void mathfn_one(enum mathfn f, ty_t t, unsigned m, bool second, void *d,
                const void *a, const void *b, const void *c)
{
    mf_sig s;
    const char *why;
    if (mathfn_sig(f, t, m, &s, &why))
        mathfn_one_sig(f, &s, t, m, second, d, a, b, c);
}

void mathfn_one_sig(enum mathfn f, const mf_sig *s, ty_t t, unsigned m,
                    bool second, void *d, const void *a, const void *b,
                    const void *c)
{
    mf_one o = {.s = *s, .n = t.n, .m = m, .ft = (enum ty_scalar)t.s,
                .F32 = t.s == TY_FLOAT,
                .second = second, .d = d, .a = a, .b = b, .c = c};
    if (mathfn_form(f) != MF_FORM_SHAPED) {
        mathfn_run(f, (enum ty_scalar)t.s, d, a, b, c, t.n, t.n > 1);
        return;
    }
    switch (f) {
#define ONECASE(E) case MF_##E: one_##E(&o); break;
#define ONECASE_SAME(E)
#define ONECASE_UTYP(E)
#define ONECASE_UTOF(E)
#define ONECASE_MASK(E)
#define ONECASE_ARGI ONECASE
#define ONECASE_ARGN ONECASE
#define ONECASE_ILOG ONECASE
#define ONECASE_PTR ONECASE
#define ONECASE_PTRI ONECASE
#define ONECASE_WIDE ONECASE
#define ONECASE_RED ONECASE
#define ONECASE_VEC ONECASE
#define ONECASE_SHUF ONECASE
#define MF_CASE(P, E, name, args, dom, shape, ...) ONECASE_##shape(E)
        MATHFNS(MF_CASE, _)
#undef MF_CASE
    default: break;
    }
}
