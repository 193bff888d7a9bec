/* Work-groups and warps: their memory, starting them as a given group and
 * warp, and the global ids of their work-items. */
#include "vm/warp.h"

#include <stdlib.h>
#include <string.h>

#include "stdlib/note.h"
#include "stdlib/types.h"

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

static void *zalloc64(size_t n)
{
    n = align_up(n ? n : 1, 64);
    void *q = aligned_alloc(64, n);
    if (q)
        memset(q, 0, n);
    return q;
}

static void warp_free(vm_warp *w)
{
    free(w->R);
    free(w->bufs);
    free(w->priv);
    free(w->scratch);
    free(w->stack);
    free(w->lm64);
}

static bool warp_init(vm_warp *w, vm_group *g)
{
    const vm_prog *P = g->P;
    const uint32_t W = P->r.warp;
    memset(w, 0, sizeof *w);
    w->P = P;
    w->g = g;
    w->R = zalloc64(P->filesize);
    w->bufs = calloc(P->nbufs, sizeof *w->bufs);
    w->priv = zalloc64(P->private_bytes * W);
    w->scratch = zalloc64((size_t)TY_MAXLANES * VM_MAXW * 8);
    w->stack = calloc(P->depth + 1, sizeof *w->stack);
    w->lm64 = zalloc64(VM_MAXW * 15);
    if (!w->R || !w->bufs || !w->priv || !w->scratch || !w->stack ||
        !w->lm64)
        return false;
    w->lm32 = (uint32_t *)(w->lm64 + VM_MAXW);
    w->lm16 = (uint16_t *)(w->lm32 + VM_MAXW);
    w->lm8 = (uint8_t *)(w->lm16 + VM_MAXW);
    memcpy(w->R, P->tmpl, P->filesize);
    for (uint32_t b = 1; b < P->nbufs; b++) {
        const vm_bufinfo *bi = &P->bufs[b];
        vm_buf *wb = &w->bufs[b];
        wb->size = bi->size;
        if (bi->space == BC_LOCAL)
            wb->data = g->local + bi->off;
        else if (bi->space == BC_PRIVATE)
            wb->data = w->priv + bi->off, wb->lstride = P->private_bytes;
        else
            wb->data = P->args[bi->param].data;
        if (bi->space == BC_LOCAL)
            wb->shadow = vm_race_local_shadow(g, b);
        else if (bi->space == BC_GLOBAL && P->shadow)
            wb->shadow = P->shadow[b];
    }
    return true;
}

vm_group *vm_group_new(const vm_prog *p)
{
    vm_group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->P = p;
    g->nctx = p->barrier && p->r.nwarps > 1 ? p->r.nwarps : 1;
    g->local = zalloc64(p->local_bytes);
    bool lsh = vm_race_group_new(g);
    g->w = calloc(g->nctx, sizeof *g->w);
    if (p->printf)
        g->pout = calloc(p->r.group_size, sizeof *g->pout);
    if (p->r.warn_impl) {
        size_t slots = (size_t)p->nins * NOTE_COUNT;
        g->ncount = calloc(slots, sizeof *g->ncount);
        g->nfirst = calloc(slots, sizeof *g->nfirst);
        g->touched = calloc(slots, sizeof *g->touched);
    }
    bool ok = g->local && g->w && (g->pout || !p->printf) &&
              lsh &&
              (!p->r.warn_impl || (g->ncount && g->nfirst && g->touched));
    for (uint32_t i = 0; ok && i < g->nctx; i++)
        ok = warp_init(&g->w[i], g);
    if (!ok) {
        vm_group_free(g);
        return NULL;
    }
    return g;
}

void vm_group_free(vm_group *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; g->w && i < g->nctx; i++)
        warp_free(&g->w[i]);
    free(g->w);
    free(g->local);
    for (uint32_t i = 0; g->pout && i < g->P->r.group_size; i++)
        free(g->pout[i].buf);
    free(g->pout);
    free(g->ncount);
    free(g->nfirst);
    free(g->touched);
    free(g->copy);
    free(g->copybits);
    vm_race_group_free(g);
    free(g);
}

void vm_group_flush(vm_group *g, FILE *out)
{
    for (uint32_t i = 0; g->pout && i < g->P->r.group_size; i++) {
        vm_pout *o = &g->pout[i];
        if (o->len)
            fwrite(o->buf, 1, o->len, out);
        o->len = 0;
    }
}

void vm_group_start(vm_group *g, uint64_t linear)
{
    const vm_range *r = &g->P->r;
    g->linear = linear;
    g->id[0] = linear % r->groups[0];
    g->id[1] = linear / r->groups[0] % r->groups[1];
    g->id[2] = linear / r->groups[0] / r->groups[1];
    /* local memory starts zeroed, so no run depends on which group the
     * thread ran before */
    if (g->P->local_bytes)
        memset(g->local, 0, g->P->local_bytes);
    for (uint32_t i = 0; g->pout && i < g->P->r.group_size; i++)
        g->pout[i].len = 0;
    for (uint32_t i = 0; i < g->ntouched; i++)
        g->ncount[g->touched[i]] = 0;
    g->ntouched = 0;
    g->ncopy = 0;
    vm_race_group_start(g);
    g->words = (g->P->r.group_size + 63) / 64;
}

void vm_warp_start(vm_warp *w, uint32_t index)
{
    const vm_prog *P = w->P;
    const uint32_t W = P->r.warp;
    w->index = index;
    w->base = index * W;
    w->lanes = P->r.group_size - w->base < W ? P->r.group_size - w->base : W;
    w->all = w->lanes == 64 ? UINT64_MAX : (1ull << w->lanes) - 1;
    w->exec = w->all;
    w->ip = 0;
    w->sp = 0;
    w->steps = 0;
    w->barriers = 0;
    w->fenced[0] = w->fenced[1] = 0;
    w->copies = 0;
    w->lm_for = 0;
    memcpy(w->R, P->tmpl, P->fresh ? P->writtensize : P->resetsize);
    if (P->private_bytes)
        memset(w->priv, 0, P->private_bytes * W);
}

void *vm_warp_reg(vm_warp *w, uint32_t x)
{
    return x < w->P->k->nregs ? w->R + w->P->regoff[x] : NULL;
}

uint32_t vm_warp_pc(const vm_warp *w)
{
    return w->P->ins[w->ip].pc;
}

void vm_group_gid(const vm_group *g, uint64_t lin, uint64_t gid[3])
{
    const vm_range *r = &g->P->r;
    uint64_t lid[3] = {lin % r->local[0], lin / r->local[0] % r->local[1],
                       lin / r->local[0] / r->local[1]};
    for (int d = 0; d < 3; d++)
        gid[d] = g->id[d] * r->local[d] + lid[d] + r->offset[d];
}

void vm_warp_gid(const vm_warp *w, uint32_t l, uint64_t gid[3])
{
    vm_group_gid(w->g, w->base + l, gid);
}
