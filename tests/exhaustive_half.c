/* Half arithmetic (cl_khr_fp16) checked on every input: every half through
 * every conversion from half (each destination, _sat, mode) and from the
 * 8- and 16-bit integers to half, against the exact reference of
 * tests/lib/ref.c; every half through every one-operand function of the
 * math table at half, against MPFR (the exact value to 128 bits, the
 * error in half ulps within the table's half bound); and every pair of
 * halves (2^32) bit for bit through + - * (the exact value in double,
 * rounded by tests/lib/ref.c), / and, on an eighth of the pairs, fma
 * with c from a fixed set (MPFR
 * rounding to 11 bits in half's exponent range, denormals included), and
 * the comparisons (against the exact values).
 *
 * usage: exhaustive-half [-j THREADS] [-s STRIDE] [unary|binary]...
 *   STRIDE steps the first operand of the binary sweep (1: all 2^32
 *   pairs). Exit status 1 on any mismatch. */
#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stdlib/convert.h"
#include "stdlib/half.h"
#include "stdlib/mathfn.h"
#include "tests/lib/ref.h"
#include "tests/unit/half_ref.h"

enum { SHOW = 10 };
static atomic_uint_fast64_t bad;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
    if (atomic_fetch_add(&bad, 1) >= SHOW)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&out_lock);
    fputs("MISMATCH ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    pthread_mutex_unlock(&out_lock);
    va_end(ap);
}

/* ---- conversions ---- */

static void conversions(void)
{
    static const enum rnd modes[] = {RND_RTE, RND_RTZ, RND_RTP, RND_RTN};
    static uint16_t src[65536];
    static unsigned char got[65536 * 8], want[8];
    for (unsigned i = 0; i < 65536; i++)
        src[i] = (uint16_t)i;
    uint64_t n = 0;
    for (int d = 0; d < TY_NSCALAR; d++)
        for (int sat = 0; sat < 2; sat++)
            for (int r = 0; r < 4; r++) {
                enum ty_scalar t = (enum ty_scalar)d;
                if (!cv_legal(t, sat))
                    continue;
                cv_fn fn = cv_lookup(t, TY_HALF, sat, modes[r]);
                unsigned sz = ty_scalar_size(t);
                fn(got, src, 65536);
                for (unsigned i = 0; i < 65536; i++, n++) {
                    ref_convert(t, TY_HALF, &src[i], want, sat, modes[r]);
                    if (!ref_same(t, TY_HALF, want, got + i * sz))
                        report("convert_%s%s_%s(half 0x%04x): want 0x%llx, "
                               "got 0x%llx", ty_scalar_name(t),
                               sat ? "_sat" : "", rnd_name(modes[r]), i,
                               (unsigned long long)ref_bits(t, want),
                               (unsigned long long)ref_bits(t, got + i * sz));
                }
            }
    /* to half from every char, uchar, short, ushort */
    static const enum ty_scalar from[] = {TY_CHAR, TY_UCHAR, TY_SHORT,
                                          TY_USHORT};
    for (unsigned k = 0; k < 4; k++)
        for (int r = 0; r < 4; r++) {
            unsigned sz = ty_scalar_size(from[k]), cnt = 1u << (8 * sz);
            cv_fn fn = cv_lookup(TY_HALF, from[k], false, modes[r]);
            fn(got, src, cnt); /* the low cnt bit patterns of src */
            for (unsigned i = 0; i < cnt; i++, n++) {
                unsigned char s[2];
                memcpy(s, (const unsigned char *)src + i * sz, sz);
                ref_convert(TY_HALF, from[k], s, want, false, modes[r]);
                if (!ref_same(TY_HALF, from[k], want, got + 2 * i))
                    report("convert_half_%s(%s 0x%x)", rnd_name(modes[r]),
                           ty_scalar_name(from[k]), i);
            }
        }
    printf("conversions: %llu checked\n", (unsigned long long)n);
}

/* ---- one-operand functions ---- */


static void unary_fns(void)
{
    static uint16_t src[65536], got[65536];
    mpfr_t x, r, t;
    mpfr_inits2(128, x, r, t, (mpfr_ptr)0);
    for (unsigned i = 0; i < 65536; i++)
        src[i] = (uint16_t)i;
    for (unsigned k = 0; k < NUNARY; k++) {
        enum mathfn f = unary[k].f;
        double t0 = now(), worst = 0, bound = mathfns[f].bound[2];
        unsigned notcr = 0, worst_at = 0;
        mathfn_run(f, TY_HALF, got, src, NULL, NULL, 65536, false);
        for (unsigned i = 0; i < 65536; i++) {
            mpfr_set_d(x, half_to_double(src[i]), MPFR_RNDN);
            unary[k].ref(r, x, MPFR_RNDN);
            double e = ulp_err(half_to_double(got[i]), r, &FH, t);
            if (e > 0.5)
                notcr++;
            if (e > worst)
                worst = e, worst_at = i;
            if (e > bound)
                report("%s(half 0x%04x) = 0x%04x: %.3g ulp > %g",
                       mathfns[f].name, i, got[i], e, bound);
        }
        printf("%-10s 65536 halves: %5u not correctly rounded, largest "
               "error %.3g ulp (at 0x%04x), bound %g, %.2f s\n",
               mathfns[f].name, notcr, worst, worst_at, bound, now() - t0);
    }
    mpfr_clears(x, r, t, (mpfr_ptr)0);
}

/* The other one-operand functions on every half: the tests against the
 * bits themselves, sign, ilogb, frexp, modf and fract by exact identities
 * in double, sincos against MPFR within its half bound. */
static void other_unary(void)
{
    static const enum mathfn tests[] = {MF_ISNAN, MF_ISINF, MF_ISFINITE,
                                        MF_SIGNBIT, MF_ISNORMAL};
    uint64_t n = 0;
    mpfr_t x, r, t;
    mpfr_inits2(128, x, r, t, (mpfr_ptr)0);
    for (unsigned i = 0; i < 65536; i++, n++) {
        uint16_t h = (uint16_t)i, m[5];
        unsigned e = h >> 10 & 31, f = h & 0x3ff;
        bool want[5] = {e == 31 && f, e == 31 && !f, e != 31, h >> 15,
                        e != 0 && e != 31};
        for (unsigned k = 0; k < 5; k++) {
            mathfn_run(tests[k], TY_HALF, &m[k], &h, NULL, NULL, 1, true);
            if (m[k] != (want[k] ? 0xffff : 0))
                report("%s(half 0x%04x) = 0x%04x", mathfns[tests[k]].name, h,
                       m[k]);
        }
        double v = half_to_double(h), a, b;
        uint16_t g, g2;
        int ie;
        ty_t t1 = {TY_HALF, 1};
        mathfn_run(MF_SIGN, TY_HALF, &g, &h, NULL, NULL, 1, false);
        a = half_to_double(g);
        if (v == v && (v > 0 ? a != 1 : v < 0 ? a != -1
                       : g != h) && !(e == 31 && f))
            report("sign(half 0x%04x) = 0x%04x", h, g);
        if (v != v || v - v != 0)
            continue; /* the identities below are for finite values */
        mathfn_one(MF_ILOGB, t1, 0, false, &ie, &h, NULL, NULL);
        if (v != 0 && (fabs(v) < ldexp(1, ie) || fabs(v) >= ldexp(2, ie)))
            report("ilogb(half 0x%04x) = %d", h, ie);
        mathfn_one(MF_FREXP, t1, 0, false, &g, &h, NULL, NULL);
        mathfn_one(MF_FREXP, t1, 0, true, &ie, &h, NULL, NULL);
        a = half_to_double(g);
        if (ldexp(a, ie) != v || (v != 0 && (fabs(a) < 0.5 || fabs(a) >= 1)))
            report("frexp(half 0x%04x) = 0x%04x, %d", h, g, ie);
        mathfn_one(MF_MODF, t1, 0, false, &g, &h, NULL, NULL);
        mathfn_one(MF_MODF, t1, 0, true, &g2, &h, NULL, NULL);
        a = half_to_double(g), b = half_to_double(g2);
        if (a + b != v || b != trunc(v) || signbit(a) != signbit(v))
            report("modf(half 0x%04x) = 0x%04x, 0x%04x", h, g, g2);
        mathfn_one(MF_FRACT, t1, 0, false, &g, &h, NULL, NULL);
        mathfn_one(MF_FRACT, t1, 0, true, &g2, &h, NULL, NULL);
        a = half_to_double(g), b = half_to_double(g2);
        /* x - floor(x) is exact in double; rounded once, then capped */
        double fr = half_to_double(half_from_double(v - floor(v), RND_RTE));
        if (b != floor(v) || a != fmin(fr, 0x1.ffcp-1))
            report("fract(half 0x%04x) = 0x%04x, 0x%04x", h, g, g2);
        mathfn_one(MF_SINCOS, t1, 0, false, &g, &h, NULL, NULL);
        mathfn_one(MF_SINCOS, t1, 0, true, &g2, &h, NULL, NULL);
        mpfr_set_d(x, v, MPFR_RNDN);
        mpfr_sin(r, x, MPFR_RNDN);
        a = ulp_err(half_to_double(g), r, &FH, t);
        mpfr_cos(r, x, MPFR_RNDN);
        b = ulp_err(half_to_double(g2), r, &FH, t);
        if (a > mathfns[MF_SINCOS].bound[2] || b > mathfns[MF_SINCOS].bound[2])
            report("sincos(half 0x%04x): %g, %g ulp", h, a, b);
    }
    mpfr_clears(x, r, t, (mpfr_ptr)0);
    printf("isnan isinf isfinite signbit isnormal sign ilogb frexp modf "
           "fract sincos: 65536 halves each\n");
    (void)n;
}

/* ---- every pair ---- */

static unsigned stride = 1, nthreads;
static atomic_uint next_a;
static atomic_uint_fast64_t pairs;


static void *pair_worker(void *arg)
{
    (void)arg;
    static const char name[3] = {'+', '-', '*'};
    static const uint16_t cs[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001,
                                  0x8001, 0x7bff, 0xfbff, 0x1400, 0x9400,
                                  0x7c00, 0x7e00};
    mpfr_set_emin(HALF_EMIN);
    mpfr_set_emax(HALF_EMAX);
    mpfr_t x, y, z, r;
    mpfr_inits2(11, x, y, z, r, (mpfr_ptr)0);
    for (;;) {
        unsigned a = atomic_fetch_add(&next_a, stride);
        if (a > 0xffff)
            break;
        double xa = half_to_double((uint16_t)a);
        mpfr_set_d(x, xa, MPFR_RNDN);
        for (unsigned b = 0; b <= 0xffff; b++) {
            double yb = half_to_double((uint16_t)b);
            mpfr_set_d(y, yb, MPFR_RNDN);
            /* + - *: the exact value in double (two halves' sum or
             * product has at most 40 significant bits), rounded by the
             * exact reference of tests/lib/ref.c */
            double ex[3] = {xa + yb, xa - yb, xa * yb};
            uint16_t gs[3] = {half_add((uint16_t)a, (uint16_t)b),
                              half_sub((uint16_t)a, (uint16_t)b),
                              half_mul((uint16_t)a, (uint16_t)b)};
            for (unsigned k = 0; k < 3; k++) {
                uint16_t w = (uint16_t)ref_round_float(
                    TY_HALF, ref_decode(TY_DOUBLE, &ex[k]), RND_RTE);
                /* a NaN operand gives a NaN; which one is not promised */
                bool nan = (w & 0x7fff) > 0x7c00 && (gs[k] & 0x7fff) > 0x7c00;
                if (!nan && w != gs[k])
                    report("half 0x%04x %c 0x%04x = 0x%04x, want 0x%04x", a,
                           name[k], b, gs[k], w);
            }
            /* /: MPFR rounding once to half */
            uint16_t q = half_div((uint16_t)a, (uint16_t)b);
            mpfr_subnormalize(r, mpfr_div(r, x, y, MPFR_RNDN), MPFR_RNDN);
            if (!same(r, q))
                report("half 0x%04x / 0x%04x = 0x%04x, want %a", a, b, q,
                       mpfr_get_d(r, MPFR_RNDN));
            /* comparisons and fmin/fmax against the exact values */
            float fa = half_to_float((uint16_t)a), fb = half_to_float((uint16_t)b);
            if ((fa < fb) != (xa < yb) || (fa == fb) != (xa == yb) ||
                (fa <= fb) != (xa <= yb))
                report("compare half 0x%04x, 0x%04x", a, b);
            /* fma(a, b, c) on an eighth of the pairs, c cycling through
             * a few values: MPFR's fma rounds once */
            if ((a ^ b) & 7)
                continue;
            uint16_t c = cs[b / 8 % (sizeof cs / sizeof cs[0])];
            uint16_t g = half_fma((uint16_t)a, (uint16_t)b, c);
            mpfr_set_d(z, half_to_double(c), MPFR_RNDN);
            int inex = mpfr_fma(r, x, y, z, MPFR_RNDN);
            mpfr_subnormalize(r, inex, MPFR_RNDN);
            if (!same(r, g))
                report("fma(half 0x%04x, 0x%04x, 0x%04x) = 0x%04x, want %a",
                       a, b, c, g, mpfr_get_d(r, MPFR_RNDN));
        }
        atomic_fetch_add(&pairs, 65536);
    }
    mpfr_clears(x, y, z, r, (mpfr_ptr)0);
    mpfr_free_cache();
    return NULL;
}

static void binary(void)
{
    pthread_t th[64];
    double t0 = now();
    for (unsigned i = 0; i < nthreads; i++)
        if (pthread_create(&th[i], NULL, pair_worker, NULL)) {
            fprintf(stderr, "exhaustive-half: cannot start a thread\n");
            exit(2);
        }
    for (unsigned i = 0; i < nthreads; i++)
        pthread_join(th[i], NULL);
    printf("binary: %llu pairs through + - * (exact), / (MPFR), "
           "comparisons, fma (an eighth, 12 values of c, MPFR), %u threads, "
           "%.1f s\n",
           (unsigned long long)atomic_load(&pairs), nthreads, now() - t0);
}

int main(int argc, char **argv)
{
    bool want_unary = false, want_binary = false;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    nthreads = cpus > 0 ? (unsigned)(cpus > 64 ? 64 : cpus) : 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-j") && i + 1 < argc) {
            int j = atoi(argv[++i]);
            nthreads = j < 1 ? 1 : j > 64 ? 64 : (unsigned)j;
        } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            int s = atoi(argv[++i]);
            stride = s < 1 ? 1 : (unsigned)s;
        } else if (!strcmp(argv[i], "unary")) {
            want_unary = true;
        } else if (!strcmp(argv[i], "binary")) {
            want_binary = true;
        } else {
            fprintf(stderr, "usage: exhaustive-half [-j THREADS] "
                    "[-s STRIDE] [unary|binary]...\n");
            return 2;
        }
    }
    if (!want_unary && !want_binary)
        want_unary = want_binary = true;
    if (want_unary) {
        conversions();
        unary_fns();
        other_unary();
    }
    if (want_binary)
        binary();
    mpfr_free_cache();
    unsigned long long n = atomic_load(&bad);
    printf("exhaustive-half: %llu mismatches\n", n);
    return n != 0;
}
