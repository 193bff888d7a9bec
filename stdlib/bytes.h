/* Bits of values, defined once. Byte order: memory (buffers, constants, .bc files) is
 * little-endian whatever the host; le_load/le_store move one n-byte element
 * (n = 1, 2, 4, 8) between memory and a host integer. On a little-endian
 * host this is a memcpy (HOST_LE); any other host, or -DCLVM_GENERIC_ENDIAN
 * to test that path here, assembles the element byte by byte. */
#ifndef CLVM_BYTES_H
#define CLVM_BYTES_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    !defined(CLVM_GENERIC_ENDIAN)
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

static inline uint64_t le_load(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
#if HOST_LE
    switch (n) {
    case 1: return p[0];
    case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
    default: memcpy(&v, p, 8); return v;
    }
#else
    for (unsigned k = n; k-- > 0;)
        v = v << 8 | p[k];
    return v;
#endif
}

static inline void le_store(uint8_t *p, unsigned n, uint64_t v)
{
#if HOST_LE
    switch (n) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
#else
    for (unsigned k = 0; k < n; k++, v >>= 8)
        p[k] = (uint8_t)v;
#endif
}

/* A float's or double's bits and back, through memcpy (no type punning). */
static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double bitsd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

#endif
