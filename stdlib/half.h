/* IEEE-754 binary16 (OpenCL half), held as its bit pattern.
 * Widening is exact; narrowing rounds once, in any of the four modes,
 * without touching the floating-point environment. */
#ifndef CLVM_HALF_H
#define CLVM_HALF_H

#include <stdint.h>

#include "stdlib/round.h"

/* Exact. A NaN keeps its sign and payload (shifted into the wider
 * significand) and becomes quiet, as IEEE-754 conversions do (and as F16C's
 * vcvtph2ps does); only as_type and plain vloadN keep bits untouched. */
float half_to_float(uint16_t h);
double half_to_double(uint16_t h);

/* Correctly rounded in mode r. double -> half rounds once (never through
 * float). Overflow gives inf or +-65504 as IEEE-754 says for r; results
 * below the normal range are rounded as denormals, never flushed. A NaN
 * keeps its sign and the top 10 bits of its payload and becomes quiet
 * (IEEE-754 6.2.3); a payload that would vanish becomes the quiet bit.
 * half_from_float(f, r) == half_from_double(f, r) for every f, NaNs too.
 * r outside the four modes behaves as RND_RTZ. */
uint16_t half_from_float(float f, enum rnd r);
uint16_t half_from_double(double d, enum rnd r);

/* cl_khr_fp16 arithmetic on bit patterns, each rounded once to nearest
 * even. + - * / are the float operation on the widened operands, rounded
 * to half: exact in float for * (22 bits), and for + - / innocuous double
 * rounding, since float's 24 bits >= 2 * 11 + 2 (docs/semantics.md). */
uint16_t half_add(uint16_t a, uint16_t b);
uint16_t half_sub(uint16_t a, uint16_t b);
uint16_t half_mul(uint16_t a, uint16_t b);
uint16_t half_div(uint16_t a, uint16_t b);
/* a * b + c rounded once: the product is exact in double, the sum is
 * rounded to odd in double (TwoSum gives its error), and a round-to-odd
 * result of 53 bits rounds to any precision <= 51 bits as the exact value
 * does (Boldo and Melquiond), half's 11 bits and its denormals included. */
uint16_t half_fma(uint16_t a, uint16_t b, uint16_t c);
/* mad: a * b rounded to half, plus c rounded to half (two roundings). */
uint16_t half_mad(uint16_t a, uint16_t b, uint16_t c);
/* The next half after a in the direction of b (b itself if equal; a NaN
 * if either is). */
uint16_t half_nextafter(uint16_t a, uint16_t b);

#endif
