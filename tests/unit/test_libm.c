/* stdlib/libm: every function, float and double, against MPFR (128 bits,
 * rounded to nearest) over the special values (signed zeros, denormals,
 * FLT_MIN/DBL_MIN, +-1, infinities, NaN, near multiples of pi/2, huge
 * arguments, integers and half-integers for the powers, the edges of
 * overflow and underflow) and 2^20 random inputs per function and type
 * (fixed seed): the error, in ulp as OpenCL defines it, within the bound
 * OpenCL C 1.2 allows (full profile) and within what docs/semantics.md
 * claims. LIBM_VERBOSE=1 prints the largest error per function and how
 * many results were not correctly rounded. LIBM_N overrides the count.
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
__attribute__((unused)) static uint64_t dbits(double d)
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
} fn_t;

/* MPFR references not in MPFR under OpenCL's name */
static int r_rsqrt(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    if (mpfr_zero_p(x)) { /* rsqrt(+-0) = +-inf (MPFR gives +inf) */
        mpfr_set_inf(r, mpfr_signbit(x) ? -1 : 1);
        return 0;
    }
    return mpfr_rec_sqrt(r, x, m);
}
static int r_logb(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    if (mpfr_nan_p(x))
        return mpfr_set(r, x, m);
    if (mpfr_inf_p(x)) {
        mpfr_set_inf(r, 1);
        return 0;
    }
    if (mpfr_zero_p(x)) {
        mpfr_set_inf(r, -1);
        return 0;
    }
    return mpfr_set_si(r, mpfr_get_exp(x) - 1, m);
}
static int r_round(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    (void)m;
    return mpfr_round(r, x);
}
static int r_floor(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    (void)m;
    return mpfr_floor(r, x);
}
static int r_ceil(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    (void)m;
    return mpfr_ceil(r, x);
}
static int r_trunc(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    (void)m;
    return mpfr_trunc(r, x);
}
static int r_rint(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    return mpfr_rint(r, x, m);
}
__attribute__((unused)) static int r_lgamma(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    int s;
    return mpfr_lgamma(r, &s, x, m);
}
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
static double copysign_y;
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

#define F1(n, dom, bf, bd, ref)                                             \
    {#n, K1, dom, {bf, bd}, clvm_##n, clvm_##n##f, 0, 0, 0, 0, ref, 0, 0}
#define F2(n, dom, bf, bd, ref)                                             \
    {#n, K2, dom, {bf, bd}, 0, 0, clvm_##n, clvm_##n##f, 0, 0, 0, ref, 0}
#define FI(n, dom, bf, bd, ref)                                             \
    {#n, KI, dom, {bf, bd}, 0, 0, 0, 0, clvm_##n, clvm_##n##f, 0, 0, ref}

static const fn_t fns[] = {
    F1(exp, D_EXP, 3, 3, mpfr_exp),
    F1(exp2, D_EXP, 3, 3, mpfr_exp2),
    F1(exp10, D_EXP, 3, 3, mpfr_exp10),
    F1(expm1, D_EXP, 3, 3, mpfr_expm1),
    F1(log, D_POS, 3, 3, mpfr_log),
    F1(log2, D_POS, 3, 3, mpfr_log2),
    F1(log10, D_POS, 3, 3, mpfr_log10),
    F1(log1p, D_M1, 2, 2, mpfr_log1p),
    F1(sqrt, D_POS, 3, 0, mpfr_sqrt),
    F1(cbrt, D_ANY, 2, 2, mpfr_cbrt),
    F1(rsqrt, D_POS, 2, 2, r_rsqrt),
    F1(sin, D_TRIG, 4, 4, mpfr_sin),
    F1(cos, D_TRIG, 4, 4, mpfr_cos),
    F1(tan, D_TRIG, 5, 5, mpfr_tan),
    F1(asin, D_UNIT, 4, 4, mpfr_asin),
    F1(acos, D_UNIT, 4, 4, mpfr_acos),
    F1(atan, D_ANY, 5, 5, mpfr_atan),
    F1(sinh, D_HYP, 4, 4, mpfr_sinh),
    F1(cosh, D_HYP, 4, 4, mpfr_cosh),
    F1(tanh, D_HYP, 5, 5, mpfr_tanh),
    F1(asinh, D_ANY, 4, 4, mpfr_asinh),
    F1(acosh, D_GE1, 4, 4, mpfr_acosh),
    F1(atanh, D_UNIT, 5, 5, mpfr_atanh),
    F1(sinpi, D_SMALL, 4, 4, mpfr_sinpi),
    F1(cospi, D_SMALL, 4, 4, mpfr_cospi),
    F1(tanpi, D_SMALL, 6, 6, mpfr_tanpi),
    F1(asinpi, D_UNIT, 5, 5, mpfr_asinpi),
    F1(acospi, D_UNIT, 5, 5, mpfr_acospi),
    F1(atanpi, D_ANY, 5, 5, mpfr_atanpi),
    F1(floor, D_SMALL, 0, 0, r_floor),
    F1(ceil, D_SMALL, 0, 0, r_ceil),
    F1(trunc, D_SMALL, 0, 0, r_trunc),
    F1(round, D_SMALL, 0, 0, r_round),
    F1(rint, D_SMALL, 0, 0, r_rint),
    F1(logb, D_ANY, 0, 0, r_logb),
    F2(pow, D_POW, 16, 16, mpfr_pow),
    F2(powr, D_POW, 16, 16, r_powr),
    F2(hypot, D_ANY, 4, 4, mpfr_hypot),
    F2(atan2, D_ANY, 6, 6, mpfr_atan2),
    F2(atan2pi, D_ANY, 6, 6, mpfr_atan2pi),
    F2(fmod, D_ANY, 0, 0, r_fmod),
    F2(remainder, D_ANY, 0, 0, r_remainder),
    F2(copysign, D_ANY, 0, 0, r_copysign),
    F2(fdim, D_ANY, 0, 0, r_fdim),
    F2(maxmag, D_ANY, 0, 0, r_maxmag),
    F2(minmag, D_ANY, 0, 0, r_minmag),
    FI(pown, D_POW, 16, 16, r_pown),
    FI(rootn, D_POW, 16, 16, r_rootn),
    FI(ldexp, D_ANY, 0, 0, r_ldexp),
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
    default: return unif(r, -1, 1);
    }
}

/* ---- the error of one result ---- */

typedef struct {
    int p, emin, emax;
    double max;
} fmt_t;
static const fmt_t FF = {24, -126, 127, FLT_MAX}, FD = {53, -1022, 1023, DBL_MAX};

/* |got - ref| in ulp of ref (OpenCL's ulp); INFINITY for a wrong special
 * value or wrong sign of zero */
static double ulp_err(double got, mpfr_srcptr ref, const fmt_t *f, mpfr_ptr t)
{
    if (mpfr_nan_p(ref))
        return got != got ? 0 : INFINITY;
    if (got != got)
        return INFINITY;
    if (mpfr_inf_p(ref)) {
        if (got == (mpfr_signbit(ref) ? -INFINITY : INFINITY))
            return 0;
        return INFINITY;
    }
    if (mpfr_zero_p(ref)) {
        if (got == 0)
            return signbit(got) == (mpfr_signbit(ref) != 0) ? 0 : INFINITY;
        mpfr_set_d(t, got, MPFR_RNDN);
        mpfr_mul_2si(t, t, f->p - 1 - f->emin, MPFR_RNDN);
        return fabs(mpfr_get_d(t, MPFR_RNDN));
    }
    /* ulp of ref: 2^(max(e, emin) - p + 1), e = floor(log2 |ref|);
     * beyond the largest finite, that of the largest */
    long e = mpfr_get_exp(ref) - 1;
    if (e < f->emin)
        e = f->emin;
    if (e > f->emax)
        e = f->emax;
    if (isinf(got)) {
        /* overflow: as if got were 2^(emax+1), the next number after the
         * largest finite one; past that, infinity is the right rounding */
        if ((got < 0) != (mpfr_signbit(ref) != 0))
            return INFINITY;
        mpfr_set_ui_2exp(t, 1, f->emax + 1, MPFR_RNDN);
        if (mpfr_cmpabs(ref, t) >= 0)
            return 0;
        if (got < 0)
            mpfr_neg(t, t, MPFR_RNDN);
    } else {
        mpfr_set_d(t, got, MPFR_RNDN);
    }
    mpfr_sub(t, t, ref, MPFR_RNDN);
    mpfr_mul_2si(t, t, f->p - 1 - e, MPFR_RNDN);
    return fabs(mpfr_get_d(t, MPFR_RNDN));
}

/* ---- running one function ---- */

typedef struct {
    double worst[2];
    double wx[2], wy[2];
    long n[2], notcr[2];
} stats_t;

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

static long nrand = 1 << 14;

static void one(const fn_t *fn, stats_t *st, bool dbl)
{
    const fmt_t *f = dbl ? &FD : &FF;
    mpfr_t r, mx, my, t;
    mpfr_inits2(160, r, mx, my, t, (mpfr_ptr)0);
    rng_t rg = {0x9E3779B97F4A7C15u ^ (uint64_t)(fn - fns) * 7919 ^ (dbl ? 77 : 0)};
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
        ref_of(fn, r, mx, my, x, y, n);
        double got = got_of(fn, dbl, x, y, n);
        double e = ulp_err(got, r, f, t);
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
        one(&fns[j / 2], &results[j / 2], j % 2);
    }
    mpfr_free_cache();
    return NULL;
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
    bool verbose = getenv("LIBM_VERBOSE") != NULL;
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
        if (verbose)
            printf("  %-10s float %.4f ulp (%ld of %ld not correctly rounded)"
                   "  double %.4f ulp (%ld of %ld)\n",
                   fn->name, st->worst[0], st->notcr[0], st->n[0],
                   st->worst[1], st->notcr[1], st->n[1]);
    }
}

int main(void)
{
    RUN(accuracy);
    return t_summary("libm");
}
