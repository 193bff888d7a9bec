/* convert_T: one loop per (destination, source, _sat, rounding mode), all
 * generated from TY_SCALARS.
 *
 * Each loop body is a chain of if/else on constants (the two types' kinds
 * and sizes, the mode, _sat); the compiler keeps the one branch that applies
 * to the pair and folds the others away, so every loop is straight-line
 * code that gcc and clang can vectorise. The folded branches still have to
 * compile for every pair, which is why they convert freely between types:
 * code on a branch a pair does not take is never executed.
 *
 * Rounding never touches the floating-point environment: C starts in
 * round-to-nearest-even and clvm never changes it. Directed modes are
 * derived from nearest by exact comparisons and one-ulp steps on the bits. */
#include "stdlib/convert.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stdlib/bytes.h"

#include "stdlib/half.h"

/* The 2^23 / 2^52 trick below needs float and double arithmetic done in
 * their own precision (not x87's extended one). */
#if FLT_EVAL_METHOD != 0
#error "convert.c needs FLT_EVAL_METHOD == 0"
#endif

/* ---------------------------------------------------------------------- */
/* Element helpers. */


/* x rounded to an integer in mode r, in x's own type. Below 2^23 (2^52)
 * adding and subtracting that power of two makes the FPU round away the
 * fraction, to nearest even; at or above it x (inf, NaN too) is already
 * whole and m is 0. The directed modes step from nearest by one where it
 * went the wrong way: exact, since the result stays below 2^24 (2^53).
 * Every operation runs unconditionally and only constants are selected:
 * under the default -ftrapping-math gcc will not vectorise a loop that
 * performs floating-point operations on only some paths. */
#define ROUND_INT(T, SUF, M)                                               \
    static inline T round_##T(T x, enum rnd r)                             \
    {                                                                      \
        T m = fabs##SUF(x) < M ? copysign##SUF(M, x) : 0;                  \
        T t = (x + m) - m;                                                 \
        return r == RND_RTP   ? t + (t < x ? 1 : 0)                        \
               : r == RND_RTN ? t - (t > x ? 1 : 0)                        \
               : r == RND_RTZ ? t - (fabs##SUF(t) > fabs##SUF(x)           \
                                         ? copysign##SUF(1, x) : 0)        \
                              : t;                                         \
    }
ROUND_INT(float, f, 0x1p23f)
ROUND_INT(double, , 0x1p52)

/* IEEE-754 6.2.3: a NaN through a changing conversion keeps its sign and
 * the top of its payload and becomes quiet. By bits, so the result does not
 * depend on what the host's conversion instruction does with NaNs. */
static inline double f2d(float f)
{
    uint32_t b = fbits(f);
    uint64_t q = (uint64_t)(b >> 31) << 63 | 0x7ff8000000000000u |
                 (uint64_t)(b & 0x7fffffu) << 29;
    return bitsd(f != f ? q : dbits((double)f));
}

/* double -> float in mode r. (float)v rounds to nearest (even); for the
 * directed modes, if that landed on the wrong side of v, step one ulp on
 * the bits, towards v. That covers the whole range: from +-0 the step gives
 * the smallest denormal, from inf (overflow under rtz) FLT_MAX, from
 * FLT_MAX inf. */
static inline float d2f(double v, enum rnd r)
{
    float f = (float)v;
    double b = f;
    uint64_t q = dbits(v);
    uint32_t u = fbits(f);
    int wrong = r == RND_RTZ   ? fabs(b) > fabs(v)
                : r == RND_RTP ? b < v
                : r == RND_RTN ? b > v
                               : 0;
    u += wrong ? (fabs(b) < fabs(v) ? 1u : ~0u) : 0u;
    return bitsf(v != v ? (uint32_t)(q >> 32 & 0x80000000u) | 0x7fc00000u |
                              (uint32_t)(q >> 29 & 0x7fffffu)
                        : u);
}

/* Index of the highest set bit + 1 (m != 0). */
static inline unsigned bitlen(uint64_t m)
{
#if defined(__GNUC__)
    return 64u - (unsigned)__builtin_clzll(m);
#else
    unsigned k = 0;
    while (m)
        m >>= 1, k++;
    return k;
#endif
}

/* The magnitude m rounded to p significant bits, once, by integer
 * arithmetic: towards zero (dir < 0), to nearest even (0) or away from
 * zero (> 0). The result has at most p bits times a power of two <= 2^64,
 * so it is exact as a double, and as a float when p == 24. */
static inline double round_mag(uint64_t m, unsigned p, int dir)
{
    if (m >> p == 0)
        return (double)m;
    unsigned sh = bitlen(m) - p;
    uint64_t q = m >> sh, rem = m & ((UINT64_C(1) << sh) - 1),
             half = UINT64_C(1) << (sh - 1);
    q += dir > 0    ? rem != 0
         : dir == 0 ? (rem > half || (rem == half && (q & 1)))
                    : 0;
    return (double)q * (double)(UINT64_C(1) << sh);
}

/* A 64-bit integer (its bits u; signed says how to read them) to a binary
 * format of p significant bits in mode r. */
static inline double int64_to_fp(uint64_t u, bool is_signed, unsigned p,
                                 enum rnd r)
{
    bool neg = is_signed && u >> 63;
    int dir = r == RND_RTE   ? 0
              : r == RND_RTZ ? -1
                             : (r == RND_RTP) != neg ? 1 : -1;
    double a = round_mag(neg ? 0 - u : u, p, dir);
    return neg ? -a : a;
}

/* Comparisons through parameters, so that a comparison a pair makes
 * trivially true or false draws no -Wtype-limits warning. */
static inline bool gtu(uint64_t a, uint64_t b) { return a > b; }
static inline bool ltu(uint64_t a, uint64_t b) { return a < b; }

/* ---------------------------------------------------------------------- */
/* Conversion bodies. Inside a loop: `in` and `out` are the arrays, `i` the
 * element, DT/DK/DB the destination's C type, kind and size, SK/SB the
 * source's, r the mode, SATF 0 or 1; each adds its notes to `note`. */

/* The largest and smallest value of an integer type of kind k, b bytes. */
#define IMAX(k, b) ((k) == 'u' ? ~UINT64_C(0) >> (64 - 8 * (b)) \
                               : ~UINT64_C(0) >> (65 - 8 * (b)))
#define IMIN(k, b) \
    ((k) == 'u' ? 0 : -(int64_t)(~UINT64_C(0) >> (65 - 8 * (b))) - 1)

/* integer -> integer, on the source's bits modulo 2^W in the unsigned
 * working type UT of W bits (its two's complement; W is 32 when both types
 * fit, which lets the narrower pairs vectorise). Wrapping keeps the low 8*DB
 * bits; for a signed destination those are read as two's complement
 * without an out-of-range cast. Plain & on the flags keeps the loop free
 * of branches. */
#define I2I(UT)                                                            \
    UT u = (UT)in[i], w = u & (UT)IMAX('u', DB);                           \
    bool neg = (SK == 'i') & gtu(u, (UT)~(UT)0 >> 1);                      \
    bool below = neg & ((DK == 'u') | ltu(u, (UT)IMIN(DK, DB)));           \
    bool above = !neg & gtu(u, IMAX(DK, DB));                              \
    DT wrap = ((DK == 'u') | !gtu(w, IMAX(DK, DB)))                        \
                  ? (DT)w                                                  \
                  : (DT)(-(int64_t)(IMAX('u', DB) - w) - 1);               \
    out[i] = (SATF & below)   ? (DT)IMIN(DK, DB)                           \
             : (SATF & above) ? (DT)IMAX(DK, DB) : wrap;                   \
    note |= (!SATF & (DK == 'i') & (below | above)) ? NOTE_NARROW : 0u;

/* floating -> integer, working in WT (float or double) on the operand X.
 * HI = max + 1 and LO = min are powers of two (or 0), exact in WT. y is the
 * operand rounded in mode r, except under rtz, where the C cast truncates
 * by itself and y is the operand: then its integer part is >= LO exactly
 * when y > TZLO, the largest WT <= LO - 1. Out-of-range and NaN values are
 * replaced by 0 before the cast, so it never sees one; the selects then put
 * the minimum, maximum or 0 in their place. MAXLE is the largest WT <= max,
 * for judging the operand before rounding. */
#define F2I(WT, X)                                                         \
    WT v = (X), y = r == RND_RTZ ? v : round_##WT(v, r);                   \
    bool lo = r == RND_RTZ ? y > TZLO : y >= LO, hi = y < HI;              \
    DT c = (DT)((lo & hi) ? y : 0);                                        \
    out[i] = lo ? (hi ? c : (DT)IMAX(DK, DB)) : hi ? (DT)IMIN(DK, DB) : 0; \
    note |= (v != v ? (SATF ? NOTE_SAT_NAN : NOTE_FLT_NAN) : 0u) |         \
            (!SATF && ((v < LO) | (v > MAXLE)) ? NOTE_FLT_RANGE : 0u);

#define F2I_LIMITS(WT, EPS)                                                \
    const WT HI = (WT)(UINT64_C(1) << (8 * DB - (DK == 'u' ? 1 : 2))) * 2, \
             LO = DK == 'u' ? 0 : -HI,                                     \
             TZLO = DK == 'u' ? -1 : LO - (HI * EPS > 1 ? HI * EPS : 1),   \
             MAXLE = HI - (HI * (EPS / 2) > 1 ? HI * (EPS / 2) : 1);

/* integer -> floating. Up to 16 bits (32 for double) the value is exact; a
 * 32-bit one rounds to nearest in the cast itself and, in a directed mode,
 * through the exact double; 64-bit ones round once by integer arithmetic.
 * For half, (double)v is exact below 2^53 and any larger value overflows
 * half in every mode the same way its rounded double does. */
#define I2F                                                                \
    if (DB == 2)                                                           \
        out[i] = (DT)half_from_double((double)in[i], r);                   \
    else if (SB < DB || (SB == 4 && r == RND_RTE))                         \
        out[i] = (DT)in[i];                                                \
    else if (SB == 4)                                                      \
        out[i] = (DT)d2f((double)in[i], r);                                \
    else                                                                   \
        out[i] = (DT)int64_to_fp((uint64_t)in[i], SK == 'i',               \
                                 DB == 4 ? 24 : 53, r);

/* floating -> floating of another type. */
#define F2F                                                                \
    if (DB == 2)                                                           \
        out[i] = SB == 4 ? half_from_float((float)in[i], r)                \
                         : half_from_double((double)in[i], r);             \
    else if (DB == 4)                                                      \
        out[i] = (DT)(SB == 2 ? half_to_float((uint16_t)in[i])             \
                              : d2f((double)in[i], r));                    \
    else                                                                   \
        out[i] = (DT)(SB == 2 ? half_to_double((uint16_t)in[i])            \
                              : f2d((float)in[i]));

/* Runs the statements on every element, with `in` and `out` pointing at
 * the current block. The blocks of 16 have a known trip count, which gcc
 * -O2's cheap vectoriser needs; the rest goes one by one. */
#define LANES(...)                                                         \
    do {                                                                   \
        size_t k0 = 0;                                                     \
        for (; n - k0 >= 16; k0 += 16) {                                   \
            DT *restrict out = out_ + k0;                                  \
            const ST *restrict in = in_ + k0;                              \
            for (size_t i = 0; i < 16; i++) {                              \
                __VA_ARGS__                                                \
            }                                                              \
        }                                                                  \
        DT *restrict out = out_ + k0;                                      \
        const ST *restrict in = in_ + k0;                                  \
        for (size_t i = 0; i < n - k0; i++) {                              \
            __VA_ARGS__                                                    \
        }                                                                  \
    } while (0)

#define FN_NAME(dn, sn, sat, R) cv_##dn##_##sn##_##sat##_##R

#define FN(DE, dn, db, dk, dc, SE, sn, sb, sk, sc, SAT, R)                  \
    static unsigned FN_NAME(dn, sn, SAT, R)(void *restrict d,               \
                                            const void *restrict s,         \
                                            size_t n)                       \
    {                                                                       \
        typedef dc DT;                                                      \
        enum { DK = dk, DB = db, SK = sk, SB = sb, SATF = SAT };            \
        typedef sc ST;                                                      \
        DT *restrict out_ = d;                                              \
        const ST *restrict in_ = s;                                         \
        const enum rnd r = RND_##R;                                         \
        unsigned note = 0;                                                  \
        /* Share one loop where the mode or _sat changes nothing. */        \
        if (r != RND_RTE && (TY_##DE == TY_##SE || (DK != 'f' && SK != 'f') \
                             || (DK == 'f' && DB > 2 && SB < DB)))          \
            return FN_NAME(dn, sn, SAT, RTE)(d, s, n);                      \
        if (SATF && DK == 'f') /* never looked up */                        \
            return FN_NAME(dn, sn, 0, R)(d, s, n);                          \
        if (TY_##DE == TY_##SE) {                                           \
            if (n)                                                          \
                memcpy(out_, in_, n * sizeof *out_);                        \
        } else if (DK != 'f' && SK != 'f' && SB <= 4 && DB <= 4) {          \
            LANES(I2I(uint32_t));                                           \
        } else if (DK != 'f' && SK != 'f') {                                \
            LANES(I2I(uint64_t));                                           \
        } else if (DK != 'f' && SB == 8) {                                  \
            F2I_LIMITS(double, DBL_EPSILON)                                 \
            LANES(F2I(double, (double)in[i]));                              \
        } else if (DK != 'f' && SB == 4) {                                  \
            F2I_LIMITS(float, FLT_EPSILON)                                  \
            LANES(F2I(float, (float)in[i]));                                \
        } else if (DK != 'f') {                                             \
            F2I_LIMITS(float, FLT_EPSILON)                                  \
            LANES(F2I(float, half_to_float((uint16_t)in[i])));              \
        } else if (SK != 'f') {                                             \
            LANES(I2F);                                                     \
        } else {                                                            \
            LANES(F2F);                                                     \
        }                                                                   \
        return note;                                                        \
    }

/* ---------------------------------------------------------------------- */
/* The 11 x 11 x 2 x 4 loops and their table.
 *
 * A macro cannot expand itself, so TY_SCALARS cannot simply be nested:
 * each destination's row (ROW_*) defers both EACH and its copy of the
 * source list (DEFER), and EXPAND runs them once the destination list has
 * been expanded. EACH takes the sources as parameters, so a change in the
 * number of scalars stops the build here rather than skipping a pair. */
#define EMPTY()
#define DEFER(m) m EMPTY()
#define EXPAND(...) __VA_ARGS__
#define UNPAREN(...) __VA_ARGS__
#define CALL(m, ...) m(__VA_ARGS__)
#define TUPLE(...) , (__VA_ARGS__)
#define SOURCES() TY_SCALARS(TUPLE)
#define EACH(m, ...) EACH_(m, __VA_ARGS__)
#define EACH_(m, t, a, b, c, d, e, f, g, h, i, j, k)                        \
    CALL(m, UNPAREN t, UNPAREN a) CALL(m, UNPAREN t, UNPAREN b)             \
    CALL(m, UNPAREN t, UNPAREN c) CALL(m, UNPAREN t, UNPAREN d)             \
    CALL(m, UNPAREN t, UNPAREN e) CALL(m, UNPAREN t, UNPAREN f)             \
    CALL(m, UNPAREN t, UNPAREN g) CALL(m, UNPAREN t, UNPAREN h)             \
    CALL(m, UNPAREN t, UNPAREN i) CALL(m, UNPAREN t, UNPAREN j)             \
    CALL(m, UNPAREN t, UNPAREN k)
#define ROW_FN(...) DEFER(EACH)(PAIR_FN, (__VA_ARGS__) DEFER(SOURCES)())
#define ROW_TAB(...) DEFER(EACH)(PAIR_TAB, (__VA_ARGS__) DEFER(SOURCES)())

_Static_assert(RND_NMODE == 4, "MODES lists the four rounding modes");
#define MODES(m, ...)                                                      \
    m(__VA_ARGS__, RTE) m(__VA_ARGS__, RTZ)                                \
    m(__VA_ARGS__, RTP) m(__VA_ARGS__, RTN)

#define PAIR_FN(...) MODES(FN, __VA_ARGS__, 0) MODES(FN, __VA_ARGS__, 1)

#define TAB_ENTRY(DE, dn, db, dk, dc, SE, sn, sb, sk, sc, SAT, R) \
    [TY_##DE][TY_##SE][SAT][RND_##R] = FN_NAME(dn, sn, SAT, R),
#define PAIR_TAB(...) \
    MODES(TAB_ENTRY, __VA_ARGS__, 0) MODES(TAB_ENTRY, __VA_ARGS__, 1)

EXPAND(TY_SCALARS(ROW_FN))

static const cv_fn table[TY_NSCALAR][TY_NSCALAR][2][RND_NMODE] = {
    EXPAND(TY_SCALARS(ROW_TAB))
};

/* ---------------------------------------------------------------------- */

cv_fn cv_lookup(enum ty_scalar dst, enum ty_scalar src, bool sat, enum rnd r)
{
    if ((unsigned)dst >= TY_NSCALAR || (unsigned)src >= TY_NSCALAR ||
        (unsigned)r >= RND_NMODE || !cv_legal(dst, sat))
        return NULL;
    return table[dst][src][sat][r];
}

enum rnd cv_default_round(enum ty_scalar dst)
{
    return ty_is_float(dst) ? RND_RTE : RND_RTZ;
}

bool cv_legal(enum ty_scalar dst, bool sat)
{
    return !(sat && ty_is_float(dst));
}

int cv_scalar(enum ty_scalar dst, enum ty_scalar src, void *d, const void *s,
              bool sat, enum rnd r)
{
    cv_fn fn = cv_lookup(dst, src, sat, r);
    uint64_t a = 0, b = 0; /* aligned copies: d and s may be anywhere */
    if (!fn)
        return -1;
    memcpy(&a, s, ty_scalar_size(src));
    unsigned note = fn(&b, &a, 1);
    memcpy(d, &b, ty_scalar_size(dst));
    return (int)note;
}
