/* The data race detector (--check races, the strict profile): two
 * accesses to one byte of global or local memory by different work-items
 * that nothing orders (one barrier interval of the space's fence, or, in
 * global memory, different work-groups), at least one a write, not both
 * atomic, trap with both work-items, the bytes and both lines. Async
 * copies are accesses of their whole group, ordered by wait_group_events.
 *
 * Shadow, three tiers, each taken only where the one above cannot say:
 * per aligned 256-byte block a vm_gran saying which run of consecutive
 * work-items of one group accessed which of its quarters (1, 2, 4, ... 64
 * bytes each, as a warp's dense access does: p[get_global_id(0)]) in
 * their interval, byte j by work-item item + (j >> log2 bytes); else per
 * 4-byte granule a vm_gran naming the one work-item that accessed it,
 * or, where several read it and none wrote (a stencil's neighbours), the
 * two reads its bytes' records would keep (a pair: what the byte tier
 * would hold, each of its bytes alike); else, per byte, the last two
 * writes and reads of different work-items that may still race (rec),
 * enough to tell whether the next access races with one: the common cases
 * a few compares per block or granule. Threads lock them (vm_race_lock). */
#include <string.h>

#include "vm/race.h"

#if defined(__GNUC__)
#define NOINLINE_RACE __attribute__((noinline))
#else
#define NOINLINE_RACE
#endif

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
    uint32_t info;             /* vm_gran.info of a granule, without the
                                  bytes; bit 31 for atomics and copies,
                                  which only the byte records take */
    uint32_t ins;              /* the instruction's index */
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
    c->w->fault = (vm_fault){.kind = VM_TRAP_NOMEM, .lane = c->lane,
                             .barwhy = VM_NOMEM_RACE};
    return -1;
}

/* What a pair's reads need of an access, out of acc (whose fields the
 * compiler must reload after every store into the shadow). */
typedef struct {
    uint32_t lo, gs, ep;
    bool local, read;          /* read: a plain read */
} quick;

static quick quick_of(const acc *c)
{
    return (quick){c->lo, c->gs, c->ep, c->local,
                   !c->write && !(c->info >> 31)};
}

/* The granule of a pair of reads r (its bytes pm, its index i). */
static vm_gran pair_gran(const rec *r, uint32_t pm, uint32_t i)
{
    const uint32_t a = r[0].item, b = r[1].item;
    return (vm_gran){PAIR, pm << P_SHIFT | i,
                     a && b ? (a > b ? a : b) : UINT32_MAX};
}

static bool is_pair(const vm_gran *s)
{
    return s->item == PAIR || (s->info & G_PAIR);
}

/* A pair granule's bytes; a pair in place's second work-item. */
static uint32_t pair_mask(const vm_gran *s)
{
    return s->item == PAIR ? s->ep >> P_SHIFT : s->info >> 1 & 15;
}

static uint32_t inplace_other(const vm_gran *s)
{
    return s->item + (s->info >> 28 & 7) - 4;   /* (modulo 2^32) */
}

/* The later work-item of pair s (UINT32_MAX if one is none). */
static uint32_t pair_last(const vm_gran *s)
{
    if (s->item == PAIR)
        return s->info;
    const uint32_t b = inplace_other(s);
    return s->item > b ? s->item : b;
}

/* The two reads of pair s, as its bytes' records hold them. */
static void pair_recs(const acc *c, const vm_gran *s, rec *r)
{
    if (s->item == PAIR) {
        const pair *pr = &c->pool->p[s->ep & ((1u << P_SHIFT) - 1)];
        r[0] = pr->r[0], r[1] = pr->r[1];
        return;
    }
    const uint32_t pc = c->w->P->ins[s->info >> 5 & ((1u << 23) - 1)].pc;
    r[0] = (rec){s->item, s->ep, pc, 0};
    r[1] = (rec){inplace_other(s), s->ep, pc, 0};
}

/* Does a plain read by item (q) leave a pair's read by x in interval ep
 * as it is: another work-item's that it may not replace (replaces)? */
static inline bool read_keeps(quick q, uint32_t item, uint32_t x, uint32_t ep)
{
    const bool same = x - q.lo < q.gs, now = ep == q.ep;
    return x && x != item && (q.local ? same && now : !same || now);
}

/* Is granule s a pair whose reads a plain read of the bytes of mask by
 * work-item item (q) leaves as they are, as byte_access would: two other
 * work-items' that it may not replace (replaces)? In global memory two
 * reads of earlier work-groups always (the granule says so at once). */
static inline bool pair_quick(const acc *c, quick q, const vm_gran *s,
                              uint32_t item, uint32_t mask)
{
    if (!q.read || !is_pair(s) || (mask & ~pair_mask(s)))
        return false;
    if (!q.local && pair_last(s) < q.lo)
        return true;
    if (s->item != PAIR)
        return read_keeps(q, item, s->item, s->ep) &&
               read_keeps(q, item, inplace_other(s), s->ep);
    const pair *pr = &c->pool->p[s->ep & ((1u << P_SHIFT) - 1)];
    return read_keeps(q, item, pr->r[0].item, pr->r[0].ep) &&
           read_keeps(q, item, pr->r[1].item, pr->r[1].ep);
}

/* The records of granule s's bytes of pm, all alike (v), kept byte by
 * byte from now on: 0, or -1 with w->fault filled. */
static int split_alike(const acc *c, vm_gran *s, uint32_t pm,
                       const byterec *v)
{
    uint32_t q = vm_racepool_q(c->pool);
    if (q == UINT32_MAX)
        return nomem(c);
    for (unsigned k = 0; k < 4; k++)
        if (pm >> k & 1)
            vm_racepool_bytes(c->pool, q)[k] = *v;
    *s = (vm_gran){SPLIT, q, 0};
    return 0;
}

/* c's access of the bytes of mask of granule s (number g), kept byte by
 * byte. */
static int bytes_access(const acc *c, const vm_gran *s, uint64_t g,
                        uint32_t mask)
{
    for (unsigned k = 0; k < 4; k++)
        if (mask >> k & 1 &&
            byte_access(c, &vm_racepool_bytes(c->pool, s->ep)[k], g * 4 + k))
            return -1;
    return 0;
}

/* The pair granule s for c's access of the bytes of mask: a read that
 * changes its bytes' records alike (or not at all) keeps the pair, as
 * the byte tier would; any other access goes to the byte tier, the pair
 * in each of its bytes. */
static NOINLINE_RACE int pair_slow(const acc *c, vm_gran *s, uint64_t g,
                                   uint32_t mask)
{
    const uint32_t pm = pair_mask(s);
    rec r[2];
    pair_recs(c, s, r);
    byterec v;
    memset(&v, 0, sizeof v);
    v.r[0] = r[0], v.r[1] = r[1];
    if (!c->write && !(c->info >> 31) && !(mask & ~pm)) {
        byte_access(c, &v, g * 4);   /* (a read: races with no read) */
        if (!memcmp(v.r, r, sizeof r))
            return 0;
        if (mask == pm) {   /* kept in the pool from now on */
            uint32_t i = s->item == PAIR ? s->ep & ((1u << P_SHIFT) - 1)
                                         : vm_racepool_p(c->pool);
            if (i >= 1u << P_SHIFT)
                return nomem(c);
            c->pool->p[i] = (pair){{v.r[0], v.r[1]}};
            *s = pair_gran(v.r, pm, i);
            return 0;
        }
        v.r[0] = r[0], v.r[1] = r[1];
    }
    return split_alike(c, s, pm, &v) ? -1 : bytes_access(c, s, g, mask);
}

/* The granule at s (number g of the buffer) for the bytes of mask, when
 * its one-owner record cannot take c's access: a pair when c reads the
 * bytes another read, else byte by byte. */
static NOINLINE_RACE int granule_slow(const acc *c, vm_gran *s, uint64_t g,
                                      uint32_t mask)
{
    const bool plain = !c->atomic && !is_copy(c);
    if (is_pair(s))
        return pair_slow(c, s, g, mask);
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
        const rec old = {x, s->ep, c->w->P->ins[s->info >> 5].pc, 0};
        if (!owrite && !gone && plain && !c->write && mask == om) {
            /* a read after another work-item's, which it may not replace
             * (the cases above): the byte tier would keep both; in place
             * when it can say them */
            const uint32_t d = c->item - x + 4;
            if (s->ep == c->ep && s->info >> 5 == c->ins && d < 8 && d != 4) {
                s->info |= G_PAIR | d << 28;
                return 0;
            }
            uint32_t i = vm_racepool_p(c->pool);
            if (i >= 1u << P_SHIFT)
                return nomem(c);
            pair *pr = &c->pool->p[i];
            pr->r[0] = old;
            pr->r[1] = (rec){c->item, c->ep, c->pc, 0};
            *s = pair_gran(pr->r, mask, i);
            return 0;
        }
        byterec v;
        memset(&v, 0, sizeof v);
        if (!gone) {
            if (owrite)
                v.w[0] = old;
            else
                v.r[0] = old;
        }
        if (split_alike(c, s, om, &v))
            return -1;
    }
    return bytes_access(c, s, g, mask);
}

/* granule() once pair_quick has said no. */
static inline int granule_rest(const acc *c, vm_gran *s, uint64_t g,
                               uint32_t mask)
{
    if (s->item == c->item && s->ep == c->ep &&
        !((c->info | s->info) >> 31)) {   /* (not a pair in place) */
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
    } else if (!(c->info & (G_WRITE | 1u << 31)) && s->item < PAIR &&
               s->info == c->info + (mask << 1) && s->ep == c->ep &&
               s->item - c->item + 3 < 7 && s->item != c->item &&
               (!c->local || s->item - c->lo < c->gs)) {
        /* (granule_slow's pair in place, at once: another work-item's
         * read of these bytes by this instruction in this interval) */
        s->info |= G_PAIR | (c->item - s->item + 4) << 28;
        return 0;
    }
    return granule_slow(c, s, g, mask);
}

/* c's access of the bytes of mask of granule g (record s): in the common
 * cases (the first access, c's own again, another read of a pair's bytes
 * that leaves its records as they are) a few compares. A pair is checked
 * first: its item is PAIR or has G_PAIR set, so neither c's own nor an
 * empty granule's case above could take it. */
static inline int granule(const acc *c, vm_gran *s, uint64_t g,
                          uint32_t mask)
{
    if (pair_quick(c, quick_of(c), s, c->item, mask))
        return 0;   /* (what byte_access would do: nothing) */
    return granule_rest(c, s, g, mask);
}

/* The record of block b: the item that made byte j (its quarter in the
 * mask) and its granule's info as a one-owner record. */
static uint32_t block_item(const vm_gran *b, uint64_t j)
{
    return b->item + (uint32_t)(j >> (b->info >> 1 & 7));
}

/* The byte records of granule j of block b, whose bytes have 2 or 4
 * owners: its index in the pool. */
static uint32_t split_granule(const acc *c, const vm_gran *b, uint32_t j)
{
    uint32_t q = vm_racepool_q(c->pool);
    if (q == UINT32_MAX)
        return q;
    byterec *v = vm_racepool_bytes(c->pool, q);
    for (uint32_t k = 0; k < 4; k++) {
        rec r = {block_item(b, j * 4 + k), b->ep,
                 c->w->P->ins[b->info >> 9].pc, 0};
        if (b->info & G_WRITE)
            v[k].w[0] = r;
        else
            v[k].r[0] = r;
    }
    return q;
}

/* The granules of block k of c's buffer, which from now on keeps them:
 * NULL without memory. */
static NOINLINE_RACE vm_gran *block_split(const acc *c, uint64_t k)
{
    vm_gran *b = &c->b->shadow[k];
    uint32_t i = vm_racepool_g(c->pool);
    if (i == UINT32_MAX)
        return NULL;
    const uint32_t sh = b->info >> 1 & 7, qm = b->info >> 4 & 15;
    for (uint32_t j = 0; j < GPB; j++) {
        vm_gran *t = &c->pool->g[i][j];
        if (!(qm >> (j * 4 / QUARTER) & 1))
            continue;
        if (sh >= 2) {
            *t = (vm_gran){block_item(b, j * 4), b->ep,
                           (b->info & G_WRITE) | 15u << 1 |
                               (b->info >> 9) << 5};
        } else {
            uint32_t q = split_granule(c, b, j);
            if (q == UINT32_MAX)
                return NULL;
            *t = (vm_gran){SPLIT, q, 0};
        }
    }
    *b = (vm_gran){0, i, B_SPLIT};
    return c->pool->g[i];
}

static inline vm_gran *block_granules(const acc *c, uint64_t k)
{
    const vm_gran *b = &c->b->shadow[k];
    return b->info & B_SPLIT ? c->pool->g[b->ep] : block_split(c, k);
}

/* c's access of its bytes at..at + len - 1. */
static int range_access(const acc *c)
{
    vm_racehold h;
    vm_race_lock(c->pool, c->bid, c->at, c->len, &h);
    const uint64_t end = c->at + c->len;
    int rc = 0;
    for (uint64_t a = c->at; a < end && !rc;) {
        uint64_t g = a / 4, next = (g + 1) * 4, hi = next < end ? next : end;
        uint32_t mask = ((1u << (hi - a)) - 1) << (a % 4);
        vm_gran *gs = block_granules(c, g / GPB);
        if (!gs)
            return vm_race_unlock(&h), nomem(c);
        c->b->shadow[g / GPB].item = 0;   /* (pairs_before's summary) */
        rc = granule(c, &gs[g % GPB], g, mask);
        a = hi;
    }
    vm_race_unlock(&h);
    return rc;
}

/* Block k, whose quarters qm a dense access by c's lanes makes all of,
 * byte j by work-item item + (j >> sh) (item as unsigned arithmetic: the
 * first quarters' work-items may be before the group's): false if the
 * block's record cannot take it (the lanes go byte by byte then). */
static bool block_dense(const acc *c, uint64_t k, uint32_t item, uint32_t sh,
                        uint32_t qm)
{
    vm_gran *b = &c->b->shadow[k];
    const uint32_t bm = b->info >> 4 & 15, ins = c->ins << 9,
                   w = c->write ? G_WRITE : 0;
    if (!b->info) {
        *b = (vm_gran){item, c->ep, w | sh << 1 | qm << 4 | ins};
        return true;
    }
    if (b->info & B_SPLIT)
        return false;
    /* the group of the record's work-items, of c's */
    const uint32_t q0 = (uint32_t)__builtin_ctz(bm);
    const bool same = block_item(b, q0 * QUARTER) - c->lo < c->gs;
    if (b->item == item && b->ep == c->ep && (b->info >> 1 & 7) == sh &&
        same) {
        if ((b->info & G_WRITE) || !w) {   /* a write covers reads */
            if (!(qm & ~bm))
                return true;
            if ((b->info & G_WRITE) == w) {
                b->info |= qm << 4;
                return true;
            }
        } else if (!(bm & ~qm)) {
            *b = (vm_gran){item, c->ep, w | sh << 1 | qm << 4 | ins};
            return true;
        }
        return false;
    }
    if (c->local ? !same || b->ep != c->ep
                 : same && b->ep != c->ep && (w || !(b->info & G_WRITE)) &&
                       !(bm & ~qm)) {   /* gone, or covered by c's */
        *b = (vm_gran){item, c->ep, w | sh << 1 | qm << 4 | ins};
        return true;
    }
    return false;
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
    c->ins = (uint32_t)(I - P->ins);
    c->info = c->ins << 5 | (c->write ? G_WRITE : 0) |
              (c->pc & (ATOMIC_BIT | COPY_BIT) ? 1u << 31 : 0);
    c->strict = P->profile == PROF_STRICT;
    return true;
}

/* ---- the callers' entries ---- */

/* The lanes whose bytes the blocks take at once of a dense access of n
 * lanes from lane l0 at a0 (lane l's len bytes, a power of two up to a
 * quarter, aligned to it, following lane l - 1's): those of the quarters
 * they wholly cover. The others are left to the caller. */
static uint64_t dense_blocks(acc *c, uint32_t l0, uint32_t n, uint64_t a0)
{
    const uint64_t len = c->len;
    const uint64_t end = a0 + (uint64_t)n * len;
    const uint32_t sh = (uint32_t)__builtin_ctzll(len);
    const uint64_t per = QUARTER >> sh;   /* lanes per quarter */
    uint64_t done = 0;
    const uint32_t i0 = c->lo + c->w->base + l0;
    if (a0 % BLOCK == 0 && (end - a0) % BLOCK == 0) {
        /* whole blocks (a warp of float4s: 4 of them) */
        const uint64_t lanes = BLOCK >> sh;
        for (uint64_t k = a0 / BLOCK, j = 0; k < end / BLOCK; k++, j += lanes)
            if (block_dense(c, k, i0 + (uint32_t)j, sh, 15))
                done |= (lanes == 64 ? UINT64_MAX : (1ull << lanes) - 1)
                        << (j + l0);
        return done;
    }
    uint64_t q = (a0 + QUARTER - 1) / QUARTER;
    while ((q + 1) * QUARTER <= end) {
        /* the quarters of block k covered: q .. e - 1 */
        const uint64_t k = q / 4;
        uint64_t e = (k + 1) * 4;
        while (e > q && e * QUARTER > end)
            e--;
        const uint32_t qm = (uint32_t)(((1u << (e - q)) - 1) << (q % 4));
        /* the work-item of the block's byte 0 (lane l0's is a0's) */
        const uint32_t item =
            a0 >= k * BLOCK ? i0 - (uint32_t)((a0 - k * BLOCK) >> sh)
                            : i0 + (uint32_t)((k * BLOCK - a0) >> sh);
        if (block_dense(c, k, item, sh, qm)) {
            uint64_t first = (q * QUARTER - a0) >> sh, nl = (e - q) * per;
            done |= (nl == 64 ? UINT64_MAX : (1ull << nl) - 1) << (first + l0);
        }
        q = e;
    }
    return done;
}

/* The same for the lanes of exec at at[l] in buffers bid[l], when they
 * make a dense access (else none). */
static uint64_t dense(acc *c, uint64_t exec, const uint64_t *at,
                      const uint32_t *bid)
{
    const uint32_t l0 = (uint32_t)__builtin_ctzll(exec);
    const uint64_t run = exec >> l0, len = c->len, a0 = at[l0];
    if ((run & (run + 1)) || (len & (len - 1)) || len > QUARTER || a0 % len)
        return 0;
    uint64_t bad = 0;
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        bad |= (at[l] - a0 - (l - l0) * len) | (bid[l] ^ bid[l0]);
    }
    if (bad)
        return 0;
    const uint32_t n = (uint32_t)__builtin_popcountll(exec);
    vm_racehold h;
    vm_race_lock(c->pool, c->bid, a0, n * len, &h);
    const uint64_t done = dense_blocks(c, l0, n, a0);
    vm_race_unlock(&h);
    return done;
}

/* Are granules ga..gb - 1 of c's buffer all pairs of reads of all their
 * bytes by work-items before lo (of earlier work-groups), which a plain
 * read of global memory by c's group leaves as they are (pair_quick)? A
 * stencil's reads of what earlier groups read, checked a warp at once:
 * a split block whose granules are all pairs keeps the later of their
 * work-items as its vm_gran.item (0: not known, UINT32_MAX: not all
 * pairs), which the callers of granule() clear. */
static bool pairs_before(const acc *c, uint64_t ga, uint64_t gb,
                         uint32_t lo)
{
    for (uint64_t k = ga / GPB; k <= (gb - 1) / GPB; k++) {
        vm_gran *b = &c->b->shadow[k];
        if (!(b->info & B_SPLIT))
            return false;
        const vm_gran *gs = c->pool->g[b->ep],
                      *first = &gs[k == ga / GPB ? ga % GPB : 0];
        /* (the first granule says no at once, as it does while the
         * group that made the pairs reads them again) */
        if (!b->item && is_pair(first) && pair_last(first) < lo) {
            uint32_t bad = 0, last = 0;
            for (uint32_t j = 0; j < GPB; j++) {
                const uint32_t t = is_pair(&gs[j]) ? pair_last(&gs[j]) : 0;
                bad |= (uint32_t)(t == 0) | (pair_mask(&gs[j]) ^ 15);
                last = t > last ? t : last;
            }
            b->item = bad ? UINT32_MAX : last;
        }
        if (!b->item || b->item >= lo)
            return false;
    }
    return true;
}

/* The lanes of exec (a plain read of global memory: c's dense 4-byte
 * access from lane 0 at a0, a granule a lane) whose granules take the
 * read at once, found and done with no branch per granule: a pair in
 * place of all its bytes by two other work-items of c's group in c's
 * interval, which the read leaves as it is (pair_quick); one other
 * work-item's read of all its bytes by this instruction in this
 * interval, at most 3 away, which becomes such a pair (granule_rest's
 * pair in place); an empty one, which becomes c's (granule_rest's second
 * case; pair_quick and the first cannot take it). A stencil's reads of
 * what a neighbour read, or none. A block whose first granule in the run
 * is none of these is skipped (its lanes go one by one). */
static uint64_t quick_lanes(const acc *c, quick q, uint64_t exec,
                            uint64_t a0)
{
    if (!q.read || q.local || !exec)
        return 0;
    const uint32_t item0 = c->lo + c->w->base,
                   l0 = (uint32_t)__builtin_ctzll(exec),
                   l1 = 64 - (uint32_t)__builtin_clzll(exec),
                   one = c->info + (15u << 1);   /* a one-owner read's */
    uint64_t done = 0;
    for (uint64_t g = a0 / 4 + l0, gb = a0 / 4 + l1; g < gb;) {
        vm_gran *b = &c->b->shadow[g / GPB];
        const uint64_t end = (g / GPB + 1) * GPB < gb ? (g / GPB + 1) * GPB
                                                     : gb;
        const vm_gran *f = b->info & B_SPLIT ? &c->pool->g[b->ep][g % GPB]
                                             : NULL;
        if (!f || f->item == PAIR ||
            !((f->info & G_PAIR) || f->info == one || !f->item)) {
            g = end;
            continue;
        }
        vm_gran *gs = c->pool->g[b->ep];
        uint64_t made = 0;
        for (; g < end; g++) {
            vm_gran *s = &gs[g % GPB];
            const uint32_t l = (uint32_t)(g - a0 / 4), item = item0 + l,
                           x = s->item, o = inplace_other(s);
            const bool in = exec >> l & 1,
                       keep = (s->info & G_PAIR) && x != PAIR &&
                              (s->info >> 1 & 15) == 15 && s->ep == q.ep &&
                              x - q.lo < q.gs && o - q.lo < q.gs &&
                              x != item && o != item,
                       mk = in && x && x < PAIR && s->info == one &&
                              s->ep == c->ep && x - item + 3 < 7 &&
                              x != item,
                       fresh = in && !x && !(s->info & G_PAIR);
            s->info |= mk ? G_PAIR | (item - x + 4) << 28 : 0;
            if (fresh)
                *s = (vm_gran){item, c->ep, one};
            made |= (uint64_t)(mk | fresh) << l;
            done |= (uint64_t)(keep | mk | fresh) << l;
        }
        if (made)
            b->item = 0;   /* (pairs_before's summary) */
    }
    return done & exec;
}

/* The granules of lanes exec of c's dense access from lane 0 at a0, lane
 * by lane, each block's looked up once: lane l's len = 1 << sh bytes
 * are per granules (the bytes of lmask in each). Inlined with constants
 * for the common 4-byte access (a granule a lane). */
static inline __attribute__((always_inline)) int
lane_granules(acc *c, quick q, uint64_t exec, uint64_t a0, uint32_t sh,
              uint32_t per, uint32_t lmask)
{
    const uint32_t item0 = c->lo + c->w->base;
    uint64_t k = UINT64_MAX;
    vm_gran *gs = NULL;
    for (uint64_t m = exec; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctzll(m), item = item0 + l;
        const uint64_t at0 = a0 + ((uint64_t)l << sh);
        for (uint32_t j = 0; j < per; j++) {   /* (len aligned) */
            const uint64_t a = at0 + 4 * j, g = a / 4;
            if (g / GPB != k && !(gs = block_granules(c, k = g / GPB)))
                return nomem(c);
            vm_gran *s = &gs[g % GPB];
            const uint32_t mask = lmask << (a & 3);
            if (pair_quick(c, q, s, item, mask))   /* (the common case) */
                continue;
            c->lane = l, c->at = at0, c->item = item;
            c->b->shadow[k].item = 0;   /* (pairs_before's summary) */
            if (granule_rest(c, s, g, mask))
                return -1;
        }
    }
    return 0;
}

/* The lanes exec of c's dense access from lane 0 of the warp at a0 (the
 * blocks' part, the other lanes' one by one, their first bytes put in
 * at, c->lat): 0, or -1 with w->fault filled. */
static int lanes_from(acc *c, uint64_t exec, uint64_t a0, uint64_t *at)
{
    exec &= ~dense_blocks(c, 0, (uint32_t)__builtin_popcountll(exec), a0);
    if (!exec)
        return 0;
    const uint64_t len = c->len;
    const quick q = quick_of(c);
    if (q.read && !q.local) {
        const uint64_t l0 = (uint64_t)__builtin_ctzll(exec),
                       l1 = 64 - (uint64_t)__builtin_clzll(exec);
        if (pairs_before(c, (a0 + l0 * len) / 4,
                         (a0 + l1 * len + 3) / 4, q.lo))
            return 0;
    }
    for (uint32_t l = 0; c->write && l < VM_MAXW; l++)   /* (byte_before's) */
        at[l] = a0 + l * len;                            /* lane l's bytes */
    if (len == 4)
        return lane_granules(c, q, exec & ~quick_lanes(c, q, exec, a0), a0,
                             2, 1, 15);
    return lane_granules(c, q, exec, a0, (uint32_t)__builtin_ctzll(len),
                         len < 4 ? 1 : (uint32_t)len / 4,
                         len >= 4 ? 15 : (1u << len) - 1);
}

/* Built for AVX2 too, chosen when the program loads (as vm/quiet.c). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(CLVM_NO_AVX2)
#define RACE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RACE_CLONES
#endif

/* Do the n lanes' pointers (offsets at po, buffers at pb, as registers
 * hold them) all say one buffer and one offset, their indices idx[0],
 * idx[0] + 1, ...? uni: the pointer register is never written, so the
 * same in every lane (vm_ins.uni): the indices alone say. */
static RACE_CLONES bool consecutive(const uint8_t *po, const uint8_t *pb,
                                    const uint64_t *idx, uint32_t n,
                                    bool uni)
{
    uint64_t off[VM_MAXW], same = 0;
    uint32_t bid[VM_MAXW], sb = 0;
    for (uint64_t l = 0; l < n; l++)
        same |= idx[l] - idx[0] - l;
    if (uni || same)
        return !same;
    memcpy(off, po, 8 * (size_t)n);
    memcpy(bid, pb, 4 * (size_t)n);
    for (uint64_t l = 0; l < n; l++)
        same |= off[l] ^ off[0];
    for (uint32_t l = 0; l < n; l++)
        sb |= bid[l] ^ bid[0];
    return !(same | sb);
}

/* The whole warp's access of consecutive elements of buffer bid from
 * byte at0 on, in bounds, checked at once, its lanes' first bytes left in
 * at: 0, -1 with w->fault filled, or 1 if the access is not of the form
 * the blocks take (elements a power of two up to a quarter, aligned to
 * their size, one after another) or the buffer has no shadow. */
static int warp_row(acc *c, vm_warp *w, const vm_ins *I, uint32_t bid,
                    uint64_t at0, uint64_t *at, int kind)
{
    const uint64_t len = I->len, n = w->lanes;
    if (I->stride != len || (len & (len - 1)) || len > QUARTER || at0 % len)
        return 1;
    const vm_buf *b = &w->bufs[bid];
    if (!b->shadow || len * n > b->size || at0 > b->size - len * n)
        return 1;
    setup(c, w, I, bid, kind);
    vm_racehold h;
    vm_race_lock(c->pool, bid, at0, len * n, &h);
    const int rc = lanes_from(c, w->all, at0, at);
    vm_race_unlock(&h);
    return rc;
}

/* A whole warp's access of consecutive elements of one buffer with a
 * shadow, in bounds (as for p[get_global_id(0)]), checked at once:
 * warp_row's, or 1 if the lanes do not make such a row. */
static int whole_warp(acc *c, vm_warp *w, const vm_ins *I,
                      const uint64_t *idx, uint64_t *at, int kind)
{
    const uint32_t n = w->lanes, W = w->P->r.warp;
    const uint8_t *po = w->R + I->a, *pb = po + 8 * (size_t)W;
    uint64_t off0;
    uint32_t bid[1];
    memcpy(&off0, po, 8);
    memcpy(bid, pb, 4);
    if (bid[0] >= w->P->nbufs || !consecutive(po, pb, idx, n, I->uni))
        return 1;
    return warp_row(c, w, I, bid[0], off0 + idx[0] * I->stride, at, kind);
}

/* The access kind of memory op I (VM_RACE_READ or _WRITE), and c set up
 * for its lanes exec, whose first bytes go to at. */
static int access_of(acc *c, const vm_ins *I, uint64_t exec, uint64_t *at)
{
    const unsigned base = bc_ops[I->note_op].base;
    const bool write = base == BCB_ST || base == BCB_VSTORE ||
                       base == BCB_VSTH || base == BCB_STP;
    *c = (acc){0};
    c->exec = exec, c->lat = at, c->len = I->len;
    /* only ST and vstoreN store register bytes as they are */
    c->regval = base == BCB_ST || base == BCB_VSTORE;
    return write ? VM_RACE_WRITE : VM_RACE_READ;
}

int vm_race_row(vm_warp *w, const vm_ins *I, const uint8_t *p)
{
    const uint32_t bid =
        (uint32_t)vm_reg_uint(w->R + I->a + 8 * (size_t)w->P->r.warp, 4);
    uint64_t at[VM_MAXW];
    acc c;
    const int kind = access_of(&c, I, w->all, at);
    const int rc = warp_row(&c, w, I, bid, (uint64_t)(p - w->bufs[bid].data),
                            at, kind);
    return rc <= 0 ? rc : vm_race_mem(w, I, w->all);
}

int vm_race_mem(vm_warp *w, const vm_ins *I, uint64_t exec)
{
    const vm_prog *P = w->P;
    const uint32_t W = P->r.warp;
    const uint8_t *R = w->R;
    uint64_t idx[VM_MAXW], off[VM_MAXW], at[VM_MAXW];
    uint32_t bid[VM_MAXW];
    I->widen(idx, R + I->b, W);
    acc c;
    const int kind = access_of(&c, I, exec, at);
    int rc = exec == w->all ? whole_warp(&c, w, I, idx, at, kind) : 1;
    if (rc <= 0)
        return rc;
    memcpy(off, R + I->a, 8 * (size_t)W);
    memcpy(bid, R + I->a + 8 * (size_t)W, 4 * (size_t)W);
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        at[l] = off[l] + idx[l] * I->stride;
        bid[l] = bid[l] < P->nbufs ? bid[l] : 0;
        const vm_buf *b = &w->bufs[bid[l]];
        if ((at[l] & (I->align - 1)) || I->len > b->size ||
            at[l] > b->size - I->len)
            return 0;   /* the op traps */
    }
    uint32_t cur = UINT32_MAX;   /* the buffer c is set up for */
    bool shadowed = false;
    if (exec && setup(&c, w, I, bid[__builtin_ctzll(exec)], kind)) {
        cur = bid[__builtin_ctzll(exec)], shadowed = true;
        exec &= ~dense(&c, exec, at, bid);
    }
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (bid[l] != cur)
            cur = bid[l], shadowed = setup(&c, w, I, cur, kind);
        if (!shadowed)
            continue;
        c.lane = l, c.at = at[l];
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
