/* Traps (trap.c), private to vm/: recording what stopped a run in a
 * vm_trap, with its one-line message. Every runtime message of the VM is
 * formatted there. */
#ifndef CLVM_TRAP_H
#define CLVM_TRAP_H

#include <stdbool.h>

#include "vm/vm.h"
#include "vm/warp.h"

/* Fills trap->kind and a message "trap: <what>: <detail>" with no
 * location (NDRANGE, ARGS, CODE, NOMEM). */
void vm_trap_set(vm_trap *trap, enum vm_trapkind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Fills trap from a warp stopped by VM_STOP_TRAP or VM_STOP_BUDGET
 * (kind STEPS), message included. */
void vm_warp_trap(const vm_warp *w, enum vm_stop why, vm_trap *trap);

/* A barrier reached by only some warps of a group: w (just past its
 * BARRIER) is the lowest warp waiting, o the lowest one elsewhere, which
 * finished or waits at another barrier. Puts w back on its BARRIER,
 * records the fault in w and fills trap. */
void vm_trap_barrier(vm_warp *w, const vm_warp *o, bool finished,
                     vm_trap *trap);

#endif
