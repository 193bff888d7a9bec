/* Device profiles (stdlib/profile.h): what each named device gives in each
 * implementation-defined case. */
#include "stdlib/profile.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stdlib/convert.h"
#include "stdlib/libm.h"

static const struct {
    const char *name, *desc;
} profs[PROF_COUNT] = {
#define X(E, n, d) [PROF_##E] = {n, d},
    PROFILES(X)
#undef X
};

int prof_parse(const char *name)
{
    for (int p = 0; p < PROF_COUNT; p++)
        if (!strcmp(name, profs[p].name))
            return p;
    return -1;
}

const char *prof_name(enum prof_id p) { return profs[p].name; }
const char *prof_desc(enum prof_id p) { return profs[p].desc; }

/* ------------------------------------------------------------------ */


/* NVIDIA (H100): NaN from float to an 8-, 16- or 32-bit integer gives 0;
 * from float to a 64-bit one, and from double to any, the destination's
 * sign-bit pattern, _sat or not. Out of range saturates and narrowing
 * wraps, as clvm. half sources were not measured: clvm's value. */
static void nvidia_cv(enum ty_scalar dst, enum ty_scalar src, void *d,
                      unsigned notes)
{
    unsigned db = ty_scalar_size(dst);
    if ((notes & (NOTE_FLT_NAN | NOTE_SAT_NAN)) &&
        (src == TY_DOUBLE || (src == TY_FLOAT && db == 8)))
        ty_put_bits(d, db, UINT64_C(1) << (8 * db - 1));
}

/* A float or double operand as a double (exact). */
static double fvalue(enum ty_scalar src, const void *s)
{
    if (src == TY_FLOAT) {
        float f;
        memcpy(&f, s, 4);
        return f;
    }
    double v;
    memcpy(&v, s, 8);
    return v;
}

/* PoCL 3.1 on x86-64 with AVX-512, scalar conversions, as measured by
 * tests/pocl (docs/semantics.md, "The pocl profile"). Without _sat, the
 * operand is rounded in the mode, then converted as the x86 instructions
 * LLVM picks do it: to int and long by cvttsd2si, which gives the sign-bit
 * pattern for NaN and out of range; to uint and ulong by vcvttsd2usi,
 * which gives all ones; to 8- and 16-bit types through the int result,
 * keeping its low bits, except double -> short/ushort in _rte/_rtp/_rtn,
 * which saturate that int result to the destination. _sat matches clvm. */
static void pocl_cv(enum ty_scalar dst, enum ty_scalar src, void *d,
                    const void *s, bool sat, enum rnd r)
{
    unsigned db = ty_scalar_size(dst);
    double x = fvalue(src, s);
    if (sat || src == TY_HALF) /* half: PoCL here has no cl_khr_fp16 */
        return;
    double v = r == RND_RTE ? rint(x) : r == RND_RTP ? ceil(x)
               : r == RND_RTN ? floor(x) : trunc(x);
    bool ok32 = v >= -0x1p31 && v < 0x1p31, ok64 = v >= -0x1p63 && v < 0x1p63;
    int64_t t32 = ok32 ? (int64_t)v : INT32_MIN;
    uint64_t out;
    if (dst == TY_LONG)
        out = ok64 ? (uint64_t)(int64_t)v : UINT64_C(1) << 63;
    else if (dst == TY_ULONG || dst == TY_UINT)
        out = v >= 0 && v < (db == 8 ? 0x1p64 : 0x1p32) ? (uint64_t)v
                                                         : ~UINT64_C(0);
    else if (db == 2 && src == TY_DOUBLE && r != RND_RTZ)
        out = (uint64_t)(dst == TY_SHORT
                             ? (t32 < INT16_MIN ? INT16_MIN
                                : t32 > INT16_MAX ? INT16_MAX : t32)
                             : (t32 < 0 ? 0 : t32 > UINT16_MAX ? UINT16_MAX
                                                                : t32));
    else
        out = (uint64_t)t32;
    ty_put_bits(d, db, out);
}

int prof_cv_scalar(enum prof_id p, enum ty_scalar dst, enum ty_scalar src,
                   void *d, const void *s, bool sat, enum rnd r)
{
    uint64_t in = 0;
    if ((unsigned)src < TY_NSCALAR)
        memcpy(&in, s, ty_scalar_size(src)); /* s may be d */
    int notes = cv_scalar(dst, src, d, &in, sat, r);
    if (notes <= 0 || !(notes & (int)prof_differs(p)))
        return notes;
    if (p == PROF_NVIDIA)
        nvidia_cv(dst, src, d, (unsigned)notes);
    else if (p == PROF_POCL)
        pocl_cv(dst, src, d, &in, sat, r);
    return notes;
}

int prof_divrem(enum prof_id p, enum ty_scalar t, bool rem, void *d,
                const void *a, const void *b)
{
    if ((unsigned)t >= TY_NSCALAR || ty_is_float(t))
        return -1;
    unsigned n = ty_scalar_size(t), bits = 8 * n;
    uint64_t m = ~UINT64_C(0) >> (64 - bits), x = ty_get_bits(a, n) & m,
             y = ty_get_bits(b, n) & m, sign = UINT64_C(1) << (bits - 1),
             v;
    int notes = 0;
    /* PoCL divides by 1 instead of 0, and its MIN % -1 is -1 for int and
     * long (char and short scalars are promoted to int, where it is 0);
     * NVIDIA was not measured here: clvm's values */
    bool pocl = p == PROF_POCL;
    if (y == 0) {
        notes = NOTE_DIV_ZERO;
        v = rem ? (pocl ? 0 : x) : (pocl ? x : 0);
    } else if (ty_is_signed(t) && x == sign && y == m) {
        notes = NOTE_DIV_MIN;
        v = rem ? (pocl && n >= 4 ? m : 0) : sign;
    } else if (ty_is_signed(t)) {
        /* truncating division on magnitudes, signs put back */
        uint64_t ax = x & sign ? (0 - x) & m : x,
                 ay = y & sign ? (0 - y) & m : y,
                 q = ax / ay, rr = ax % ay;
        v = rem ? (x & sign ? 0 - rr : rr)
                : ((x ^ y) & sign ? 0 - q : q);
    } else {
        v = rem ? x % y : x / y;
    }
    ty_put_bits(d, n, v & m);
    return notes;
}

int prof_arith(enum prof_id p, enum ty_scalar t, enum prof_arith op, void *d,
               const void *a, const void *b)
{
    (void)p; /* every profile measured wraps */
    if ((unsigned)t >= TY_NSCALAR || !ty_is_signed(t))
        return -1;
    unsigned n = ty_scalar_size(t), bits = 8 * n;
    uint64_t m = ~UINT64_C(0) >> (64 - bits), s = UINT64_C(1) << (bits - 1),
             x = ty_get_bits(a, n) & m,
             y = op == PA_NEG ? 0 : ty_get_bits(b, n) & m, r;
    bool ovf;
    /* on unsigned words: no C overflow, and the sign bits tell */
    switch (op) {
    case PA_ADD:
        r = (x + y) & m, ovf = (x ^ r) & (y ^ r) & s;
        break;
    case PA_SUB:
        r = (x - y) & m, ovf = (x ^ y) & (x ^ r) & s;
        break;
    case PA_NEG:
        r = (0 - x) & m, ovf = x == s;
        break;
    default: { /* magnitudes: |a| * |b| must not pass MAX, or MIN's */
        uint64_t ax = x & s ? (0 - x) & m : x, ay = y & s ? (0 - y) & m : y,
                 lim = (x ^ y) & s ? s : s - 1;
        r = (x * y) & m, ovf = ax && ay > lim / ax;
        break;
    }
    }
    ty_put_bits(d, n, r);
    return ovf ? NOTE_OVERFLOW : 0;
}

unsigned prof_differs(enum prof_id p)
{
    return p == PROF_NVIDIA ? NOTE_FLT_NAN | NOTE_SAT_NAN | NOTE_CONTRACT
           : p == PROF_POCL ? NOTE_FLT_NAN | NOTE_FLT_RANGE | NOTE_DIV_ZERO |
                                  NOTE_DIV_MIN | NOTE_CONTRACT
                            : 0;
}

/* Measured with a = b = 1 + 2^-12, c = -(1 + 2^-11) (docs/opencl-c.md,
 * "Contraction"): PoCL fuses a contractible a * b + c only; NVIDIA fuses
 * all three shapes. clvm (and strict) round twice, as C does without
 * contraction. */
bool prof_fuses(enum prof_id p, enum prof_fuse k)
{
    return p == PROF_NVIDIA || (p == PROF_POCL && k == PF_EXPR);
}

/* Both roundings of x * y + z in type T (fma: its one-rounding form);
 * d gets the one profile p takes; the note if they differ. */
#define MULADD(T, fma)                                                      \
    do {                                                                    \
        T x, y, z, prod, twice, once;                                       \
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);                   \
        memcpy(&z, c, sizeof z);                                            \
        prod = x * y, twice = prod + z, once = fma(x, y, z);               \
        memcpy(d, fuse ? &once : &twice, sizeof once);                      \
        /* two NaNs: not a case */                                          \
        return memcmp(&once, &twice, sizeof once) &&                        \
               !(isnan(once) && isnan(twice)) ? NOTE_CONTRACT : 0;         \
    } while (0)

int prof_muladd(enum prof_id p, enum prof_fuse k, enum ty_scalar t, void *d,
                const void *a, const void *b, const void *c)
{
    bool fuse = prof_fuses(p, k);
    if (t == TY_FLOAT)
        MULADD(float, clvm_fmaf);
    if (t == TY_DOUBLE)
        MULADD(double, clvm_fma);
    return -1;
}

/* What each profile gives, per case; NULL: clvm's own (note_what). */
static const char *const whats[NOTE_COUNT][PROF_COUNT] = {
    [NOTE_ID_FLT_RANGE] = {
        [PROF_NVIDIA] = "saturates to the destination's minimum or maximum "
                        "(as clvm)",
        [PROF_POCL] = "the rounded operand converted by x86: int and long "
                      "get the sign-bit pattern, uint and ulong all ones, "
                      "8- and 16-bit types the low bits of the int result "
                      "(double -> short/ushort _rte/_rtp/_rtn: that int "
                      "saturated)"},
    [NOTE_ID_FLT_NAN] = {
        [PROF_NVIDIA] = "from float to 8/16/32-bit: 0; from float to "
                        "64-bit and from double: the sign-bit pattern",
        [PROF_POCL] = "int, long: the sign-bit pattern; uint, ulong: all "
                      "ones; 8- and 16-bit: 0 (double -> short _rte/_rtp/"
                      "_rtn: 0x8000)"},
    [NOTE_ID_SAT_NAN] = {
        [PROF_NVIDIA] = "from float to 8/16/32-bit: 0; from float to "
                        "64-bit and from double: the sign-bit pattern, "
                        "departing from the spec's NaN -> 0",
        [PROF_POCL] = "0 (as clvm)"},
    [NOTE_ID_NARROW] = {
        [PROF_NVIDIA] = "wraps (as clvm)",
        [PROF_POCL] = "wraps (as clvm), every width and the C cast"},
    [NOTE_ID_AS_COUNT] = {
        [PROF_NVIDIA] = "not reproduced: clvm's memory order",
        [PROF_POCL] = "memory order (as clvm), every pair and width; a "
                      "3-vector result's w is not reproduced (0 or the "
                      "operand's bytes, by how the operand was loaded)"},
    [NOTE_ID_AS_3TO4] = {
        [PROF_NVIDIA] = "not measured: clvm's memory order",
        [PROF_POCL] = "memory order, w = the operand's padding lane (as "
                      "clvm); what that lane holds is not reproduced "
                      "(memory's after a T3* load, 0 or z after vload3)"},
    [NOTE_ID_AS_W] = {
        [PROF_NVIDIA] = "not measured: clvm's (the operand's w)",
        [PROF_POCL] = "the operand's w (as clvm), every pair"},
    [NOTE_ID_DIV_ZERO] = {
        [PROF_NVIDIA] = "not measured: clvm's (a / 0 is 0, a % 0 is a)",
        [PROF_POCL] = "a / 0 is a, a % 0 is 0 (divides by 1), every width"},
    [NOTE_ID_DIV_MIN] = {
        [PROF_NVIDIA] = "not measured: clvm's (MIN, and 0 for %)",
        [PROF_POCL] = "MIN / -1 is MIN; MIN % -1 is -1 for int and long "
                      "(char, short: 0 as scalars, -1 as vectors)"},
    [NOTE_ID_OVERFLOW] = {
        [PROF_NVIDIA] = "not measured: clvm's wrap",
        [PROF_POCL] = "wraps (as clvm), every width"},
    [NOTE_ID_CONTRACT] = {
        [PROF_NVIDIA] = "one rounding (fused) for a contractible a * b + c, "
                        "mad() and a product added by a later statement; "
                        "two under FP_CONTRACT OFF",
        [PROF_POCL] = "one rounding (fused) for a contractible a * b + c; "
                      "two (as clvm) for mad() and a product added by a "
                      "later statement"},
};

const char *prof_what(enum prof_id p, enum note_id id)
{
    if ((unsigned)id >= NOTE_COUNT || (unsigned)p >= PROF_COUNT)
        return "";
    if (p == PROF_STRICT)
        return "traps (IMPL), naming the case";
    return whats[id][p] ? whats[id][p] : note_what(id);
}

/* The precision of the built-ins OpenCL leaves to the implementation
 * (half_ within 8192 ulp, native_ and mad any), per profile. */
static const char *const precision[PROF_COUNT] = {
    [PROF_CLVM] = "computes it to the accuracy its help shows (the full "
                  "function's; mad rounds twice)",
    [PROF_STRICT] = "as clvm (a precision, not a value case: no trap)",
    [PROF_NVIDIA] = "not measured: clvm's value (the device may compute "
                    "native_ and half_ its own way); mad fused (one "
                    "rounding), measured",
    [PROF_POCL] = "not measured: clvm's value"};

const char *prof_precision(enum prof_id p)
{
    return (unsigned)p < PROF_COUNT ? precision[p] : "";
}

static const char *const half_arith[PROF_COUNT] = {
    [PROF_CLVM] = "cl_khr_fp16: each operation rounded once to half "
                  "(docs/semantics.md)",
    [PROF_STRICT] = "as clvm (half results are the spec's: no trap)",
    [PROF_NVIDIA] = "no cl_khr_fp16 in NVIDIA's OpenCL (driver 580.159.04): "
                    "clvm's half arithmetic",
    [PROF_POCL] = "no cl_khr_fp16 in PoCL 3.1 (nor 5.0): clvm's half "
                  "arithmetic"};

const char *prof_half(enum prof_id p)
{
    return (unsigned)p < PROF_COUNT ? half_arith[p] : "";
}
