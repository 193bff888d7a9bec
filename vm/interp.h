/* The interpreter's internal API, private to vm/ (and its unit tests):
 * the state of a run (vm/warp.h), the decoder (vm/decode.h), and what the
 * dispatch loops (vm/loop.h) share with the decoder and native.c.
 *
 * To run a kernel by hand: vm_range_resolve, vm_prog_new, vm_group_new,
 * vm_group_start(g, group), then for each warp i of the group
 * vm_warp_start(&g->w[i], i) (g->nctx contexts: one, reused warp after
 * warp, unless the kernel has barriers) and vm_warp_run with any budget.
 * sched.c does that the way vm_run and the debugger (vm/debug.h) need. */
#ifndef CLVM_INTERP_H
#define CLVM_INTERP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "vm/decode.h"
#include "vm/warp.h"

/* Conversions CVT runs inline, in loops the compiler vectorises, instead
 * of calling stdlib's cv_fn (the authority, compiled for the baseline ISA
 * with branches): vm_ins.imm of a CVT. Each must equal stdlib's loop on
 * every input: vm_f2i_sat_rte was compared with it on all 2^32 floats; the
 * int -> float ones are C's own conversion, which is stdlib's for rte. */
enum { VM_CVT_CALL, VM_CVT_I32_F32_SAT_RTE, VM_CVT_F32_U32, VM_CVT_F32_I32,
       VM_CVT_INT = 8 };

/* An integer -> integer conversion without _sat keeps the low bits of the
 * source sign- or zero-extended, whatever the destination's signedness
 * (stdlib's I2I wraps so): its vm_ins.imm is VM_CVT_INT plus this code
 * (vm/cvtint.h runs it), from the sizes in bytes and the source's sign. */
static inline unsigned vm_cvt_int_code(unsigned dbytes, unsigned sbytes,
                                       bool ssigned)
{
    const unsigned dl = dbytes == 1 ? 0 : dbytes == 2 ? 1 : dbytes == 4 ? 2 : 3,
                   sl = sbytes == 1 ? 0 : sbytes == 2 ? 1 : sbytes == 4 ? 2 : 3;
    return VM_CVT_INT + dl * 8 + sl * 2 + ssigned;
}

/* convert_int_sat_rte(x) without branches or an out-of-range cast: round,
 * convert what is in range (NaN is not: 0), and saturate the rest. Written
 * so that gcc vectorises it to about 10 instructions per vector (a chain
 * of clamps became 22); the same as stdlib's on all 2^32 floats. */
static inline int32_t vm_f2i_sat_rte(float x)
{
    const float r = rintf(x);
    const int32_t v = (int32_t)(fabsf(r) < 2147483648.0f ? r : 0.0f);
    return r >= 2147483648.0f ? INT32_MAX : r <= -2147483648.0f ? INT32_MIN
                                                                 : v;
}

/* The dispatch loop for this host (the best instruction-set level it has;
 * CLVM_ISA=base forces the baseline, avx2 caps it, avx512 takes AVX-512
 * wherever the host has it), and with computed goto its label
 * table, indexed by vm_ins.op (*tab is NULL for the switch). */
vm_runfn vm_interp_pick(const void *const **tab);

/* The index loader of a memory op or PADD whose index register has
 * element type s; NULL if s is not an integer. */
vm_widen vm_widen_for(enum ty_scalar s);

/* A register element of size bytes (1, 2, 4, 8; host order), zero-
 * extended. */
static inline uint64_t vm_reg_uint(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* Signed overflow of an add or subtract of two's complement words x, y
 * (unsigned, of any size): the result's sign bit is set in these where
 * the sum's sign differs from both addends', or the operands' signs
 * differ and the difference's differs from the first's. */
#define VM_ADD_OVF(x, y) ((((x) + (y)) ^ (x)) & (((x) + (y)) ^ (y)))
#define VM_SUB_OVF(x, y) (((x) ^ (y)) & ((x) ^ ((x) - (y))))

/* An XOP_NOTE instruction none of whose elements (in R) can hit an
 * implementation-defined case: its own handler gives the same bits under
 * every profile, with no note (quiet.c). */
bool vm_note_quiet(const vm_ins *ip, const uint8_t *R);

/* ATOM (atomic.c): the active lanes' read-modify-writes in lane order.
 * 0, or -1 with w->fault filled (bounds, alignment). */
int vm_atomic(vm_warp *w, const vm_ins *I, uint64_t exec);

/* Host calls and printf (native.c): run CALL/CALLV or PRINTF for the
 * active lanes. 0, or -1 with w->fault filled. */
int vm_native_call(vm_warp *w, const vm_ins *I, uint64_t exec);
int vm_native_printf(vm_warp *w, const vm_ins *I, uint64_t exec);

/* Is n bound to module m (vm_natives_bind)? */
bool vm_natives_bound(const struct vm_natives *n, const bc_module *m);

#endif
