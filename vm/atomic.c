/* ATOM: the atomic read-modify-write of the active lanes, one at a time in
 * lane order, each indivisible against other work-groups' threads. */
#include <string.h>

#include "stdlib/atomic.h"
#include "stdlib/bytes.h"
#include "vm/interp.h"

/* For a buffer whose host address is not aligned for the element (a host
 * pointer the platform was given): every access to it is misaligned
 * alike, so one lock serialises them all. */
static volatile char slow_lock;

/* Old value of the element at q (es bytes, little-endian in the buffer);
 * it becomes atomic_apply's value. Aligned: a compare-and-swap loop of
 * the host's atomics on the element. */
static uint64_t rmw(uint8_t *q, unsigned es, enum atomic_fn f,
                    enum ty_scalar s, uint64_t val, uint64_t cmp)
{
    uint64_t old;
    if ((uintptr_t)q & (es - 1)) {
        while (__atomic_test_and_set(&slow_lock, __ATOMIC_ACQUIRE))
            ;
        old = le_load(q, es);
        le_store(q, es, atomic_apply(f, s, old, val, cmp));
        __atomic_clear(&slow_lock, __ATOMIC_RELEASE);
        return old;
    }
    /* a compare-and-swap loop on the element as a host integer T */
#define CAS_LOOP(T)                                                         \
    {                                                                       \
        T *p = (T *)(void *)q, cur = __atomic_load_n(p, __ATOMIC_RELAXED);  \
        T nw;                                                               \
        do {                                                                \
            old = le_load((const uint8_t *)&cur, sizeof(T));                \
            uint8_t b[sizeof(T)];                                           \
            le_store(b, sizeof(T), atomic_apply(f, s, old, val, cmp));      \
            memcpy(&nw, b, sizeof(T));                                      \
        } while (!__atomic_compare_exchange_n(p, &cur, nw, true,            \
                                              __ATOMIC_SEQ_CST,             \
                                              __ATOMIC_RELAXED));           \
        return old;                                                         \
    }
    if (es == 4)
        CAS_LOOP(uint32_t)
    CAS_LOOP(uint64_t)
#undef CAS_LOOP
}

static void reg_set(uint8_t *p, unsigned es, uint64_t v)
{
    if (es == 4) {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

int vm_atomic(vm_warp *w, const vm_ins *I, uint64_t exec)
{
    const uint32_t W = w->P->r.warp, nbufs = w->P->nbufs;
    const unsigned es = I->es;
    uint8_t *R = w->R;
    uint64_t off[VM_MAXW];
    uint32_t bid[VM_MAXW];
    memcpy(off, R + I->a, 8 * (size_t)W);
    memcpy(bid, R + I->a + 8 * (size_t)W, 4 * (size_t)W);
    /* every lane is checked before any lane's access, as for LD and ST */
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        uint32_t id = bid[l] < nbufs ? bid[l] : 0;
        const vm_buf *b = &w->bufs[id];
        uint64_t at = off[l];
        bool mis = at & (es - 1);
        if (mis || es > b->size || at > b->size - es) {
            w->fault = (vm_fault){.kind = mis ? VM_TRAP_ALIGN : VM_TRAP_BOUNDS,
                                  .lane = l, .buf = id, .addr = at,
                                  .len = es, .align = es};
            return -1;
        }
    }
    const enum ty_scalar s = (enum ty_scalar)bc_ops[I->op].elem;
    const enum atomic_fn f = (enum atomic_fn)I->imm;
    const bool races = w->P->r.races;
    if (races && f != AT_CMPXCHG && vm_race(w, I, exec, VM_RACE_ATOMIC))
        return -1;
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        const vm_buf *b = &w->bufs[bid[l]];
        uint64_t val = vm_reg_uint(R + I->b + (size_t)l * es, es);
        uint64_t cmp = vm_reg_uint(R + I->c + (size_t)l * es, es);
        if (f == AT_CMPXCHG) {   /* a is the compared value, b the new */
            uint64_t t = val;
            val = cmp, cmp = t;
            /* a cmpxchg that finds another value writes nothing: for the
             * race check it is an atomic read (groups run on one thread
             * under the check, so the value seen is the one it will find) */
            uint8_t *q = b->data + b->lstride * l + off[l];
            int k = le_load(q, es) == cmp ? VM_RACE_ATOMIC : VM_RACE_ATOMIC_READ;
            if (races && vm_race(w, I, 1ull << l, k))
                return -1;
        }
        uint64_t old = rmw(b->data + b->lstride * l + off[l], es, f, s, val,
                           cmp);
        reg_set(R + I->d + (size_t)l * es, es, old);
    }
    return 0;
}
