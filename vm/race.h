/* The data race detector's shadow, shared by its files (private to vm/):
 * vm/race.c checks the accesses, vm/racemem.c keeps the memory. */
#ifndef CLVM_RACE_H
#define CLVM_RACE_H

#include <stdatomic.h>

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
typedef byterec quad[4];   /* a granule's bytes' */
/* A pair granule's bytes' records: no writes, these two reads. */
typedef struct {
    rec r[2];
} pair;

enum {
    QSEG0_LOG = 8,
    QSEG0 = 1 << QSEG0_LOG,    /* granules of byte records in segment 0 */
    QSEGS = 24,                /* segment s holds QSEG0 << s: they never
                                  move, so other threads' indices hold */
    NLOCKS = 1024,             /* spin locks of the global buffers' shadow
                                  when groups run on several threads */
    REGION_SHIFT = 12,         /* one lock per 4 KiB of a buffer, hashed */
};
typedef struct {
    _Alignas(64) atomic_uint held;
} racelock;

/* The shadow's records beyond the blocks. The global pool's granules and
 * pairs have a fixed room (one block's granules per block, one pair per
 * granule: each splits once), so that threads share them; a group's local
 * pool grows. */
struct vm_racepool {
    vm_gran (*g)[GPB];         /* per split block, its granules */
    pair *p;                   /* per pair granule, its reads */
    _Atomic(quad *) q[QSEGS];  /* per split granule, its 4 bytes */
    _Atomic uint32_t ng, n, np;/* records taken (ng, np may pass capg,
                                  capp in a fixed pool: then none left) */
    uint32_t capg, capp;
    bool fixed;                /* g and p never grow */
    size_t mapped;             /* g and p in one mapping of these bytes
                                  (vm/racemem.c), or 0 */
    racelock *locks;           /* NLOCKS, where several threads share the
                                  pool: held while a check reads or writes
                                  the blocks of their regions */
    struct vm_raceview {       /* the global pool's, per buffer id: */
        vm_gran *own;          /* a shadow allocated for its memory */
        uint64_t bytes;        /* own's bytes of memory */
        uint64_t off;          /* its first byte's in its root's memory */
        uint32_t root;         /* the buffer whose lock keys it takes */
    } *view;
};

/* Groups on several threads share the global buffers' blocks and pool: a
 * check holds the locks of the 4 KiB regions its bytes lie in while it
 * reads and writes their blocks (and through them their granules, pairs
 * and byte records). vm_race_lock takes those of buffer bid's bytes
 * at..at + len - 1 in p (none if p has no locks: one thread, or local
 * memory), in increasing order, so that no two checks wait for each
 * other; vm_race_unlock gives them back. */
typedef struct {
    racelock *t;               /* the pool's locks, or NULL */
    uint32_t id[4];            /* held, increasing */
    unsigned n;                /* NLOCKS: all of them */
} vm_racehold;
void vm_race_lock(const struct vm_racepool *p, uint32_t bid, uint64_t at,
                  uint64_t len, vm_racehold *h);
void vm_race_unlock(const vm_racehold *h);

/* Byte records i of pool p (an index vm_racepool_q gave). */
static inline byterec *vm_racepool_bytes(const struct vm_racepool *p,
                                         uint32_t i)
{
    const uint64_t j = (uint64_t)i + QSEG0;
    const unsigned s = 63 - (unsigned)__builtin_clzll(j) - QSEG0_LOG;
    return atomic_load_explicit(&p->q[s], memory_order_acquire)
        [j - ((uint64_t)QSEG0 << s)];
}

/* A fresh zeroed record of its pool: its index, or UINT32_MAX without
 * memory. vm_racepool_q: a granule's byte records; _g: a block's
 * granules; _p: a pair. Safe on several threads for the global pool. */
uint32_t vm_racepool_q(struct vm_racepool *p);
uint32_t vm_racepool_g(struct vm_racepool *p);
uint32_t vm_racepool_p(struct vm_racepool *p);

#endif
