/* What the half tests share (tests/exhaustive_half.c, every input;
 * tests/unit/test_fp16.c, a sample in make test): MPFR references for the
 * one-operand functions of the math table at half, the half format for
 * ulp_err, and a bit-for-bit comparison with MPFR rounded to half. Static
 * functions: each program includes this once. */
#ifndef CLVM_TESTS_HALF_REF_H
#define CLVM_TESTS_HALF_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "stdlib/half.h"
#include "stdlib/mathfn.h"
#include "tests/unit/libm_ref.h"

static const fmt_t FH = {11, -14, 15, 65504.0};

/* MPFR rounds to half as binary16 does with 11 bits of precision and
 * these exponents (MPFR's significand is in [0.5, 1)); each result then
 * goes through mpfr_subnormalize. */
#define HALF_EMIN (-23) /* 2^-24 = 0.5 * 2^-23, the smallest denormal */
#define HALF_EMAX 16    /* 65504 = 0.11111111111b * 2^16 */

typedef int (*mp1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
static int r_exp10(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    return mpfr_exp10(r, x, m);
}
static int r_gamma(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    if (mpfr_zero_p(x)) { /* tgamma(+-0) = +-inf */
        mpfr_set_inf(r, mpfr_signbit(x) ? -1 : 1);
        return 0;
    }
    return mpfr_gamma(r, x, m);
}
/* x * 180/pi and x * pi/180 to 128 bits (the reference is an exact value
 * to far more bits than a half ulp needs) */
static int r_degrees(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    mpfr_t p;
    mpfr_init2(p, 200);
    mpfr_const_pi(p, m);
    mpfr_ui_div(p, 180, p, m);
    int i = mpfr_mul(r, x, p, m);
    mpfr_clear(p);
    return i;
}
static int r_radians(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    mpfr_t p;
    mpfr_init2(p, 200);
    mpfr_const_pi(p, m);
    mpfr_div_ui(p, p, 180, m);
    int i = mpfr_mul(r, x, p, m);
    mpfr_clear(p);
    return i;
}

static const struct {
    enum mathfn f;
    mp1 ref;
} unary[] = {
    {MF_SQRT, mpfr_sqrt}, {MF_RSQRT, r_rsqrt}, {MF_FLOOR, r_floor},
    {MF_CEIL, r_ceil}, {MF_TRUNC, r_trunc}, {MF_ROUND, r_round},
    {MF_RINT, r_rint}, {MF_EXP, mpfr_exp}, {MF_EXP2, mpfr_exp2},
    {MF_LOG, mpfr_log}, {MF_LOG2, mpfr_log2}, {MF_SIN, mpfr_sin},
    {MF_COS, mpfr_cos}, {MF_TAN, mpfr_tan}, {MF_EXP10, r_exp10},
    {MF_EXPM1, mpfr_expm1}, {MF_LOG10, mpfr_log10}, {MF_LOG1P, mpfr_log1p},
    {MF_CBRT, mpfr_cbrt}, {MF_ASIN, mpfr_asin}, {MF_ACOS, mpfr_acos},
    {MF_ATAN, mpfr_atan}, {MF_SINH, mpfr_sinh}, {MF_COSH, mpfr_cosh},
    {MF_TANH, mpfr_tanh}, {MF_ASINH, mpfr_asinh}, {MF_ACOSH, mpfr_acosh},
    {MF_ATANH, mpfr_atanh}, {MF_SINPI, mpfr_sinpi}, {MF_COSPI, mpfr_cospi},
    {MF_TANPI, mpfr_tanpi}, {MF_ASINPI, mpfr_asinpi},
    {MF_ACOSPI, mpfr_acospi}, {MF_ATANPI, mpfr_atanpi}, {MF_LOGB, r_logb},
    {MF_ERF, mpfr_erf}, {MF_ERFC, mpfr_erfc}, {MF_TGAMMA, r_gamma},
    {MF_LGAMMA, r_lgamma}, {MF_DEGREES, r_degrees},
    {MF_RADIANS, r_radians},
};
#define NUNARY (sizeof unary / sizeof unary[0])

/* MPFR's result rounded to half (11 bits, half's exponents, denormals)
 * equals got, a NaN any NaN, a zero of the right sign. */
static bool same(mpfr_srcptr r, uint16_t got)
{
    double g = half_to_double(got), w = mpfr_get_d(r, MPFR_RNDN);
    if (w != w)
        return g != g;
    return g == w && signbit(g) == signbit(w);
}

#endif
