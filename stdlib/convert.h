/* convert_T: every destination x source among the 11 scalar types, with and
 * without _sat, in each rounding mode. Exact for every input, no undefined
 * behaviour, no dependence on fesetround. Vectors are lane-wise.
 *
 * Every function returns the OR of enum note bits for the elements it
 * converted (0 when every result was defined by the spec):
 *   floating -> integer, plain: NaN gives 0 and NOTE_FLT_NAN; an operand
 *     below the destination's minimum or above its maximum, judged before
 *     rounding, sets NOTE_FLT_RANGE. The value is the operand rounded in
 *     the mode if that fits (convert_uint(-0.9f) is 0), else the minimum or
 *     maximum (infinities too).
 *   floating -> integer, _sat: rounded, then clamped; NaN gives 0 and
 *     NOTE_SAT_NAN.
 *   integer -> integer: unsigned destinations wrap modulo 2^N; signed ones
 *     wrap too (two's complement), with NOTE_NARROW when the value does
 *     not fit; _sat clamps.
 *   -> floating: correctly rounded in the mode, once (64-bit integers never
 *     go through double); IEEE-754 overflow by mode and sign; denormals
 *     kept; integer 0 gives +0. A NaN keeps its sign and the top of its
 *     payload and becomes quiet, the same way on every host.
 *   same type: the bits unchanged, signalling NaNs included.
 * docs/semantics.md gives the reasons. */
#ifndef CLVM_CONVERT_H
#define CLVM_CONVERT_H

#include <stdbool.h>
#include <stddef.h>

#include "stdlib/note.h"
#include "stdlib/round.h"
#include "stdlib/types.h"

/* Converts n contiguous elements of type src at s into dst at d. Elements
 * are stored in host order as in a register (half as its bits), and each
 * array is aligned for its element type. s and d must not overlap. */
typedef unsigned (*cv_fn)(void *restrict d, const void *restrict s, size_t n);

/* The specialised loop for one (dst, src, sat, rounding) combination, or
 * NULL when OpenCL C has no such conversion (_sat with a floating
 * destination) or an argument is out of range. r is the resolved mode: see
 * cv_default_round. The mode only matters where the result can be inexact
 * (floating -> integer, to a narrower or not wider floating type, 32- and
 * 64-bit integers to float, 64-bit ones to double, 16-bit and wider ones
 * to half); elsewhere all four give the same results. */
cv_fn cv_lookup(enum ty_scalar dst, enum ty_scalar src, bool sat, enum rnd r);

/* The mode a name without a rounding suffix means: rtz for integer
 * destinations, rte for floating ones. */
enum rnd cv_default_round(enum ty_scalar dst);

/* Is convert_<dst>[_sat] legal? (_sat only for integer destinations.) */
bool cv_legal(enum ty_scalar dst, bool sat);

/* One scalar, for tools and tests; d and s need no alignment and may be
 * the same. Returns the notes, or -1 if illegal (nothing is written). */
int cv_scalar(enum ty_scalar dst, enum ty_scalar src, void *d, const void *s,
              bool sat, enum rnd r);

#endif
