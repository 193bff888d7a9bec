/* as_type / as_typeN: reinterpret the bits of a value as another type of
 * the same size. */
#ifndef CLVM_REINTERPRET_H
#define CLVM_REINTERPRET_H

#include <stdbool.h>

#include "types.h"

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
 * choice for every legal pair). Returns the notes (NOTE_AS_*), or -1 when
 * the sizes differ (nothing is written). */
int as_reinterpret(ty_t dst, ty_t src, void *d, const void *s);

#endif
