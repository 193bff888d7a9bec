/* clvm's own math library: the OpenCL C 1.2 math built-ins for float and
 * double, computed with the exact IEEE operations only (+ - * / and
 * integer arithmetic; no call into the host's libm), so the same bits
 * come out on every machine and with every C library.
 *
 * Float functions take and give float, double ones double. The accuracy
 * of each is in docs/semantics.md ("Math built-ins"), measured by
 * tests/unit/test_libm.c against MPFR; special values follow C99 Annex F
 * and the OpenCL C specification. Denormals are kept (never flushed). */
#ifndef CLVM_LIBM_H
#define CLVM_LIBM_H

#include <stdint.h>

#define CLVM_LIBM_1(X)                                                     \
    X(exp) X(exp2) X(exp10) X(expm1) X(log) X(log2) X(log10) X(log1p)      \
    X(sqrt) X(cbrt) X(rsqrt) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan)  \
    X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh) X(sinpi) X(cospi)  \
    X(tanpi) X(asinpi) X(acospi) X(atanpi) X(floor) X(ceil) X(trunc)     \
    X(round) X(rint) X(logb) X(erf) X(erfc) X(tgamma) X(lgamma)
#define CLVM_LIBM_2(X)                                                     \
    X(pow) X(powr) X(hypot) X(atan2) X(atan2pi) X(fmod) X(remainder)      \
    X(nextafter) X(copysign) X(fdim) X(maxmag) X(minmag)

#define CLVM_DECL1(n) double clvm_##n(double x); float clvm_##n##f(float x);
#define CLVM_DECL2(n)                                                      \
    double clvm_##n(double x, double y); float clvm_##n##f(float x, float y);
CLVM_LIBM_1(CLVM_DECL1)
CLVM_LIBM_2(CLVM_DECL2)
#undef CLVM_DECL1
#undef CLVM_DECL2

double clvm_fma(double x, double y, double z);
float clvm_fmaf(float x, float y, float z);
double clvm_pown(double x, int n);
float clvm_pownf(float x, int n);
double clvm_rootn(double x, int n);
float clvm_rootnf(float x, int n);
double clvm_ldexp(double x, int n);
float clvm_ldexpf(float x, int n);
int clvm_ilogb(double x);
int clvm_ilogbf(float x);
/* OpenCL's FP_ILOGB0 and FP_ILOGBNAN: INT_MIN and INT_MAX */
#define CLVM_FP_ILOGB0 (-2147483647 - 1)
#define CLVM_FP_ILOGBNAN 2147483647
double clvm_frexp(double x, int *e);
float clvm_frexpf(float x, int *e);
double clvm_modf(double x, double *ip);
float clvm_modff(float x, float *ip);
/* fract(x) = min(x - floor(x), 0x1.fffffep-1f / 0x1.fffffffffffffp-1),
 * *ip = floor(x) */
double clvm_fract(double x, double *ip);
float clvm_fractf(float x, float *ip);
double clvm_remquo(double x, double y, int *quo);
float clvm_remquof(float x, float y, int *quo);
void clvm_sincos(double x, double *s, double *c);
void clvm_sincosf(float x, float *s, float *c);
/* lgamma_r: log|gamma(x)|, with the sign of gamma(x) in *sign: +1 or -1,
 * and 0 where gamma has no sign: at its poles (+-0 and the negative
 * integers, as OpenCL C says), for NaN and for -inf. */
double clvm_lgamma_r(double x, int *sign);
float clvm_lgammaf_r(float x, int *sign);
/* nan(code): a quiet NaN with the code in its payload */
double clvm_nan(uint64_t code);
float clvm_nanf(uint32_t code);

#endif
