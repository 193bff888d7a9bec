#include "tests/lib/ref.h"

#include <string.h>

/* The binary formats: total bits, precision p counting the hidden bit, and
 * emax (emin = 1 - emax, bias = emax). */
static const struct fmt {
    unsigned bits, p;
    int emax;
} fmts[TY_NSCALAR] = {
    [TY_HALF] = {16, 11, 15},
    [TY_FLOAT] = {32, 24, 127},
    [TY_DOUBLE] = {64, 53, 1023},
};

/* Size and kind of each scalar, local so the hot paths make no calls. */
static const struct {
    unsigned size;
    char kind;
} tys[TY_NSCALAR] = {
#define X(E, n, b, k, c) [TY_##E] = {b, k},
    TY_SCALARS(X)
#undef X
};

#define ISFLOAT(t) (tys[t].kind == 'f')
#define ISSIGNED(t) (tys[t].kind == 'i')

#define ONES(n) (UINT64_MAX >> (64 - (n))) /* n low bits set, 1 <= n <= 64 */

/* The bits cut off below the kept ones, against half a unit of the last
 * kept place. */
enum tail { EXACT, BELOW_HALF, HALF, ABOVE_HALF };

uint64_t ref_bits(enum ty_scalar t, const void *p)
{
    switch (tys[t].size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

void ref_put_bits(enum ty_scalar t, void *p, uint64_t bits)
{
    switch (tys[t].size) {
    case 1: { uint8_t v = (uint8_t)bits; memcpy(p, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)bits; memcpy(p, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(p, &v, 4); break; }
    default: memcpy(p, &bits, 8); break;
    }
}

ref_num ref_decode(enum ty_scalar t, const void *s)
{
    ref_num x = {REF_FINITE, false, 0, 0};
    uint64_t b = ref_bits(t, s);
    unsigned n = 8 * tys[t].size;
    if (!ISFLOAT(t)) {
        x.neg = ISSIGNED(t) && b >> (n - 1);
        /* Sign-extend to 64 bits and negate: the magnitude, up to 2^63. */
        x.m = x.neg ? 0 - (b | ~ONES(n)) : b;
        return x;
    }
    const struct fmt *f = &fmts[t];
    unsigned mb = f->p - 1; /* stored significand bits */
    uint64_t emask = ONES(f->bits - 1 - mb);
    uint64_t be = b >> mb & emask, frac = b & ONES(mb);
    x.neg = b >> (f->bits - 1);
    if (be == emask)
        x.cls = frac ? REF_NAN : REF_INF;
    else if (be == 0) /* zero or denormal: no hidden bit, exponent emin */
        x.m = frac, x.e = 1 - f->emax - (int)mb;
    else
        x.m = frac | UINT64_C(1) << mb, x.e = (int)be - f->emax - (int)mb;
    return x;
}

/* m >> sh, classifying the bits shifted out against half of the unit
 * kept (2^(sh-1)). sh >= 1; any sh, however large. */
static uint64_t split(uint64_t m, int sh, enum tail *tail)
{
    if (sh > 64) { /* m < 2^64 <= 2^(sh-1): less than half */
        *tail = m ? BELOW_HALF : EXACT;
        return 0;
    }
    uint64_t q = sh == 64 ? 0 : m >> sh;
    uint64_t rem = m & ONES(sh), half = UINT64_C(1) << (sh - 1);
    *tail = rem == 0      ? EXACT
            : rem < half  ? BELOW_HALF
            : rem == half ? HALF
                          : ABOVE_HALF;
    return q;
}

/* Does the magnitude q (odd or not) step up to q + 1 in mode r? */
static bool up(enum rnd r, bool neg, bool odd, enum tail tail)
{
    if (tail == EXACT)
        return false;
    switch (r) {
    case RND_RTE: return tail == ABOVE_HALF || (tail == HALF && odd);
    case RND_RTP: return !neg;
    case RND_RTN: return neg;
    default: return false;
    }
}

ref_int ref_round_int(ref_num x, enum rnd r)
{
    ref_int v = {false, x.neg, false, false, false, 0, 0};
    if (x.cls == REF_NAN) {
        v.nan = true;
    } else if (x.cls == REF_INF) {
        v.tbig = v.rbig = true;
    } else if (x.m == 0) {
        /* zero */
    } else if (x.e >= 0) { /* an integer already */
        if (x.e >= 64 || x.m > UINT64_MAX >> x.e)
            v.tbig = v.rbig = true;
        else
            v.t = v.r = x.m << x.e;
    } else {
        enum tail tail;
        v.t = split(x.m, -x.e, &tail);
        v.frac = tail != EXACT;
        v.r = v.t + up(r, x.neg, v.t & 1, tail);
        v.rbig = v.r < v.t; /* stepped past 2^64 - 1 */
    }
    return v;
}

/* The largest magnitudes dst holds above zero (hi) and below it (lo). */
static void limits(enum ty_scalar dst, uint64_t *hi, uint64_t *lo)
{
    unsigned n = 8 * tys[dst].size;
    if (ISSIGNED(dst))
        *hi = ONES(n - 1), *lo = *hi + 1;
    else
        *hi = ONES(n), *lo = 0;
}

unsigned ref_store_int(enum ty_scalar dst, const ref_int *v, bool sat,
                       void *d)
{
    uint64_t hi, lo;
    limits(dst, &hi, &lo);
    if (v->nan) {
        ref_put_bits(dst, d, 0);
        return sat ? NOTE_SAT_NAN : NOTE_FLT_NAN;
    }
    uint64_t lim = v->neg ? lo : hi;
    /* |x| > lim: its integer part is above, or equal with a fraction. */
    bool out = v->tbig || v->t > lim || (v->t == lim && v->frac);
    uint64_t mag = v->rbig || v->r > lim ? lim : v->r;
    ref_put_bits(dst, d, v->neg ? 0 - mag : mag);
    return out && !sat ? NOTE_FLT_RANGE : 0;
}

uint64_t ref_round_float(enum ty_scalar dst, ref_num x, enum rnd r)
{
    const struct fmt *f = &fmts[dst];
    int p = (int)f->p, emin = 1 - f->emax;
    uint64_t sign = (uint64_t)x.neg << (f->bits - 1);
    uint64_t inf = ONES(f->bits - f->p) << (p - 1);
    if (x.cls == REF_NAN)
        return sign | inf | UINT64_C(1) << (p - 2);
    if (x.cls == REF_INF)
        return sign | inf;
    if (x.m == 0)
        return sign;
    /* The result is sig * 2^q with sig < 2^p; q is fixed by the exponent
     * of x's leading bit, but never below that of the denormals. */
    int lead = x.e + 63 - __builtin_clzll(x.m);
    int q = (lead > emin ? lead : emin) - (p - 1);
    uint64_t sig;
    if (q <= x.e) {
        sig = x.m << (x.e - q); /* exact: fits in p bits */
    } else {
        enum tail tail;
        sig = split(x.m, q - x.e, &tail);
        sig += up(r, x.neg, sig & 1, tail);
        if (sig >> p) /* carried into a new binade: 2^p, so exact */
            sig >>= 1, q++;
    }
    if (q + p - 1 > f->emax) { /* overflow: inf unless the mode points in */
        bool to_inf = r == RND_RTE || (r == RND_RTP && !x.neg) ||
                      (r == RND_RTN && x.neg);
        return sign | (to_inf ? inf : inf - 1);
    }
    if (sig >> (p - 1)) /* normal; otherwise a denormal has exponent 0 */
        return sign | (uint64_t)(q + p - 1 + f->emax) << (p - 1) |
               (sig & ONES(p - 1));
    return sign | sig;
}

int ref_convert(enum ty_scalar dst, enum ty_scalar src, const void *s,
                void *d, bool sat, enum rnd r)
{
    if (ISFLOAT(dst) && sat)
        return -1;
    if (ISFLOAT(dst) && dst == src) {
        memcpy(d, s, tys[dst].size);
        return 0;
    }
    ref_num x = ref_decode(src, s);
    if (ISFLOAT(dst)) {
        ref_put_bits(dst, d, ref_round_float(dst, x, r));
        return 0;
    }
    if (ISFLOAT(src)) {
        ref_int v = ref_round_int(x, r);
        return (int)ref_store_int(dst, &v, sat, d);
    }
    /* integer -> integer */
    uint64_t hi, lo;
    limits(dst, &hi, &lo);
    uint64_t lim = x.neg ? lo : hi;
    uint64_t mag = sat && x.m > lim ? lim : x.m;
    ref_put_bits(dst, d, x.neg ? 0 - mag : mag); /* modulo 2^N */
    return !sat && ISSIGNED(dst) && x.m > lim ? NOTE_NARROW : 0;
}

static bool is_nan(enum ty_scalar t, uint64_t b)
{
    const struct fmt *f = &fmts[t];
    uint64_t inf = ONES(f->bits - f->p) << (f->p - 1);
    return (b & ONES(f->bits - 1)) > inf;
}

bool ref_same(enum ty_scalar dst, enum ty_scalar src, const void *want,
              const void *got)
{
    uint64_t w = ref_bits(dst, want), g = ref_bits(dst, got);
    if (ISFLOAT(dst) && dst != src && is_nan(dst, w))
        return is_nan(dst, g) && ((w ^ g) >> (fmts[dst].bits - 1)) == 0;
    return w == g;
}
