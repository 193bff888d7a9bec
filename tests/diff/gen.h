/* The difftest kernel generator: one random kernel per seed, written both
 * as OpenCL C and as clvm IR (docs/difftest.md gives the rules). */
#ifndef CLVM_DIFF_GEN_H
#define CLVM_DIFF_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stdlib/types.h"

/* The buffers every generated kernel takes, in parameter order: one input
 * and one output per scalar type. X(suffix, enum ty_scalar) */
#define DT_BUFS(X)                                                      \
    X(c, TY_CHAR) X(uc, TY_UCHAR) X(s, TY_SHORT) X(us, TY_USHORT)      \
    X(i, TY_INT) X(ui, TY_UINT) X(l, TY_LONG) X(ul, TY_ULONG)          \
    X(h, TY_HALF) X(f, TY_FLOAT) X(d, TY_DOUBLE)

enum { DT_NBUF = TY_NSCALAR };  /* DT_BUFS names every scalar once */

enum {
    DT_ITEMS = 64,  /* work-items per run */
    DT_NIN = 48,    /* input elements per work-item and type (1..16 and 3 divide it) */
    DT_NOUT = 192,  /* output elements per work-item and type */
    DT_LOCAL = 16,  /* work-items per work-group */
};

/* By-value kernel parameters, after the buffers: at most DT_MAXPARAM,
 * DT_PARAM_BYTES in all (well inside OpenCL 1.2's minimum
 * CL_DEVICE_MAX_PARAMETER_SIZE of 1024 with the 22 pointers). */
enum { DT_MAXPARAM = 16, DT_PARAM_BYTES = 640 };

typedef struct {
    ty_t type;
    unsigned flags;   /* what every component satisfies (gen.c's LF_*) */
    size_t size;      /* ty_sizeof(type): a 3-vector has 4 lanes */
    uint8_t *bytes;   /* the value as the kernel argument holds it */
} dt_param;

/* A statement: a line (or a few) in each language, or a block. */
enum dt_kind { DT_LINE, DT_IF, DT_WHILE, DT_BREAKIF, DT_CONTIF };

typedef struct dt_stmt dt_stmt;
struct dt_stmt {
    enum dt_kind kind;
    char *cl, *ir;          /* the line; for blocks, the condition */
    int counter;            /* DT_WHILE: its counter register */
    dt_stmt **body, **els;  /* DT_IF: then/else; DT_WHILE: body */
    int nbody, nels;
    bool dead;              /* dropped by the shrinker */
    bool keep;              /* never dropped: a prologue or epilogue */
};

/* An output element a math built-in wrote (fn + 1; 0: any other
 * element, compared bit for bit): tests/diff/accuracy.h says how near
 * the two results must be (integer outputs, frexp's exponent, remquo's
 * quotient, ilogb: exactly, but for PoCL's faults). n: the call's vector
 * width; second: the pointer output (sincos's cosine, modf's integral
 * part, ...). */
typedef struct {
    int16_t fn1;
    uint8_t n, second;
    bool dbl; /* a double call (an int output does not say) */
} dt_math;

typedef struct {
    uint64_t seed;
    char name[32];
    int ndecl;
    char **decl_cl, **decl_ir; /* declarations: constants, variables */
    char **decl_name;          /* each declaration's register name */
    int ncounter;
    dt_stmt **top;
    int ntop;
    int nstmt;                 /* every statement, pre-order */
    dt_stmt **all;
    int nparam;                /* parameter i is named p<i> */
    dt_param param[DT_MAXPARAM];
    uint8_t *in[DT_NBUF];      /* DT_ITEMS * DT_NIN elements each */
    dt_math math[DT_NBUF][DT_NOUT]; /* per output element of a work-item */
    bool atom64;               /* uses cl_khr_int64_base/extended_atomics */
    bool prints;               /* has printf statements: output compared */
    void *pool;                /* the kernel's allocations */
} dt_kernel;

/* Generates kernel `index` of run `seed`; the same pair gives the same
 * kernel and inputs. */
void dt_generate(dt_kernel *k, uint64_t seed, uint64_t index);
void dt_free(dt_kernel *k);

/* The kernel's text in each language, without dead statements and
 * without declarations nothing uses. Its parameters are the 2 * DT_NBUF
 * buffers, then the value parameters dt_params_used gives, in index
 * order. Returns a malloc'd string. */
char *dt_render_cl(const dt_kernel *k);
char *dt_render_ir(const dt_kernel *k);

/* The value parameters the live statements use: bit i for p<i>. */
uint32_t dt_params_used(const dt_kernel *k);

extern const char *const dt_buf_suffix[DT_NBUF];
extern const uint8_t dt_buf_scalar[DT_NBUF];

#endif
