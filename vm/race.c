/* The data race detector (--check races, the strict profile): two
 * accesses to one byte of global or local memory by different work-items
 * that nothing orders (one barrier interval of the space's fence, or, in
 * global memory, different work-groups), at least one a write, not both
 * atomic, trap with both work-items, the bytes and both lines. Async
 * copies are accesses of their whole group, ordered by wait_group_events.
 *
 * Shadow: per aligned 4-byte granule a vm_gran, the one work-item that
 * accessed it in its interval (the common case, checked in a few
 * compares); a granule that more than one reaches is kept byte by byte in
 * a pool of records: per byte two writes and two reads (rec), enough to
 * tell whether some other work-item's access races with the next. */
#include <stdlib.h>
#include <string.h>

#include "vm/interp.h"

#if defined(__GNUC__)
#define NOINLINE_RACE __attribute__((noinline))
#else
#define NOINLINE_RACE
#endif

enum {
    SPLIT = UINT32_MAX,        /* vm_gran.item: kept byte by byte */
    ATOMIC_BIT = 1u << 31,     /* rec.pc: an atomic access */
    COPY_BIT = 1u << 30,       /* rec.pc: an async copy's */
    PC_MASK = COPY_BIT - 1,
    G_WRITE = 1,               /* vm_gran.info bit 0: writes (else reads);
                                  bits 1..4: the bytes; from bit 5: the
                                  instruction (index into P->ins) */
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
struct vm_racepool {
    byterec (*q)[4];           /* per split granule, its 4 bytes */
    uint32_t n, cap;
};

/* ---- the shadow's memory ---- */

static vm_gran *granules(uint64_t bytes)
{
    return calloc(bytes / 4 + 1, sizeof(vm_gran));
}

bool vm_race_prog(vm_prog *P)
{
    const vm_range *r = &P->r;
    if (r->ngroups > (UINT32_MAX - 2) / r->group_size || P->nins >= 1u << 26)
        return false;   /* items below SPLIT, instructions in info */
    if (!(P->shadow = calloc(P->nbufs, sizeof *P->shadow)) ||
        !(P->rpool = calloc(1, sizeof *P->rpool)))
        return false;
    for (uint32_t b = 1; b < P->nbufs; b++)
        if (P->bufs[b].space == BC_GLOBAL && P->bufs[b].size &&
            !(P->shadow[b] = granules(P->bufs[b].size)))
            return false;
    return true;
}

static void pool_free(struct vm_racepool *p)
{
    if (p)
        free(p->q);
    free(p);
}

void vm_race_prog_free(vm_prog *P)
{
    for (uint32_t b = 0; P->shadow && b < P->nbufs; b++)
        free(P->shadow[b]);
    free(P->shadow);
    P->shadow = NULL;
    pool_free(P->rpool);
    P->rpool = NULL;
}

bool vm_race_group_new(vm_group *g)
{
    if (!g->P->r.races || !g->P->local_bytes)
        return true;
    g->lshadow = granules(g->P->local_bytes);
    g->lpool = calloc(1, sizeof *g->lpool);
    return g->lshadow && g->lpool;
}

void vm_race_group_start(vm_group *g)
{
    if (!g->lshadow)
        return;
    memset(g->lshadow, 0, (g->P->local_bytes / 4 + 1) * sizeof(vm_gran));
    g->lpool->n = 0;
}

void vm_race_group_free(vm_group *g)
{
    free(g->lshadow);
    pool_free(g->lpool);
    g->lshadow = NULL;
    g->lpool = NULL;
}

/* A fresh granule of byte records: its index, or UINT32_MAX without
 * memory. */
static uint32_t pool_new(struct vm_racepool *p)
{
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 256;
        void *q = cap > p->cap ? realloc(p->q, cap * sizeof *p->q) : NULL;
        if (!q)
            return UINT32_MAX;
        p->q = q, p->cap = cap;
    }
    memset(p->q[p->n], 0, sizeof *p->q);
    return p->n++;
}

/* ---- one access ---- */

/* An access being checked: who, where, what kind. */
typedef struct {
    vm_warp *w;
    const vm_ins *I;
    struct vm_racepool *pool;
    const vm_buf *b;
    uint32_t bid;
    uint32_t lo, gs;           /* the group's first item, its size */
    uint32_t item, ep, pc;     /* as rec's */
    uint32_t copy;
    uint32_t info;             /* vm_gran.info without the bytes */
    uint32_t lane;             /* the lane that reports */
    uint64_t at, len;          /* the lane's bytes, for the report */
    int kind;                  /* VM_RACE_* */
    bool write, atomic, local;
    bool strict;               /* the strict profile: else a plain write of
                                  the value already there races with no
                                  plain write */
    /* the value a plain write stores: a copy's source bytes, or (regval)
     * the register of a store, whose active lanes' first bytes are lat */
    const uint8_t *src;
    bool regval;
    uint64_t exec;
    const uint64_t *lat;
} acc;

static bool is_copy(const acc *c) { return c->pc & COPY_BIT; }

/* Did the work-item with local id lid reach copy k of c's group (waited
 * false), or wait for it (true)? */
static bool copybit(const acc *c, uint32_t k, uint32_t lid, bool waited)
{
    const uint64_t *b = vm_copybits(c->w->g, k, waited);
    return b[lid / 64] >> lid % 64 & 1;
}

/* Is record s (a write if swrite) an access that c's races with? */
static bool conflict(const acc *c, const rec *s, bool swrite)
{
    if (!s->item || (!swrite && !c->write) ||
        ((s->pc & ATOMIC_BIT) && c->atomic))
        return false;
    bool same = s->item - c->lo < c->gs;
    if (!same)
        return !c->local;   /* another group's local memory is another */
    if (s->ep != c->ep)
        return false;
    /* a copy, with the accesses before it; those after it, up to the
     * wait for its event, too in the strict profile only (Oclgrind's
     * copy is done when the group reaches it) */
    if (s->pc & COPY_BIT && is_copy(c))
        return s->copy != c->copy && !copybit(c, s->copy, c->item - c->lo,
                                              true);
    if (s->pc & COPY_BIT)
        return !copybit(c, s->copy, c->item - c->lo, true) &&
               (c->strict || !copybit(c, s->copy, c->item - c->lo, false));
    return is_copy(c) || s->item != c->item;   /* (a copy is all's) */
}

/* May c's record replace s, losing nothing a later access could race
 * with? An empty one, one of an earlier interval of c's group (which only
 * other groups can still race with: c's must race with all theirs), c's
 * own in this interval when c races with all that it did. */
static bool replaces(const acc *c, const rec *s)
{
    if (!s->item)
        return true;
    bool same = s->item - c->lo < c->gs;
    if (c->local && (!same || s->ep != c->ep))
        return true;
    bool covers = !c->atomic || (s->pc & ATOMIC_BIT);
    if (same && s->ep != c->ep)
        return covers;
    return same && s->item == c->item && !is_copy(c) &&
           !(s->pc & COPY_BIT) && covers;
}

/* The byte at address a (of c->b) before c's lane writes it: what an
 * earlier lane of the same store writes there, else memory. */
static uint8_t byte_before(const acc *c, uint64_t a)
{
    uint8_t v = c->b->data[a];
    if (is_copy(c))
        return v;
    const vm_ins *I = c->I;
    const uint32_t W = c->w->P->r.warp;
    for (uint64_t m = c->exec & ((1ull << c->lane) - 1); m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        uint64_t k = a - c->lat[l];
        if (a >= c->lat[l] && k < I->len) {
            uint64_t e = vm_reg_uint(c->w->R + I->d +
                                         ((k / I->es) * W + l) * I->es,
                                     I->es);
            v = (uint8_t)(e >> 8 * (k % I->es));
        }
    }
    return v;
}

/* The byte c's lane writes at address a. */
static uint8_t byte_new(const acc *c, uint64_t a)
{
    if (is_copy(c))
        return c->src[a - c->at];
    const vm_ins *I = c->I;
    uint64_t k = a - c->at;
    uint64_t e = vm_reg_uint(c->w->R + I->d + ((k / I->es) * c->w->P->r.warp
                                               + c->lane) * I->es, I->es);
    return (uint8_t)(e >> 8 * (k % I->es));
}

/* Is c a plain write of byte a that leaves it as it is, which the
 * non-strict check lets race with other plain writes? */
static bool same_value(const acc *c, const rec *s, uint64_t a)
{
    if (c->strict || c->atomic || (s->pc & ATOMIC_BIT) ||
        !(c->src || c->regval))
        return false;
    return byte_new(c, a) == byte_before(c, a);
}

static int report(const acc *c, const rec *o, bool owrite)
{
    int ok = o->pc & COPY_BIT ? (owrite ? VM_RACE_COPY_WRITE
                                        : VM_RACE_COPY_READ)
             : o->pc & ATOMIC_BIT ? (owrite ? VM_RACE_ATOMIC
                                            : VM_RACE_ATOMIC_READ)
                                  : owrite;
    c->w->fault = (vm_fault){.kind = VM_TRAP_RACE, .lane = c->lane,
                             .buf = c->bid, .addr = c->at, .len = c->len,
                             .barwhy = (uint8_t)c->kind,
                             .other_pc = o->pc & PC_MASK,
                             .opnd = {o->item - 1, (uint64_t)ok}};
    return -1;
}

/* c's access of byte a, whose records are v. */
static int byte_access(const acc *c, byterec *v, uint64_t a)
{
    for (int i = 0; i < 2; i++)
        if (conflict(c, &v->w[i], true) && !same_value(c, &v->w[i], a))
            return report(c, &v->w[i], true);
    for (int i = 0; i < 2; i++)
        if (conflict(c, &v->r[i], false))
            return report(c, &v->r[i], false);
    rec *s = c->write ? v->w : v->r;
    const rec me = {c->item, c->ep, c->pc, c->copy};
    for (int i = 0; i < 2; i++)
        if (s[i].item == c->item && s[i].ep == c->ep &&
            !((s[i].pc ^ c->pc) & COPY_BIT)) {
            if (replaces(c, &s[i]) || is_copy(c))   /* (a later copy is */
                s[i] = me;                          /* waited for later) */
            return 0;
        }
    for (int i = 0; i < 2; i++)
        if (replaces(c, &s[i])) {
            s[i] = me;
            return 0;
        }
    return 0;   /* two others that may race with later accesses stay */
}

static int nomem(const acc *c)
{
    c->w->fault = (vm_fault){.kind = VM_TRAP_NOMEM, .lane = c->lane};
    return -1;
}

/* The granule at s (number g of the buffer) for the bytes of mask, when
 * its one-owner record cannot take c's access: byte by byte. */
static NOINLINE_RACE int granule_slow(const acc *c, vm_gran *s, uint64_t g,
                                      uint32_t mask)
{
    const bool plain = !c->atomic && !is_copy(c);
    if (s->item != SPLIT) {
        const uint32_t x = s->item, om = s->info >> 1 & 15;
        const bool same = x - c->lo < c->gs, owrite = s->info & G_WRITE;
        bool gone = !x || (c->local && (!same || s->ep != c->ep));
        if (gone && plain) {
            *s = (vm_gran){c->item, c->ep, c->info | mask << 1};
            return 0;
        }
        if (plain && same && s->ep != c->ep && (c->write || !owrite) &&
            !(om & ~mask)) {   /* c's record covers the older one */
            *s = (vm_gran){c->item, c->ep, c->info | mask << 1};
            return 0;
        }
        uint32_t q = pool_new(c->pool);
        if (q == UINT32_MAX)
            return nomem(c);
        const rec old = {x, s->ep, c->w->P->ins[s->info >> 5].pc, 0};
        for (unsigned k = 0; !gone && k < 4; k++)
            if (om >> k & 1) {
                if (owrite)
                    c->pool->q[q][k].w[0] = old;
                else
                    c->pool->q[q][k].r[0] = old;
            }
        *s = (vm_gran){SPLIT, q, 0};
    }
    for (unsigned k = 0; k < 4; k++)
        if (mask >> k & 1 &&
            byte_access(c, &c->pool->q[s->ep][k], g * 4 + k))
            return -1;
    return 0;
}

/* c's access of the bytes of mask of granule g: in the common cases (the
 * first access, or c's own again) a few compares. */
static inline int granule(const acc *c, uint64_t g, uint32_t mask)
{
    vm_gran *s = &c->b->shadow[g];
    if (s->item == c->item && s->ep == c->ep && !(c->info >> 31)) {
        const uint32_t om = s->info >> 1 & 15;
        if (s->info & G_WRITE) {
            if (!(mask & ~om))
                return 0;
            if (c->write) {
                s->info = c->info | (om | mask) << 1;
                return 0;
            }
        } else if (!c->write) {
            s->info = c->info | (om | mask) << 1;
            return 0;
        } else if (!(om & ~mask)) {
            s->info = c->info | mask << 1;
            return 0;
        }
    } else if (!s->item && !(c->info >> 31)) {
        *s = (vm_gran){c->item, c->ep, c->info | mask << 1};
        return 0;
    }
    return granule_slow(c, s, g, mask);
}

/* c's access of its bytes at..at + len - 1. */
static int range_access(const acc *c)
{
    const uint64_t end = c->at + c->len;
    for (uint64_t a = c->at; a < end;) {
        uint64_t g = a / 4, next = (g + 1) * 4, hi = next < end ? next : end;
        uint32_t mask = ((1u << (hi - a)) - 1) << (a % 4);
        if (granule(c, g, mask))
            return -1;
        a = hi;
    }
    return 0;
}

/* c set up for w's access of buffer bid (kind VM_RACE_*); false if the
 * buffer has no shadow (private, constant). */
static bool setup(acc *c, vm_warp *w, const vm_ins *I, uint32_t bid,
                  int kind)
{
    const vm_prog *P = w->P;
    c->b = &w->bufs[bid];
    if (!c->b->shadow)
        return false;
    c->w = w, c->I = I, c->bid = bid, c->kind = kind;
    c->gs = P->r.group_size;
    c->lo = (uint32_t)(w->g->linear * c->gs + 1);
    c->local = P->bufs[bid].space == BC_LOCAL;
    c->pool = c->local ? w->g->lpool : P->rpool;
    c->ep = w->fenced[!c->local];
    c->write = kind == VM_RACE_WRITE || kind == VM_RACE_ATOMIC ||
               kind == VM_RACE_COPY_WRITE;
    c->atomic = kind == VM_RACE_ATOMIC || kind == VM_RACE_ATOMIC_READ;
    c->pc = I->pc | (c->atomic ? ATOMIC_BIT : 0) |
            (kind >= VM_RACE_COPY_READ ? COPY_BIT : 0);
    /* the bits above the instruction stop the fast path for atomics and
     * copies */
    c->info = (uint32_t)(I - P->ins) << 5 | (c->write ? G_WRITE : 0) |
              (c->pc & (ATOMIC_BIT | COPY_BIT) ? 1u << 31 : 0);
    c->strict = P->profile == PROF_STRICT;
    return true;
}

/* ---- the callers' entries ---- */

int vm_race_mem(vm_warp *w, const vm_ins *I, uint64_t exec)
{
    const vm_prog *P = w->P;
    const uint32_t W = P->r.warp;
    const uint8_t *R = w->R;
    const unsigned base = bc_ops[I->note_op].base;
    const bool write = base == BCB_ST || base == BCB_VSTORE ||
                       base == BCB_VSTH || base == BCB_STP;
    uint64_t idx[VM_MAXW], off[VM_MAXW], at[VM_MAXW];
    uint32_t bid[VM_MAXW];
    memcpy(off, R + I->a, 8 * (size_t)W);
    memcpy(bid, R + I->a + 8 * (size_t)W, 4 * (size_t)W);
    I->widen(idx, R + I->b, W);
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        at[l] = off[l] + idx[l] * I->stride;
        const vm_buf *b = &w->bufs[bid[l] < P->nbufs ? bid[l] : 0];
        if ((at[l] & (I->align - 1)) || I->len > b->size ||
            at[l] > b->size - I->len)
            return 0;   /* the op traps */
    }
    acc c = {0};
    c.exec = exec, c.lat = at, c.len = I->len;
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (!setup(&c, w, I, bid[l], write ? VM_RACE_WRITE : VM_RACE_READ))
            continue;
        c.lane = l, c.at = at[l];
        /* only ST and vstoreN store register bytes as they are */
        c.regval = base == BCB_ST || base == BCB_VSTORE;
        c.item = c.lo + w->base + l;
        if (range_access(&c))
            return -1;
    }
    return 0;
}

int vm_race(vm_warp *w, const vm_ins *I, uint64_t exec, int kind)
{
    const vm_prog *P = w->P;
    const uint32_t W = P->r.warp;
    uint64_t off[VM_MAXW];
    uint32_t bid[VM_MAXW];
    memcpy(off, w->R + I->a, 8 * (size_t)W);
    memcpy(bid, w->R + I->a + 8 * (size_t)W, 4 * (size_t)W);
    acc c = {0};
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (!setup(&c, w, I, bid[l] < P->nbufs ? bid[l] : 0, kind))
            continue;
        c.lane = l, c.at = off[l], c.len = I->len;
        c.item = c.lo + w->base + l;
        if (range_access(&c))
            return -1;
    }
    return 0;
}

int vm_race_copy(vm_warp *w, const vm_ins *I, uint32_t l, uint32_t k,
                 const vm_copyspan *x)
{
    acc c = {0};
    for (uint64_t i = 0; i < x->n; i++)
        for (int side = 0; side < 2; side++) {   /* read, then write */
            uint32_t bid = side ? x->db : x->sb;
            if (!setup(&c, w, I, bid, side ? VM_RACE_COPY_WRITE
                                           : VM_RACE_COPY_READ))
                continue;
            c.lane = l, c.copy = k, c.len = x->es;
            c.item = c.lo + w->base + l;
            c.at = side ? x->d + i * x->ds * x->es : x->s + i * x->ss * x->es;
            c.src = w->bufs[x->sb].data + x->s + i * x->ss * x->es;
            if (range_access(&c))
                return -1;
        }
    return 0;
}
