/* convert_T: every destination x source among the 11 scalar types, with and
 * without _sat, in each rounding mode. Exact for every input, no undefined
 * behaviour, no dependence on fesetround. Vectors are lane-wise.
 *
 * Every function returns the OR of enum note bits for the elements it
 * converted (0 when every result was defined by the spec). */
#ifndef CLVM_CONVERT_H
#define CLVM_CONVERT_H

#include <stdbool.h>
#include <stddef.h>

#include "note.h"
#include "round.h"
#include "types.h"

/* Converts n contiguous elements of type src at s into dst at d. Elements
 * are stored in host order as in a register (half as its bits). s and d
 * must not overlap. */
typedef unsigned (*cv_fn)(void *restrict d, const void *restrict s, size_t n);

/* The specialised loop for one (dst, src, sat, rounding) combination, or
 * NULL when OpenCL C has no such conversion (_sat with a floating
 * destination). r is the resolved mode: see cv_default_round. */
cv_fn cv_lookup(enum ty_scalar dst, enum ty_scalar src, bool sat, enum rnd r);

/* The mode a name without a rounding suffix means: rtz for integer
 * destinations, rte for floating ones. */
enum rnd cv_default_round(enum ty_scalar dst);

/* Is convert_<dst>[_sat] legal? (_sat only for integer destinations.) */
bool cv_legal(enum ty_scalar dst, bool sat);

/* One scalar, for tools and tests. Returns the notes, or -1 if illegal. */
int cv_scalar(enum ty_scalar dst, enum ty_scalar src, void *d, const void *s,
              bool sat, enum rnd r);

#endif
