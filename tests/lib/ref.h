/* The reference for convert_T, independent of stdlib/convert.c and
 * stdlib/half.c: the tests prove the library against it.
 *
 * Every finite value of the 11 scalar types is a dyadic rational, so a
 * source is decoded exactly into (-1)^neg * m * 2^e and rounded to the
 * destination with integer arithmetic on m and a comparison of the discarded
 * bits against half a unit. No floating-point operation, no host cast, no
 * fenv: simple enough to check by reading.
 *
 * The semantics are clvm's documented decisions:
 *   floating -> integer, plain: NaN -> 0 (NOTE_FLT_NAN); an operand below
 *     the destination's minimum or above its maximum (judged before
 *     rounding) sets NOTE_FLT_RANGE; the value is the operand rounded in
 *     the mode if that fits, else the minimum or maximum (inf too).
 *   floating -> integer, _sat: NaN -> 0 (NOTE_SAT_NAN); else rounded and
 *     clamped, no note.
 *   integer -> integer: unsigned destinations wrap modulo 2^N; signed ones
 *     wrap too, with NOTE_NARROW when the value does not fit; _sat clamps.
 *   anything -> floating: correctly rounded in the mode, IEEE overflow
 *     (inf or the largest finite value, by mode and sign), denormals kept,
 *     signed zeros kept, integer 0 -> +0; the same floating type is the
 *     identity on bits (signalling NaNs too); a NaN otherwise becomes the
 *     canonical quiet NaN of its sign (any NaN of that sign is accepted:
 *     see ref_same). */
#ifndef CLVM_REF_H
#define CLVM_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "stdlib/note.h"
#include "stdlib/round.h"
#include "stdlib/types.h"

enum ref_class { REF_FINITE, REF_INF, REF_NAN };

/* A decoded value: (-1)^neg * m * 2^e when finite (m == 0 is a zero, and
 * neg tells -0 from +0). */
typedef struct {
    uint8_t cls; /* enum ref_class */
    bool neg;
    uint64_t m;
    int e;
} ref_num;

/* A value rounded to an integer in one mode, with what the range rules
 * need: the magnitudes of trunc(x) and round(x), whether either reaches
 * 2^64 (always so for inf), and whether x had a fraction. */
typedef struct {
    bool nan, neg;
    bool tbig, rbig;
    bool frac;
    uint64_t t, r;
} ref_int;

/* Decodes the value at s (host order, half as its bits). */
ref_num ref_decode(enum ty_scalar t, const void *s);

ref_int ref_round_int(ref_num x, enum rnd r);

/* Stores a floating operand rounded by ref_round_int into the integer
 * destination dst at d, by the floating -> integer rules; returns notes. */
unsigned ref_store_int(enum ty_scalar dst, const ref_int *v, bool sat,
                       void *d);

/* x correctly rounded to the floating type dst in mode r, as its bits. */
uint64_t ref_round_float(enum ty_scalar dst, ref_num x, enum rnd r);

/* convert_<dst>[_sat]_<r>(s) into d. Returns the notes, or -1 (nothing
 * written) when _sat is asked of a floating destination. */
int ref_convert(enum ty_scalar dst, enum ty_scalar src, const void *s,
                void *d, bool sat, enum rnd r);

/* Does got match want (from ref_convert) under the conformance rules? A
 * changing conversion to a floating type matches any NaN of the same sign
 * where want is a NaN; everything else is bit-exact (+0 is not -0). */
bool ref_same(enum ty_scalar dst, enum ty_scalar src, const void *want,
              const void *got);

/* The bits of a value of type t, zero-extended (for messages), and the
 * inverse. */
uint64_t ref_bits(enum ty_scalar t, const void *p);
void ref_put_bits(enum ty_scalar t, void *p, uint64_t bits);

#endif
