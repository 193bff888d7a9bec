/* Every float bit pattern through every one-argument float function of
 * stdlib/libm (clvm_NAMEf), checked for correct rounding.
 *
 * The host's double function (or an exact reduction around it) screens:
 * its error is below a few ulp of double, 2^-26 of a float ulp, so when
 * the interval v (1 +- 2^-44) around the host's value rounds to one float,
 * that float is the correctly rounded result and ours must equal it bit
 * for bit. Otherwise (near a halfway point, or ours differs, or the
 * special values disagree) MPFR decides: the exact value to 128 bits, our
 * error in ulp as OpenCL defines it. Every error is an MPFR verdict.
 *
 * usage: exhaustive-libm [-j THREADS] [-s STRIDE] [NAME...]
 *   default: all functions, every float (stride 1), one thread per CPU.
 * Prints per function: inputs, not correctly rounded, largest error,
 * how many MPFR decided, seconds. Exit status 1 if any error exceeds
 * OpenCL's bound. */
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stdlib/libm.h"
#include "tests/unit/libm_ref.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const double PI_D = 3.141592653589793;

/* host screens for the *pi functions: reduce exactly, then the host */
static double h_sinpi(double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    if (fabs(x) >= 0x1p52)
        return copysign(0, x);
    double r = x - 2 * rint(x / 2); /* exact, in [-1, 1] */
    double s = 1;
    if (r < 0)
        r = -r, s = -1;
    if (r > 0.5)
        r = 1 - r; /* exact */
    if (r == 0)
        return copysign(0, x);
    return s * sin(PI_D * r);
}
static double h_cospi(double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    double a = fabs(x);
    if (a >= 0x1p53)
        return 1;
    double r = a - 2 * rint(a / 2); /* [-1, 1] */
    r = fabs(r);
    double s = 1;
    if (r > 0.5)
        r = 1 - r, s = -1; /* cos(pi (1 - r)) = -cos(pi r) */
    if (r == 0.5)
        return 0;
    return s * (r < 0.25 ? cos(PI_D * r) : sin(PI_D * (0.5 - r)));
}
static double h_tanpi(double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    double r = x - rint(x); /* [-0.5, 0.5] */
    if (r == 0.5 || r == -0.5) {
        /* x = n + 0.5: +inf for even n */
        double n = x - 0.5;
        return fmod(n, 2) == 0 ? INFINITY : -INFINITY;
    }
    if (r == 0)
        return fmod(x, 2) == 0 ? copysign(0, x) : copysign(0, -x);
    if (fabs(r) <= 0.25)
        return tan(PI_D * r);
    double t = r > 0 ? 0.5 - r : -0.5 - r; /* exact */
    return 1 / tan(PI_D * t);
}
static double h_asinpi(double x) { return asin(x) / PI_D; }
static double h_acospi(double x) { return acos(x) / PI_D; }
static double h_atanpi(double x) { return atan(x) / PI_D; }
static double h_rsqrt(double x) { return 1 / sqrt(x); }

static double h_lgamma(double x)
{
    int s; /* lgamma_r: no global signgam write from the threads */
    return lgamma_r(x, &s);
}

typedef struct {
    const char *name;
    float (*ours)(float);
    double (*host)(double);
    int (*ref)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
    double bound; /* OpenCL's, ulp (0: exact / correctly rounded) */
} fn_t;

#define F(n, h, r, b) {#n, clvm_##n##f, h, r, b}
static const fn_t fns[] = {
    F(exp, exp, mpfr_exp, 3),        F(exp2, exp2, mpfr_exp2, 3),
    F(exp10, exp10, mpfr_exp10, 3),  F(expm1, expm1, mpfr_expm1, 3),
    F(log, log, mpfr_log, 3),        F(log2, log2, mpfr_log2, 3),
    F(log10, log10, mpfr_log10, 3),  F(log1p, log1p, mpfr_log1p, 2),
    F(sqrt, sqrt, mpfr_sqrt, 3),     F(cbrt, cbrt, mpfr_cbrt, 2),
    F(rsqrt, h_rsqrt, r_rsqrt, 2),   F(sin, sin, mpfr_sin, 4),
    F(cos, cos, mpfr_cos, 4),        F(tan, tan, mpfr_tan, 5),
    F(asin, asin, mpfr_asin, 4),     F(acos, acos, mpfr_acos, 4),
    F(atan, atan, mpfr_atan, 5),     F(sinh, sinh, mpfr_sinh, 4),
    F(cosh, cosh, mpfr_cosh, 4),     F(tanh, tanh, mpfr_tanh, 5),
    F(asinh, asinh, mpfr_asinh, 4),  F(acosh, acosh, mpfr_acosh, 4),
    F(atanh, atanh, mpfr_atanh, 5),  F(sinpi, h_sinpi, mpfr_sinpi, 4),
    F(cospi, h_cospi, mpfr_cospi, 4), F(tanpi, h_tanpi, mpfr_tanpi, 6),
    F(asinpi, h_asinpi, mpfr_asinpi, 5), F(acospi, h_acospi, mpfr_acospi, 5),
    F(atanpi, h_atanpi, mpfr_atanpi, 5), F(floor, floor, r_floor, 0),
    F(ceil, ceil, r_ceil, 0),        F(trunc, trunc, r_trunc, 0),
    F(round, round, r_round, 0),     F(rint, rint, mpfr_rint, 0),
    F(logb, logb, r_logb, 0),        F(erf, erf, mpfr_erf, 16),
    F(erfc, erfc, mpfr_erfc, 16),    F(tgamma, tgamma, mpfr_gamma, 16),
    /* OpenCL: undefined; checked like the others */
    F(lgamma, h_lgamma, r_lgamma, 16),
};
enum { NFN = sizeof fns / sizeof fns[0] };

/* our error in float ulp (OpenCL's ulp), by MPFR; INFINITY for a wrong
 * special value */
static double mpfr_err(const fn_t *fn, float x, float got, mpfr_ptr r,
                       mpfr_ptr t)
{
    mpfr_set_d(t, x, MPFR_RNDN);
    fn->ref(r, t, MPFR_RNDN);
    return ulp_err(got, r, &FF, t);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

enum { BLOCK = 1 << 16 };
static const fn_t *cur;
static uint64_t stride = 1, nblocks;
static atomic_uint_fast64_t next_block, n_notcr, n_mpfr, n_in;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double worst;
static uint32_t worst_x;

static void *worker(void *arg)
{
    (void)arg;
    mpfr_t r, t;
    mpfr_inits2(128, r, t, (mpfr_ptr)0);
    double myworst = 0;
    uint32_t mywx = 0;
    uint64_t notcr = 0, nm = 0, nin = 0;
    for (;;) {
        uint64_t b = atomic_fetch_add(&next_block, 1);
        if (b >= nblocks)
            break;
        for (uint64_t k = 0; k < BLOCK; k++) {
            uint64_t i = (b * BLOCK + k) * stride;
            if (i > UINT32_MAX)
                break;
            uint32_t xb = (uint32_t)i;
            float x;
            memcpy(&x, &xb, 4);
            nin++;
            float got = cur->ours(x);
            double h = cur->host(x);
            bool decided = false;
            if (h == h && !isinf(h) && h != 0) {
                float lo = (float)(h * (1 - 0x1p-44)),
                      hi = (float)(h * (1 + 0x1p-44));
                if (lo == hi && fbits(lo) == fbits(got))
                    decided = true;
            } else if (h != h) {
                decided = got != got;
            } else if (fbits((float)h) == fbits(got)) {
                decided = true; /* the same infinity or signed zero */
            }
            if (decided)
                continue;
            nm++;
            double e = mpfr_err(cur, x, got, r, t);
            if (e > 0.5)
                notcr++;
            if (e > myworst || e != e)
                myworst = e, mywx = xb;
        }
    }
    pthread_mutex_lock(&lock);
    if (myworst > worst) {
        worst = myworst;
        worst_x = mywx;
    }
    pthread_mutex_unlock(&lock);
    atomic_fetch_add(&n_notcr, notcr);
    atomic_fetch_add(&n_mpfr, nm);
    atomic_fetch_add(&n_in, nin);
    mpfr_clears(r, t, (mpfr_ptr)0);
    mpfr_free_cache();
    return NULL;
}

int main(int argc, char **argv)
{
    long nth = sysconf(_SC_NPROCESSORS_ONLN);
    const char *only[NFN];
    int nonly = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-j") && i + 1 < argc)
            nth = atol(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            stride = strtoull(argv[++i], NULL, 0);
        else if (nonly < NFN)
            only[nonly++] = argv[i];
    }
    if (nth < 1)
        nth = 1;
    if (nth > 256)
        nth = 256;
    if (stride < 1)
        stride = 1;
    uint64_t count = (UINT64_C(0xffffffff) / stride) + 1;
    nblocks = (count + BLOCK - 1) / BLOCK;
    int bad = 0;
    double t_all = now();
    printf("exhaustive-libm: %llu floats per function, stride %llu, %ld threads\n",
           (unsigned long long)count, (unsigned long long)stride, nth);
    for (int f = 0; f < NFN; f++) {
        bool want = nonly == 0;
        for (int k = 0; k < nonly; k++)
            want |= !strcmp(only[k], fns[f].name);
        if (!want)
            continue;
        cur = &fns[f];
        atomic_store(&next_block, 0);
        atomic_store(&n_notcr, 0);
        atomic_store(&n_mpfr, 0);
        atomic_store(&n_in, 0);
        worst = 0, worst_x = 0;
        double t0 = now();
        pthread_t th[256];
        for (long i = 0; i < nth; i++)
            pthread_create(&th[i], NULL, worker, NULL);
        for (long i = 0; i < nth; i++)
            pthread_join(th[i], NULL);
        double lim = fns[f].bound ? fns[f].bound : 0.5;
        bool ok = worst <= lim;
        float wx;
        memcpy(&wx, &worst_x, 4);
        printf("%-7s %llu inputs, %llu not correctly rounded, max error %.6f ulp"
               " (at %a), %llu decided by MPFR, %.0f s%s\n",
               fns[f].name, (unsigned long long)atomic_load(&n_in),
               (unsigned long long)atomic_load(&n_notcr), worst, (double)wx,
               (unsigned long long)atomic_load(&n_mpfr), now() - t0,
               ok ? "" : "  OVER OPENCL'S BOUND");
        fflush(stdout);
        bad |= !ok;
    }
    printf("exhaustive-libm: %s, %.0f s\n", bad ? "FAILED" : "ok", now() - t_all);
    return bad;
}
