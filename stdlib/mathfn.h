/* The math, integer, common, geometric, relational and vector built-ins
 * beyond the dedicated opcodes (mad fma min max fmin fmax clamp abs fabs
 * select): one table, from which the assembler's names and typing, the
 * verifier's rules, the interpreter's loops, the disassembler, the REPL's
 * help and the tables of docs/ir.md and docs/semantics.md all come.
 *
 * MATHFNS(X, P) calls X(P, ENUM, name, args, dom, shape, unit, bf, bd, bh,
 * oc, doc, impl) per function (P passes through, so a caller can forward
 * its own macro):
 *   args  1, 2 or 3 operands
 *   dom   the element types of the gentype (mathfn_takes):
 *         FLT   half, float and double    F32  float only (half_, native_,
 *         INT   the integer types              fast_)
 *         I32   int and uint (mad24)      NRW  char..uint (upsample)
 *         SGN   the signed integers       UNS  ushort, uint and ulong (nan)
 *         ANY   every type, half too (bit operations)
 *         ALL   every type, half too (shuffle moves bits)
 *         (half: only with cl_khr_fp16 in OpenCL C; the IR always has it)
 *   shape how operands and result relate to the gentype T (mathfn_sig):
 *         SAME  every operand and the result T (a scalar operand meeting a
 *               vector is broadcast by the assembler)
 *         MASK  operands T, result the signed integer of T's element size:
 *               1/0 for a scalar, -1/0 per component of a vector
 *         UTYP  operands T, result the unsigned T (abs_diff)
 *         UTOF  operand T (ushort/uint/ulong), result the floating type of
 *               its size
 *         ARGI  operand 2 an int of T's width, or one int broadcast (ldexp)
 *         ARGN  operand 2 an int of T's width (pown, rootn)
 *         ILOG  result an int of T's width (ilogb)
 *         PTR   result T, and a second result T through a pointer (the
 *               last operand): modf, fract, sincos
 *         PTRI  the same with an int of T's width (frexp, remquo)
 *         WIDE  operand 2 unsigned T, result twice T's element size with
 *               T's sign (upsample)
 *         RED   a scalar result from whole vectors: T's element, or int
 *               for integer T (dot, length, any, all)
 *         VEC   whole vectors to a vector T (cross, normalize)
 *         SHUF  the elements of T picked by an unsigned mask of m
 *               components: a result of m components (shuffle, shuffle2)
 *   unit, bf, bd, bh  the accuracy clvm guarantees for float, double and
 *         half (bh: the double function on the exact operands, rounded once
 *         to half; 0.5 where tests/exhaustive.c checks every half input):
 *         ULP   at most that many ulp from the exact result (0: exact,
 *               0.5: correctly rounded), as OpenCL measures ulp;
 *               MF_UNDEF: no bound in ulp (OpenCL's "undefined": double
 *               lgamma near its zeros on the negative axis)
 *         ABS   absolute error at most that
 *         EXACT no rounding (integer and bit results)
 *         SPEC  within the bound OpenCL states for it (the geometric
 *               functions: docs/semantics.md gives clvm's method)
 *   oc    its OpenCL.std extended-instruction number (SPIR-V OpExtInst):
 *         OC(n) one for every type, OCI(s, u) for signed and unsigned
 *         integers, OC(-1) where SPIR-V has a core instruction instead
 *         (OpDot, OpAny, OpAll, OpFOrdEqual, OpIsNormal ...)
 *   doc   what it computes, in one line (the REPL's help; docs/ir.md)
 *   (ENUM may not be a macro of <math.h>: nan's is QNAN, not NAN)
 *   impl  the value, a C expression of
 *         FLT: double x, y, z (the operands, exactly); cl_NAME(...) is
 *              clvm's own NAME of stdlib/libm.h for the operand type
 *              (clvm_NAMEf for float, clvm_NAME for double and half: never
 *              the host's libm); other formulas are evaluated in double
 *              and rounded once to the operand type; F32 and F16 say
 *              which the operand type is
 *         INT: uint64_t x, y, z (the operands' bits, zero-extended),
 *              unsigned w (bits of the type), bool s (signed); the result's
 *              low w bits are kept
 *         ANY: uint64_t x, y, z (the operands' bits)
 *         PTR/PTRI rows set the second result o2 (double) / i2 (int);
 *         RED, VEC and SHUF rows see whole vectors of n components
 *         (m: SHUF's mask): va, vb, vc as doubles (FLT) and ua, ub, uc
 *         as bits, and write vr[] (VEC) or ur[] (SHUF) or give the value
 *         (RED); the impl may not name X or P (the macro's parameters)
 * tests/unit/test_mathfn.c checks every bound against a reference computed
 * in long double (the cl_ rows: that the row gives clvm_NAME's bits), the
 * oc numbers against the SPIR-V grammar, and that docs/semantics.md shows
 * this table; tests/unit/test_libm.c measures stdlib/libm against MPFR.
 * New rows go at the end: a row's position is its function id in
 * bytecode. */
#ifndef CLVM_MATHFN_H
#define CLVM_MATHFN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stdlib/types.h"

/* The half_ and native_ forms of a float function: clvm computes both as
 * the full function (docs/semantics.md: their precision per profile); the
 * OpenCL.std numbers of the native_ forms are the half_ ones + 14. */
#define MF_HN(X, P, E, name, args, b, oc, impl)                             \
    X(P, HALF_##E, half_##name, args, F32, SAME, ULP, b, b, b, OC(oc),      \
      #name " within 8192 ulp (clvm: within the bound shown)", impl)        \
    X(P, NATIVE_##E, native_##name, args, F32, SAME, ULP, b, b, b,          \
      OC(oc + 14), #name " of implementation-defined precision (clvm: "     \
      "within the bound shown)", impl)

/* A bound of no ulp at all (DBL_MAX; the docs say "undefined"). */
#define MF_UNDEF 1.7976931348623157e308

#define MATHFNS(X, P)                                                       \
    X(P, SQRT, sqrt, 1, FLT, SAME, ULP, 0.5, 0.5, 0.5, OC(61),              \
      "square root", cl_sqrt(x))                                            \
    X(P, RSQRT, rsqrt, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(56),                \
      "1 / sqrt(x)", cl_rsqrt(x))                                           \
    X(P, FLOOR, floor, 1, FLT, SAME, ULP, 0, 0, 0, OC(25),                  \
      "round toward -infinity", cl_floor(x))                                \
    X(P, CEIL, ceil, 1, FLT, SAME, ULP, 0, 0, 0, OC(12),                    \
      "round toward +infinity", cl_ceil(x))                                 \
    X(P, TRUNC, trunc, 1, FLT, SAME, ULP, 0, 0, 0, OC(66),                  \
      "round toward zero", cl_trunc(x))                                     \
    X(P, ROUND, round, 1, FLT, SAME, ULP, 0, 0, 0, OC(55),                  \
      "round to nearest, halfway cases away from zero", cl_round(x))        \
    X(P, RINT, rint, 1, FLT, SAME, ULP, 0, 0, 0, OC(53),                    \
      "round to nearest even", cl_rint(x))                                  \
    X(P, EXP, exp, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(19),                    \
      "e to the x", cl_exp(x))                                              \
    X(P, EXP2, exp2, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(20),                  \
      "2 to the x", cl_exp2(x))                                             \
    X(P, LOG, log, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(37),                    \
      "natural logarithm", cl_log(x))                                       \
    X(P, LOG2, log2, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(38),                  \
      "base 2 logarithm", cl_log2(x))                                       \
    X(P, POW, pow, 2, FLT, SAME, ULP, 1, 1, 1, OC(48),                      \
      "x to the y", cl_pow(x, y))                                           \
    X(P, SIN, sin, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(57),                    \
      "sine", cl_sin(x))                                                    \
    X(P, COS, cos, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(14),                    \
      "cosine", cl_cos(x))                                                  \
    X(P, TAN, tan, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(62),                    \
      "tangent", cl_tan(x))                                                 \
    X(P, MIX, mix, 3, FLT, SAME, ABS, 1e-3, 1e-3, 1e-3, OC(99),             \
      "x + (y - x) * a (a may be a scalar)", x + (y - x) * z)               \
    X(P, STEP, step, 2, FLT, SAME, ULP, 0, 0, 0, OC(101),                   \
      "0.0 if x < edge, else 1.0 (edge may be a scalar)", y < x ? 0.0 : 1.0)\
    X(P, SMOOTHSTEP, smoothstep, 3, FLT, SAME, ABS, 1e-5, 1e-5, 1e-5,       \
      OC(102),                                                              \
      "Hermite interpolation between 0 and 1 when edge0 < x < edge1",       \
      mf_smoothstep(x, y, z))                                               \
    X(P, SIGN, sign, 1, FLT, SAME, ULP, 0, 0, 0, OC(103),                   \
      "1.0, -1.0, or x itself for +-0 and 0 for NaN",                       \
      x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? x : 0.0)                        \
    X(P, ISNAN, isnan, 1, FLT, MASK, EXACT, 0, 0, 0, OC(-1),                \
      "is x a NaN", x != x)                                                 \
    X(P, ISINF, isinf, 1, FLT, MASK, EXACT, 0, 0, 0, OC(-1),                \
      "is x an infinity", mf_isinf(x))                                      \
    X(P, ISFINITE, isfinite, 1, FLT, MASK, EXACT, 0, 0, 0, OC(-1),          \
      "is x finite", mf_isfinite(x))                                        \
    X(P, SIGNBIT, signbit, 1, FLT, MASK, EXACT, 0, 0, 0, OC(-1),            \
      "is the sign bit set", mf_signbit(x))                                 \
    X(P, BITSELECT, bitselect, 3, ANY, SAME, EXACT, 0, 0, 0, OC(186),       \
      "each bit from b where c has a 1, else from a", (x & ~z) | (y & z))   \
    X(P, CLZ, clz, 1, INT, SAME, EXACT, 0, 0, 0, OC(151),                   \
      "leading zero bits", mf_clz(x, w))                                    \
    X(P, POPCOUNT, popcount, 1, INT, SAME, EXACT, 0, 0, 0, OC(166),         \
      "set bits", mf_popcount(x, w))                                        \
    X(P, ADD_SAT, add_sat, 2, INT, SAME, EXACT, 0, 0, 0, OCI(143, 144),     \
      "x + y, saturated", mf_add_sat(x, y, w, s))                           \
    X(P, SUB_SAT, sub_sat, 2, INT, SAME, EXACT, 0, 0, 0, OCI(162, 163),     \
      "x - y, saturated", mf_sub_sat(x, y, w, s))                           \
    X(P, MUL_HI, mul_hi, 2, INT, SAME, EXACT, 0, 0, 0, OCI(160, 203),       \
      "the high half of x * y", mf_mul_hi(x, y, w, s))                      \
    X(P, ROTATE, rotate, 2, INT, SAME, EXACT, 0, 0, 0, OC(161),             \
      "v rotated left by i bits (modulo the width)", mf_rotate(x, y, w))    \
    X(P, EXP10, exp10, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(21),                \
      "10 to the x", cl_exp10(x))                                           \
    X(P, EXPM1, expm1, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(22),                \
      "e to the x, minus 1", cl_expm1(x))                                   \
    X(P, LOG10, log10, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(39),                \
      "base 10 logarithm", cl_log10(x))                                     \
    X(P, LOG1P, log1p, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(40),                \
      "log(1 + x)", cl_log1p(x))                                            \
    X(P, CBRT, cbrt, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(11),                  \
      "cube root", cl_cbrt(x))                                              \
    X(P, ASIN, asin, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(3),                   \
      "arc sine", cl_asin(x))                                               \
    X(P, ACOS, acos, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(0),                   \
      "arc cosine", cl_acos(x))                                             \
    X(P, ATAN, atan, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(6),                   \
      "arc tangent", cl_atan(x))                                            \
    X(P, SINH, sinh, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(59),                  \
      "hyperbolic sine", cl_sinh(x))                                        \
    X(P, COSH, cosh, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(15),                  \
      "hyperbolic cosine", cl_cosh(x))                                      \
    X(P, TANH, tanh, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(63),                  \
      "hyperbolic tangent", cl_tanh(x))                                     \
    X(P, ASINH, asinh, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(4),                 \
      "inverse hyperbolic sine", cl_asinh(x))                               \
    X(P, ACOSH, acosh, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(1),                 \
      "inverse hyperbolic cosine", cl_acosh(x))                             \
    X(P, ATANH, atanh, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(8),                 \
      "inverse hyperbolic tangent", cl_atanh(x))                            \
    X(P, SINPI, sinpi, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(60),                \
      "sin(pi x)", cl_sinpi(x))                                             \
    X(P, COSPI, cospi, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(16),                \
      "cos(pi x)", cl_cospi(x))                                             \
    X(P, TANPI, tanpi, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(64),                \
      "tan(pi x)", cl_tanpi(x))                                             \
    X(P, ASINPI, asinpi, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(5),               \
      "asin(x) / pi", cl_asinpi(x))                                         \
    X(P, ACOSPI, acospi, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(2),               \
      "acos(x) / pi", cl_acospi(x))                                         \
    X(P, ATANPI, atanpi, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(9),               \
      "atan(x) / pi", cl_atanpi(x))                                         \
    X(P, LOGB, logb, 1, FLT, SAME, ULP, 0, 0, 0, OC(41),                    \
      "the exponent of x, as a floating value", cl_logb(x))                 \
    X(P, ATAN2, atan2, 2, FLT, SAME, ULP, 1, 1, 1, OC(7),                   \
      "arc tangent of y / x", cl_atan2(x, y))                               \
    X(P, ATAN2PI, atan2pi, 2, FLT, SAME, ULP, 1, 1, 1, OC(10),              \
      "atan2(y, x) / pi", cl_atan2pi(x, y))                                 \
    X(P, HYPOT, hypot, 2, FLT, SAME, ULP, 1, 1, 1, OC(32),                  \
      "sqrt(x^2 + y^2) without overflow", cl_hypot(x, y))                   \
    X(P, POWR, powr, 2, FLT, SAME, ULP, 1, 1, 1, OC(50),                    \
      "x to the y, x >= 0", cl_powr(x, y))                                  \
    X(P, FMOD, fmod, 2, FLT, SAME, ULP, 0, 0, 0, OC(29),                    \
      "x - y * trunc(x / y)", cl_fmod(x, y))                                \
    X(P, REMAINDER, remainder, 2, FLT, SAME, ULP, 0, 0, 0, OC(51),          \
      "x - y * n, n the nearest integer to x / y (even on ties)",           \
      cl_remainder(x, y))                                                   \
    X(P, FDIM, fdim, 2, FLT, SAME, ULP, 0.5, 0.5, 0.5, OC(24),              \
      "x - y if x > y, else +0", cl_fdim(x, y))                             \
    X(P, MAXMAG, maxmag, 2, FLT, SAME, ULP, 0, 0, 0, OC(43),                \
      "x if |x| > |y|, y if |y| > |x|, else fmax(x, y)", cl_maxmag(x, y))   \
    X(P, MINMAG, minmag, 2, FLT, SAME, ULP, 0, 0, 0, OC(44),                \
      "x if |x| < |y|, y if |y| < |x|, else fmin(x, y)", cl_minmag(x, y))   \
    X(P, NEXTAFTER, nextafter, 2, FLT, SAME, ULP, 0, 0, 0, OC(47),          \
      "the next representable value after x toward y", cl_nextafter(x, y))  \
    X(P, COPYSIGN, copysign, 2, FLT, SAME, ULP, 0, 0, 0, OC(13),            \
      "x with the sign of y", cl_copysign(x, y))                            \
    X(P, ERF, erf, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(18),                    \
      "the error function", cl_erf(x))                                      \
    X(P, ERFC, erfc, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(17),                  \
      "1 - erf(x), without cancellation", cl_erfc(x))                       \
    X(P, TGAMMA, tgamma, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(65),              \
      "the gamma function", cl_tgamma(x))                                   \
    X(P, LGAMMA, lgamma, 1, FLT, SAME, ULP, 1, MF_UNDEF, 0.5, OC(35),       \
      "log |gamma(x)|", cl_lgamma(x))                                       \
    X(P, ISEQUAL, isequal, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),            \
      "x == y", x == y)                                                     \
    X(P, ISNOTEQUAL, isnotequal, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),      \
      "x != y (true for NaN)", x != y)                                      \
    X(P, ISGREATER, isgreater, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),        \
      "x > y", x > y)                                                       \
    X(P, ISGREATEREQUAL, isgreaterequal, 2, FLT, MASK, EXACT, 0, 0, 0,      \
      OC(-1),                                                               \
      "x >= y", x >= y)                                                     \
    X(P, ISLESS, isless, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),              \
      "x < y", x < y)                                                       \
    X(P, ISLESSEQUAL, islessequal, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),    \
      "x <= y", x <= y)                                                     \
    X(P, ISLESSGREATER, islessgreater, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),\
      "x < y || x > y", x < y || x > y)                                     \
    X(P, ISORDERED, isordered, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),        \
      "neither x nor y is NaN", x == x && y == y)                           \
    X(P, ISUNORDERED, isunordered, 2, FLT, MASK, EXACT, 0, 0, 0, OC(-1),    \
      "x or y is NaN", x != x || y != y)                                    \
    X(P, ISNORMAL, isnormal, 1, FLT, MASK, EXACT, 0, 0, 0, OC(-1),          \
      "is x a normal value", mf_isnormal(x, F16, F32))                      \
    X(P, ANY, any, 1, SGN, RED, EXACT, 0, 0, 0, OC(-1),                     \
      "is the most significant bit of any component set", mf_any(ua, n, w)) \
    X(P, ALL, all, 1, SGN, RED, EXACT, 0, 0, 0, OC(-1),                     \
      "is the most significant bit of every component set",                 \
      mf_all(ua, n, w))                                                     \
    X(P, ABS_DIFF, abs_diff, 2, INT, UTYP, EXACT, 0, 0, 0, OCI(142, 202),   \
      "|x - y| without overflow, as the unsigned type",                     \
      mf_abs_diff(x, y, w, s))                                              \
    X(P, HADD, hadd, 2, INT, SAME, EXACT, 0, 0, 0, OCI(145, 146),           \
      "(x + y) >> 1 without overflow", mf_hadd(x, y, w, s, false))          \
    X(P, RHADD, rhadd, 2, INT, SAME, EXACT, 0, 0, 0, OCI(147, 148),         \
      "(x + y + 1) >> 1 without overflow", mf_hadd(x, y, w, s, true))       \
    X(P, MAD_HI, mad_hi, 3, INT, SAME, EXACT, 0, 0, 0, OCI(153, 204),       \
      "mul_hi(a, b) + c", mf_mul_hi(x, y, w, s) + z)                        \
    X(P, MAD_SAT, mad_sat, 3, INT, SAME, EXACT, 0, 0, 0, OCI(155, 154),     \
      "a * b + c, saturated", mf_mad_sat(x, y, z, w, s))                    \
    X(P, MUL24, mul24, 2, I32, SAME, EXACT, 0, 0, 0, OCI(169, 170),         \
      "x * y of 24-bit integers (wider operands: implementation-defined)",  \
      x * y)                                                                \
    X(P, MAD24, mad24, 3, I32, SAME, EXACT, 0, 0, 0, OCI(167, 168),         \
      "x * y + z of 24-bit integers (wider operands: "                      \
      "implementation-defined)",                                            \
      x * y + z)                                                            \
    X(P, UPSAMPLE, upsample, 2, NRW, WIDE, EXACT, 0, 0, 0, OCI(165, 164),   \
      "(hi << bits) | lo, twice as wide", mf_upsample(x, y, w))             \
    X(P, DEGREES, degrees, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(96),            \
      "radians to degrees: (180 / pi) * x", mf_degrees(x, F32))             \
    X(P, RADIANS, radians, 1, FLT, SAME, ULP, 1, 1, 0.5, OC(100),           \
      "degrees to radians: (pi / 180) * x", mf_radians(x, F32))             \
    X(P, DOT, dot, 2, FLT, RED, SPEC, 0, 0, 0, OC(-1),                      \
      "the dot product", geom_dot(va, vb, n, F32))                          \
    X(P, LENGTH, length, 1, FLT, RED, SPEC, 0, 0, 0, OC(106),               \
      "the length sqrt(p.x^2 + p.y^2 + ...)", geom_length(va, n, F32))      \
    X(P, DISTANCE, distance, 2, FLT, RED, SPEC, 0, 0, 0, OC(105),           \
      "length(p0 - p1)", geom_distance(va, vb, n, F32))                     \
    X(P, NORMALIZE, normalize, 1, FLT, VEC, SPEC, 0, 0, 0, OC(107),         \
      "p scaled to length 1", geom_normalize(vr, va, n, F32))               \
    X(P, CROSS, cross, 2, FLT, VEC, SPEC, 0, 0, 0, OC(104),                 \
      "the cross product of p0.xyz and p1.xyz (w = 0)",                     \
      geom_cross(vr, va, vb, n, F32))                                       \
    X(P, FAST_LENGTH, fast_length, 1, F32, RED, SPEC, 0, 0, 0, OC(109),     \
      "length, computed as half_sqrt of the sum of squares",                \
      geom_length(va, n, F32))                                              \
    X(P, FAST_DISTANCE, fast_distance, 2, F32, RED, SPEC, 0, 0, 0, OC(108), \
      "fast_length(p0 - p1)", geom_distance(va, vb, n, F32))                \
    X(P, FAST_NORMALIZE, fast_normalize, 1, F32, VEC, SPEC, 0, 0, 0,        \
      OC(110),                                                              \
      "p * half_rsqrt(sum of squares), within 8192 ulp",                    \
      geom_normalize(vr, va, n, F32))                                       \
    X(P, SHUFFLE, shuffle, 2, ALL, SHUF, EXACT, 0, 0, 0, OC(182),           \
      "the elements of x picked by mask (the mask's width)",                \
      geom_shuffle(ur, ua, ua, ub, n, m, false))                            \
    X(P, SHUFFLE2, shuffle2, 3, ALL, SHUF, EXACT, 0, 0, 0, OC(183),         \
      "the elements of x then y picked by mask",                            \
      geom_shuffle(ur, ua, ub, uc, n, m, true))                             \
    X(P, FRACT, fract, 1, FLT, PTR, ULP, 0, 0, 0, OC(30),                   \
      "min(x - floor(x), 0x1.fffffep-1f); floor(x) through the pointer",    \
      mf_fract(x, &o2, F16, F32))                                           \
    X(P, FREXP, frexp, 1, FLT, PTRI, ULP, 0, 0, 0, OC(31),                  \
      "the mantissa m, 0.5 <= |m| < 1; the exponent through the pointer",   \
      cl_frexp(x, &i2))                                                     \
    X(P, MODF, modf, 1, FLT, PTR, ULP, 0, 0, 0, OC(45),                     \
      "the fractional part; the integral part through the pointer",         \
      mf_modf(x, &o2, F32))                                                 \
    X(P, REMQUO, remquo, 2, FLT, PTRI, ULP, 0, 0, 0, OC(52),                \
      "remainder(x, y); the low 7 bits of the quotient, with its sign, "    \
      "through the pointer",                                                \
      cl_remquo(x, y, &i2))                                                 \
    X(P, SINCOS, sincos, 1, FLT, PTR, ULP, 1, 1, 1, OC(58),                 \
      "sin(x); cos(x) through the pointer", mf_sincos(x, &o2, F32))         \
    X(P, LDEXP, ldexp, 2, FLT, ARGI, ULP, 0.5, 0.5, 0.5, OC(34),            \
      "x * 2^k", cl_ldexp(x, y))                                            \
    X(P, POWN, pown, 2, FLT, ARGN, ULP, 1, 1, 1, OC(49),                    \
      "x to the integer y", cl_pown(x, y))                                  \
    X(P, ROOTN, rootn, 2, FLT, ARGN, ULP, 1, 1, 1, OC(54),                  \
      "x to the 1/y", cl_rootn(x, y))                                       \
    X(P, ILOGB, ilogb, 1, FLT, ILOG, EXACT, 0, 0, 0, OC(33),                \
      "the exponent of x as an int", cl_ilogb(x))                           \
    X(P, QNAN, nan, 1, UNS, UTOF, EXACT, 0, 0, 0, OC(46),                   \
      "a quiet NaN with the code in its payload", mf_nan(x, w))             \
    MF_HN(X, P, COS, cos, 1, 1, 67, cl_cos(x))                              \
    MF_HN(X, P, DIVIDE, divide, 2, 0.5, 68, x / y)                          \
    MF_HN(X, P, EXP, exp, 1, 1, 69, cl_exp(x))                              \
    MF_HN(X, P, EXP2, exp2, 1, 1, 70, cl_exp2(x))                           \
    MF_HN(X, P, EXP10, exp10, 1, 1, 71, cl_exp10(x))                        \
    MF_HN(X, P, LOG, log, 1, 1, 72, cl_log(x))                              \
    MF_HN(X, P, LOG2, log2, 1, 1, 73, cl_log2(x))                           \
    MF_HN(X, P, LOG10, log10, 1, 1, 74, cl_log10(x))                        \
    MF_HN(X, P, POWR, powr, 2, 1, 75, cl_powr(x, y))                        \
    MF_HN(X, P, RECIP, recip, 1, 0.5, 76, 1 / x)                            \
    MF_HN(X, P, RSQRT, rsqrt, 1, 1, 77, cl_rsqrt(x))                        \
    MF_HN(X, P, SIN, sin, 1, 1, 78, cl_sin(x))                              \
    MF_HN(X, P, SQRT, sqrt, 1, 0.5, 79, cl_sqrt(x))                         \
    MF_HN(X, P, TAN, tan, 1, 1, 80, cl_tan(x))                              \
    X(P, LGAMMA_R, lgamma_r, 1, FLT, PTRI, ULP, 1, MF_UNDEF, 1, OC(36),     \
      "log |gamma(x)|; the sign of gamma(x) (+1, -1, or 0 at the poles) "   \
      "through the pointer", mf_lgamma_r(x, &i2, F32))


enum mathfn {
#define MF_ENUM(P, E, ...) MF_##E,
    MATHFNS(MF_ENUM, _)
#undef MF_ENUM
    MF_COUNT
};

enum mf_dom { MFD_FLT, MFD_F32, MFD_INT, MFD_I32, MFD_NRW, MFD_SGN, MFD_UNS,
              MFD_ANY, MFD_ALL };
enum mf_shape { MFS_SAME, MFS_MASK, MFS_UTYP, MFS_UTOF, MFS_ARGI, MFS_ARGN,
                MFS_ILOG, MFS_PTR, MFS_PTRI, MFS_WIDE, MFS_RED, MFS_VEC,
                MFS_SHUF };
enum mf_unit { MF_ULP, MF_ABS, MF_EXACT, MF_SPEC };

/* How the VM runs a function: MATH1..3 (elementwise, operands and result
 * of one element size), FTEST/FTEST2 (a mask of 1 or 2 operands), or
 * MATHS (per work-item over whole vectors of any shape). */
enum mf_form { MF_FORM_MATH, MF_FORM_TEST, MF_FORM_SHAPED };

typedef struct {
    const char *name;
    uint8_t nargs;    /* 1..3 */
    uint8_t dom;      /* enum mf_dom */
    uint8_t shape;    /* enum mf_shape */
    uint8_t unit;     /* enum mf_unit */
    double bound[3];  /* float, double, half */
    int16_t oc[2];    /* OpenCL.std numbers: float/signed, unsigned */
    const char *doc;  /* one line */
    const char *impl; /* the expression, for the docs */
} mathfn_info;

extern const mathfn_info mathfns[MF_COUNT];

/* The function named name[0..len), or -1. */
int mathfn_find(const char *name, size_t len);

/* Does f take gentype elements of type t? (half: the FLT, ANY and ALL
 * rows, and nan's ushort.) */
bool mathfn_takes(enum mathfn f, enum ty_scalar t);

enum mf_form mathfn_form(enum mathfn f);

/* The types of one call of f with gentype t (t.n components; m: SHUF's
 * mask components, else unused): res the result, arg[i] the operands,
 * out the pointer output's pointee (PTR, PTRI; else {0, 0}). False, with
 * *why set, if f does not take t (domain or width). */
typedef struct {
    ty_t res, arg[3], out;
} mf_sig;
bool mathfn_sig(enum mathfn f, ty_t t, unsigned m, mf_sig *s,
                const char **why);

/* d[i] = f(a[i], b[i], c[i]) for i < n, elements of type t in native byte
 * order (b, c unused below the function's arity; d may be a, b or c). A
 * MASK result is written as an integer of t's size: vec ? -1 : 1 for true.
 * Nothing happens unless f's form is MATH or TEST and mathfn_takes(f, t). */
void mathfn_run(enum mathfn f, enum ty_scalar t, void *d, const void *a,
                const void *b, const void *c, size_t n, bool vec);

/* One work-item's call of a function of any form: the operands a, b, c
 * and the result d are whole values of the types mathfn_sig(f, t, m)
 * gives, elements in native byte order (3 components take 3 elements),
 * d distinct from the operands. second: d gets the pointer output's value
 * instead of the result. Nothing happens if mathfn_sig fails. */
void mathfn_one(enum mathfn f, ty_t t, unsigned m, bool second, void *d,
                const void *a, const void *b, const void *c);

/* The same with s = mathfn_sig(f, t, m) computed once by the caller (the
 * VM, for every work-item of an instruction). */
void mathfn_one_sig(enum mathfn f, const mf_sig *s, ty_t t, unsigned m,
                    bool second, void *d, const void *a, const void *b,
                    const void *c);

/* f's accuracy in words ("correctly rounded", "float <= 1 ulp, double
 * exact", ...); returns buf. */
const char *mathfn_accuracy(enum mathfn f, char buf[128]);

/* The accuracy table of docs/semantics.md (markdown rows, no markers). */
void mathfn_write_md(FILE *out);

#endif
