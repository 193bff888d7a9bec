/* binary16 <-> float/double by integer manipulation of the bit patterns, so
 * the result never depends on the FPU's rounding mode or on FTZ/DAZ; and
 * half arithmetic (cl_khr_fp16), each operation rounded once. */
#include "stdlib/half.h"

#include <string.h>

#define HALF_QNAN 0x7e00u /* exponent all ones plus the quiet bit */
#define HALF_INF  0x7c00u
#define HALF_MAX  0x7bffu /* 65504 */

/* Index of the highest set bit of m (m != 0). */
static unsigned top_bit(unsigned m)
{
#if defined(__GNUC__)
    return 31u - (unsigned)__builtin_clz(m);
#else
    unsigned k = 0;
    while (m >>= 1)
        k++;
    return k;
#endif
}

/* The bits of h in a binary format with mant significand bits, exponent
 * bias 'bias' and the sign at bit 'sbit'. */
static uint64_t widen(uint16_t h, unsigned mant, unsigned bias, unsigned sbit)
{
    uint64_t sign = (uint64_t)(h >> 15) << sbit;
    uint64_t frac = (uint64_t)(h & 0x3ffu) << (mant - 10);
    unsigned e = h >> 10 & 31u, m = h & 0x3ffu, k;
    uint64_t exp;
    if (e == 31) { /* inf, or NaN made quiet with its payload on top */
        exp = 2 * bias + 1;
        if (m)
            frac |= (uint64_t)1 << (mant - 1);
    } else if (e) {
        exp = e + bias - 15;
    } else if (m) { /* denormal: m * 2^-24 is normal in the wider format */
        k = top_bit(m);
        exp = bias - 24 + k;
        frac = ((uint64_t)m << (mant - k)) & (((uint64_t)1 << mant) - 1);
    } else {
        exp = 0;
    }
    return sign | exp << mant | frac;
}

float half_to_float(uint16_t h)
{
    uint32_t b = (uint32_t)widen(h, 23, 127, 31);
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

double half_to_double(uint16_t h)
{
    uint64_t b = widen(h, 52, 1023, 63);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Rounds the finite value sig * 2^(he - 25 - shift) with sign s (0 or
 * 0x8000): he is the half biased exponent the value's leading bit has, and
 * shift how many low bits of sig lie below the half ulp at that exponent.
 * Below the normal range the ulp stays 2^-24, so shift grows; beyond 63 it
 * only matters that the bits are nonzero, which a shift of 63 still sees
 * (sig < 2^53). A round-up that carries out of the significand lands
 * on the next exponent (or inf, or the smallest normal) by itself. */
static uint16_t narrow(unsigned s, int he, unsigned shift, uint64_t sig,
                       enum rnd r)
{
    int away = (r == RND_RTP && !s) || (r == RND_RTN && s);
    unsigned under = he < 1 ? (unsigned)(1 - he) : 0; /* binades below 2^-14 */
    uint64_t one, add;
    if (he >= 31) /* |x| >= 65536: overflow before any rounding */
        return (uint16_t)(s | (r == RND_RTE || away ? HALF_INF : HALF_MAX));
    shift += under;
    shift = shift < 63 ? shift : 63;
    one = (uint64_t)1 << shift;
    /* rte adds half an ulp, less one unless q is odd (ties to even);
     * rounding away from zero adds an ulp less one. Plain selects, so the
     * compiler can avoid branches that depend on the data. */
    add = r == RND_RTE ? (one >> 1) - 1 + (sig >> shift & 1)
                       : away ? one - 1 : 0;
    return (uint16_t)(s | (((uint64_t)(he - 1 + (int)under) << 10) +
                           ((sig + add) >> shift)));
}

uint16_t half_from_double(double d, enum rnd r)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    unsigned s = (unsigned)(b >> 48) & 0x8000u;
    unsigned e = (unsigned)(b >> 52) & 0x7ffu;
    uint64_t m = b & (((uint64_t)1 << 52) - 1);
    if (e == 0x7ff)
        return (uint16_t)(s | (m ? HALF_QNAN | (unsigned)(m >> 42) : HALF_INF));
    /* A denormal double is m * 2^(1 - 1075): exponent 1, no hidden bit. */
    if (e)
        m |= (uint64_t)1 << 52;
    else
        e = 1;
    return narrow(s, (int)e - 1008, 42, m, r);
}

uint16_t half_from_float(float f, enum rnd r)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    unsigned s = (b >> 16) & 0x8000u;
    unsigned e = (b >> 23) & 0xffu;
    uint32_t m = b & 0x7fffffu;
    /* By bits rather than through (double)f: the FPU may not keep a NaN's
     * payload when it widens. */
    if (e == 0xff)
        return (uint16_t)(s | (m ? HALF_QNAN | (m >> 13) : HALF_INF));
    if (e)
        m |= (uint32_t)1 << 23;
    else
        e = 1;
    return narrow(s, (int)e - 112, 13, m, r);
}

uint16_t half_add(uint16_t a, uint16_t b)
{
    return half_from_float(half_to_float(a) + half_to_float(b), RND_RTE);
}

uint16_t half_sub(uint16_t a, uint16_t b)
{
    return half_from_float(half_to_float(a) - half_to_float(b), RND_RTE);
}

uint16_t half_mul(uint16_t a, uint16_t b)
{
    return half_from_float(half_to_float(a) * half_to_float(b), RND_RTE);
}

uint16_t half_div(uint16_t a, uint16_t b)
{
    return half_from_float(half_to_float(a) / half_to_float(b), RND_RTE);
}

uint16_t half_fma(uint16_t a, uint16_t b, uint16_t c)
{
    double p = half_to_double(a) * half_to_double(b); /* exact: 22 bits */
    double z = half_to_double(c), s = p + z;
    if (s - s != 0) /* an infinity or NaN: no rounding to mend */
        return half_from_double(s, RND_RTE);
    /* TwoSum (Knuth): s + e == p + z exactly (no overflow: |s| < 2^33) */
    double bb = s - p, e = (p - (s - bb)) + (z - bb);
    if (e != 0) {
        /* round to odd: of s and its neighbour toward p + z, the odd one */
        uint64_t bits;
        memcpy(&bits, &s, sizeof bits);
        if (!(bits & 1))
            bits = (e > 0) == (s > 0) ? bits + 1 : bits - 1;
        memcpy(&s, &bits, sizeof s);
    }
    return half_from_double(s, RND_RTE);
}

uint16_t half_mad(uint16_t a, uint16_t b, uint16_t c)
{
    return half_add(half_mul(a, b), c);
}

uint16_t half_nextafter(uint16_t a, uint16_t b)
{
    float x = half_to_float(a), y = half_to_float(b);
    if (x != x || y != y)
        return x != x ? (uint16_t)(a | 0x200u) : (uint16_t)(b | 0x200u);
    if (x == y)
        return b;
    if (x == 0) /* the smallest denormal, with y's sign */
        return (uint16_t)((b & 0x8000u) | 1u);
    /* away from zero: the magnitude's bits grow by one, else shrink */
    return (x < y) == !(a & 0x8000u) ? (uint16_t)(a + 1) : (uint16_t)(a - 1);
}
