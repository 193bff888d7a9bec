/* Values of OpenCL C types as text: the one printer and parser that
 * `clvm run` and the REPL share.
 *
 * A value of type t is held as its components' element bits, one uint64_t
 * each (as asm/lit.h holds them: an integer's low bytes, a float's, a
 * double's or a half's IEEE pattern), t.n of them.
 *
 * Text is OpenCL C literal syntax: a scalar alone ("2.5", "-128"), a vector
 * with its cast ("(char4)(127, -128, 5, -5)"), no suffixes (the type is
 * known from the context). Integers are decimal. A floating value reads
 * back to the same bits: a whole number below 1e16 is written in full
 * ("65504", "16777216"), any other value in the fewest significant digits
 * that read back (at most 5 for half, 9 for float, 17 for double),
 * positionally from 1e-4 up to 1e16 ("0.1", "0.00012") and as C's %e
 * beyond ("1e-05", "1.5e+16"). Special values: "-0", "inf", "-inf", and
 * "nan" or "-nan" by the sign bit (a NaN's payload shows only in the
 * VAL_HEX form; parsed back, "nan" is the quiet NaN of the type). */
#ifndef CLVM_VALUE_H
#define CLVM_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "stdlib/types.h"

enum {
    VAL_HEX = 1,        /* each component as its bits, 0x3f800000, 0xff;
                           a vector as the unsigned type of its element
                           size: (uint2)(0x3f800000, 0x40000000) */
};

enum { VAL_ELEM_MAX = 32, VAL_TEXT_MAX = 640 };

/* One element of scalar type s. Returns buf. */
char *val_elem(enum ty_scalar s, uint64_t bits, unsigned flags,
               char buf[VAL_ELEM_MAX]);

/* A value of type t from bits[0..t.n). Returns buf. */
char *val_format(ty_t t, const uint64_t *bits, unsigned flags,
                 char buf[VAL_TEXT_MAX]);

/* Parses s[0..len) as a value of type t into bits[0..t.n). Accepted: a
 * scalar literal ([+-] number, as the assembler reads it, and nan, inf,
 * infinity, NAN, INFINITY, INT_MAX and the other predefined constants),
 * which a vector type broadcasts; or a vector literal (T)(a, b, ...) whose
 * T is t and whose components (scalars, or vector literals of t's element
 * type) add up to t.n, or (T)(a) broadcast. A literal must fit exactly as
 * in the assembler: no integer out of range, no floating literal for an
 * integer, no finite literal that rounds to infinity. Returns 0, or -1
 * with a one-line reason in err. */
int val_parse(ty_t t, const char *s, size_t len, uint64_t *bits, char *err,
              size_t errlen);

/* The t.n components of a value of type t stored at p as memory holds it
 * (little-endian elements; a 3-vector's padding is not touched). */
void val_load(ty_t t, const uint8_t *p, uint64_t *bits);
void val_store(ty_t t, const uint64_t *bits, uint8_t *p);

#endif
