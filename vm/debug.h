/* Stepping a kernel, for a debugger (the REPL): the public face of the
 * scheduler vm_run uses, so a run under the debugger goes exactly as
 * vm_run would go on one thread: work-groups in order, warps in order,
 * the warps of a kernel with barriers round by round, the same traps.
 *
 * d = vm_debug_new(...) stops before the first instruction of warp 0 of
 * group 0; vm_debug_run steps the current warp and says what it stopped
 * at; the rest reads where it is and what it holds. The handle is opaque.
 *
 * Reading: the current warp is the one vm_debug_run ran last (after the
 * end, the last one that ran); lanes are its work-items, lane l having
 * local linear id warp * W + l. Registers are numbered as in the
 * kernel's bc_reg array. */
#ifndef CLVM_DEBUG_H
#define CLVM_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/bytecode.h"
#include "vm/vm.h"

typedef struct vm_debug vm_debug;

/* Kernel k of verified module m over nd (nd->threads is ignored: one
 * thread; nd->warn_impl makes every profile raise notes), with args,
 * which must outlive the handle. NULL with trap filled, as vm_run would
 * fill it (NDRANGE, ARGS, CODE, NOMEM). printf output goes to nd->out
 * (NULL: stdout) when a work-group finishes. */
vm_debug *vm_debug_new(const bc_module *m, uint32_t k, vm_arg *args,
                       const vm_ndrange *nd, vm_trap *trap);
void vm_debug_free(vm_debug *d);

/* The NDRange as resolved (unused dimensions: size 1, offset 0). */
typedef struct {
    unsigned dims;
    uint64_t global[3], local[3], offset[3];
    uint64_t groups;       /* work-groups */
    uint32_t warp;         /* W: lanes per warp */
} vm_dbg_range;
void vm_debug_range(const vm_debug *d, vm_dbg_range *r);

/* ---- stepping ---- */

/* What vm_debug_run stopped at. */
enum vm_dbg_event {
    VM_DBG_RAN,            /* it ran n instructions; the warp goes on */
    VM_DBG_WARP,           /* another warp is current: at its first
                              instruction, or going on after a barrier */
    VM_DBG_BREAK,          /* at an instruction where the line of a
                              breakpoint begins */
    VM_DBG_TRAP,           /* the kernel trapped: vm_debug_trap */
    VM_DBG_DONE,           /* every work-group finished */
};

/* Runs the current warp for at most n instructions, stopping early when
 * it finishes or waits at a barrier (VM_DBG_WARP: the next warp is then
 * current), traps, or with `breaks` after an instruction that leaves it
 * at a breakpoint. After TRAP or DONE it runs nothing and says so again.
 * A warp that spent nd->max_steps traps STEPS when asked to run more. */
enum vm_dbg_event vm_debug_run(vm_debug *d, uint64_t n, bool breaks);

/* The trap, after VM_DBG_TRAP (its kind is VM_OK before). */
const vm_trap *vm_debug_trap(const vm_debug *d);

/* A breakpoint where the code of source line `line` begins. Returns its
 * number (1, 2, ... in the order they were set), or 0 if the kernel has
 * no code at that line. */
uint32_t vm_debug_break(vm_debug *d, uint32_t line);
void vm_debug_break_clear(vm_debug *d);

/* ---- where it is ---- */

typedef struct {
    uint64_t group;        /* linear index of the work-group */
    uint32_t warp;         /* the warp's number in its group */
    uint32_t lanes;        /* its work-items */
    uint64_t active;       /* the lanes running: bit l for lane l */
    uint32_t pc;           /* the next instruction (bytecode word index) */
    uint32_t line;         /* its source line, or 0 */
    uint32_t line_start;   /* the line whose code begins at pc, or 0 */
    uint32_t brk;          /* the first breakpoint at line_start, or 0 */
} vm_dbg_pos;
void vm_debug_pos(const vm_debug *d, vm_dbg_pos *p);

/* The global id of lane l of the current warp. */
void vm_debug_gid(const vm_debug *d, uint32_t l, uint64_t gid[3]);

/* The notes (bit i: enum note_id i) that instructions of the current warp
 * raised since they were last cleared, and (pc not NULL) the pc of the
 * last instruction that raised one. */
unsigned vm_debug_notes(const vm_debug *d, uint32_t *pc);
void vm_debug_clear_notes(vm_debug *d);

/* ---- what it holds ---- */

/* Register x of the current warp as stored, *bytes long: rows of W
 * elements (a 3-vector has 4 rows; a pointer W 8-byte offsets, then W
 * 4-byte buffer numbers), for telling whether it changed. NULL if the
 * kernel has no register x. */
const void *vm_debug_reg(const vm_debug *d, uint32_t x, size_t *bytes);

/* Lane l's value of register x as memory would hold it: one element per
 * row of x's type (a 3-vector 4), at most 128 bytes. False for a
 * pointer. */
bool vm_debug_value(const vm_debug *d, uint32_t x, uint32_t l, void *mem);

/* Lane l's pointer in register x: the register of the buffer it points
 * into (a pointer parameter or an array), the buffer's size and the
 * pointer's byte offset in it. False for a null pointer. */
bool vm_debug_pointer(const vm_debug *d, uint32_t x, uint32_t l,
                      uint32_t *buf, uint64_t *size, uint64_t *off);

/* The memory of buffer register x (a pointer parameter: its argument; a
 * private array: lane l's; a local array: the work-group's). False if x
 * names no buffer. */
bool vm_debug_memory(const vm_debug *d, uint32_t x, uint32_t l,
                     const uint8_t **data, uint64_t *size);

#endif
