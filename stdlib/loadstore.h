/* vloadN / vstoreN and the half forms (vload_halfN, vloada_halfN,
 * vstore_halfN[_rtX], vstorea_halfN[_rtX]) over a bounds-checked buffer.
 *
 * Memory is little-endian. A pointer is a buffer plus a byte offset into it;
 * buffers start at addresses aligned to LS_BASE_ALIGN, so alignment is
 * judged on the byte offset. An access is checked for alignment and for
 * bounds on exactly the bytes it touches (3 elements for the 3-forms);
 * a bad access is reported, never performed. */
#ifndef CLVM_LOADSTORE_H
#define CLVM_LOADSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include "stdlib/round.h"
#include "stdlib/types.h"

enum { LS_BASE_ALIGN = 128 };

typedef struct {
    uint8_t *data;
    uint64_t size; /* bytes */
} ls_buf;

enum ls_err { LS_OK, LS_BOUNDS, LS_ALIGN };

/* What went wrong, for the runtime's message. Every function below takes
 * an ls_fault *f that may be NULL and is written only on error. Alignment
 * is checked before bounds: the stride is always a multiple of the
 * alignment, so it depends on p alone (an access both misaligned and out of
 * bounds reports LS_ALIGN). On error nothing is read or written. */
typedef struct {
    enum ls_err err;
    uint64_t addr;  /* byte offset of the first byte touched (saturates at
                       UINT64_MAX when the computation overflows) */
    uint64_t len;   /* bytes the access would touch */
    uint64_t align; /* alignment it needed */
} ls_fault;

/* vloadN(offset, p): n lanes of elem from p + offset*n elements, into dst
 * (register layout, host order; for n == 3 the 4th lane is left as is).
 * elem may be any scalar including half (vloadN of half gives halfN bits).
 * p is a byte offset into b. n is 2, 3, 4, 8 or 16, or 1 for a plain
 * element access (the VM's own). The alignment needed is the element's
 * size. vstoreN reads n lanes of src (3 for n == 3: never the padding). */
enum ls_err ls_vload(enum ty_scalar elem, unsigned n, const ls_buf *b,
                     uint64_t p, uint64_t offset, void *dst, ls_fault *f);
enum ls_err ls_vstore(enum ty_scalar elem, unsigned n, const void *src,
                      const ls_buf *b, uint64_t p, uint64_t offset,
                      ls_fault *f);

/* vload_halfN (aligned = false) and vloada_halfN (aligned = true): halves
 * at p + offset*n (offset*4 for vloada_half3) widened to float. Alignment
 * is 2 bytes, or sizeof(halfN) for the vloada forms (8 for half3). n == 1
 * is vload_half / vloada_half. */
enum ls_err ls_vload_half(unsigned n, bool aligned, const ls_buf *b,
                          uint64_t p, uint64_t offset, float *dst,
                          ls_fault *f);

/* vstore_halfN[_rtX] / vstorea_halfN[_rtX] of a floatN (src_double false)
 * or doubleN (true) value; double rounds to half once. Addresses and
 * alignment as for the loads; vstorea_half3 writes 3 halves, never the
 * padding half. */
enum ls_err ls_vstore_half(unsigned n, bool aligned, bool src_double,
                           const void *src, enum rnd r, const ls_buf *b,
                           uint64_t p, uint64_t offset, ls_fault *f);

/* "ok", "out of bounds", "misaligned" */
const char *ls_err_name(enum ls_err e);

#endif
