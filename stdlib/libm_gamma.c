/* clvm's math library, part 5: the gamma function tgamma and its
 * logarithm lgamma (lgamma_r also gives gamma's sign), as double-doubles
 * rounded once.
 *
 * The kernel is lgamma(2 + t) = (1 - euler) t + sum_{k >= 2} (-1)^k
 * (zeta(k) - 1) t^k / k for |t| <= 1/2 (tests/unit/libm_gen.py; nine
 * coefficients double-double, the rest double). An x in (-190, 172) is
 * shifted there by the recurrence gamma(x + 1) = x gamma(x): x = 2 + t - n
 * with t exact, and the product P of the n factors x, x + 1, ... (or of
 * x - 1, x - 2, ... for n < 0) formed in double-double, so that near the
 * poles the small factor x + j is exact. Then tgamma = exp(lgamma(2 + t))
 * / P (or * P), and lgamma = lgamma(2 + t) -+ log|P| for -20 < x < 10.
 * lgamma above 10 by Stirling's series, below -20 by the reflection
 * gamma(x) gamma(1 - x) = pi / sin(pi x). Near the zeros of lgamma on the
 * negative axis its error is absolute (the double-doubles' 2^-70 or so of
 * log|P|; test_libm measures below 2^-75 there), as OpenCL allows: its
 * accuracy is undefined. */
#include "stdlib/libm.h"
#include "stdlib/libm_int.h"

/* lgamma(2 + t), |t| <= 1/2 (a little more is fine) */
static dd lgam2(double t)
{
    const double *s = CLM_LGAM_S_TAIL;
    double u = s[27];
    for (int k = 26; k >= 0; k--)
        u = s[k] + t * u;
    dd p = dd_add_d(CLM_LGAM_S[8], t * u);
    for (int k = 7; k >= 0; k--)
        p = dd_add(CLM_LGAM_S[k], dd_mul_d(p, t));
    return dd_mul_d(p, t);
}

/* log|p| for a dd p != 0 (p.h normal) */
static dd log_abs(dd p, int pe)
{
    if (clm_sign(p.h))
        p = dd_neg(p);
    int e;
    dd l = clm_log_core(p, &e);
    return dd_add(dd_mul_d(CLM_LN2, e + pe), l);
}

/* x = 2 + t - n with t exact, |t| <= 1/2 (about): returns t, sets n and
 * the product P * 2^*pe of x (x + 1) ... (x + n - 1) for n > 0, of (x - 1)
 * (x - 2) ... (x + n) for n < 0, 1 for n = 0. -190 < x < 172, x not a
 * nonpositive integer. */
static double shift(double x, int *n, dd *P, int *pe)
{
    double nn = clm_rint_small(2 - x);
    double t = x - (2 - nn); /* exact: an integer shift to |t| <= 1/2 */
    int k = (int)nn;
    *n = k;
    *pe = 0;
    *P = (dd){1, 0};
    /* x + j may be inexact (a dd), x - j is exact; the product of up to
     * 192 factors is kept in range by powers of 2 */
    for (int j = 0; j < k || j < -k; j++) {
        *P = k > 0 ? dd_mul(*P, two_sum(x, j)) : dd_mul_d(*P, x - (j + 1));
        int ex = clm_expo(P->h);
        if (ex > 500 || ex < -500) {
            *P = dd_scale(*P, -ex);
            *pe += ex;
        }
    }
    return t;
}

/* lgamma(x) by Stirling's series, x >= 10 (finite), as v * 2^*e */
static dd stirling(double x, int *e)
{
    dd lx = clm_log_dd(x);
    if (x >= 0x1p100) { /* x (log x - 1): the rest is below 2^-99 of it */
        *e = 64;
        return dd_mul_d(dd_add_d(lx, -1), x * 0x1p-64);
    }
    dd v = dd_mul(two_sum(x, -0.5), lx);
    v = dd_add(dd_add_d(v, -x), CLM_HALF_LN2PI);
    dd c1 = dd_recip(two_prod(x, 12)); /* 1/(12x) */
    double r = 1 / x, z = r * r;
    const double *c = CLM_LGAM_ST;
    double u = c[12];
    for (int k = 11; k >= 0; k--)
        u = c[k] + z * u;
    return dd_add(v, dd_add_d(c1, u * z * r));
}

static bool is_int(double x) { return clvm_rint(x) == x; }

/* lgamma(x) and gamma's sign (0 where gamma has none: poles, NaN, -inf) */
static dd lgamma_k(double x, int *sign, int *e)
{
    *sign = 0;
    if (x != x)
        return (dd){x, 0};
    double a = clm_fabs(x);
    if (a == CLM_INF || x == 0 || (x < 0 && is_int(x))) {
        *sign = x == CLM_INF;
        return (dd){CLM_INF, 0};
    }
    *sign = 1;
    if (a < 0x1p-70) { /* -log|x| - euler x: the second is below 2^-75 */
        *sign = x < 0 ? -1 : 1;
        return dd_neg(clm_log_dd(a));
    }
    if (x >= 10)
        return stirling(x, e);
    if (x > -20) {
        int n, pe;
        dd P;
        double t = shift(x, &n, &P, &pe);
        dd s = lgam2(t);
        if (n == 0)
            return s;
        if (clm_sign(P.h))
            *sign = -1;
        dd l = log_abs(P, pe);
        return n > 0 ? dd_sub(s, l) : dd_add(s, l);
    }
    /* x < -20: log pi - log|x sin(pi x)| - lgamma(-x); gamma(x) has the
     * sign of sin(pi x) */
    dd sp = clm_sinpi_dd(x);
    if (clm_sign(sp.h))
        *sign = -1;
    int k = 0;
    dd st = stirling(-x, &k);
    dd v = dd_sub(CLM_LNPI, log_abs(dd_mul_d(sp, x), 0));
    return dd_sub(v, dd_scale(st, k));
}

double clvm_lgamma_r(double x, int *sign)
{
    int e = 0;
    dd v = lgamma_k(x, sign, &e);
    return clm_fin_d(v, e);
}
float clvm_lgammaf_r(float x, int *sign)
{
    int e = 0;
    dd v = lgamma_k(x, sign, &e);
    return clm_fin_f(v, e);
}
double clvm_lgamma(double x)
{
    int s;
    return clvm_lgamma_r(x, &s);
}
float clvm_lgammaf(float x)
{
    int s;
    return clvm_lgammaf_r(x, &s);
}

static dd tgamma_k(double x, int *e)
{
    double a = clm_fabs(x);
    if (x != x || x == CLM_INF)
        return (dd){x, 0};
    if (x == -CLM_INF || (x < 0 && is_int(x)))
        return (dd){CLM_NAN, 0};
    if (x == 0)
        return (dd){clm_copysign(CLM_INF, x), 0};
    if (a < 0x1p-54) { /* 1/x - euler: the next term is below 2^-108 */
        double g = CLM_EULER.h * x, xs = x;
        if (a < 0x1p-900) {
            xs = x * 0x1p600;
            *e = 600;
        }
        return dd_mul(dd_recip((dd){xs, 0}), two_sum(1, -g));
    }
    if (x >= 172) /* overflow */
        return (dd){CLM_INF, 0};
    if (x <= -190) { /* |gamma(x)| < 2^-1100: a zero of gamma's sign */
        double n = clvm_floor(-x); /* x in (-n - 1, -n): sign (-1)^(n+1) */
        bool odd = clvm_floor(n * 0.5) * 2 != n;
        return (dd){odd ? 0.0 : -0.0, 0};
    }
    int n, pe, k = 0;
    dd P;
    double t = shift(x, &n, &P, &pe);
    dd g = clm_exp_core(lgam2(t), &k);
    if (n > 0) {
        *e = k - pe;
        return dd_div(g, P);
    }
    *e = k + pe;
    return n < 0 ? dd_mul(g, P) : g;
}

WRAP1(tgamma)
