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

#endif
