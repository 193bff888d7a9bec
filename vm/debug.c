/* The debugger's side of a run (vm/debug.h): stepping a kernel through the
 * scheduler, breakpoints, and reading where it stopped and what it holds. */
#include "vm/debug.h"

#include <stdlib.h>
#include <string.h>

#include "vm/decode.h"
#include "vm/sched.h"
#include "vm/trap.h"
#include "vm/warp.h"

struct vm_debug {
    vm_range r;
    vm_prog *P;
    vm_group *g;
    vm_sched s;
    uint64_t group;        /* linear index of the group being run */
    uint32_t *lstart;      /* per instruction: the line whose code begins
                              there, or 0 */
    uint32_t *brk;         /* per instruction: the first breakpoint there */
    uint32_t nbreaks;
    bool done, trapped;
    vm_trap trap;
};

void vm_debug_free(vm_debug *d)
{
    if (!d)
        return;
    vm_group_free(d->g);
    if (d->P)
        vm_race_prog_free(d->P);
    vm_prog_free(d->P);
    free(d->lstart);
    free(d->brk);
    free(d);
}

vm_debug *vm_debug_new(const bc_module *m, uint32_t k, vm_arg *args,
                       const vm_ndrange *nd, vm_trap *trap)
{
    vm_ndrange one;
    vm_debug *d = calloc(1, sizeof *d);
    if (!d) {
        vm_trap_set(trap, VM_TRAP_NOMEM, "the debugger's state");
        return NULL;
    }
    bool ok = !vm_range_reqd(m, k, nd, &one, trap) &&
              (one.threads = 1, !vm_range_resolve(&one, &d->r, trap));
    d->r.debug = true;   /* each step shows one instruction's result */
    if (!ok || !(d->P = vm_prog_new(m, k, args, &d->r, trap))) {
        free(d);
        return NULL;
    }
    char why[200];
    int kind = d->r.races ? vm_race_prog(d->P, why, sizeof why) : 0;
    if (kind) {   /* as vm_run */
        vm_trap_set(trap, kind, "%s", why);
        vm_debug_free(d);
        return NULL;
    }
    /* a debugger shows no value left by an earlier warp */
    d->P->fresh = true;
    d->g = vm_group_new(d->P);
    d->lstart = calloc(d->P->nins + 1, sizeof *d->lstart);
    d->brk = calloc(d->P->nins + 1, sizeof *d->brk);
    if (!d->g || !d->lstart || !d->brk) {
        vm_trap_set(trap, VM_TRAP_NOMEM, "work-group memory of kernel '%s'",
                    bc_str(m, d->P->k->name));
        vm_debug_free(d);
        return NULL;
    }
    const bc_kernel *kn = d->P->k;
    for (uint32_t i = 0; i < kn->nlines; i++)
        if (kn->lines[i].pc < kn->ncode)
            d->lstart[d->P->pcins[kn->lines[i].pc]] = kn->lines[i].line;
    d->trap.param = -1;
    vm_sched_start(&d->s, d->g, 0);
    return d;
}

void vm_debug_range(const vm_debug *d, vm_dbg_range *r)
{
    *r = (vm_dbg_range){.dims = d->r.dims, .groups = d->r.ngroups,
                        .warp = d->r.warp};
    memcpy(r->global, d->r.global, sizeof r->global);
    memcpy(r->local, d->r.local, sizeof r->local);
    memcpy(r->offset, d->r.offset, sizeof r->offset);
}

/* ---- stepping ---- */

/* The group finished: its printf output goes out, as vm_run writes it
 * (group by group), and the next group starts. False after the last. */
static bool next_group(vm_debug *d)
{
    vm_group_flush(d->g, d->r.out);
    if (++d->group >= d->r.ngroups) {
        d->done = true;
        return false;
    }
    vm_sched_start(&d->s, d->g, d->group);
    return true;
}

static const vm_warp *cur(const vm_debug *d)
{
    return &d->g->w[d->s.cur];
}

enum vm_dbg_event vm_debug_run(vm_debug *d, uint64_t n, bool breaks)
{
    /* with breakpoints, one instruction at a time, looking after each */
    const bool each = breaks && d->nbreaks;
    for (;;) {
        if (d->trapped)
            return VM_DBG_TRAP;
        if (d->done)
            return VM_DBG_DONE;
        switch (vm_sched_run(&d->s, each ? 1 : n, &d->trap)) {
        case VM_EV_TRAP:
            d->trapped = true;
            return VM_DBG_TRAP;
        case VM_EV_GROUP:
            return next_group(d) ? VM_DBG_WARP : VM_DBG_DONE;
        case VM_EV_WARP:
            return VM_DBG_WARP;
        case VM_EV_RAN:
            if (!each || --n == 0)
                return VM_DBG_RAN;
            if (d->brk[cur(d)->ip])
                return VM_DBG_BREAK;
            break;
        }
    }
}

const vm_trap *vm_debug_trap(const vm_debug *d)
{
    return &d->trap;
}

uint32_t vm_debug_break(vm_debug *d, uint32_t line)
{
    bool found = false;
    for (uint32_t i = 0; line && i < d->P->nins; i++)
        found |= d->lstart[i] == line;
    if (!found)
        return 0;
    d->nbreaks++;
    for (uint32_t i = 0; i < d->P->nins; i++)
        if (d->lstart[i] == line && !d->brk[i])
            d->brk[i] = d->nbreaks;
    return d->nbreaks;
}

void vm_debug_break_clear(vm_debug *d)
{
    d->nbreaks = 0;
    memset(d->brk, 0, (d->P->nins + 1) * sizeof *d->brk);
}

/* ---- where it is ---- */

void vm_debug_pos(const vm_debug *d, vm_dbg_pos *p)
{
    const vm_warp *w = cur(d);
    uint32_t pc = d->P->ins[w->ip].pc;
    *p = (vm_dbg_pos){.group = d->group, .warp = w->index,
                      .lanes = w->lanes, .active = w->exec, .pc = pc,
                      .line = bc_line_of(d->P->k, pc),
                      .line_start = d->lstart[w->ip], .brk = d->brk[w->ip]};
}

void vm_debug_gid(const vm_debug *d, uint32_t l, uint64_t gid[3])
{
    vm_warp_gid(cur(d), l, gid);
}

unsigned vm_debug_notes(const vm_debug *d, uint32_t *pc)
{
    const vm_warp *w = cur(d);
    if (pc)
        *pc = d->P->ins[w->note_ip].pc;
    return w->notes;
}

void vm_debug_clear_notes(vm_debug *d)
{
    d->g->w[d->s.cur].notes = 0;
}

/* ---- what it holds ---- */

const void *vm_debug_reg(const vm_debug *d, uint32_t x, size_t *bytes)
{
    const bc_kernel *k = d->P->k;
    if (x >= k->nregs)
        return NULL;
    const bc_reg *g = &k->regs[x];
    *bytes = (size_t)d->r.warp * (g->kind == BC_REG_PTR ? 12
                                  : ty_sizeof(g->type));
    return cur(d)->R + d->P->regoff[x];
}

bool vm_debug_value(const vm_debug *d, uint32_t x, uint32_t l, void *mem)
{
    const bc_kernel *k = d->P->k;
    if (x >= k->nregs || k->regs[x].kind != BC_REG_VALUE)
        return false;
    const bc_reg *g = &k->regs[x];
    const uint8_t *p = cur(d)->R + d->P->regoff[x];
    size_t es = ty_scalar_size((enum ty_scalar)g->type.s);
    uint32_t W = d->r.warp;
    for (unsigned c = 0; c < ty_lanes(g->type); c++)
        memcpy((uint8_t *)mem + c * es, p + (c * W + l) * es, es);
    return true;
}

bool vm_debug_pointer(const vm_debug *d, uint32_t x, uint32_t l,
                      uint32_t *buf, uint64_t *size, uint64_t *off)
{
    const vm_prog *P = d->P;
    if (x >= P->k->nregs || P->k->regs[x].kind != BC_REG_PTR)
        return false;
    const uint8_t *p = cur(d)->R + P->regoff[x];
    uint32_t id, W = d->r.warp;
    memcpy(off, p + (size_t)l * 8, 8);
    memcpy(&id, p + (size_t)W * 8 + (size_t)l * 4, 4);
    if (id == 0 || id >= P->nbufs)
        return false;
    *buf = P->bufs[id].reg;
    *size = P->bufs[id].size;
    return true;
}

bool vm_debug_memory(const vm_debug *d, uint32_t x, uint32_t l,
                     const uint8_t **data, uint64_t *size)
{
    const vm_prog *P = d->P;
    for (uint32_t b = 1; b < P->nbufs; b++) {
        if (P->bufs[b].reg != x)
            continue;
        /* A global or constant parameter's memory is its argument's; a
         * local one's (the argument is only a size) and an array's are
         * the warp's view of the group's or the lane's block. */
        const vm_bufinfo *bi = &P->bufs[b];
        if (bi->param >= 0 && bi->space != BC_LOCAL) {
            *data = P->args[bi->param].data;
            *size = P->args[bi->param].size;
        } else {
            const vm_buf *wb = &cur(d)->bufs[b];
            *data = wb->data + (uint64_t)l * wb->lstride;
            *size = bi->param >= 0 ? P->args[bi->param].size : bi->size;
        }
        return true;
    }
    return false;
}
