/* The state of a run, private to vm/: the resolved NDRange (vm_range), a
 * kernel decoded once per run (vm_prog, vm_ins), one work-group
 * (vm_group) and its warps (vm_warp), and their lifecycle (group.c).
 *
 * A warp runs W work-items in lockstep until it finishes, reaches a
 * barrier, traps or spends its budget (vm_warp_run, interp.c); sched.c
 * decides which warp runs next.
 *
 * Registers live per warp in SoA layout: component r of register x, lane l,
 * is element r * W + l at byte offset regoff[x]; a 3-vector has 4 rows. A
 * pointer register holds W 64-bit byte offsets followed by W 32-bit buffer
 * ids (an index into the warp's bufs[]; 0 is the null buffer). */
#ifndef CLVM_WARP_H
#define CLVM_WARP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stdlib/convert.h"
#include "stdlib/profile.h"
#include "vm/bytecode.h"
#include "vm/fuse.h"
#include "vm/vm.h"

enum {
    VM_MAXW = 64,          /* lanes per warp at most (one uint64_t mask) */
    VM_LOCAL_CHOICE = 256, /* local size 0: dimension 0 gets at most this */
};

/* The NDRange after validation: unused dimensions have global = local = 1
 * and offset 0. */
typedef struct {
    unsigned dims;
    uint64_t global[3], local[3], offset[3], groups[3];
    uint64_t ngroups;      /* product of groups[] */
    uint64_t split;        /* NDRange work-groups per scheduled one: vm_run
                              runs `split` neighbours in dimension 0 as one
                              (run.c, merge); local[0] and groups[0] are the
                              scheduled sizes, the kernel sees local[0] /
                              split and groups[0] * split */
    uint32_t group_size;   /* product of local[] */
    uint32_t warp;         /* W: lanes per warp, min(requested, group) */
    uint32_t nwarps;       /* warps per work-group */
    unsigned threads;      /* min(threads, groups): vm_run may raise it
                              to asked where it runs a group's warps
                              apart (run.c, apart) */
    unsigned asked;        /* the threads asked for (--threads N), else
                              threads: a default run never wakes more
                              helpers than it has groups (a helper's
                              wake-up costs more than a small run) */
    uint64_t max_steps;
    struct vm_natives *natives; /* from vm_ndrange */
    FILE *out;
    uint8_t profile;       /* enum prof_id, from vm_ndrange */
    bool races;            /* vm_ndrange.races or the strict profile */
    bool warn_impl;
    bool debug;            /* the REPL steps it: every instruction as
                              written (no fused pairs) */
} vm_range;

/* Validates nd (trap filled with VM_TRAP_NDRANGE on error): range.c. */
int vm_range_resolve(const vm_ndrange *nd, vm_range *r, vm_trap *trap);
/* nd for kernel k of m into *out: a kernel with reqd_work_group_size runs
 * with that local size (nd's 0s take it, anything else traps). */
int vm_range_reqd(const bc_module *m, uint32_t k, const vm_ndrange *nd,
                  vm_ndrange *out, vm_trap *trap);

/* A buffer as a warp sees it; lane l's bytes start at data + l * lstride
 * (private arrays; 0 for buffers the lanes share). */
/* The race detector's shadow of one aligned 4-byte granule of a global or
 * local buffer (race.c): the work-item that alone accessed it (item: 1 +
 * its number in the run, group * group size + local linear id; 0: none),
 * the barrier interval it did so in, and info (race.c: read or write, the
 * bytes, the instruction); item UINT32_MAX: the granule is kept byte by
 * byte, in race.c's records, and ep says where. */
typedef struct {
    uint32_t item, ep, info;
} vm_gran;
struct vm_racepool;
typedef struct {
    uint8_t *data;
    uint64_t size;
    uint64_t lstride;
    vm_gran *shadow;       /* races: the buffer's granules (global and
                              local buffers; race.c), else NULL */
} vm_buf;

/* Where a buffer comes from. */
typedef struct {
    uint32_t reg;          /* its register: a pointer parameter or an array */
    int param;             /* parameter index, or -1 */
    uint8_t space;         /* enum bc_space */
    uint64_t size;         /* bytes (per work-item for private arrays) */
    uint64_t off;          /* offset in the group's local block or in the
                              warp's private block (per lane) */
} vm_bufinfo;

/* Widens W index values of one integer type to 64 bits (sign- or
 * zero-extended as the register's type says, as C converts to size_t). */
typedef void (*vm_widen)(uint64_t *dst, const uint8_t *src, uint32_t w);

/* Internal opcodes after the real ones: the end of the code, and an
 * instruction run element by element for its notes (see decode.c). */
/* XOP_RACE (--check races): a memory op whose access race.c checks first;
 * note_op is the op, which runs next. XOP_FUSE + k: the first of pair k of
 * vm/fuse.h, which runs the pair (note_op: the first op alone). */
enum { XOP_END = BC_NOPS, XOP_NOTE, XOP_RACE, XOP_FUSE,
       XOP_COUNT = XOP_FUSE + VM_NFUSE };
#define XOP_F(N1, S1, N2, S2)                                               \
    XOP_F_##N1##S1##_##N2##S2 = XOP_FUSE + VM_FUSE_##N1##S1##_##N2##S2,
enum { FUSE_PAIRS(XOP_F) };
#undef XOP_F

/* The opcode an instruction runs (XOP_NOTE, XOP_RACE and XOP_FUSE keep
 * theirs in note_op). */
#define VM_REAL_OP(I) ((I)->op > XOP_END ? (I)->note_op : (I)->op)

/* The multiply-add shape (stdlib/profile.h) of MAD, CMAD and XMAD. */
static inline enum prof_fuse vm_fuse_shape(unsigned base)
{
    return base == BCB_CMAD ? PF_EXPR : base == BCB_XMAD ? PF_STMT : PF_MAD;
}

/* vm_ins.uni: which of the operands a, b, c are row-uniform; and for a
 * scalar comparison whose result the next instruction (IF, BRKIF,
 * BRKTOIF) branches on, VM_TALLY: it counts the lanes it makes true into
 * vm_warp.tally, and on that branch VM_TALLIED: the count is its c's. */
/* On a fused pair (XOP_FUSE), VM_UNI_B is its first op's b, VM_UNI_C the
 * second op's other operand (in c), and VM_KEEP: something may read t, so
 * the pair stores it. */
enum { VM_UNI_A = 1, VM_UNI_B = 2, VM_UNI_C = 4, VM_TALLY = 8,
       VM_TALLIED = 16, VM_KEEP = 32 };

/* A decoded instruction: everything the handler needs, resolved once. */
typedef struct {
    const void *label;     /* computed-goto target (unused by the switch) */
    uint16_t op;           /* enum bc_op, or an XOP_* */
    uint8_t n, flags;      /* components, BC_F_* */
    uint16_t note_op;      /* XOP_NOTE, XOP_RACE: the instruction's own
                              opcode, whose handler runs after the check
                              (vmredo) or, for XOP_NOTE, when no element
                              can raise a note (vm_note_quiet); a CVT's
                              conversion is then in j */
    uint8_t es;            /* element size of the destination (CVT) */
    uint8_t uni;           /* VM_UNI_* bits: the source registers that
                              are never written, so that each of their
                              rows holds one value in every lane for the
                              whole run (the elementwise handlers read it
                              once per row); memory ops, PADD: VM_UNI_A,
                              the pointer register (mem_row) */
    uint32_t pc;           /* word index in the bytecode, for messages */
    uint32_t cnt;          /* elements an elementwise op touches: rows * W */
    uint32_t d, a, b, c;   /* register byte offsets; memory ops: d the
                              value, a the pointer, b the index */
    uint32_t j;            /* jump target, an index into ins[] */
    uint32_t rows;         /* memory ops: components moved per lane */
    uint32_t len, align;   /* memory ops: bytes touched, alignment needed */
    uint64_t stride;       /* memory ops, PADD: bytes per index step */
    uint64_t imm;          /* SWZ/SWW indices; comparison true value; SELECT
                              deciding bits; work-item dimension; AS types;
                              IF: j is an ELSE */
    cv_fn cv;              /* CVT */
    vm_widen widen;        /* memory ops, PADD: the index loader */
} vm_ins;

/* Why a warp stopped running. */
enum vm_stop { VM_STOP_DONE, VM_STOP_BARRIER, VM_STOP_TRAP, VM_STOP_BUDGET };

typedef struct vm_warp vm_warp;

/* A dispatch loop (vm/loop_*.c: one per instruction-set level). */
typedef enum vm_stop (*vm_runfn)(vm_warp *w, uint64_t budget,
                                 const void *const **tab);

/* A kernel ready to run over one NDRange with one set of arguments. */
typedef struct {
    vm_runfn run;          /* the dispatch loop for this host */
    const bc_module *m;
    const bc_kernel *k;
    uint32_t kidx;
    vm_range r;
    vm_arg *args;
    vm_ins *ins;           /* the decoded code, ending with an XOP_END */
    uint32_t nins;
    uint32_t *regoff;      /* byte offset of each register in the file */
    uint32_t *pcins;       /* word pc -> instruction index (ncode + 1) */
    size_t filesize;       /* register file bytes per warp */
    size_t resetsize;      /* leading bytes reset at each warp start: the
                              registers the code may read before it writes
                              them (see need_reset in decode.c) */
    size_t writtensize;    /* leading bytes of every register the code
                              writes (resetsize <= writtensize) */
    bool fresh;            /* reset writtensize bytes instead, so that a
                              debugger shows no value of an earlier warp */
    uint8_t *tmpl;         /* the register file a warp starts with */
    vm_gran **shadow;      /* races: per buffer id, the global ones'
                              granules (race.c), else NULL */
    struct vm_racepool *rpool; /* races: global bytes kept byte by byte */
    vm_bufinfo *bufs;      /* [0] is the null buffer */
    uint32_t nbufs;
    uint64_t local_bytes;  /* per work-group */
    uint64_t private_bytes;/* per work-item */
    uint32_t depth;        /* deepest IF/LOOP nesting */
    bool barrier;          /* has a BARRIER */
    bool printf;           /* has a PRINTF */
    uint64_t big;          /* buffer ids (< 64) of the global buffers of
                              32 MiB or more (run.c's bigs) */
    uint64_t stream;       /* those whose full-warp rows are stored past
                              the caches (run.c) */
    uint8_t profile;       /* enum prof_id: r.profile. The instructions
                              that may hit an implementation-defined case
                              the profile (or warn_impl, or strict) must
                              see are decoded as XOP_NOTE, which runs them
                              element by element: the others keep their
                              fast handlers */
} vm_prog;

/* One level of the mask stack. */
typedef struct {
    uint64_t join;         /* lanes that go on after the block */
    uint64_t other;        /* IF: lanes waiting for ELSE; LOOP: lanes that
                              continued */
    uint32_t target;       /* where lanes that all left resume: the ELSE or
                              ENDIF, or the ENDLOOP */
    uint32_t loop;
} vm_frame;

enum vm_barwhy {
    VM_BAR_MISSING,        /* `other` did not arrive with its warp */
    VM_BAR_FINISHED,       /* `other` finished without reaching it */
    VM_BAR_ELSEWHERE,      /* `other` waits at the barrier at other_pc */
};

enum vm_asyncwhy {
    VM_AS_DIVERGE,         /* `other` is in the warp but not here */
    VM_AS_ARGS,            /* `other` passes other operands */
    VM_AS_MISSING,         /* `other` never reached the copy */
    VM_AS_NOWAIT,          /* `other` did not wait for its event */
    VM_AS_EVENT,           /* waits for event opnd[0], not its own */
    VM_AS_EVIN,            /* the event operand opnd[0] is no earlier
                              event of the group */
};

/* An async copy of a work-group (async.c): the first warp to reach it
 * copies; the work-items that reached it and that waited for its event
 * are bits (by local linear id) in the group's copybits. */
typedef struct {
    uint32_t ins;          /* its instruction, index into P->ins */
    uint32_t first;        /* local linear id of the first to reach it */
    uint64_t op[7];        /* dst offset, dst buffer, src offset, src
                              buffer, count, stride, event operand */
    uint32_t event;        /* the event it returned */
} vm_copy;

/* What stopped a warp with VM_STOP_TRAP. */
typedef struct {
    enum vm_trapkind kind;
    uint32_t lane;         /* the work-item that trapped */
    uint32_t other;        /* BARRIER: a work-item of the group that is not
                              there (local linear id) ... */
    uint32_t buf;          /* BOUNDS/ALIGN: buffer id */
    uint64_t addr, len, align;
    uint8_t barwhy;        /* ... and why (enum vm_barwhy; ASYNC: enum
                              vm_asyncwhy) */
    uint32_t other_pc;
    uint8_t note;          /* IMPL: the case (enum note_id) ... */
    uint32_t comp;         /* ... the component ... */
    uint64_t opnd[3];      /* ... and its operands' bits */
} vm_fault;

typedef struct vm_group vm_group;

struct vm_warp {
    uint8_t *R;            /* register file, 64-byte aligned */
    const vm_prog *P;
    vm_group *g;
    vm_buf *bufs;          /* P->nbufs */
    uint8_t *priv;         /* private arrays of the W lanes */
    uint8_t *scratch;      /* 16 rows of W 8-byte elements, and more */
    vm_frame *stack;
    uint32_t sp;
    uint32_t ip;           /* next instruction, index into P->ins */
    uint64_t exec;         /* lanes running (0: the warp is done) */
    uint64_t all;          /* lanes that exist (the last warp of a group may
                              be partial) */
    uint64_t steps;        /* instructions dispatched */
    uint32_t index;        /* warp number in its group */
    uint32_t base;         /* local linear id of lane 0 */
    uint32_t lanes;        /* lanes that exist */
    uint32_t barriers;     /* barriers passed */
    uint32_t fenced[2];    /* of those, the ones that fence local [0] and
                              global [1] memory: race.c's intervals */
    uint32_t copies;       /* async copies reached (async.c) */
    uint64_t lm_for;       /* exec mask the lane masks were built for */
    uint64_t *lm64;        /* per lane: all ones if active (for blends) */
    uint32_t *lm32;
    uint16_t *lm16;
    uint8_t *lm8;
    vm_fault fault;
    uint8_t *mp[VM_MAXW];  /* memory ops: each lane's first byte (only
                              mp[0] after a dense check: see LANEP) */
    unsigned notes;        /* OR of the enum note bits XOP_NOTE
                              instructions raised since someone cleared it
                              (the debugger, around a step) */
    uint32_t tally;        /* VM_TALLY: of the W lanes the comparison
                              computed, those it made true */
    uint32_t note_ip;      /* the instruction (index into P->ins) that
                              raised one last */
};

/* One work-item's printf output so far (its output unit), at most
 * VM_PRINTF_MAX bytes (more traps with NOMEM). */
enum { VM_PRINTF_MAX = 1 << 20 };
typedef struct {
    char *buf;
    size_t len, cap;
} vm_pout;

struct vm_group {
    const vm_prog *P;
    vm_pout *pout;         /* per local linear id; NULL without PRINTF */
    uint8_t *local;        /* local memory of the work-group */
    uint32_t nctx;         /* warp contexts: nwarps if the kernel has
                              barriers, else 1 (reused warp after warp) */
    vm_warp *w;
    uint64_t linear;       /* linear group index */
    uint64_t id[3];        /* group id */
    /* warn_impl: per instruction x note, work-items that hit it in this
     * group and the first of them (local linear id); `touched` lists the
     * slots (ins * NOTE_COUNT + note) that are non-zero, ntouched long */
    uint64_t *ncount;
    uint32_t *nfirst, *touched, ntouched;
    vm_gran *lshadow;      /* races: the local memory's granules and */
    struct vm_racepool *lpool; /* bytes (race.c), cleared per group */
    vm_copy *copy;         /* the group's async copies so far */
    uint32_t ncopy, capcopy;
    uint64_t *copybits;    /* per copy: reached, then waited (words each) */
    uint32_t words;        /* uint64_t words of a work-item bit set */
};

/* ---- group.c: work-groups and warps ---- */

/* Memory for running one work-group at a time; NULL if out of memory. */
vm_group *vm_group_new(const vm_prog *p);
void vm_group_free(vm_group *g);

/* Makes g work-group `linear` (zeroes its local memory). */
void vm_group_start(vm_group *g, uint64_t linear);

/* Writes the output units of g's work-items to out in local linear id
 * order and empties them. */
void vm_group_flush(vm_group *g, FILE *out);

/* Makes w (one of g->w) warp `index` of g's group, at its first
 * instruction, with fresh private memory and registers: those the code
 * always writes before reading keep an earlier warp's values until then,
 * unless P->fresh. */
void vm_warp_start(vm_warp *w, uint32_t index);

/* Register x's storage in w: rows of W elements (3-vectors have 4 rows;
 * pointers: W uint64_t offsets then W uint32_t buffer ids). */
void *vm_warp_reg(vm_warp *w, uint32_t x);

/* Bytecode pc of the warp's next instruction. */
uint32_t vm_warp_pc(const vm_warp *w);

/* Global id of lane l of w, and of the work-item with local linear id lin
 * in g's group. */
void vm_warp_gid(const vm_warp *w, uint32_t l, uint64_t gid[3]);
void vm_group_gid(const vm_group *g, uint64_t lin, uint64_t gid[3]);

/* ---- async.c: async copies ---- */

/* ACOPY/ACOPYS and WAITEV for the active lanes: 0, or -1 with w->fault
 * filled. */
int vm_async_copy(vm_warp *w, const vm_ins *I, uint64_t exec);
int vm_async_wait(vm_warp *w, const vm_ins *I, uint64_t exec);
/* At the end of g's group: every work-item reached each copy and waited
 * for its event? 0, else -1 with a warp of g trapped (t filled). */
int vm_async_end(vm_group *g, vm_trap *t);

/* ---- race.c: the data race detector ---- */

/* The bits (by local linear id) of the work-items of g that reached copy
 * c (waited false) or waited for its event (true). */
static inline uint64_t *vm_copybits(const vm_group *g, uint32_t c,
                                    bool waited)
{
    return g->copybits + ((size_t)c * 2 + waited) * g->words;
}

/* VM_RACE_ATOMIC_READ: an atomic that writes nothing (a failed cmpxchg);
 * the COPY ones: an async copy's (the trap's words, trap.c) */
enum { VM_RACE_READ, VM_RACE_WRITE, VM_RACE_ATOMIC, VM_RACE_ATOMIC_READ,
       VM_RACE_COPY_READ, VM_RACE_COPY_WRITE };
/* vm_fault.barwhy of a NOMEM trap of the race check's */
enum { VM_NOMEM_RACE = 1 };
/* Shadow memory of P's global buffers: 0, or the kind of trap, why (n
 * bytes) saying what: NOMEM without memory or with more work-items or
 * instructions than its records name, ARGS for buffers that share memory
 * part of a block apart. */
int vm_race_prog(vm_prog *P, char *why, size_t n);
void vm_race_prog_free(vm_prog *P);
/* g's local memory's (cleared by vm_race_group_start); false without
 * memory. */
bool vm_race_group_new(vm_group *g);
void vm_race_group_start(vm_group *g);
/* local buffer b's blocks in g's shadow: NULL when races are off */
vm_gran *vm_race_local_shadow(const vm_group *g, uint32_t b);
void vm_race_group_free(vm_group *g);
/* XOP_RACE: the active lanes' access of memory op I, checked before it
 * runs (lanes out of bounds or misaligned are its to trap: nothing is
 * checked then); ATOM: the access of lanes exec (kind VM_RACE_ATOMIC or
 * _ATOMIC_READ). 0, or -1 with w->fault filled (RACE, NOMEM). */
int vm_race_mem(vm_warp *w, const vm_ins *I, uint64_t exec);
/* vm_race_mem of a full warp whose lanes access consecutive elements of
 * one buffer from p on (lane l's at p + l * I->stride), in bounds. */
int vm_race_row(vm_warp *w, const vm_ins *I, const uint8_t *p);
int vm_race(vm_warp *w, const vm_ins *I, uint64_t exec, int kind);
/* The async copy of instruction I (copy number c of the group), made by
 * lane l of w: n elements of es bytes, read from src byte s of buffer sb
 * with a stride of ss elements, written to byte d of buffer db with a
 * stride of ds. 0, or -1 with w->fault filled. */
typedef struct {
    uint32_t db, sb;
    uint64_t d, s, ds, ss, n, es;
} vm_copyspan;
int vm_race_copy(vm_warp *w, const vm_ins *I, uint32_t l, uint32_t c,
                 const vm_copyspan *x);

/* ---- interp.c: running the dispatch loop ---- */

/* Runs w for at most budget instructions. After VM_STOP_BARRIER, w->ip is
 * past the barrier; after VM_STOP_TRAP it is the trapping instruction and
 * w->fault says what happened; after VM_STOP_BUDGET it is the next
 * instruction. */
enum vm_stop vm_warp_run(vm_warp *w, uint64_t budget);

#endif
