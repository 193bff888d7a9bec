/* stdlib/libm: every function, float and double, against MPFR (128 bits,
 * rounded to nearest) over the special values (signed zeros, denormals,
 * FLT_MIN/DBL_MIN, +-1, infinities, NaN, near multiples of pi/2, huge
 * arguments, integers and half-integers for the powers, the edges of
 * overflow and underflow) and 2^20 random inputs per function and type:
 * the error, in ulp as OpenCL defines it, within the bound
 * OpenCL C 1.2 allows (full profile) and within what docs/semantics.md
 * claims. It prints the largest error per function and how many results
 * were not correctly rounded. LIBM_N overrides the count; the inputs
 * come from LIBM_SEED (CI sets it), else from a seed it prints.
 *
 * Also: the exact functions with pointer or int results (frexp, modf,
 * fract, remquo, ilogb, sincos, lgamma_r), and that the library's objects
 * call nothing of the host's libm (nm). */
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stdlib/libm.h"
#include "tests/lib/test.h"
#include "tests/unit/libm_ref.h"

#if defined(__SANITIZE_ADDRESS__)
#define SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define SLOW_BUILD 1
#endif
#endif
#ifndef SLOW_BUILD
#define SLOW_BUILD 0
#endif

static double bitsd(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

typedef struct {
    uint64_t s;
} rng_t;
static uint64_t rnd(rng_t *r)
{
    r->s ^= r->s >> 12, r->s ^= r->s << 25, r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Du;
}
static double unif(rng_t *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(rnd(r) >> 11) * 0x1p-53;
}

/* ---- the functions ---- */

enum kind { K1, K2, KI, K3 };
/* input domains for the random half of the inputs */
enum dom {
    D_ANY,   /* any bits */
    D_EXP,   /* [-750, 750] */
    D_POS,   /* positive, any exponent */
    D_TRIG,  /* [-1e4, 1e4], and near multiples of pi/2 */
    D_UNIT,  /* [-1, 1] */
    D_M1,    /* [-1, 2^±k] for log1p */
    D_HYP,   /* [-30, 30] */
    D_GE1,   /* [1, 1e6] */
    D_POW,   /* x in (0, 4), y in [-100, 100] */
    D_SMALL, /* [-20, 20] */
    D_TINY,  /* |x| tiny or huge */
    D_ERF,   /* [-8, 8], a quarter of them [-30, 30] */
    D_GAM,   /* [-30, 30], near 0, 1, 2 and negative integers, [-200, 200] */
};

typedef int (*mf1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mf2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mfi)(mpfr_ptr, mpfr_srcptr, long, mpfr_rnd_t);

typedef struct {
    const char *name;
    enum kind kind;
    enum dom dom;
    double bound[2]; /* OpenCL's: float, double (0: correctly rounded or
                        exact; checked as 0.5) */
    double (*d1)(double);
    float (*f1)(float);
    double (*d2)(double, double);
    float (*f2)(float, float);
    double (*di)(double, int);
    float (*fi)(float, int);
    mf1 r1;
    mf2 r2;
    mfi ri;
    /* the screen: the host's long double function (NULL: MPFR always) */
    long double (*l1)(long double);
    long double (*l2)(long double, long double);
    long double (*li)(long double, int);
} fn_t;

/* OpenCL's pow/pown special cases are C99's, MPFR's too */
static int r_pown(mpfr_ptr r, mpfr_srcptr x, long n, mpfr_rnd_t m)
{
    return mpfr_pow_si(r, x, n, m);
}
static int r_rootn(mpfr_ptr r, mpfr_srcptr x, long n, mpfr_rnd_t m)
{
    if (n == 0) {
        mpfr_set_nan(r);
        return 0;
    }
    if (mpfr_zero_p(x)) {
        /* OpenCL: +-0 for odd n > 0, +inf for even n < 0 ... */
        bool odd = n % 2 != 0;
        if (n > 0)
            mpfr_set_zero(r, odd && mpfr_signbit(x) ? -1 : 1);
        else
            mpfr_set_inf(r, odd && mpfr_signbit(x) ? -1 : 1);
        return 0;
    }
    return mpfr_rootn_si(r, x, n, m);
}
static int r_ldexp(mpfr_ptr r, mpfr_srcptr x, long n, mpfr_rnd_t m)
{
    return mpfr_mul_2si(r, x, n, m);
}
static int r_maxmag(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m)
{
    int c = mpfr_cmpabs(x, y);
    if (mpfr_nan_p(x) || mpfr_nan_p(y) || c == 0)
        return mpfr_max(r, x, y, m);
    return mpfr_set(r, c > 0 ? x : y, m);
}
static int r_minmag(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m)
{
    int c = mpfr_cmpabs(x, y);
    if (mpfr_nan_p(x) || mpfr_nan_p(y) || c == 0)
        return mpfr_min(r, x, y, m);
    return mpfr_set(r, c < 0 ? x : y, m);
}
/* copysign takes the sign bit of a NaN too: the y operand's bits */
static _Thread_local double copysign_y;
static int r_copysign(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m)
{
    (void)y;
    return mpfr_setsign(r, x, signbit(copysign_y) != 0, m);
}
/* OpenCL: powr(x, NaN) and powr(NaN, y) are NaN (MPFR: powr(1, NaN) = 1) */
static int r_powr(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m)
{
    if (mpfr_nan_p(x) || mpfr_nan_p(y)) {
        mpfr_set_nan(r);
        return 0;
    }
    return mpfr_powr(r, x, y, m);
}
static int r_fdim(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m)
{
    return mpfr_dim(r, x, y, m);
}
static int r_fmod(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m)
{
    return mpfr_fmod(r, x, y, m);
}
static int r_remainder(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t m)
{
    return mpfr_remainder(r, x, y, m);
}

#define F1(n, dom, bf, bd, ref, l)                                          \
    {#n, K1, dom, {bf, bd}, clvm_##n, clvm_##n##f, 0, 0, 0, 0, ref, 0, 0,   \
     l, 0, 0}
#define F2(n, dom, bf, bd, ref, l)                                          \
    {#n, K2, dom, {bf, bd}, 0, 0, clvm_##n, clvm_##n##f, 0, 0, 0, ref, 0,   \
     0, l, 0}
#define FI(n, dom, bf, bd, ref, l)                                          \
    {#n, KI, dom, {bf, bd}, 0, 0, 0, 0, clvm_##n, clvm_##n##f, 0, 0, ref,   \
     0, 0, l}

/* ---- screens: long double (64 bits), exact reductions for the *pi ---- */
static const long double PI_L = 3.141592653589793238462643383279502884L;
static long double l_rsqrt(long double x) { return 1 / sqrtl(x); }
static long double l_sinpi(long double x)
{
    long double r = x - 2 * rintl(x / 2), s = 1; /* exact, [-1, 1] */
    if (r < 0)
        r = -r, s = -1;
    if (r > 0.5L)
        r = 1 - r;
    return s * sinl(PI_L * r);
}
static long double l_cospi(long double x)
{
    long double r = fabsl(x - 2 * rintl(x / 2)), s = 1;
    if (r > 0.5L)
        r = 1 - r, s = -1;
    return s * (r < 0.25L ? cosl(PI_L * r) : sinl(PI_L * (0.5L - r)));
}
static long double l_tanpi(long double x)
{
    long double r = x - rintl(x); /* [-0.5, 0.5] */
    if (fabsl(r) <= 0.25L)
        return tanl(PI_L * r);
    return 1 / tanl(PI_L * (r > 0 ? 0.5L - r : -0.5L - r));
}
static long double l_asinpi(long double x) { return asinl(x) / PI_L; }
static long double l_acospi(long double x) { return acosl(x) / PI_L; }
static long double l_atanpi(long double x) { return atanl(x) / PI_L; }
static long double l_atan2pi(long double y, long double x)
{
    return atan2l(y, x) / PI_L;
}
static long double l_pown(long double x, int n) { return powl(x, n); }
static long double l_rootn(long double x, int n)
{
    return x < 0 ? -powl(-x, 1.0L / n) : powl(x, 1.0L / n);
}

static const fn_t fns[] = {
    F1(exp, D_EXP, 3, 3, mpfr_exp, expl),
    F1(exp2, D_EXP, 3, 3, mpfr_exp2, exp2l),
    F1(exp10, D_EXP, 3, 3, mpfr_exp10, exp10l),
    F1(expm1, D_EXP, 3, 3, mpfr_expm1, expm1l),
    F1(log, D_POS, 3, 3, mpfr_log, logl),
    F1(log2, D_POS, 3, 3, mpfr_log2, log2l),
    F1(log10, D_POS, 3, 3, mpfr_log10, log10l),
    F1(log1p, D_M1, 2, 2, mpfr_log1p, log1pl),
    F1(sqrt, D_POS, 3, 0, mpfr_sqrt, sqrtl),
    F1(cbrt, D_ANY, 2, 2, mpfr_cbrt, cbrtl),
    F1(rsqrt, D_POS, 2, 2, r_rsqrt, l_rsqrt),
    F1(sin, D_TRIG, 4, 4, mpfr_sin, sinl),
    F1(cos, D_TRIG, 4, 4, mpfr_cos, cosl),
    F1(tan, D_TRIG, 5, 5, mpfr_tan, tanl),
    F1(asin, D_UNIT, 4, 4, mpfr_asin, asinl),
    F1(acos, D_UNIT, 4, 4, mpfr_acos, acosl),
    F1(atan, D_ANY, 5, 5, mpfr_atan, atanl),
    F1(sinh, D_HYP, 4, 4, mpfr_sinh, sinhl),
    F1(cosh, D_HYP, 4, 4, mpfr_cosh, coshl),
    F1(tanh, D_HYP, 5, 5, mpfr_tanh, tanhl),
    F1(asinh, D_ANY, 4, 4, mpfr_asinh, asinhl),
    F1(acosh, D_GE1, 4, 4, mpfr_acosh, acoshl),
    F1(atanh, D_UNIT, 5, 5, mpfr_atanh, atanhl),
    F1(sinpi, D_SMALL, 4, 4, mpfr_sinpi, l_sinpi),
    F1(cospi, D_SMALL, 4, 4, mpfr_cospi, l_cospi),
    F1(tanpi, D_SMALL, 6, 6, mpfr_tanpi, l_tanpi),
    F1(asinpi, D_UNIT, 5, 5, mpfr_asinpi, l_asinpi),
    F1(acospi, D_UNIT, 5, 5, mpfr_acospi, l_acospi),
    F1(atanpi, D_ANY, 5, 5, mpfr_atanpi, l_atanpi),
    F1(floor, D_SMALL, 0, 0, r_floor, 0),
    F1(ceil, D_SMALL, 0, 0, r_ceil, 0),
    F1(trunc, D_SMALL, 0, 0, r_trunc, 0),
    F1(round, D_SMALL, 0, 0, r_round, 0),
    F1(rint, D_SMALL, 0, 0, r_rint, 0),
    F1(logb, D_ANY, 0, 0, r_logb, 0),
    F2(pow, D_POW, 16, 16, mpfr_pow, powl),
    F2(powr, D_POW, 16, 16, r_powr, powl),
    F2(hypot, D_ANY, 4, 4, mpfr_hypot, hypotl),
    F2(atan2, D_ANY, 6, 6, mpfr_atan2, atan2l),
    F2(atan2pi, D_ANY, 6, 6, mpfr_atan2pi, l_atan2pi),
    F2(fmod, D_ANY, 0, 0, r_fmod, 0),
    F2(remainder, D_ANY, 0, 0, r_remainder, 0),
    F2(copysign, D_ANY, 0, 0, r_copysign, 0),
    F2(fdim, D_ANY, 0, 0, r_fdim, 0),
    F2(maxmag, D_ANY, 0, 0, r_maxmag, 0),
    F2(minmag, D_ANY, 0, 0, r_minmag, 0),
    FI(pown, D_POW, 16, 16, r_pown, l_pown),
    FI(rootn, D_POW, 16, 16, r_rootn, l_rootn),
    FI(ldexp, D_ANY, 0, 0, r_ldexp, 0),
    F1(erf, D_ERF, 16, 16, mpfr_erf, erfl),
    F1(erfc, D_ERF, 16, 16, mpfr_erfc, erfcl),
    F1(tgamma, D_GAM, 16, 16, mpfr_gamma, tgammal),
    /* OpenCL: undefined; measured in ulp, and by its absolute error near
     * the zeros on the negative axis (ABS_LGAMMA) */
    F1(lgamma, D_GAM, 16, 16, r_lgamma, lgammal),
};
enum { NFN = sizeof fns / sizeof fns[0] };

/* ---- special inputs ---- */

static const double specials[] = {
    0.0, -0.0, 0x1p-1074, -0x1p-1074, 0x1p-149, -0x1p-149,
    0x1.fffffcp-127, 0x0.fffffffffffffp-1022, 0x1p-126, -0x1p-126,
    0x1p-1022, -0x1p-1022, 1.0, -1.0, INFINITY, -INFINITY, NAN, 0.5, -0.5,
    1.5, -1.5, 2.0, -2.0, 2.5, 3.0, -3.0, 4.0, 10.0, 0.1, -0.1,
    0x1.fffffep127, -0x1.fffffep127, DBL_MAX, -DBL_MAX, 0x1p24, 0x1p53,
    0x1p52 + 1, 0x1p23 + 1, -0x1p53, 1e22, 1e300, 1e-300, 88.72283935546875,
    89.0, -103.97, -104.0, -87.33654022216797, 709.782712893384, 710.0,
    -745.1332191019411, -745.2, -708.4, 128.0, -149.0, -150.0, 1024.0,
    -1074.0, -1075.0, 38.53, -45.0, 308.25, -323.3, 0x1.921fb6p0,
    0x1.921fb54442d18p0, -0x1.921fb54442d18p0, 0x1.921fb54442d18p1,
    0x1.921fb54442d18p2, 3.14159265358979, 6381956970095103.0 * 0x1p797,
    0x1.6a09e667f3bcdp-1, 1e6, 1e10, 1e15, 0x1p1023, 0x1p127, 0x1p-127,
    0.999999, 1.000001, 0x1.fffffffffffffp-1, 0x1.0000000000001p0,
    0x1.fffffep-1, 0x1.000002p0, 1e-8, -1e-8, 0x1p-30, 0x1p-60, 1.0 / 3,
    -7.0, 7.5, -7.5, 100.0, -100.0, 0.75, -0.25, 0.25,
};
enum { NSPEC = sizeof specials / sizeof specials[0] };

static double draw(rng_t *r, enum dom d, bool dbl, int arg)
{
    if (rnd(r) % 2 == 0 || d == D_ANY) {
        /* any bits, half the time with a moderate exponent */
        uint64_t b = rnd(r);
        if (rnd(r) % 2) {
            double v = dbl ? bitsd(b) : (double)bitsf((uint32_t)b);
            return v;
        }
        double m = unif(r, 1, 2) * (double)(int)(rnd(r) % 3 ? 1 : -1);
        int e = (int)(rnd(r) % 80) - 40;
        return m * ldexp(1, e);
    }
    switch (d) {
    case D_EXP: return unif(r, -750, 750) * (rnd(r) % 4 ? 1 : 0.02);
    case D_POS: {
        double v = unif(r, 0, 2);
        return ldexp(v, (int)(rnd(r) % 200) - 100);
    }
    case D_TRIG: {
        if (rnd(r) % 2) {
            /* near k pi/2 */
            double k = (double)(rnd(r) % 2000000) - 1e6;
            double v = k * 1.5707963267948966;
            return v * (1 + (double)((int)(rnd(r) % 9) - 4) * 0x1p-52);
        }
        return unif(r, -1e4, 1e4) * (rnd(r) % 4 ? 1 : 1e-3);
    }
    case D_UNIT: return unif(r, -1, 1) * (rnd(r) % 8 ? 1 : 1e-5);
    case D_M1: return rnd(r) % 2 ? unif(r, -1, 2) : ldexp(unif(r, -1, 1), -(int)(rnd(r) % 60));
    case D_HYP: return unif(r, -30, 30) * (rnd(r) % 4 ? 1 : 0.01);
    case D_GE1: return 1 + ldexp(unif(r, 0, 1), (int)(rnd(r) % 60) - 50);
    case D_POW:
        if (arg == 0)
            return unif(r, 0, 4) * (rnd(r) % 8 ? 1 : -1);
        return rnd(r) % 4 ? unif(r, -100, 100) : (double)((int)(rnd(r) % 41) - 20) * 0.5;
    case D_SMALL: return unif(r, -20, 20) * (rnd(r) % 4 ? 1 : 1e-3);
    case D_ERF: return unif(r, -8, 8) * (rnd(r) % 4 ? 1 : 3.75);
    case D_GAM:
        switch (rnd(r) % 4) {
        case 0: return unif(r, -200, 200);
        case 1: /* near 1, 2 or a pole */
            return (double)((int)(rnd(r) % 24) - 21) +
                   ldexp(unif(r, -1, 1), -(int)(rnd(r) % 40));
        default: return unif(r, -30, 30);
        }
    default: return unif(r, -1, 1);
    }
}

/* ---- the error of one result ---- */

/* ---- running one function ---- */

typedef struct {
    double worst[2];
    double wx[2], wy[2];
    long n[2], notcr[2], nmpfr[2];
    double screen_gap; /* largest |screen - MPFR| on the sampled inputs */
    double gx, gy;
    double secs[2];    /* time taken */
    long nabs[2];      /* lgamma: results past 0.5 ulp near a zero ... */
    double absworst[2]; /* ... and their largest absolute error */
} stats_t;

/* double lgamma near its zeros on the negative axis: an absolute error */
static const double ABS_LGAMMA = 0x1p-60;
/* the random inputs' seed: LIBM_SEED, else from the clock (printed) */
static uint64_t seed = 1;

static stats_t results[NFN];

static void ref_of(const fn_t *fn, mpfr_ptr r, mpfr_ptr mx, mpfr_ptr my,
                   double x, double y, int n)
{
    mpfr_set_d(mx, x, MPFR_RNDN);
    mpfr_set_d(my, y, MPFR_RNDN);
    copysign_y = y;
    switch (fn->kind) {
    case K1: fn->r1(r, mx, MPFR_RNDN); break;
    case K2: fn->r2(r, mx, my, MPFR_RNDN); break;
    case KI: fn->ri(r, mx, n, MPFR_RNDN); break;
    default: break;
    }
}

static double got_of(const fn_t *fn, bool dbl, double x, double y, int n)
{
    switch (fn->kind) {
    case K1: return dbl ? fn->d1(x) : fn->f1((float)x);
    case K2: return dbl ? fn->d2(x, y) : fn->f2((float)x, (float)y);
    case KI: return dbl ? fn->di(x, n) : fn->fi((float)x, n);
    default: return NAN;
    }
}

static bool has_screen(const fn_t *fn)
{
    return fn->l1 || fn->l2 || fn->li;
}

/* the error by the long double screen; NAN when it cannot tell (special
 * values, overflow): then MPFR decides */
static double screen_err(const fn_t *fn, const fmt_t *f, double got,
                         double x, double y, int n)
{
    long double v = fn->kind == K1   ? fn->l1(x)
                    : fn->kind == K2 ? fn->l2(x, y)
                                     : fn->li(x, n);
    /* both NaN, or both zeros of one sign (long double's range reaches
     * far below the denormals): right, as the sampled inputs confirm */
    if ((got != got && v != v) ||
        (got == 0 && v == 0 && signbit(got) == signbit(v)))
        return 0;
    if (got == got && v == v && v != 0 && signbit(got) == signbit(v)) {
        /* overflow and underflow the screen decides with a margin of
         * 2^-20: beyond 2^(emax+1) infinity is correctly rounded (0 ulp,
         * as ulp_err counts), below half the smallest denormal zero */
        long double a = fabsl(v);
        if (isinf(got) && a >= ldexpl(1 + 0x1p-20L, f->emax + 1))
            return 0;
        if (got == 0 && a <= ldexpl(1 - 0x1p-20L, f->emin - f->p))
            return (double)(a / ldexpl(1, f->emin - f->p + 1));
    }
    if (!isfinite(got) || !isfinite(v) || v == 0 || got == 0 ||
        fabsl(v) > (long double)f->max)
        return NAN;
    int e = ilogbl(v);
    if (e < f->emin)
        e = f->emin;
    return (double)(fabsl((long double)got - v) / ldexpl(1, e - f->p + 1));
}

static long nrand = 1 << 20;

static void one(const fn_t *fn, stats_t *st, bool dbl)
{
    const fmt_t *f = dbl ? &FD : &FF;
    /* the screen's own error is a few ulp of long double: 2^-8 of a double
     * ulp, 2^-37 of a float ulp; tol leaves a margin, and the sampled
     * inputs check it holds */
    const double tol0 = dbl ? 0x1p-6 : 0x1p-20;
    mpfr_t r, mx, my, t;
    mpfr_inits2(160, r, mx, my, t, (mpfr_ptr)0);
    rng_t rg = {(0x9E3779B97F4A7C15u ^ seed * 0xD1B54A32D192ED03u ^
                 (uint64_t)(fn - fns) * 7919 ^ (dbl ? 77 : 0)) | 1};
    long nspec = fn->kind == K1 ? NSPEC : (long)NSPEC * NSPEC;
    double worst = 0;
    for (long i = -nspec; i < nrand; i++) {
        double x, y = 0;
        int n = 0;
        if (i < 0) {
            long k = i + nspec;
            x = specials[fn->kind == K1 ? k : k / NSPEC];
            y = specials[k % NSPEC];
            n = (int)(k % 41) - 20;
        } else {
            x = draw(&rg, fn->dom, dbl, 0);
            y = draw(&rg, fn->dom, dbl, 1);
            n = (int)(rnd(&rg) % 41) - 20;
            if (rnd(&rg) % 16 == 0)
                n = (int)(rnd(&rg) % 2000) - 1000;
        }
        if (fn->kind == KI && !strcmp(fn->name, "ldexp"))
            n = (int)(rnd(&rg) % 2400) - 1200;
        if (!dbl)
            x = (double)(float)x, y = (double)(float)y;
        double got = got_of(fn, dbl, x, y, n);
        double tol = tol0;
        if (!strcmp(fn->name, "rootn") && n)
            /* powl(x, 1/n) carries 1/n's rounding: |ln x| 2^-64 / |n| */
            tol += fabs(log(fabs(x))) * (dbl ? 0x1p-10 : 0x1p-39) / abs(n);
        bool sample = i < 0 || i % 64 == 0 || !has_screen(fn);
        double e = NAN;
        if (!sample) {
            e = screen_err(fn, f, got, x, y, n);
            if (e > 0.5 - tol)
                e = NAN; /* near or past a halfway point: MPFR decides */
        }
        if (e != e) {
            ref_of(fn, r, mx, my, x, y, n);
            e = ulp_err(got, r, f, t);
            st->nmpfr[dbl]++;
            if (e > 0.5 && isfinite(e) && dbl && fn->r1 == r_lgamma) {
                /* OpenCL leaves lgamma's accuracy undefined: near a zero
                 * the error is absolute */
                mpfr_set_d(t, got, MPFR_RNDN);
                mpfr_sub(t, t, r, MPFR_RNDN);
                double ae = fabs(mpfr_get_d(t, MPFR_RNDN));
                if (ae <= ABS_LGAMMA) {
                    st->nabs[dbl]++;
                    if (ae > st->absworst[dbl])
                        st->absworst[dbl] = ae;
                    e = 0;
                }
            }
            if (sample && i >= 0 && has_screen(fn)) {
                /* a screen too pessimistic (es > 0.5 - tol) is safe:
                 * MPFR decides those */
                double es = screen_err(fn, f, got, x, y, n);
                if (es == es && e == e && isfinite(e) && es <= 0.5 - tol &&
                    fabs(es - e) > st->screen_gap + tol && fabs(es - e) > tol) {
                    st->screen_gap = fabs(es - e);
                    st->gx = x, st->gy = fn->kind == KI ? n : y;
                }
            }
        }
        st->n[dbl]++;
        if (e > 0.5)
            st->notcr[dbl]++;
        if (e > worst || e != e) {
            worst = e;
            st->wx[dbl] = x;
            st->wy[dbl] = fn->kind == KI ? n : y;
        }
    }
    st->worst[dbl] = worst;
    mpfr_clears(r, mx, my, t, (mpfr_ptr)0);
}

static atomic_int next_job;

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        int j = atomic_fetch_add(&next_job, 1);
        if (j >= 2 * NFN)
            break;
        j = 2 * NFN - 1 - j; /* the last rows (gamma: the slowest) first,
                              * so the two threads end together */
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        one(&fns[j / 2], &results[j / 2], j % 2);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        results[j / 2].secs[j % 2] = (double)(t1.tv_sec - t0.tv_sec) +
                                     (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    }
    mpfr_free_cache();
    return NULL;
}

/* the table of docs/semantics.md ("libm-errors"), LIBM_MD=FILE */
static void write_md(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return;
    }
    fprintf(f, "| function | float: max error (ulp) | not correctly rounded "
               "| double: max error (ulp) | not correctly rounded |\n"
               "|---|---|---|---|---|\n");
    for (int i = 0; i < NFN; i++) {
        const stats_t *st = &results[i];
        fprintf(f, "| `%s` | %.9f | %ld of %ld | %.9f | %ld of %ld%s |\n",
                fns[i].name, st->worst[0], st->notcr[0], st->n[0],
                st->worst[1], st->notcr[1], st->n[1],
                st->nabs[1] ? " (and the results near the zeros, below)" : "");
    }
    for (int i = 0; i < NFN; i++)
        if (results[i].nabs[1])
            fprintf(f, "\n`%s` (double): %ld results near its zeros on the "
                       "negative axis were more than 0.5 ulp off, with an "
                       "absolute error of at most %.3g (2^%.1f).\n",
                    fns[i].name, results[i].nabs[1], results[i].absworst[1],
                    log2(results[i].absworst[1]));
    fclose(f);
}

static void accuracy(void)
{
    const char *env = getenv("LIBM_N");
    if (env)
        nrand = atol(env);
    else if (SLOW_BUILD)
        nrand = 1 << 12;
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    const char *md = getenv("LIBM_MD");
    if (md && *md)
        write_md(md);
    printf("libm: %ld random inputs per function and type, seed %llu "
           "(LIBM_SEED=%llu replays them); largest error in ulp:\n", nrand,
           (unsigned long long)seed, (unsigned long long)seed);
    for (int i = 0; i < NFN; i++) {
        const fn_t *fn = &fns[i];
        stats_t *st = &results[i];
        for (int d = 0; d < 2; d++) {
            double lim = fn->bound[d] ? fn->bound[d] : 0.5;
            /* the exact ones: exactly; correctly rounded ones: 0.5 */
            CHECK(st->worst[d] <= lim,
                  "%s (%s): error %.3g ulp > %g at (%a, %a)", fn->name,
                  d ? "double" : "float", st->worst[d], lim, st->wx[d],
                  st->wy[d]);
        }
        CHECK(st->screen_gap == 0,
              "%s: the long double screen is %.3g ulp off MPFR at (%a, %a):"
              " its tolerance is too small", fn->name, st->screen_gap,
              st->gx, st->gy);
        printf("  %-10s float %.9f ulp (%ld of %ld not correctly rounded, "
               "%ld by MPFR, %.1f s)  double %.9f ulp (%ld of %ld, %ld by "
               "MPFR, %.1f s)",
               fn->name, st->worst[0], st->notcr[0], st->n[0],
               st->nmpfr[0], st->secs[0], st->worst[1], st->notcr[1],
               st->n[1], st->nmpfr[1], st->secs[1]);
        if (st->nabs[1])
            printf("; %ld double results near a zero, absolute error <= %a",
                   st->nabs[1], st->absworst[1]);
        printf("\n");
    }
}

/* ---- the exact functions with pointer or int results ---- */

/* x * y + z rounded once to double or float (denormals at their own
 * precision) by MPFR; a, b, c: scratch of any precision */
static double mpfr_fma_round(double x, double y, double z, bool dbl,
                             mpfr_ptr a, mpfr_ptr b, mpfr_ptr c)
{
    if (x != x || y != y || z != z)
        return NAN;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t r;
    mpfr_init2(r, dbl ? 53 : 24);
    mpfr_set_emin(dbl ? -1073 : -148);
    mpfr_set_emax(dbl ? 1024 : 128);
    mpfr_set_prec(a, 53), mpfr_set_prec(b, 53), mpfr_set_prec(c, 53);
    mpfr_set_d(a, x, MPFR_RNDN);
    mpfr_set_d(b, y, MPFR_RNDN);
    mpfr_set_d(c, z, MPFR_RNDN);
    int in = mpfr_fma(r, a, b, c, MPFR_RNDN);
    mpfr_subnormalize(r, in, MPFR_RNDN);
    double w = dbl ? mpfr_get_d(r, MPFR_RNDN) : mpfr_get_flt(r, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(r);
    mpfr_set_prec(a, 160), mpfr_set_prec(b, 160), mpfr_set_prec(c, 160);
    return w;
}

static void pointer_fns(void)
{
    mpfr_t a, b, c;
    mpfr_inits2(160, a, b, c, (mpfr_ptr)0);
    rng_t rg = {(12345 ^ seed * 0x9E3779B97F4A7C15u) | 1};
    for (int dbl = 0; dbl < 2; dbl++)
        for (long i = -(long)NSPEC * NSPEC; i < 200000; i++) {
            double x, y;
            if (i < 0) {
                long k = i + (long)NSPEC * NSPEC;
                x = specials[k / NSPEC], y = specials[k % NSPEC];
            } else {
                x = draw(&rg, D_ANY, dbl, 0), y = draw(&rg, D_ANY, dbl, 1);
            }
            if (!dbl)
                x = (float)x, y = (float)y;
            const int p = dbl ? 53 : 24;
            /* frexp */
            int e, we = 0;
            double m = dbl ? clvm_frexp(x, &e) : clvm_frexpf((float)x, &e);
            double wm = x;
            if (isfinite(x) && x != 0) {
                mpfr_set_d(a, x, MPFR_RNDN);
                long ee;
                mpfr_frexp(&ee, b, a, MPFR_RNDN);
                wm = mpfr_get_d(b, MPFR_RNDN), we = (int)ee;
            }
            CHECK((m == wm || (m != m && wm != wm)) && e == we &&
                      signbit(m) == signbit(wm),
                  "frexp(%a) = %a, %d; want %a, %d", x, m, e, wm, we);
            /* ilogb */
            int il = dbl ? clvm_ilogb(x) : clvm_ilogbf((float)x);
            int wil = x != x ? CLVM_FP_ILOGBNAN
                      : x == 0 ? CLVM_FP_ILOGB0
                      : isinf(x) ? 2147483647 : we - 1;
            CHECK(il == wil, "ilogb(%a) = %d, want %d", x, il, wil);
            /* modf */
            double ip, fr;
            if (dbl) {
                fr = clvm_modf(x, &ip);
            } else {
                float ipf;
                fr = clvm_modff((float)x, &ipf);
                ip = ipf;
            }
            double wip = x, wfr = x;
            if (isinf(x))
                wfr = copysign(0, x);
            else if (x == x) {
                mpfr_set_d(a, x, MPFR_RNDN);
                mpfr_modf(b, c, a, MPFR_RNDN);
                wip = mpfr_get_d(b, MPFR_RNDN), wfr = mpfr_get_d(c, MPFR_RNDN);
            }
            CHECK((x != x && ip != ip && fr != fr) ||
                      (dbits(ip) == dbits(wip) && dbits(fr) == dbits(wfr)),
                  "modf(%a) = %a, %a; want %a, %a", x, fr, ip, wfr, wip);
            /* fract: min(x - floor(x), 1 - ulp), floor(x) in *ip */
            double fl;
            if (dbl) {
                fr = clvm_fract(x, &fl);
            } else {
                float flf;
                fr = clvm_fractf((float)x, &flf);
                fl = flf;
            }
            double wfl = floor(x), wfrc;
            if (x != x)
                wfrc = x;
            else if (isinf(x))
                wfrc = copysign(0, x);
            else if (x == 0)
                wfrc = x;
            else {
                mpfr_set_d(a, x, MPFR_RNDN);
                mpfr_floor(b, a);
                mpfr_sub(c, a, b, MPFR_RNDN);
                mpfr_prec_round(c, p, MPFR_RNDN);
                wfrc = mpfr_get_d(c, MPFR_RNDN);
                double top = dbl ? 0x1.fffffffffffffp-1 : 0x1.fffffep-1;
                if (wfrc > top)
                    wfrc = top;
            }
            CHECK((x != x && fr != fr && fl != fl) ||
                      (dbits(fr) == dbits(wfrc) && dbits(fl) == dbits(wfl)),
                  "fract(%a) = %a, %a; want %a, %a", x, fr, fl, wfrc, wfl);
            /* remquo: the remainder exactly, quo's sign and low 7 bits */
            int q;
            double rq = dbl ? clvm_remquo(x, y, &q)
                            : clvm_remquof((float)x, (float)y, &q);
            if (x != x || y != y || isinf(x) || y == 0) {
                CHECK(rq != rq && q == 0, "remquo(%a, %a) = %a, %d", x, y,
                      rq, q);
            } else {
                long wq;
                mpfr_set_d(a, x, MPFR_RNDN);
                mpfr_set_d(b, y, MPFR_RNDN);
                mpfr_remquo(c, &wq, a, b, MPFR_RNDN);
                double wr = mpfr_get_d(c, MPFR_RNDN);
                long aq = wq < 0 ? -wq : wq;
                int want = (int)(aq & 0x7f) * (wq < 0 ? -1 : 1);
                bool qok = q == want || (want == 0 && (q == 0));
                if ((aq & 0x7f) && wq == 0)
                    qok = true;
                CHECK(dbits(rq) == dbits(wr) && qok,
                      "remquo(%a, %a) = %a, %d; want %a, %d", x, y, rq, q, wr,
                      want);
            }
            /* sincos: sin's and cos's bits */
            if (dbl) {
                double sn, cs;
                clvm_sincos(x, &sn, &cs);
                double ws = clvm_sin(x), wc = clvm_cos(x);
                CHECK((sn != sn && ws != ws) || dbits(sn) == dbits(ws),
                      "sincos(%a) sin", x);
                CHECK((cs != cs && wc != wc) || dbits(cs) == dbits(wc),
                      "sincos(%a) cos", x);
            } else {
                float sn, cs;
                clvm_sincosf((float)x, &sn, &cs);
                float ws = clvm_sinf((float)x), wc = clvm_cosf((float)x);
                CHECK((sn != sn && ws != ws) || sn == ws || (sn == 0 && ws == 0),
                      "sincosf(%a)", x);
                CHECK((cs != cs && wc != wc) || cs == wc, "sincosf(%a)", x);
            }
        }
    /* fma: correctly rounded, against MPFR, both types */
    for (int dbl = 0; dbl < 2; dbl++)
        for (long i = 0; i < 300000; i++) {
            double x = draw(&rg, D_ANY, dbl, 0), y = draw(&rg, D_ANY, dbl, 0),
                   z = draw(&rg, D_ANY, dbl, 0);
            if (i % 3 == 0) /* cancellation: z near -x*y */
                z = -x * y * (1 + (double)((int)(rnd(&rg) % 5) - 2) * 0x1p-50);
            if (i < NSPEC * NSPEC)
                x = specials[i / NSPEC], y = specials[i % NSPEC],
                z = specials[(i * 7) % NSPEC];
            if (!dbl)
                x = (float)x, y = (float)y, z = (float)z;
            double got = dbl ? clvm_fma(x, y, z)
                             : clvm_fmaf((float)x, (float)y, (float)z);
            double want = mpfr_fma_round(x, y, z, dbl, a, b, c);
            CHECK((got != got && want != want) || dbits(got) == dbits(want),
                  "fma%s(%a, %a, %a) = %a, want %a", dbl ? "" : "f", x, y, z,
                  got, want);
        }
    mpfr_clears(a, b, c, (mpfr_ptr)0);
}

/* lgamma_r: lgamma's value, and gamma's sign as MPFR gives it (0 at the
 * poles, NaN and -inf: OpenCL C says 0 for zero and negative integers) */
static void lgamma_sign(void)
{
    mpfr_t a, b;
    mpfr_inits2(64, a, b, (mpfr_ptr)0);
    rng_t rg = {(777 ^ seed * 0x9E3779B97F4A7C15u) | 1};
    for (int dbl = 0; dbl < 2; dbl++)
        for (long i = -(long)NSPEC; i < 100000; i++) {
            double x = i < 0 ? specials[i + NSPEC] : draw(&rg, D_GAM, dbl, 0);
            if (!dbl)
                x = (float)x;
            int sg, want = 0;
            double v = dbl ? clvm_lgamma_r(x, &sg)
                           : clvm_lgammaf_r((float)x, &sg);
            double w = dbl ? clvm_lgamma(x) : clvm_lgammaf((float)x);
            if (x == x && x != -INFINITY && !(x <= 0 && x == floor(x))) {
                mpfr_set_d(a, x, MPFR_RNDN);
                mpfr_lgamma(b, &want, a, MPFR_RNDN);
            }
            CHECK(sg == want && (dbits(v) == dbits(w) || (v != v && w != w)),
                  "lgamma%s_r(%a) = %a, sign %d; want %a, sign %d",
                  dbl ? "" : "f", x, v, sg, w, want);
        }
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* double lgamma around its first four zeros on the negative axis, where
 * its error is absolute (OpenCL: undefined), and float lgamma there */
static void lgamma_zeros(void)
{
    static const double z[] = {-2.4570247382208006, -2.7476826467274127,
                               -3.1435808883499800, -3.9552942848585466};
    mpfr_t r, x, t;
    mpfr_inits2(200, r, x, t, (mpfr_ptr)0);
    double wulp = 0, wabs = 0, wf = 0;
    for (int k = 0; k < 4; k++)
        for (int i = -1500; i < 1500; i++) {
            double xd = z[k] + i * 0x1p-50;
            int sg;
            mpfr_set_d(x, xd, MPFR_RNDN);
            mpfr_lgamma(r, &sg, x, MPFR_RNDN);
            double got = clvm_lgamma(xd);
            mpfr_set_d(t, got, MPFR_RNDN);
            mpfr_sub(t, t, r, MPFR_RNDN);
            double ae = fabs(mpfr_get_d(t, MPFR_RNDN));
            double e = ulp_err(got, r, &FD, t);
            wabs = ae > wabs ? ae : wabs;
            wulp = e > wulp ? e : wulp;
            CHECK(ae <= ABS_LGAMMA, "lgamma(%a) = %a: absolute error %g", xd,
                  got, ae);
            float xf = (float)z[k] + (float)i * 0x1p-21f;
            mpfr_set_d(x, xf, MPFR_RNDN);
            mpfr_lgamma(r, &sg, x, MPFR_RNDN);
            e = ulp_err(clvm_lgammaf(xf), r, &FF, t);
            wf = e > wf ? e : wf;
        }
    CHECK(wf <= 0.5, "lgammaf near its zeros: %g ulp", wf);
    printf("libm: lgamma near its first negative zeros: double %.3g ulp, "
           "absolute error %.3g (2^%.1f); float %.9f ulp\n", wulp, wabs,
           log2(wabs), wf);
    mpfr_clears(r, x, t, (mpfr_ptr)0);
}

/* ---- no call into the host's libm ---- */

static const char *build_dir = "build";

/* a <math.h> function, under any of its names (f/l suffix, glibc's
 * __NAME_finite and __NAME aliases)? */
static bool is_libm(const char *sym)
{
    static const char *const base[] = {
        "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh",
        "asinh", "atanh", "cosh", "sinh", "tanh", "exp", "exp2", "exp10",
        "expm1", "frexp", "ilogb", "ldexp", "log", "log10", "log1p", "log2",
        "logb", "modf", "scalbn", "scalbln", "cbrt", "fabs", "hypot", "pow",
        "pow10", "sqrt", "erf", "erfc", "lgamma", "lgamma_r", "tgamma",
        "gamma", "ceil", "floor", "nearbyint", "rint", "lrint", "llrint",
        "round", "lround", "llround", "trunc", "fmod", "remainder", "remquo",
        "copysign", "nan", "nextafter", "nexttoward", "fdim", "fmax", "fmin",
        "fma", "sincos", "significand", "drem", "j0", "j1", "jn", "y0", "y1",
        "yn", NULL};
    char b[64];
    while (*sym == '_')
        sym++;
    snprintf(b, sizeof b, "%s", sym);
    char *fin = strstr(b, "_finite");
    if (fin)
        *fin = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; base[i]; i++)
            if (!strcmp(b, base[i]))
                return true;
        size_t n = strlen(b);
        if (n > 1 && (b[n - 1] == 'f' || b[n - 1] == 'l'))
            b[n - 1] = 0;
        else
            break;
    }
    return false;
}

/* every object of the library (BUILD/libclvm.a: stdlib, vm, asm, tools),
 * so no built-in, no VM operation (fma) and no other code reaches the
 * host's libm */
static void no_host_libm(void)
{
    CHECK(is_libm("expf") && is_libm("__exp_finite") && is_libm("sincosl") &&
              is_libm("fma") && is_libm("fmaf") && !is_libm("clvm_exp") &&
              !is_libm("memcpy") && !is_libm("expo"),
          "is_libm");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "nm -u -A %s/libclvm.a 2>/dev/null", build_dir);
    FILE *p = popen(cmd, "r");
    if (!p) {
        t_skip("cannot run nm");
        return;
    }
    char line[512];
    int nobj = 0, nsym = 0;
    char last[300] = "";
    while (fgets(line, sizeof line, p)) {
        /* "ARCHIVE:MEMBER:                 U SYMBOL" */
        char obj[300], sym[200];
        if (sscanf(line, "%299[^ ] U %199s", obj, sym) != 2)
            continue;
        if (strcmp(obj, last)) {
            nobj++;
            snprintf(last, sizeof last, "%s", obj);
        }
        nsym++;
        CHECK(!is_libm(sym), "%s calls the host's %s", obj, sym);
    }
    int rc = pclose(p);
    if (rc != 0 || nobj < 20) {
        t_skip("nm -u -A %s/libclvm.a failed (%d objects)", build_dir, nobj);
        return;
    }
    (void)nsym;
}

int main(int argc, char **argv)
{
    /* BUILD/tests/test_libm: the objects are in BUILD/obj */
    static char dir[512];
    if (argc > 0 && strlen(argv[0]) < sizeof dir) {
        strcpy(dir, argv[0]);
        char *sl = strrchr(dir, '/');
        if (sl) {
            *sl = 0;
            sl = strrchr(dir, '/');
            if (sl) {
                *sl = 0;
                build_dir = dir;
            } else {
                build_dir = ".";
            }
        }
    }
    const char *sd = getenv("LIBM_SEED");
    if (sd && *sd)
        seed = strtoull(sd, NULL, 0);
    else
        seed = ((uint64_t)time(NULL) * 2654435761u ^ (uint64_t)clock()) % 1000000007u;
    RUN(no_host_libm);
    RUN(pointer_fns);
    RUN(lgamma_sign);
    RUN(lgamma_zeros);
    RUN(accuracy);
    return t_summary("libm");
}
