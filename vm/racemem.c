/* The race detector's shadow memory (vm/race.h): the blocks of each
 * global buffer and of a group's local memory, the pools of granules,
 * pairs and byte records, in huge pages where they are large. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* The global pool's granules and pairs, at most one block of granules per
 * block and one pair per granule of the global buffers (a granule is a
 * pair once at most: then kept by byte), reserved at once in huge pages
 * where that is large: grown a record at a time, pools realloc'd in 4 KiB
 * pages fault once a page, and copy. Leaves them to grow() otherwise. */
static void pool_reserve(vm_prog *P, struct vm_racepool *pool)
{
    uint64_t nb = 0, ng = 0;
    for (uint32_t b = 1; b < P->nbufs; b++)
        if (P->bufs[b].space == BC_GLOBAL && P->bufs[b].size)
            nb += P->bufs[b].size / BLOCK + 1, ng += P->bufs[b].size / 4 + 1;
    if (nb >= UINT32_MAX / 2)
        return;   /* (the pools' own limits come first) */
    if (ng > 1u << P_SHIFT)
        ng = 1u << P_SHIFT;
    const size_t lg = nb * sizeof *pool->g, lp = ng * sizeof *pool->p;
    if (!huge_ok(lg + lp))
        return;
    char *m = huge_map(lg + lp);
    if (!m)
        return;
    pool->g = (void *)m, pool->capg = (uint32_t)nb;
    pool->p = (void *)(m + lg), pool->capp = (uint32_t)ng;
    pool->mapped = huge_len(lg + lp);
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
    if (ok)
        pool_reserve(P, P->rpool);
    if (!ok)
        snprintf(why, n, "the race detector's shadow of the buffers of "
                 "kernel '%s'", name);
    return ok;
}

static void pool_free(struct vm_racepool *p)
{
    if (p && p->mapped)
        munmap(p->g, p->mapped);
    else if (p)
        free(p->g), free(p->p);
    if (p)
        free(p->q);
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

/* A fresh zeroed element of el bytes in the array *a of *n (room for
 * *cap): its index, or UINT32_MAX without memory. */
static uint32_t grow(void **a, uint32_t *n, uint32_t *cap, size_t el,
                     bool fixed)
{
    if (*n == *cap && fixed)
        return UINT32_MAX;
    if (*n == *cap) {
        uint32_t c = *cap ? 2 * *cap : 256;
        void *q = c > *cap ? realloc(*a, c * el) : NULL;
        if (!q)
            return UINT32_MAX;
        *a = q, *cap = c;
    }
    memset((char *)*a + *n * el, 0, el);
    return (*n)++;
}

/* A fresh granule of byte records, a fresh block of granules. */
uint32_t vm_racepool_q(struct vm_racepool *p)
{
    void *a = p->q;
    uint32_t i = grow(&a, &p->n, &p->cap, sizeof *p->q, false);
    p->q = a;
    return i;
}

uint32_t vm_racepool_g(struct vm_racepool *p)
{
    void *a = p->g;
    uint32_t i = grow(&a, &p->ng, &p->capg, sizeof *p->g, p->mapped);
    p->g = a;
    return i;
}

uint32_t vm_racepool_p(struct vm_racepool *p)
{
    void *a = p->p;
    uint32_t i = grow(&a, &p->np, &p->capp, sizeof *p->p, p->mapped);
    p->p = a;
    return i;
}
