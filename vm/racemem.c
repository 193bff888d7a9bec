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
#include "vm/ptrflow.h"
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

static int nomem_shadow(const vm_prog *P, char *why, size_t n)
{
    snprintf(why, n, "the race detector's shadow of the buffers of kernel "
             "'%s'", bc_str(P->m, P->k->name));
    return VM_TRAP_NOMEM;
}

static const uint8_t *mem(const vm_prog *P, uint32_t b)
{
    return P->args[P->bufs[b].param].data;
}

static uint32_t find(struct vm_raceview *v, uint32_t b)
{
    while (v[b].root != b)
        b = v[b].root = v[v[b].root].root;
    return b;
}

static bool global(const vm_prog *P, uint32_t b)
{
    return P->bufs[b].space == BC_GLOBAL && P->bufs[b].size;
}

/* Global buffers bound to overlapping memory (one buffer for two
 * parameters, sub-buffers) are one memory to a race: their accesses must
 * meet in one shadow. Each set of buffers whose memory overlaps gets one,
 * allocated for the set's lowest to highest byte, that each sees from its
 * own first byte, which must lie whole blocks past the lowest. Fills
 * P->shadow and the views v (per buffer: its set's root, its offset in
 * the set's memory; the root's shadow): 0, or the trap kind (NOMEM; ARGS
 * where a buffer lies part of a block off) with why filled. */
static int shadows(vm_prog *P, struct vm_raceview *v, char *why, size_t n)
{
    const char *name = bc_str(P->m, P->k->name);
    /* per set (at its root): its lowest byte and the end of its highest */
    uintptr_t *lo = calloc(2 * (size_t)P->nbufs, sizeof *lo);
    if (!lo)
        return nomem_shadow(P, why, n);
    uintptr_t *hi = lo + P->nbufs;
    for (uint32_t b = 0; b < P->nbufs; b++)
        v[b].root = b;
    for (uint32_t b = 1; b < P->nbufs; b++)
        for (uint32_t a = 1; a < b; a++)
            if (vm_bufs_overlap(P, a, b))
                v[find(v, b)].root = find(v, a);
    for (uint32_t b = 1; b < P->nbufs; b++) {
        const uint32_t r = v[b].root = find(v, b);
        if (!global(P, b))
            continue;
        const uintptr_t l = (uintptr_t)mem(P, b), h = l + P->bufs[b].size;
        lo[r] = !hi[r] || l < lo[r] ? l : lo[r];
        hi[r] = h > hi[r] ? h : hi[r];
    }
    int kind = 0;
    for (uint32_t b = 1; !kind && b < P->nbufs; b++)   /* the roots' */
        if (global(P, b) && v[b].root == b) {
            v[b].bytes = hi[b] - lo[b];
            if (!(v[b].own = blocks_global(v[b].bytes)))
                kind = nomem_shadow(P, why, n);
        }
    for (uint32_t b = 1; !kind && b < P->nbufs; b++) {
        const uint32_t r = v[b].root;
        if (!global(P, b))
            continue;
        v[b].off = (uintptr_t)mem(P, b) - lo[r];
        P->shadow[b] = v[r].own + v[b].off / BLOCK;
        if (v[b].off % BLOCK) {
            uint32_t f = 1;   /* the buffer at the shared memory's start */
            while (!global(P, f) || v[f].root != r ||
                   (uintptr_t)mem(P, f) != lo[r])
                f++;
            snprintf(why, n, "the race check of kernel '%s': buffer '%s' "
                     "starts %llu bytes into buffer '%s' (it checks buffers "
                     "that share memory a multiple of %u bytes apart)",
                     name, bc_str(P->m, P->k->regs[P->bufs[b].reg].name),
                     (unsigned long long)v[b].off,
                     bc_str(P->m, P->k->regs[P->bufs[f].reg].name),
                     (unsigned)BLOCK);
            kind = VM_TRAP_ARGS;
        }
    }
    free(lo);
    return kind;
}

int vm_race_prog(vm_prog *P, char *why, size_t n)
{
    const vm_range *r = &P->r;
    if (r->ngroups > (UINT32_MAX - 2) / r->group_size || P->nins >= 1u << 23) {
        /* items below PAIR, instructions in a block's info */
        snprintf(why, n, "the race check of kernel '%s': at most 2^32 - 2 "
                 "work-items and 2^23 instructions", bc_str(P->m, P->k->name));
        return VM_TRAP_NOMEM;
    }
    if (!(P->shadow = calloc(P->nbufs, sizeof *P->shadow)) ||
        !(P->rpool = calloc(1, sizeof *P->rpool)) ||
        !(P->rpool->view = calloc(P->nbufs, sizeof *P->rpool->view)))
        return nomem_shadow(P, why, n);
    const int kind = shadows(P, P->rpool->view, why, n);
    if (kind)
        return kind;
    bool ok = pool_reserve(P, P->rpool);
    /* several threads: the blocks' locks (racelock is 64-byte aligned) */
    if (ok && r->threads > 1)
        ok = (P->rpool->locks = aligned_alloc(64, NLOCKS * sizeof(racelock)));
    for (uint32_t i = 0; ok && P->rpool->locks && i < NLOCKS; i++)
        atomic_init(&P->rpool->locks[i].held, 0);
    return ok ? 0 : nomem_shadow(P, why, n);
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
    free(p->view);
    free(p);
}

void vm_race_prog_free(vm_prog *P)
{
    for (uint32_t b = 0; P->rpool && P->rpool->view && b < P->nbufs; b++)
        blocks_global_free(P->rpool->view[b].own, P->rpool->view[b].bytes);
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
    at += p->view[bid].off;   /* (keys of the memory, not the buffer) */
    bid = p->view[bid].root;
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
