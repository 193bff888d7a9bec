/* Bit views shared by the unit tests: stdlib/bytes.h's float and double
 * bits, and little-endian memory element by element written on its own
 * (the reference the loads and stores are tested against). */
#ifndef CLVM_TEST_BITS_H
#define CLVM_TEST_BITS_H

#include <stdint.h>
#include <string.h>

#include "stdlib/bytes.h"


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
