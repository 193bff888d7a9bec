/* The scheduler (sched.c), private to vm/: which warp of a work-group runs
 * next, resumably, so that vm_run (run.c) runs groups through it at full
 * speed and the debugger (debug.c) one instruction at a time, the same way.
 *
 * Warps run in order, each until it finishes or waits at a barrier. Without
 * barriers one context serves the warps in turn; with them each warp has
 * its own, and the group runs in rounds: when every warp waits at the same
 * barrier, all go on; when some finished or wait elsewhere, that is a trap
 * (BARRIER) at the lowest waiting warp. */
#ifndef CLVM_SCHED_H
#define CLVM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "vm/vm.h"
#include "vm/warp.h"

typedef struct {
    vm_group *g;
    uint32_t cur;          /* the warp context running: g->w[cur] */
    uint32_t warpno;       /* one context (no barriers): the warp in it */
    uint32_t end;          /* ... and the warp after the last to run */
    bool held;             /* several work-groups run as one (r.split) and
                              one trapped: its trap, reported when the
                              earlier groups' work-items are done */
    vm_trap trap;
} vm_sched;

/* What vm_sched_run stopped at. */
enum vm_event {
    VM_EV_RAN,             /* the budget is spent; the warp goes on */
    VM_EV_WARP,            /* another warp is current: one that starts, or
                              one going on after a barrier */
    VM_EV_GROUP,           /* every warp of the group finished */
    VM_EV_TRAP,            /* trap filled; g->w[cur] is the warp it names */
};

/* Makes g work-group `linear`, with its first warp current. */
void vm_sched_start(vm_sched *s, vm_group *g, uint64_t linear);
/* The same for warps w0..w1 - 1 of it alone, where one context serves
 * them (no barriers) and nothing else tells its warps apart (run.c). */
void vm_sched_part(vm_sched *s, vm_group *g, uint64_t linear, uint32_t w0,
                   uint32_t w1);

/* Runs the current warp for at most budget instructions (and no more than
 * its max_steps in all: a warp that has spent them traps STEPS here). */
enum vm_event vm_sched_run(vm_sched *s, uint64_t budget, vm_trap *trap);

#endif
