/* as_type / as_typeN: reinterpret the bits of a value as another type of
 * the same size. */
#ifndef CLVM_REINTERPRET_H
#define CLVM_REINTERPRET_H

#include <stdbool.h>

#include "stdlib/types.h"

enum as_check {
    AS_OK,        /* same element count: the bits, unchanged */
    AS_SIZE,      /* sizes differ: an error (the assembler's diagnostic) */
    AS_COUNT,     /* counts differ: implementation-defined, memory order */
    AS_4TO3,      /* 4 -> 3: xyz defined, w undefined */
    AS_3TO4       /* 3 -> 4 of equal size: the seeds disagree (note AS_3TO4) */
};

/* Classifies as_<dst>(src). */
enum as_check as_classify(ty_t dst, ty_t src);

/* Performs it: copies sizeof(dst) bytes in memory order (clvm's documented
 * choice for every legal pair). d and s are registers (host order, a
 * 3-vector's padding lane included, so as_float3(float4) keeps w and
 * as_float4(float3) gives the padding as w); memory order is clvm's
 * little-endian memory, so as_short2((int)0x12345678) is (0x5678, 0x1234)
 * on every host. d and s may overlap. Returns the notes (0 for AS_OK,
 * NOTE_AS_COUNT, NOTE_AS_W or NOTE_AS_3TO4), or -1 when the sizes differ
 * (nothing is written). */
int as_reinterpret(ty_t dst, ty_t src, void *d, const void *s);

#endif
