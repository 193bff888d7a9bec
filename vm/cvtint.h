/* The integer -> integer conversions without _sat that CVT runs inline
 * (private to vm/): vm_ins.imm of VM_CVT_INT + vm_cvt_int_code (interp.h).
 * Each is C's conversion to an unsigned type of the destination's size,
 * which is the source's value modulo 2^N: the low bits of the source,
 * sign- or zero-extended, as stdlib's cv_fn gives them (tests/unit/
 * test_vm_fast.c compares the two on every 8- and 16-bit source and on
 * edges and random samples of the wider ones). Inlined into each dispatch
 * loop, so vectorised for its instruction set. */
#ifndef CLVM_CVTINT_H
#define CLVM_CVTINT_H

#include <stdint.h>

#include "vm/interp.h"

/* Elements of different sizes never overlap (a register has one type),
 * and equal ones are each read before written: no dependence. */
#if defined(__clang__)
#define CVTI_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define CVTI_IVDEP _Pragma("GCC ivdep")
#else
#define CVTI_IVDEP
#endif
#if defined(__GNUC__)
#define CVTI_ALIAS __attribute__((may_alias))
#define CVTI_INLINE static inline __attribute__((always_inline))
#else
#define CVTI_ALIAS
#define CVTI_INLINE static inline
#endif
typedef uint8_t CVTI_ALIAS cvti_u8;
typedef uint16_t CVTI_ALIAS cvti_u16;
typedef uint32_t CVTI_ALIAS cvti_u32;
typedef uint64_t CVTI_ALIAS cvti_u64;
typedef int8_t CVTI_ALIAS cvti_i8;
typedef int16_t CVTI_ALIAS cvti_i16;
typedef int32_t CVTI_ALIAS cvti_i32;
typedef int64_t CVTI_ALIAS cvti_i64;

/* n elements at s to d (d may be s when the sizes are equal: each element
 * is read before it is written). */
#define CVTI_LOOP(DT, ST)                                                   \
    {                                                                       \
        DT *d_ = (DT *)d;                                                   \
        const ST *s_ = (const ST *)s;                                       \
        uint32_t r_ = 0;                                                    \
        for (; r_ + VM_MAXW <= n; r_ += VM_MAXW) {                          \
            DT *dr_ = d_ + r_;                                              \
            const ST *sr_ = s_ + r_;                                        \
            CVTI_IVDEP for (uint32_t i = 0; i < VM_MAXW; i++)               \
                dr_[i] = (DT)sr_[i];                                        \
        }                                                                   \
        for (; r_ < n; r_++)                                                \
            d_[r_] = (DT)s_[r_];                                            \
    }                                                                       \
    return;
/* The cases of one destination (log2 of its size dl): the sources by
 * size, unsigned then signed, as vm_cvt_int_code numbers them. */
#define CVTI_DST(DT, dl)                                                    \
    case (dl) * 8 + 0: CVTI_LOOP(DT, cvti_u8)                               \
    case (dl) * 8 + 1: CVTI_LOOP(DT, cvti_i8)                               \
    case (dl) * 8 + 2: CVTI_LOOP(DT, cvti_u16)                              \
    case (dl) * 8 + 3: CVTI_LOOP(DT, cvti_i16)                              \
    case (dl) * 8 + 4: CVTI_LOOP(DT, cvti_u32)                              \
    case (dl) * 8 + 5: CVTI_LOOP(DT, cvti_i32)                              \
    case (dl) * 8 + 6: CVTI_LOOP(DT, cvti_u64)                              \
    case (dl) * 8 + 7: CVTI_LOOP(DT, cvti_i64)

/* Converts n elements; code is vm_cvt_int_code's, less VM_CVT_INT. */
CVTI_INLINE void vm_cvt_int(void *d, const void *s, uint32_t n,
                            unsigned code)
{
    switch (code) {
    CVTI_DST(cvti_u8, 0)
    CVTI_DST(cvti_u16, 1)
    CVTI_DST(cvti_u32, 2)
    CVTI_DST(cvti_u64, 3)
    default: return;
    }
}

#undef CVTI_LOOP
#undef CVTI_DST

#endif
