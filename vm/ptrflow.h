/* Which buffers a kernel's pointer registers may point into, and which of
 * those it may write (vm/ptrflow.c), private to vm/: the race check need
 * not record the reads of a buffer that nothing in the kernel writes. */
#ifndef CLVM_PTRFLOW_H
#define CLVM_PTRFLOW_H

#include <stdint.h>

#include "vm/warp.h"

/* Bit b of mask[x] (x < the kernel's nregs): pointer register x may hold
 * a pointer into buffer b (vm_prog.bufs); *writable: the buffers some
 * instruction may write. Returns false, nothing filled, where the buffers
 * do not fit 64 bits. */
bool vm_ptrflow(const vm_prog *p, uint64_t *mask, uint64_t *writable);

#endif
