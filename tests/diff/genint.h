/* The difftest generator's inside, shared by gen.c (expressions and plain
 * statements) and gensync.c (atomics, async copies, printf): the
 * generator's state and the few helpers gensync.c builds on. */
#ifndef CLVM_DIFF_GENINT_H
#define CLVM_DIFF_GENINT_H

#include "tests/diff/gen.h"

enum { MAXVAR = 10, MAXDECL = 512, MAXBODY = 24, MAXSTMT = 4096 };

typedef struct {
    char *cl, *ir;
} ex;

/* gensync.c's part of the state: what the prologue sets up (local
 * arrays, initial values of atomic targets) and the epilogue writes out. */
enum { DT_NATOM = 4, DT_LSLOTS = 8, DT_MAXINIT = 32 };
typedef struct {
    int nslot[DT_NATOM];                  /* local atomic slots per type */
    char *init_cl[DT_MAXINIT], *init_ir[DT_MAXINIT]; /* run by lid 0 first */
    char *out_cl[DT_MAXINIT], *out_ir[DT_MAXINIT];   /* by lid 0 at the end */
    int ninit, nout;
    int nlocal;                           /* local arrays of async copies */
    int nprintf;                          /* printf statements */
} dt_syncstate;

typedef struct {
    dt_kernel *k;
    uint64_t rng;
    int nvar;
    ty_t vt[MAXVAR];
    int nconst;
    int nout[DT_NBUF];
    int active[8], nactive;   /* loop counters of the enclosing loops */
    int budget;               /* statements left to generate */
    size_t pbytes;            /* the value parameters' bytes so far */
    bool apply;               /* an apply statement's operands: half special */
    int nolit;                /* > 0: no literal operands (PoCL, see convert) */
    int nmath;                /* private arrays of pointer outputs so far */
    dt_syncstate sy;
} gen;

/* Written where the kernel's name goes (printf's formats begin with it). */
#define DT_NAME_MARK '\001'

/* gen.c's helpers (docs in gen.c). */
unsigned dt_rnd(gen *g, unsigned n);
char *dt_str(gen *g, const char *fmt, ...);
ex dt_expr(gen *g, ty_t t, int depth);
ex dt_ilit(gen *g, unsigned s);            /* a random literal of scalar s */
int dt_reserve(gen *g, int b, unsigned stride);
int dt_buf_of(unsigned s);
void dt_decl(gen *g, char *name, char *cl, char *ir);
dt_stmt *dt_line(gen *g, char *cl, char *ir);
dt_stmt *dt_store_at(gen *g, ty_t t, int b, unsigned at, ex e);

/* gensync.c: a statement of its kinds (NULL: none fits here), and the
 * prologue and epilogue they need (NULL: none), both kept by the
 * shrinker. */
dt_stmt *dt_sync_atomic(gen *g);
dt_stmt *dt_sync_async(gen *g);
dt_stmt *dt_sync_printf(gen *g);
dt_stmt *dt_sync_prologue(gen *g);
dt_stmt *dt_sync_epilogue(gen *g);

#endif
