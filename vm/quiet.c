/* The checked instructions' fast way out (XOP_NOTE, see watch in decode.c):
 * whether none of an instruction's elements can hit an implementation-
 * defined case, found by vectorised checks, so that its own handler runs
 * instead of the element-by-element profile code (vm/interp.c's noted). */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "vm/handlers.h"

#include "stdlib/types.h"

/* Checks every element, lanes off too: a "no" only costs the slow way. */
#define ANY(T, E)                                                           \
    {                                                                       \
        const T *a_ = (const T *)(R + ip->a);                               \
        unsigned bad_ = 0;                                                  \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            T x = a_[i];                                                    \
            bad_ |= (unsigned)(E);                                          \
        }                                                                   \
        return !bad_;                                                       \
    }
#define ANY2(T, E)                                                          \
    {                                                                       \
        const T *a_ = (const T *)(R + ip->a), *b_ = (const T *)(R + ip->b); \
        unsigned bad_ = 0;                                                  \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            T x = a_[i], y = b_[i];                                         \
            (void)x;                                                        \
            bad_ |= (unsigned)(E);                                          \
        }                                                                   \
        return !bad_;                                                       \
    }

/* Signed ADD, SUB, MUL, NEG (BC_F_SIGNED) of es-byte elements: no
 * overflow. The narrow ones in int32_t or int64_t, where they cannot
 * overflow; the 64-bit ones on unsigned words, as stdlib's prof_arith. */
#define NARROW_OVF(T, WT, MIN, MAX)                                         \
    switch (base) {                                                         \
    case BCB_ADD: ANY2(T, (WT)x + y < MIN || (WT)x + y > MAX)               \
    case BCB_SUB: ANY2(T, (WT)x - y < MIN || (WT)x - y > MAX)               \
    case BCB_MUL: ANY2(T, (WT)x * y < MIN || (WT)x * y > MAX)               \
    default: ANY(T, x == MIN)                                               \
    }
static bool arith_quiet(const vm_ins *ip, const uint8_t *R, unsigned base,
                        uint32_t cnt)
{
    switch (ip->es) {
    case 1: NARROW_OVF(t_I8, int32_t, INT8_MIN, INT8_MAX)
    case 2: NARROW_OVF(t_I16, int32_t, INT16_MIN, INT16_MAX)
    case 4: NARROW_OVF(t_I32, int64_t, INT32_MIN, INT32_MAX)
    default: break;
    }
    switch (base) {
    case BCB_ADD: ANY2(ua64, ((x ^ (x + y)) & (y ^ (x + y))) >> 63)
    case BCB_SUB: ANY2(ua64, ((x ^ y) & (x ^ (x - y))) >> 63)
    case BCB_NEG: ANY(ua64, x == (uint64_t)1 << 63)
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
static bool divrem_quiet(const vm_ins *ip, const uint8_t *R, bool sgn,
                         uint32_t cnt)
{
    switch (ip->es) {
    case 1: if (sgn) ANY2(t_I8, y == 0 || (x == INT8_MIN && y == -1))
            ANY2(ua8, y == 0)
    case 2: if (sgn) ANY2(t_I16, y == 0 || (x == INT16_MIN && y == -1))
            ANY2(ua16, y == 0)
    case 4: if (sgn) ANY2(t_I32, y == 0 || (x == INT32_MIN && y == -1))
            ANY2(ua32, y == 0)
    default: if (sgn) ANY2(t_I64, y == 0 || (x == INT64_MIN && y == -1))
             ANY2(ua64, y == 0)
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
 * same size from unsigned): the value fits. */
#define INT_FITS(T, WT)                                                     \
    ANY(T, (WT)x < (WT)ilo || (WT)x > (WT)ihi)
static bool cvt_quiet(const vm_ins *ip, const uint8_t *R, uint32_t cnt)
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
    const int64_t ihi = (int64_t)(((uint64_t)1 << (bits - 1)) - 1),
                  ilo = -ihi - 1;
    switch (ss) {
    case TY_SHORT: INT_FITS(t_I16, int64_t)
    case TY_USHORT: INT_FITS(ua16, int64_t)
    case TY_INT: INT_FITS(t_I32, int64_t)
    case TY_UINT: INT_FITS(ua32, int64_t)
    case TY_LONG: INT_FITS(t_I64, int64_t)
    case TY_ULONG: ANY(ua64, x > (uint64_t)ihi)
    case TY_UCHAR: INT_FITS(ua8, int64_t)
    default: return false;
    }
}

bool vm_note_quiet(const vm_ins *ip, const uint8_t *R)
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
