/* clvm's math library, part 6: fast paths of the float functions that
 * kernels call most (exp exp2 log log2 log1p pow sqrt hypot sin cos tan
 * atan tanh cbrt erf erfc), in plain double arithmetic.
 *
 * Each evaluates its function in double with a relative error well below
 * 2^-44 (the bounds are in the comments), and returns a float only when
 * the whole interval y (1 +- 2^-40) around that value y rounds to one
 * float: then that float is the correctly rounded result, the same bits
 * the double-double path gives. Otherwise (about one input in 2^15, and
 * the special values, zeros and the ends of the range, which the fast
 * paths leave alone) the caller takes the double-double path. `make
 * check-exhaustive` runs every float through the one-argument ones. */
#include "stdlib/libm.h"
#include "stdlib/libm_int.h"

/* y's correct rounding to float, if the interval y (1 +- 2^-40) decides
 * it (round to nearest is monotonic) */
static inline bool fast_round(double y, float *r)
{
    double d = clm_fabs(y) * 0x1p-40;
    float lo = (float)(y - d), hi = (float)(y + d);
    if (lo != hi)
        return false;
    *r = lo;
    return true;
}

/* exp(x) for -104 <= x <= 89: x = n ln2/64 + r (the first part of ln2/64
 * has 36 bits: n times it is exact, and x minus it too), |r| < 0.0055;
 * exp(r) - 1 by Taylor to degree 6 (truncation 2^-62); 2^(j/64) to 2^-53.
 * Relative error below 2^-50. */
static double exp_d(double x)
{
    double n = clm_rint_small(x * (64 * 0x1.71547652b82fep0));
    double r = (x - n * CLM_LN2_64[0]) - n * CLM_LN2_64[1];
    int ni = (int)n, j = ni & 63, k = (ni - j) / 64;
    double p = r + r * r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 +
                                                              r * (1.0 / 720)))));
    double t = CLM_EXP2_64[j].h;
    return (t + t * p) * clm_pow2(k);
}

/* exp(u) - 1 for |u| < 1 by Taylor to degree 19 (truncation below 2^-60
 * relative), else from exp_d (above 1 - 1/e: no cancellation); relative
 * error below 2^-50 */
static double expm1_d(double u)
{
    if (clm_fabs(u) >= 1)
        return exp_d(u) - 1;
    double s = 1;
    for (int k = 19; k >= 2; k--)
        s = 1 + u * s / k; /* u (1 + u/2 (1 + u/3 (...))) */
    return u * s;
}

/* log(x) for a normal x > 0: x = 2^e m, m in [0.703, 1.406]; m c - 1 = r
 * exactly (Dekker), |r| < 0.0057, c from the log table; log1p(r) by Taylor
 * to degree 8 (truncation 2^-62). |log x| >= |log(1 + i/128)| - |r| keeps
 * the sum's rounding relative: error below 2^-50. */
static double log_d(double x)
{
    int e = clm_expo(x);
    double m = bitsd((dbits(x) & ((UINT64_C(1) << 52) - 1)) |
                     UINT64_C(1023) << 52);
    if (m > 1.40625) {
        m *= 0.5;
        e++;
    }
    int i = (int)clm_rint_small((m - 1) * 128);
    double c = CLM_LOG_C[i + 38];
    dd p = two_prod(m, c);
    double r = (p.h - 1) + p.l;
    double q = r - r * r * (0.5 - r * (1.0 / 3 - r * (0.25 - r * (0.2 - r * (1.0 / 6 -
                                                      r * (1.0 / 7 - r * 0.125))))));
    dd L = CLM_LOG_L[i + 38];
    return e * CLM_LN2.h + ((e * CLM_LN2.l + L.l) + (L.h + q));
}

/* sqrt(x) for a normal x > 0: Newton on 1/sqrt from a 4% guess (four
 * steps: 2^-69), then one Newton step on sqrt: below 2^-51 */
static double sqrt_d(double x)
{
    int e0 = clm_expo(x), e = e0 - (int)((unsigned)e0 & 1u);
    double m = x * clm_pow2(-e); /* [1, 4) */
    double y = bitsd(UINT64_C(0x5fe6eb50c7b537a9) - (dbits(m) >> 1));
    for (int k = 0; k < 4; k++)
        y = y * (1.5 - 0.5 * m * y * y);
    double s = m * y;
    s = s + 0.5 * y * (m - s * s);
    return s * clm_pow2(e / 2);
}

/* sin (which 0), cos (1) or tan (2) of a float x, 0 < |x| < 2^16: x = k
 * pi/2 + r by Cody-Waite with pi/2 in four parts (three of 32 bits: k
 * times them is exact), r to about 2^-51 relative (floats keep |r| above
 * 2^-30 or so); Taylor to degrees 17 and 18 on |r| <= pi/4 (2^-62). */
static double trig_d(double x, int which)
{
    double k = clm_rint_small(x * 0x1.45f306dc9c883p-1);
    double r = ((x - k * CLM_PIO2_4[0]) - k * CLM_PIO2_4[1]) - k * CLM_PIO2_4[2];
    r -= k * CLM_PIO2_4[3];
    double z = r * r;
    /* sin r = r (1 - z/(2.3) (1 - z/(4.5) (1 - ...))), cos r = 1 - z/(1.2)
     * (1 - z/(3.4) (...)) */
    double sn = 1, cs = 1;
    for (int n = 16; n >= 2; n -= 2)
        sn = 1 - z / ((double)n * (n + 1)) * sn;
    sn *= r;
    for (int n = 17; n >= 1; n -= 2)
        cs = 1 - z / ((double)n * (n + 1)) * cs;
    int q = (int)(((long)k % 4 + 4) % 4);
    double a = q & 1 ? cs : sn, b = q & 1 ? sn : cs; /* sin x = +-a */
    if (which == 2)
        return q & 1 ? -a / b : a / b; /* odd: -cos r / sin r */
    if (which == 1)
        return (q == 1 || q == 2) ? -b : b;
    return q >= 2 ? -a : a;
}

/* atan(x) for finite x != 0: t = |x| or 1/|x|; t = c + d with c = j/64,
 * atan(t) = atan(c) + atan((t - c)/(1 + tc)), |u| <= 1/128, Taylor to
 * degree 9 (2^-66); below 2^-50 */
static double atan_d(double x)
{
    double t = clm_fabs(x);
    bool inv = t > 1;
    if (inv)
        t = 1 / t;
    double c = clm_rint_small(t * 64) * (1.0 / 64);
    double u = (t - c) / (1 + t * c), z = u * u;
    double a = u - u * z * (1.0 / 3 - z * (0.2 - z * (1.0 / 7 - z * (1.0 / 9))));
    a += CLM_ATAN_64[(int)(c * 64)].h;
    if (inv)
        a = (CLM_PIO2.h - a) + CLM_PIO2.l;
    return clm_sign(x) ? -a : a;
}

/* erfc(x) (which 1) or erf(x) (which 0), |x| < 10: the double-double
 * path's series and tables in double (below 2^-49) */
static double erf_d(double x, int which)
{
    double a = clm_fabs(x);
    if (a < 0.5) {
        double z = x * x, s = CLM_ERF_A_TAIL[10];
        for (int k = 9; k >= 0; k--)
            s = CLM_ERF_A_TAIL[k] + z * s;
        for (int k = 3; k >= 0; k--)
            s = CLM_ERF_A[k].h + z * s;
        double e = x * s * CLM_2_SQRTPI.h;
        return which ? 1 - e : e;
    }
    int i = a < 2 ? (int)((a - 0.5) * 8) : a < 4 ? 12 + (int)((a - 2) * 4)
            : a < 8 ? 20 + (int)((a - 4) * 2) : 28 + (int)(a - 8);
    double h = a - CLM_ERFC_C[i], s = CLM_ERFC_T[i][13];
    for (int k = 12; k >= 0; k--)
        s = CLM_ERFC_T[i][k] + h * s;
    for (int k = 3; k >= 0; k--)
        s = CLM_ERFC_G[i][k].h + h * s;
    double c = exp_d(-(a * a)) * s; /* a * a: exact (a is a float) */
    if (which)
        return clm_sign(x) ? 2 - c : c;
    return clm_sign(x) ? c - 1 : 1 - c;
}

/* ---- the fast paths: true with *r set when they decide ---- */

static bool normal_pos(double x) { return x >= 0x1p-1022 && x < CLM_INF; }

bool clm_fast_expf(float x, float *r)
{
    return x > -104 && x < 89 && x != 0 && fast_round(exp_d(x), r);
}
bool clm_fast_exp2f(float x, float *r)
{
    /* x = j/64 + s exactly: 2^(j/64) exp(s ln2), |s ln2| < 0.0055 */
    if (!(x > -150 && x < 128) || x == 0)
        return false;
    double n = clm_rint_small((double)x * 64), s = (x - n * (1.0 / 64)) * CLM_LN2.h;
    int ni = (int)n, j = ni & 63, k = (ni - j) / 64;
    double p = s + s * s * (0.5 + s * (1.0 / 6 + s * (1.0 / 24 + s * (1.0 / 120))));
    double t = CLM_EXP2_64[j].h;
    return fast_round((t + t * p) * clm_pow2(k), r);
}
bool clm_fast_logf(float x, float *r)
{
    return normal_pos(x) && x != 1 && fast_round(log_d(x), r);
}
bool clm_fast_log2f(float x, float *r)
{
    return normal_pos(x) && x != 1 && fast_round(log_d(x) * CLM_INVLN2.h, r);
}
bool clm_fast_log1pf(float x, float *r)
{
    if (!(x > -1 && x < 0x1p100) || x == 0)
        return false;
    if (clm_fabs(x) >= 0x1p-5) /* 1 + x is exact (or its rounding is far
                                * below 2^-50 of the result) */
        return fast_round(log_d(1 + (double)x), r);
    double s = 1.0 / 13; /* x - x^2/2 + ...: truncation below 2^-60 */
    for (int k = 12; k >= 1; k--)
        s = 1.0 / k - x * s;
    return fast_round(x * s, r);
}
bool clm_fast_powf(float x, float y, float *r)
{
    /* exp(y log x): log x to 2^-50 relative, so y log x to 100 2^-50
     * absolute: below 2^-43 relative in the result */
    if (!normal_pos(x) || y != y || clm_isinf(y) || y == 0)
        return false;
    double t = y * log_d(x);
    return t > -100 && t < 88 && fast_round(exp_d(t), r);
}
bool clm_fast_sqrtf(float x, float *r)
{
    return normal_pos(x) && fast_round(sqrt_d(x), r);
}
bool clm_fast_hypotf(float x, float y, float *r)
{
    double s = (double)x * x + (double)y * y; /* squares exact, one rounding */
    return normal_pos(s) && s < 0x1p1000 && fast_round(sqrt_d(s), r);
}
bool clm_fast_sinf(float x, float *r)
{
    return clm_fabs(x) < 0x1p16 && x != 0 && fast_round(trig_d(x, 0), r);
}
bool clm_fast_cosf(float x, float *r)
{
    return clm_fabs(x) < 0x1p16 && fast_round(trig_d(x, 1), r);
}
bool clm_fast_tanf(float x, float *r)
{
    return clm_fabs(x) < 0x1p16 && x != 0 && fast_round(trig_d(x, 2), r);
}
bool clm_fast_atanf(float x, float *r)
{
    return x == x && !clm_isinf(x) && x != 0 && fast_round(atan_d(x), r);
}
bool clm_fast_tanhf(float x, float *r)
{
    /* E/(E + 2), E = expm1(2x): relative error below 2^-49 */
    if (!(clm_fabs(x) < 9) || clm_fabs(x) < 0x1p-60)
        return false;
    double e = expm1_d(2 * (double)x);
    return fast_round(e / (e + 2), r);
}
bool clm_fast_cbrtf(float x, float *r)
{
    /* exp(log|x| / 3): |log x| / 3 < 35, so 35 2^-50 absolute */
    double a = clm_fabs(x);
    if (!normal_pos(a) || a == 1)
        return false;
    double c = exp_d(log_d(a) * (1.0 / 3));
    return fast_round(clm_sign(x) ? -c : c, r);
}
bool clm_fast_erff(float x, float *r)
{
    return clm_fabs(x) < 4 && clm_fabs(x) >= 0x1p-60 && fast_round(erf_d(x, 0), r);
}
bool clm_fast_erfcf(float x, float *r)
{
    return x > -4 && x < 10 && fast_round(erf_d(x, 1), r);
}
