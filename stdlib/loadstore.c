/* vloadN/vstoreN and the half forms over a bounds-checked buffer
 * (stdlib/loadstore.h). */
#include "stdlib/loadstore.h"

#include <assert.h>
#include <string.h>

#include "stdlib/bytes.h"
#include "stdlib/half.h"

/* Memory is little-endian (stdlib/bytes.h). On a little-endian host an
 * element's register bytes are its memory bytes, so moving n elements is one
 * memcpy; any other host assembles each element from its bytes. */
#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define LIKELY(x) (x)
#endif

static const uint8_t esize[TY_NSCALAR] = {
#define X(E, n, b, k, c) [TY_##E] = b,
    TY_SCALARS(X)
#undef X
};

/* The widest stride is 16 lanes of 8 bytes, so an offset below 2^57 can
 * be multiplied by any stride without overflow (the division is skipped). */
enum { MAX_STRIDE = TY_MAXLANES * 8 };
#define SAFE_OFFSET (UINT64_MAX / MAX_STRIDE)

/* n is 1, 2, 3, 4, 8 or 16: a bit set, as this is checked on every call */
static inline bool valid_n(unsigned n)
{
    return n <= 16 && (0x1011eu >> n & 1);
}

/* memcpy with the common sizes spelled out, so that they compile to plain
 * moves instead of a library call. */
static inline void copy(void *d, const void *s, size_t len)
{
    switch (len) {
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 12: memcpy(d, s, 12); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, len); break;
    }
}

static enum ls_err fault(ls_fault *f, enum ls_err e, uint64_t addr,
                         uint64_t len, uint64_t align)
{
    if (f)
        *f = (ls_fault){e, addr, len, align};
    return e;
}

/* Locates len bytes at p + offset*stride, which must be aligned to align
 * (a power of two). Alignment is checked first, then bounds. Every stride
 * is a multiple of its alignment, so whether an access is aligned depends
 * on p alone and is well defined even when the address overflows; an
 * access that is both misaligned and out of bounds reports LS_ALIGN. */
static inline enum ls_err locate(const ls_buf *b, uint64_t p, uint64_t offset,
                                 uint64_t stride, uint64_t len, uint64_t align,
                                 ls_fault *f, uint64_t *at)
{
    uint64_t a = UINT64_MAX; /* saturated unless the sum fits */
    if (offset <= SAFE_OFFSET || offset <= UINT64_MAX / stride) {
        uint64_t o = offset * stride;
        if (o <= UINT64_MAX - p)
            a = p + o;
    }
    bool aligned = (p & (align - 1)) == 0;
    /* len >= 1, so the saturated a == UINT64_MAX is never in bounds */
    if (LIKELY(aligned && len <= b->size && a <= b->size - len)) {
        *at = a;
        return LS_OK;
    }
    return fault(f, aligned ? LS_BOUNDS : LS_ALIGN, a, len, align);
}

/* n elements of size bytes between a register and memory. */
static void to_reg(void *dst, const uint8_t *m, unsigned size, unsigned n)
{
#if HOST_LE
    copy(dst, m, (size_t)size * n);
#else
    for (unsigned i = 0; i < n; i++)
        ty_put_bits((uint8_t *)dst + i * size, size, le_load(m + i * size, size));
#endif
}

static void to_mem(uint8_t *m, const void *src, unsigned size, unsigned n)
{
#if HOST_LE
    copy(m, src, (size_t)size * n);
#else
    for (unsigned i = 0; i < n; i++)
        le_store(m + i * size, size,
                 ty_get_bits((const uint8_t *)src + i * size, size));
#endif
}

enum ls_err ls_vload(enum ty_scalar elem, unsigned n, const ls_buf *b,
                     uint64_t p, uint64_t offset, void *dst, ls_fault *f)
{
    assert(elem < TY_NSCALAR && valid_n(n));
    unsigned size = esize[elem];
    uint64_t at;
    enum ls_err e = locate(b, p, offset, (uint64_t)n * size,
                           (uint64_t)n * size, size, f, &at);
    if (LIKELY(e == LS_OK))
        to_reg(dst, b->data + at, size, n);
    return e;
}

enum ls_err ls_vstore(enum ty_scalar elem, unsigned n, const void *src,
                      const ls_buf *b, uint64_t p, uint64_t offset,
                      ls_fault *f)
{
    assert(elem < TY_NSCALAR && valid_n(n));
    unsigned size = esize[elem];
    uint64_t at;
    enum ls_err e = locate(b, p, offset, (uint64_t)n * size,
                           (uint64_t)n * size, size, f, &at);
    if (LIKELY(e == LS_OK))
        to_mem(b->data + at, src, size, n);
    return e;
}

/* The half forms' address: p + offset*n halves (offset*4 for vloada_half3
 * and vstorea_half3), aligned to 2, or to sizeof(halfN) for the a-forms. */
static enum ls_err locate_half(unsigned n, bool aligned, const ls_buf *b,
                               uint64_t p, uint64_t offset, ls_fault *f,
                               uint64_t *at)
{
    unsigned lanes = aligned && n == 3 ? 4 : n;
    return locate(b, p, offset, 2u * lanes, 2u * n, aligned ? 2u * lanes : 2u,
                  f, at);
}

enum ls_err ls_vload_half(unsigned n, bool aligned, const ls_buf *b,
                          uint64_t p, uint64_t offset, float *dst,
                          ls_fault *f)
{
    assert(valid_n(n));
    uint64_t at;
    enum ls_err e = locate_half(n, aligned, b, p, offset, f, &at);
    if (e != LS_OK)
        return e;
    const uint8_t *m = b->data + at;
    for (unsigned i = 0; i < n; i++)
        dst[i] = half_to_float((uint16_t)(m[2 * i] | m[2 * i + 1] << 8));
    return LS_OK;
}

enum ls_err ls_vstore_half(unsigned n, bool aligned, bool src_double,
                           const void *src, enum rnd r, const ls_buf *b,
                           uint64_t p, uint64_t offset, ls_fault *f)
{
    assert(valid_n(n) && r < RND_NMODE);
    uint64_t at;
    enum ls_err e = locate_half(n, aligned, b, p, offset, f, &at);
    if (e != LS_OK)
        return e;
    uint8_t *m = b->data + at;
    const uint8_t *s = src;
    for (unsigned i = 0; i < n; i++) {
        uint16_t h;
        if (src_double) {
            double d;
            memcpy(&d, s + 8 * i, 8);
            h = half_from_double(d, r);
        } else {
            float x;
            memcpy(&x, s + 4 * i, 4);
            h = half_from_float(x, r);
        }
        m[2 * i] = (uint8_t)h;
        m[2 * i + 1] = (uint8_t)(h >> 8);
    }
    return LS_OK;
}

const char *ls_err_name(enum ls_err e)
{
    static const char *const names[] = {
        [LS_OK] = "ok", [LS_BOUNDS] = "out of bounds", [LS_ALIGN] = "misaligned"};
    return (unsigned)e < sizeof names / sizeof names[0] ? names[e] : "?";
}
