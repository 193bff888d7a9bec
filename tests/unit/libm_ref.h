/* What the MPFR tests of stdlib/libm share (tests/unit/test_libm.c,
 * tests/unit/exhaustive_libm.c): the references that MPFR lacks under
 * OpenCL's name or special values, and a result's error in ulp as OpenCL
 * defines it. Static functions: each test program includes this once. */
#ifndef CLVM_TESTS_LIBM_REF_H
#define CLVM_TESTS_LIBM_REF_H

#include <float.h>
#include <gmp.h>
#include <math.h>
#include <mpfr.h>

/* rsqrt(+-0) = +-inf (MPFR gives +inf) */
static inline int r_rsqrt(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    if (mpfr_zero_p(x)) {
        mpfr_set_inf(r, mpfr_signbit(x) ? -1 : 1);
        return 0;
    }
    return mpfr_rec_sqrt(r, x, m);
}
static inline int r_logb(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
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
/* the roundings to an integer: MPFR's take no rounding mode */
#define R_INT(name)                                                         \
    static inline int r_##name(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)    \
    {                                                                       \
        (void)m;                                                            \
        return mpfr_##name(r, x);                                           \
    }
R_INT(round)
R_INT(floor)
R_INT(ceil)
R_INT(trunc)
#undef R_INT
static inline int r_rint(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    return mpfr_rint(r, x, m);
}
static inline int r_lgamma(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m)
{
    int s;
    return mpfr_lgamma(r, &s, x, m);
}

/* a binary format: precision, exponent range, largest finite */
typedef struct {
    int p, emin, emax;
    double max;
} fmt_t;
static const fmt_t FF = {24, -126, 127, FLT_MAX}, FD = {53, -1022, 1023, DBL_MAX};

/* |got - ref| in ulp of ref (OpenCL's ulp); INFINITY for a wrong special
 * value or wrong sign of zero. t: scratch. */
static inline double ulp_err(double got, mpfr_srcptr ref, const fmt_t *f,
                             mpfr_ptr t)
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

#endif
