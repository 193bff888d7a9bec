/* The checked instructions' fast way out (XOP_NOTE, see watch in decode.c):
 * whether none of an instruction's elements can hit an implementation-
 * defined case, found by vectorised checks, so that its own handler runs
 * instead of the element-by-element profile code (vm/helpers.c's vm_noted). */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "vm/handlers.h"

#include "stdlib/types.h"

#if defined(__GNUC__)
#define QUIET_INLINE static inline __attribute__((always_inline))
#else
#define QUIET_INLINE static inline
#endif

/* Checks every element, lanes off too (a "no" only costs the slow way),
 * as an OR of words, no branch per element, so that the loop vectorises
 * on every instruction set: x (OR1: of type T) or x and y (OR2: converted
 * to U) are the elements, E computes in U; the OR of E over the elements
 * is bad where it has a bit of BAD set. ANY: E a condition. */
#define OR1(T, U, E, BAD)                                                   \
    {                                                                       \
        const T *a_ = (const T *)(R + ip->a);                               \
        U bad_ = 0;                                                         \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            T x = a_[i];                                                    \
            bad_ |= (U)(E);                                                 \
        }                                                                   \
        return !(bad_ & (BAD));                                             \
    }
#define OR2(T, U, E, BAD)                                                   \
    {                                                                       \
        const T *a_ = (const T *)(R + ip->a), *b_ = (const T *)(R + ip->b); \
        U bad_ = 0;                                                         \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            U x = (U)a_[i], y = (U)b_[i];                                   \
            (void)x, (void)y;                                               \
            bad_ |= (U)(E);                                                 \
        }                                                                   \
        return !(bad_ & (BAD));                                             \
    }

#define ANY(T, E) OR1(T, unsigned, E, ~0u)

/* Signed ADD, SUB, MUL, NEG (BC_F_SIGNED) of es-byte elements: no
 * overflow. On the bits, unsigned: a sum overflowed when its sign (bit
 * TOP) differs from both addends', a difference when the operands' signs
 * differ and the result's differs from the first's; a negation at MIN
 * alone, the one x whose x & -x has the sign bit. Narrow products are
 * exact in WT (signed) and in range when p + 2^TOP is below 2^(TOP + 1):
 * no bit above TOP set in the OR of them. */
#define MULFITS(ST, WT, UW, TOP)                                            \
    {                                                                       \
        const ST *a_ = (const ST *)(R + ip->a),                             \
                 *b_ = (const ST *)(R + ip->b);                             \
        UW bad_ = 0;                                                        \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            WT p = (WT)a_[i] * (WT)b_[i];                                   \
            bad_ |= (UW)p + ((UW)1 << (TOP));                               \
        }                                                                   \
        return !(bad_ >> ((TOP) + 1));                                      \
    }
#define NARROW_OVF(ST, UT, WT, UW, TOP)                                     \
    switch (base) {                                                         \
    case BCB_ADD:                                                           \
        OR2(UT, uint32_t, VM_ADD_OVF(x, y), 1u << (TOP))                         \
    case BCB_SUB:                                                           \
        OR2(UT, uint32_t, VM_SUB_OVF(x, y), 1u << (TOP))                   \
    case BCB_MUL: MULFITS(ST, WT, UW, TOP)                                  \
    default: OR1(UT, uint32_t, (uint32_t)x & (0u - x), 1u << (TOP))         \
    }
QUIET_INLINE bool arith_quiet(const vm_ins *ip, const uint8_t *R,
                              unsigned base, uint32_t cnt)
{
    switch (ip->es) {
    case 1: NARROW_OVF(t_I8, ua8, int32_t, uint32_t, 7)
    case 2: NARROW_OVF(t_I16, ua16, int32_t, uint32_t, 15)
    case 4: NARROW_OVF(t_I32, ua32, int64_t, uint64_t, 31)
    default: break;
    }
    switch (base) {
    case BCB_ADD: OR2(ua64, uint64_t, VM_ADD_OVF(x, y), 1ull << 63)
    case BCB_SUB: OR2(ua64, uint64_t, VM_SUB_OVF(x, y), 1ull << 63)
    case BCB_NEG: OR1(ua64, uint64_t, x & (0u - x), 1ull << 63)
    default: {
        const t_I64 *a_ = (const t_I64 *)(R + ip->a),
                   *b_ = (const t_I64 *)(R + ip->b);
        for (uint32_t i = 0; i < cnt; i++) {
            int64_t r;
            if (__builtin_mul_overflow(a_[i], b_[i], &r))
                return false;
        }
        return true;
    }
    }
}

/* Integer DIV and REM: no divisor 0, and no MIN / -1 when signed. */
#define DIVBAD(T, WT, MIN) OR2(T, WT, y == 0 || (x == MIN && y == -1), 1)
QUIET_INLINE bool divrem_quiet(const vm_ins *ip, const uint8_t *R, bool sgn,
                         uint32_t cnt)
{
    switch (ip->es) {
    case 1: if (sgn) DIVBAD(t_I8, int32_t, INT8_MIN)
            OR2(ua8, uint32_t, y == 0, 1)
    case 2: if (sgn) DIVBAD(t_I16, int32_t, INT16_MIN)
            OR2(ua16, uint32_t, y == 0, 1)
    case 4: if (sgn) DIVBAD(t_I32, int32_t, INT32_MIN)
            OR2(ua32, uint32_t, y == 0, 1)
    default: if (sgn) DIVBAD(t_I64, int64_t, INT64_MIN)
             OR2(ua64, uint64_t, y == 0, 1)
    }
}

/* CVT of a floating value to an integer: no NaN and, unsaturated, no value
 * whose rounding could leave [lo, hi] (a value in it stays in it in every
 * rounding mode: hi is an integer or, for 64 bits, the power of two that
 * no smaller float rounds up to). */
#define FLT_RANGE(T)                                                        \
    {                                                                       \
        if (sat)                                                            \
            ANY(T, x != x)                                                  \
        else if (d64)                                                       \
            ANY(T, !((double)x >= lo && (double)x < hi))                    \
        else                                                                \
            ANY(T, !((double)x >= lo && (double)x <= hi))                   \
    }
/* CVT of an integer to a narrower signed one (or to a signed one of the
 * same size from unsigned) of BITS bits: the value fits. A signed one
 * when x + 2^(BITS-1) is below 2^BITS (unsigned), an unsigned one when
 * below 2^(BITS-1). */
#define INT_FITS(T)                                                         \
    OR1(T, uint64_t, (uint64_t)(int64_t)x + half, ~(2 * half - 1))
#define UINT_FITS(T) OR1(T, uint64_t, x, ~(half - 1))
QUIET_INLINE bool cvt_quiet(const vm_ins *ip, const uint8_t *R, uint32_t cnt)
{
    const enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(ip->j),
                         ss = (enum ty_scalar)BC_CVT_SRC(ip->j);
    const unsigned bits = 8 * ty_scalar_size(ds);
    const bool sat = BC_CVT_SAT(ip->j), d64 = bits == 64,
               dsg = ty_is_signed(ds);
    if (ty_is_float(ds) || ss == TY_HALF)
        return false;
    if (ty_is_float(ss)) {
        /* (exact: no host libm in the VM) */
        const double lo = dsg ? -(double)((uint64_t)1 << (bits - 1)) : 0,
                     hi = d64 ? (dsg ? 9223372036854775808.0
                                     : 18446744073709551616.0)
                              : (double)(((uint64_t)1 << (bits - dsg)) - 1);
        if (ss == TY_FLOAT) {
            FLT_RANGE(t_F32)
        }
        FLT_RANGE(t_F64)
    }
    if (!dsg)
        return false;
    const uint64_t half = (uint64_t)1 << (bits - 1);
    switch (ss) {   /* (long to long, ulong to ulong: not narrowing) */
    case TY_SHORT: INT_FITS(t_I16)
    case TY_INT: INT_FITS(t_I32)
    case TY_LONG: INT_FITS(t_I64)
    case TY_UCHAR: UINT_FITS(ua8)
    case TY_USHORT: UINT_FITS(ua16)
    case TY_UINT: UINT_FITS(ua32)
    case TY_ULONG: UINT_FITS(ua64)
    default: return false;
    }
}

/* Built for AVX2 too, chosen when the program loads (GCC's and clang's
 * target_clones): the loops above are twice as wide there. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(CLVM_NO_AVX2)
#define QUIET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define QUIET_CLONES
#endif
static QUIET_CLONES bool quiet(const vm_ins *ip, const uint8_t *R)
{
    const unsigned base = bc_ops[ip->note_op].base;
    const enum ty_scalar el = (enum ty_scalar)bc_ops[ip->note_op].elem;
    const uint32_t cnt = ip->cnt;
    switch (base) {
    case BCB_CVT:
        return cvt_quiet(ip, R, cnt);
    case BCB_DIV: case BCB_REM:
        return !ty_is_float(el) && divrem_quiet(ip, R, ty_is_signed(el), cnt);
    case BCB_ADD: case BCB_SUB: case BCB_MUL: case BCB_NEG:
        return (ip->flags & BC_F_SIGNED) && arith_quiet(ip, R, base, cnt);
    default:
        return false;   /* MAD's contraction, AS: decided by the types */
    }
}

bool vm_note_quiet(const vm_ins *ip, const uint8_t *R)
{
    return quiet(ip, R);
}
