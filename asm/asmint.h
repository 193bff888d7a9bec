/* The assembler's internals, shared by its files:
 *
 *   lex.c       source line -> tokens
 *   lit.c       numeric literals and constant arithmetic
 *   diag.c      messages with source line and caret; nearest-name hints
 *   optab.c     opcode variants and classes; built-ins' operations
 *   sigs.c      the built-ins' signatures in words (REPL help, docs)
 *   kbuild.c    the module and kernel under construction: strings,
 *               constant pool, externs, registers, temporaries, code, line
 *               table, printf formats
 *   parse.c     tokens -> expression trees (nodes)
 *   fold.c      constant folding of literal trees (in C's types) and
 *               constant conversions
 *   narrow.c    value ranges; an implicitly typed value converted to its
 *               destination as OpenCL C converts it, computed narrow where
 *               that gives the same bits and notes
 *   settle.c    the type a literal, size_t, truth value or implicitly
 *               typed value takes
 *   conv.c      OpenCL C's implicit conversions at an operator: integer
 *               promotion, the usual arithmetic conversions
 *   check.c     OpenCL typing of a tree
 *   lower.c     checked tree -> instructions
 *   hostcall.c  the extern declaration and printf statements
 *   clause.c    the kernel header's clauses: a parameter's byval(...),
 *               the kernel's reqd_work_group_size(X, Y, Z)
 *   flow.c      labelled control flow: labels, and the jump that a
 *               `break NAME` or `continue NAME` becomes
 *   stmt.c      statements, declarations, blocks, kernels: the line loop
 *   asm.c       the public API
 *   dis.c       the disassembler (asm/dis.h)
 *
 * Each file calls only files listed before it: no circle.
 */
#ifndef CLVM_ASMINT_H
#define CLVM_ASMINT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "asm/asm.h"
#include "stdlib/atomic.h"
#include "stdlib/builtin.h"
#include "vm/bytecode.h"
#include "asm/lex.h"
#include "asm/lit.h"
#include "stdlib/mathfn.h"

#define TY(s, n) ((ty_t){(uint8_t)(s), (uint8_t)(n)})

/* Built-in functions other than the convert_/as_/vload/vstore families
 * that stdlib/builtin.h parses. X(ENUM, name, arguments, operation,
 * math function: -1, a stdlib/mathfn.h id, or id + ASM_MF_OUT for the
 * NAME_out form that gives a pointer function's second result,
 * OpenCL.std numbers OC3(float, signed, unsigned) (the math ones: their
 * row of stdlib/mathfn.h; -1: none, a SPIR-V core instruction), and for
 * the other built-ins their signatures and what they do, for the REPL's
 * help and docs/ir.md: stdlib/mathfn.h has the math ones') */
#define ASM_FUNCS(X)                                                        \
    X(GET_GLOBAL_ID, "get_global_id", 1, BCB_GID, -1,                       \
      OC3(-1, -1, -1),                                                      \
      "size_t get_global_id(uint dim)",                                     \
      "the global id of the work-item in dimension dim")                    \
    X(GET_LOCAL_ID, "get_local_id", 1, BCB_LID, -1,                         \
      OC3(-1, -1, -1),                                                      \
      "size_t get_local_id(uint dim)",                                      \
      "the id within the work-group")                                       \
    X(GET_GROUP_ID, "get_group_id", 1, BCB_GRP, -1,                         \
      OC3(-1, -1, -1),                                                      \
      "size_t get_group_id(uint dim)",                                      \
      "the work-group id")                                                  \
    X(GET_GLOBAL_SIZE, "get_global_size", 1, BCB_GSZ, -1,                   \
      OC3(-1, -1, -1),                                                      \
      "size_t get_global_size(uint dim)",                                   \
      "the number of global work-items")                                    \
    X(GET_LOCAL_SIZE, "get_local_size", 1, BCB_LSZ, -1,                     \
      OC3(-1, -1, -1),                                                      \
      "size_t get_local_size(uint dim)",                                    \
      "the work-group size")                                                \
    X(GET_NUM_GROUPS, "get_num_groups", 1, BCB_NGRP, -1,                    \
      OC3(-1, -1, -1),                                                      \
      "size_t get_num_groups(uint dim)",                                    \
      "the number of work-groups")                                          \
    X(GET_GLOBAL_OFFSET, "get_global_offset", 1, BCB_GOFF, -1,              \
      OC3(-1, -1, -1),                                                      \
      "size_t get_global_offset(uint dim)",                                 \
      "the global offset")                                                  \
    X(GET_WORK_DIM, "get_work_dim", 0, BCB_WDIM, -1,                        \
      OC3(-1, -1, -1),                                                      \
      "uint get_work_dim()",                                                \
      "the number of dimensions in use")                                    \
    X(MAD, "mad", 3, BCB_MAD, -1,                                           \
      OC3(42, -1, -1),                                                      \
      "T mad(T a, T b, T c); T half, float or double (n)",                  \
      "a * b + c, rounded twice in clvm (implementation-defined accuracy)") \
    X(FMA, "fma", 3, BCB_FMA, -1,                                           \
      OC3(26, -1, -1),                                                      \
      "T fma(T a, T b, T c); T half, float or double (n)",                  \
      "a * b + c rounded once")                                             \
    X(FMULADD, "fmuladd", 3, BCB_CMAD, -1,                                  \
      OC3(-1, -1, -1),                                                      \
      "T fmuladd(T a, T b, T c); T float or double (n)",                    \
      "OpenCL C's contractible a * b + c (FP_CONTRACT on): rounded twice "  \
      "in clvm, fused by the pocl and nvidia profiles")                     \
    X(FMULADD_ACROSS, "fmuladd_across", 3, BCB_XMAD, -1,                    \
      OC3(-1, -1, -1),                                                      \
      "T fmuladd_across(T a, T b, T c); T float or double (n)",             \
      "p + c where p = a * b was stored by an earlier statement: rounded "  \
      "twice in clvm and pocl, fused by the nvidia profile")                \
    X(MIN, "min", 2, BCB_MIN, -1,                                           \
      OC3(98, 158, 159),                                                    \
      "T min(T x, T y), T min(T x, S y); T any integer, half, float or "   \
      "double "                                                             \
      "(n), S its element",                                                 \
      "y if y < x, else x")                                                 \
    X(MAX, "max", 2, BCB_MAX, -1,                                           \
      OC3(97, 156, 157),                                                    \
      "T max(T x, T y), T max(T x, S y); T any integer, half, float or "   \
      "double "                                                             \
      "(n), S its element",                                                 \
      "y if x < y, else x")                                                 \
    X(FMIN, "fmin", 2, BCB_MIN, -1,                                         \
      OC3(28, -1, -1),                                                      \
      "T fmin(T x, T y), T fmin(T x, S y); T half, float or double (n)",    \
      "the smaller; the other operand if one is NaN")                       \
    X(FMAX, "fmax", 2, BCB_MAX, -1,                                         \
      OC3(27, -1, -1),                                                      \
      "T fmax(T x, T y), T fmax(T x, S y); T half, float or double (n)",    \
      "the larger; the other operand if one is NaN")                        \
    X(CLAMP, "clamp", 3, BCB_CLAMP, -1,                                     \
      OC3(95, 149, 150),                                                    \
      "T clamp(T x, T lo, T hi), T clamp(T x, S lo, S hi); T any "          \
      "integer, half, float or double (n)",                                 \
      "min(max(x, lo), hi)")                                                \
    X(ABS, "abs", 1, BCB_ABS, -1,                                           \
      OC3(-1, 141, 201),                                                    \
      "U abs(T x); T any integer (n), U its unsigned type",                 \
      "|x|, as the unsigned type (abs(INT_MIN) is 2^31)")                   \
    X(FABS, "fabs", 1, BCB_FABS, -1,                                        \
      OC3(23, -1, -1),                                                      \
      "T fabs(T x); T half, float or double (n)",                           \
      "|x| (clears the sign bit)")                                          \
    MATHFNS(ASM_MATHFN, X)                                                  \
    X(SELECT, "select", 3, BCB_SELECT, -1,                                  \
      OC3(187, 187, 187),                                                   \
      "T select(T a, T b, I c); T any type (n), I a signed or unsigned "    \
      "integer of its element size and count",                              \
      "for each component: b if c (its MSB for vectors, c != 0 for "        \
      "scalars), else a")                                                   \
    X(BARRIER, "barrier", 1, BCB_BARRIER, -1,                               \
      OC3(-1, -1, -1),                                                      \
      "void barrier(cl_mem_fence_flags flags)",                             \
      "every work-item of the group waits here")                            \
    X(MEM_FENCE, "mem_fence", 1, BCB_FENCE, -1,                             \
      OC3(-1, -1, -1),                                                      \
      "void mem_fence(cl_mem_fence_flags flags)",                           \
      "the work-item's loads and stores before it are done before those "   \
      "after it")                                                           \
    X(READ_MEM_FENCE, "read_mem_fence", 1, BCB_RFENCE, -1,                  \
      OC3(-1, -1, -1),                                                      \
      "void read_mem_fence(cl_mem_fence_flags flags)",                      \
      "the same for loads")                                                 \
    X(WRITE_MEM_FENCE, "write_mem_fence", 1, BCB_WFENCE, -1,                \
      OC3(-1, -1, -1),                                                      \
      "void write_mem_fence(cl_mem_fence_flags flags)",                     \
      "the same for stores")                                                \
    ATOMIC_FNS(ASM_ATOMIC, X)                                               \
    X(ASYNC_COPY, "async_work_group_copy", 4, BCB_ACOPY, -1,                \
      OC3(-1, -1, -1),                                                      \
      "event_t async_work_group_copy(local T *dst, const global T *src, "   \
      "size_t n, event_t e), the same from local to global; T any type, "   \
      "event_t uint in the IR",                                             \
      "dst[i] = src[i] for i < n, by the work-group (every work-item with " \
      "the same operands); gives e if e != 0, else a new event")            \
    X(ASYNC_STRIDED_COPY, "async_work_group_strided_copy", 5, BCB_ACOPYS,   \
      -1, OC3(-1, -1, -1),                                                  \
      "event_t async_work_group_strided_copy(local T *dst, const global T " \
      "*src, size_t n, size_t stride, event_t e), the same from local to "  \
      "global",                                                             \
      "the same with the global side's elements stride apart")              \
    X(WAIT_GROUP_EVENTS, "wait_group_events", 2, BCB_WAITEV, -1,            \
      OC3(-1, -1, -1),                                                      \
      "void wait_group_events(int n, event_t *events)",                     \
      "waits for the copies of events[0..n-1]; every work-item waits for "  \
      "each event it got before the kernel ends")                           \
    X(PREFETCH, "prefetch", 2, BCB_MOV, -1, OC3(-1, -1, -1),                \
      "void prefetch(const global T *p, size_t n)",                         \
      "nothing (a hint to the cache; no instruction)")                      \
    X(VEC_STEP, "vec_step", 1, BCB_MOV, -1,                                 \
      OC3(-1, -1, -1),                                                      \
      "int vec_step(T x), int vec_step(type)",                              \
      "the number of components (4 for 3-component vectors); a constant")   \
    X(SIZEOF, "sizeof", 1, BCB_MOV, -1,                                     \
      OC3(-1, -1, -1),                                                      \
      "size_t sizeof(T x), size_t sizeof(type)",                            \
      "the size in bytes (16 for float3); a constant")

/* The atomic functions of stdlib/atomic.h, each as atomic_NAME (int and
 * uint; float for xchg) and atom_NAME (also long and ulong), in that
 * order: F_ATOMIC_ADD + 2 * fn + (atom_ form). */
#define ASM_ATOMIC(X, E, name, nv, flt, syn)                                \
    X(ATOMIC_##E, "atomic_" name, (nv) + 1, BCB_ATOM, -1, OC3(-1, -1, -1),  \
      "T atomic_" name "(volatile T *p" ASM_AT_ARGS##nv "); T int or "      \
      "uint" ASM_AT_FLT##flt ", p global or local",                         \
      "old = *p, " syn ", indivisibly; gives old")                          \
    X(ATOM_##E, "atom_" name, (nv) + 1, BCB_ATOM, -1, OC3(-1, -1, -1),      \
      "T atom_" name "(volatile T *p" ASM_AT_ARGS##nv "); T int, uint, "    \
      "long or ulong, p global or local",                                   \
      "old = *p, " syn ", indivisibly; gives old")
#define ASM_AT_ARGS0 ""
#define ASM_AT_ARGS1 ", T val"
#define ASM_AT_ARGS2 ", T cmp, T val"
#define ASM_AT_FLT0 ""
#define ASM_AT_FLT1 " or float"

/* The math built-ins of stdlib/mathfn.h: MATH1..3 by arity, FTEST/FTEST2
 * for the masks, MATHS for the other shapes; the function id is the
 * instruction's immediate. A function with a pointer output takes the
 * pointer as one more argument, and has a NAME_out form without it. */
#define ASM_MATHFN(X, E, name, nargs, dom, shape, ...) \
    ASM_MF_##shape(X, E, name, nargs)
/* A math row's OpenCL.std numbers and help are its stdlib/mathfn.h row's
 * (OC3(-1, -1, -1), NULL, NULL here). */
#define ASM_MF_EW(X, E, name, n)                                            \
    X(MF_##E, #name, n, BCB_MATH1 + (n) - 1, MF_##E, OC3(-1, -1, -1),       \
      NULL, NULL)
#define ASM_MF_SAME ASM_MF_EW
#define ASM_MF_UTYP ASM_MF_EW
#define ASM_MF_UTOF ASM_MF_EW
#define ASM_MF_MASK(X, E, name, n)                                          \
    X(MF_##E, #name, n, (n) == 1 ? BCB_FTEST : BCB_FTEST2, MF_##E,          \
      OC3(-1, -1, -1), NULL, NULL)
#define ASM_MF_SHAPED(X, E, name, n)                                        \
    X(MF_##E, #name, n, BCB_MATHS, MF_##E, OC3(-1, -1, -1), NULL, NULL)
#define ASM_MF_ARGI ASM_MF_SHAPED
#define ASM_MF_ARGN ASM_MF_SHAPED
#define ASM_MF_ILOG ASM_MF_SHAPED
#define ASM_MF_WIDE ASM_MF_SHAPED
#define ASM_MF_RED ASM_MF_SHAPED
#define ASM_MF_VEC ASM_MF_SHAPED
#define ASM_MF_SHUF ASM_MF_SHAPED
#define ASM_MF_PTRS(X, E, name, n)                                          \
    X(MF_##E, #name, (n) + 1, BCB_MATHS, MF_##E, OC3(-1, -1, -1), NULL,     \
      NULL)                                                                 \
    X(MF_##E##_OUT, #name "_out", n, BCB_MATHS, MF_##E + ASM_MF_OUT,        \
      OC3(-1, -1, -1), NULL, NULL)
#define ASM_MF_PTR ASM_MF_PTRS
#define ASM_MF_PTRI ASM_MF_PTRS
enum { ASM_MF_OUT = 0x1000 };

enum asm_fn {
#define X(E, name, nargs, base, mf, oc, sig, doc) F_##E,
    ASM_FUNCS(X)
#undef X
    F_COUNT,
    F_BI = F_COUNT,   /* a stdlib/builtin.h name: node->bi */
    F_EXT,            /* a declared extern: node->reg is its index */
};
_Static_assert(F_EXT < 256, "node->op holds an enum asm_fn in a byte");

/* Does a call of op do something besides its value (an atomic, an async
 * copy), so that the value may go unused? */
static inline bool asm_fn_effect(unsigned op)
{
    return (op >= F_ATOMIC_ADD && op <= F_ATOM_XOR) || op == F_ASYNC_COPY ||
           op == F_ASYNC_STRIDED_COPY;
}

/* Is op an atomic built-in? Then *f is its function and *atom whether it
 * is the atom_ form. */
static inline bool asm_fn_atomic(unsigned op, enum atomic_fn *f, bool *atom)
{
    if (op < F_ATOMIC_ADD || op > F_ATOM_XOR)
        return false;
    *f = (enum atomic_fn)((op - F_ATOMIC_ADD) / 2);
    *atom = (op - F_ATOMIC_ADD) & 1;
    return true;
}

typedef struct {
    const char *name;
    uint8_t nargs, base;
    int16_t mf;   /* the math function, ASM_MF_OUT for NAME_out; -1 */
    int16_t oc[3];           /* not a math function: OpenCL.std numbers */
    const char *sig, *doc;   /* not a math function: for help */
} asm_fninfo;
extern const asm_fninfo asm_fns[F_COUNT];

/* ---- expression trees ---- */

enum nkind {
    N_LIT,     /* l */
    N_NAME,    /* name: a register */
    N_UNARY,   /* op a */
    N_BINARY,  /* a op b */
    N_COND,    /* a ? b : c */
    N_CAST,    /* (ty) a, ty scalar */
    N_VEC,     /* (ty)(args...), ty a vector */
    N_SWZ,     /* a.name */
    N_INDEX,   /* a[b] */
    N_CALL,    /* name(args...): fn, bi */
    N_PCAST,   /* (ty *) a: a pointer cast, the space kept */
};

/* What checking found a node to be. The flexible classes take their type
 * from the operand or destination they meet (settle.c). */
enum xcls {
    X_VAL,     /* a value of type t, a type the source wrote */
    X_PTR,     /* a pointer to t in space */
    X_VOID,    /* vstore, barrier */
    X_LIT,     /* a number without a type yet; t is its C type */
    X_SIZE,    /* size_t of a work-item function (ulong in OpenCL C), or
                  + - * & | ^ ~ of such and literals */
    X_BOOL,    /* a scalar truth value (1/0): t is the comparison's own
                  signed type; any integer type may take it */
    X_IMPL,    /* a scalar of type t that OpenCL C's implicit conversions
                  chose (int from promoted char/short, double from a float
                  meeting an unsuffixed literal, ...): a destination of the
                  same kind converts it as OpenCL C does (narrow.c) */
};

typedef struct {
    ty_t t;
    uint8_t cls;      /* enum xcls */
    uint8_t space;    /* X_PTR */
    bool cptr;        /* X_PTR: points to const data */
} xty;

/* Is x of a flexible class, whose type is settled by what it meets? */
static inline bool xty_flexible(const xty *x)
{
    return x->cls == X_LIT || x->cls == X_SIZE || x->cls == X_BOOL ||
           x->cls == X_IMPL;
}

/* A range of integer values, [lo, hi], or every value of the type (full:
 * also for ulong values above INT64_MAX). */
typedef struct {
    int64_t lo, hi;
    bool full;
} rng;

typedef struct node node;
struct node {
    uint8_t kind;         /* enum nkind */
    uint8_t op;           /* enum lex_punct; N_CALL: enum asm_fn */
    uint8_t nargs;        /* N_CALL, N_VEC */
    uint8_t bcast;        /* after check: broadcast to this many lanes */
    bool litonly;         /* literals and operators only: foldable */
    bool isconst;         /* after check: the value is vv[] */
    bool parens;          /* written in parentheses */
    bool checked;         /* check_expr() is done: a compound assignment's
                             target is both target and operand */
    bool implicit;        /* N_CAST: inserted by the checker, an OpenCL C
                             implicit conversion (no cast was written) */
    bool ovf;             /* OpenCL C's computation of the node in its
                             own type may overflow (signed: a note) */
    bool cknown;          /* a scalar integer constant, cval (a literal or
                             a const register): shift counts narrow by it */
    bool litdone;         /* litonly: folded once, litv in litt (C's
                             types) */
    uint32_t col, end;    /* source span: columns [col, end) */
    uint32_t height;      /* of the tree below: bounds the recursion */
    node *a, *b, *c;
    node **args;
    const char *name;     /* N_NAME, N_CALL, N_SWZ: the identifier */
    uint32_t nlen;
    lit l;                /* N_LIT */
    bi_desc bi;           /* N_CALL with op F_BI */
    ty_t ty;              /* N_CAST, N_VEC: the type written */
    /* set by check */
    xty x;
    ty_t via;             /* X_BOOL settled to another size: computed in
                             via first, then converted */
    int32_t reg;          /* N_NAME: the register */
    uint8_t sel[16];      /* N_SWZ: component indices; N_CALL: the
                             work-item dimension in sel[0] */
    uint8_t nsel;
    uint64_t vv[16];      /* isconst: element bits */
    rng r;                /* X_IMPL, X_SIZE: the range of C's value */
    uint64_t cval, litv;
    ty_t litt;
};

/* ---- the assembler ---- */

typedef struct {
    uint32_t *slot;   /* pairs: id + 1 (0: empty), hash */
    uint32_t cap, n;
} idmap;

typedef bool (*idmap_eq)(const void *ctx, uint32_t id, const void *key);

enum blk_kind { B_IF, B_ELSE, B_LOOP, B_BLOCK };

enum { ASM_LABEL_MAX = 64 };   /* a label's bytes, with its NUL */

typedef struct {
    uint8_t kind;
    char label[ASM_LABEL_MAX];   /* loop NAME, block NAME; "" if none */
    bool chained;         /* opened by `else if`: closes with its parent */
    uint32_t pc;          /* the IF, ELSE or LOOP instruction */
    uint32_t line, col;   /* where it was opened, for messages */
    char *text;           /* that line, for the message's source echo */
} block;

typedef struct {
    uint32_t line;        /* declared at */
    bool temp;            /* an assembler temporary (_tN) */
    bool busy;            /* ... in use by the current statement */
} regx;

struct asm_ctx {
    FILE *diag;
    char *filename;       /* as given */
    char *file;           /* as #line last set it */
    char *source;         /* the first #line name, else NULL */
    int nerr, nwarn;
    bool stopped;         /* too many errors */
    bool oom;
    bool nofold;          /* convert_/as_ of constants run in the VM (the
                             REPL: notes and profiles apply, and report
                             what would be warned about) */

    /* the current line */
    const char *text;
    size_t tlen;
    uint32_t phys;        /* physical line number */
    uint32_t line;        /* as #line maps it */
    int64_t line_delta;   /* line = phys + delta */
    lex_state lx;
    size_t tp;            /* parser's token */
    unsigned depth;       /* parser recursion */
    bool failed;          /* the statement has reported an error */
    bool semi_noted;      /* the note on ';' was given (once a file) */
    bool line_done;       /* the rest of the line is not read (a C
                             statement the IR lacks, such as 'for') */
    char *cont;           /* a statement continued on the next line */
    size_t ncont;
    uint32_t cont_phys;   /* its first line */
    unsigned cont_lines;
    bool cont_inc;        /* in a block comment where it started */

    /* node arena, reset per statement */
    char **chunks;
    size_t nchunks, used, chunk_cap;

    /* module */
    char *str;
    uint32_t nstr, capstr;
    idmap strmap;
    uint8_t *pool;
    uint32_t npool, cappool;
    idmap poolmap;        /* ids: offset; key: size and bytes */
    uint32_t *pent;       /* entries by id: offset, size, alignment */
    uint32_t npent, cappent;
    bc_kernel *kernels;
    uint32_t nkernels, capkernels;
    bc_extern *ext;       /* extern declarations (kbuild.c); their names */
    char **extn;          /* go in the string table at the end, so
                             their order never depends on where the
                             declarations were (dis prints them first) */
    uint32_t next, capext;
    struct asm_fmt { uint32_t at; char *s; size_t len; } *fmts;
    uint32_t nfmts, capfmts;   /* printf formats of the kernel, interned
                                  at its end (after every register name,
                                  as when dis's output is assembled) */

    /* the kernel being built */
    bool in_kernel;
    bc_kernel k;
    uint32_t capparams, capregs, capcode, caplines;
    regx *rx;
    uint32_t caprx;
    idmap names;          /* register by name */
    idmap consts;         /* constant register by type and pool offset */
    idmap poisoned;       /* unknown names already reported */
    uint32_t ntemp, nconst, nbcast;   /* numbering of _t, _k, _p names */
    uint32_t *tlist;      /* the temporaries */
    uint32_t ntl, captl;
    uint32_t *blist;      /* broadcast parameter registers */
    uint32_t nbl, capbl;
    block *blocks;
    uint32_t nblocks, capblocks;
    uint32_t kline;       /* header line */
    char *ktext;          /* header text, for "never closed" */
};

typedef asm_ctx A;

enum {
    ASM_MAX_ERRORS = 200,
    ASM_MAX_DEPTH = 200,      /* nesting of parentheses and unary ops */
    ASM_MAX_HEIGHT = 1000,    /* height of an expression tree */
    ASM_MAX_TOKENS = 1 << 20, /* per line */
    ASM_MAX_CONT = 64,        /* lines one statement may span */
};

/* diag.c */
enum diag_kind { D_ERROR, D_WARNING, D_NOTE };
void diag_at(A *a, enum diag_kind k, uint32_t line, const char *text,
             size_t tlen, uint32_t col, uint32_t len, const char *fmt,
             va_list ap);
/* On the current line, columns [col, end): */
void asm_error(A *a, uint32_t col, uint32_t end, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void asm_warning(A *a, uint32_t col, uint32_t end, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void asm_note(A *a, uint32_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void asm_error_node(A *a, const node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The candidate nearest to name by edit distance, if close; else NULL. */
const char *diag_nearest(const char *name, size_t len,
                         const char *const *cand, size_t ncand);
/* What a checked node is, for messages: "global const float *", "size_t",
 * "an int literal", "float4". */
char *diag_xty_name(const xty *x, char buf[48]);

/* parse.c */
void *asm_arena_alloc(A *a, size_t size);
void asm_arena_reset(A *a);
void asm_arena_free(A *a);
const tok *parse_peek(A *a);
const tok *parse_peek_at(A *a, size_t ahead);
const tok *parse_next(A *a);
bool parse_accept(A *a, enum lex_punct p);
bool parse_expect(A *a, enum lex_punct p, const char *what);
node *parse_expr(A *a);
/* A fresh node for the checker's rewrites (zeroed, no children). */
node *parse_node(A *a, enum nkind k, uint32_t col, uint32_t end);
node *parse_assign_rhs(A *a);       /* EXPR, or NAME ARG, ARG... */
node *parse_postfix(A *a);          /* an lvalue */
node *parse_call_noparen(A *a, const tok *name); /* NAME ARG, ARG, ... */
/* Is the identifier a built-in function (fn set) or reserved word? */
bool parse_is_func(const char *s, size_t len, enum asm_fn *fn, bi_desc *bi);
bool parse_is_reserved(const char *s, size_t len);
bool parse_is_type(const tok *t, ty_t *ty);
/* Reports an unknown function name, with the nearest known one. */
void parse_unknown_func(A *a, const tok *t, const char *what);

/* check.c */
bool check_expr(A *a, node *n);
/* A checked scalar integer for an index, offset or condition. */
bool check_int_scalar(A *a, node *n, const char *what);

/* settle.c: of checked nodes whose class is flexible */
/* Gives a flexible node type want (a scalar of want's element type,
 * broadcast to a vector want); any other node is left as it is. */
bool settle_type(A *a, node *n, ty_t want);
/* Why OpenCL C gave an implicitly typed node its type, for messages. */
const char *settle_why(const node *n);
/* Settles a flexible node to its own default type. */
bool settle_default(A *a, node *n);
/* Makes a checked node a value of type want (settling flexible classes;
 * a scalar of want's element type is broadcast if bcast). what names the
 * operand for messages. */
bool settle_coerce(A *a, node *n, ty_t want, bool bcast, const char *what);

/* fold.c: constants computed at assembly time, into n->vv */
/* A literal-only tree: its value in C's types (litv, litt), once. */
bool fold_nat(A *a, node *n);
/* ... converted to t as OpenCL C converts it, into n->vv; fold_lit keeps
 * the value (or wraps a negative integer into an unsigned t, as ~0 and -1
 * mean all bits set) or reports; fold_lit_wrap converts modulo 2^N. */
bool fold_lit(A *a, node *n, ty_t t);
bool fold_lit_wrap(A *a, node *n, ty_t t);
/* (T)c and convert_T(c) of a constant c; not folded (a warning says so)
 * where the value is the device's to decide: the VM computes it. */
void fold_cast(A *a, node *n, const node *c);
void fold_convert(A *a, node *n, const node *c);
/* An operation on literal-only operands (n->a, n->b) whose value OpenCL
 * leaves to the device (5 / 0, INT_MIN / -1, signed overflow): warns and
 * returns its notes (then n is kept for run time, on its operands folded
 * to constants); 0 when it folds; -1 after an error. */
int fold_kept(A *a, node *n);
void fold_as(node *n, const node *c);           /* as_T(c) */

/* narrow.c */
rng rng_type(ty_t t);                 /* every value of scalar type t */
rng rng_value(ty_t t, uint64_t v);    /* element bits v of integer t */
bool rng_in(rng r, ty_t t);           /* every value of r fits t */
rng node_rng(const node *n);          /* of a checked scalar */
/* n->r and n->ovf of an implicitly typed operator or implicit cast, from
 * its operands' ranges and its type. */
void rng_set(node *n);
/* A truth value settled to integer type w. */
void narrow_bool(node *n, ty_t w);
/* X_IMPL or X_SIZE scalar n converted to w's element type, of the same
 * kind (integer or floating), as OpenCL C converts it. */
bool narrow_to(A *a, node *n, ty_t w);

/* conv.c: operators, typed with OpenCL C's implicit conversions; the
 * operands are checked (check_expr) */
bool conv_unary(A *a, node *n);
bool conv_binary(A *a, node *n);
bool conv_cond(A *a, node *n);
/* Two checked operands of one type T as select takes them (no promotion;
 * a scalar of T's element type is broadcast). */
bool conv_unify(A *a, node *n, node *l, node *r, const char *op, ty_t *t);
/* Brings the two operands of a binary operator (or the arms of ?:) to one
 * type as OpenCL C does: integer promotion of scalar char/short, the usual
 * arithmetic conversions where the IR makes them (value-preserving ones,
 * and those of constants), an error with OpenCL C's reading where it does
 * not. Sets *t and *cls (X_VAL or X_IMPL) of the operation. */
bool conv_operands(A *a, node *n, node **l, node **r, const char *op,
                   ty_t *t, uint8_t *cls);
/* The scalar operand *p promoted (char/short to int) as OpenCL C does for
 * unary + - ~ and a shift's left operand. */
bool conv_promote(A *a, node **p);
/* An implicit conversion node (T)c, checked. */
node *conv_cast(A *a, node *c, ty_t t);

/* lower.c */
typedef struct {
    uint32_t reg;
    ty_t ty;          /* the type the operand is read as (an as_T view) */
} opnd;
/* Computes n; dst >= 0 names the register that must receive it (same
 * element size and count as n's type). */
bool lower_expr(A *a, node *n, int32_t dst, opnd *o);
bool lower_ptr(A *a, node *n, int32_t dst, uint32_t *reg);
bool lower_cond(A *a, node *n, opnd *o);    /* an IF/BRKIF condition */
bool lower_store(A *a, node *lhs, node *rhs);  /* p[i] = e, v.xy = e */
/* Is n (checked) an element of 8-byte integers, a slot that holds a
 * pointer? q = p[i] (LDP) and p[i] = q (STP) with a pointer register q. */
bool lower_is_slot(const node *n);
bool lower_slot(A *a, node *slot, uint32_t q, bool store);
bool lower_call_stmt(A *a, node *n);
/* The arguments of CALL or PRINTF into w: registers of their own declared
 * type, or pointers (ptr[i]). */
bool lower_args(A *a, node **args, unsigned n, const bool *ptr, uint32_t *w);

/* hostcall.c: the statements `extern ...` (outside kernels) and
 * `printf(...)` */
void hostcall_extern(A *a);
void hostcall_printf(A *a);

/* clause.c: after a parameter, its byval(...) clause if one follows (true
 * if none); false after an error */
bool byval_clause(A *a);
/* After the parameters' ')': the kernel's reqd_work_group_size(X, Y, Z)
 * into a->k.reqd if it follows (true if none); false after an error */
bool reqd_clause(A *a);

/* kbuild.c */
bool kb_module_init(A *a);
void kb_module_free(A *a);
uint32_t kb_str(A *a, const char *s, size_t len);
const char *kb_strat(const A *a, uint32_t off);
bool kb_kernel_begin(A *a, const char *name, size_t len, uint32_t line);
bool kb_kernel_end(A *a);        /* appends it to the module */
void kb_kernel_drop(A *a);
int32_t kb_reg(A *a, const char *name, size_t len, bc_reg r);
int32_t kb_find(A *a, const char *name, size_t len);
bool kb_param(A *a, uint32_t reg);
/* The last parameter is a struct or union passed by value (bc_byval). */
void kb_byval(A *a, bc_byval b);
int32_t kb_temp(A *a, ty_t t);
int32_t kb_ptemp(A *a, const bc_reg *like);   /* a pointer temporary */
void kb_release(A *a, uint32_t reg);
void kb_release_all(A *a);
int32_t kb_const(A *a, ty_t t, const uint64_t *elems);
void kb_note_const(A *a, uint32_t reg);   /* a declared constant */
uint32_t kb_pool(A *a, ty_t t, const uint8_t *bytes);
int32_t kb_bcast(A *a, uint32_t param, ty_t t);
bool kb_emit(A *a, int op, unsigned n, unsigned flags, const uint32_t *w,
             unsigned nw);
uint32_t kb_pc(const A *a);
void kb_patch(A *a, uint32_t at, uint32_t v);
bool kb_poisoned(A *a, const char *name, size_t len);   /* marks it */
void kb_unknown(A *a, const node *n);   /* the error for a name */
const bc_reg *kb_regp(const A *a, uint32_t reg);
const char *kb_regname(const A *a, uint32_t reg);
bool kb_module_take(A *a, bc_module *out);

int64_t kb_map_find(const idmap *m, uint32_t hash, idmap_eq eq,
                   const void *ctx, const void *key);
bool kb_map_add(idmap *m, uint32_t hash, uint32_t id);
void kb_map_clear(idmap *m);
uint32_t kb_hash(const void *p, size_t n, uint32_t h);

/* The module's externs; a kernel's printf formats (s: malloc'd, taken),
 * whose string offsets go into code word at when the kernel ends. */
int32_t kb_extern_find(const A *a, const char *s, size_t len);  /* or -1 */
bool kb_extern_add(A *a, const char *name, size_t len, bc_ctype ret,
                   unsigned np, const bc_ctype *params);
void kb_format_add(A *a, uint32_t at, char *s, size_t len);

/* flow.c: labels of the open blocks (a->blocks) */
/* Reads the label after `loop` or `block` into out ("" if none, unless
 * need); false after an error. */
bool flow_label(A *a, char out[ASM_LABEL_MAX], bool need);
/* The open block that `break NAME` / `continue NAME` names, or -1 after an
 * error. */
int32_t flow_target(A *a, const tok *name, bool brk);
/* The jump to open block target: BREAK, BRKIF or CONT where it is the
 * innermost loop, else BRKTO, BRKTOIF or CONTTO. c: the condition of
 * `break NAME if c` (NULL: none). */
bool flow_jump(A *a, uint32_t target, bool brk, const opnd *c, bool negate);

/* stmt.c */
void stmt_line(A *a);            /* the current line's tokens */
void stmt_finish(A *a);          /* end of input */

/* A BC_INIT_PARAM register wider than its scalar parameter broadcasts it
 * with no instruction per use (0: SPLAT per use instead). */
#ifndef ASM_PARAM_BCAST
#define ASM_PARAM_BCAST 1
#endif

/* Out of memory: reported once, as an error. */
void asm_oom(A *a);

#endif
