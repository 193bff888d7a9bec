/* Numeric literals: parsing, their C type, their exact value in any
 * OpenCL scalar type, operators on constants (with the VM's semantics),
 * and the shortest text that reads back to the same bits (for dis).
 *
 * An element value is held as its bits in a uint64_t: an integer's low
 * bytes, a float's or double's IEEE pattern, a half's binary16 pattern. */
#ifndef CLVM_LIT_H
#define CLVM_LIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stdlib/types.h"

enum lit_kind { LIT_INT, LIT_FLT, LIT_INF, LIT_NAN };

typedef struct {
    uint8_t kind;      /* enum lit_kind */
    bool neg;          /* a unary minus applied to the literal itself */
    char sfx;          /* LIT_FLT: 0, 'f' or 'h' */
    bool hex;          /* LIT_FLT: a hex float */
    ty_t nat;          /* the C type it has on its own */
    uint64_t mag;      /* LIT_INT: the magnitude */
    const char *text;  /* LIT_FLT: digits and exponent, no suffix */
    uint32_t len;
} lit;

/* Parses the pp-number s[0..len). NULL on success, else why not. */
const char *lit_parse(const char *s, size_t len, lit *out);

/* Predefined names (NAN, INT_MAX, CLK_LOCAL_MEM_FENCE, ...): true and *out
 * set if name is one. */
bool lit_named(const char *name, size_t len, lit *out);

enum lit_err {
    LIT_OK,
    LIT_RANGE,        /* does not fit the type (or overflows to inf) */
    LIT_FLT_IN_INT,   /* a floating literal where an integer is needed */
    LIT_NARROW,       /* an 'f' or 'h' literal in a narrower float type */
};

/* The bits of l in scalar type t, rounded to nearest even once. */
enum lit_err lit_bits(const lit *l, enum ty_scalar t, uint64_t *bits);

/* The type C gives a binary arithmetic operator on constants of types a
 * and b (the usual arithmetic conversions; literals are never narrower
 * than int). */
ty_t lit_common(ty_t a, ty_t b);

/* Converts element bits between scalar types as convert_T does (default
 * rounding, no _sat). */
uint64_t lit_convert(enum ty_scalar dst, enum ty_scalar src, uint64_t bits);

/* Operators on constant elements of type t; the op is an enum lex_punct
 * (P_ADD, ..., P_LT, P_ANDAND; P_SUB/P_TILDE/P_NOT alone for unary).
 * Comparisons and && || ! give 1 or 0 (the caller converts). Returns
 * NULL, or why the operator does not apply to t. */
const char *lit_binop(int op, enum ty_scalar t, uint64_t a, uint64_t b,
                      uint64_t *r);
const char *lit_unop(int op, enum ty_scalar t, uint64_t a, uint64_t *r);

/* Writes element bits of type t as IR text that reads back to the same
 * bits in a t context: "-3", "1.5f", "0x1p-149"-free shortest decimals,
 * "INFINITY", "NAN", "as_float(0x7fc00001)". Returns buf. */
enum { LIT_TEXT_MAX = 48 };
char *lit_format(enum ty_scalar t, uint64_t bits, char buf[LIT_TEXT_MAX]);

/* Element bits <-> the host representation of one element (what stdlib's
 * cv_scalar and as_reinterpret read and write), at p + i * size. */
void lit_host_put(void *p, enum ty_scalar t, unsigned i, uint64_t bits);
uint64_t lit_host_get(const void *p, enum ty_scalar t, unsigned i);

/* Element bits <-> little-endian bytes of a register image. */
void lit_store(uint8_t *p, enum ty_scalar t, uint64_t bits);
uint64_t lit_load(const uint8_t *p, enum ty_scalar t);

#endif
