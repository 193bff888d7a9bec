/* NumPy .npy files (format versions 1.0, 2.0 and 3.0), so that buffers can
 * come from and go to `numpy.load`/`numpy.save` with their element type
 * checked instead of a header being read as data.
 *
 * Only what maps onto an OpenCL C buffer is accepted: little-endian (or
 * one-byte) integers and floats of the eleven OpenCL C scalar types, in C
 * order; anything else is refused with a message saying what was found. */
#ifndef CLVM_NPY_H
#define CLVM_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stdlib/types.h"

/* The header of a .npy file. */
typedef struct {
    enum ty_scalar s;      /* element type */
    uint64_t count;        /* elements: the product of the shape */
    size_t data;           /* byte offset of the first element */
    char descr[16];        /* the dtype as written, for messages */
} npy_info;

/* Whether buf starts with the .npy magic. */
bool npy_is(const uint8_t *buf, size_t n);

/* Parses and checks the header of a whole file in buf[0..n): the data must
 * be exactly count elements. Returns 0, or -1 with a message in why. */
int npy_parse(const uint8_t *buf, size_t n, npy_info *out, char *why,
              size_t len);

/* NumPy's name of a scalar type ("float32") and its dtype ("<f4"). */
const char *npy_type_name(enum ty_scalar s);
const char *npy_descr(enum ty_scalar s);

/* The header of a version 1.0 file holding count elements of t, shaped
 * (count,) for a scalar t and (count, lanes) for a vector: written to
 * hdr, which holds NPY_HDR_MAX bytes; returns its length (a multiple of
 * 64, as the format asks). */
enum { NPY_HDR_MAX = 128 };
size_t npy_header(ty_t t, uint64_t count, uint8_t hdr[NPY_HDR_MAX]);

#endif
