/* The math built-ins beyond the dedicated opcodes (mad fma min max fmin fmax
 * clamp abs fabs select): one table, from which the assembler's names, the
 * verifier's rules, the interpreter's loops, the disassembler and the
 * accuracy table of docs/semantics.md all come.
 *
 * MATHFNS(X, P) calls X(P, ENUM, name, args, dom, res, unit, bf, bd, impl)
 * per function (P passes through, so a caller can forward its own macro):
 *   args  1, 2 or 3 operands of one type (a scalar operand meeting a
 *         vector is broadcast by the assembler)
 *   dom   FLT   float and double
 *         INT   the integer types
 *         ANY   both (bit operations)
 *   res   SAME  the operands' type
 *         MASK  the signed integer of the element size: 1/0 for a scalar,
 *               -1/0 per component for a vector (the relational functions)
 *   unit, bf, bd  the accuracy clvm guarantees for float and double:
 *         ULP   at most that many ulp from the exact result (0: exact,
 *               0.5: correctly rounded), as OpenCL measures ulp;
 *               INFINITY: no bound in ulp (OpenCL's "undefined": double
 *               lgamma near its zeros on the negative axis)
 *         ABS   absolute error at most that
 *         EXACT no rounding (integer and bit results)
 *   impl  the value, a C expression of
 *         FLT: double x, y, z (the operands, exactly); cl_NAME(...) is
 *              clvm's own NAME of stdlib/libm.h for the operand type
 *              (clvm_NAMEf for float, clvm_NAME for double: never the
 *              host's libm); other formulas are evaluated in double and
 *              rounded once to the operand type
 *         INT: uint64_t x, y, z (the operands' bits, zero-extended),
 *              unsigned w (bits of the type), bool s (signed); the result's
 *              low w bits are kept
 *         ANY: uint64_t x, y, z (the operands' bits)
 * tests/unit/test_mathfn.c checks every bound against a reference computed
 * in long double (the cl_ rows: that the row gives clvm_NAME's bits), and
 * that docs/semantics.md shows this table; tests/unit/test_libm.c measures
 * stdlib/libm against MPFR. New rows go at the end: a row's position is
 * its function id in bytecode. */
#ifndef CLVM_MATHFN_H
#define CLVM_MATHFN_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stdlib/types.h"

#define MATHFNS(X, P)                                                       \
    X(P, SQRT,       sqrt,       1, FLT, SAME, ULP, 0.5,  0.5,  cl_sqrt(x)) \
    X(P, RSQRT,      rsqrt,      1, FLT, SAME, ULP, 1,    1,    cl_rsqrt(x))\
    X(P, FLOOR,      floor,      1, FLT, SAME, ULP, 0,    0,    cl_floor(x))\
    X(P, CEIL,       ceil,       1, FLT, SAME, ULP, 0,    0,    cl_ceil(x)) \
    X(P, TRUNC,      trunc,      1, FLT, SAME, ULP, 0,    0,    cl_trunc(x))\
    X(P, ROUND,      round,      1, FLT, SAME, ULP, 0,    0,    cl_round(x))\
    X(P, RINT,       rint,       1, FLT, SAME, ULP, 0,    0,    cl_rint(x)) \
    X(P, EXP,        exp,        1, FLT, SAME, ULP, 1,    1,    cl_exp(x))  \
    X(P, EXP2,       exp2,       1, FLT, SAME, ULP, 1,    1,    cl_exp2(x)) \
    X(P, LOG,        log,        1, FLT, SAME, ULP, 1,    1,    cl_log(x))  \
    X(P, LOG2,       log2,       1, FLT, SAME, ULP, 1,    1,    cl_log2(x)) \
    X(P, POW,        pow,        2, FLT, SAME, ULP, 1,    1,    cl_pow(x, y))\
    X(P, SIN,        sin,        1, FLT, SAME, ULP, 1,    1,    cl_sin(x))  \
    X(P, COS,        cos,        1, FLT, SAME, ULP, 1,    1,    cl_cos(x))  \
    X(P, TAN,        tan,        1, FLT, SAME, ULP, 1,    1,    cl_tan(x))  \
    X(P, MIX,        mix,        3, FLT, SAME, ABS, 1e-3, 1e-3,             \
      x + (y - x) * z)                                                      \
    X(P, STEP,       step,       2, FLT, SAME, ULP, 0,    0,                \
      y < x ? 0.0 : 1.0)                                                    \
    X(P, SMOOTHSTEP, smoothstep, 3, FLT, SAME, ABS, 1e-5, 1e-5,             \
      mf_smoothstep(x, y, z))                                               \
    X(P, SIGN,       sign,       1, FLT, SAME, ULP, 0,    0,                \
      x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? x : 0.0)                        \
    X(P, ISNAN,      isnan,      1, FLT, MASK, EXACT, 0,  0,    x != x)     \
    X(P, ISINF,      isinf,      1, FLT, MASK, EXACT, 0,  0,                \
      mf_isinf(x))                                                          \
    X(P, ISFINITE,   isfinite,   1, FLT, MASK, EXACT, 0,  0,                \
      mf_isfinite(x))                                                       \
    X(P, SIGNBIT,    signbit,    1, FLT, MASK, EXACT, 0,  0,                \
      mf_signbit(x))                                                        \
    X(P, BITSELECT,  bitselect,  3, ANY, SAME, EXACT, 0,  0,                \
      (x & ~z) | (y & z))                                                   \
    X(P, CLZ,        clz,        1, INT, SAME, EXACT, 0,  0,                \
      mf_clz(x, w))                                                         \
    X(P, POPCOUNT,   popcount,   1, INT, SAME, EXACT, 0,  0,                \
      mf_popcount(x, w))                                                    \
    X(P, ADD_SAT,    add_sat,    2, INT, SAME, EXACT, 0,  0,                \
      mf_add_sat(x, y, w, s))                                               \
    X(P, SUB_SAT,    sub_sat,    2, INT, SAME, EXACT, 0,  0,                \
      mf_sub_sat(x, y, w, s))                                               \
    X(P, MUL_HI,     mul_hi,     2, INT, SAME, EXACT, 0,  0,                \
      mf_mul_hi(x, y, w, s))                                                \
    X(P, ROTATE,     rotate,     2, INT, SAME, EXACT, 0,  0,                \
      mf_rotate(x, y, w))                                                   \
    X(P, EXP10,      exp10,      1, FLT, SAME, ULP, 1,    1,    cl_exp10(x))\
    X(P, EXPM1,      expm1,      1, FLT, SAME, ULP, 1,    1,    cl_expm1(x))\
    X(P, LOG10,      log10,      1, FLT, SAME, ULP, 1,    1,    cl_log10(x))\
    X(P, LOG1P,      log1p,      1, FLT, SAME, ULP, 1,    1,    cl_log1p(x))\
    X(P, CBRT,       cbrt,       1, FLT, SAME, ULP, 1,    1,    cl_cbrt(x)) \
    X(P, ASIN,       asin,       1, FLT, SAME, ULP, 1,    1,    cl_asin(x)) \
    X(P, ACOS,       acos,       1, FLT, SAME, ULP, 1,    1,    cl_acos(x)) \
    X(P, ATAN,       atan,       1, FLT, SAME, ULP, 1,    1,    cl_atan(x)) \
    X(P, SINH,       sinh,       1, FLT, SAME, ULP, 1,    1,    cl_sinh(x)) \
    X(P, COSH,       cosh,       1, FLT, SAME, ULP, 1,    1,    cl_cosh(x)) \
    X(P, TANH,       tanh,       1, FLT, SAME, ULP, 1,    1,    cl_tanh(x)) \
    X(P, ASINH,      asinh,      1, FLT, SAME, ULP, 1,    1,    cl_asinh(x))\
    X(P, ACOSH,      acosh,      1, FLT, SAME, ULP, 1,    1,    cl_acosh(x))\
    X(P, ATANH,      atanh,      1, FLT, SAME, ULP, 1,    1,    cl_atanh(x))\
    X(P, SINPI,      sinpi,      1, FLT, SAME, ULP, 1,    1,    cl_sinpi(x))\
    X(P, COSPI,      cospi,      1, FLT, SAME, ULP, 1,    1,    cl_cospi(x))\
    X(P, TANPI,      tanpi,      1, FLT, SAME, ULP, 1,    1,    cl_tanpi(x))\
    X(P, ASINPI,     asinpi,     1, FLT, SAME, ULP, 1,    1,                \
      cl_asinpi(x))                                                         \
    X(P, ACOSPI,     acospi,     1, FLT, SAME, ULP, 1,    1,                \
      cl_acospi(x))                                                         \
    X(P, ATANPI,     atanpi,     1, FLT, SAME, ULP, 1,    1,                \
      cl_atanpi(x))                                                         \
    X(P, LOGB,       logb,       1, FLT, SAME, ULP, 0,    0,    cl_logb(x)) \
    X(P, ATAN2,      atan2,      2, FLT, SAME, ULP, 1,    1,                \
      cl_atan2(x, y))                                                       \
    X(P, ATAN2PI,    atan2pi,    2, FLT, SAME, ULP, 1,    1,                \
      cl_atan2pi(x, y))                                                     \
    X(P, HYPOT,      hypot,      2, FLT, SAME, ULP, 1,    1,                \
      cl_hypot(x, y))                                                       \
    X(P, POWR,       powr,       2, FLT, SAME, ULP, 1,    1,    cl_powr(x, y))\
    X(P, FMOD,       fmod,       2, FLT, SAME, ULP, 0,    0,    cl_fmod(x, y))\
    X(P, REMAINDER,  remainder,  2, FLT, SAME, ULP, 0,    0,                \
      cl_remainder(x, y))                                                   \
    X(P, FDIM,       fdim,       2, FLT, SAME, ULP, 0.5,  0.5,  cl_fdim(x, y))\
    X(P, MAXMAG,     maxmag,     2, FLT, SAME, ULP, 0,    0,                \
      cl_maxmag(x, y))                                                      \
    X(P, MINMAG,     minmag,     2, FLT, SAME, ULP, 0,    0,                \
      cl_minmag(x, y))                                                      \
    X(P, NEXTAFTER,  nextafter,  2, FLT, SAME, ULP, 0,    0,                \
      cl_nextafter(x, y))                                                   \
    X(P, COPYSIGN,   copysign,   2, FLT, SAME, ULP, 0,    0,                \
      cl_copysign(x, y))                                                    \
    X(P, ERF,        erf,        1, FLT, SAME, ULP, 1,    1,    cl_erf(x))  \
    X(P, ERFC,       erfc,       1, FLT, SAME, ULP, 1,    1,    cl_erfc(x)) \
    X(P, TGAMMA,     tgamma,     1, FLT, SAME, ULP, 1,    1,                \
      cl_tgamma(x))                                                         \
    X(P, LGAMMA,     lgamma,     1, FLT, SAME, ULP, 1,    INFINITY,         \
      cl_lgamma(x))

enum mathfn {
#define MF_ENUM(P, E, ...) MF_##E,
    MATHFNS(MF_ENUM, _)
#undef MF_ENUM
    MF_COUNT
};

enum mf_dom { MF_FLT, MF_INT, MF_ANY };
enum mf_res { MF_SAME, MF_MASK };
enum mf_unit { MF_ULP, MF_ABS, MF_EXACT };

typedef struct {
    const char *name;
    uint8_t nargs;    /* 1..3 */
    uint8_t dom;      /* enum mf_dom */
    uint8_t res;      /* enum mf_res */
    uint8_t unit;     /* enum mf_unit */
    double bound[2];  /* float, double */
    const char *impl; /* the expression, for the docs */
} mathfn_info;

extern const mathfn_info mathfns[MF_COUNT];

/* The function named name[0..len), or -1. */
int mathfn_find(const char *name, size_t len);

/* Does f take operands of element type t? (half: never.) */
bool mathfn_takes(enum mathfn f, enum ty_scalar t);

/* d[i] = f(a[i], b[i], c[i]) for i < n, elements of type t in native byte
 * order (b, c unused below the function's arity; d may be a, b or c). A
 * MASK result is written as an integer of t's size: vec ? -1 : 1 for true.
 * Nothing happens if !mathfn_takes(f, t). */
void mathfn_run(enum mathfn f, enum ty_scalar t, void *d, const void *a,
                const void *b, const void *c, size_t n, bool vec);

/* The accuracy table of docs/semantics.md (markdown rows, no markers). */
void mathfn_write_md(FILE *out);

#endif
