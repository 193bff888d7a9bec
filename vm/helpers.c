/* The helpers the dispatch loops' handler bodies call out of line:
 * blends, index loaders, memory checks, work-item values, as_type of
 * unequal element sizes, MATHS, and the profile's way for noted
 * instructions. The loops (vm/loop_*.c) are declared with them in
 * vm/loop.h. Their loops vectorise too: this file is built with -O3 (the
 * Makefile's VEC). */
#if defined(__clang__)
/* IVDEP's assume_safety also asks for vectorisation, which clang reports
 * it could not do when instrumenting (sanitizers). */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "vm/loop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/loadstore.h"
#include "stdlib/profile.h"
#include "stdlib/reinterpret.h"

/* ------------------------------------------------------------------ */
/* Helpers the handlers call out of line                               */

/* Per-lane all-ones masks of the execution mask, for vectorised blends;
 * rebuilt only when the mask changed since the last blend. */
static NOINLINE void lane_masks(vm_warp *w, uint64_t exec)
{
    for (uint32_t l = 0; l < w->P->r.warp; l++) {
        uint64_t m = exec >> l & 1 ? UINT64_MAX : 0;
        w->lm64[l] = m;
        w->lm32[l] = (uint32_t)m;
        w->lm16[l] = (uint16_t)m;
        w->lm8[l] = (uint8_t)m;
    }
    w->lm_for = exec;
}

/* d = active lanes ? t : d, over rows of W elements. */
#define BLEND_FN(B)                                                         \
    NOINLINE void vm_blend##B(vm_warp *w, uint64_t exec, void *dv,          \
                              const void *tv, uint32_t cnt)                 \
    {                                                                       \
        const uint32_t W = w->P->r.warp;                                    \
        if (w->lm_for != exec)                                              \
            lane_masks(w, exec);                                            \
        const uint##B##_t *m = w->lm##B;                                    \
        ua##B *d = dv;                                                      \
        const ua##B *t = tv;                                                \
        for (uint32_t r = 0; r < cnt; r += W) {                             \
            ua##B *dr = d + r;                                              \
            const ua##B *tr = t + r;                                        \
            IVDEP for (uint32_t l = 0; l < W; l++)                          \
                dr[l] = (uint##B##_t)((dr[l] & ~m[l]) | (tr[l] & m[l]));    \
        }                                                                   \
    }
BLEND_FN(8)
BLEND_FN(16)
BLEND_FN(32)
BLEND_FN(64)

void vm_blend_es(vm_warp *w, uint64_t exec, void *d, const void *t,
                     uint32_t cnt, unsigned es)
{
    switch (es) {
    case 1: vm_blend8(w, exec, d, t, cnt); break;
    case 2: vm_blend16(w, exec, d, t, cnt); break;
    case 4: vm_blend32(w, exec, d, t, cnt); break;
    default: vm_blend64(w, exec, d, t, cnt); break;
    }
}

/* Index registers, widened as C converts an integer to size_t. */
/* (extern: vm/loop.h's row checks know the index type by its loader) */
#define WIDEN_FN(name, T)                                                   \
    void name(uint64_t *dst, const uint8_t *src, uint32_t w)                \
    {                                                                       \
        const T *s = (const T *)src;                                        \
        for (uint32_t l = 0; l < w; l++)                                    \
            dst[l] = (uint64_t)(int64_t)s[l];                               \
    }
WIDEN_FN(vm_widen_i8, sa8)
WIDEN_FN(vm_widen_i16, sa16)
WIDEN_FN(vm_widen_i32, sa32)
WIDEN_FN(vm_widen_i64, sa64)
#undef WIDEN_FN
#define WIDEN_FN(name, T)                                                   \
    void name(uint64_t *dst, const uint8_t *src, uint32_t w)                \
    {                                                                       \
        const T *s = (const T *)src;                                        \
        for (uint32_t l = 0; l < w; l++)                                    \
            dst[l] = s[l];                                                  \
    }
WIDEN_FN(vm_widen_u8, ua8)
WIDEN_FN(vm_widen_u16, ua16)
WIDEN_FN(vm_widen_u32, ua32)
WIDEN_FN(vm_widen_u64, ua64)
#undef WIDEN_FN

vm_widen vm_widen_for(enum ty_scalar s)
{
    switch (s) {
    case TY_CHAR: return vm_widen_i8;
    case TY_UCHAR: return vm_widen_u8;
    case TY_SHORT: return vm_widen_i16;
    case TY_USHORT: return vm_widen_u16;
    case TY_INT: return vm_widen_i32;
    case TY_UINT: return vm_widen_u32;
    case TY_LONG: return vm_widen_i64;
    case TY_ULONG: return vm_widen_u64;
    default: return NULL;
    }
}

/* The fault of lane l at byte address at, as stdlib reports it: the one
 * authority on bounds and alignment. LD/ST need the pointee's alignment,
 * which may exceed the element's, so that is checked first (loadstore.h
 * judges alignment before bounds too). */
static NOINLINE void mem_fault(vm_warp *w, const vm_ins *ip, uint32_t l,
                               uint32_t bid, uint64_t at)
{
    const vm_buf *b = &w->bufs[bid];
    ls_buf lb = {b->data ? b->data + b->lstride * l : NULL, b->size};
    ls_fault f = {LS_BOUNDS, at, ip->len, ip->align};
    uint8_t tmp[TY_MAXLANES * 8];
    float tf[TY_MAXLANES];
    unsigned base = bc_ops[VM_REAL_OP(ip)].base;
    enum ty_scalar el = (enum ty_scalar)bc_ops[VM_REAL_OP(ip)].elem;
    if (base == BCB_VLDH || base == BCB_VSTH)
        ls_vload_half(ip->rows, ip->flags & BC_F_ALIGNED, &lb, at, 0, tf, &f);
    else if (at & (ip->align - 1))
        f.err = LS_ALIGN;
    else
        ls_vload(el, ip->rows, &lb, at, 0, tmp, &f);
    w->fault = (vm_fault){.kind = f.err == LS_ALIGN ? VM_TRAP_ALIGN
                                                    : VM_TRAP_BOUNDS,
                          .lane = l, .buf = bid, .addr = f.addr,
                          .len = f.len, .align = f.align};
}

/* Zero when the n lanes' pointers (offsets off, buffer ids bid) are all
 * lane 0's and their indices lane 0's + l (inlined: a constant n gives
 * loops of constant trip count). */
static inline ALWAYS_INLINE uint64_t row_spread(const ua64 *off,
                                                const ua32 *bid,
                                                const ua64 *idx, uint32_t n)
{
    uint64_t so = 0, si = 0;
    uint32_t sb = 0;
    IVDEP for (uint32_t l = 0; l < n; l++)
        so |= off[l] ^ off[0];
    IVDEP for (uint32_t l = 0; l < n; l++)
        sb |= bid[l] ^ bid[0];
    IVDEP for (uint32_t l = 0; l < n; l++)
        si |= idx[l] - idx[0] - l;
    return so | sb | si;
}

/* Checks every active lane's access before any is made, and leaves each
 * lane's first byte in w->mp. The address is the pointer's byte offset plus
 * index * stride, modulo 2^64 (so p[-1] of p = q + 1 is q[0]). Returns
 * 0, w->fault filled, when the lowest faulting lane faults; 2 when every
 * lane of the warp runs and lane l's bytes are at mp[0] + l * stride (as
 * for p[get_global_id(0)]), so that the lanes move as strided rows: then
 * only mp[0] need be set (LANEP finds the others); else 1. */
int vm_mem_check(vm_warp *w, const vm_ins *ip, uint64_t exec,
                     uint8_t *R)
{
    const uint32_t W = w->P->r.warp, nbufs = w->P->nbufs;
    const ua64 *off = (const ua64 *)(R + ip->a);
    const ua32 *bid = (const ua32 *)(R + ip->a + 8 * W);
    uint64_t idxw[VM_MAXW];
    const uint64_t len = ip->len, amask = ip->align - 1, stride = ip->stride;
    /* a 64-bit index is read in place; narrower ones are widened */
    const bool wide = ip->widen == vm_widen_u64 || ip->widen == vm_widen_i64;
    const ua64 *idx = wide ? (const ua64 *)(R + ip->b) : idxw;
    if (!wide)
        ip->widen(idxw, R + ip->b, W);
    if (exec == w->all && bid[0] < nbufs && !w->bufs[bid[0]].lstride) {
        /* p[i + l] in lane l of one shared buffer: the whole warp's access
         * is one range, checked at its ends (vectorisable compares; for a
         * full 64-lane warp, loops of constant trip count) */
        const uint32_t n = w->lanes;
        const uint64_t o0 = off[0], i0 = idx[0];
        const uint32_t b0 = bid[0];
        const uint64_t spread = n == VM_MAXW
                                    ? row_spread(off, bid, idx, VM_MAXW)
                                    : row_spread(off, bid, idx, n);
        const vm_buf *b = &w->bufs[b0];
        uint64_t at = o0 + i0 * stride, span = (n - 1) * stride;
        if (!spread && !(at & amask) &&
            stride <= UINT64_MAX / VM_MAXW && len <= b->size &&
            span <= b->size - len && at <= b->size - len - span) {
            w->mp[0] = b->data + at;
            return 2;
        }
    }
    bool dense = exec == w->all;
    uintptr_t first = 0;
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = CTZ(m), id = bid[l] < nbufs ? bid[l] : 0;
        uint64_t at = off[l] + idx[l] * stride;
        const vm_buf *b = &w->bufs[id];
        if (UNLIKELY((at & amask) || len > b->size || at > b->size - len)) {
            mem_fault(w, ip, l, id, at);
            return 0;
        }
        w->mp[l] = b->data + b->lstride * l + at;
        if (l == 0)
            first = (uintptr_t)w->mp[0];
        dense &= (uintptr_t)w->mp[l] == first + l * stride;
    }
    return dense ? 2 : 1;
}

/* Work-item function values of the W lanes. Local ids are counted up
 * from lane 0's, as a division per lane would cost more than the rest. */
NOINLINE void vm_wi_values(const vm_warp *w, unsigned base, uint64_t dim,
                               uint64_t *out)
{
    const vm_range *r = &w->P->r;
    const vm_group *g = w->g;
    uint64_t lid[3] = {w->base % r->local[0],
                       w->base / r->local[0] % r->local[1],
                       w->base / r->local[0] / r->local[1]};
    /* a scheduled group of r->split work-groups in dimension 0 (run.c):
     * the kernel's local size, local id and group id there */
    const uint64_t k = dim ? 1 : r->split, ls = r->local[dim] / k;
    /* the same in every lane: what does not depend on the work-item, and
     * ids in dimensions 1 and 2 of a warp within one row of dimension 0 */
    const bool same =
        (base != BCB_GID && base != BCB_LID && (base != BCB_GRP || dim)) ||
        (dim && lid[0] + r->warp <= r->local[0]);
    for (uint32_t l = 0; l < (same ? 1 : r->warp); l++) {
        uint64_t v;
        switch (base) {
        case BCB_GID:
            v = g->id[dim] * r->local[dim] + lid[dim] + r->offset[dim];
            break;
        case BCB_LID: v = k > 1 ? lid[dim] % ls : lid[dim]; break;
        case BCB_GRP:
            v = k > 1 ? g->id[dim] * k + lid[dim] / ls : g->id[dim];
            break;
        case BCB_GSZ: v = r->global[dim]; break;
        case BCB_LSZ: v = ls; break;
        case BCB_NGRP: v = r->groups[dim] * k; break;
        case BCB_GOFF: v = r->offset[dim]; break;
        default: v = r->dims; break;
        }
        out[l] = v;
        if (++lid[0] == r->local[0]) {
            lid[0] = 0;
            if (++lid[1] == r->local[1])
                lid[1] = 0, lid[2]++;
        }
    }
    for (uint32_t l = 1; same && l < r->warp; l++)
        out[l] = out[0];
}

/* as_T with element sizes differing: each work-item's value repacked in
 * memory order by stdlib. */
NOINLINE void vm_as_lanes(vm_warp *w, const vm_ins *ip, uint64_t exec,
                              uint8_t *R)
{
    const uint32_t W = w->P->r.warp;
    ty_t dt = {(uint8_t)ip->imm, (uint8_t)(ip->imm >> 8)};
    ty_t st = {(uint8_t)(ip->imm >> 16), (uint8_t)(ip->imm >> 24)};
    unsigned des = ty_scalar_size(dt.s), ses = ty_scalar_size(st.s);
    unsigned dl = ty_lanes(dt), sl = ty_lanes(st);
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = CTZ(m);
        uint8_t in[TY_MAXLANES * 8], out[TY_MAXLANES * 8];
        for (unsigned r = 0; r < sl; r++)
            memcpy(in + r * ses, R + ip->a + ((size_t)r * W + l) * ses, ses);
        if (as_reinterpret(dt, st, out, in) < 0)
            continue;
        for (unsigned r = 0; r < dl; r++)
            memcpy(R + ip->d + ((size_t)r * W + l) * des, out + r * des, des);
    }
}

/* n elements of es bytes between a work-item's packed value v and its
 * rows (row stride `row` bytes from r): to the rows if out, else from. */
static inline void lane_copy(uint8_t *v, uint8_t *r, size_t row, unsigned es,
                             unsigned n, bool out)
{
#define LANE_COPY(T)                                                        \
    for (unsigned k = 0; k < n; k++) {                                      \
        if (out)                                                            \
            memcpy(r + k * row, v + k * sizeof(T), sizeof(T));              \
        else                                                                \
            memcpy(v + k * sizeof(T), r + k * row, sizeof(T));              \
    }
    switch (es) {
    case 1: LANE_COPY(uint8_t) break;
    case 2: LANE_COPY(uint16_t) break;
    case 4: LANE_COPY(uint32_t) break;
    default: LANE_COPY(uint64_t) break;
    }
#undef LANE_COPY
}

/* MATHS: each active work-item's whole operands gathered from their rows,
 * stdlib's mathfn_one, the result scattered back (only active lanes are
 * written, so nothing is blended). */
NOINLINE void vm_maths_lanes(vm_warp *w, const vm_ins *ip, uint64_t exec,
                                 uint8_t *R)
{
    const uint32_t W = w->P->r.warp;
    const enum mathfn f = (enum mathfn)(ip->imm & 0xffff);
    const unsigned m = (unsigned)(ip->imm >> 16 & 0xff);
    const bool second = ip->flags & BC_F_SECOND;
    const ty_t t = {(uint8_t)bc_ops[ip->op].elem, ip->n};
    const uint32_t off[4] = {ip->d, ip->a, ip->b, ip->c};
    mf_sig s;
    const char *why;
    if (!mathfn_sig(f, t, m, &s, &why))
        return;
    const ty_t ty[4] = {second ? s.out : s.res, s.arg[0], s.arg[1], s.arg[2]};
    unsigned es[4];
    for (unsigned i = 0; i < 4; i++)
        es[i] = ty_scalar_size((enum ty_scalar)ty[i].s);
    for (uint64_t mk = exec; mk; mk &= mk - 1) {
        uint32_t l = CTZ(mk);
        uint8_t v[4][TY_MAXLANES * 8];
        for (unsigned i = 1; i < 4; i++)
            lane_copy(v[i], R + off[i] + (size_t)l * es[i],
                      (size_t)W * es[i], es[i], ty[i].n, false);
        mathfn_one_sig(f, &s, t, m, second, v[0], v[1],
                       ty[2].n ? v[2] : NULL, ty[3].n ? v[3] : NULL);
        lane_copy(v[0], R + off[0] + (size_t)l * es[0], (size_t)W * es[0],
                  es[0], ty[0].n, true);
    }
}

/* An instruction decoded as XOP_NOTE (see watch in decode.c): runs it for
 * the active lanes element by element, each as profile P->profile gives
 * it, and reports the notes raised: into w->notes, per work-item into the
 * group's counts under warn_impl, and under the strict profile as a trap
 * (IMPL) at the lowest lane that raised one, before anything is written.
 * Returns 1 on a trap. */
NOINLINE int vm_noted(vm_warp *w, const vm_ins *ip, uint64_t exec,
                          uint8_t *R)
{
    const vm_prog *P = w->P;
    const uint32_t W = P->r.warp, rows = ip->cnt / W;
    const unsigned base = bc_ops[ip->note_op].base;
    const enum prof_id prof = (enum prof_id)P->profile;
    unsigned ln[VM_MAXW] = {0}, any = 0, des = ip->es, ses = ip->es;
    uint32_t comp[VM_MAXW] = {0};
    uint64_t opnd[VM_MAXW][3];
    uint8_t *out = w->scratch;
    for (uint64_t m = exec; m; m &= m - 1) {
        const uint32_t l = CTZ(m);
        for (uint32_t r = 0; r < rows && base != BCB_AS; r++) {
            const size_t e = (size_t)r * W + l;
            int n;
            uint64_t x = 0, y = 0, z = 0;
            if (base == BCB_CVT) {
                enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(ip->j),
                               ss = (enum ty_scalar)BC_CVT_SRC(ip->j);
                ses = ty_scalar_size(ss);
                memcpy(&x, R + ip->a + e * ses, ses);
                n = prof_cv_scalar(prof, ds, ss, out + e * des, &x,
                                   BC_CVT_SAT(ip->j),
                                   (enum rnd)BC_CVT_RND(ip->j));
            } else if (base == BCB_DIV || base == BCB_REM) {
                memcpy(&x, R + ip->a + e * ses, ses);
                memcpy(&y, R + ip->b + e * ses, ses);
                n = prof_divrem(prof, (enum ty_scalar)bc_ops[ip->note_op].elem,
                                base == BCB_REM, out + e * des, &x, &y);
            } else if (base == BCB_MAD || base == BCB_CMAD ||
                       base == BCB_XMAD) {
                memcpy(&x, R + ip->a + e * ses, ses);
                memcpy(&y, R + ip->b + e * ses, ses);
                memcpy(&z, R + ip->c + e * ses, ses);
                n = prof_muladd(prof, vm_fuse_shape(base),
                                (enum ty_scalar)bc_ops[ip->note_op].elem,
                                out + e * des, &x, &y, &z);
            } else { /* ADD, SUB, MUL, NEG with BC_F_SIGNED */
                memcpy(&x, R + ip->a + e * ses, ses);
                if (base != BCB_NEG)
                    memcpy(&y, R + ip->b + e * ses, ses);
                n = prof_arith(prof, ty_signed_of(bc_ops[ip->note_op].elem),
                               base == BCB_ADD   ? PA_ADD
                               : base == BCB_SUB ? PA_SUB
                               : base == BCB_MUL ? PA_MUL : PA_NEG,
                               out + e * des, &x, &y);
            }
            if (n > 0 && !ln[l])
                comp[l] = r, opnd[l][0] = x, opnd[l][1] = y, opnd[l][2] = z;
            ln[l] |= n > 0 ? (unsigned)n : 0u;
        }
        if (base == BCB_AS) {
            ty_t dt = {(uint8_t)ip->imm, (uint8_t)(ip->imm >> 8)};
            ty_t st = {(uint8_t)(ip->imm >> 16), (uint8_t)(ip->imm >> 24)};
            uint8_t a[TY_MAXLANES * 8], d[TY_MAXLANES * 8];
            memset(a, 0, sizeof a);
            int n = as_reinterpret(dt, st, d, a); /* the notes: by type */
            ln[l] = n > 0 ? (unsigned)n : 0u;
            opnd[l][0] = opnd[l][1] = opnd[l][2] = 0;
        }
        any |= ln[l];
    }
    if (any) {
        uint32_t at = (uint32_t)(ip - P->ins);
        w->notes |= any;
        w->note_ip = at;
        /* mad's rounding is a precision, not a value case: no trap */
        if (prof == PROF_STRICT && base != BCB_MAD) {
            uint32_t l = 0;
            while (!ln[l])
                l++;
            w->fault = (vm_fault){.kind = VM_TRAP_IMPL, .lane = l,
                                  .note = (uint8_t)CTZ(ln[l]),
                                  .comp = comp[l],
                                  .opnd = {opnd[l][0], opnd[l][1],
                                           opnd[l][2]}};
            return 1;
        }
        vm_group *g = w->g;
        for (uint32_t l = 0; g->ncount && l < W; l++)
            for (unsigned b = ln[l]; b; b &= b - 1) {
                uint32_t slot = at * NOTE_COUNT + CTZ(b);
                if (!g->ncount[slot]++) {
                    g->touched[g->ntouched++] = slot;
                    g->nfirst[slot] = w->base + l;
                }
            }
    }
    if (base == BCB_AS) {
        vm_as_lanes(w, ip, exec, R);
        return 0;
    }
    for (uint64_t m = exec; m; m &= m - 1)
        for (uint32_t r = 0, l = CTZ(m); r < rows; r++)
            memcpy(R + ip->d + ((size_t)r * W + l) * des,
                   out + ((size_t)r * W + l) * des, des);
    return 0;
}
