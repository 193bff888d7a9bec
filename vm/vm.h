/* Running a verified module: arguments, the NDRange, traps. */
#ifndef CLVM_VM_H
#define CLVM_VM_H

#include <stdbool.h>
#include <stdint.h>

#include "bytecode.h"

/* One kernel argument. For a pointer parameter: a buffer (global/constant:
 * data/size, owned by the caller and written in place) or, for a local
 * pointer, just a size. For a value parameter: its bytes (ty_sizeof of the
 * parameter's type, host order). */
typedef struct {
    uint8_t *data;
    uint64_t size;
} vm_arg;

typedef struct {
    unsigned dims;            /* 1..3 */
    uint64_t global[3];
    uint64_t local[3];        /* 0: clvm chooses */
    uint64_t offset[3];
    unsigned threads;         /* 0: all cores */
    unsigned warp;            /* lanes per warp, 1..64; 0: default (64) */
    uint64_t max_steps;       /* per warp; 0: VM_DEFAULT_MAX_STEPS */
} vm_ndrange;

#define VM_DEFAULT_MAX_STEPS 100000000u

#define VM_TRAPS(X)                                                     \
    X(BOUNDS,   "out-of-bounds access")                                 \
    X(ALIGN,    "misaligned access")                                    \
    X(BARRIER,  "barrier not reached by every work-item of the group")  \
    X(STEPS,    "step limit exceeded")                                  \
    X(NDRANGE,  "bad NDRange")                                          \
    X(ARGS,     "bad kernel arguments")                                 \
    X(NOMEM,    "out of memory")

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
    uint64_t addr, len;       /* bytes the access touched */
    int param;                /* the buffer's parameter index, or -1 */
    uint64_t bufsize;
    char msg[256];            /* the full one-line message */
} vm_trap;

const char *vm_trap_name(enum vm_trapkind k);

/* Runs kernel k over the NDRange. Returns 0, or the trap kind (trap
 * filled). When several work-items trap, the one reported is the first in
 * NDRange order (lowest group, then lowest local id), whatever `threads`. */
int vm_run(const bc_module *m, uint32_t k, vm_arg *args,
           const vm_ndrange *nd, vm_trap *trap);

#endif
