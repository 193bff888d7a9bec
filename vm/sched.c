/* The scheduler: runs the warps of a work-group in vm_run's order, one
 * stretch at a time, and finds the barrier traps between warps. */
#include "vm/sched.h"

#include "vm/trap.h"

void vm_sched_part(vm_sched *s, vm_group *g, uint64_t linear, uint32_t w0,
                   uint32_t w1)
{
    s->g = g;
    s->cur = 0;
    s->warpno = w0;
    s->end = w1;
    s->held = false;
    vm_group_start(g, linear);
    for (uint32_t i = 0; i < g->nctx; i++)   /* (one context where w0 > 0) */
        vm_warp_start(&g->w[i], w0 + i);
}

void vm_sched_start(vm_sched *s, vm_group *g, uint64_t linear)
{
    vm_sched_part(s, g, linear, 0, g->P->r.nwarps);
}

/* A round is over: every warp finished or waits at a barrier. All
 * finished: the group did; all at the same barrier: the lowest goes on;
 * else the lowest waiting warp traps, naming the lowest one that finished
 * or, failing that, the first after it that waits elsewhere. */
static enum vm_event round_over(vm_sched *s, vm_trap *t)
{
    vm_group *g = s->g;
    uint32_t ndone = 0, wait = UINT32_MAX, done = UINT32_MAX;
    for (uint32_t i = 0; i < g->nctx; i++) {
        if (g->w[i].exec == 0) {
            ndone++;
            done = done < i ? done : i;
        } else {
            wait = wait < i ? wait : i;
        }
    }
    if (ndone == g->nctx)
        return VM_EV_GROUP;
    s->cur = wait;
    if (ndone) {
        vm_trap_barrier(&g->w[wait], &g->w[done], true, t);
        return VM_EV_TRAP;
    }
    for (uint32_t i = wait + 1; i < g->nctx; i++)
        if (g->w[i].ip != g->w[wait].ip) {
            vm_trap_barrier(&g->w[wait], &g->w[i], false, t);
            return VM_EV_TRAP;
        }
    return VM_EV_WARP;
}

/* The current warp finished or waits at a barrier: the next one. */
static enum vm_event next_warp(vm_sched *s, vm_trap *t)
{
    vm_group *g = s->g;
    if (g->nctx == 1) {
        if (++s->warpno >= s->end)
            return VM_EV_GROUP;
        vm_warp_start(&g->w[0], s->warpno);
        return VM_EV_WARP;
    }
    while (++s->cur < g->nctx && g->w[s->cur].exec == 0)
        ;
    return s->cur < g->nctx ? VM_EV_WARP : round_over(s, t);
}

/* w, running r.split work-groups as one (run.c, merge), trapped: the
 * work-items of the groups before the trapping one's go on, as each group
 * would have run to its end before the next began; the others stop. The
 * trap is held until then (one of theirs replaces it, being earlier in
 * NDRange order). False when none goes on. */
static bool split_trap(vm_sched *s, vm_warp *w, const vm_trap *t)
{
    const vm_range *r = &w->P->r;
    const uint64_t ls = r->local[0] / r->split,
                   first = (w->base + w->fault.lane) / ls * ls;
    const uint64_t n = first > w->base ? first - w->base : 0;
    const uint64_t keep = n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
    s->held = true;
    s->trap = *t;
    bool any = w->exec & keep;
    w->exec &= keep;
    for (uint32_t i = 0; i < w->sp; i++) {
        w->stack[i].join &= keep;
        w->stack[i].other &= keep;
        any |= (w->stack[i].join | w->stack[i].other) != 0;
    }
    if (any && !w->exec)   /* where the waiting ones resume */
        w->ip = w->stack[w->sp - 1].target;
    return any;
}

enum vm_event vm_sched_run(vm_sched *s, uint64_t budget, vm_trap *t)
{
    vm_warp *w = &s->g->w[s->cur];
    const uint64_t max = s->g->P->r.max_steps;
    if (w->steps >= max) {
        vm_warp_trap(w, VM_STOP_BUDGET, t);
        return VM_EV_TRAP;
    }
    uint64_t left = max - w->steps;
    enum vm_stop st = vm_warp_run(w, budget < left ? budget : left);
    if (st == VM_STOP_BUDGET)
        return VM_EV_RAN;
    if (st == VM_STOP_TRAP) {
        vm_warp_trap(w, st, t);
        if (s->g->P->r.split > 1 && split_trap(s, w, t))
            return VM_EV_RAN;
        return VM_EV_TRAP;
    }
    if (s->held) {
        *t = s->trap;
        return VM_EV_TRAP;
    }
    enum vm_event ev = next_warp(s, t);
    if (ev == VM_EV_GROUP && s->g->ncopy && vm_async_end(s->g, t))
        return VM_EV_TRAP;
    return ev;
}
