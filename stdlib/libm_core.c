/* clvm's math library, part 1: the final rounding, sqrt, and the exact
 * functions (rounding to integers, frexp, ldexp, modf, fract, fma, fmod,
 * remainder, remquo, nextafter, copysign, logb, ilogb, fdim, maxmag,
 * minmag, nan), all by integer arithmetic on the bits. */
#include "stdlib/libm.h"
#include "stdlib/libm_int.h"

/* ---- the final rounding ---- */

/* Round the 53-bit significand m of a value (bits below dropped) with the
 * low part's sign deciding exact halfway cases: m >> drop, to nearest,
 * ties to even when l == 0. neg: the value's sign. */
static uint64_t round_sig(uint64_t m, int drop, double l, bool neg)
{
    if (drop <= 0)
        return m;
    if (drop > 60)
        return 0;
    uint64_t q = m >> drop, rem = m & ((UINT64_C(1) << drop) - 1);
    uint64_t half = UINT64_C(1) << (drop - 1);
    if (rem > half)
        q++;
    else if (rem == half) {
        if (l != 0)
            q += (clm_sign(l) == neg) ? 1 : 0;
        else
            q += q & 1;
    }
    return q;
}

/* (v.h + v.l) * 2^e to a format of p significant bits, minimum normal
 * exponent emin, maximum emax: the result's bits (sign separately). */
static uint64_t fin_bits(dd v, int e, int p, int emin, int emax, bool *neg)
{
    uint64_t b = dbits(v.h);
    *neg = b >> 63;
    int be = (int)((b >> 52) & 0x7ff);
    uint64_t inf = (uint64_t)(2 * emax + 1) << (p - 1); /* biased emax+1 */
    if (be == 0x7ff)
        return b & ((UINT64_C(1) << 52) - 1) ? inf | UINT64_C(1) << (p - 2)
                                             : inf;
    if (be == 0 && (b << 1) == 0)
        return 0;
    if (be == 0) { /* a denormal high part: scale it up exactly */
        v.h *= 0x1p64, v.l *= 0x1p64, e -= 64;
        b = dbits(v.h);
        be = (int)((b >> 52) & 0x7ff);
    }
    /* v.h normal: m * 2^(E - 52) with m of 53 bits */
    uint64_t m = (b & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
    long E = (long)be - 1023 + e;
    if (E > emax)
        return inf;
    long drop = 53 - p + (E < emin ? emin - E : 0);
    uint64_t q = round_sig(m, drop > 61 ? 61 : (int)drop, v.l, *neg);
    if (E < emin)
        return q; /* denormal, or the smallest normal after rounding up */
    if (q >> p) {
        q >>= 1;
        E++;
        if (E > emax)
            return inf;
    }
    return ((uint64_t)(E - emin + 1) << (p - 1)) + (q - (UINT64_C(1) << (p - 1)));
}

double clm_fin_d(dd v, int e)
{
    bool neg;
    if (e == 0 && clm_expo(v.h) > -1022)
        return v.h; /* already rounded: v.h = RN(v.h + v.l) */
    uint64_t r = fin_bits(v, e, 53, -1022, 1023, &neg);
    return bitsd(r | (uint64_t)neg << 63);
}

float clm_fin_f(dd v, int e)
{
    bool neg;
    uint64_t r = fin_bits(v, e, 24, -126, 127, &neg);
    if (clm_isnan(v.h))
        return (float)v.h;
    return bitsf((uint32_t)r | (uint32_t)neg << 31);
}

/* ---- sqrt ---- */

/* y = RN(sqrt(m)) for m in [1, 4): Heron's iteration, then Tuckerman's
 * test decides between y and its neighbours exactly:
 * y(y - u) < m <= y(y + u), u = ulp(y) (all products exact as dd). */
static bool above(double m, double y, double y2)
{
    dd p = two_prod(y, y2); /* m > y * y2 ? */
    double d = m - p.h;     /* exact: p.h is within a factor 2 of m */
    return d > p.l;
}

static double sqrt_1_4(double m)
{
    double y = 0.7083 + m * (1.0 / 3);
    for (int i = 0; i < 4; i++)
        y = 0.5 * (y + m / y);
    for (int i = 0; i < 4; i++) {
        double u = bitsd(dbits(y) + 1) - y;
        if (above(m, y, y + u)) {
            y += u;
            continue;
        }
        if (y > 1 && !above(m, y, y - u)) {
            y = bitsd(dbits(y) - 1);
            continue;
        }
        break;
    }
    return y;
}

double clm_sqrt_cr(double x)
{
    if (x != x || x == 0 || x == CLM_INF)
        return x;
    if (x < 0)
        return CLM_NAN;
    int sh = 0;
    if (x < 0x1p-1000) {
        x *= 0x1p200;
        sh = -100;
    }
    int e = clm_expo(x);
    int k = e >> 1; /* floor(e / 2) */
    double m = bitsd((dbits(x) & ((UINT64_C(1) << 52) - 1)) |
                          (uint64_t)(1023 + (e - 2 * k)) << 52);
    return sqrt_1_4(m) * clm_pow2(k + sh);
}

dd clm_dd_sqrt(dd a)
{
    double s = clm_sqrt_cr(a.h);
    if (s == 0)
        return (dd){0, 0};
    dd p = two_prod(s, s);
    double r = ((a.h - p.h) - p.l + a.l) / (2 * s);
    return fast_two_sum(s, r);
}

double clvm_sqrt(double x) { return clm_sqrt_cr(x); }
/* double has 53 >= 2 * 24 + 2 bits: rounding sqrt to double, then to
 * float, is the same as rounding it to float (Figueroa's theorem). */
float clvm_sqrtf(float x)
{
    float r;
    return clm_fast_sqrtf(x, &r) ? r : (float)clm_sqrt_cr(x);
}

/* rsqrt: sqrt as y + d (d from the exact residual), then 1 / that. */
static dd rsqrt_dd(double x, int *e)
{
    int sh = 0;
    if (x < 0x1p-1000) {
        x *= 0x1p200;
        sh = 100;
    }
    int ex = clm_expo(x), k = ex >> 1;
    double m = bitsd((dbits(x) & ((UINT64_C(1) << 52) - 1)) |
                          (uint64_t)(1023 + (ex - 2 * k)) << 52);
    double y = sqrt_1_4(m);
    dd p = two_prod(y, y);
    double d = ((m - p.h) - p.l) / (2 * y);
    *e = -k + sh;
    return dd_recip(fast_two_sum(y, d));
}

double clvm_rsqrt(double x)
{
    if (x != x || x < 0)
        return CLM_NAN;
    if (x == 0)
        return clm_copysign(CLM_INF, x);
    if (x == CLM_INF)
        return 0;
    int e;
    dd r = rsqrt_dd(x, &e);
    return clm_fin_d(r, e);
}

float clvm_rsqrtf(float xf)
{
    double x = xf;
    if (x != x || x < 0)
        return (float)CLM_NAN;
    if (x == 0)
        return (float)clm_copysign(CLM_INF, x);
    if (x == CLM_INF)
        return 0;
    int e;
    dd r = rsqrt_dd(x, &e);
    return clm_fin_f(r, e);
}

/* ---- rounding to integers ---- */

/* mode: 0 floor, 1 ceil, 2 trunc, 3 round (half away), 4 rint (even) */
static double round_int(double x, int mode)
{
    uint64_t b = dbits(x);
    int e = (int)((b >> 52) & 0x7ff) - 1023;
    bool neg = b >> 63;
    if (e >= 52)
        return x; /* integer, inf or NaN */
    uint64_t m, frac, ip;
    if (e < 0) {
        /* |x| < 1: 0 or +-1 */
        bool zero = (b << 1) == 0;
        bool up;
        switch (mode) {
        case 0: up = neg && !zero; break;
        case 1: up = !neg && !zero; break;
        case 3: up = e == -1; break;
        case 4: up = e == -1 && (b & ((UINT64_C(1) << 52) - 1)); break;
        default: up = false; break;
        }
        return bitsd((neg ? UINT64_C(1) << 63 : 0) |
                          (up ? dbits(1.0) : 0));
    }
    int fb = 52 - e; /* fraction bits */
    m = (b & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
    frac = m & ((UINT64_C(1) << fb) - 1);
    ip = m >> fb;
    if (frac == 0)
        return x;
    uint64_t half = UINT64_C(1) << (fb - 1);
    bool inc;
    switch (mode) {
    case 0: inc = neg; break;
    case 1: inc = !neg; break;
    case 3: inc = frac >= half; break;
    case 4: inc = frac > half || (frac == half && (ip & 1)); break;
    default: inc = false; break;
    }
    ip += inc;
    /* back to a double: ip < 2^53 exactly representable */
    double r = (double)ip;
    return neg ? -r : r;
}

double clvm_floor(double x) { return round_int(x, 0); }
double clvm_ceil(double x) { return round_int(x, 1); }
double clvm_trunc(double x) { return round_int(x, 2); }
double clvm_round(double x) { return round_int(x, 3); }
double clvm_rint(double x) { return round_int(x, 4); }
/* a float's integer neighbours are floats: the double result is exact */
float clvm_floorf(float x) { return (float)round_int(x, 0); }
float clvm_ceilf(float x) { return (float)round_int(x, 1); }
float clvm_truncf(float x) { return (float)round_int(x, 2); }
float clvm_roundf(float x) { return (float)round_int(x, 3); }
float clvm_rintf(float x) { return (float)round_int(x, 4); }

/* ---- frexp, ldexp, logb, ilogb, modf, fract ---- */

double clvm_frexp(double x, int *e)
{
    *e = 0;
    if (x != x || x == 0 || clm_isinf(x))
        return x;
    int sh = 0;
    if (clm_fabs(x) < 0x1p-1022) {
        x *= 0x1p64;
        sh = -64;
    }
    uint64_t b = dbits(x);
    *e = (int)((b >> 52) & 0x7ff) - 1022 + sh;
    return bitsd((b & ~(UINT64_C(0x7ff) << 52)) | UINT64_C(1022) << 52);
}

float clvm_frexpf(float x, int *e)
{
    return (float)clvm_frexp(x, e);
}

double clvm_ldexp(double x, int n)
{
    if (x != x || x == 0 || clm_isinf(x))
        return x;
    int e;
    double m = clvm_frexp(x, &e); /* x = m * 2^e, m in [0.5, 1) */
    long E = (long)e + n;          /* x * 2^n = m * 2^E */
    if (E > 1024)
        return clm_copysign(CLM_INF, x);
    if (E < -1080)
        return clm_copysign(0, x);
    return clm_fin_d((dd){m * 2, 0}, (int)E - 1);
}

float clvm_ldexpf(float x, int n)
{
    if (x != x || x == 0 || clm_isinf(x))
        return x;
    int e;
    double m = clvm_frexp(x, &e);
    long E = (long)e + n;
    if (E > 200)
        return (float)clm_copysign(CLM_INF, x);
    if (E < -200)
        return (float)clm_copysign(0, x);
    return clm_fin_f((dd){m * 2, 0}, (int)E - 1);
}

int clvm_ilogb(double x)
{
    if (x != x)
        return CLVM_FP_ILOGBNAN;
    if (x == 0)
        return CLVM_FP_ILOGB0;
    if (clm_isinf(x))
        return 2147483647;
    int e;
    clvm_frexp(x, &e);
    return e - 1;
}
int clvm_ilogbf(float x) { return clvm_ilogb(x); }

double clvm_logb(double x)
{
    if (x != x)
        return x;
    if (x == 0)
        return -CLM_INF;
    if (clm_isinf(x))
        return CLM_INF;
    return clvm_ilogb(x);
}
float clvm_logbf(float x) { return (float)clvm_logb(x); }

double clvm_modf(double x, double *ip)
{
    double t = clvm_trunc(x);
    *ip = t;
    if (clm_isinf(x))
        return clm_copysign(0, x);
    if (x != x)
        return x;
    return clm_copysign(x - t, x); /* exact */
}
float clvm_modff(float x, float *ip)
{
    double i;
    float r = (float)clvm_modf(x, &i);
    *ip = (float)i;
    return r;
}

double clvm_fract(double x, double *ip)
{
    double f = clvm_floor(x);
    *ip = f;
    if (x != x)
        return x;
    if (clm_isinf(x) || x == 0)
        return clm_copysign(0, x); /* fract(+-0) = +-0 */
    double r = x - f; /* exact unless it rounds up to 1 */
    const double top = 0x1.fffffffffffffp-1;
    return r < top ? r : top;
}
float clvm_fractf(float x, float *ip)
{
    float f = clvm_floorf(x);
    *ip = f;
    if (x != x)
        return x;
    if (clm_isinf(x) || x == 0)
        return (float)clm_copysign(0, x);
    float r = x - f;
    const float top = 0x1.fffffep-1f;
    return r < top ? r : top;
}

/* ---- small exact ones ---- */

double clvm_copysign(double x, double y) { return clm_copysign(x, y); }
float clvm_copysignf(float x, float y)
{
    return bitsf((fbits(x) & 0x7fffffffu) |
                     (fbits(y) & 0x80000000u));
}

double clvm_fdim(double x, double y)
{
    if (x != x || y != y)
        return CLM_NAN;
    return x > y ? x - y : 0;
}
float clvm_fdimf(float x, float y)
{
    if (x != x || y != y)
        return (float)CLM_NAN;
    return x > y ? x - y : 0;
}

/* maxmag: the one of larger magnitude, else fmax; minmag likewise */
double clvm_maxmag(double x, double y)
{
    double ax = clm_fabs(x), ay = clm_fabs(y);
    if (ax > ay)
        return x;
    if (ay > ax)
        return y;
    if (x != x)
        return y;
    if (y != y)
        return x;
    return x >= y ? (x == y && clm_sign(x) ? y : x) : y;
}
double clvm_minmag(double x, double y)
{
    double ax = clm_fabs(x), ay = clm_fabs(y);
    if (ax < ay)
        return x;
    if (ay < ax)
        return y;
    if (x != x)
        return y;
    if (y != y)
        return x;
    return x <= y ? (x == y && !clm_sign(x) ? y : x) : y;
}
float clvm_maxmagf(float x, float y) { return (float)clvm_maxmag(x, y); }
float clvm_minmagf(float x, float y) { return (float)clvm_minmag(x, y); }

double clvm_nextafter(double x, double y)
{
    if (x != x || y != y)
        return CLM_NAN;
    if (x == y)
        return y;
    if (x == 0)
        return clm_copysign(bitsd(1), y);
    uint64_t b = dbits(x);
    b += ((x < y) == (x > 0)) ? 1 : (uint64_t)-1;
    return bitsd(b);
}
float clvm_nextafterf(float x, float y)
{
    if (x != x || y != y)
        return (float)CLM_NAN;
    if (x == y)
        return y;
    if (x == 0)
        return bitsf((fbits(y) & 0x80000000u) | 1);
    uint32_t b = fbits(x);
    b += ((x < y) == (x > 0)) ? 1u : 0xffffffffu;
    return bitsf(b);
}

double clvm_nan(uint64_t code)
{
    return bitsd(UINT64_C(0x7ff8000000000000) |
                      (code & ((UINT64_C(1) << 51) - 1)));
}
float clvm_nanf(uint32_t code)
{
    return bitsf(0x7fc00000u | (code & 0x3fffffu));
}

/* ---- fma: the exact product and sum in integers, rounded once ---- */

typedef struct {
    uint64_t hi, lo;
} u128;

static u128 mul64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32;
    uint64_t bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return (u128){hh + (lh >> 32) + (hl >> 32) + (mid >> 32),
                  (mid << 32) | (ll & 0xffffffffu)};
}

static int clz64(uint64_t x)
{
    int n = 0;
    if (!x)
        return 64;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
}
static int bitlen128(u128 a)
{
    return a.hi ? 128 - clz64(a.hi) : 64 - clz64(a.lo);
}
static u128 shl128(u128 a, int s)
{
    if (s <= 0)
        return a;
    if (s >= 128)
        return (u128){0, 0};
    if (s >= 64)
        return (u128){a.lo << (s - 64), 0};
    return (u128){a.hi << s | a.lo >> (64 - s), a.lo << s};
}
/* right shift with the shifted-out bits ORed into bit 0 */
static u128 shr128_sticky(u128 a, int s)
{
    if (s <= 0)
        return a;
    if (s >= 128)
        return (u128){0, (a.hi | a.lo) != 0};
    u128 r;
    bool st;
    if (s >= 64) {
        st = a.lo || (s > 64 && (a.hi << (128 - s)));
        r = (u128){0, s == 64 ? a.hi : a.hi >> (s - 64)};
    } else {
        st = (a.lo << (64 - s)) != 0;
        r = (u128){a.hi >> s, a.lo >> s | a.hi << (64 - s)};
    }
    r.lo |= st;
    return r;
}
static u128 add128(u128 a, u128 b)
{
    u128 r = {a.hi + b.hi, a.lo + b.lo};
    r.hi += r.lo < a.lo;
    return r;
}
static u128 sub128(u128 a, u128 b)
{
    u128 r = {a.hi - b.hi, a.lo - b.lo};
    r.hi -= a.lo < b.lo;
    return r;
}
static bool lt128(u128 a, u128 b)
{
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/* x = m * 2^e with m an integer < 2^53 (x finite, nonzero) */
static uint64_t decompose(double x, int *e)
{
    uint64_t b = dbits(x);
    int be = (int)((b >> 52) & 0x7ff);
    uint64_t m = b & ((UINT64_C(1) << 52) - 1);
    if (be) {
        m |= UINT64_C(1) << 52;
        *e = be - 1075;
    } else {
        *e = -1074;
    }
    return m;
}

static u128 shr128(u128 a, int s)
{
    if (s <= 0)
        return a;
    if (s >= 128)
        return (u128){0, 0};
    if (s >= 64)
        return (u128){0, a.hi >> (s - 64)};
    return (u128){a.hi >> s, a.lo >> s | a.hi << (64 - s)};
}
/* are any of the low s bits of a set? */
static bool lowbits(u128 a, int s)
{
    if (s <= 0)
        return false;
    if (s >= 128)
        return (a.hi | a.lo) != 0;
    if (s >= 64)
        return a.lo || (s > 64 && (a.hi << (128 - s)));
    return (a.lo << (64 - s)) != 0;
}

/* f * 2^e, f a nonzero 128-bit integer (bit 0 possibly sticky), rounded
 * to p bits (53: double, 24: float), minimum normal exponent emin, maximum
 * emax: the result's bits without the sign */
static uint64_t round128(u128 f, int e, int p, int emin, int emax)
{
    int n = bitlen128(f);
    long E = (long)e + n - 1; /* exponent of the top bit */
    long drop = n - p;
    if (E < emin)
        drop += emin - E;
    uint64_t q;
    if (drop <= 0) {
        q = shl128(f, (int)-drop).lo;
    } else if (drop > 128) {
        q = 0;
    } else {
        q = shr128(f, (int)drop).lo;
        bool rb = shr128(f, (int)drop - 1).lo & 1;
        bool st = lowbits(f, (int)drop - 1);
        if (rb && (st || (q & 1)))
            q++;
    }
    if (E < emin)
        return q; /* denormal (or the smallest normal after rounding) */
    if (q >> p) {
        q >>= 1;
        E++;
    }
    if (E > emax)
        return (uint64_t)(2 * emax + 1) << (p - 1);
    return ((uint64_t)(E - emin + 1) << (p - 1)) + (q - (UINT64_C(1) << (p - 1)));
}

/* x * y + z exactly, rounded to p bits: for finite nonzero x, y and z */
static uint64_t fma_bits(double x, double y, double z, int p, int emin,
                         int emax, bool *neg)
{
    int ex, ey, ez;
    uint64_t mx = decompose(x, &ex), my = decompose(y, &ey);
    uint64_t mz = decompose(z, &ez);
    u128 P = mul64(mx, my), Z = {0, mz};
    int ep = ex + ey;
    bool np = clm_sign(x) != clm_sign(y), nz = clm_sign(z);
    long tp = (long)ep + bitlen128(P), tz = (long)ez + bitlen128(Z);
    /* A: the operand whose top bit is higher; frame: A's top at bit 125 */
    u128 A = P, B = Z;
    long ea = ep, eb = ez;
    bool na = np, nb = nz;
    if (tz > tp) {
        A = Z, B = P, ea = ez, eb = ep, na = nz, nb = np;
    }
    int sa = 125 - bitlen128(A) + 1;
    A = shl128(A, sa);
    long base = ea - sa; /* the frame's bit 0 */
    long sb = eb - base;
    if (sb >= 0)
        B = shl128(B, (int)sb);
    else
        B = shr128_sticky(B, sb < -200 ? 200 : (int)-sb);
    u128 F;
    bool nf = na;
    if (na == nb) {
        F = add128(A, B);
    } else if (lt128(A, B)) {
        F = sub128(B, A);
        nf = nb;
    } else {
        F = sub128(A, B);
    }
    *neg = nf;
    if (!F.hi && !F.lo) {
        *neg = false;
        return 0;
    }
    return round128(F, (int)base, p, emin, emax);
}

double clvm_fma(double x, double y, double z)
{
    if (x != x || y != y || z != z || clm_isinf(x) || clm_isinf(y))
        return x * y + z;
    if (clm_isinf(z))
        return z;
    if (x == 0 || y == 0)
        return x * y + z;
    if (z == 0)
        return x * y;
    bool neg;
    uint64_t r = fma_bits(x, y, z, 53, -1022, 1023, &neg);
    return bitsd(r | (uint64_t)neg << 63);
}

float clvm_fmaf(float xf, float yf, float zf)
{
    double x = xf, y = yf, z = zf;
    if (x != x || y != y || z != z || clm_isinf(x) || clm_isinf(y))
        return (float)(x * y + z);
    if (clm_isinf(z))
        return zf;
    if (x == 0 || y == 0)
        return (float)(x * y + z);
    /* the product of two floats is exact in double; the sum's two parts
     * are exact too, and clm_fin_f rounds them once */
    dd s = two_sum(x * y, z);
    if (s.h == 0)
        return (float)s.h;
    /* (float)s.h rounds once more: right unless s.h lies exactly halfway
     * between two floats (the low 29 bits 1 and zeros) with s.l != 0, or
     * the result is a float denormal (fewer bits) */
    double a = clm_fabs(s.h);
    if ((s.l == 0 || (dbits(s.h) & 0x1fffffff) != 0x10000000) &&
        a >= 0x1p-126 && a < 0x1p127)
        return (float)s.h;
    return clm_fin_f(s, 0);
}

/* ---- fmod, remainder, remquo: exact long division on significands ---- */

/* |x| mod |y| for finite x, nonzero finite y, with the quotient's low 32
 * bits in *q; the result has x's sign in fmod. */
static double mod_abs(double x, double y, uint32_t *q)
{
    int ex, ey;
    uint64_t mx = decompose(clm_fabs(x), &ex), my = decompose(clm_fabs(y), &ey);
    *q = 0;
    /* normalise both to their top bit at 52 */
    while (mx < UINT64_C(1) << 52)
        mx <<= 1, ex--;
    while (my < UINT64_C(1) << 52)
        my <<= 1, ey--;
    if (ex < ey)
        return clm_fabs(x);
    uint64_t r = mx % my;
    uint32_t qq = (uint32_t)(mx / my);
    int d = ex - ey;
    while (d > 0) {
        int s = d > 11 ? 11 : d;
        r <<= s;
        qq = (uint32_t)(((uint64_t)qq << s) + r / my);
        r %= my;
        d -= s;
    }
    *q = qq;
    if (r == 0)
        return 0;
    /* r * 2^ey: exact (r < my, and ey >= -1074 - 52) */
    int er = ey;
    while (er < -1074) /* low bits are zero: the result is a multiple of
                        * the smallest denormal */
        r >>= 1, er++;
    while (r < UINT64_C(1) << 52 && er > -1074)
        r <<= 1, er--;
    if (r < UINT64_C(1) << 52)
        return bitsd(r); /* denormal: er == -1074 */
    return bitsd(((uint64_t)(er + 1075) << 52) |
                      (r & ((UINT64_C(1) << 52) - 1)));
}

double clvm_fmod(double x, double y)
{
    if (x != x || y != y || clm_isinf(x) || y == 0)
        return CLM_NAN;
    if (clm_isinf(y) || x == 0)
        return x;
    uint32_t q;
    return clm_copysign(mod_abs(x, y, &q), x);
}
float clvm_fmodf(float x, float y) { return (float)clvm_fmod(x, y); }

double clvm_remquo(double x, double y, int *quo)
{
    *quo = 0;
    if (x != x || y != y || clm_isinf(x) || y == 0)
        return CLM_NAN;
    if (clm_isinf(y))
        return x;
    if (x == 0)
        return x;
    uint32_t q;
    double r = mod_abs(x, y, &q), ay = clm_fabs(y);
    /* round the quotient to nearest, ties to even: r > |y|/2 or r ==
     * |y|/2 with q odd. Compare 2r with |y| without overflow: r < |y|. */
    bool up;
    if (ay >= 0x1p-1021)
        up = r > 0.5 * ay || (r == 0.5 * ay && (q & 1));
    else
        up = 2 * r > ay || (2 * r == ay && (q & 1));
    if (up) {
        r -= ay; /* exact */
        q++;
    }
    int sq = (int)(q & 0x7f);
    *quo = clm_sign(x) != clm_sign(y) ? -sq : sq;
    return clm_sign(x) ? -r : r;
}
double clvm_remainder(double x, double y)
{
    int q;
    return clvm_remquo(x, y, &q);
}
float clvm_remquof(float x, float y, int *quo)
{
    return (float)clvm_remquo(x, y, quo);
}
float clvm_remainderf(float x, float y) { return (float)clvm_remainder(x, y); }
