/* vm_run: a kernel over an NDRange, its work-groups spread over threads.
 *
 * Work-groups are taken in increasing order and each run through the
 * scheduler; the one trap reported, the printf output (group by group) and
 * the --warn-impl counts come out the same whatever the thread count. */
#include "vm/vm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/note.h"
#include "vm/decode.h"
#include "vm/pool.h"
#include "vm/sched.h"
#include "vm/trap.h"
#include "vm/warp.h"

/* Runs unit u on g: work-group u, or where a group's `parts` warps run
 * apart (apart), warp u % parts of group u / parts. 0, or the trap kind
 * with t filled. */
static int run_group(vm_group *g, uint64_t u, uint32_t parts, vm_trap *t)
{
    vm_sched s;
    if (parts == 1)
        vm_sched_start(&s, g, u);
    else
        vm_sched_part(&s, g, u / parts, (uint32_t)(u % parts),
                      (uint32_t)(u % parts) + 1);
    for (;;) {
        enum vm_event e = vm_sched_run(&s, UINT64_MAX, t);
        if (e == VM_EV_GROUP)
            return 0;
        if (e == VM_EV_TRAP)
            return t->kind;
    }
}

/* A finished group's printf output, waiting for the groups before it. */
typedef struct pend {
    struct pend *next;
    uint64_t gi;
    bool trapped;
    size_t len;
    char buf[];
} pend;

typedef struct {
    const vm_prog *P;
    uint64_t units;          /* groups, or their warps (apart) */
    uint32_t parts;          /* units a group */
    uint64_t chunk;          /* units a worker takes at a time */
    /* next is written by every take; first is read before every group:
     * each on its own cache line, so that reading first costs no miss */
    _Alignas(64) _Atomic uint64_t next;   /* the next unit to take */
    _Alignas(64) _Atomic uint64_t first;  /* the lowest group that trapped
                                             so far */
    _Alignas(64) char pad_;
    pthread_mutex_t lock;
    vm_trap trap;            /* ... and its trap */
    /* printf output goes out group by group in linear group order, so it
     * is the same whatever the thread count; nothing after a trapping
     * group (whose own output, up to the trap, goes out) */
    uint64_t emit;           /* the next group to write */
    pend *pending;           /* later groups that finished, sorted */
    bool stop;               /* a trapping group was written */
    bool lost;               /* no memory to hold a group's output */
    /* warn_impl: each group's counts (ncount/nfirst of its touched
     * slots), kept apart so that the groups past a trap can be left out */
    struct wrec { uint64_t gi, count; uint32_t slot, first; } *recs;
    size_t nrecs, caprecs;
} run_state;

static void emit_one(run_state *s, bool trapped)
{
    s->emit++;
    s->stop |= trapped;
}

/* Called with s->lock held when group gi finished (or trapped). */
static void emit_group(run_state *s, vm_group *g, uint64_t gi, bool trapped)
{
    FILE *out = s->P->r.out;
    if (gi == s->emit) {
        if (!s->stop)
            vm_group_flush(g, out);
        emit_one(s, trapped);
    } else {
        size_t len = 0;
        for (uint32_t i = 0; i < s->P->r.group_size; i++)
            len += g->pout[i].len;
        pend *e = malloc(sizeof *e + len), **at = &s->pending;
        if (!e) {
            s->lost = true;
            return;
        }
        e->gi = gi, e->trapped = trapped, e->len = 0;
        for (uint32_t i = 0; i < s->P->r.group_size; i++) {
            if (g->pout[i].len)
                memcpy(e->buf + e->len, g->pout[i].buf, g->pout[i].len);
            e->len += g->pout[i].len;
        }
        while (*at && (*at)->gi < gi)
            at = &(*at)->next;
        e->next = *at;
        *at = e;
    }
    while (s->pending && s->pending->gi == s->emit) {
        pend *e = s->pending;
        s->pending = e->next;
        if (!s->stop && e->len)
            fwrite(e->buf, 1, e->len, out);
        emit_one(s, e->trapped);
        free(e);
    }
}

typedef struct {
    run_state *s;
    vm_group *g;             /* made and freed by the worker itself, but
                                worker 0's (vm_run's) */
} worker;

/* Keeps group gi's --warn-impl counts (with s->lock held). */
static void keep_counts(run_state *s, vm_group *g, uint64_t gi)
{
    if (s->nrecs + g->ntouched > s->caprecs) {
        size_t cap = 2 * (s->nrecs + g->ntouched);
        struct wrec *r = realloc(s->recs, cap * sizeof *r);
        if (!r) {
            s->lost = true;
            return;
        }
        s->recs = r, s->caprecs = cap;
    }
    for (uint32_t i = 0; i < g->ntouched; i++) {
        uint32_t slot = g->touched[i];
        s->recs[s->nrecs++] = (struct wrec){gi, g->ncount[slot], slot,
                                            g->nfirst[slot]};
    }
}

/* The warnings of a run from the kept counts, in instruction order: the
 * groups up to the first that trapped (all when none did). */
static void make_warnings(run_state *s, vm_warnings *out)
{
    const vm_prog *P = s->P;
    const vm_range *r = &P->r;
    size_t slots = (size_t)P->nins * NOTE_COUNT, n = 0;
    struct wrec *best = calloc(slots ? slots : 1, sizeof *best);
    out->v = NULL, out->n = 0;
    if (!best)
        return;
    uint64_t last = atomic_load(&s->first);
    for (size_t i = 0; i < s->nrecs; i++) {
        struct wrec *e = &s->recs[i], *b = &best[e->slot];
        if (e->gi > last)
            continue;
        n += b->count == 0;
        if (b->count == 0 || e->gi < b->gi)
            b->gi = e->gi, b->first = e->first;
        b->count += e->count;
    }
    out->v = calloc(n ? n : 1, sizeof *out->v);
    for (size_t i = 0; out->v && i < slots; i++) {
        const struct wrec *b = &best[i];
        if (!b->count)
            continue;
        vm_warning *v = &out->v[out->n++];
        v->kernel = P->kidx;
        v->pc = P->ins[i / NOTE_COUNT].pc;
        v->line = bc_line_of(P->k, v->pc);
        v->note = (uint8_t)(i % NOTE_COUNT);
        v->count = b->count;
        uint64_t gid3[3] = {b->gi % r->groups[0],
                            b->gi / r->groups[0] % r->groups[1],
                            b->gi / r->groups[0] / r->groups[1]},
                 lid[3] = {b->first % r->local[0],
                           b->first / r->local[0] % r->local[1],
                           b->first / r->local[0] / r->local[1]};
        for (int d = 0; d < 3; d++)
            v->gid[d] = gid3[d] * r->local[d] + lid[d] + r->offset[d];
    }
    free(best);
}

/* Worker i (vm_pool_run) takes groups in increasing order. A group above
 * the lowest trapping one is skipped, but every group below it runs to the
 * end, so the group reported is the lowest that traps whatever the thread
 * count. A helper without memory for its group leaves its share to the
 * others. */
static void work(void *arg, unsigned i)
{
    worker *me = &((worker *)arg)[i];
    run_state *s = me->s;
    vm_trap t;
    /* a helper that comes when every group is taken (a small launch the
     * caller ran alone) leaves at once, with nothing to allocate */
    if (!me->g && (atomic_load_explicit(&s->next, memory_order_relaxed) >=
                       s->units ||
                   !(me->g = vm_group_new(s->P))))
        return;
    const uint64_t n = s->units, most = s->chunk,
                   share = (uint64_t)s->P->r.threads * 4;
    for (uint64_t gi = 0, end = 0;; gi++) {
        if (gi == end) {   /* the next chunk of groups, in order */
            /* smaller towards the end (a quarter of each thread's share
             * of what is left), so that the threads finish together */
            uint64_t at = atomic_load_explicit(&s->next,
                                               memory_order_relaxed),
                     chunk = at < n ? (n - at) / share : 0;
            chunk = chunk < 1 ? 1 : chunk > most ? most : chunk;
            gi = atomic_fetch_add_explicit(&s->next, chunk,
                                           memory_order_relaxed);
            end = gi < n - chunk ? gi + chunk : n;
        }
        if (gi >= n || gi > atomic_load(&s->first))
            break;
        int rc = run_group(me->g, gi, s->parts, &t);
        if (rc || s->P->printf || me->g->ntouched) {
            pthread_mutex_lock(&s->lock);
            keep_counts(s, me->g, gi / s->parts);
            if (rc && gi < atomic_load(&s->first)) {
                s->trap = t;
                atomic_store(&s->first, gi);
            }
            if (s->P->printf)
                emit_group(s, me->g, gi, rc != 0);
            pthread_mutex_unlock(&s->lock);
        }
    }
    VM_SFENCE();
    if (i) {   /* freed where it was allocated, while the caller works */
        vm_group_free(me->g);
        me->g = NULL;
    }
}

/* Whether any of P's instructions is one of the n bases. */
static bool uses(const vm_prog *P, const unsigned *bases, size_t n)
{
    for (uint32_t i = 0; i + 1 < P->nins; i++) {
        const vm_ins *I = &P->ins[i];
        unsigned base = bc_ops[I->op < BC_NOPS ? I->op : I->note_op].base;
        for (size_t k = 0; k < n; k++)
            if (base == bases[k])
                return true;
    }
    return false;
}

/* Can nothing tell a work-group's warps apart, or neighbouring groups
 * apart (no barrier, local memory, async copy, atomic or printf, no race
 * or --warn-impl bookkeeping by group)? Then merge and apart may change
 * how they are scheduled. */
static bool unordered(const vm_prog *P)
{
    static const unsigned tell[] = {BCB_ATOM, BCB_ACOPY, BCB_ACOPYS,
                                    BCB_WAITEV, BCB_BARRIER};
    const vm_range *r = &P->r;
    return !P->barrier && !P->local_bytes && !P->printf && !r->races &&
           !r->warn_impl && !uses(P, tell, sizeof tell / sizeof tell[0]);
}

/* Work-groups smaller than a warp leave its lanes idle, a dispatch for a
 * few work-items. Where nothing can tell (unordered, and groups that are
 * rows of dimension 0), neighbouring groups in dimension 0 run as one
 * scheduled group of up to a warp; the work-item functions still give
 * each its own group's ids (r->split, helpers.c's vm_wi_values). Returns
 * the number of groups to run as one: 1 for none. */
static uint64_t merge(const vm_prog *P, uint32_t want)
{
    const vm_range *r = &P->r;
    if (r->local[0] >= want || r->local[1] != 1 || r->local[2] != 1 ||
        !unordered(P))
        return 1;
    uint64_t k = want / r->local[0];
    while (k > 1 && r->groups[0] % k)
        k--;
    return k;
}

/* Few groups of several warps each leave threads idle at the end (loop
 * on 16 threads: 256 groups of 4 warps, the threads' ends up to a group
 * apart) or unused (one group). Where nothing can tell (unordered), a
 * group's warps run apart as units of one warp each, in NDRange order
 * (unit u: group u / parts, its warp u % parts), so that the trap
 * reported is still the lowest group's first warp's. Returns the parts
 * a group: 1 for none. */
static uint32_t apart(const vm_prog *P)
{
    const vm_range *r = &P->r;
    if (r->nwarps < 2 || r->asked < 2 ||
        r->ngroups >= (uint64_t)r->asked * 64 || !unordered(P))
        return 1;
    return r->nwarps;
}

/* Global buffers of 32 MiB or more, bigger than the caches: a full
 * warp's row read from one prefetches the row two warps on (the hardware's
 * prefetchers stop at each 4 KiB page), and one stored goes past the
 * caches (vm/loop.h's vm_stream: non-temporal stores), which neither
 * reads the lines in first nor pushes the inputs out. Smaller ones may
 * still be in the caches when the host or the next kernel reads them. */
enum { BIG = 32 << 20 };
static uint64_t bigs(const vm_prog *P)
{
    uint64_t set = 0;
    for (uint32_t b = 1; b < P->nbufs && b < 64; b++)
        if (P->bufs[b].space == BC_GLOBAL && P->bufs[b].size >= BIG)
            set |= 1ull << b;
    return set;
}

/* The stores go past the caches only where no atomic or fence could show
 * them to another work-item during the run: each worker fences its stores
 * when it ends (work). */
static uint64_t streams(const vm_prog *P)
{
    static const unsigned order[] = {BCB_ATOM, BCB_FENCE, BCB_RFENCE,
                                     BCB_WFENCE};
    if (!P->big || uses(P, order, sizeof order / sizeof order[0]))
        return 0;
    return P->big;
}

void vm_threads_start(unsigned threads)
{
    vm_pool_start(threads ? threads : vm_cores());
}

int vm_run(const bc_module *m, uint32_t k, vm_arg *args,
           const vm_ndrange *nd, vm_trap *trap)
{
    vm_trap spare;
    if (!trap)
        trap = &spare;
    memset(trap, 0, sizeof *trap);
    trap->param = -1;
    vm_range r;
    vm_ndrange nd2;
    if (vm_range_reqd(m, k, nd, &nd2, trap) ||
        vm_range_resolve(nd ? &nd2 : NULL, &r, trap))
        return trap->kind;
    vm_prog *P = vm_prog_new(m, k, args, &r, trap);
    if (!P)
        return trap->kind;
    uint64_t split = merge(P, nd->warp ? nd->warp : VM_MAXW);
    if (split > 1) {   /* decoded again for the wider warps */
        vm_prog_free(P);
        r.split = split;
        r.local[0] *= split;
        r.groups[0] /= split;
        r.ngroups /= split;
        r.group_size *= (uint32_t)split;
        r.warp = nd->warp && nd->warp < r.group_size ? nd->warp : r.group_size;
        r.warp = r.warp < VM_MAXW ? r.warp : VM_MAXW;
        r.nwarps = (r.group_size + r.warp - 1) / r.warp;
        r.threads = r.threads < r.ngroups ? r.threads : (unsigned)r.ngroups;
        if (!(P = vm_prog_new(m, k, args, &r, trap)))
            return trap->kind;
    }
    P->big = bigs(P);
    P->stream = streams(P);
    char why[200];
    int kind = r.races ? vm_race_prog(P, why, sizeof why) : 0;
    if (kind) {
        vm_race_prog_free(P);
        vm_prog_free(P);
        vm_trap_set(trap, kind, "%s", why);
        return trap->kind;
    }

    /* Groups are taken a chunk at a time: a fetch per group of a
     * contended counter costs more than a small group's work, while a
     * chunk of at most 1/16 of a thread's share keeps the threads' loads
     * even. */
    const uint32_t parts = split > 1 ? 1 : apart(P);
    const uint64_t units = r.ngroups * parts;
    if (parts > 1)
        P->r.threads = r.threads = units < r.asked ? (unsigned)units : r.asked;
    uint64_t per = units / ((uint64_t)r.threads * 16);
    run_state s = {.P = P, .units = units, .parts = parts,
                   .chunk = per > 1 ? (per < 64 ? per : 64) : 1};
    atomic_init(&s.next, 0);
    atomic_init(&s.first, UINT64_MAX);
    pthread_mutex_init(&s.lock, NULL);
    worker *ws = calloc(r.threads, sizeof *ws);
    bool ok = ws != NULL;
    for (unsigned i = 0; ok && i < r.threads; i++)
        ws[i].s = &s;
    if (ok && (ws[0].g = vm_group_new(P)) != NULL) {
        /* the calling thread is worker 0, the pool's threads the others */
        vm_pool_run(work, ws, r.threads);
        if (atomic_load(&s.first) != UINT64_MAX)
            *trap = s.trap;
        else if (s.lost)
            vm_trap_set(trap, VM_TRAP_NOMEM, "printf output of kernel '%s'",
                        bc_str(m, P->k->name));
        if (P->printf)
            fflush(r.out);
    } else {
        ok = false;
        vm_trap_set(trap, VM_TRAP_NOMEM, "work-group memory of kernel '%s'",
                    bc_str(m, P->k->name));
    }
    if (ws)   /* (the helpers freed theirs in work) */
        vm_group_free(ws[0].g);
    free(ws);
    while (s.pending) {
        pend *e = s.pending;
        s.pending = e->next;
        free(e);
    }
    if (ok && nd->warn_impl && nd->warnings)
        make_warnings(&s, nd->warnings);
    free(s.recs);
    pthread_mutex_destroy(&s.lock);
    vm_race_prog_free(P);
    vm_prog_free(P);
    return trap->kind;
}
