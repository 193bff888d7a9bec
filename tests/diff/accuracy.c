/* What OpenCL C 1.2 allows a math built-in's result to be (the full
 * profile's "Relative Error as ULPs" tables), and whether two results
 * are both within it: the difftest compares math calls this way, since
 * PoCL need not round as clvm does. */
#include "tests/diff/accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The spec's bound of each math function, float and double, as a + b * n
 * ulp (n: the vector width, for the geometric functions), or an absolute
 * error. DT_ACC_SKIP: the spec gives no bound (undefined, implementation-
 * defined), or the generator covers the function exactly elsewhere
 * (relational tests, dot and cross of whole numbers, ldexp, copysign). A
 * bound of 0 ulp means the result is exact or correctly rounded: bits. */
enum acc_kind { ACC_ULP, ACC_ABS, ACC_SKIP };

typedef struct {
    const char *name;
    enum acc_kind kind;
    double f, fn, d, dn; /* float a, b; double a, b (ACC_ABS: f, d) */
} spec_acc;

#define U(name, f, d) {#name, ACC_ULP, f, 0, d, 0}
#define UN(name, f, fn, d, dn) {#name, ACC_ULP, f, fn, d, dn}
#define SKIP(name) {#name, ACC_SKIP, 0, 0, 0, 0}
#define HALF(name) {"half_" #name, ACC_ULP, 8192, 0, -1, 0}
#define NATIVE(name) SKIP(native_##name)

/* -1: the function has no double form. sqrt and divide are correctly
 * rounded in float too: the difftest builds with
 * -cl-fp32-correctly-rounded-divide-sqrt. */
static const spec_acc specs[] = {
    U(sqrt, 0, 0), U(rsqrt, 2, 2), U(floor, 0, 0), U(ceil, 0, 0), U(trunc, 0, 0),
    U(round, 0, 0), U(rint, 0, 0), U(exp, 3, 3), U(exp2, 3, 3), U(exp10, 3, 3),
    U(expm1, 3, 3), U(log, 3, 3), U(log2, 3, 3), U(log10, 3, 3), U(log1p, 2, 2),
    U(pow, 16, 16), U(pown, 16, 16), U(powr, 16, 16), U(rootn, 16, 16),
    U(sin, 4, 4), U(cos, 4, 4), U(tan, 5, 5), U(sinh, 4, 4), U(cosh, 4, 4),
    U(tanh, 5, 5), U(asin, 4, 4), U(acos, 4, 4), U(atan, 5, 5), U(asinh, 4, 4),
    U(acosh, 4, 4), U(atanh, 5, 5), U(sinpi, 4, 4), U(cospi, 4, 4), U(tanpi, 6, 6),
    U(asinpi, 5, 5), U(acospi, 5, 5), U(atanpi, 5, 5), U(atan2, 6, 6),
    U(atan2pi, 6, 6), U(cbrt, 2, 2), U(hypot, 4, 4), U(erf, 16, 16), U(erfc, 16, 16),
    U(tgamma, 16, 16), U(degrees, 2, 2), U(radians, 2, 2), U(logb, 0, 0),
    U(fmod, 0, 0), U(remainder, 0, 0), U(fdim, 0, 0), U(maxmag, 0, 0),
    U(minmag, 0, 0), U(nextafter, 0, 0), U(step, 0, 0), U(sign, 0, 0),
    U(fract, 0, 0), U(frexp, 0, 0), U(modf, 0, 0), U(remquo, 0, 0), U(sincos, 4, 4),
    U(ilogb, 0, 0),
    {"mix", ACC_ABS, 1e-3, 0, -1, 0}, {"smoothstep", ACC_ABS, 1e-5, 0, -1, 0},
    UN(length, 2.75, 0.5, 5.5, 1), UN(distance, 2.5, 2, 5.5, 2),
    UN(normalize, 2, 1, 4.5, 1), UN(fast_length, 8191.5, 1, -1, 0),
    UN(fast_distance, 8191.5, 2, -1, 0), UN(fast_normalize, 8192, 1, -1, 0),
    HALF(cos), HALF(divide), HALF(exp), HALF(exp2), HALF(exp10), HALF(log),
    HALF(log2), HALF(log10), HALF(powr), HALF(recip), HALF(rsqrt), HALF(sin),
    HALF(sqrt), HALF(tan),
    NATIVE(cos), NATIVE(divide), NATIVE(exp), NATIVE(exp2), NATIVE(exp10),
    NATIVE(log), NATIVE(log2), NATIVE(log10), NATIVE(powr), NATIVE(recip),
    NATIVE(rsqrt), NATIVE(sin), NATIVE(sqrt), NATIVE(tan),
    SKIP(lgamma), SKIP(lgamma_r), SKIP(nan), SKIP(dot), SKIP(cross), SKIP(ldexp),
    SKIP(copysign),
};

static const spec_acc *spec_of(enum mathfn f)
{
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        if (!strcmp(specs[i].name, mathfns[f].name))
            return &specs[i];
    return NULL;
}

bool dt_acc_float_fn(enum mathfn f)
{
    unsigned dom = mathfns[f].dom, sh = mathfns[f].shape;
    return (dom == MFD_FLT || dom == MFD_F32) && sh != MFS_MASK;
}

void dt_acc_check_table(void)
{
    for (int f = 0; f < MF_COUNT; f++)
        if (dt_acc_float_fn((enum mathfn)f) && !spec_of((enum mathfn)f)) {
            fprintf(stderr, "difftest: tests/diff/accuracy.c has no OpenCL bound for %s\n",
                    mathfns[f].name);
            exit(2);
        }
}

bool dt_acc_compared(enum mathfn f, bool dbl)
{
    const spec_acc *s = spec_of(f);
    return s && s->kind != ACC_SKIP && (dbl ? s->d : s->f) >= 0;
}

/* How far v is from ref, in ulps of ref (of the largest finite binade
 * for an infinite ref; an infinite v counts as 2^(emax+1)). */
static double ulps_apart(double ref, double v, bool dbl)
{
    int mant = dbl ? 52 : 23, emin = dbl ? -1022 : -126, top = dbl ? 1024 : 128, e;
    if (isinf(ref)) {
        e = top - 1;
    } else {
        (void)frexp(ref, &e);
        e = e - 1 < emin ? emin : e - 1;
    }
    double r = isinf(ref) ? copysign(2.0, ref) : ldexp(ref, -e);
    double w = isinf(v) ? copysign(ldexp(1.0, top - e), v) : ldexp(v, -e);
    return ldexp(fabs(r - w), mant);
}

double dt_acc_bound(enum mathfn f, bool dbl, unsigned n, bool second)
{
    const spec_acc *s = spec_of(f);
    double a = dbl ? s->d : s->f, b = dbl ? s->dn : s->fn;
    if (s->kind == ACC_ABS)
        return 2 * a;
    if (second) /* sincos's cosine: its bound; the other pointer outputs are exact */
        return f == MF_SINCOS ? a + mathfns[f].bound[dbl] : 0;
    double spec = a + b * n;
    if (spec == 0) /* exact or correctly rounded: one answer */
        return 0;
    double own = mathfns[f].unit == MF_SPEC ? spec : mathfns[f].bound[dbl];
    return spec + own;
}

bool dt_acc_within(enum mathfn f, bool dbl, unsigned n, bool second, double ref,
                   double v, double *apart)
{
    *apart = 0;
    if (isnan(ref) || isnan(v))
        return isnan(ref) && isnan(v);
    double bound = dt_acc_bound(f, dbl, n, second);
    /* A zero's sign is the spec's where the result is exact; a result
     * that underflows may be either zero (it is within 1 ulp of both). The
     * edge cases of sinpi and tanpi at integers are fault 6 below. */
    if (ref == v)
        return signbit(ref) == signbit(v) || (bound > 0 && f != MF_SINPI && f != MF_TANPI);
    if (spec_of(f)->kind == ACC_ABS) {
        *apart = fabs(ref - v);
        return *apart <= bound;
    }
    *apart = ulps_apart(ref, v, dbl);
    return *apart <= bound;
}

int dt_acc_pocl_fault(enum mathfn f, bool dbl, unsigned n, double ref, double v)
{
    if (!dbl && n > 1 && (f == MF_SIN || f == MF_COS || f == MF_TAN || f == MF_SINCOS))
        return 4;
    if (dbl && n > 1 && (f == MF_POW || f == MF_POWN || f == MF_POWR || f == MF_FMOD ||
                         f == MF_REMAINDER || f == MF_REMQUO || f == MF_ROOTN))
        return 5;
    if ((f == MF_SINPI || f == MF_TANPI || f == MF_FRACT) && ref == 0 && v == 0)
        return 6;
    return 0;
}
