/* Bit views shared by the unit tests: a float's bits and back (memcpy, no
 * type punning), and little-endian memory element by element. */
#ifndef CLVM_TEST_BITS_H
#define CLVM_TEST_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double bitsd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static inline uint64_t get_le(const uint8_t *m, unsigned size)
{
    uint64_t v = 0;
    for (unsigned k = size; k-- > 0;)
        v = v << 8 | m[k];
    return v;
}

static inline void put_le(uint8_t *m, unsigned size, uint64_t v)
{
    for (unsigned k = 0; k < size; k++, v >>= 8)
        m[k] = (uint8_t)v;
}

#endif
