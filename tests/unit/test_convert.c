/* convert_T on hand-derived cases: the OpenCL reference page's examples,
 * the edges of every destination in every mode (ties, +-0, +-inf, NaN,
 * denormals, 2^24+1, 2^53+1, UINT64_MAX, values that catch rounding twice),
 * the notes each case must (and must not) raise, the loops of cv_lookup on
 * whole vectors, and which combinations exist at all.
 *
 * Expected bits are written out as constants or derived in the test from
 * the destination's limits by the rules of docs/semantics.md; none comes
 * from the code under test. tests/unit/test_convert_ref.c compares the
 * library with an exact reference on millions more inputs. */
#include <stdint.h>
#include <string.h>

#include "stdlib/convert.h"
#include "tests/lib/test.h"

#define RANGE NOTE_FLT_RANGE
#define FNAN NOTE_FLT_NAN
#define SNAN NOTE_SAT_NAN
#define NARROW NOTE_NARROW

/* A value's bits into / out of storage of type t (host order). */
static void put(enum ty_scalar t, void *p, uint64_t bits)
{
    uint8_t b1 = (uint8_t)bits;
    uint16_t b2 = (uint16_t)bits;
    uint32_t b4 = (uint32_t)bits;
    switch (ty_scalar_size(t)) {
    case 1: memcpy(p, &b1, 1); break;
    case 2: memcpy(p, &b2, 2); break;
    case 4: memcpy(p, &b4, 4); break;
    default: memcpy(p, &bits, 8); break;
    }
}

static uint64_t get(enum ty_scalar t, const void *p)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (ty_scalar_size(t)) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    case 4: memcpy(&b4, p, 4); return b4;
    default: memcpy(&b8, p, 8); return b8;
    }
}

static uint64_t mask(enum ty_scalar t)
{
    return ~UINT64_C(0) >> (64 - 8 * ty_scalar_size(t));
}

/* Runs convert_<dst>[_sat]_<r> on one value; checks bits and notes. */
static void check1(enum ty_scalar dst, enum ty_scalar src, bool sat,
                   enum rnd r, uint64_t s, uint64_t want, unsigned notes,
                   int line)
{
    uint64_t in = 0, out = 0;
    put(src, &in, s);
    int got = cv_scalar(dst, src, &out, &in, sat, r);
    uint64_t bits = get(dst, &out);
    CHECK(got == (int)notes && bits == (want & mask(dst)),
          "line %d: convert_%s%s_%s((%s)0x%llx) = 0x%llx notes %d, want "
          "0x%llx notes %u", line, ty_scalar_name(dst), sat ? "_sat" : "",
          rnd_name(r), ty_scalar_name(src), (unsigned long long)s,
          (unsigned long long)bits, got,
          (unsigned long long)(want & mask(dst)), notes);
}

/* ---------------------------------------------------------------------- */
/* Hand-derived scalar cases. C is one mode; C4 the same result in all four;
 * M4 one result per mode, in the order rte, rtz, rtp, rtn. */

typedef struct {
    uint8_t dst, src, sat, r;
    uint64_t s, want;
    unsigned notes;
    int line;
} tcase;

#define C(d, s, sat, r, sv, w, n) \
    {TY_##d, TY_##s, sat, RND_##r, sv, w, n, __LINE__},
#define C4(d, s, sat, sv, w, n) \
    C(d, s, sat, RTE, sv, w, n) C(d, s, sat, RTZ, sv, w, n) \
    C(d, s, sat, RTP, sv, w, n) C(d, s, sat, RTN, sv, w, n)
#define M4(d, s, sat, sv, we, wz, wp, wn, n) \
    C(d, s, sat, RTE, sv, we, n) C(d, s, sat, RTZ, sv, wz, n) \
    C(d, s, sat, RTP, sv, wp, n) C(d, s, sat, RTN, sv, wn, n)

static const tcase cases[] = {
    /* --- the reference page's examples --- */
    /* convert_int4(uchar4): zero extension */
    C(INT, UCHAR, 0, RTZ, 0xff, 0xff, 0)
    C(INT, UCHAR, 0, RTZ, 0x80, 0x80, 0)
    /* convert_int(float): rtz by default */
    C(INT, FLOAT, 0, RTZ, 0xc07f5c29, 0xfffffffd, 0)  /* -3.99 -> -3 */
    C(INT, FLOAT, 0, RTZ, 0x407f5c29, 3, 0)           /* 3.99 */
    C(INT, FLOAT, 0, RTZ, 0x3f7fffff, 0, 0)           /* 0.99999994 */
    C(INT, FLOAT, 0, RTZ, 0xbf000000, 0, 0)           /* -0.5 */
    /* convert_ushort4_sat(short4): negatives clamp to 0 */
    C(USHORT, SHORT, 1, RTZ, 0xffff, 0, 0)
    C(USHORT, SHORT, 1, RTZ, 0x8000, 0, 0)
    C(USHORT, SHORT, 1, RTZ, 0x7fff, 0x7fff, 0)
    C(USHORT, SHORT, 0, RTZ, 0xffff, 0xffff, 0)       /* plain: modulo */
    /* convert_char4_sat(short4): > CHAR_MAX -> CHAR_MAX, < CHAR_MIN -> MIN */
    C(CHAR, SHORT, 1, RTZ, 300, 0x7f, 0)
    C(CHAR, SHORT, 1, RTZ, 0xfed4, 0x80, 0)           /* -300 */
    C(CHAR, SHORT, 1, RTZ, 0x0080, 0x7f, 0)           /* 128 */
    C(CHAR, SHORT, 1, RTZ, 0xff7f, 0x80, 0)           /* -129 */
    C(CHAR, SHORT, 1, RTZ, 0xff80, 0x80, 0)           /* -128 fits */
    C(CHAR, SHORT, 0, RTZ, 300, 0x2c, NARROW)         /* plain: wraps */
    C(UCHAR, SHORT, 0, RTZ, 0xfed4, 0xd4, 0)          /* unsigned: defined */
    /* convert_int4(float4): implementation-defined out of range */
    C(INT, FLOAT, 0, RTZ, 0x4f000000, 0x7fffffff, RANGE) /* 2^31 */
    C(INT, FLOAT, 0, RTZ, 0xcf000001, 0x80000000, RANGE) /* -2^31-256 */
    C(INT, FLOAT, 0, RTZ, 0x7fc00000, 0, FNAN)
    /* convert_int4_sat(float4): clamp, NaN -> 0, rtz */
    C(INT, FLOAT, 1, RTZ, 0x4f32d05e, 0x7fffffff, 0)  /* 3e9 */
    C(INT, FLOAT, 1, RTZ, 0xcf32d05e, 0x80000000, 0)  /* -3e9 */
    C(INT, FLOAT, 1, RTZ, 0x3fc00000, 1, 0)           /* 1.5 */
    C(INT, FLOAT, 1, RTZ, 0x7fc00000, 0, SNAN)
    /* convert_int4_rte(float4): nearest, ties to even */
    C(INT, FLOAT, 0, RTE, 0x3f000000, 0, 0)           /* 0.5 */
    C(INT, FLOAT, 0, RTE, 0x3fc00000, 2, 0)           /* 1.5 */
    C(INT, FLOAT, 0, RTE, 0x40200000, 2, 0)           /* 2.5 */
    C(INT, FLOAT, 0, RTE, 0xc0200000, 0xfffffffe, 0)  /* -2.5 */
    C(INT, FLOAT, 0, RTE, 0x40600000, 4, 0)           /* 3.5 */
    C(INT, FLOAT, 0, RTE, 0x401fffff, 2, 0)           /* 2.4999998 */
    C(INT, FLOAT, 0, RTE, 0x4b000001, 0x800001, 0)    /* 2^23+1, whole */
    C(INT, FLOAT, 0, RTE, 0xcaffffff, 0xff800000, 0)  /* -8388607.5 */
    C(INT, FLOAT, 0, RTE, 0x4affffff, 0x800000, 0)    /* 8388607.5 */
    C(INT, FLOAT, 0, RTE, 0x4afffffd, 0x7ffffe, 0)    /* 8388606.5 */
    /* convert_int4_sat_rte(float4) */
    C(INT, FLOAT, 1, RTE, 0x40200000, 2, 0)
    C(INT, FLOAT, 1, RTE, 0x4f32d05e, 0x7fffffff, 0)
    C(INT, FLOAT, 1, RTE, 0xcf000000, 0x80000000, 0)
    C(INT, FLOAT, 1, RTE, 0xffc00001, 0, SNAN)
    /* convert_float4(int4) and convert_float4_rtp(int4) */
    M4(FLOAT, INT, 0, 0x01000001, 0x4b800000, 0x4b800000, 0x4b800001,
       0x4b800000, 0)                                 /* 2^24+1 */
    M4(FLOAT, INT, 0, 0xfeffffff, 0xcb800000, 0xcb800000, 0xcb800000,
       0xcb800001, 0)                                 /* -(2^24+1) */
    M4(FLOAT, INT, 0, 0x01000003, 0x4b800002, 0x4b800001, 0x4b800002,
       0x4b800001, 0)                                 /* 2^24+3: tie */
    M4(FLOAT, INT, 0, 0x7fffffff, 0x4f000000, 0x4effffff, 0x4f000000,
       0x4effffff, 0)
    C4(FLOAT, INT, 0, 0x80000000, 0xcf000000, 0)
    C4(FLOAT, INT, 0, 0, 0, 0)                        /* +0, even rtn */
    C4(FLOAT, INT, 0, 0xffffffff, 0xbf800000, 0)
    M4(FLOAT, INT, 0, 0x80000001, 0xcf000000, 0xceffffff, 0xceffffff,
       0xcf000000, 0)                                 /* -(2^31-1) */

    /* --- float -> integer edges the generic rules below cannot state --- */
    C(INT, FLOAT, 0, RTZ, 0x4effffff, 0x7fffff80, 0)
    C(INT, FLOAT, 0, RTZ, 0xcf000000, 0x80000000, 0)
    C(INT, FLOAT, 0, RTN, 0xcf000000, 0x80000000, 0)
    M4(INT, FLOAT, 0, 0xcf000001, 0x80000000, 0x80000000, 0x80000000,
       0x80000000, RANGE)
    C4(INT, FLOAT, 1, 0xcf000001, 0x80000000, 0)
    C4(INT, FLOAT, 0, 0x7f800000, 0x7fffffff, RANGE)  /* +inf */
    C4(INT, FLOAT, 0, 0xff800000, 0x80000000, RANGE)  /* -inf */
    C4(INT, FLOAT, 1, 0x7f800000, 0x7fffffff, 0)
    C4(INT, FLOAT, 1, 0xff800000, 0x80000000, 0)
    C4(INT, FLOAT, 0, 0x7f800001, 0, FNAN)            /* signalling */
    C4(INT, FLOAT, 0, 0xffffffff, 0, FNAN)
    C4(INT, FLOAT, 1, 0x7f800001, 0, SNAN)
    C4(INT, FLOAT, 0, 0x80000000, 0, 0)               /* -0 */
    M4(INT, FLOAT, 0, 0x00000001, 0, 0, 1, 0, 0)      /* 2^-149 */
    M4(INT, FLOAT, 0, 0x80000001, 0, 0, 0, 0xffffffff, 0)
    M4(INT, FLOAT, 0, 0x3f000001, 1, 0, 1, 0, 0)      /* 0.5 + ulp */
    M4(INT, FLOAT, 0, 0x3effffff, 0, 0, 1, 0, 0)      /* 0.5 - ulp */
    M4(INT, FLOAT, 0, 0x4b7fffff, 0xffffff, 0xffffff, 0xffffff, 0xffffff, 0)
    M4(UINT, FLOAT, 0, 0x4f7fffff, 0xffffff00, 0xffffff00, 0xffffff00,
       0xffffff00, 0)
    C4(UINT, FLOAT, 0, 0x4f800000, 0xffffffff, RANGE) /* 2^32 */
    C4(UINT, FLOAT, 1, 0x4f800000, 0xffffffff, 0)
    /* unsigned below zero: out of range before rounding, 0 after */
    M4(UINT, FLOAT, 0, 0xbf666666, 0, 0, 0, 0, RANGE) /* -0.9 */
    M4(UINT, FLOAT, 0, 0xbf000000, 0, 0, 0, 0, RANGE) /* -0.5 */
    C4(UINT, FLOAT, 1, 0xbf000000, 0, 0)
    C4(UINT, FLOAT, 0, 0x80000000, 0, 0)              /* -0 fits */
    C4(UINT, FLOAT, 0, 0x80000001, 0, RANGE)          /* -2^-149 < 0 */
    C4(ULONG, FLOAT, 0, 0x5f800000, UINT64_MAX, RANGE)
    C4(ULONG, FLOAT, 0, 0x5f7fffff, 0xffffff0000000000, 0)
    C4(ULONG, FLOAT, 1, 0x7f800000, UINT64_MAX, 0)
    C4(ULONG, FLOAT, 0, 0xff800000, 0, RANGE)
    C4(LONG, FLOAT, 0, 0xdf000000, 0x8000000000000000, 0)
    C4(LONG, FLOAT, 0, 0x5f000000, INT64_MAX, RANGE)
    C4(LONG, FLOAT, 0, 0xdf000001, 0x8000000000000000, RANGE)
    C4(LONG, FLOAT, 0, 0x5effffff, 0x7fffff8000000000, 0)
    M4(LONG, FLOAT, 0, 0xbfc00000, 0xfffffffffffffffe, UINT64_MAX,
       UINT64_MAX, 0xfffffffffffffffe, 0)             /* -1.5 */
    C4(LONG, FLOAT, 1, 0xffc00000, 0, SNAN)

    /* double -> 64-bit integers */
    C4(LONG, DOUBLE, 0, 0xc3e0000000000000, 0x8000000000000000, 0)
    C4(LONG, DOUBLE, 0, 0x43e0000000000000, INT64_MAX, RANGE) /* 2^63 */
    C4(LONG, DOUBLE, 1, 0x43e0000000000000, INT64_MAX, 0)
    C4(LONG, DOUBLE, 0, 0x43dfffffffffffff, 0x7ffffffffffffc00, 0)
    C4(LONG, DOUBLE, 0, 0xc3e0000000000001, 0x8000000000000000, RANGE)
    C4(LONG, DOUBLE, 0, 0x4340000000000001, 0x20000000000002, 0) /* 2^53+2 */
    M4(LONG, DOUBLE, 0, 0x4320000000000001, 0x8000000000000,
       0x8000000000000, 0x8000000000001, 0x8000000000000,
       0)                                             /* 2^51 + 0.5 */
    M4(LONG, DOUBLE, 0, 0x432fffffffffffff, 0x10000000000000,
       0xfffffffffffff, 0x10000000000000, 0xfffffffffffff,
       0)                                             /* 2^52 - 0.5 */
    C4(LONG, DOUBLE, 0, 0x4330000000000001, 0x10000000000001, 0) /* 2^52+1 */
    M4(LONG, DOUBLE, 0, 0x8000000000000001, 0, 0, 0, UINT64_MAX, 0)
    C4(ULONG, DOUBLE, 0, 0x43f0000000000000, UINT64_MAX, RANGE) /* 2^64 */
    C4(ULONG, DOUBLE, 0, 0x43efffffffffffff, 0xfffffffffffff800, 0)
    C4(ULONG, DOUBLE, 0, 0x7ff8000000000000, 0, FNAN)
    C4(ULONG, DOUBLE, 1, 0xfff0000000000000, 0, 0)
    M4(ULONG, DOUBLE, 0, 0xbfe0000000000000, 0, 0, 0, 0, RANGE)
    /* double -> int near the limits, where double is finer than 1 */
    M4(INT, DOUBLE, 0, 0x41dfffffffe00000, 0x7fffffff, 0x7fffffff,
       0x7fffffff, 0x7fffffff, RANGE)                 /* 2^31 - 0.5 */
    M4(INT, DOUBLE, 0, 0x41dfffffffa00000, 0x7ffffffe, 0x7ffffffe,
       0x7fffffff, 0x7ffffffe, 0)                     /* 2^31 - 1.5 */
    M4(INT, DOUBLE, 0, 0x41dfffffffdfffff, 0x7fffffff, 0x7fffffff,
       0x7fffffff, 0x7fffffff, RANGE)                 /* > max already */
    M4(INT, DOUBLE, 0, 0x3fdfffffffffffff, 0, 0, 1, 0, 0) /* 0.5-2^-54 */
    M4(INT, DOUBLE, 0, 0x0000000000000001, 0, 0, 1, 0, 0) /* denormal */
    M4(UINT, DOUBLE, 0, 0x41efffffffffffff, 0xffffffff, 0xffffffff,
       0xffffffff, 0xffffffff, RANGE)                 /* 2^32 - tiny */

    /* half -> integers */
    C4(SHORT, HALF, 0, 0x7bff, 0x7fff, RANGE)         /* 65504 */
    C4(SHORT, HALF, 1, 0x7bff, 0x7fff, 0)
    C4(USHORT, HALF, 0, 0x7bff, 0xffe0, 0)
    C4(USHORT, HALF, 0, 0x7c00, 0xffff, RANGE)        /* +inf */
    C4(USHORT, HALF, 0, 0xfc00, 0, RANGE)
    C4(SHORT, HALF, 0, 0xfc00, 0x8000, RANGE)
    C4(USHORT, HALF, 0, 0x7e00, 0, FNAN)
    C4(INT, HALF, 1, 0xfd00, 0, SNAN)                 /* signalling */
    C4(UINT, HALF, 0, 0x8000, 0, 0)                   /* -0 */
    M4(INT, HALF, 0, 0x0001, 0, 0, 1, 0, 0)           /* 2^-24 */
    M4(INT, HALF, 0, 0x8001, 0, 0, 0, 0xffffffff, 0)
    M4(CHAR, HALF, 0, 0x57f8, 0x7f, 0x7f, 0x7f, 0x7f, RANGE) /* 127.5 */
    M4(CHAR, HALF, 0, 0xd804, 0x80, 0x80, 0x80, 0x80, RANGE) /* -128.5 */
    M4(CHAR, HALF, 0, 0x57f0, 0x7f, 0x7f, 0x7f, 0x7f, 0)     /* 127 */
    M4(UCHAR, HALF, 0, 0x5bfc, 0xff, 0xff, 0xff, 0xff, RANGE) /* 255.5 */
    M4(UCHAR, HALF, 0, 0x5bf4, 0xfe, 0xfe, 0xff, 0xfe, 0)    /* 254.5 */
    M4(UCHAR, HALF, 0, 0xb800, 0, 0, 0, 0, RANGE)            /* -0.5 */
    M4(LONG, HALF, 0, 0x3e00, 2, 1, 2, 1, 0)                 /* 1.5 */
    M4(ULONG, HALF, 0, 0x7bff, 65504, 65504, 65504, 65504, 0)

    /* --- integer -> floating --- */
    /* 2^24+1 and friends from every wider source */
    M4(FLOAT, UINT, 0, 0x01000001, 0x4b800000, 0x4b800000, 0x4b800001,
       0x4b800000, 0)
    M4(FLOAT, LONG, 0, 0x01000001, 0x4b800000, 0x4b800000, 0x4b800001,
       0x4b800000, 0)
    M4(FLOAT, LONG, 0, 0xfffffffffeffffff, 0xcb800000, 0xcb800000,
       0xcb800000, 0xcb800001, 0)
    M4(FLOAT, ULONG, 0, 0x01000003, 0x4b800002, 0x4b800001, 0x4b800002,
       0x4b800001, 0)
    M4(FLOAT, UINT, 0, 0xffffffff, 0x4f800000, 0x4f7fffff, 0x4f800000,
       0x4f7fffff, 0)
    M4(FLOAT, UINT, 0, 0xffffff7f, 0x4f7fffff, 0x4f7fffff, 0x4f800000,
       0x4f7fffff, 0)                                 /* just below a tie */
    M4(FLOAT, UINT, 0, 0xffffff80, 0x4f800000, 0x4f7fffff, 0x4f800000,
       0x4f7fffff, 0)                                 /* tie -> even */
    M4(FLOAT, ULONG, 0, UINT64_MAX, 0x5f800000, 0x5f7fffff, 0x5f800000,
       0x5f7fffff, 0)
    M4(FLOAT, LONG, 0, INT64_MAX, 0x5f000000, 0x5effffff, 0x5f000000,
       0x5effffff, 0)
    C4(FLOAT, LONG, 0, 0x8000000000000000, 0xdf000000, 0)
    M4(FLOAT, LONG, 0, 0x8000000000000001, 0xdf000000, 0xdeffffff,
       0xdeffffff, 0xdf000000, 0)
    C4(FLOAT, LONG, 0, 0, 0, 0)
    /* Rounding twice (to double first, then to float) gets these wrong:
     * 2^63 + 2^39 + 1 is just above a float tie, which a double rounds
     * onto; 2^63 + 2^40 - 1 is just below a float, which a double rounds
     * onto. */
    M4(FLOAT, ULONG, 0, 0x8000008000000001, 0x5f000001, 0x5f000000,
       0x5f000001, 0x5f000000, 0)
    M4(FLOAT, ULONG, 0, 0x8000008000000000, 0x5f000000, 0x5f000000,
       0x5f000001, 0x5f000000, 0)                     /* the tie itself */
    M4(FLOAT, ULONG, 0, 0x800000ffffffffff, 0x5f000001, 0x5f000000,
       0x5f000001, 0x5f000000, 0)
    M4(FLOAT, LONG, 0, 0x0020000020000001, 0x5a000001, 0x5a000000,
       0x5a000001, 0x5a000000, 0)                     /* 2^53+2^29+1 */
    M4(FLOAT, LONG, 0, 0xffdfffffdfffffff, 0xda000001, 0xda000000,
       0xda000000, 0xda000001, 0)                     /* its negation */
    M4(FLOAT, ULONG, 0, 0x7fffffbfffffffff, 0x5effffff, 0x5effffff,
       0x5f000000, 0x5effffff, 0)                     /* below a tie */
    /* 64-bit to double: 2^53+1, 2^64-1 */
    M4(DOUBLE, LONG, 0, 0x20000000000001, 0x4340000000000000,
       0x4340000000000000, 0x4340000000000001, 0x4340000000000000, 0)
    M4(DOUBLE, LONG, 0, 0xffdfffffffffffff, 0xc340000000000000,
       0xc340000000000000, 0xc340000000000000, 0xc340000000000001, 0)
    M4(DOUBLE, ULONG, 0, 0x20000000000003, 0x4340000000000002,
       0x4340000000000001, 0x4340000000000002, 0x4340000000000001, 0)
    M4(DOUBLE, ULONG, 0, UINT64_MAX, 0x43f0000000000000, 0x43efffffffffffff,
       0x43f0000000000000, 0x43efffffffffffff, 0)
    M4(DOUBLE, LONG, 0, INT64_MAX, 0x43e0000000000000, 0x43dfffffffffffff,
       0x43e0000000000000, 0x43dfffffffffffff, 0)
    C4(DOUBLE, LONG, 0, 0x8000000000000000, 0xc3e0000000000000, 0)
    C4(DOUBLE, LONG, 0, 0x1fffffffffffff, 0x433fffffffffffff, 0) /* 2^53-1 */
    C4(DOUBLE, UINT, 0, 0xffffffff, 0x41efffffffe00000, 0)
    C4(DOUBLE, INT, 0, 0x80000000, 0xc1e0000000000000, 0)
    C4(DOUBLE, CHAR, 0, 0x80, 0xc060000000000000, 0)
    C4(DOUBLE, USHORT, 0, 0xffff, 0x40efffe000000000, 0)
    C4(DOUBLE, ULONG, 0, 0, 0, 0)
    /* small sources to float, exactly */
    C4(FLOAT, CHAR, 0, 0x7f, 0x42fe0000, 0)
    C4(FLOAT, CHAR, 0, 0x80, 0xc3000000, 0)
    C4(FLOAT, UCHAR, 0, 0xff, 0x437f0000, 0)
    C4(FLOAT, SHORT, 0, 0x7fff, 0x46fffe00, 0)
    C4(FLOAT, SHORT, 0, 0x8000, 0xc7000000, 0)
    C4(FLOAT, USHORT, 0, 0xffff, 0x477fff00, 0)
    C4(FLOAT, SHORT, 0, 0xffff, 0xbf800000, 0)
    /* integers to half: 11 significant bits, overflow from 65520 (rte) */
    C4(HALF, CHAR, 0, 0x7f, 0x57f0, 0)
    C4(HALF, CHAR, 0, 0x80, 0xd800, 0)
    C4(HALF, UCHAR, 0, 0xff, 0x5bf8, 0)
    C4(HALF, SHORT, 0, 0x8000, 0xf800, 0)
    C4(HALF, INT, 0, 0, 0, 0)
    C4(HALF, LONG, 0, UINT64_MAX, 0xbc00, 0)
    M4(HALF, SHORT, 0, 0x7fff, 0x7800, 0x77ff, 0x7800, 0x77ff, 0)
    M4(HALF, USHORT, 0, 0xffff, 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0)
    M4(HALF, INT, 0, 2049, 0x6800, 0x6800, 0x6801, 0x6800, 0)
    M4(HALF, INT, 0, 2051, 0x6802, 0x6801, 0x6802, 0x6801, 0)
    M4(HALF, INT, 0, 0xfffff7ff, 0xe800, 0xe800, 0xe800, 0xe801, 0)
    M4(HALF, INT, 0, 65519, 0x7bff, 0x7bff, 0x7c00, 0x7bff, 0)
    M4(HALF, INT, 0, 65520, 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0)
    M4(HALF, UINT, 0, 0xffffffff, 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0)
    M4(HALF, INT, 0, 0x80000000, 0xfc00, 0xfbff, 0xfbff, 0xfc00, 0)
    M4(HALF, ULONG, 0, UINT64_MAX, 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0)
    M4(HALF, LONG, 0, 0x8000000000000000, 0xfc00, 0xfbff, 0xfbff, 0xfc00,
       0)
    M4(HALF, ULONG, 0, 0x20000000000001, 0x7c00, 0x7bff, 0x7c00, 0x7bff,
       0)                                             /* 2^53+1 */

    /* --- floating -> floating --- */
    /* double -> float: 1e39 overflows, by mode and sign */
    M4(FLOAT, DOUBLE, 0, 0x48078287f49c4a1d, 0x7f800000, 0x7f7fffff,
       0x7f800000, 0x7f7fffff, 0)
    M4(FLOAT, DOUBLE, 0, 0xc8078287f49c4a1d, 0xff800000, 0xff7fffff,
       0xff7fffff, 0xff800000, 0)
    /* FLT_MAX + half an ulp: a tie, the even neighbour is 2^128 = inf */
    M4(FLOAT, DOUBLE, 0, 0x47effffff0000000, 0x7f800000, 0x7f7fffff,
       0x7f800000, 0x7f7fffff, 0)
    M4(FLOAT, DOUBLE, 0, 0x47efffffefffffff, 0x7f7fffff, 0x7f7fffff,
       0x7f800000, 0x7f7fffff, 0)
    C4(FLOAT, DOUBLE, 0, 0x47efffffe0000000, 0x7f7fffff, 0) /* FLT_MAX */
    C4(FLOAT, DOUBLE, 0, 0x7ff0000000000000, 0x7f800000, 0)
    C4(FLOAT, DOUBLE, 0, 0xfff0000000000000, 0xff800000, 0)
    C4(FLOAT, DOUBLE, 0, 0x8000000000000000, 0x80000000, 0)
    /* ties and directed rounding near 1 */
    M4(FLOAT, DOUBLE, 0, 0x3ff0000010000000, 0x3f800000, 0x3f800000,
       0x3f800001, 0x3f800000, 0)                     /* 1 + 2^-24 */
    M4(FLOAT, DOUBLE, 0, 0x3ff0000030000000, 0x3f800002, 0x3f800001,
       0x3f800002, 0x3f800001, 0)                     /* 1 + 3*2^-24 */
    M4(FLOAT, DOUBLE, 0, 0xbff0000010000001, 0xbf800001, 0xbf800000,
       0xbf800000, 0xbf800001, 0)
    /* denormals: kept, rounded, never flushed */
    M4(FLOAT, DOUBLE, 0, 0x0000000000000001, 0, 0, 1, 0, 0)
    M4(FLOAT, DOUBLE, 0, 0x8000000000000001, 0x80000000, 0x80000000,
       0x80000000, 0x80000001, 0)
    C4(FLOAT, DOUBLE, 0, 0x36a0000000000000, 1, 0)    /* 2^-149 */
    M4(FLOAT, DOUBLE, 0, 0x3690000000000000, 0, 0, 1, 0, 0) /* 2^-150 */
    M4(FLOAT, DOUBLE, 0, 0x36a8000000000000, 2, 1, 2, 1, 0) /* 1.5*2^-149 */
    M4(FLOAT, DOUBLE, 0, 0x380fffffe0000000, 0x00800000, 0x007fffff,
       0x00800000, 0x007fffff, 0)        /* 2^-126 - 2^-150: carry to normal */
    /* NaN: sign and top payload kept, made quiet */
    C4(FLOAT, DOUBLE, 0, 0x7ff0000000000001, 0x7fc00000, 0)
    C4(FLOAT, DOUBLE, 0, 0xfff4000000000000, 0xffe00000, 0)
    C4(FLOAT, DOUBLE, 0, 0x7ff8000020000000, 0x7fc00001, 0)
    /* float -> double: exact; NaNs made quiet with their payload */
    C4(DOUBLE, FLOAT, 0, 0x7f800001, 0x7ff8000020000000, 0)
    C4(DOUBLE, FLOAT, 0, 0xffc00000, 0xfff8000000000000, 0)
    C4(DOUBLE, FLOAT, 0, 0x80000001, 0xb6a0000000000000, 0)
    C4(DOUBLE, FLOAT, 0, 0x7f7fffff, 0x47efffffe0000000, 0)
    C4(DOUBLE, FLOAT, 0, 0x80000000, 0x8000000000000000, 0)
    C4(DOUBLE, FLOAT, 0, 0xff800000, 0xfff0000000000000, 0)
    /* the same type: no effect at all, signalling NaNs included */
    C4(FLOAT, FLOAT, 0, 0x7f800001, 0x7f800001, 0)
    C4(FLOAT, FLOAT, 0, 0x80000000, 0x80000000, 0)
    C4(DOUBLE, DOUBLE, 0, 0xfff0000000000001, 0xfff0000000000001, 0)
    C4(HALF, HALF, 0, 0x7c01, 0x7c01, 0)
    C4(HALF, HALF, 0, 0x8001, 0x8001, 0)
    C4(INT, INT, 0, 0xfffffffb, 0xfffffffb, 0)
    C4(INT, INT, 1, 0x80000000, 0x80000000, 0)
    /* half <-> float/double */
    C4(FLOAT, HALF, 0, 0x0001, 0x33800000, 0)         /* 2^-24 */
    C4(FLOAT, HALF, 0, 0x7bff, 0x477fe000, 0)
    C4(FLOAT, HALF, 0, 0xfc00, 0xff800000, 0)
    C4(FLOAT, HALF, 0, 0x7d00, 0x7fe00000, 0)         /* signalling */
    C4(DOUBLE, HALF, 0, 0x83ff, 0xbf0ff80000000000, 0) /* -largest denormal */
    M4(HALF, FLOAT, 0, 0x3f801000, 0x3c00, 0x3c00, 0x3c01, 0x3c00, 0)
    M4(HALF, FLOAT, 0, 0x477ff000, 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0)
    M4(HALF, FLOAT, 0, 0x33000000, 0x0000, 0x0000, 0x0001, 0x0000, 0)
    M4(HALF, FLOAT, 0, 0xb3000001, 0x8001, 0x8000, 0x8000, 0x8001, 0)
    C4(HALF, FLOAT, 0, 0x7f800001, 0x7e00, 0)
    C4(HALF, FLOAT, 0, 0xff800000, 0xfc00, 0)
    /* double -> half rounds once: via float this would be a tie */
    M4(HALF, DOUBLE, 0, 0x3ff0020000001000, 0x3c01, 0x3c00, 0x3c01, 0x3c00,
       0)                                             /* 1+2^-11+2^-40 */
    M4(HALF, DOUBLE, 0, 0x3ff0020000000000, 0x3c00, 0x3c00, 0x3c01, 0x3c00,
       0)                                             /* 1+2^-11 */

    /* --- integer -> integer --- */
    C(LONG, CHAR, 0, RTZ, 0x80, 0xffffffffffffff80, 0)  /* sign extension */
    C(ULONG, CHAR, 0, RTZ, 0x80, 0xffffffffffffff80, 0)
    C(ULONG, CHAR, 1, RTZ, 0x80, 0, 0)
    C(INT, UINT, 0, RTZ, 0x80000000, 0x80000000, NARROW)
    C(INT, UINT, 1, RTZ, 0x80000000, 0x7fffffff, 0)
    C(UINT, INT, 0, RTZ, 0xffffffff, 0xffffffff, 0)
    C(UINT, INT, 1, RTZ, 0xffffffff, 0, 0)
    C(LONG, ULONG, 0, RTP, UINT64_MAX, UINT64_MAX, NARROW)
    C(LONG, ULONG, 1, RTN, UINT64_MAX, INT64_MAX, 0)
    C(SHORT, LONG, 0, RTZ, 0xffffffffffff7fff, 0x7fff, NARROW)
    C(SHORT, LONG, 1, RTE, 0xffffffffffff7fff, 0x8000, 0)
    C(CHAR, ULONG, 0, RTZ, 0x8000000000000080, 0x80, NARROW)
    C(CHAR, ULONG, 1, RTZ, 0x8000000000000080, 0x7f, 0)
};

static void hand_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tcase *c = &cases[i];
        check1(c->dst, c->src, c->sat, c->r, c->s, c->want, c->notes,
               c->line);
    }
}

/* ---------------------------------------------------------------------- */
/* floating -> integer by rule, for every integer destination whose edges
 * (min - 1/2, max + 1/2, ...) the source type holds exactly: double for up
 * to 32 bits, float for up to 16. The expected value is a limit plus a
 * small offset per mode, as worked out by hand for each row. */

static const struct {
    enum ty_scalar t;
    int64_t min;
    uint64_t max;
} ilimits[] = {
    {TY_CHAR, -0x80, 0x7f},           {TY_UCHAR, 0, 0xff},
    {TY_SHORT, -0x8000, 0x7fff},      {TY_USHORT, 0, 0xffff},
    {TY_INT, -0x7fffffffLL - 1, 0x7fffffff}, {TY_UINT, 0, 0xffffffff},
};

enum { ZERO, MAX, MIN }; /* what a rule's offsets are relative to */

static const struct {
    double x;   /* plus the base (the operand) */
    int base;   /* ZERO, MAX or MIN */
    bool is_signed_only, unsigned_only;
    int off[RND_NMODE]; /* rte, rtz, rtp, rtn: result - base */
    bool range;
} rules[] = {
    /* max is odd: max + 1/2 rounds to max + 1 (even) under rte */
    {0.5, MAX, 0, 0, {0, 0, 0, 0}, 1},      /* saturates */
    {1, MAX, 0, 0, {0, 0, 0, 0}, 1},
    {0, MAX, 0, 0, {0, 0, 0, 0}, 0},
    {-0.5, MAX, 0, 0, {-1, -1, 0, -1}, 0},  /* tie: max - 1 is even */
    {-1.5, MAX, 0, 0, {-1, -2, -1, -2}, 0}, /* tie: max - 1 again */
    /* min is even (or 0) */
    {0, MIN, 0, 0, {0, 0, 0, 0}, 0},
    {0.5, MIN, 1, 0, {0, 1, 1, 0}, 0},      /* tie: min itself */
    {1.5, MIN, 1, 0, {2, 2, 2, 1}, 0},      /* tie: min + 2 */
    {-0.5, MIN, 1, 0, {0, 0, 0, 0}, 1},     /* rtn's min - 1 saturates */
    {-1, MIN, 1, 0, {0, 0, 0, 0}, 1},
    {-0.5, ZERO, 0, 1, {0, 0, 0, 0}, 1},    /* unsigned: below 0 */
    {-1, ZERO, 0, 1, {0, 0, 0, 0}, 1},
    {-0.0, ZERO, 0, 0, {0, 0, 0, 0}, 0},
    {0.25, ZERO, 0, 0, {0, 0, 1, 0}, 0},
    {0.5, ZERO, 0, 0, {0, 0, 1, 0}, 0},     /* tie: 0 */
    {0.75, ZERO, 0, 0, {1, 0, 1, 0}, 0},
    {1.5, ZERO, 0, 0, {2, 1, 2, 1}, 0},
    {2.5, ZERO, 0, 0, {2, 2, 3, 2}, 0},
    {3.5, ZERO, 0, 0, {4, 3, 4, 3}, 0},
    {-2.5, ZERO, 1, 0, {-2, -2, -2, -3}, 0},
    {-3.5, ZERO, 1, 0, {-4, -3, -3, -4}, 0},
    {-0.25, ZERO, 1, 0, {0, 0, 0, -1}, 0},
};

static uint64_t f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void float_to_int_rules(void)
{
    for (size_t t = 0; t < sizeof ilimits / sizeof ilimits[0]; t++) {
        enum ty_scalar dst = ilimits[t].t;
        bool sgn = ilimits[t].min < 0;
        for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
            double base = rules[k].base == MAX   ? (double)ilimits[t].max
                          : rules[k].base == MIN ? (double)ilimits[t].min
                                                 : 0;
            int64_t ibase = rules[k].base == MAX   ? (int64_t)ilimits[t].max
                            : rules[k].base == MIN ? ilimits[t].min
                                                   : 0;
            double x = base + rules[k].x; /* exact: few bits */
            if ((rules[k].is_signed_only && !sgn) ||
                (rules[k].unsigned_only && sgn))
                continue;
            for (int r = 0; r < RND_NMODE; r++) {
                uint64_t want = (uint64_t)(ibase + rules[k].off[r]);
                unsigned n = rules[k].range ? RANGE : 0;
                /* -0.0 stays -0.0 through the addition only if base is 0 */
                if (rules[k].x == 0 && rules[k].base == ZERO)
                    x = -0.0;
                check1(dst, TY_DOUBLE, 0, (enum rnd)r, f64bits(x), want, n,
                       __LINE__);
                check1(dst, TY_DOUBLE, 1, (enum rnd)r, f64bits(x), want, 0,
                       __LINE__);
                if (ty_scalar_size(dst) <= 2) {
                    check1(dst, TY_FLOAT, 0, (enum rnd)r,
                           f32bits((float)x), want, n, __LINE__);
                    check1(dst, TY_FLOAT, 1, (enum rnd)r,
                           f32bits((float)x), want, 0, __LINE__);
                }
            }
        }
        /* infinities and NaN, from all three floating types */
        static const struct { enum ty_scalar t; uint64_t pinf, ninf, nan; }
            fl[] = {{TY_HALF, 0x7c00, 0xfc00, 0xfe01},
                    {TY_FLOAT, 0x7f800000, 0xff800000, 0x7fa00000},
                    {TY_DOUBLE, 0x7ff0000000000000, 0xfff0000000000000,
                     0x7ff8000000000001}};
        for (size_t f = 0; f < 3; f++)
            for (int r = 0; r < RND_NMODE; r++) {
                uint64_t mx = ilimits[t].max, mn = (uint64_t)ilimits[t].min;
                check1(dst, fl[f].t, 0, (enum rnd)r, fl[f].pinf, mx, RANGE,
                       __LINE__);
                check1(dst, fl[f].t, 1, (enum rnd)r, fl[f].pinf, mx, 0,
                       __LINE__);
                check1(dst, fl[f].t, 0, (enum rnd)r, fl[f].ninf, mn, RANGE,
                       __LINE__);
                check1(dst, fl[f].t, 1, (enum rnd)r, fl[f].ninf, mn, 0,
                       __LINE__);
                check1(dst, fl[f].t, 0, (enum rnd)r, fl[f].nan, 0, FNAN,
                       __LINE__);
                check1(dst, fl[f].t, 1, (enum rnd)r, fl[f].nan, 0, SNAN,
                       __LINE__);
            }
    }
}

/* ---------------------------------------------------------------------- */
/* integer -> integer, every pair, on both types' edges. The expected value
 * comes from a model that knows only sign and magnitude: it fits or not;
 * wrapping keeps the low bits of the two's complement; _sat clamps. */

static const struct {
    enum ty_scalar t;
    bool sgn;
    unsigned bits;
} ints[] = {
    {TY_CHAR, 1, 8},   {TY_UCHAR, 0, 8},  {TY_SHORT, 1, 16},
    {TY_USHORT, 0, 16}, {TY_INT, 1, 32},  {TY_UINT, 0, 32},
    {TY_LONG, 1, 64},  {TY_ULONG, 0, 64},
};

typedef struct {
    bool neg;
    uint64_t mag;
} ival;

static uint64_t pow2m1(unsigned b) { return ~UINT64_C(0) >> (64 - b); }

static bool fits(ival v, bool sgn, unsigned bits)
{
    if (!sgn)
        return !v.neg || v.mag == 0 ? v.mag <= pow2m1(bits) : false;
    return v.neg ? v.mag <= pow2m1(bits - 1) + 1 : v.mag <= pow2m1(bits - 1);
}

static uint64_t twos(ival v, unsigned bits)
{
    return (v.neg ? 0 - v.mag : v.mag) & pow2m1(bits);
}

static void int_to_int_pairs(void)
{
    for (size_t si = 0; si < 8; si++) {
        /* edges of every integer type, kept if the source holds them */
        ival vals[64];
        size_t nv = 0;
        for (size_t ti = 0; ti < 8; ti++) {
            bool sg = ints[ti].sgn;
            uint64_t mx = pow2m1(ints[ti].bits - sg);
            ival e[] = { /* 0, +-1, 2, max, max -+ 1, min, min +- 1 */
                {0, 0}, {0, 1}, {1, 1}, {0, 2}, {0, mx}, {0, mx - 1},
                {0, mx + 1}, {1, sg ? mx + 1 : 0}, {1, sg ? mx : 0},
                {1, sg ? mx + 2 : 0},
            };
            for (size_t k = 0; k < sizeof e / sizeof e[0]; k++)
                if (fits(e[k], ints[si].sgn, ints[si].bits) &&
                    !(e[k].neg && e[k].mag == 0))
                    vals[nv++] = e[k];
        }
        for (size_t di = 0; di < 8; di++)
            for (size_t k = 0; k < nv; k++) {
                ival v = vals[k];
                enum ty_scalar d = ints[di].t, s = ints[si].t;
                unsigned db = ints[di].bits;
                bool ok = fits(v, ints[di].sgn, db);
                uint64_t wrap = twos(v, db);
                uint64_t sat = ok ? wrap
                               : v.neg ? (ints[di].sgn ? pow2m1(db - 1) + 1 : 0)
                                       : (ints[di].sgn ? pow2m1(db - 1)
                                                       : pow2m1(db));
                unsigned note = !ok && ints[di].sgn ? NARROW : 0;
                for (int r = 0; r < RND_NMODE; r++) {
                    check1(d, s, 0, (enum rnd)r, twos(v, ints[si].bits), wrap,
                           note, __LINE__);
                    check1(d, s, 1, (enum rnd)r, twos(v, ints[si].bits), sat, 0,
                           __LINE__);
                }
            }
    }
}

/* ---------------------------------------------------------------------- */
/* The loops on whole vectors: each group of hand cases with the same
 * (dst, src, _sat, mode), cycled to 16 elements (one block) and to 37 (two
 * blocks and a tail), must give every element's bits and the OR of the
 * notes. */

static void vectors_through_lookup(void)
{
    static const size_t lens[] = {1, 3, 16, 37};
    uint64_t in[8 * 37 / 8 + 8], out[8 * 37 / 8 + 8]; /* 37 longs at most */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tcase *c = &cases[i];
        size_t idx[64], m = 0;
        bool first = true;
        for (size_t j = 0; j < i; j++) /* first of its group only */
            if (cases[j].dst == c->dst && cases[j].src == c->src &&
                cases[j].sat == c->sat && cases[j].r == c->r)
                first = false;
        if (!first)
            continue;
        for (size_t j = i; j < sizeof cases / sizeof cases[0] && m < 64; j++)
            if (cases[j].dst == c->dst && cases[j].src == c->src &&
                cases[j].sat == c->sat && cases[j].r == c->r)
                idx[m++] = j;
        cv_fn fn = cv_lookup(c->dst, c->src, c->sat, c->r);
        CHECK(fn != NULL, "line %d: no loop", c->line);
        if (!fn)
            continue;
        unsigned ss = ty_scalar_size(c->src), ds = ty_scalar_size(c->dst);
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            size_t n = lens[l];
            unsigned want_notes = 0;
            memset(out, 0xa5, sizeof out);
            for (size_t e = 0; e < n; e++) {
                const tcase *x = &cases[idx[(e * 7 + l) % m]];
                put(c->src, (char *)in + e * ss, x->s);
                want_notes |= x->notes;
            }
            unsigned got = fn(out, in, n);
            CHECK(got == want_notes, "line %d: n=%zu notes %u, want %u",
                  c->line, n, got, want_notes);
            for (size_t e = 0; e < n; e++) {
                const tcase *x = &cases[idx[(e * 7 + l) % m]];
                uint64_t b = get(c->dst, (char *)out + e * ds);
                CHECK(b == (x->want & mask(c->dst)),
                      "line %d: n=%zu element %zu = 0x%llx, want 0x%llx",
                      x->line, n, e, (unsigned long long)b,
                      (unsigned long long)(x->want & mask(c->dst)));
            }
            /* nothing written past the end */
            CHECK(get(TY_UCHAR, (char *)out + n * ds) == 0xa5,
                  "line %d: n=%zu wrote past the end", c->line, n);
        }
    }
}

/* The examples as the reference page writes them, four lanes at a time. */
static void page_examples_as_vectors(void)
{
    uint8_t u[4] = {0x00, 0x01, 0x80, 0xff};
    int32_t i4[4];
    cv_fn fn = cv_lookup(TY_INT, TY_UCHAR, false, cv_default_round(TY_INT));
    CHECK(fn && fn(i4, u, 4) == 0 && i4[0] == 0 && i4[1] == 1 &&
              i4[2] == 0x80 && i4[3] == 0xff, "convert_int4(uchar4)");

    int16_t s[4] = {-1, 0, 32767, -32768};
    uint16_t us[4];
    fn = cv_lookup(TY_USHORT, TY_SHORT, true, RND_RTZ);
    CHECK(fn && fn(us, s, 4) == 0 && us[0] == 0 && us[1] == 0 &&
              us[2] == 0x7fff && us[3] == 0, "convert_ushort4_sat(short4)");

    int16_t s2[4] = {300, -300, 127, -128};
    int8_t c4[4];
    fn = cv_lookup(TY_CHAR, TY_SHORT, true, RND_RTZ);
    CHECK(fn && fn(c4, s2, 4) == 0 && c4[0] == 127 && c4[1] == -128 &&
              c4[2] == 127 && c4[3] == -128, "convert_char4_sat(short4)");

    /* float4 -> int4 in the four ways the page shows: NaN, 3e9, -1.5, 2.5 */
    uint32_t fb[4] = {0x7fc00000, 0x4f32d05e, 0xbfc00000, 0x40200000};
    float f4[4];
    memcpy(f4, fb, sizeof f4);
    static const struct { bool sat; enum rnd r; uint32_t want[4]; unsigned n; }
        ways[] = {
            {0, RND_RTZ, {0, 0x7fffffff, 0xffffffff, 2}, FNAN | RANGE},
            {1, RND_RTZ, {0, 0x7fffffff, 0xffffffff, 2}, SNAN},
            {0, RND_RTE, {0, 0x7fffffff, 0xfffffffe, 2}, FNAN | RANGE},
            {1, RND_RTE, {0, 0x7fffffff, 0xfffffffe, 2}, SNAN},
        };
    for (size_t w = 0; w < 4; w++) {
        uint32_t o[4];
        fn = cv_lookup(TY_INT, TY_FLOAT, ways[w].sat, ways[w].r);
        unsigned n = fn ? fn(o, f4, 4) : 99;
        CHECK(n == ways[w].n && memcmp(o, ways[w].want, sizeof o) == 0,
              "convert_int4%s_%s(float4): notes %u", ways[w].sat ? "_sat" : "",
              rnd_name(ways[w].r), n);
    }

    /* int4 -> float4, default and rtp: 2^24+1, -(2^24+1), INT_MAX, 1 */
    int32_t iv[4] = {0x1000001, -0x1000001, 0x7fffffff, 1};
    uint32_t fo[4];
    static const uint32_t rte[4] = {0x4b800000, 0xcb800000, 0x4f000000,
                                    0x3f800000},
                          rtp[4] = {0x4b800001, 0xcb800000, 0x4f000000,
                                    0x3f800000};
    fn = cv_lookup(TY_FLOAT, TY_INT, false, cv_default_round(TY_FLOAT));
    CHECK(fn && fn(fo, iv, 4) == 0 && memcmp(fo, rte, sizeof fo) == 0,
          "convert_float4(int4)");
    fn = cv_lookup(TY_FLOAT, TY_INT, false, RND_RTP);
    CHECK(fn && fn(fo, iv, 4) == 0 && memcmp(fo, rtp, sizeof fo) == 0,
          "convert_float4_rtp(int4)");
}

/* ---------------------------------------------------------------------- */

static void which_exist(void)
{
    for (int d = 0; d < TY_NSCALAR; d++) {
        bool fl = ty_is_float((enum ty_scalar)d);
        CHECK(cv_default_round((enum ty_scalar)d) == (fl ? RND_RTE : RND_RTZ),
              "default mode of %s", ty_scalar_name((enum ty_scalar)d));
        CHECK(cv_legal((enum ty_scalar)d, false), "plain %d", d);
        CHECK(cv_legal((enum ty_scalar)d, true) == !fl, "_sat %d", d);
        for (int s = 0; s < TY_NSCALAR; s++)
            for (int sat = 0; sat < 2; sat++)
                for (int r = 0; r < RND_NMODE; r++) {
                    cv_fn fn = cv_lookup((enum ty_scalar)d, (enum ty_scalar)s,
                                         sat, (enum rnd)r);
                    CHECK((fn == NULL) == (sat && fl), "lookup %s <- %s sat %d",
                          ty_scalar_name((enum ty_scalar)d),
                          ty_scalar_name((enum ty_scalar)s), sat);
                    uint64_t a = 0, b = 0;
                    if (sat && fl)
                        CHECK(cv_scalar((enum ty_scalar)d, (enum ty_scalar)s,
                                        &b, &a, true, (enum rnd)r) == -1,
                              "cv_scalar accepted _sat to %s",
                              ty_scalar_name((enum ty_scalar)d));
                    if (fn)
                        CHECK(fn(&b, &a, 0) == 0, "n = 0");
                }
    }
}

/* A zero of any type converts to +0 (or 0) with no note, in every mode. */
static void zeros(void)
{
    for (int d = 0; d < TY_NSCALAR; d++)
        for (int s = 0; s < TY_NSCALAR; s++)
            for (int sat = 0; sat < 2; sat++)
                for (int r = 0; r < RND_NMODE; r++)
                    if (cv_legal((enum ty_scalar)d, sat))
                        check1((enum ty_scalar)d, (enum ty_scalar)s, sat,
                               (enum rnd)r, 0, 0, 0, __LINE__);
}

int main(void)
{
    RUN(hand_cases);
    RUN(float_to_int_rules);
    RUN(int_to_int_pairs);
    RUN(vectors_through_lookup);
    RUN(page_examples_as_vectors);
    RUN(which_exist);
    RUN(zeros);
    return t_summary("convert");
}
