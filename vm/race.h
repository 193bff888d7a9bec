/* The data race detector's shadow, shared by its files (private to vm/):
 * vm/race.c checks the accesses, vm/racemem.c keeps the memory. */
#ifndef CLVM_RACE_H
#define CLVM_RACE_H

#include "vm/interp.h"

enum {
    SPLIT = UINT32_MAX,        /* granule's vm_gran.item: kept by byte */
    PAIR = UINT32_MAX - 1,     /* granule's vm_gran.item: read by two; its
                                  ep the bytes << P_SHIFT | the pair's
                                  index, its info the later of the two
                                  work-items (UINT32_MAX if one is none) */
    P_SHIFT = 28,              /* (so at most 2^28 pairs) */
    G_PAIR = 1u << 31,         /* granule's vm_gran.info: a pair in place:
                                  the reads of item and item + d (d in
                                  -4..3, not 0, bits 28..30 hold d + 4)
                                  in interval ep by one instruction, of
                                  the bytes and instruction as a one-owner
                                  read's (the stencil's common pair) */
    BLOCK = 256,               /* bytes per block */
    QUARTER = BLOCK / 4,       /* a block's record says which it covers */
    GPB = BLOCK / 4,           /* granules per block */
    B_SPLIT = 1u << 8,         /* block's vm_gran.info: kept by granule */
    ATOMIC_BIT = 1u << 31,     /* rec.pc: an atomic access */
    COPY_BIT = 1u << 30,       /* rec.pc: an async copy's */
    PC_MASK = COPY_BIT - 1,
    G_WRITE = 1,               /* vm_gran.info bit 0: writes (else reads);
                                  granules: bits 1..4 the bytes, from bit
                                  5 the instruction (index into P->ins);
                                  blocks: bits 1..3 log2 of the bytes per
                                  work-item, 4..7 the quarters, 8 B_SPLIT,
                                  from bit 9 the instruction */
};

/* One access: its work-item (copies: the first of the group to reach it)
 * as vm_gran.item, interval, word pc with ATOMIC_BIT or COPY_BIT, and a
 * copy's number in its group. */
typedef struct {
    uint32_t item, ep, pc, copy;
} rec;
/* One byte's: the last two writes and reads of different work-items
 * that may still race (atomic reads are reads, atomics writes). */
typedef struct {
    rec w[2], r[2];
} byterec;
/* A pair granule's bytes' records: no writes, these two reads. */
typedef struct {
    rec r[2];
} pair;
struct vm_racepool {
    vm_gran (*g)[GPB];         /* per split block, its granules */
    byterec (*q)[4];           /* per split granule, its 4 bytes */
    pair *p;                   /* per pair granule, its reads */
    uint32_t ng, capg, n, cap, np, capp;
    size_t mapped;             /* g and p in one mapping of these bytes
                                  (vm/racemem.c), or 0 */
};

/* A fresh zeroed record of its pool: its index, or UINT32_MAX without
 * memory. vm_racepool_q: a granule's byte records; _g: a block's
 * granules; _p: a pair. */
uint32_t vm_racepool_q(struct vm_racepool *p);
uint32_t vm_racepool_g(struct vm_racepool *p);
uint32_t vm_racepool_p(struct vm_racepool *p);

#endif
