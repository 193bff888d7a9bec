/* Internals of clvm's math library (stdlib/libm*.c): double-double
 * arithmetic from the exact IEEE operations (+ - * / with one rounding
 * each, round to nearest, no contraction), bit access through memcpy, and
 * the one place where a result is rounded to float or double.
 *
 * A dd is the unevaluated sum h + l with |l| <= ulp(h)/2 (after
 * dd_norm): about 106 bits. The algorithms are the classic error-free
 * transformations (Knuth's two-sum, Dekker's fast two-sum, Dekker's
 * product with Veltkamp's split); they are exact as long as nothing
 * overflows or underflows, which every caller arranges by scaling. */
#ifndef CLVM_LIBM_INT_H
#define CLVM_LIBM_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "stdlib/bytes.h"

typedef struct {
    double h, l;
} dd;


#define CLM_INF bitsd(UINT64_C(0x7ff0000000000000))
#define CLM_NAN bitsd(UINT64_C(0x7ff8000000000000))

static inline double clm_fabs(double x)
{
    return bitsd(dbits(x) & ~(UINT64_C(1) << 63));
}
static inline bool clm_isnan(double x) { return x != x; }
static inline bool clm_isinf(double x) { return clm_fabs(x) == CLM_INF; }
static inline bool clm_sign(double x) { return dbits(x) >> 63; }
static inline double clm_copysign(double x, double s)
{
    return bitsd((dbits(x) & ~(UINT64_C(1) << 63)) |
                      (dbits(s) & (UINT64_C(1) << 63)));
}

/* 2^k for -1022 <= k <= 1023, exactly. */
static inline double clm_pow2(int k)
{
    return bitsd((uint64_t)(k + 1023) << 52);
}

/* The unbiased exponent of a normal nonzero finite x. */
static inline int clm_expo(double x)
{
    return (int)((dbits(x) >> 52) & 0x7ff) - 1023;
}

/* x rounded to an integer (ties to even), for |x| < 2^51. */
static inline double clm_rint_small(double x)
{
    const double s = 0x1.8p52;
    return (x + s) - s;
}

/* ---- error-free transformations ---- */

static inline dd two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    return (dd){s, (a - (s - bb)) + (b - bb)};
}
/* |a| >= |b| (or a == 0) */
static inline dd fast_two_sum(double a, double b)
{
    double s = a + b;
    return (dd){s, b - (s - a)};
}
static inline dd dd_norm(dd a) { return fast_two_sum(a.h, a.l); }

/* a * b exactly, |a|, |b| < 2^995 and the product not below 2^-969. */
static inline dd two_prod(double a, double b)
{
    const double c = 134217729.0; /* 2^27 + 1 */
    double p = a * b;
    double ta = c * a, ah = ta - (ta - a), al = a - ah;
    double tb = c * b, bh = tb - (tb - b), bl = b - bh;
    return (dd){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

static inline dd dd_add(dd a, dd b)
{
    dd s = two_sum(a.h, b.h), t = two_sum(a.l, b.l);
    s.l += t.h;
    s = fast_two_sum(s.h, s.l);
    s.l += t.l;
    return fast_two_sum(s.h, s.l);
}
static inline dd dd_add_d(dd a, double b)
{
    dd s = two_sum(a.h, b);
    s.l += a.l;
    return fast_two_sum(s.h, s.l);
}
static inline dd dd_neg(dd a) { return (dd){-a.h, -a.l}; }
static inline dd dd_sub(dd a, dd b) { return dd_add(a, dd_neg(b)); }
static inline dd dd_mul(dd a, dd b)
{
    dd p = two_prod(a.h, b.h);
    p.l += a.h * b.l + a.l * b.h;
    return fast_two_sum(p.h, p.l);
}
static inline dd dd_mul_d(dd a, double b)
{
    dd p = two_prod(a.h, b);
    p.l += a.l * b;
    return fast_two_sum(p.h, p.l);
}
/* a * 2^k, k small enough that nothing leaves the normal range */
static inline dd dd_scale(dd a, int k)
{
    double s = clm_pow2(k);
    return (dd){a.h * s, a.l * s};
}
static inline dd dd_div(dd a, dd b)
{
    double q1 = a.h / b.h;
    dd r = dd_sub(a, dd_mul_d(b, q1));
    double q2 = r.h / b.h;
    r = dd_sub(r, dd_mul_d(b, q2));
    double q3 = r.h / b.h;
    dd q = fast_two_sum(q1, q2);
    return dd_add_d(q, q3);
}
static inline dd dd_div_d(dd a, double b) { return dd_div(a, (dd){b, 0}); }
static inline dd dd_recip(dd b) { return dd_div((dd){1, 0}, b); }

/* ---- shared pieces of stdlib/libm*.c ---- */

/* sqrt(x) correctly rounded (x >= 0 finite or +inf; NaN for x < 0). */
double clm_sqrt_cr(double x);
/* sqrt(a) for a dd 0 < a, both parts normal: about 2^-100 relative. */
dd clm_dd_sqrt(dd a);

/* The result (v.h + v.l) * 2^e rounded once (to nearest, ties to even) to
 * double or to float: overflow gives infinity, denormals are rounded at
 * their own precision. v normalized (|v.l| <= ulp(v.h)/2), v.h normal or
 * zero. */
double clm_fin_d(dd v, int e);
float clm_fin_f(dd v, int e);

/* exp: the reduction of x (|x.h| < 1100) to 2^k * v (v in [0.7, 1.5],
 * about 2^-70 relative error). */
dd clm_exp_core(dd x, int *k);
/* log(x) = e * ln2 + L for a dd x > 0 (x.h normal), L to about 2^-70
 * relative; *e the exponent. */
dd clm_log_core(dd x, int *e);
/* The full log(x) as a dd (x normal or denormal, > 0, finite). */
dd clm_log_dd(double x);
/* expm1(x) = v * 2^k for |x| < 700 (not rounded). */
dd clm_expm1_core(double x, int *k);

/* Trigonometric reduction: x = q * pi/2 + r, |r| <= pi/4 (a little more
 * for big x), r as a dd; returns q mod 4. */
int clm_rem_pio2(double x, dd *r);
/* sin and cos of a dd r, |r| <= 0.82 */
dd clm_sin_k(dd r);
dd clm_cos_k(dd r);
/* sin(pi x) as a dd for a finite x with |x| >= 2^-800 (the signed zero
 * of an integer x exactly) */
dd clm_sinpi_dd(double x);
/* atan of a dd 0 <= t <= 1.01 */
dd clm_atan_k(dd t);
/* atan2(y, x) of dd y, x > 0 (either may be 0 but not both), in
 * [0, pi/2], no scaling: callers keep y/x within 2^+-60 */
dd clm_atan2_k(dd y, dd x);

/* ---- tables (stdlib/libm_tab.c, generated) ---- */
extern const dd CLM_LN2, CLM_INVLN2, CLM_LN10, CLM_INVLN10, CLM_PI, CLM_PIO2,
    CLM_INVPI, CLM_LOG2_10;
extern const double CLM_LN2_64[3], CLM_PIO2_4[4];
extern const dd CLM_EXP2_64[64];
extern const double CLM_LOG_C[91];
extern const dd CLM_LOG_L[91];
extern const dd CLM_SIN_64[53], CLM_COS_64[53];
extern const dd CLM_ATAN_64[65];
extern const uint64_t CLM_2_OVER_PI[25];
extern const dd CLM_2_SQRTPI, CLM_EULER, CLM_HALF_LN2PI, CLM_LNPI;
extern const dd CLM_ERF_A[4];
extern const double CLM_ERF_A_TAIL[11];
#define CLM_ERFC_N 42
extern const double CLM_ERFC_C[CLM_ERFC_N];
extern const dd CLM_ERFC_G[CLM_ERFC_N][4];
extern const double CLM_ERFC_T[CLM_ERFC_N][14];
extern const dd CLM_LGAM_S[9];
extern const double CLM_LGAM_S_TAIL[28];
extern const double CLM_LGAM_ST[13];

/* ---- fast float paths (stdlib/libm_fast.c): true with *r the correctly
 * rounded result when a double evaluation decides it ---- */
#define CLM_FAST1(X)                                                       \
    X(exp) X(exp2) X(log) X(log2) X(log1p) X(sqrt) X(sin) X(cos) X(tan)   \
    X(atan) X(tanh) X(cbrt) X(erf) X(erfc)
#define CLM_FAST_DECL1(n) bool clm_fast_##n##f(float x, float *r);
CLM_FAST1(CLM_FAST_DECL1)
#undef CLM_FAST_DECL1
bool clm_fast_powf(float x, float y, float *r);
bool clm_fast_hypotf(float x, float y, float *r);

/* The public double and float entry points of a kernel n##_k that
 * returns a double-double and an extra binary exponent: rounded once. The
 * float one first asks the fast path `fast` (an expression that sets the
 * float r and is true when it decided; 0 for none). PD, PF: the double
 * and float parameters, A: the arguments. */
#define WRAP_(n, PD, PF, A, fast)                                           \
    double clvm_##n PD                                                      \
    {                                                                       \
        int e = 0;                                                          \
        dd v = n##_k(WRAP_ARGS A, &e);                                      \
        return clm_fin_d(v, e);                                             \
    }                                                                       \
    float clvm_##n##f PF                                                    \
    {                                                                       \
        float r = 0;                                                        \
        if (fast)                                                           \
            return r;                                                       \
        int e = 0;                                                          \
        dd v = n##_k(WRAP_ARGS A, &e);                                      \
        return clm_fin_f(v, e);                                             \
    }
#define WRAP_ARGS(...) __VA_ARGS__
#define WRAP_P1 (double x), (float x), (x)
#define WRAP_P2 (double x, double y), (float x, float y), (x, y)
#define WRAP_X(...) WRAP_(__VA_ARGS__)
#define WRAP1(n) WRAP_X(n, WRAP_P1, 0)
#define WRAP2(n) WRAP_X(n, WRAP_P2, 0)
/* the same, the float one trying clm_fast_##n##f first */
#define WRAP1F(n) WRAP_X(n, WRAP_P1, clm_fast_##n##f(x, &r))
#define WRAP2F(n) WRAP_X(n, WRAP_P2, clm_fast_##n##f(x, y, &r))

#endif
