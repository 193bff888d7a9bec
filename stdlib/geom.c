/* The geometric built-ins and shuffle on one work-item's vectors: sums of
 * products as if in twice double precision (Ogita, Rump and Oishi's Dot2),
 * rounded once to the type. */
#include "stdlib/geom.h"

#include <string.h>

#include "stdlib/libm.h"

/* The value rounded to the type. */
static double as_t(double v, bool f32) { return f32 ? (double)(float)v : v; }

/* a + b = s + e exactly (Knuth's TwoSum). */
static double two_sum(double a, double b, double *e)
{
    double s = a + b, bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* sum of x[k] * y[k]: each product split exactly into p + its error
 * (fma), the sum compensated; accurate as if computed with 106 bits. The
 * product of two floats is exact in double (f32: no fma needed). */
static double dot2(const double *x, const double *y, unsigned n, bool f32)
{
    double s = 0, c = 0;
    for (unsigned k = 0; k < n; k++) {
        double p = x[k] * y[k], es;
        double ep = f32 ? 0 : clvm_fma(x[k], y[k], -p);
        s = two_sum(s, p, &es);
        c += es + ep;
    }
    return s + c;
}

static bool is_nan(double v) { return v != v; }
static bool is_inf(double v) { return v - v != v - v && v == v; }

/* 2^e for |e| < 1023 */
static double pow2(int e)
{
    uint64_t b = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* The exponent that brings the largest finite |x[k]| near 1 (0 if all
 * are zero), for scaling without overflow or underflow. */
static int scale_exp(const double *x, unsigned n)
{
    int best = -2000;
    for (unsigned k = 0; k < n; k++) {
        uint64_t b;
        memcpy(&b, &x[k], 8);
        int e = (int)(b >> 52 & 0x7ff);
        if (e == 0 && (b << 1))
            e = 1;   /* denormal */
        if (e && e - 1023 > best)
            best = e - 1023;
    }
    return best == -2000 ? 0 : best;
}

double geom_dot(const double *x, const double *y, unsigned n, bool f32)
{
    return as_t(dot2(x, y, n, f32), f32);
}

/* sqrt(sum x^2): floats need no scaling (their squares fit a double's
 * range); doubles are scaled by a power of two, which is exact. */
double geom_length(const double *x, unsigned n, bool f32)
{
    double v[16] = {0};
    bool nan = false;
    for (unsigned k = 0; k < n; k++) {
        if (is_inf(x[k]))
            return 1.0 / 0.0;
        nan |= is_nan(x[k]);
    }
    if (nan)
        return 0.0 / 0.0;
    int e = f32 ? 0 : scale_exp(x, n);
    /* two steps: 2^-e may be outside a double's range for e near -1074 */
    double s1 = pow2(-e / 2), s2 = pow2(-e - (-e / 2));
    for (unsigned k = 0; k < n; k++)
        v[k] = x[k] * s1 * s2;
    double r = clvm_sqrt(dot2(v, v, n, f32));
    if (f32)
        return (double)(float)r;
    return r * pow2(e / 2) * pow2(e - e / 2);
}

double geom_distance(const double *x, const double *y, unsigned n, bool f32)
{
    double d[16];
    for (unsigned k = 0; k < n; k++)
        d[k] = as_t(x[k] - y[k], f32);
    return geom_length(d, n, f32);
}

void geom_normalize(double *r, const double *x, unsigned n, bool f32)
{
    double v[16] = {0};
    bool zero = true, inf = false, nan = false;
    for (unsigned k = 0; k < n; k++) {
        zero &= x[k] == 0;
        inf |= is_inf(x[k]);
        nan |= is_nan(x[k]);
    }
    if (nan || zero) {
        for (unsigned k = 0; k < n; k++)
            r[k] = nan ? 0.0 / 0.0 : x[k];
        return;
    }
    for (unsigned k = 0; k < n; k++)
        v[k] = inf ? (is_inf(x[k]) ? (x[k] > 0 ? 1.0 : -1.0)
                                   : (x[k] < 0 || (x[k] == 0 && 1 / x[k] < 0)
                                          ? -0.0 : 0.0))
                   : x[k];
    int e = scale_exp(v, n);
    double s1 = pow2(-e / 2), s2 = pow2(-e - (-e / 2));
    for (unsigned k = 0; k < n; k++)
        v[k] = v[k] * s1 * s2;
    double len = clvm_sqrt(dot2(v, v, n, f32));
    for (unsigned k = 0; k < n; k++)
        r[k] = as_t(v[k] / len, f32);
}

/* a * b - c * d with one rounding's worth of error (Kahan, with fma). */
static double diff_prod(double a, double b, double c, double d)
{
    double w = c * d, e = clvm_fma(-c, d, w), f = clvm_fma(a, b, -w);
    return f + e;
}

void geom_cross(double *r, const double *x, const double *y, unsigned n,
                bool f32)
{
    r[0] = as_t(diff_prod(x[1], y[2], x[2], y[1]), f32);
    r[1] = as_t(diff_prod(x[2], y[0], x[0], y[2]), f32);
    r[2] = as_t(diff_prod(x[0], y[1], x[1], y[0]), f32);
    if (n == 4)
        r[3] = 0;
}

void geom_shuffle(uint64_t *r, const uint64_t *x, const uint64_t *y,
                  const uint64_t *mask, unsigned n, unsigned m, bool two)
{
    uint64_t sel = two ? 2 * n - 1 : n - 1;   /* n is a power of two */
    for (unsigned k = 0; k < m; k++) {
        uint64_t i = mask[k] & sel;
        r[k] = i < n ? x[i] : y[i - n];
    }
}
