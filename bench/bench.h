/* What the three implementations of the reference benchmarks share
 * (/work/shared/bench/BENCHMARKS.md): the inputs, the output hash and a
 * clock. Header-only so that each benchmark program is one file. */
#ifndef CLVM_BENCH_H
#define CLVM_BENCH_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* The bench kernel's scalar arguments. */
#define BENCH_SCALE 1.5f
#define BENCH_BIAS 0.5f
#define BENCH_KEY 0x9E3779B9u
#define BENCH_MASK 0xFFFF0FFFu

static inline uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* in[k] for 0 <= k < 4N: mostly multiples of 0.25 up to 2^21 in
 * magnitude, one in 16 a special value that exercises NaN, the
 * saturation bounds and ties. */
static inline float bench_input(uint32_t k)
{
    static const float specials[16] = {
        NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 2147483520.0f, 2147483648.0f,
        -2147483648.0f, 0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 1e20f, -1e20f, -0.0f,
    };
    uint32_t h = hash32(k);
    if ((h & 15) == 0)
        return specials[(h >> 4) & 15];
    /* (int32)h >> 10, arithmetic, without implementation-defined shifts of
     * negative values: bias to unsigned, shift, unbias. */
    int32_t s = (int32_t)((h ^ 0x80000000u) >> 10) - (1 << 21);
    return (float)s * 0.25f;
}

/* in[i] of the math kernel: floats in [0.5, 1.5) */
static inline float math_input(uint32_t i)
{
    return 0.5f + (float)(hash32(i ^ 0x5bd1e995u) >> 8) * 0x1p-24f;
}

static inline uint32_t loop_seed(uint32_t i)
{
    return hash32(i ^ 0xA5A5A5A5u) | 1;
}

/* FNV-1a-64 over bytes, continuing from h (start: FNV_BASIS). The
 * reference hashes are of little-endian buffers, as on x86 and ARM. */
#define FNV_BASIS 14695981039346656037ull
static inline uint64_t fnv1a64(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static inline double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
