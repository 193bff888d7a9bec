/* Running a verified module: arguments, the NDRange, traps. */
#ifndef CLVM_VM_H
#define CLVM_VM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/bytecode.h"

/* One kernel argument. For a pointer parameter: a buffer (global/constant:
 * data/size, owned by the caller and written in place) or, for a local
 * pointer, just a size. For a value parameter: its bytes (ty_sizeof of the
 * parameter's type, host order). */
typedef struct {
    uint8_t *data;
    uint64_t size;
} vm_arg;

/* The NDRange, as OpenCL 1.2 has it: every global size a multiple of its
 * local size. Dimensions past dims are ignored (size 1, offset 0).
 * A local size of 0 lets clvm choose: in dimension 0 the largest divisor of
 * the global size that is at most 256, in the others 1. A work-group holds
 * at most 4096 work-items (VM_MAX_GROUP). */
typedef struct {
    unsigned dims;            /* 1..3 */
    uint64_t global[3];
    uint64_t local[3];        /* 0: clvm chooses */
    uint64_t offset[3];
    unsigned threads;         /* 0: all cores */
    unsigned warp;            /* lanes per warp, 1..64; 0: default (64) */
    uint64_t max_steps;       /* per warp; 0: VM_DEFAULT_MAX_STEPS */
    struct vm_natives *natives; /* bound host functions (vm/native.h);
                                   NULL: none */
    FILE *out;                /* printf output; NULL: stdout */
    uint8_t profile;          /* enum prof_id (stdlib/profile.h); 0: clvm */
    bool warn_impl;           /* count the implementation-defined cases */
    bool races;               /* trap on data races (docs/semantics.md);
                                 also under the strict profile; the groups
                                 then run on one thread */
    struct vm_warnings *warnings; /* warn_impl: filled by vm_run if set */
} vm_ndrange;

/* --warn-impl: one per instruction and case (note) that happened, in
 * instruction order, with how many work-items hit it over the run and the
 * first (lowest group, then execution order). After a trap, the groups up
 * to the trapping one count, whatever the thread count. */
typedef struct {
    uint32_t kernel, pc, line;
    uint8_t note;             /* enum note_id */
    uint64_t count;
    uint64_t gid[3];
} vm_warning;
typedef struct vm_warnings {
    vm_warning *v;            /* malloc'd: free(v) */
    size_t n;
} vm_warnings;

#define VM_DEFAULT_MAX_STEPS 100000000u
#define VM_MAX_GROUP 4096u    /* work-items per work-group at most */

#define VM_TRAPS(X)                                                     \
    X(BOUNDS,   "out-of-bounds access")                                 \
    X(ALIGN,    "misaligned access")                                    \
    X(BARRIER,  "barrier not reached by every work-item of the group")  \
    X(STEPS,    "step limit exceeded")                                  \
    X(NDRANGE,  "bad NDRange")                                          \
    X(ARGS,     "bad kernel arguments")                                 \
    X(NOMEM,    "out of memory")                                        \
    X(CODE,     "invalid bytecode")                                     \
    X(IMPL,     "implementation-defined result (strict profile)")       \
    X(ASYNC,    "async copy misused")                                   \
    X(RACE,     "data race")

enum vm_trapkind {
    VM_OK,
#define X(E, msg) VM_TRAP_##E,
    VM_TRAPS(X)
#undef X
};

/* What went wrong and where; filled when vm_run returns non-zero. */
typedef struct {
    enum vm_trapkind kind;
    uint32_t kernel, pc, line;
    uint64_t gid[3];
    bool has_addr;
    uint64_t addr, len;       /* bytes the access touched: first byte's
                                 offset in the buffer (modulo 2^64, so
                                 below the start is "negative") and count */
    int param;                /* the buffer's parameter index, or -1 */
    uint64_t bufsize;
    char msg[1024];           /* the full one-line message */
} vm_trap;

const char *vm_trap_name(enum vm_trapkind k);

/* One line for the instruction at word pc of kernel k of a verified
 * module: "VSTORE_B32 vy, i, y" (registers by name), or "end of kernel"
 * for pc past the code. */
void vm_ins_text(const bc_module *m, const bc_kernel *k, uint32_t pc,
                 char *buf, size_t len);

/* Runs kernel k of a verified module over the NDRange. Returns 0, or the
 * trap kind (trap filled, if not NULL). A work-group runs on one thread as
 * warps of `warp` work-items in lockstep. When several work-items trap, the
 * one reported is in the lowest-numbered trapping work-group (linear
 * order, dimension 0 fastest), whatever `threads`: within it, the first to
 * trap in execution order (warps run in order, each until it finishes or
 * waits at a barrier), and of the lanes of its warp that trap on that
 * instruction the lowest. After a trap, buffers hold whatever the groups
 * that ran wrote. Work-groups smaller than a warp, where no barrier, local
 * memory, atomic, async copy or printf could tell, run several to a warp
 * (neighbours in dimension 0), each work-item still seeing its own group's
 * ids; a trap is then found as above, the groups after the trapping one
 * having run in part. Memory accesses of one instruction happen in lane order,
 * after all of them were checked. On x86-64 the handlers use AVX-512 or AVX2
 * when the host has it (AVX2 on AMD family 19h, where it measured faster);
 * the environment variable CLVM_ISA=avx2 stops at AVX2, CLVM_ISA=base uses
 * neither, CLVM_ISA=avx512 takes AVX-512 wherever the host has it. */
int vm_run(const bc_module *m, uint32_t k, vm_arg *args,
           const vm_ndrange *nd, vm_trap *trap);

/* Starts the worker threads a vm_run with `threads` (0: every core) uses,
 * ahead of it, instead of in it; they are kept for every later vm_run, and
 * an idle one polls a few milliseconds for work before it sleeps. */
void vm_threads_start(unsigned threads);

#endif
