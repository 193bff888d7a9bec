/* The data race detector (--check races, the strict profile): two
 * accesses to one byte of global or local memory by different work-items
 * in one barrier interval (for global memory: or in different
 * work-groups), at least one a write, not both atomic, trap with both
 * work-items, the bytes and both lines. Each byte keeps its last write and
 * two reads (vm_shadow). */
#include <stdlib.h>
#include <string.h>

#include "vm/interp.h"

enum { ATOMIC_BIT = 1u << 31 };

bool vm_race_prog(vm_prog *P)
{
    if (!(P->shadow = calloc(P->nbufs, sizeof *P->shadow)))
        return false;
    for (uint32_t b = 1; b < P->nbufs; b++)
        if (P->bufs[b].space == BC_GLOBAL && P->bufs[b].size &&
            !(P->shadow[b] = calloc(P->bufs[b].size, sizeof(vm_shadow))))
            return false;
    return true;
}

void vm_race_prog_free(vm_prog *P)
{
    for (uint32_t b = 0; P->shadow && b < P->nbufs; b++)
        free(P->shadow[b]);
    free(P->shadow);
    P->shadow = NULL;
}

/* Does access x conflict with the access `me` makes in barrier interval
 * bar of the group whose items are lo..lo + gs - 1? Different work-items,
 * the same interval or different groups, at least one a write (the
 * caller asks only about pairs with one), not both atomic. */
static inline bool conflict(const vm_access *x, uint32_t me, uint32_t bar,
                            uint32_t lo, uint32_t gs, bool atomic)
{
    if (!x->item || x->item == me || (atomic && (x->pc & ATOMIC_BIT)))
        return false;
    return x->item - lo >= gs || x->bar == bar;
}

/* A read's record: it replaces a reader that is itself, none, or of an
 * older interval of the group, so that two different readers stay. */
static inline void note_read(vm_shadow *s, const vm_access *a, uint32_t lo,
                             uint32_t gs)
{
    if (!conflict(&s->r1, a->item, a->bar, lo, gs, false))
        s->r1 = *a;
    else if (!conflict(&s->r2, a->item, a->bar, lo, gs, false))
        s->r2 = *a;
}

static int report(vm_warp *w, const vm_ins *I, uint32_t l, uint32_t bid,
                  uint64_t at, int kind, const vm_access *o, bool owrite)
{
    w->fault = (vm_fault){.kind = VM_TRAP_RACE, .lane = l, .buf = bid,
                          .addr = at, .len = I->len,
                          .barwhy = (uint8_t)kind,
                          .other_pc = o->pc & ~(uint32_t)ATOMIC_BIT,
                          .opnd = {o->item - 1, o->pc & ATOMIC_BIT
                                                    ? VM_RACE_ATOMIC
                                                    : (uint64_t)owrite}};
    return -1;
}

int vm_race(vm_warp *w, const vm_ins *I, uint64_t exec, int kind)
{
    const vm_prog *P = w->P;
    const uint32_t W = P->r.warp, gs = P->r.group_size;
    const uint8_t *R = w->R;
    uint64_t idx[VM_MAXW] = {0}, off[VM_MAXW];
    uint32_t bid[VM_MAXW];
    memcpy(off, R + I->a, 8 * (size_t)W);
    memcpy(bid, R + I->a + 8 * (size_t)W, 4 * (size_t)W);
    const bool atomic = kind == VM_RACE_ATOMIC || kind == VM_RACE_ATOMIC_READ;
    const bool write = kind == VM_RACE_WRITE || kind == VM_RACE_ATOMIC;
    if (!atomic)
        I->widen(idx, R + I->b, W);
    vm_shadow prev;
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        const vm_buf *b = &w->bufs[bid[l] < P->nbufs ? bid[l] : 0];
        if (!b->shadow)
            continue;   /* private or constant memory */
        uint64_t at = off[l] + idx[l] * (atomic ? 0 : I->stride);
        const uint32_t lo = (uint32_t)(w->g->linear * gs + 1);
        vm_access a = {lo + w->base + l, w->barriers,
                       I->pc | (atomic ? ATOMIC_BIT : 0)};
        const vm_shadow *same = NULL;   /* the last byte's records, checked */
        for (uint32_t k = 0; k < I->len; k++) {
            vm_shadow *s = b->shadow + at + k;
            if (!same || memcmp(s, same, sizeof *s)) {
                if (conflict(&s->w, a.item, a.bar, lo, gs, atomic))
                    return report(w, I, l, bid[l], at, kind, &s->w, true);
                if (write && conflict(&s->r1, a.item, a.bar, lo, gs, atomic))
                    return report(w, I, l, bid[l], at, kind, &s->r1, false);
                if (write && conflict(&s->r2, a.item, a.bar, lo, gs, atomic))
                    return report(w, I, l, bid[l], at, kind, &s->r2, false);
            }
            vm_shadow before = *s;
            if (write)
                s->w = a;
            else
                note_read(s, &a, lo, gs);
            prev = before;
            same = &prev;
        }
    }
    return 0;
}
