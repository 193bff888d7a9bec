/* OpenCL C scalar and vector types: names, sizes, alignment.
 * The scalar list is defined once, in TY_SCALARS; everything else derives. */
#ifndef CLVM_TYPES_H
#define CLVM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(ENUM, name, bytes, kind, C storage type)
 * kind: 'i' signed integer, 'u' unsigned integer, 'f' floating point.
 * half is stored as its IEEE binary16 bit pattern. */
#define TY_SCALARS(X)                                 \
    X(CHAR,   char,   1, 'i', int8_t)                 \
    X(UCHAR,  uchar,  1, 'u', uint8_t)                \
    X(SHORT,  short,  2, 'i', int16_t)                \
    X(USHORT, ushort, 2, 'u', uint16_t)               \
    X(INT,    int,    4, 'i', int32_t)                \
    X(UINT,   uint,   4, 'u', uint32_t)               \
    X(LONG,   long,   8, 'i', int64_t)                \
    X(ULONG,  ulong,  8, 'u', uint64_t)               \
    X(HALF,   half,   2, 'f', uint16_t)               \
    X(FLOAT,  float,  4, 'f', float)                  \
    X(DOUBLE, double, 8, 'f', double)

enum ty_scalar {
#define X(E, n, b, k, c) TY_##E,
    TY_SCALARS(X)
#undef X
    TY_NSCALAR
};

/* Vector widths OpenCL C has: 1 (scalar), 2, 3, 4, 8, 16. */
#define TY_WIDTHS(X) X(1) X(2) X(3) X(4) X(8) X(16)
enum { TY_NWIDTH = 6, TY_MAXLANES = 16 };

/* A value type: scalar element and lane count. */
typedef struct {
    uint8_t s; /* enum ty_scalar */
    uint8_t n; /* 1, 2, 3, 4, 8 or 16 */
} ty_t;

const char *ty_scalar_name(enum ty_scalar s);
unsigned ty_scalar_size(enum ty_scalar s);
char ty_scalar_kind(enum ty_scalar s);            /* 'i', 'u' or 'f' */
bool ty_is_float(enum ty_scalar s);
bool ty_is_signed(enum ty_scalar s);              /* signed integers only */
/* An n-byte element (n = 1, 2, 4, 8) at p in host order, zero-extended,
 * and its store (v's low n bytes). p needs no alignment. */
uint64_t ty_get_bits(const void *p, unsigned n);
void ty_put_bits(void *p, unsigned n, uint64_t v);
/* The signed and the unsigned integer type of s's size (half: short,
 * double: long), and of t's size with t's lane count (int4 for float4). */
enum ty_scalar ty_signed_of(enum ty_scalar s);
enum ty_scalar ty_unsigned_of(enum ty_scalar s);
ty_t ty_signed(ty_t t);
ty_t ty_unsigned(ty_t t);
bool ty_valid_width(unsigned n);
int ty_width_index(unsigned n);                   /* 0..5, or -1 */

/* Lanes of storage: a 3-vector occupies 4, as OpenCL's sizeof says. */
unsigned ty_lanes(ty_t t);
size_t ty_sizeof(ty_t t);
size_t ty_alignof(ty_t t);                        /* == ty_sizeof(t) */
bool ty_eq(ty_t a, ty_t b);

/* "float4", "uchar", ... into buf (at least 16 bytes); returns buf. */
#define TY_NAME_MAX 16
char *ty_name(ty_t t, char buf[TY_NAME_MAX]);

/* Parses a whole type name ("double3", "half"). Returns false if it is not
 * one; never reads past len bytes. */
bool ty_parse(const char *s, size_t len, ty_t *out);

/* Parses the longest type name at the start of s; returns its length or 0. */
size_t ty_parse_prefix(const char *s, size_t len, ty_t *out);

#endif
