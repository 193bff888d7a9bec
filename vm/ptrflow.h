/* Which buffers a kernel's pointer registers may point into, and which of
 * those it may write (vm/ptrflow.c), private to vm/: the race check need
 * not record the reads of a buffer that nothing in the kernel writes. */
#ifndef CLVM_PTRFLOW_H
#define CLVM_PTRFLOW_H

#include <stdint.h>

#include "vm/warp.h"

/* Are buffers a and b global buffers whose memory (their parameters'
 * arguments) overlaps? Then a race sees them as one. */
static inline bool vm_bufs_overlap(const vm_prog *p, uint32_t a, uint32_t b)
{
    const vm_bufinfo *x = &p->bufs[a], *y = &p->bufs[b];
    if (x->space != BC_GLOBAL || y->space != BC_GLOBAL || !x->size ||
        !y->size || x->param < 0 || y->param < 0)
        return false;
    const uintptr_t la = (uintptr_t)p->args[x->param].data,
                    lb = (uintptr_t)p->args[y->param].data;
    return la < lb + y->size && lb < la + x->size;
}

/* Bit b of mask[x] (x < the kernel's nregs): pointer register x may hold
 * a pointer into buffer b (vm_prog.bufs); *writable: the buffers some
 * instruction may write, and those whose memory overlaps one of them. Returns false, nothing filled, where the buffers
 * do not fit 64 bits. */
bool vm_ptrflow(const vm_prog *p, uint64_t *mask, uint64_t *writable);

#endif
