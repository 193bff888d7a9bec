/* The race detector's shadow memory (vm/race.h): the blocks of each
 * global buffer and of a group's local memory, the pools of granules,
 * pairs and byte records, in huge pages where they are large, and the
 * locks that share the global ones between threads. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vm/pool.h"
#include "vm/race.h"

static size_t blocks_len(uint64_t bytes)
{
    return (bytes / BLOCK + 1) * sizeof(vm_gran);
}

static vm_gran *blocks(uint64_t bytes)
{
    return calloc(1, blocks_len(bytes));
}

/* A large global buffer's, in huge pages where the system has them
 * (Linux): a page fault per 4 KiB page (two: read, then written) inside
 * the run costs more than the check. HUGE-aligned, HUGE-rounded. */
enum { HUGE = 2u << 20 };

static bool huge_ok(size_t len)
{
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS) && defined(MAP_NORESERVE)
    return len >= HUGE / 2;
#else
    (void)len;
    return false;
#endif
}

static size_t huge_len(size_t len)
{
    return (len + HUGE - 1) & ~(size_t)(HUGE - 1);
}

/* len bytes of zeros in huge pages, reserved, not committed: each page
 * costs when first touched. NULL if the system says no. */
static void *huge_map(size_t len)
{
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS) && defined(MAP_NORESERVE)
    const size_t n = huge_len(len);
    char *p = mmap(NULL, n + HUGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    const size_t head = (HUGE - (uintptr_t)p % HUGE) % HUGE;
    if (head)
        munmap(p, head);
    if (HUGE - head)
        munmap(p + head + n, HUGE - head);
    madvise(p + head, n, MADV_HUGEPAGE);   /* (a hint: may be refused) */
    return p + head;
#else
    (void)len;
    return NULL;
#endif
}

static vm_gran *blocks_global(uint64_t bytes)
{
    return huge_ok(blocks_len(bytes)) ? huge_map(blocks_len(bytes))
                                      : blocks(bytes);
}

static void blocks_global_free(vm_gran *p, uint64_t bytes)
{
    if (p && huge_ok(blocks_len(bytes)))
        munmap(p, huge_len(blocks_len(bytes)));
    else
        free(p);
}

/* The global pool's granules and pairs: at most one block of granules per
 * block and one pair per granule of the global buffers (a granule is a
 * pair once at most: then kept by byte), their room taken at once, so
 * that they never move while other threads hold indices into them: in
 * huge pages, reserved, where that is large (pools grown a record at a
 * time in 4 KiB pages fault once a page). False without memory. */
static bool pool_reserve(vm_prog *P, struct vm_racepool *pool)
{
    uint64_t nb = 0, ng = 0;
    for (uint32_t b = 1; b < P->nbufs; b++)
        if (P->bufs[b].space == BC_GLOBAL && P->bufs[b].size)
            nb += P->bufs[b].size / BLOCK + 1, ng += P->bufs[b].size / 4 + 1;
    if (nb >= UINT32_MAX / 2)
        nb = UINT32_MAX / 2;   /* (the pools' own limits come first) */
    if (ng > 1u << P_SHIFT)
        ng = 1u << P_SHIFT;
    const size_t lg = nb * sizeof *pool->g, lp = ng * sizeof *pool->p;
    char *m = huge_ok(lg + lp) ? huge_map(lg + lp) : NULL;
    if (m) {
        pool->mapped = huge_len(lg + lp);
    } else if (!(m = calloc(1, lg + lp))) {
        return false;
    }
    pool->g = (void *)m, pool->capg = (uint32_t)nb;
    pool->p = (void *)(m + lg), pool->capp = (uint32_t)ng;
    pool->fixed = true;
    return true;
}

bool vm_race_prog(vm_prog *P, char *why, size_t n)
{
    const vm_range *r = &P->r;
    const char *name = bc_str(P->m, P->k->name);
    if (r->ngroups > (UINT32_MAX - 2) / r->group_size || P->nins >= 1u << 23) {
        /* items below PAIR, instructions in a block's info */
        snprintf(why, n, "the race check of kernel '%s': at most 2^32 - 2 "
                 "work-items and 2^23 instructions", name);
        return false;
    }
    bool ok = (P->shadow = calloc(P->nbufs, sizeof *P->shadow)) &&
              (P->rpool = calloc(1, sizeof *P->rpool));
    for (uint32_t b = 1; ok && b < P->nbufs; b++)
        if (P->bufs[b].space == BC_GLOBAL && P->bufs[b].size)
            ok = (P->shadow[b] = blocks_global(P->bufs[b].size)) != NULL;
    ok = ok && pool_reserve(P, P->rpool);
    /* several threads: the blocks' locks (racelock is 64-byte aligned) */
    if (ok && r->threads > 1)
        ok = (P->rpool->locks = aligned_alloc(64, NLOCKS * sizeof(racelock)));
    for (uint32_t i = 0; ok && P->rpool->locks && i < NLOCKS; i++)
        atomic_init(&P->rpool->locks[i].held, 0);
    if (!ok)
        snprintf(why, n, "the race detector's shadow of the buffers of "
                 "kernel '%s'", name);
    return ok;
}

static void pool_free(struct vm_racepool *p)
{
    if (!p)
        return;
    if (p->mapped)
        munmap(p->g, p->mapped);
    else if (p->fixed)
        free(p->g);   /* (p in the same allocation) */
    else
        free(p->g), free(p->p);
    for (unsigned s = 0; s < QSEGS; s++)
        free(atomic_load(&p->q[s]));
    free(p->locks);
    free(p);
}

void vm_race_prog_free(vm_prog *P)
{
    for (uint32_t b = 0; P->shadow && b < P->nbufs; b++)
        blocks_global_free(P->shadow[b], P->bufs[b].size);
    free(P->shadow);
    P->shadow = NULL;
    pool_free(P->rpool);
    P->rpool = NULL;
}

/* The local memory's shadow holds each local buffer's blocks after the
 * earlier ones': buffers need not start on a block, and one block's
 * record must not mix two buffers' offsets. Blocks before buffer upto. */
static uint64_t local_blocks(const vm_prog *P, uint32_t upto)
{
    uint64_t n = 0;
    for (uint32_t b = 1; b < upto && b < P->nbufs; b++)
        if (P->bufs[b].space == BC_LOCAL)
            n += P->bufs[b].size / BLOCK + 1;
    return n;
}

vm_gran *vm_race_local_shadow(const vm_group *g, uint32_t b)
{
    return g->lshadow ? g->lshadow + local_blocks(g->P, b) : NULL;
}

bool vm_race_group_new(vm_group *g)
{
    if (!g->P->r.races || !g->P->local_bytes)
        return true;
    g->lshadow = calloc(local_blocks(g->P, g->P->nbufs) + 1, sizeof(vm_gran));
    g->lpool = calloc(1, sizeof *g->lpool);
    return g->lshadow && g->lpool;
}

void vm_race_group_start(vm_group *g)
{
    if (!g->lshadow)
        return;
    memset(g->lshadow, 0, local_blocks(g->P, g->P->nbufs) * sizeof(vm_gran));
    g->lpool->n = g->lpool->ng = g->lpool->np = 0;
}

void vm_race_group_free(vm_group *g)
{
    free(g->lshadow);
    pool_free(g->lpool);
    g->lshadow = NULL;
    g->lpool = NULL;
}

/* A fresh zeroed element of el bytes in the array *a of *n taken (room
 * for *cap; fixed: no more): its index, or UINT32_MAX without room. Only
 * a fixed array is shared by threads. */
static uint32_t take(void **a, _Atomic uint32_t *n, uint32_t *cap, size_t el,
                     bool fixed)
{
    uint32_t i = atomic_fetch_add_explicit(n, 1, memory_order_relaxed);
    if (i >= *cap) {
        uint32_t c = *cap ? 2 * *cap : 256;
        void *q = !fixed && c > *cap ? realloc(*a, (size_t)c * el) : NULL;
        if (!q) {
            if (!fixed)
                atomic_store_explicit(n, i, memory_order_relaxed);
            return UINT32_MAX;
        }
        *a = q, *cap = c;
    }
    memset((char *)*a + (size_t)i * el, 0, el);
    return i;
}

uint32_t vm_racepool_g(struct vm_racepool *p)
{
    void *a = p->g;
    uint32_t i = take(&a, &p->ng, &p->capg, sizeof *p->g, p->fixed);
    if (!p->fixed)   /* (a fixed pool's fields are shared: left alone) */
        p->g = a;
    return i;
}

uint32_t vm_racepool_p(struct vm_racepool *p)
{
    void *a = p->p;
    uint32_t i = take(&a, &p->np, &p->capp, sizeof *p->p, p->fixed);
    if (!p->fixed)
        p->p = a;
    return i;
}

/* Byte records go in segments that never move (vm_racepool_bytes): the
 * first thread to need one allocates it. */
uint32_t vm_racepool_q(struct vm_racepool *p)
{
    const uint32_t i = atomic_fetch_add_explicit(&p->n, 1,
                                                 memory_order_relaxed);
    const uint64_t j = (uint64_t)i + QSEG0;
    const unsigned s = 63 - (unsigned)__builtin_clzll(j) - QSEG0_LOG;
    if (s >= QSEGS)
        return UINT32_MAX;
    quad *seg = atomic_load_explicit(&p->q[s], memory_order_acquire);
    if (!seg) {
        quad *mine = calloc((size_t)QSEG0 << s, sizeof *mine);
        if (!mine)
            return UINT32_MAX;
        if (atomic_compare_exchange_strong(&p->q[s], &seg, mine))
            seg = mine;
        else
            free(mine);   /* (another thread's came first: seg) */
    }
    memset(seg[j - ((uint64_t)QSEG0 << s)], 0, sizeof *seg);
    return i;
}

static void lock_one(racelock *l)
{
    while (atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
        for (unsigned k = 1;
             atomic_load_explicit(&l->held, memory_order_relaxed); k++) {
            if (k % 64)
                VM_PAUSE();
            else
                sched_yield();   /* (its holder may be waiting for a CPU) */
        }
}

void vm_race_lock(const struct vm_racepool *p, uint32_t bid, uint64_t at,
                  uint64_t len, vm_racehold *h)
{
    h->t = p->locks, h->n = 0;
    if (!h->t)
        return;
    const uint64_t r0 = at >> REGION_SHIFT,
                   r1 = (at + (len ? len : 1) - 1) >> REGION_SHIFT;
    if (r1 - r0 >= 4) {   /* (no access spans this much: a warp's 8 KiB) */
        h->n = NLOCKS;
        for (unsigned i = 0; i < NLOCKS; i++)
            lock_one(&h->t[i]);
        return;
    }
    const uint32_t base = bid * 0x9E3779B9u;   /* (buffers apart) */
    for (uint64_t r = r0; r <= r1; r++) {
        uint32_t id = (base + (uint32_t)r) & (NLOCKS - 1), k = h->n++;
        for (; k && h->id[k - 1] > id; k--)
            h->id[k] = h->id[k - 1];
        h->id[k] = id;
    }
    for (unsigned k = 0; k < h->n; k++)
        lock_one(&h->t[h->id[k]]);
}

void vm_race_unlock(const vm_racehold *h)
{
    for (unsigned k = 0; h->t && k < h->n; k++)
        atomic_store_explicit(&h->t[h->n == NLOCKS ? k : h->id[k]].held, 0,
                              memory_order_release);
}
