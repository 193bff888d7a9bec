/* The handler bodies of the dispatch loop, private to vm/: the macros that
 * vm/dispatch.inc stamps out once per opcode (vm/loop_*.c build it once
 * per instruction-set level), and the C types and helpers they are made of.
 *
 * One dispatched instruction does the work of W work-items: registers are
 * SoA rows of W elements, so an elementwise handler is one flat loop over
 * rows * W elements that the compiler vectorises (the files that include
 * this are built with -O3). Lanes outside the execution mask keep their
 * registers: a handler whose mask is not full computes into the warp's
 * scratch and blends.
 *
 * The body of base NAME is the macro H_NAME(S), S the opcode's type suffix
 * (_B32, _I8, _F64, ...), which selects C types by token pasting. One set
 * of bodies serves both dispatchers: computed goto, or a switch with
 * -DCLVM_SWITCH_DISPATCH (vmdispatch/vmcase/vmbreak, as in Lua). The
 * bodies call vm/helpers.c's helpers (vm_blend8, vm_mem_check, vm_noted,
 * ...) by name, and run inside the loop of dispatch.inc, whose locals (w, ip, R, W, P,
 * ins, all, exec, left) and labels (trap, barrier, done, out_of_budget)
 * they use. */
#ifndef CLVM_HANDLERS_H
#define CLVM_HANDLERS_H

#if !defined(__GNUC__) && !defined(CLVM_SWITCH_DISPATCH)
#define CLVM_SWITCH_DISPATCH /* computed goto is a GNU C extension */
#endif

#include <stdint.h>
#include <string.h>

#include "stdlib/bytes.h"
#include "stdlib/half.h"
#include "stdlib/libm.h"
#include "stdlib/mathfn.h"
#include "vm/cvtint.h"
#include "vm/interp.h"

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CTZ(x) ((unsigned)__builtin_ctzll(x))
/* Registers are raw storage that handlers read under whatever type the op
 * says (as_type is free: XOR_B32 reads a float register). may_alias makes
 * that legal under strict aliasing, like a char access. */
#define MAY_ALIAS __attribute__((may_alias))
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define MAY_ALIAS
#define NOINLINE
#define ALWAYS_INLINE
static unsigned CTZ(uint64_t x)
{
    unsigned n = 0;
    while (!(x & 1)) x >>= 1, n++;
    return n;
}
#endif

/* d and a may be the same register (x = x + y), so restrict would be a lie;
 * the loops carry no dependence, which is all ivdep promises. */
#if defined(__clang__)
#define IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define IVDEP _Pragma("GCC ivdep")
#else
#define IVDEP
#endif

/* The C types of each opcode suffix: X(S, native, unsigned of its size,
 * wrapping arithmetic type, result type). Signed results are stored through
 * the unsigned type, so every conversion in a handler is well defined. */
#define SUFFIXES(X)                                               \
    X(_B8,  uint8_t,  uint8_t,  unsigned, uint8_t)                \
    X(_B16, uint16_t, uint16_t, unsigned, uint16_t)               \
    X(_B32, uint32_t, uint32_t, uint32_t, uint32_t)               \
    X(_B64, uint64_t, uint64_t, uint64_t, uint64_t)               \
    X(_U8,  uint8_t,  uint8_t,  unsigned, uint8_t)                \
    X(_U16, uint16_t, uint16_t, unsigned, uint16_t)               \
    X(_U32, uint32_t, uint32_t, uint32_t, uint32_t)               \
    X(_U64, uint64_t, uint64_t, uint64_t, uint64_t)               \
    X(_I8,  int8_t,   uint8_t,  unsigned, uint8_t)                \
    X(_I16, int16_t,  uint16_t, unsigned, uint16_t)               \
    X(_I32, int32_t,  uint32_t, uint32_t, uint32_t)               \
    X(_I64, int64_t,  uint64_t, uint64_t, uint64_t)               \
    X(_F32, float,    uint32_t, float,    float)                  \
    X(_F64, double,   uint64_t, double,   double)                 \
    X(_F16, uint16_t, uint16_t, float,    uint16_t)

#define X(S, T, U, A, O)              \
    typedef T MAY_ALIAS t##S;         \
    typedef U MAY_ALIAS u##S;         \
    typedef A a##S;                   \
    typedef O MAY_ALIAS o##S;
SUFFIXES(X)
#undef X
typedef uint8_t MAY_ALIAS ua8;
typedef uint16_t MAY_ALIAS ua16;
typedef uint32_t MAY_ALIAS ua32;
typedef uint64_t MAY_ALIAS ua64;

/* Where a body differs by kind of element (U unsigned or sign-agnostic,
 * S signed, F floating), BYKIND(H_DIV_, S) picks H_DIV_U, _S or _F. */
#define KIND_B8 U
#define KIND_B16 U
#define KIND_B32 U
#define KIND_B64 U
#define KIND_U8 U
#define KIND_U16 U
#define KIND_U32 U
#define KIND_U64 U
#define KIND_I8 S
#define KIND_I16 S
#define KIND_I32 S
#define KIND_I64 S
#define KIND_F32 F
#define KIND_F64 F
#define KIND_F16 H
#define CAT(a, b) CAT_(a, b)
#define CAT_(a, b) a##b
#define BYKIND(m, S) CAT(m, KIND##S)

/* fma: clvm's own, correctly rounded (never the host's libm) */
#define FMA_F32 clvm_fmaf
#define FMA_F64 clvm_fma
#define FMA_F16 half_fma

/* Half (kind H) is held as its bits: its arithmetic is stdlib/half.h's
 * (each operation rounded once, checked over every pair of operands by
 * tests/exhaustive_half.c), and WID(S, x) is an element's value for a
 * comparison (exact), the identity for the other kinds. */
#define WID_U(x) (x)
#define WID_S(x) (x)
#define WID_F(x) (x)
#define WID_H(x) half_to_float(x)
#define WID(S, x) BYKIND(WID_, S)(x)

/* ------------------------------------------------------------------ */
/* Handler bodies                                                      */

#define REG(T, off) ((T *)(R + (off)))
/* Where a result goes: the register when every lane runs, else scratch
 * that FINISH blends in. Lanes past the end of a partial warp do not
 * exist, so computing them is harmless. */
#define OUTP (exec == all ? (void *)(R + ip->d) : (void *)w->scratch)
#define FINISH(TO)                                                          \
    if (exec != all) {                                                      \
        void *d_ = R + ip->d;                                               \
        if (sizeof(TO) == 1)                                                \
            vm_blend8(w, exec, d_, w->scratch, cnt);                           \
        else if (sizeof(TO) == 2)                                           \
            vm_blend16(w, exec, d_, w->scratch, cnt);                          \
        else if (sizeof(TO) == 4)                                           \
            vm_blend32(w, exec, d_, w->scratch, cnt);                          \
        else                                                                \
            vm_blend64(w, exec, d_, w->scratch, cnt);                          \
    }

/* Runs the statement (the macro's arguments after ADV) for element i in
 * [0, cnt). When cnt is a whole number of 64-lane rows (a full-width
 * warp), row by row: a loop of constant trip count from 0, which the
 * compiler unrolls into a few vector instructions with no remainder (the
 * common case, kept short), ADV moving the statement's pointers on a row. */
#define EW_LOOP(ADV, ...)                                                   \
    if (LIKELY((cnt & (VM_MAXW - 1)) == 0)) {                               \
        for (uint32_t r_ = 0; r_ < cnt; r_ += VM_MAXW, ADV) {               \
            IVDEP for (uint32_t i = 0; i < VM_MAXW; i++) __VA_ARGS__        \
        }                                                                   \
    } else {                                                                \
        IVDEP for (uint32_t i = 0; i < cnt; i++) __VA_ARGS__                \
    }
/* o = E over cnt elements, with x, y, z the elements of a, b, c. */
#define EW1(TO, TA, E)                                                      \
    {                                                                       \
        TO *o_ = OUTP;                                                      \
        const TA *a_ = REG(const TA, ip->a);                                \
        const uint32_t cnt = ip->cnt;                                       \
        EW_LOOP((o_ += VM_MAXW, a_ += VM_MAXW), {                           \
            TA x = a_[i];                                                   \
            o_[i] = (TO)(E);                                                \
        })                                                                  \
        FINISH(TO)                                                          \
    }
/* The same with the operands that vm_ins.uni marks row-uniform (decode.c:
 * a register never written, so every lane of each of its rows holds one
 * value): with W = 64, that value is read once per row, lane 0's, and held
 * in a register, so the row is not streamed through memory. EW2: b (the
 * common x op constant); EW3: b, c or both (a * k + c, clamp(x, lo, hi)).
 * With W < 64 the plain loop runs, reading the same values from every
 * lane. PRE declares the held values at each row's start. */
#define EW_ROWS(ADV, PRE, ...)                                              \
    for (uint32_t r_ = 0; r_ < cnt; r_ += VM_MAXW, ADV) {                   \
        PRE                                                                 \
        IVDEP for (uint32_t i = 0; i < VM_MAXW; i++) __VA_ARGS__            \
    }
#define EW2(TO, TA, E)                                                      \
    {                                                                       \
        TO *o_ = OUTP;                                                      \
        const TA *a_ = REG(const TA, ip->a), *b_ = REG(const TA, ip->b);    \
        const uint32_t cnt = ip->cnt;                                       \
        if (W == VM_MAXW && (ip->uni & VM_UNI_B)) {                         \
            EW_ROWS((o_ += VM_MAXW, a_ += VM_MAXW, b_ += VM_MAXW),          \
                    const TA y = b_[0];, {                                  \
                        TA x = a_[i];                                       \
                        o_[i] = (TO)(E);                                    \
                    })                                                      \
        } else {                                                            \
            EW_LOOP((o_ += VM_MAXW, a_ += VM_MAXW, b_ += VM_MAXW), {        \
                TA x = a_[i], y = b_[i];                                    \
                o_[i] = (TO)(E);                                            \
            })                                                              \
        }                                                                   \
        FINISH(TO)                                                          \
    }
#define EW3_ADV (o_ += VM_MAXW, a_ += VM_MAXW, b_ += VM_MAXW, c_ += VM_MAXW)
#define EW3(TO, TA, TC, E)                                                  \
    {                                                                       \
        TO *o_ = OUTP;                                                      \
        const TA *a_ = REG(const TA, ip->a), *b_ = REG(const TA, ip->b);    \
        const TC *c_ = REG(const TC, ip->c);                                \
        const uint32_t cnt = ip->cnt;                                       \
        const unsigned u_ = W == VM_MAXW ? ip->uni & (VM_UNI_B | VM_UNI_C)  \
                                         : 0;                               \
        if (u_ == VM_UNI_B) {                                               \
            EW_ROWS(EW3_ADV, const TA y = b_[0];, {                         \
                TA x = a_[i];                                               \
                TC z = c_[i];                                               \
                o_[i] = (TO)(E);                                            \
            })                                                              \
        } else if (u_ == VM_UNI_C) {                                        \
            EW_ROWS(EW3_ADV, const TC z = c_[0];, {                         \
                TA x = a_[i], y = b_[i];                                    \
                o_[i] = (TO)(E);                                            \
            })                                                              \
        } else if (u_) {                                                    \
            EW_ROWS(EW3_ADV, const TA y = b_[0]; const TC z = c_[0];, {     \
                TA x = a_[i];                                               \
                o_[i] = (TO)(E);                                            \
            })                                                              \
        } else {                                                            \
            EW_LOOP(EW3_ADV, {                                              \
                TA x = a_[i], y = b_[i];                                    \
                TC z = c_[i];                                               \
                o_[i] = (TO)(E);                                            \
            })                                                              \
        }                                                                   \
        FINISH(TO)                                                          \
    }
#define BITS(S) (8 * (unsigned)sizeof(u##S))

/* Data movement */
#define H_MOV(S) EW1(u##S, u##S, x)
#define H_SPLAT(S)                                                          \
    {                                                                       \
        u##S *o_ = OUTP;                                                    \
        const u##S *a_ = REG(const u##S, ip->a);                            \
        const uint32_t cnt = ip->cnt;                                       \
        for (uint32_t r = 0; r < cnt; r += W) {                             \
            u##S *row_ = o_ + r;                                            \
            IVDEP for (uint32_t l = 0; l < W; l++) row_[l] = a_[l];        \
        }                                                                   \
        FINISH(u##S)                                                        \
    }
/* Rows go through scratch: d and a may be the same register. */
#define H_SWZ(S)                                                            \
    {                                                                       \
        u##S *t_ = (u##S *)w->scratch;                                      \
        const size_t row = (size_t)W * sizeof(u##S);                        \
        const uint32_t cnt = ip->rows * W;                                  \
        for (uint32_t k = 0; k < ip->rows; k++)                             \
            memcpy(t_ + k * W, R + ip->a + (ip->imm >> 4 * k & 15) * row,   \
                   row);                                                    \
        if (exec == all)                                                    \
            memcpy(R + ip->d, t_, cnt * sizeof(u##S));                      \
        else                                                                \
            FINISH(u##S)                                                    \
    }
#define H_SWW(S)                                                            \
    {                                                                       \
        u##S *t_ = (u##S *)w->scratch;                                      \
        const size_t row = (size_t)W * sizeof(u##S);                        \
        memcpy(t_, R + ip->a, ip->rows * row);                              \
        for (uint32_t k = 0; k < ip->rows; k++) {                           \
            uint8_t *dr = R + ip->d + (ip->imm >> 4 * k & 15) * row;        \
            if (exec == all)                                                \
                memcpy(dr, t_ + k * W, row);                                \
            else                                                            \
                vm_blend_es(w, exec, dr, t_ + k * W, W, sizeof(u##S));         \
        }                                                                   \
    }
#define H_AS(S) vm_as_lanes(w, ip, exec, R);
/* The inline conversions keep the sizes, so d may be a. */
#define CVT_INLINE(TD, TS, E)                                               \
    {                                                                       \
        TD *d_ = REG(TD, ip->d);                                            \
        const TS *s_ = REG(const TS, ip->a);                                \
        EW_LOOP((d_ += VM_MAXW, s_ += VM_MAXW), {                           \
            TS x = s_[i];                                                   \
            d_[i] = (E);                                                    \
        })                                                                  \
    }
#define H_CVT(S)                                                            \
    {                                                                       \
        const uint32_t cnt = ip->cnt;                                       \
        if (exec == all && ip->imm == VM_CVT_I32_F32_SAT_RTE) {             \
            CVT_INLINE(sa32, t_F32, vm_f2i_sat_rte(x))                      \
        } else if (exec == all && ip->imm == VM_CVT_F32_U32) {              \
            CVT_INLINE(t_F32, ua32, (float)x)                               \
        } else if (exec == all && ip->imm == VM_CVT_F32_I32) {              \
            CVT_INLINE(t_F32, sa32, (float)x)                               \
        } else if (exec == all && ip->imm >= VM_CVT_INT) {                  \
            vm_cvt_int(R + ip->d, R + ip->a, cnt,                           \
                       (unsigned)(ip->imm - VM_CVT_INT));                   \
        } else if (exec == all && ip->d != ip->a) {                         \
            ip->cv(R + ip->d, R + ip->a, cnt);                              \
        } else {                                                            \
            ip->cv(w->scratch, R + ip->a, cnt);                             \
            if (exec == all)                                                \
                memcpy(R + ip->d, w->scratch, (size_t)cnt * ip->es);        \
            else                                                            \
                vm_blend_es(w, exec, R + ip->d, w->scratch, cnt, ip->es);      \
        }                                                                   \
    }

/* The ops that fuse in pairs (vm/fuse.h) are each written once as a form,
 * OPF_NAME(S) = (result type, operand type, expression of x and y), which
 * EW2 runs alone (APPLY(EW2, OPF_NAME(S))) and H_FUSED in a pair. */
#define APPLY(m, args) m args
#define OPF_TO(TO, TA, E) TO
#define OPF_TA(TO, TA, E) TA
#define OPF_E(TO, TA, E) E

/* Arithmetic: integers wrap through the unsigned arithmetic type. */
#define H_ADD(S) BYKIND(H_ADD_, S)(S)
#define H_SUB(S) BYKIND(H_SUB_, S)(S)
#define H_MUL(S) BYKIND(H_MUL_, S)(S)
#define OPF_ADD(S) (o##S, t##S, (a##S)x + (a##S)y)
#define OPF_SUB(S) (o##S, t##S, (a##S)x - (a##S)y)
#define OPF_MUL(S) (o##S, t##S, (a##S)x * (a##S)y)
#define H_ADD_U(S) APPLY(EW2, OPF_ADD(S))
#define H_SUB_U(S) APPLY(EW2, OPF_SUB(S))
#define H_MUL_U(S) APPLY(EW2, OPF_MUL(S))
#define H_ADD_S H_ADD_U
#define H_SUB_S H_SUB_U
#define H_MUL_S H_MUL_U
#define H_ADD_F H_ADD_U
#define H_SUB_F H_SUB_U
#define H_MUL_F H_MUL_U
#define H_ADD_H(S) EW2(o##S, t##S, half_add(x, y))
#define H_SUB_H(S) EW2(o##S, t##S, half_sub(x, y))
#define H_MUL_H(S) EW2(o##S, t##S, half_mul(x, y))
/* Negation flips the sign bit (a NaN stays as it is, signalling or not). */
#define H_NEG(S) BYKIND(H_NEG_, S)(S)
#define H_NEG_U(S) EW1(o##S, t##S, -(a##S)x)
#define H_NEG_S H_NEG_U
#define H_NEG_F H_NEG_U
#define H_NEG_H(S) EW1(u##S, u##S, x ^ 0x8000u)
#define H_DIV(S) BYKIND(H_DIV_, S)(S)
#define H_DIV_U(S) EW2(o##S, t##S, y == 0 ? 0 : x / y)
#define H_DIV_S(S)                                                          \
    EW2(o##S, t##S,                                                         \
        y == 0 ? (o##S)0 : y == -1 ? (o##S)(0u - (a##S)x) : (o##S)(x / y))
#define H_DIV_F(S) EW2(o##S, t##S, x / y)
#define H_DIV_H(S) EW2(o##S, t##S, half_div(x, y))
#define H_REM(S) BYKIND(H_REM_, S)(S)
#define H_REM_U(S) EW2(o##S, t##S, y == 0 ? x : x % y)
#define H_REM_S(S)                                                          \
    EW2(o##S, t##S, y == 0 ? (o##S)x : y == -1 ? (o##S)0 : (o##S)(x % y))
#define H_MAD(S) BYKIND(H_MAD_, S)(S)
#define H_MAD_U(S) EW3(o##S, t##S, t##S, x * y + z)
#define H_MAD_S H_MAD_U
#define H_MAD_F H_MAD_U
#define H_MAD_H(S) EW3(o##S, t##S, t##S, half_mad(x, y, z))
#define H_FMA(S) EW3(o##S, t##S, t##S, FMA##S(x, y, z))
/* Contractible multiply-adds: clvm rounds twice; a profile that fuses
 * them runs them through XOP_NOTE (decode.c, stdlib/profile.h). */
#define H_CMAD H_MAD
#define H_XMAD H_MAD
/* fmin/fmax as glibc computes them: a NaN operand yields the other one,
 * equal operands (+0, -0) the first. */
#define MIN_U(x, y) ((x) < (y) ? (x) : (y))
#define MAX_U(x, y) ((x) > (y) ? (x) : (y))
#define MIN_S MIN_U
#define MAX_S MAX_U
#define MIN_F(x, y) ((x) <= (y) || (y) != (y) ? (x) : (y))
#define MAX_F(x, y) ((x) >= (y) || (y) != (y) ? (x) : (y))
/* half: compared as floats, as MIN_F does, the chosen operand's bits kept */
#define MIN_H(x, y) \
    (WID_H(x) <= WID_H(y) || WID_H(y) != WID_H(y) ? (x) : (y))
#define MAX_H(x, y) \
    (WID_H(x) >= WID_H(y) || WID_H(y) != WID_H(y) ? (x) : (y))
#define H_MIN(S) EW2(o##S, t##S, BYKIND(MIN_, S)(x, y))
#define H_MAX(S) EW2(o##S, t##S, BYKIND(MAX_, S)(x, y))
#define H_CLAMP(S)                                                          \
    EW3(o##S, t##S, t##S, BYKIND(MIN_, S)(BYKIND(MAX_, S)(x, y), z))
#define H_ABS(S) BYKIND(H_ABS_, S)(S)
#define H_ABS_U(S) EW1(u##S, t##S, x)
#define H_ABS_S(S) EW1(u##S, t##S, x < 0 ? 0u - (a##S)x : (a##S)x)
#define H_FABS(S) EW1(u##S, u##S, x & (u##S)((u##S)~(u##S)0 >> 1))

/* Math built-ins: stdlib's loop over the elements (into scratch when
 * lanes are masked off, then blended). FTEST's true value is 1 for a
 * scalar, all ones per component of a vector. */
#define MATHFN(S)                                                           \
    {                                                                       \
        const uint32_t cnt = ip->cnt;                                       \
        mathfn_run((enum mathfn)ip->imm, (enum ty_scalar)bc_ops[ip->op].elem, \
                   OUTP, R + ip->a, R + ip->b, R + ip->c, cnt, ip->n > 1);  \
        FINISH(o##S)                                                        \
    }
#define H_MATH1(S) MATHFN(S)
#define H_MATH2(S) MATHFN(S)
#define H_MATH3(S) MATHFN(S)
#define H_FTEST(S) MATHFN(S)
#define H_FTEST2(S) MATHFN(S)
#define H_MATHS(S) vm_maths_lanes(w, ip, exec, R);

/* Bitwise */
#define OPF_AND(S) (u##S, u##S, x & y)
#define OPF_OR(S) (u##S, u##S, x | y)
#define OPF_XOR(S) (u##S, u##S, x ^ y)
#define H_AND(S) APPLY(EW2, OPF_AND(S))
#define H_OR(S) APPLY(EW2, OPF_OR(S))
#define H_XOR(S) APPLY(EW2, OPF_XOR(S))
#define H_NOT(S) EW1(u##S, u##S, ~x)
/* A row-uniform count (a constant or parameter: EW2's held y) is one
 * scalar per row, so the loop is a vector shift by it; shifts by a count
 * per element have no SSE2 form. */
#define OPF_SHL(S) (u##S, u##S, (a##S)x << (y & (BITS(S) - 1)))
#define H_SHL(S) APPLY(EW2, OPF_SHL(S))
/* >> of a negative value is implementation-defined, not undefined: gcc
 * and clang shift arithmetically, which is what SHR_I* means. */
#define OPF_SHR(S) (o##S, t##S, x >> ((a##S)y & (BITS(S) - 1)))
#define H_SHR(S) APPLY(EW2, OPF_SHR(S))

/* A fused pair (vm/fuse.h, decode.c): t = a OP1 b, d = t OP2 c, row by
 * row with t held in a vector register; stored only when VM_KEEP says
 * something may read it. The decoder fuses only with W = 64; the pair
 * runs as two instructions when some lanes are off (the first op's own
 * handler, then the second's) and when the budget ends between them (the
 * REPL's single steps), so both count as steps as they would apart. */
#define H_FUSED(N1, S1, N2, S2)                                             \
    FUSED_(APPLY(OPF_TO, OPF_##N1(S1)), APPLY(OPF_TA, OPF_##N1(S1)),        \
           APPLY(OPF_E, OPF_##N1(S1)), APPLY(OPF_TO, OPF_##N2(S2)),         \
           APPLY(OPF_TA, OPF_##N2(S2)), APPLY(OPF_E, OPF_##N2(S2)))
#define FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2, PRE, YB, ZC, KEEP)         \
    for (uint32_t r_ = 0; r_ < cnt; r_ += VM_MAXW, a_ += VM_MAXW,           \
                  b_ += VM_MAXW, c_ += VM_MAXW, t_ += VM_MAXW,              \
                  o_ += VM_MAXW) {                                          \
        PRE                                                                 \
        IVDEP for (uint32_t i = 0; i < VM_MAXW; i++) {                      \
            TO1 t1_;                                                        \
            {                                                               \
                TA1 x = a_[i], y = YB;                                      \
                t1_ = (TO1)(E1);                                            \
            }                                                               \
            if (KEEP)                                                       \
                t_[i] = t1_;                                                \
            {                                                               \
                TA2 x = (TA2)t1_, y = ZC;                                   \
                o_[i] = (TO2)(E2);                                          \
            }                                                               \
        }                                                                   \
    }
#define FUSED_(TO1, TA1, E1, TO2, TA2, E2)                                  \
    if (UNLIKELY(exec != all || left == 0))                                 \
        vmredo(ip->note_op)                                                 \
    left--;                                                                 \
    {                                                                       \
        const TA1 *a_ = REG(const TA1, ip->a), *b_ = REG(const TA1, ip->b); \
        const TA2 *c_ = REG(const TA2, ip->c);                              \
        TO1 *t_ = REG(TO1, ip->d);                                          \
        TO2 *o_ = REG(TO2, ip[1].d);                                        \
        const uint32_t cnt = ip->cnt;                                       \
        switch (ip->uni & (VM_UNI_B | VM_UNI_C | VM_KEEP)) {                \
        case 0:                                                             \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2, ;, b_[i], c_[i], 0)      \
            break;                                                          \
        case VM_KEEP:                                                       \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2, ;, b_[i], c_[i], 1)      \
            break;                                                          \
        case VM_UNI_B:                                                      \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2, const TA1 y_ = b_[0];,   \
                       y_, c_[i], 0)                                        \
            break;                                                          \
        case VM_UNI_B | VM_KEEP:                                            \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2, const TA1 y_ = b_[0];,   \
                       y_, c_[i], 1)                                        \
            break;                                                          \
        case VM_UNI_C:                                                      \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2, const TA2 z_ = c_[0];,   \
                       b_[i], z_, 0)                                        \
            break;                                                          \
        case VM_UNI_C | VM_KEEP:                                            \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2, const TA2 z_ = c_[0];,   \
                       b_[i], z_, 1)                                        \
            break;                                                          \
        case VM_UNI_B | VM_UNI_C:                                           \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2,                          \
                       const TA1 y_ = b_[0]; const TA2 z_ = c_[0];, y_, z_, \
                       0)                                                   \
            break;                                                          \
        default:                                                            \
            FUSED_ROWS(TO1, TA1, E1, TO2, TA2, E2,                          \
                       const TA1 y_ = b_[0]; const TA2 z_ = c_[0];, y_, z_, \
                       1)                                                   \
            break;                                                          \
        }                                                                   \
    }

/* Comparisons: tv is 1 for scalars, all ones for vectors. VM_TALLY (a
 * scalar one that a branch reads next): the lanes made true are counted
 * too, in the same pass, so that the branch need not scan them again
 * (COND); b row-uniform or not, as EW2. */
/* (the decoder sets VM_TALLY only with W = 64: one row of 64 lanes) */
#define TALLY_LOOP(S, E, PRE, Y)                                            \
    {                                                                       \
        PRE                                                                 \
        IVDEP for (uint32_t i = 0; i < VM_MAXW; i++) {                      \
            const t##S x = a_[i], y = Y;                                    \
            const bool e_ = (E);                                            \
            n_ += e_;                                                       \
            o_[i] = e_ ? tv : 0;                                            \
        }                                                                   \
    }
#define CMP_TALLY(S, E)                                                     \
    {                                                                       \
        u##S *o_ = OUTP;                                                    \
        const t##S *a_ = REG(const t##S, ip->a);                            \
        const t##S *b_ = REG(const t##S, ip->b);                            \
        const uint32_t cnt = VM_MAXW;                                       \
        uint32_t n_ = 0;                                                    \
        if (ip->uni & VM_UNI_B) {                                           \
            TALLY_LOOP(S, E, const t##S yb_ = b_[0];, yb_)                  \
        } else {                                                            \
            TALLY_LOOP(S, E, , b_[i])                                       \
        }                                                                   \
        w->tally = n_;                                                      \
        FINISH(u##S)                                                        \
    }
#define CMP(S, E)                                                           \
    {                                                                       \
        const u##S tv = (u##S)ip->imm;                                      \
        if (ip->uni & VM_TALLY)                                             \
            CMP_TALLY(S, E)                                                 \
        else                                                                \
            EW2(u##S, t##S, (E) ? tv : 0)                                   \
    }
#define H_EQ(S) CMP(S, WID(S, x) == WID(S, y))
#define H_NE(S) CMP(S, WID(S, x) != WID(S, y))
#define H_LT(S) CMP(S, WID(S, x) < WID(S, y))
#define H_LE(S) CMP(S, WID(S, x) <= WID(S, y))
#define H_GT(S) CMP(S, WID(S, x) > WID(S, y))
#define H_GE(S) CMP(S, WID(S, x) >= WID(S, y))
#define H_LAND(S) CMP(S, x && y)
#define H_LOR(S) CMP(S, x || y)
#define H_LNOT(S)                                                           \
    {                                                                       \
        const u##S tv = (u##S)ip->imm;                                      \
        EW1(u##S, t##S, x ? 0 : tv)                                         \
    }
/* imm: the bit of c that decides (the MSB for vectors, every bit for a
 * scalar, where any nonzero c selects b). */
#define H_SELECT(S)                                                         \
    {                                                                       \
        const u##S cm = (u##S)ip->imm;                                      \
        EW3(u##S, u##S, u##S, (z & cm) ? y : x)                             \
    }

/* Work-item functions */
#define WI(S)                                                               \
    {                                                                       \
        uint64_t v_[VM_MAXW];                                               \
        vm_wi_values(w, bc_ops[ip->op].base, ip->imm, v_);                     \
        u##S *o_ = OUTP;                                                    \
        const uint32_t cnt = W;                                             \
        for (uint32_t l = 0; l < W; l++)                                    \
            o_[l] = (u##S)v_[l];                                            \
        FINISH(u##S)                                                        \
    }
#define H_GID(S)                                                            \
    {                                                                       \
        uint64_t v0_;                                                       \
        if (ip->imm == 0 && gid0_row(w, &v0_)) {                            \
            u##S *o_ = OUTP;                                                \
            const uint32_t cnt = W;                                         \
            const u##S b_ = (u##S)v0_;                                      \
            IVDEP for (uint32_t l = 0; l < W; l++)                          \
                o_[l] = (u##S)(b_ + (u##S)l);                               \
            FINISH(u##S)                                                    \
        } else                                                              \
            WI(S)                                                           \
    }
#define H_LID(S) WI(S)
#define H_GRP(S) WI(S)
#define H_GSZ(S) WI(S)
#define H_LSZ(S) WI(S)
#define H_NGRP(S) WI(S)
#define H_GOFF(S) WI(S)
#define H_WDIM(S) WI(S)

/* Memory: every active lane is checked first, then the lanes move in
 * increasing order (so with overlapping stores the highest lane wins). */
#define MEMCHECK()                                                          \
    const int mc_ = ip->uni && exec == all ? mem_row(w, ip, R)              \
                                           : vm_mem_check(w, ip, exec, R);     \
    if (UNLIKELY(!mc_))                                                     \
        goto trap;
/* Lane l's first byte (vm_mem_check set only mp[0] when it returned 2). */
#define LANEP(l) (mc_ == 2 ? w->mp[0] + (size_t)(l) * ip->stride : w->mp[l])
/* A full warp of vloadN/vstoreN or LD/ST of a scalar over consecutive
 * elements (stride = rows elements): with the trip counts and the stride
 * constants, these loops vectorise (as transposes). A load from a big
 * buffer (vm_prog.big) prefetches the row two warps on. The store goes in
 * memory order; no two lanes overlap, so the order is not observable. */
#define DENSE_LD(S, ROWS)                                                   \
    for (uint32_t r = 0; r < ROWS; r++)                                     \
        for (uint32_t l = 0; l < VM_MAXW; l++)                              \
            d_[r * VM_MAXW + l] = (u##S)le_load(                            \
                p0_ + (l * ROWS + r) * sizeof(u##S), sizeof(u##S));
#define DENSE_ST(S, ROWS)                                                   \
    for (uint32_t l = 0; l < VM_MAXW; l++)                                  \
        for (uint32_t r = 0; r < ROWS; r++)                                 \
            le_store(p0_ + (l * ROWS + r) * sizeof(u##S), sizeof(u##S),     \
                     s_[r * VM_MAXW + l]);
#define DENSE_ROWS(M, S)                                                    \
    switch (rows) {                                                         \
    case 1: M(S, 1) break;                                                  \
    case 2: M(S, 2) break;                                                  \
    case 3: M(S, 3) break;                                                  \
    case 4: M(S, 4) break;                                                  \
    case 8: M(S, 8) break;                                                  \
    default: M(S, 16) break;                                                \
    }
/* Whether a dense row's buffer (lane 0's: one buffer holds the row) is
 * in vm_prog's set SET (big, stream). */
#define ROW_IN(SET)                                                         \
    row_in(w->P->SET, *(const ua32 *)(R + ip->a + 8 * VM_MAXW))
static inline bool row_in(uint64_t set, uint32_t b)
{
    return b < 64 && (set >> b & 1);
}
#define DENSE(S)                                                            \
    (mc_ == 2 && w->lanes == VM_MAXW && ip->stride == rows * sizeof(u##S))
#define LOAD(S)                                                             \
    {                                                                       \
        MEMCHECK()                                                          \
        u##S *d_ = REG(u##S, ip->d);                                        \
        const uint32_t rows = ip->rows;                                     \
        if (DENSE(S)) {                                                     \
            const uint8_t *p0_ = w->mp[0];                                  \
            if (ROW_IN(big)) {                                              \
                const size_t n_ = (size_t)rows * VM_MAXW * sizeof(u##S);    \
                const uintptr_t a_ = (uintptr_t)p0_ + 2 * n_;               \
                for (size_t k_ = 0; k_ < n_; k_ += 64)                      \
                    __builtin_prefetch((const void *)(a_ + k_));            \
            }                                                               \
            DENSE_ROWS(DENSE_LD, S)                                         \
        } else if (mc_ == 2) {                                              \
            const size_t st_ = ip->stride;                                  \
            const uint32_t n_ = w->lanes;                                   \
            for (uint32_t r = 0; r < rows; r++) {                           \
                u##S *row_ = d_ + (size_t)r * W;                            \
                const uint8_t *p_ = w->mp[0] + r * sizeof(u##S);            \
                for (uint32_t l = 0; l < n_; l++)                           \
                    row_[l] = (u##S)le_load(p_ + l * st_, sizeof(u##S));    \
            }                                                               \
        } else {                                                            \
            for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                    \
                uint32_t l = CTZ(m_);                                       \
                const uint8_t *p_ = w->mp[l];                               \
                for (uint32_t r = 0; r < rows; r++)                         \
                    d_[r * W + l] = (u##S)le_load(p_ + r * sizeof(u##S),    \
                                                  sizeof(u##S));            \
            }                                                               \
        }                                                                   \
    }
/* A full warp's row into a buffer run.c streams (vm_prog.stream) is
 * composed in scratch and goes past the caches (vm_stream). Other dense
 * stores go lane by lane: lanes may overlap (stride 0). */
#define STORE(S)                                                            \
    {                                                                       \
        MEMCHECK()                                                          \
        const u##S *s_ = REG(const u##S, ip->d);                            \
        const uint32_t rows = ip->rows;                                     \
        if (DENSE(S)) {                                                     \
            const bool nt_ = ROW_IN(stream);                                \
            uint8_t *p0_ = nt_ ? w->scratch : w->mp[0];                     \
            DENSE_ROWS(DENSE_ST, S)                                         \
            if (nt_)                                                        \
                VM_STREAM(w->mp[0], w->scratch,                             \
                          (size_t)rows * VM_MAXW * sizeof(u##S));           \
        } else if (mc_ == 2 && ip->stride) {                                \
            const size_t st_ = ip->stride;                                  \
            const uint32_t n_ = w->lanes;                                   \
            for (uint32_t r = 0; r < rows; r++) {                           \
                const u##S *row_ = s_ + (size_t)r * W;                      \
                uint8_t *p_ = w->mp[0] + r * sizeof(u##S);                  \
                for (uint32_t l = 0; l < n_; l++)                           \
                    le_store(p_ + l * st_, sizeof(u##S), row_[l]);          \
            }                                                               \
        } else {                                                            \
            for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                    \
                uint32_t l = CTZ(m_);                                       \
                uint8_t *p_ = LANEP(l);                                     \
                for (uint32_t r = 0; r < rows; r++)                         \
                    le_store(p_ + r * sizeof(u##S), sizeof(u##S),           \
                             s_[r * W + l]);                                \
            }                                                               \
        }                                                                   \
    }
#define H_LD(S) LOAD(S)
#define H_VLOAD(S) LOAD(S)
#define H_ST(S) STORE(S)
#define H_VSTORE(S) STORE(S)
/* The half forms convert with stdlib's half.h, as ls_vload_half does. */
#define H_VLDH(S)                                                           \
    {                                                                       \
        MEMCHECK()                                                          \
        t_F32 *d_ = REG(t_F32, ip->d);                  \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            for (uint32_t r = 0; r < ip->rows; r++)                         \
                d_[r * W + l] = half_to_float(                              \
                    (uint16_t)le_load(LANEP(l) + 2 * r, 2));                \
        }                                                                   \
    }
#define HALF_F32(v, r) half_from_float(v, r)
#define HALF_F64(v, r) half_from_double(v, r)
#define H_VSTH(S)                                                           \
    {                                                                       \
        MEMCHECK()                                                          \
        const t##S *s_ = REG(const t##S, ip->d);                            \
        enum rnd rm = (enum rnd)((ip->flags & BC_F_RND) >> BC_F_RND_SHIFT); \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            for (uint32_t r = 0; r < ip->rows; r++)                         \
                le_store(LANEP(l) + 2 * r, 2,                               \
                         HALF##S(s_[r * W + l], rm));                       \
        }                                                                   \
    }
#define H_PADD(S)                                                           \
    {                                                                       \
        uint64_t i_[VM_MAXW];                                               \
        const ua64 *po = REG(const ua64, ip->a);                            \
        const ua32 *pb = REG(const ua32, ip->a + 8 * W);                    \
        ua64 *dof = REG(ua64, ip->d);                                       \
        ua32 *db = REG(ua32, ip->d + 8 * W);                                \
        ip->widen(i_, R + ip->b, W);                                        \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            dof[l] = po[l] + i_[l] * ip->stride;                            \
            db[l] = pb[l];                                                  \
        }                                                                   \
    }

/* Pointers in 8-byte slots: the buffer number in the top 24 bits, the
 * offset in the low 40; a number the run has no buffer for is the null
 * buffer (every access through it traps). */
#define PSLOT_OFF ((UINT64_C(1) << 40) - 1)
#define H_LDP(S)                                                            \
    {                                                                       \
        MEMCHECK()                                                          \
        ua64 *dof = REG(ua64, ip->d);                                       \
        ua32 *db = REG(ua32, ip->d + 8 * W);                                \
        const uint32_t nb_ = w->P->nbufs;                                   \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            uint64_t v_ = le_load(LANEP(l), 8);                             \
            dof[l] = v_ & PSLOT_OFF;                                        \
            db[l] = (v_ >> 40) < nb_ ? (uint32_t)(v_ >> 40) : 0;            \
        }                                                                   \
    }
#define H_STP(S)                                                            \
    {                                                                       \
        MEMCHECK()                                                          \
        const ua64 *so = REG(const ua64, ip->d);                            \
        const ua32 *sb = REG(const ua32, ip->d + 8 * W);                    \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            le_store(LANEP(l), 8, so[l] <= PSLOT_OFF                        \
                     ? (uint64_t)sb[l] << 40 | so[l] : 0);                  \
        }                                                                   \
    }
/* Pointers as integers: the address is the buffer's number * 2^40 plus
 * the offset (wrapping); back, an address whose top 24 bits name a
 * buffer of the destination's space (imm) is in it, any other is kept
 * whole as an offset in the null buffer. */
#define H_PTOU(S)                                                           \
    {                                                                       \
        const ua64 *po = REG(const ua64, ip->a);                            \
        const ua32 *pb = REG(const ua32, ip->a + 8 * W);                    \
        ua64 *d_ = REG(ua64, ip->d);                                        \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            d_[l] = ((uint64_t)pb[l] << 40) + po[l];                        \
        }                                                                   \
    }
#define H_UTOP(S)                                                           \
    {                                                                       \
        const ua64 *s_ = REG(const ua64, ip->a);                            \
        ua64 *dof = REG(ua64, ip->d);                                       \
        ua32 *db = REG(ua32, ip->d + 8 * W);                                \
        const uint32_t nb_ = w->P->nbufs;                                   \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            uint64_t v_ = s_[l], b_ = v_ >> 40;                             \
            bool in_ = b_ && b_ < nb_ && w->P->bufs[b_].space == ip->imm;   \
            dof[l] = in_ ? v_ & PSLOT_OFF : v_;                             \
            db[l] = in_ ? (uint32_t)b_ : 0;                                 \
        }                                                                   \
    }

/* Structured control flow. The mask stack never runs dry or over: the
 * decoder checked the nesting and sized it. When no lane is left running,
 * RESUME goes to where some may come back: the innermost block's ELSE,
 * ENDIF or ENDLOOP, or the end. */
#define TOP (w->stack[w->sp - 1])
#define RESUME()                                                            \
    {                                                                       \
        if (w->sp == 0)                                                     \
            goto done;                                                      \
        ip = ins + TOP.target;                                              \
    }
/* v = the lanes whose c is not zero. First an OR and a minimum over the
 * lanes (vectorised reductions): a branch most often finds c zero in
 * every lane or in none. Else a vectorisable compare into bytes, then 8
 * lanes at a time by one multiplication (bit i of the top byte of bytes *
 * 0x0102040810204080 is byte i, for bytes of 0 or 1). */
#define NONZERO(S, v)                                                       \
    {                                                                       \
        const u##S *c_ = REG(const u##S, ip->c);                            \
        u##S or_ = 0, min_ = (u##S)~(u##S)0;                                \
        {                                                                   \
            const uint32_t cnt = W;                                         \
            const u##S *cr_ = c_;                                           \
            EW_LOOP((cr_ += VM_MAXW), {                                     \
                or_ |= cr_[i];                                              \
                min_ = cr_[i] < min_ ? cr_[i] : min_;                       \
            })                                                              \
        }                                                                   \
        if (or_ == 0) {                                                     \
        } else if (min_ != 0) {                                             \
            v |= W == VM_MAXW ? UINT64_MAX : (UINT64_C(1) << W) - 1;        \
        } else {                                                            \
            uint8_t nz_[VM_MAXW];                                           \
            IVDEP for (uint32_t l = 0; l < W; l++)                          \
                nz_[l] = c_[l] != 0;                                        \
            for (uint32_t l = W; l < ((W + 7) & ~7u); l++)                  \
                nz_[l] = 0;                                                 \
            for (uint32_t g = 0; g < W && g < VM_MAXW; g += 8)              \
                v |= (le_load(nz_ + g, 8) * 0x0102040810204080u >> 56)      \
                     << g;                                                  \
        }                                                                   \
    }
/* v = the lanes whose c is not zero, from the comparison's count when it
 * made c just before (VM_TALLIED): none, or all W, or NONZERO's scan. */
#define COND(S, v)                                                          \
    {                                                                       \
        const uint32_t n_ = w->tally;                                       \
        if (!(ip->uni & VM_TALLIED) || (n_ != 0 && n_ != W))                \
            NONZERO(S, v)                                                   \
        else if (n_)                                                        \
            v |= W == VM_MAXW ? UINT64_MAX : (UINT64_C(1) << W) - 1;        \
    }
/* Lanes that leave the innermost loop (break or continue) leave the IF
 * blocks inside it too. */
#define LEAVE_IFS(m)                                                        \
    {                                                                       \
        uint32_t i_ = w->sp;                                                \
        while (!w->stack[i_ - 1].loop)                                      \
            w->stack[--i_].join &= ~(m);                                    \
    }
/* Pushes a frame. Its other half goes through OPAQUE: built whole as the
 * vector {exec, exec} (an IF that no lane takes), GCC moved the making of
 * that vector into the dispatch code all handlers share, which then no
 * handler could copy into its own tail: one indirect jump for all of them,
 * harder to predict (loop ran 4% slower; bench/README.md). */
#if defined(__GNUC__)
#define OPAQUE(x) __asm__("" : "+r"(x))
#else
#define OPAQUE(x) (void)(x)
#endif
#define PUSH(JOIN, OTHER, TARGET, LOOP)                                     \
    {                                                                       \
        vm_frame *p_ = &w->stack[w->sp++];                                  \
        uint64_t o_ = (OTHER);                                              \
        OPAQUE(o_);                                                         \
        p_->join = (JOIN);                                                  \
        p_->other = o_;                                                     \
        p_->target = (TARGET);                                              \
        p_->loop = (LOOP);                                                  \
    }
/* IF: imm says whether j is an ELSE. With no lane taking the branch and no
 * ELSE, nothing is pushed and execution goes past the ENDIF. */
#define H_IF(S)                                                             \
    {                                                                       \
        uint64_t t_ = 0;                                                    \
        COND(S, t_)                                                         \
        t_ &= exec;                                                         \
        if (t_ == 0 && !ip->imm) {                                          \
            ip = ins + ip->j + 1;                                           \
        } else {                                                            \
            PUSH(exec, exec & ~t_, ip->j, 0)                                \
            if (t_ == 0) {                                                  \
                exec = 0;                                                   \
                ip = ins + ip->j;                                           \
            } else {                                                        \
                exec = t_;                                                  \
                ip++;                                                       \
            }                                                               \
        }                                                                   \
        vmbreak;                                                            \
    }
#define H_ELSE(S)                                                           \
    {                                                                       \
        vm_frame *f_ = &TOP;                                                \
        if (f_->other == 0) {                                               \
            w->sp--;                                                        \
            exec = f_->join;                                                \
            ip = ins + ip->j + 1;                                           \
            if (exec == 0)                                                  \
                RESUME()                                                    \
        } else {                                                            \
            exec = f_->other;                                               \
            f_->other = 0;                                                  \
            f_->target = ip->j;                                             \
            ip++;                                                           \
        }                                                                   \
        vmbreak;                                                            \
    }
#define H_ENDIF(S)                                                          \
    {                                                                       \
        exec = w->stack[--w->sp].join;                                      \
        ip++;                                                               \
        if (exec == 0)                                                      \
            RESUME()                                                        \
        vmbreak;                                                            \
    }
#define H_LOOP(S)                                                           \
    {                                                                       \
        PUSH(exec, 0, ip->j, 1)                                             \
        ip++;                                                               \
        vmbreak;                                                            \
    }
#define EXIT_LOOP()                                                         \
    {                                                                       \
        vm_frame *f_ = &w->stack[--w->sp];                                  \
        exec = f_->join;                                                    \
        ip = ins + f_->target + 1;                                          \
        if (exec == 0)                                                      \
            RESUME()                                                        \
    }
#define H_ENDLOOP(S)                                                        \
    {                                                                       \
        exec |= TOP.other;                                                  \
        TOP.other = 0;                                                      \
        if (exec)                                                           \
            ip = ins + ip->j;                                               \
        else                                                                \
            EXIT_LOOP()                                                     \
        vmbreak;                                                            \
    }
#define H_BRKIF(S)                                                          \
    {                                                                       \
        uint64_t b_ = 0;                                                    \
        COND(S, b_)                                                         \
        b_ = (ip->flags & BC_F_NOT ? ~b_ : b_) & exec;                      \
        ip++;                                                               \
        if (b_) {                                                           \
            LEAVE_IFS(b_)                                                   \
            exec &= ~b_;                                                    \
            if (exec == 0) {                                                \
                if (TOP.loop && TOP.other == 0)                             \
                    EXIT_LOOP()                                             \
                else                                                        \
                    RESUME()                                                \
            }                                                               \
        }                                                                   \
        vmbreak;                                                            \
    }
#define H_BREAK(S)                                                          \
    {                                                                       \
        LEAVE_IFS(exec)                                                     \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }
#define H_CONT(S)                                                           \
    {                                                                       \
        uint32_t i_ = w->sp;                                                \
        while (!w->stack[i_ - 1].loop)                                      \
            w->stack[--i_].join &= ~exec;                                   \
        w->stack[i_ - 1].other |= exec;                                     \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }
#define H_RET(S)                                                            \
    {                                                                       \
        for (uint32_t i_ = 0; i_ < w->sp; i_++)                             \
            w->stack[i_].join &= ~exec;                                     \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }
/* Labelled blocks and jumps. A BLOCK's frame is an IF's with no other
 * side: lanes that break out of it wait in its join for its ENDBLOCK. A
 * labelled jump's imm is its target's frame; the lanes leave every frame
 * above it. */
#define H_BLOCK(S)                                                          \
    {                                                                       \
        PUSH(exec, 0, ip->j, 0)                                             \
        ip++;                                                               \
        vmbreak;                                                            \
    }
#define H_ENDBLOCK(S) H_ENDIF(S)
#define LEAVE_TO(m, k)                                                      \
    {                                                                       \
        for (uint32_t i_ = w->sp; i_ > (k) + 1; i_--)                       \
            w->stack[i_ - 1].join &= ~(m);                                  \
    }
#define H_BRKTO(S)                                                          \
    {                                                                       \
        LEAVE_TO(exec, ip->imm)                                                      \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }
#define H_BRKTOIF(S)                                                        \
    {                                                                       \
        uint64_t b_ = 0;                                                    \
        COND(S, b_)                                                         \
        b_ = (ip->flags & BC_F_NOT ? ~b_ : b_) & exec;                      \
        uint64_t k_ = ip->imm;                                              \
        ip++;                                                               \
        if (b_) {                                                           \
            LEAVE_TO(b_, k_)                                                \
            exec &= ~b_;                                                    \
            if (exec == 0)                                                  \
                RESUME()                                                    \
        }                                                                   \
        vmbreak;                                                            \
    }
#define H_CONTTO(S)                                                         \
    {                                                                       \
        LEAVE_TO(exec, ip->imm)                                                      \
        w->stack[ip->imm].other |= exec;                                    \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }

/* Every lane of the warp must arrive together; the scheduler checks that
 * every warp of the group does. A group of one warp needs no stop. */
#define H_BARRIER(S)                                                        \
    {                                                                       \
        if (exec != all) {                                                  \
            w->fault = (vm_fault){.kind = VM_TRAP_BARRIER,                  \
                                  .lane = CTZ(exec),                        \
                                  .other = w->base + CTZ(all & ~exec)};     \
            goto trap;                                                      \
        }                                                                   \
        w->barriers++;                                                      \
        w->fenced[0] += (ip->imm & BC_FENCE_LOCAL) != 0;                    \
        w->fenced[1] += (ip->imm & BC_FENCE_GLOBAL) != 0;                   \
        ip++;                                                               \
        if (P->r.nwarps > 1)                                                \
            goto barrier;                                                   \
        vmbreak;                                                            \
    }

/* Out of line, lane by lane: FN(w, ip, exec), non-zero on a trap. */
#define OUT_OF_LINE(FN)                                                     \
    if (UNLIKELY(FN(w, ip, exec)))                                          \
        goto trap;
/* Atomics (atomic.c), async copies (async.c). Fences order this
 * thread's accesses against other work-groups' threads; within a group
 * the warps run one at a time, in order, already. */
#define H_ATOM(S) OUT_OF_LINE(vm_atomic)
#define H_ACOPY(S) OUT_OF_LINE(vm_async_copy)
#define H_ACOPYS(S) OUT_OF_LINE(vm_async_copy)
#define H_WAITEV(S) OUT_OF_LINE(vm_async_wait)
#define H_FENCE(S) __atomic_thread_fence(__ATOMIC_SEQ_CST);
#define H_RFENCE(S) __atomic_thread_fence(__ATOMIC_ACQUIRE);
#define H_WFENCE(S) __atomic_thread_fence(__ATOMIC_RELEASE);

/* Host calls and printf (native.c). */
#define H_CALL(S) OUT_OF_LINE(vm_native_call)
#define H_CALLV(S) OUT_OF_LINE(vm_native_call)
#define H_PRINTF(S) OUT_OF_LINE(vm_native_printf)

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */

/* XOP_RACE goes on to its op's body: vmredo(op) (dispatch.inc). */
#ifdef CLVM_SWITCH_DISPATCH
#define vmdispatch(o) switch (o)
#define vmcase(l) case l:
#define vmbreak break
#define vmredo(o)                                                           \
    {                                                                       \
        op_ = (o);                                                          \
        goto redo;                                                          \
    }
#else
#define vmredo(o) goto *labels[o];
#define vmdispatch(o) goto *ip->label;
#define vmcase(l) L_##l:
#define vmbreak                                                             \
    {                                                                       \
        if (UNLIKELY(left == 0))                                            \
            goto out_of_budget;                                             \
        left--;                                                             \
        goto *ip->label;                                                    \
    }
#endif

#endif
