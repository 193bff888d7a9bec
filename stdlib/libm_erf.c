/* clvm's math library, part 4: the error function erf and its complement
 * erfc, as double-doubles (about 2^-68 relative) rounded once.
 *
 * |x| < 1/2: erf(x) = 2/sqrt(pi) x sum_k (-1)^k x^(2k) / (k! (2k + 1)),
 * the first four terms in double-double, the rest (below 2^-15 of the
 * sum) in double. 1/2 <= x < 28: erfc(x) = exp(-x^2) G(x), where G(x) =
 * erfc(x) exp(x^2) is smooth and slowly varying: a Taylor polynomial of
 * degree 17 around the centre of one of 42 intervals (tests/unit/
 * libm_gen.py; the first four coefficients double-double), and exp of the
 * exact -x^2 by the exp kernel. Then erf = 1 - erfc there (erfc <= 0.48:
 * no cancellation), erfc = 1 - erf below 1/2 and erfc(-x) = 2 - erfc(x). */
#include "stdlib/libm.h"
#include "stdlib/libm_int.h"

/* erf(x) for 0 < |x| < 1/2, as v * 2^*e */
static dd erf_small(double x, int *e)
{
    if (clm_fabs(x) < 0x1p-60) { /* 2x/sqrt(pi) (1 - x^2/3): the second
                                  * term is below 2^-121 */
        if (clm_fabs(x) < 0x1p-900) {
            *e = -200;
            x *= 0x1p200;
        }
        return dd_mul_d(CLM_2_SQRTPI, x);
    }
    dd zz = two_prod(x, x);
    double z = zz.h;
    const double *a = CLM_ERF_A_TAIL;
    double t = a[10];
    for (int k = 9; k >= 0; k--)
        t = a[k] + z * t;
    dd p = dd_add_d(CLM_ERF_A[3], z * t);
    for (int k = 2; k >= 0; k--)
        p = dd_add(CLM_ERF_A[k], dd_mul(zz, p));
    return dd_mul(dd_mul_d(p, x), CLM_2_SQRTPI);
}

/* erfc(x) for 1/2 <= x < 28, as v * 2^*e */
static dd erfc_big(double x, int *e)
{
    /* the interval (the subtractions and scalings are exact) */
    int i;
    if (x < 2)
        i = (int)((x - 0.5) * 8);
    else if (x < 4)
        i = 12 + (int)((x - 2) * 4);
    else if (x < 8)
        i = 20 + (int)((x - 4) * 2);
    else if (x < 16)
        i = 28 + (int)(x - 8);
    else
        i = 36 + (int)((x - 16) * 0.5);
    if (i > CLM_ERFC_N - 1)
        i = CLM_ERFC_N - 1;
    double h = x - CLM_ERFC_C[i]; /* exact: |h| <= 1 and c is a multiple
                                   * of 1/16 */
    const double *t = CLM_ERFC_T[i];
    double s = t[13];
    for (int k = 12; k >= 0; k--)
        s = t[k] + h * s;
    const dd *g = CLM_ERFC_G[i];
    dd G = dd_add_d(g[3], h * s);
    for (int k = 2; k >= 0; k--)
        G = dd_add(g[k], dd_mul_d(G, h));
    dd E = clm_exp_core(dd_neg(two_prod(x, x)), e);
    return dd_mul(E, G);
}

/* c - erfc(a) (a >= 1/2, erfc(a) above 2^-60) */
static dd minus_erfc(double c, double a)
{
    int k = 0;
    dd v = erfc_big(a, &k);
    return dd_add_d(dd_neg(dd_scale(v, k)), c);
}

static dd erf_k(double x, int *e)
{
    if (x != x || x == 0)
        return (dd){x, 0};
    double a = clm_fabs(x);
    if (a < 0.5)
        return erf_small(x, e);
    if (a >= 6) /* erfc(6) < 2^-55: 1 - erfc rounds to 1 */
        return (dd){clm_copysign(1, x), 0};
    dd r = minus_erfc(1, a);
    return clm_sign(x) ? dd_neg(r) : r;
}

static dd erfc_k(double x, int *e)
{
    if (x != x)
        return (dd){x, 0};
    if (x >= 28) /* erfc(28) < 2^-1100: +0 (+inf too) */
        return (dd){0, 0};
    if (x >= 0.5)
        return erfc_big(x, e);
    if (x <= -6) /* 2 - erfc(6) rounds to 2 (-inf too) */
        return (dd){2, 0};
    if (x <= -0.5)
        return minus_erfc(2, -x);
    if (clm_fabs(x) < 0x1p-60) /* 1 - 1.13 x rounds to 1 */
        return (dd){1, 0};
    int k = 0;
    return dd_add_d(dd_neg(erf_small(x, &k)), 1);
}

WRAP1F(erf)
WRAP1F(erfc)
