/* Async copies between global and local memory (ACOPY, ACOPYS) and
 * wait_group_events (WAITEV), with OpenCL's rules checked: every
 * work-item of the group reaches each copy with the same operands and
 * waits for its event before the kernel ends. */
#include <stdlib.h>
#include <string.h>

#include "vm/interp.h"
#include "vm/trap.h"

/* Register x of lane l as an unsigned integer of its own size. */
static uint64_t lane_int(const vm_warp *w, uint32_t off, unsigned size,
                         uint32_t l)
{
    return vm_reg_uint(w->R + off + (size_t)l * size, size);
}

static int fail(vm_warp *w, uint8_t why, uint32_t lane, uint32_t other,
                uint64_t opnd)
{
    w->fault = (vm_fault){.kind = VM_TRAP_ASYNC, .lane = lane,
                          .other = other, .barwhy = why,
                          .opnd = {opnd, 0}};
    return -1;
}

/* The operands of lane l: dst offset and buffer, src offset and buffer,
 * count, stride, event (the decoder's layout: vm/decode.c). */
static void operands(const vm_warp *w, const vm_ins *I, uint32_t l,
                     uint64_t op[7])
{
    const uint32_t W = w->P->r.warp;
    const uint8_t *R = w->R;
    uint32_t b;
    memcpy(&op[0], R + I->a + 8 * (size_t)l, 8);
    memcpy(&b, R + I->a + 8 * (size_t)W + 4 * (size_t)l, 4);
    op[1] = b;
    memcpy(&op[2], R + I->b + 8 * (size_t)l, 8);
    memcpy(&b, R + I->b + 8 * (size_t)W + 4 * (size_t)l, 4);
    op[3] = b;
    op[4] = lane_int(w, I->c, I->rows, l);
    op[5] = I->j == UINT32_MAX ? 1 : lane_int(w, I->j, I->align, l);
    op[6] = lane_int(w, (uint32_t)I->imm, 4, l);
}

/* Does the range of n elements of es bytes, `stride` elements apart,
 * from byte `at` lie in b? */
static bool fits(const vm_buf *b, uint64_t at, uint64_t n, uint64_t stride,
                 uint64_t es)
{
    uint64_t step, span;
    if (n == 0)
        return true;
    if (__builtin_mul_overflow(stride, es, &step) ||
        __builtin_mul_overflow(n - 1, step, &span) ||
        __builtin_add_overflow(span, es, &span))
        return false;
    return span <= b->size && at <= b->size - span;
}

/* The first warp at the copy (lane l, copy number k of the group) does
 * it: bounds checked, races too under the check, element by element (the
 * global side `stride` elements apart). */
static int do_copy(vm_warp *w, const vm_ins *I, const uint64_t op[7],
                   uint32_t l, uint32_t k)
{
    const uint64_t es = I->len, n = op[4], st = op[5];
    const vm_buf *d = &w->bufs[op[1] < w->P->nbufs ? op[1] : 0];
    const vm_buf *s = &w->bufs[op[3] < w->P->nbufs ? op[3] : 0];
    bool dst_global = w->P->bufs[op[1] < w->P->nbufs ? op[1] : 0].space !=
                      BC_LOCAL;
    uint64_t dst_st = dst_global ? st : 1, src_st = dst_global ? 1 : st;
    for (int side = 0; side < 2; side++) {
        const vm_buf *b = side ? s : d;
        uint64_t at = op[side ? 2 : 0];
        if (!fits(b, at, n, side ? src_st : dst_st, es)) {
            w->fault = (vm_fault){.kind = (at % es) ? VM_TRAP_ALIGN
                                                    : VM_TRAP_BOUNDS,
                                  .lane = 0, .buf = (uint32_t)op[side ? 3 : 1],
                                  .addr = at, .len = n ? (n - 1) *
                                  (side ? src_st : dst_st) * es + es : es,
                                  .align = es};
            return -1;
        }
    }
    const vm_copyspan x = {(uint32_t)(d - w->bufs), (uint32_t)(s - w->bufs),
                           op[0], op[2], dst_st, src_st, n, es};
    if (w->P->r.races && vm_race_copy(w, I, l, k, &x))
        return -1;
    for (uint64_t i = 0; i < n; i++)
        memmove(d->data + op[0] + i * dst_st * es,
                s->data + op[2] + i * src_st * es, es);
    return 0;
}


static void set_bit(uint64_t *b, uint32_t i) { b[i / 64] |= 1ull << i % 64; }
static bool bit(const uint64_t *b, uint32_t i) { return b[i / 64] >> i % 64 & 1; }

/* A new copy entry of g, its bits clear; NULL without memory. */
static vm_copy *new_copy(vm_group *g)
{
    if (g->ncopy == g->capcopy) {
        uint32_t cap = g->capcopy ? 2 * g->capcopy : 8;
        vm_copy *c = realloc(g->copy, cap * sizeof *c);
        if (c)
            g->copy = c;
        uint64_t *b = c ? realloc(g->copybits, (size_t)cap * 2 * g->words *
                                                   sizeof *b) : NULL;
        if (!b)
            return NULL;
        g->copybits = b, g->capcopy = cap;
    }
    memset(vm_copybits(g, g->ncopy, false), 0,
           2 * g->words * sizeof(uint64_t));
    return &g->copy[g->ncopy++];
}

int vm_async_copy(vm_warp *w, const vm_ins *I, uint64_t exec)
{
    vm_group *g = w->g;
    const uint32_t l0 = (uint32_t)__builtin_ctzll(exec);
    if (exec != w->all)
        return fail(w, VM_AS_DIVERGE, l0,
                    w->base + (uint32_t)__builtin_ctzll(w->all & ~exec), 0);
    uint64_t op[7], o[7];
    operands(w, I, l0, op);
    for (uint64_t m = exec & (exec - 1); m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        operands(w, I, l, o);
        if (memcmp(o, op, sizeof o))
            return fail(w, VM_AS_ARGS, l, w->base + l0, 0);
    }
    uint32_t k = w->copies++;
    vm_copy *c;
    if (k == g->ncopy) {        /* the first to arrive: it copies */
        if (op[6] > g->ncopy)
            return fail(w, VM_AS_EVIN, l0, 0, op[6]);
        if (do_copy(w, I, op, l0, k))
            return -1;
        if (!(c = new_copy(g))) {
            w->fault = (vm_fault){.kind = VM_TRAP_NOMEM, .lane = l0};
            return -1;
        }
        *c = (vm_copy){(uint32_t)(I - w->P->ins), w->base + l0, {0},
                       op[6] ? (uint32_t)op[6] : k + 1};
        memcpy(c->op, op, sizeof op);
    } else {
        c = &g->copy[k];
        if (c->ins != (uint32_t)(I - w->P->ins) ||
            memcmp(c->op, op, sizeof op))
            return fail(w, VM_AS_ARGS, l0, c->first, 0);
    }
    uint64_t *r = vm_copybits(g, k, false);
    for (uint64_t m = exec; m; m &= m - 1)
        set_bit(r, w->base + (uint32_t)__builtin_ctzll(m));
    uint32_t *ev = (uint32_t *)(void *)(w->R + I->d);
    for (uint64_t m = exec; m; m &= m - 1)
        ev[__builtin_ctzll(m)] = c->event;
    return 0;
}

int vm_async_wait(vm_warp *w, const vm_ins *I, uint64_t exec)
{
    vm_group *g = w->g;
    const uint32_t W = w->P->r.warp, nbufs = w->P->nbufs;
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m), b, lin = w->base + l;
        uint64_t n = lane_int(w, I->a, I->rows, l), off;
        memcpy(&off, w->R + I->b + 8 * (size_t)l, 8);
        memcpy(&b, w->R + I->b + 8 * (size_t)W + 4 * (size_t)l, 4);
        const vm_buf *vb = &w->bufs[b < nbufs ? b : 0];
        if (n > vb->size / 4 || off > vb->size - 4 * n || off % 4) {
            w->fault = (vm_fault){.kind = off % 4 ? VM_TRAP_ALIGN
                                                  : VM_TRAP_BOUNDS,
                                  .lane = l, .buf = b < nbufs ? b : 0,
                                  .addr = off, .len = n ? 4 * n : 4,
                                  .align = 4};
            return -1;
        }
        for (uint64_t i = 0; i < n; i++) {
            uint32_t e;
            memcpy(&e, vb->data + vb->lstride * l + off + 4 * i, 4);
            bool mine = false;
            for (uint32_t c = 0; c < g->ncopy; c++)
                if (g->copy[c].event == e &&
                    bit(vm_copybits(g, c, false), lin)) {
                    set_bit(vm_copybits(g, c, true), lin);
                    mine = true;
                }
            if (!mine)
                return fail(w, VM_AS_EVENT, l, 0, e);
        }
    }
    return 0;
}

int vm_async_end(vm_group *g, vm_trap *t)
{
    const uint32_t size = g->P->r.group_size;
    for (uint32_t c = 0; c < g->ncopy; c++)
        for (int waited = 0; waited < 2; waited++)
            for (uint32_t i = 0; i < size; i++) {
                if (bit(vm_copybits(g, c, waited), i))
                    continue;
                vm_warp *w = &g->w[0];
                w->ip = g->copy[c].ins;
                w->base = g->copy[c].first;   /* the group is over */
                w->exec = 0;
                fail(w, waited ? VM_AS_NOWAIT : VM_AS_MISSING, 0, i, 0);
                vm_warp_trap(w, VM_STOP_TRAP, t);
                return -1;
            }
    return 0;
}
