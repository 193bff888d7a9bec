/* The math built-ins beyond the dedicated opcodes (mad fma min max fmin fmax
 * clamp abs fabs select): one table, from which the assembler's names, the
 * verifier's rules, the interpreter's loops, the disassembler and the
 * accuracy table of docs/semantics.md all come.
 *
 * MATHFNS(X, P) calls X(P, ENUM, name, args, dom, res, unit, bf, bd, impl)
 * per function (P passes through, so a caller can forward its own macro):
 *   args  1, 2 or 3 operands of one type (a scalar operand meeting a
 *         vector is broadcast by the assembler)
 *   dom   FLT   float and double
 *         INT   the integer types
 *         ANY   both (bit operations)
 *   res   SAME  the operands' type
 *         MASK  the signed integer of the element size: 1/0 for a scalar,
 *               -1/0 per component for a vector (the relational functions)
 *   unit, bf, bd  the accuracy clvm guarantees for float and double:
 *         ULP   at most that many ulp from the exact result (0: exact,
 *               0.5: correctly rounded), as OpenCL measures ulp
 *         ABS   absolute error at most that
 *         EXACT no rounding (integer and bit results)
 *   impl  the value, a C expression of
 *         FLT: double x, y, z (the operands, exactly); evaluated in double
 *              and rounded once to the operand type
 *         INT: uint64_t x, y, z (the operands' bits, zero-extended),
 *              unsigned w (bits of the type), bool s (signed); the result's
 *              low w bits are kept
 *         ANY: uint64_t x, y, z (the operands' bits)
 * tests/unit/test_mathfn.c checks every bound against a reference computed
 * in long double, and that docs/semantics.md shows this table. */
#ifndef CLVM_MATHFN_H
#define CLVM_MATHFN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stdlib/types.h"

#define MATHFNS(X, P)                                                       \
    X(P, SQRT,       sqrt,       1, FLT, SAME, ULP, 3,    0.5,  sqrt(x))    \
    X(P, RSQRT,      rsqrt,      1, FLT, SAME, ULP, 2,    2,    1 / sqrt(x))\
    X(P, FLOOR,      floor,      1, FLT, SAME, ULP, 0,    0,    floor(x))   \
    X(P, CEIL,       ceil,       1, FLT, SAME, ULP, 0,    0,    ceil(x))    \
    X(P, TRUNC,      trunc,      1, FLT, SAME, ULP, 0,    0,    trunc(x))   \
    X(P, ROUND,      round,      1, FLT, SAME, ULP, 0,    0,    round(x))   \
    X(P, RINT,       rint,       1, FLT, SAME, ULP, 0,    0,    rint(x))    \
    X(P, EXP,        exp,        1, FLT, SAME, ULP, 3,    3,    exp(x))     \
    X(P, EXP2,       exp2,       1, FLT, SAME, ULP, 3,    3,    exp2(x))    \
    X(P, LOG,        log,        1, FLT, SAME, ULP, 3,    3,    log(x))     \
    X(P, LOG2,       log2,       1, FLT, SAME, ULP, 3,    3,    log2(x))    \
    X(P, POW,        pow,        2, FLT, SAME, ULP, 16,   16,   pow(x, y))  \
    X(P, SIN,        sin,        1, FLT, SAME, ULP, 4,    4,    sin(x))     \
    X(P, COS,        cos,        1, FLT, SAME, ULP, 4,    4,    cos(x))     \
    X(P, TAN,        tan,        1, FLT, SAME, ULP, 5,    5,    tan(x))     \
    X(P, MIX,        mix,        3, FLT, SAME, ABS, 1e-3, 1e-3,             \
      x + (y - x) * z)                                                      \
    X(P, STEP,       step,       2, FLT, SAME, ULP, 0,    0,                \
      y < x ? 0.0 : 1.0)                                                    \
    X(P, SMOOTHSTEP, smoothstep, 3, FLT, SAME, ABS, 1e-5, 1e-5,             \
      mf_smoothstep(x, y, z))                                               \
    X(P, SIGN,       sign,       1, FLT, SAME, ULP, 0,    0,                \
      x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? x : 0.0)                        \
    X(P, ISNAN,      isnan,      1, FLT, MASK, EXACT, 0,  0,    x != x)     \
    X(P, ISINF,      isinf,      1, FLT, MASK, EXACT, 0,  0,                \
      fabs(x) == INFINITY)                                                  \
    X(P, ISFINITE,   isfinite,   1, FLT, MASK, EXACT, 0,  0,                \
      fabs(x) < INFINITY)                                                   \
    X(P, SIGNBIT,    signbit,    1, FLT, MASK, EXACT, 0,  0,    signbit(x)) \
    X(P, BITSELECT,  bitselect,  3, ANY, SAME, EXACT, 0,  0,                \
      (x & ~z) | (y & z))                                                   \
    X(P, CLZ,        clz,        1, INT, SAME, EXACT, 0,  0,                \
      mf_clz(x, w))                                                         \
    X(P, POPCOUNT,   popcount,   1, INT, SAME, EXACT, 0,  0,                \
      mf_popcount(x, w))                                                    \
    X(P, ADD_SAT,    add_sat,    2, INT, SAME, EXACT, 0,  0,                \
      mf_add_sat(x, y, w, s))                                               \
    X(P, SUB_SAT,    sub_sat,    2, INT, SAME, EXACT, 0,  0,                \
      mf_sub_sat(x, y, w, s))                                               \
    X(P, MUL_HI,     mul_hi,     2, INT, SAME, EXACT, 0,  0,                \
      mf_mul_hi(x, y, w, s))                                                \
    X(P, ROTATE,     rotate,     2, INT, SAME, EXACT, 0,  0,                \
      mf_rotate(x, y, w))

enum mathfn {
#define MF_ENUM(P, E, ...) MF_##E,
    MATHFNS(MF_ENUM, _)
#undef MF_ENUM
    MF_COUNT
};

enum mf_dom { MF_FLT, MF_INT, MF_ANY };
enum mf_res { MF_SAME, MF_MASK };
enum mf_unit { MF_ULP, MF_ABS, MF_EXACT };

typedef struct {
    const char *name;
    uint8_t nargs;    /* 1..3 */
    uint8_t dom;      /* enum mf_dom */
    uint8_t res;      /* enum mf_res */
    uint8_t unit;     /* enum mf_unit */
    double bound[2];  /* float, double */
    const char *impl; /* the expression, for the docs */
} mathfn_info;

extern const mathfn_info mathfns[MF_COUNT];

/* The function named name[0..len), or -1. */
int mathfn_find(const char *name, size_t len);

/* Does f take operands of element type t? (half: never.) */
bool mathfn_takes(enum mathfn f, enum ty_scalar t);

/* d[i] = f(a[i], b[i], c[i]) for i < n, elements of type t in native byte
 * order (b, c unused below the function's arity; d may be a, b or c). A
 * MASK result is written as an integer of t's size: vec ? -1 : 1 for true.
 * Nothing happens if !mathfn_takes(f, t). */
void mathfn_run(enum mathfn f, enum ty_scalar t, void *d, const void *a,
                const void *b, const void *c, size_t n, bool vec);

/* The accuracy table of docs/semantics.md (markdown rows, no markers). */
void mathfn_write_md(FILE *out);

#endif
