/* The interpreter: decodes a kernel once per run, then executes warps.
 *
 * One dispatched instruction does the work of W work-items: registers are
 * SoA rows of W elements, so an elementwise handler is one flat loop over
 * rows * W elements that the compiler vectorises (this file is built with
 * -O3). Lanes outside the execution mask keep their registers: a handler
 * whose mask is not full computes into the warp's scratch and blends.
 *
 * Handlers are stamped out per opcode by an X-macro over opcodes.def: the
 * body of base NAME is the macro H_NAME(S), S the opcode's type suffix
 * (_B32, _I8, _F64, ...), which selects C types by token pasting. One set of
 * bodies serves both dispatchers: computed goto, or a switch with
 * -DCLVM_SWITCH_DISPATCH (vmdispatch/vmcase/vmbreak, as in Lua).
 *
 * The file is read twice or three times: the dispatch loop at its end is
 * compiled once per instruction-set level (see INTERP_LOOP below). */
#ifndef INTERP_LOOP

#if !defined(__GNUC__) && !defined(CLVM_SWITCH_DISPATCH)
#define CLVM_SWITCH_DISPATCH /* computed goto is a GNU C extension */
#endif

#if defined(__clang__)
/* IVDEP's assume_safety also asks for vectorisation, which clang reports
 * it could not do when instrumenting (sanitizers). Set before any include:
 * clang maps such late diagnostics back to the first inclusion of
 * opcodes.def. */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "vm/interp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/half.h"
#include "stdlib/loadstore.h"
#include "stdlib/mathfn.h"
#include "stdlib/profile.h"
#include "stdlib/reinterpret.h"

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CTZ(x) ((unsigned)__builtin_ctzll(x))
/* Registers are raw storage that handlers read under whatever type the op
 * says (as_type is free: XOR_B32 reads a float register). may_alias makes
 * that legal under strict aliasing, like a char access. */
#define MAY_ALIAS __attribute__((may_alias))
#define NOINLINE __attribute__((noinline))
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define MAY_ALIAS
#define NOINLINE
static unsigned CTZ(uint64_t x)
{
    unsigned n = 0;
    while (!(x & 1)) x >>= 1, n++;
    return n;
}
#endif

/* d and a may be the same register (x = x + y), so restrict would be a lie;
 * the loops carry no dependence, which is all ivdep promises. */
#if defined(__clang__)
#define IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define IVDEP _Pragma("GCC ivdep")
#else
#define IVDEP
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    !defined(CLVM_GENERIC_ENDIAN)
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

/* The C types of each opcode suffix: X(S, native, unsigned of its size,
 * wrapping arithmetic type, result type). Signed results are stored through
 * the unsigned type, so every conversion in a handler is well defined. */
#define SUFFIXES(X)                                               \
    X(_B8,  uint8_t,  uint8_t,  unsigned, uint8_t)                \
    X(_B16, uint16_t, uint16_t, unsigned, uint16_t)               \
    X(_B32, uint32_t, uint32_t, uint32_t, uint32_t)               \
    X(_B64, uint64_t, uint64_t, uint64_t, uint64_t)               \
    X(_U8,  uint8_t,  uint8_t,  unsigned, uint8_t)                \
    X(_U16, uint16_t, uint16_t, unsigned, uint16_t)               \
    X(_U32, uint32_t, uint32_t, uint32_t, uint32_t)               \
    X(_U64, uint64_t, uint64_t, uint64_t, uint64_t)               \
    X(_I8,  int8_t,   uint8_t,  unsigned, uint8_t)                \
    X(_I16, int16_t,  uint16_t, unsigned, uint16_t)               \
    X(_I32, int32_t,  uint32_t, uint32_t, uint32_t)               \
    X(_I64, int64_t,  uint64_t, uint64_t, uint64_t)               \
    X(_F32, float,    uint32_t, float,    float)                  \
    X(_F64, double,   uint64_t, double,   double)

#define X(S, T, U, A, O)              \
    typedef T MAY_ALIAS t##S;         \
    typedef U MAY_ALIAS u##S;         \
    typedef A a##S;                   \
    typedef O MAY_ALIAS o##S;
SUFFIXES(X)
#undef X
typedef uint8_t MAY_ALIAS ua8;
typedef uint16_t MAY_ALIAS ua16;
typedef uint32_t MAY_ALIAS ua32;
typedef uint64_t MAY_ALIAS ua64;

/* Where a body differs by kind of element (U unsigned or sign-agnostic,
 * S signed, F floating), BYKIND(H_DIV_, S) picks H_DIV_U, _S or _F. */
#define KIND_B8 U
#define KIND_B16 U
#define KIND_B32 U
#define KIND_B64 U
#define KIND_U8 U
#define KIND_U16 U
#define KIND_U32 U
#define KIND_U64 U
#define KIND_I8 S
#define KIND_I16 S
#define KIND_I32 S
#define KIND_I64 S
#define KIND_F32 F
#define KIND_F64 F
#define CAT(a, b) CAT_(a, b)
#define CAT_(a, b) a##b
#define BYKIND(m, S) CAT(m, KIND##S)

#define FMA_F32 fmaf
#define FMA_F64 fma

/* Internal opcodes after the real ones. */
enum { XOP_END = BC_NOPS, XOP_NOTE, XOP_COUNT };

/* ------------------------------------------------------------------ */
/* Helpers the handlers call out of line                               */

static inline uint64_t le_load(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
#if HOST_LE
    switch (n) {
    case 1: return p[0];
    case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
    default: memcpy(&v, p, 8); return v;
    }
#else
    for (unsigned k = n; k-- > 0;)
        v = v << 8 | p[k];
    return v;
#endif
}

static inline void le_store(uint8_t *p, unsigned n, uint64_t v)
{
#if HOST_LE
    switch (n) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
#else
    for (unsigned k = 0; k < n; k++, v >>= 8)
        p[k] = (uint8_t)v;
#endif
}


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
    static NOINLINE void blend##B(vm_warp *w, uint64_t exec, void *dv,      \
                                  const void *tv, uint32_t cnt)             \
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

static void blend_es(vm_warp *w, uint64_t exec, void *d, const void *t,
                     uint32_t cnt, unsigned es)
{
    switch (es) {
    case 1: blend8(w, exec, d, t, cnt); break;
    case 2: blend16(w, exec, d, t, cnt); break;
    case 4: blend32(w, exec, d, t, cnt); break;
    default: blend64(w, exec, d, t, cnt); break;
    }
}

/* Index registers, widened as C converts an integer to size_t. */
#define WIDEN_FN(name, T)                                                   \
    static void name(uint64_t *dst, const uint8_t *src, uint32_t w)         \
    {                                                                       \
        const T *s = (const T *)src;                                        \
        for (uint32_t l = 0; l < w; l++)                                    \
            dst[l] = (uint64_t)(int64_t)s[l];                               \
    }
typedef int8_t MAY_ALIAS sa8;
typedef int16_t MAY_ALIAS sa16;
typedef int32_t MAY_ALIAS sa32;
typedef int64_t MAY_ALIAS sa64;
WIDEN_FN(widen_i8, sa8)
WIDEN_FN(widen_i16, sa16)
WIDEN_FN(widen_i32, sa32)
WIDEN_FN(widen_i64, sa64)
#undef WIDEN_FN
#define WIDEN_FN(name, T)                                                   \
    static void name(uint64_t *dst, const uint8_t *src, uint32_t w)         \
    {                                                                       \
        const T *s = (const T *)src;                                        \
        for (uint32_t l = 0; l < w; l++)                                    \
            dst[l] = s[l];                                                  \
    }
WIDEN_FN(widen_u8, ua8)
WIDEN_FN(widen_u16, ua16)
WIDEN_FN(widen_u32, ua32)
WIDEN_FN(widen_u64, ua64)
#undef WIDEN_FN

static vm_widen widen_for(enum ty_scalar s)
{
    switch (s) {
    case TY_CHAR: return widen_i8;
    case TY_UCHAR: return widen_u8;
    case TY_SHORT: return widen_i16;
    case TY_USHORT: return widen_u16;
    case TY_INT: return widen_i32;
    case TY_UINT: return widen_u32;
    case TY_LONG: return widen_i64;
    case TY_ULONG: return widen_u64;
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
    unsigned base = bc_ops[ip->op].base;
    enum ty_scalar el = (enum ty_scalar)bc_ops[ip->op].elem;
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

/* Checks every active lane's access before any is made, and leaves each
 * lane's first byte in w->mp. The address is the pointer's byte offset plus
 * index * stride, modulo 2^64 (so p[-1] of p = q + 1 is q[0]). Returns
 * 0, w->fault filled, when the lowest faulting lane faults; 2 when every
 * lane of the warp runs and lane l's bytes are at mp[0] + l * stride (as
 * for p[get_global_id(0)]), so that the lanes move as strided rows: then
 * only mp[0] need be set (LANEP finds the others); else 1. */
static int mem_check(vm_warp *w, const vm_ins *ip, uint64_t exec,
                     uint8_t *R)
{
    const uint32_t W = w->P->r.warp, nbufs = w->P->nbufs;
    const ua64 *off = (const ua64 *)(R + ip->a);
    const ua32 *bid = (const ua32 *)(R + ip->a + 8 * W);
    uint64_t idx[VM_MAXW];
    const uint64_t len = ip->len, amask = ip->align - 1, stride = ip->stride;
    ip->widen(idx, R + ip->b, W);
    if (exec == w->all && bid[0] < nbufs && !w->bufs[bid[0]].lstride) {
        /* p[i + l] in lane l of one shared buffer: the whole warp's access
         * is one range, checked at its ends (vectorisable compares) */
        const uint32_t n = w->lanes;
        uint64_t same = 0;
        IVDEP for (uint32_t l = 0; l < n; l++)
            same |= (bid[l] ^ bid[0]) | (off[l] ^ off[0]) |
                    (idx[l] - idx[0] - l);
        const vm_buf *b = &w->bufs[bid[0]];
        uint64_t at = off[0] + idx[0] * stride, span = (n - 1) * stride;
        if (!same && !(at & amask) && stride <= UINT64_MAX / VM_MAXW &&
            len <= b->size && span <= b->size - len &&
            at <= b->size - len - span) {
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

/* get_global_id(0) of lane 0, if the warp's lanes have consecutive ones:
 * when it does not wrap a row of the work-group (always so when local[0]
 * is a multiple of W), lane l's is that + l. */
static bool gid0_row(const vm_warp *w, uint64_t *v0)
{
    const vm_range *r = &w->P->r;
    uint64_t lid0 = w->base % r->local[0];
    if (lid0 + r->warp > r->local[0])
        return false;
    *v0 = w->g->id[0] * r->local[0] + lid0 + r->offset[0];
    return true;
}

/* Work-item function values of the W lanes. Local ids are counted up
 * from lane 0's, as a division per lane would cost more than the rest. */
static NOINLINE void wi_values(const vm_warp *w, unsigned base, uint64_t dim,
                               uint64_t *out)
{
    const vm_range *r = &w->P->r;
    const vm_group *g = w->g;
    uint64_t lid[3] = {w->base % r->local[0],
                       w->base / r->local[0] % r->local[1],
                       w->base / r->local[0] / r->local[1]};
    for (uint32_t l = 0; l < r->warp; l++) {
        uint64_t v;
        switch (base) {
        case BCB_GID:
            v = g->id[dim] * r->local[dim] + lid[dim] + r->offset[dim];
            break;
        case BCB_LID: v = lid[dim]; break;
        case BCB_GRP: v = g->id[dim]; break;
        case BCB_GSZ: v = r->global[dim]; break;
        case BCB_LSZ: v = r->local[dim]; break;
        case BCB_NGRP: v = r->groups[dim]; break;
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
}

/* as_T with element sizes differing: each work-item's value repacked in
 * memory order by stdlib. */
static NOINLINE void as_lanes(vm_warp *w, const vm_ins *ip, uint64_t exec,
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

/* An instruction decoded as XOP_NOTE (see watch): runs it for the active
 * lanes element by element, each as profile P->profile gives it, and
 * reports the notes raised: into w->notes, per work-item into the group's
 * counts under warn_impl, and under the strict profile as a trap (IMPL)
 * at the lowest lane that raised one, before anything is written.
 * Returns 1 on a trap. */
static NOINLINE int noted(vm_warp *w, const vm_ins *ip, uint64_t exec,
                          uint8_t *R)
{
    const vm_prog *P = w->P;
    const uint32_t W = P->r.warp, rows = ip->cnt / W;
    const unsigned base = bc_ops[ip->note_op].base;
    const enum prof_id prof = (enum prof_id)P->profile;
    unsigned ln[VM_MAXW] = {0}, any = 0, des = ip->es, ses = ip->es;
    uint32_t comp[VM_MAXW] = {0};
    uint64_t opnd[VM_MAXW][2];
    uint8_t *out = w->scratch;
    for (uint64_t m = exec; m; m &= m - 1) {
        const uint32_t l = CTZ(m);
        for (uint32_t r = 0; r < rows && base != BCB_AS; r++) {
            const size_t e = (size_t)r * W + l;
            int n;
            uint64_t x = 0, y = 0;
            if (base == BCB_CVT) {
                enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(ip->imm),
                               ss = (enum ty_scalar)BC_CVT_SRC(ip->imm);
                ses = ty_scalar_size(ss);
                memcpy(&x, R + ip->a + e * ses, ses);
                n = prof_cv_scalar(prof, ds, ss, out + e * des, &x,
                                   BC_CVT_SAT(ip->imm),
                                   (enum rnd)BC_CVT_RND(ip->imm));
            } else if (base == BCB_DIV || base == BCB_REM) {
                memcpy(&x, R + ip->a + e * ses, ses);
                memcpy(&y, R + ip->b + e * ses, ses);
                n = prof_divrem(prof, (enum ty_scalar)bc_ops[ip->note_op].elem,
                                base == BCB_REM, out + e * des, &x, &y);
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
                comp[l] = r, opnd[l][0] = x, opnd[l][1] = y;
            ln[l] |= n > 0 ? (unsigned)n : 0u;
        }
        if (base == BCB_AS) {
            ty_t dt = {(uint8_t)ip->imm, (uint8_t)(ip->imm >> 8)};
            ty_t st = {(uint8_t)(ip->imm >> 16), (uint8_t)(ip->imm >> 24)};
            uint8_t a[TY_MAXLANES * 8], d[TY_MAXLANES * 8];
            memset(a, 0, sizeof a);
            int n = as_reinterpret(dt, st, d, a); /* the notes: by type */
            ln[l] = n > 0 ? (unsigned)n : 0u;
            opnd[l][0] = opnd[l][1] = 0;
        }
        any |= ln[l];
    }
    if (any) {
        uint32_t at = (uint32_t)(ip - P->ins);
        w->notes |= any;
        w->note_ip = at;
        if (prof == PROF_STRICT) {
            uint32_t l = 0;
            while (!ln[l])
                l++;
            w->fault = (vm_fault){.kind = VM_TRAP_IMPL, .lane = l,
                                  .note = (uint8_t)CTZ(ln[l]),
                                  .comp = comp[l],
                                  .opnd = {opnd[l][0], opnd[l][1]}};
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
        as_lanes(w, ip, exec, R);
        return 0;
    }
    for (uint64_t m = exec; m; m &= m - 1)
        for (uint32_t r = 0, l = CTZ(m); r < rows; r++)
            memcpy(R + ip->d + ((size_t)r * W + l) * des,
                   out + ((size_t)r * W + l) * des, des);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Handler bodies                                                      */

#define REG(T, off) ((T *)(R + (off)))
/* Where a result goes: the register when every lane runs, else scratch
 * that FINISH blends in. Lanes past the end of a partial warp do not
 * exist, so computing them is harmless. */
#define OUTP (exec == all ? (void *)(R + ip->d) : (void *)w->scratch)
#define FINISH(TO)                                                          \
    if (exec != all) {                                                      \
        void *d_ = R + ip->d;                                               \
        if (sizeof(TO) == 1)                                                \
            blend8(w, exec, d_, w->scratch, cnt);                           \
        else if (sizeof(TO) == 2)                                           \
            blend16(w, exec, d_, w->scratch, cnt);                          \
        else if (sizeof(TO) == 4)                                           \
            blend32(w, exec, d_, w->scratch, cnt);                          \
        else                                                                \
            blend64(w, exec, d_, w->scratch, cnt);                          \
    }

/* o = E over cnt elements, with x, y, z the elements of a, b, c. */
#define EW1(TO, TA, E)                                                      \
    {                                                                       \
        TO *o_ = OUTP;                                                      \
        const TA *a_ = REG(const TA, ip->a);                                \
        const uint32_t cnt = ip->cnt;                                       \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            TA x = a_[i];                                                   \
            o_[i] = (TO)(E);                                                \
        }                                                                   \
        FINISH(TO)                                                          \
    }
#define EW2(TO, TA, E)                                                      \
    {                                                                       \
        TO *o_ = OUTP;                                                      \
        const TA *a_ = REG(const TA, ip->a), *b_ = REG(const TA, ip->b);    \
        const uint32_t cnt = ip->cnt;                                       \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            TA x = a_[i], y = b_[i];                                        \
            o_[i] = (TO)(E);                                                \
        }                                                                   \
        FINISH(TO)                                                          \
    }
#define EW3(TO, TA, TC, E)                                                  \
    {                                                                       \
        TO *o_ = OUTP;                                                      \
        const TA *a_ = REG(const TA, ip->a), *b_ = REG(const TA, ip->b);    \
        const TC *c_ = REG(const TC, ip->c);                                \
        const uint32_t cnt = ip->cnt;                                       \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            TA x = a_[i], y = b_[i];                                        \
            TC z = c_[i];                                                   \
            o_[i] = (TO)(E);                                                \
        }                                                                   \
        FINISH(TO)                                                          \
    }
#define BITS(S) (8 * (unsigned)sizeof(u##S))

/* Data movement */
#define H_MOV(S) EW1(u##S, u##S, x)
#define H_SPLAT(S)                                                          \
    {                                                                       \
        u##S *o_ = OUTP;                                                    \
        const u##S *a_ = REG(const u##S, ip->a);                            \
        const uint32_t cnt = ip->cnt;                                       \
        for (uint32_t r = 0; r < cnt; r += W) {                             \
            u##S *row_ = o_ + r;                                            \
            IVDEP for (uint32_t l = 0; l < W; l++) row_[l] = a_[l];        \
        }                                                                   \
        FINISH(u##S)                                                        \
    }
/* Rows go through scratch: d and a may be the same register. */
#define H_SWZ(S)                                                            \
    {                                                                       \
        u##S *t_ = (u##S *)w->scratch;                                      \
        const size_t row = (size_t)W * sizeof(u##S);                        \
        const uint32_t cnt = ip->rows * W;                                  \
        for (uint32_t k = 0; k < ip->rows; k++)                             \
            memcpy(t_ + k * W, R + ip->a + (ip->imm >> 4 * k & 15) * row,   \
                   row);                                                    \
        if (exec == all)                                                    \
            memcpy(R + ip->d, t_, cnt * sizeof(u##S));                      \
        else                                                                \
            FINISH(u##S)                                                    \
    }
#define H_SWW(S)                                                            \
    {                                                                       \
        u##S *t_ = (u##S *)w->scratch;                                      \
        const size_t row = (size_t)W * sizeof(u##S);                        \
        memcpy(t_, R + ip->a, ip->rows * row);                              \
        for (uint32_t k = 0; k < ip->rows; k++) {                           \
            uint8_t *dr = R + ip->d + (ip->imm >> 4 * k & 15) * row;        \
            if (exec == all)                                                \
                memcpy(dr, t_ + k * W, row);                                \
            else                                                            \
                blend_es(w, exec, dr, t_ + k * W, W, sizeof(u##S));         \
        }                                                                   \
    }
#define H_AS(S) as_lanes(w, ip, exec, R);
/* The inline conversions keep the sizes, so d may be a. */
#define CVT_INLINE(TD, TS, E)                                               \
    {                                                                       \
        TD *d_ = REG(TD, ip->d);                                            \
        const TS *s_ = REG(const TS, ip->a);                                \
        IVDEP for (uint32_t i = 0; i < cnt; i++) {                          \
            TS x = s_[i];                                                   \
            d_[i] = (E);                                                    \
        }                                                                   \
    }
#define H_CVT(S)                                                            \
    {                                                                       \
        const uint32_t cnt = ip->cnt;                                       \
        if (exec == all && ip->imm == VM_CVT_I32_F32_SAT_RTE) {             \
            CVT_INLINE(sa32, t_F32, vm_f2i_sat_rte(x))                      \
        } else if (exec == all && ip->imm == VM_CVT_F32_U32) {              \
            CVT_INLINE(t_F32, ua32, (float)x)                               \
        } else if (exec == all && ip->imm == VM_CVT_F32_I32) {              \
            CVT_INLINE(t_F32, sa32, (float)x)                               \
        } else if (exec == all && ip->d != ip->a) {                         \
            ip->cv(R + ip->d, R + ip->a, cnt);                              \
        } else {                                                            \
            ip->cv(w->scratch, R + ip->a, cnt);                             \
            if (exec == all)                                                \
                memcpy(R + ip->d, w->scratch, (size_t)cnt * ip->es);        \
            else                                                            \
                blend_es(w, exec, R + ip->d, w->scratch, cnt, ip->es);      \
        }                                                                   \
    }

/* Arithmetic: integers wrap through the unsigned arithmetic type. */
#define H_ADD(S) EW2(o##S, t##S, (a##S)x + (a##S)y)
#define H_SUB(S) EW2(o##S, t##S, (a##S)x - (a##S)y)
#define H_MUL(S) EW2(o##S, t##S, (a##S)x * (a##S)y)
#define H_NEG(S) EW1(o##S, t##S, -(a##S)x)
#define H_DIV(S) BYKIND(H_DIV_, S)(S)
#define H_DIV_U(S) EW2(o##S, t##S, y == 0 ? 0 : x / y)
#define H_DIV_S(S)                                                          \
    EW2(o##S, t##S,                                                         \
        y == 0 ? (o##S)0 : y == -1 ? (o##S)(0u - (a##S)x) : (o##S)(x / y))
#define H_DIV_F(S) EW2(o##S, t##S, x / y)
#define H_REM(S) BYKIND(H_REM_, S)(S)
#define H_REM_U(S) EW2(o##S, t##S, y == 0 ? x : x % y)
#define H_REM_S(S)                                                          \
    EW2(o##S, t##S, y == 0 ? (o##S)x : y == -1 ? (o##S)0 : (o##S)(x % y))
#define H_MAD(S) EW3(o##S, t##S, t##S, x * y + z)
#define H_FMA(S) EW3(o##S, t##S, t##S, FMA##S(x, y, z))
/* fmin/fmax as glibc computes them: a NaN operand yields the other one,
 * equal operands (+0, -0) the first. */
#define MIN_U(x, y) ((x) < (y) ? (x) : (y))
#define MAX_U(x, y) ((x) > (y) ? (x) : (y))
#define MIN_S MIN_U
#define MAX_S MAX_U
#define MIN_F(x, y) ((x) <= (y) || (y) != (y) ? (x) : (y))
#define MAX_F(x, y) ((x) >= (y) || (y) != (y) ? (x) : (y))
#define H_MIN(S) EW2(o##S, t##S, BYKIND(MIN_, S)(x, y))
#define H_MAX(S) EW2(o##S, t##S, BYKIND(MAX_, S)(x, y))
#define H_CLAMP(S)                                                          \
    EW3(o##S, t##S, t##S, BYKIND(MIN_, S)(BYKIND(MAX_, S)(x, y), z))
#define H_ABS(S) BYKIND(H_ABS_, S)(S)
#define H_ABS_U(S) EW1(u##S, t##S, x)
#define H_ABS_S(S) EW1(u##S, t##S, x < 0 ? 0u - (a##S)x : (a##S)x)
#define H_FABS(S) EW1(u##S, u##S, x & (u##S)(~(u##S)0 >> 1))

/* Math built-ins: stdlib's loop over the elements (into scratch when
 * lanes are masked off, then blended). FTEST's true value is 1 for a
 * scalar, all ones per component of a vector. */
#define MATHFN(S)                                                           \
    {                                                                       \
        const uint32_t cnt = ip->cnt;                                       \
        mathfn_run((enum mathfn)ip->imm, (enum ty_scalar)bc_ops[ip->op].elem, \
                   OUTP, R + ip->a, R + ip->b, R + ip->c, cnt, ip->n > 1);  \
        FINISH(o##S)                                                        \
    }
#define H_MATH1(S) MATHFN(S)
#define H_MATH2(S) MATHFN(S)
#define H_MATH3(S) MATHFN(S)
#define H_FTEST(S) MATHFN(S)

/* Bitwise */
#define H_AND(S) EW2(u##S, u##S, x & y)
#define H_OR(S) EW2(u##S, u##S, x | y)
#define H_XOR(S) EW2(u##S, u##S, x ^ y)
#define H_NOT(S) EW1(u##S, u##S, ~x)
/* imm: b is the same in every lane (a constant or an unwritten
 * parameter), so the count is one scalar and the loop a vector shift;
 * shifts by a count per element have no SSE2 form. */
#define SHCOUNT(S) ((unsigned)(REG(u##S, ip->b)[0] & (BITS(S) - 1)))
#define H_SHL(S)                                                            \
    if (ip->imm) {                                                          \
        const unsigned s_ = SHCOUNT(S);                                     \
        EW1(u##S, u##S, (a##S)x << s_)                                      \
    } else                                                                  \
        EW2(u##S, u##S, (a##S)x << (y & (BITS(S) - 1)))
/* >> of a negative value is implementation-defined, not undefined: gcc
 * and clang shift arithmetically, which is what SHR_I* means. */
#define H_SHR(S)                                                            \
    if (ip->imm) {                                                          \
        const unsigned s_ = SHCOUNT(S);                                     \
        EW1(o##S, t##S, x >> s_)                                            \
    } else                                                                  \
        EW2(o##S, t##S, x >> ((a##S)y & (BITS(S) - 1)))

/* Comparisons: tv is 1 for scalars, all ones for vectors. */
#define CMP(S, E)                                                           \
    {                                                                       \
        const u##S tv = (u##S)ip->imm;                                      \
        EW2(u##S, t##S, (E) ? tv : 0)                                       \
    }
#define H_EQ(S) CMP(S, x == y)
#define H_NE(S) CMP(S, x != y)
#define H_LT(S) CMP(S, x < y)
#define H_LE(S) CMP(S, x <= y)
#define H_GT(S) CMP(S, x > y)
#define H_GE(S) CMP(S, x >= y)
#define H_LAND(S) CMP(S, x && y)
#define H_LOR(S) CMP(S, x || y)
#define H_LNOT(S)                                                           \
    {                                                                       \
        const u##S tv = (u##S)ip->imm;                                      \
        EW1(u##S, t##S, x ? 0 : tv)                                         \
    }
/* imm: the bit of c that decides (the MSB for vectors, every bit for a
 * scalar, where any nonzero c selects b). */
#define H_SELECT(S)                                                         \
    {                                                                       \
        const u##S cm = (u##S)ip->imm;                                      \
        EW3(u##S, u##S, u##S, (z & cm) ? y : x)                             \
    }

/* Work-item functions */
#define WI(S)                                                               \
    {                                                                       \
        uint64_t v_[VM_MAXW];                                               \
        wi_values(w, bc_ops[ip->op].base, ip->imm, v_);                     \
        u##S *o_ = OUTP;                                                    \
        const uint32_t cnt = W;                                             \
        for (uint32_t l = 0; l < W; l++)                                    \
            o_[l] = (u##S)v_[l];                                            \
        FINISH(u##S)                                                        \
    }
#define H_GID(S)                                                            \
    {                                                                       \
        uint64_t v0_;                                                       \
        if (ip->imm == 0 && gid0_row(w, &v0_)) {                            \
            u##S *o_ = OUTP;                                                \
            const uint32_t cnt = W;                                         \
            const u##S b_ = (u##S)v0_;                                      \
            IVDEP for (uint32_t l = 0; l < W; l++)                          \
                o_[l] = (u##S)(b_ + (u##S)l);                               \
            FINISH(u##S)                                                    \
        } else                                                              \
            WI(S)                                                           \
    }
#define H_LID(S) WI(S)
#define H_GRP(S) WI(S)
#define H_GSZ(S) WI(S)
#define H_LSZ(S) WI(S)
#define H_NGRP(S) WI(S)
#define H_GOFF(S) WI(S)
#define H_WDIM(S) WI(S)

/* Memory: every active lane is checked first, then the lanes move in
 * increasing order (so with overlapping stores the highest lane wins). */
#define MEMCHECK()                                                          \
    const int mc_ = mem_check(w, ip, exec, R);                              \
    if (UNLIKELY(!mc_))                                                     \
        goto trap;
/* Lane l's first byte (mem_check set only mp[0] when it returned 2). */
#define LANEP(l) (mc_ == 2 ? w->mp[0] + (size_t)(l) * ip->stride : w->mp[l])
/* A full warp of vloadN/vstoreN or LD/ST of a scalar over consecutive
 * elements (stride = rows elements): with the trip counts and the stride
 * constants, these loops vectorise (as transposes). The store goes in
 * memory order; no two lanes overlap, so the order is not observable. */
#define DENSE_LD(S, ROWS)                                                   \
    for (uint32_t r = 0; r < ROWS; r++)                                     \
        for (uint32_t l = 0; l < VM_MAXW; l++)                              \
            d_[r * VM_MAXW + l] = (u##S)le_load(                            \
                p0_ + (l * ROWS + r) * sizeof(u##S), sizeof(u##S));
#define DENSE_ST(S, ROWS)                                                   \
    for (uint32_t l = 0; l < VM_MAXW; l++)                                  \
        for (uint32_t r = 0; r < ROWS; r++)                                 \
            le_store(p0_ + (l * ROWS + r) * sizeof(u##S), sizeof(u##S),     \
                     s_[r * VM_MAXW + l]);
#define DENSE_ROWS(M, S)                                                    \
    switch (rows) {                                                         \
    case 1: M(S, 1) break;                                                  \
    case 2: M(S, 2) break;                                                  \
    case 3: M(S, 3) break;                                                  \
    case 4: M(S, 4) break;                                                  \
    case 8: M(S, 8) break;                                                  \
    default: M(S, 16) break;                                                \
    }
#define DENSE(S)                                                            \
    (mc_ == 2 && w->lanes == VM_MAXW && ip->stride == rows * sizeof(u##S))
#define LOAD(S)                                                             \
    {                                                                       \
        MEMCHECK()                                                          \
        u##S *d_ = REG(u##S, ip->d);                                        \
        const uint32_t rows = ip->rows;                                     \
        if (DENSE(S)) {                                                     \
            const uint8_t *p0_ = w->mp[0];                                  \
            DENSE_ROWS(DENSE_LD, S)                                         \
        } else if (mc_ == 2) {                                              \
            const size_t st_ = ip->stride;                                  \
            const uint32_t n_ = w->lanes;                                   \
            for (uint32_t r = 0; r < rows; r++) {                           \
                u##S *row_ = d_ + (size_t)r * W;                            \
                const uint8_t *p_ = w->mp[0] + r * sizeof(u##S);            \
                for (uint32_t l = 0; l < n_; l++)                           \
                    row_[l] = (u##S)le_load(p_ + l * st_, sizeof(u##S));    \
            }                                                               \
        } else {                                                            \
            for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                    \
                uint32_t l = CTZ(m_);                                       \
                const uint8_t *p_ = w->mp[l];                               \
                for (uint32_t r = 0; r < rows; r++)                         \
                    d_[r * W + l] = (u##S)le_load(p_ + r * sizeof(u##S),    \
                                                  sizeof(u##S));            \
            }                                                               \
        }                                                                   \
    }
/* Other dense stores go lane by lane: lanes may overlap (stride 0). */
#define STORE(S)                                                            \
    {                                                                       \
        MEMCHECK()                                                          \
        const u##S *s_ = REG(const u##S, ip->d);                            \
        const uint32_t rows = ip->rows;                                     \
        if (DENSE(S)) {                                                     \
            uint8_t *p0_ = w->mp[0];                                        \
            DENSE_ROWS(DENSE_ST, S)                                         \
        } else if (mc_ == 2 && ip->stride) {                                \
            const size_t st_ = ip->stride;                                  \
            const uint32_t n_ = w->lanes;                                   \
            for (uint32_t r = 0; r < rows; r++) {                           \
                const u##S *row_ = s_ + (size_t)r * W;                      \
                uint8_t *p_ = w->mp[0] + r * sizeof(u##S);                  \
                for (uint32_t l = 0; l < n_; l++)                           \
                    le_store(p_ + l * st_, sizeof(u##S), row_[l]);          \
            }                                                               \
        } else {                                                            \
            for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                    \
                uint32_t l = CTZ(m_);                                       \
                uint8_t *p_ = LANEP(l);                                     \
                for (uint32_t r = 0; r < rows; r++)                         \
                    le_store(p_ + r * sizeof(u##S), sizeof(u##S),           \
                             s_[r * W + l]);                                \
            }                                                               \
        }                                                                   \
    }
#define H_LD(S) LOAD(S)
#define H_VLOAD(S) LOAD(S)
#define H_ST(S) STORE(S)
#define H_VSTORE(S) STORE(S)
/* The half forms convert with stdlib's half.h, as ls_vload_half does. */
#define H_VLDH(S)                                                           \
    {                                                                       \
        MEMCHECK()                                                          \
        t_F32 *d_ = REG(t_F32, ip->d);                  \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            for (uint32_t r = 0; r < ip->rows; r++)                         \
                d_[r * W + l] = half_to_float(                              \
                    (uint16_t)le_load(LANEP(l) + 2 * r, 2));                \
        }                                                                   \
    }
#define HALF_F32(v, r) half_from_float(v, r)
#define HALF_F64(v, r) half_from_double(v, r)
#define H_VSTH(S)                                                           \
    {                                                                       \
        MEMCHECK()                                                          \
        const t##S *s_ = REG(const t##S, ip->d);                            \
        enum rnd rm = (enum rnd)((ip->flags & BC_F_RND) >> BC_F_RND_SHIFT); \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            for (uint32_t r = 0; r < ip->rows; r++)                         \
                le_store(LANEP(l) + 2 * r, 2,                               \
                         HALF##S(s_[r * W + l], rm));                       \
        }                                                                   \
    }
#define H_PADD(S)                                                           \
    {                                                                       \
        uint64_t i_[VM_MAXW];                                               \
        const ua64 *po = REG(const ua64, ip->a);                            \
        const ua32 *pb = REG(const ua32, ip->a + 8 * W);                    \
        ua64 *dof = REG(ua64, ip->d);                                       \
        ua32 *db = REG(ua32, ip->d + 8 * W);                                \
        ip->widen(i_, R + ip->b, W);                                        \
        for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {                        \
            uint32_t l = CTZ(m_);                                           \
            dof[l] = po[l] + i_[l] * ip->stride;                            \
            db[l] = pb[l];                                                  \
        }                                                                   \
    }

/* Structured control flow. The mask stack never runs dry or over: the
 * decoder checked the nesting and sized it. When no lane is left running,
 * RESUME goes to where some may come back: the innermost block's ELSE,
 * ENDIF or ENDLOOP, or the end. */
#define TOP (w->stack[w->sp - 1])
#define RESUME()                                                            \
    {                                                                       \
        if (w->sp == 0)                                                     \
            goto done;                                                      \
        ip = ins + TOP.target;                                              \
    }
/* v = the lanes whose c is not zero: a vectorisable compare into bytes,
 * then 8 lanes at a time by one multiplication (bit i of the top byte of
 * bytes * 0x0102040810204080 is byte i, for bytes of 0 or 1). */
#define NONZERO(S, v)                                                       \
    {                                                                       \
        const u##S *c_ = REG(const u##S, ip->c);                            \
        uint8_t nz_[VM_MAXW];                                               \
        IVDEP for (uint32_t l = 0; l < W; l++)                              \
            nz_[l] = c_[l] != 0;                                            \
        for (uint32_t l = W; l < ((W + 7) & ~7u); l++)                      \
            nz_[l] = 0;                                                     \
        for (uint32_t g = 0; g < W && g < VM_MAXW; g += 8)                  \
            v |= (le_load(nz_ + g, 8) * 0x0102040810204080u >> 56) << g;    \
    }
/* Lanes that leave the innermost loop (break or continue) leave the IF
 * blocks inside it too. */
#define LEAVE_IFS(m)                                                        \
    {                                                                       \
        uint32_t i_ = w->sp;                                                \
        while (!w->stack[i_ - 1].loop)                                      \
            w->stack[--i_].join &= ~(m);                                    \
    }
/* IF: imm says whether j is an ELSE. With no lane taking the branch and no
 * ELSE, nothing is pushed and execution goes past the ENDIF. */
#define H_IF(S)                                                             \
    {                                                                       \
        uint64_t t_ = 0;                                                    \
        NONZERO(S, t_)                                                      \
        t_ &= exec;                                                         \
        if (t_ == 0 && !ip->imm) {                                          \
            ip = ins + ip->j + 1;                                           \
        } else {                                                            \
            w->stack[w->sp++] = (vm_frame){exec, exec & ~t_, ip->j, 0};     \
            if (t_ == 0) {                                                  \
                exec = 0;                                                   \
                ip = ins + ip->j;                                           \
            } else {                                                        \
                exec = t_;                                                  \
                ip++;                                                       \
            }                                                               \
        }                                                                   \
        vmbreak;                                                            \
    }
#define H_ELSE(S)                                                           \
    {                                                                       \
        vm_frame *f_ = &TOP;                                                \
        if (f_->other == 0) {                                               \
            w->sp--;                                                        \
            exec = f_->join;                                                \
            ip = ins + ip->j + 1;                                           \
            if (exec == 0)                                                  \
                RESUME()                                                    \
        } else {                                                            \
            exec = f_->other;                                               \
            f_->other = 0;                                                  \
            f_->target = ip->j;                                             \
            ip++;                                                           \
        }                                                                   \
        vmbreak;                                                            \
    }
#define H_ENDIF(S)                                                          \
    {                                                                       \
        exec = w->stack[--w->sp].join;                                      \
        ip++;                                                               \
        if (exec == 0)                                                      \
            RESUME()                                                        \
        vmbreak;                                                            \
    }
#define H_LOOP(S)                                                           \
    {                                                                       \
        w->stack[w->sp++] = (vm_frame){exec, 0, ip->j, 1};                  \
        ip++;                                                               \
        vmbreak;                                                            \
    }
#define EXIT_LOOP()                                                         \
    {                                                                       \
        vm_frame *f_ = &w->stack[--w->sp];                                  \
        exec = f_->join;                                                    \
        ip = ins + f_->target + 1;                                          \
        if (exec == 0)                                                      \
            RESUME()                                                        \
    }
#define H_ENDLOOP(S)                                                        \
    {                                                                       \
        exec |= TOP.other;                                                  \
        TOP.other = 0;                                                      \
        if (exec)                                                           \
            ip = ins + ip->j;                                               \
        else                                                                \
            EXIT_LOOP()                                                     \
        vmbreak;                                                            \
    }
#define H_BRKIF(S)                                                          \
    {                                                                       \
        uint64_t b_ = 0;                                                    \
        NONZERO(S, b_)                                                      \
        b_ = (ip->flags & BC_F_NOT ? ~b_ : b_) & exec;                      \
        ip++;                                                               \
        if (b_) {                                                           \
            LEAVE_IFS(b_)                                                   \
            exec &= ~b_;                                                    \
            if (exec == 0) {                                                \
                if (TOP.loop && TOP.other == 0)                             \
                    EXIT_LOOP()                                             \
                else                                                        \
                    RESUME()                                                \
            }                                                               \
        }                                                                   \
        vmbreak;                                                            \
    }
#define H_BREAK(S)                                                          \
    {                                                                       \
        LEAVE_IFS(exec)                                                     \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }
#define H_CONT(S)                                                           \
    {                                                                       \
        uint32_t i_ = w->sp;                                                \
        while (!w->stack[i_ - 1].loop)                                      \
            w->stack[--i_].join &= ~exec;                                   \
        w->stack[i_ - 1].other |= exec;                                     \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }
#define H_RET(S)                                                            \
    {                                                                       \
        for (uint32_t i_ = 0; i_ < w->sp; i_++)                             \
            w->stack[i_].join &= ~exec;                                     \
        exec = 0;                                                           \
        RESUME()                                                            \
        vmbreak;                                                            \
    }
/* Every lane of the warp must arrive together; the scheduler checks that
 * every warp of the group does. A group of one warp needs no stop. */
#define H_BARRIER(S)                                                        \
    {                                                                       \
        if (exec != all) {                                                  \
            w->fault = (vm_fault){.kind = VM_TRAP_BARRIER,                  \
                                  .lane = CTZ(exec),                        \
                                  .other = w->base + CTZ(all & ~exec)};     \
            goto trap;                                                      \
        }                                                                   \
        w->barriers++;                                                      \
        ip++;                                                               \
        if (P->r.nwarps > 1)                                                \
            goto barrier;                                                   \
        vmbreak;                                                            \
    }

/* Host calls and printf: out of line, lane by lane (native.c). */
#define H_CALL(S)                                                           \
    if (UNLIKELY(vm_native_call(w, ip, exec)))                              \
        goto trap;
#define H_CALLV(S) H_CALL(S)
#define H_PRINTF(S)                                                         \
    if (UNLIKELY(vm_native_printf(w, ip, exec)))                            \
        goto trap;

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */

#ifdef CLVM_SWITCH_DISPATCH
#define vmdispatch(o) switch (o)
#define vmcase(l) case l:
#define vmbreak break
#else
#define vmdispatch(o) goto *ip->label;
#define vmcase(l) L_##l:
#define vmbreak                                                             \
    {                                                                       \
        if (UNLIKELY(left == 0))                                            \
            goto out_of_budget;                                             \
        left--;                                                             \
        goto *ip->label;                                                    \
    }
#endif

/* The dispatch loop is compiled once per instruction-set level: this file
 * includes itself with INTERP_LOOP set (the function is at its end), once
 * for the baseline and, on x86-64, once for AVX2, whose handler loops are
 * twice as wide. (GCC's target_clones cannot copy a function that keeps
 * label addresses.) vm_prog_new picks the best the host has; the
 * environment variable CLVM_ISA=base forces the baseline. */
#define INTERP_LOOP interp_base
#define INTERP_TARGET
#include "vm/interp.c"
#undef INTERP_LOOP
#undef INTERP_TARGET
#if defined(__x86_64__) && defined(__GNUC__) && !defined(CLVM_NO_AVX2)
#define HAVE_AVX2 1
#define INTERP_LOOP interp_avx2
#define INTERP_TARGET __attribute__((target("avx2")))
#include "vm/interp.c"
#undef INTERP_LOOP
#undef INTERP_TARGET
#endif

static vm_runfn pick_loop(void)
{
#ifdef HAVE_AVX2
    const char *isa = getenv("CLVM_ISA");
    if (__builtin_cpu_supports("avx2") && !(isa && !strcmp(isa, "base")))
        return interp_avx2;
#endif
    return interp_base;
}

enum vm_stop vm_warp_run(vm_warp *w, uint64_t budget)
{
    return w->P->run(w, budget, NULL);
}

/* ------------------------------------------------------------------ */
/* Decoding: once per run                                              */

static bool code_error(vm_trap *t, const vm_prog *p, uint32_t pc,
                       const char *what)
{
    vm_trap_set(t, VM_TRAP_CODE, "kernel '%s' at pc %u: %s",
                bc_str(p->m, p->k->name), pc, what);
    return false;
}

static uint64_t reg_bytes(const bc_reg *x, uint32_t W)
{
    if (x->kind == BC_REG_PTR)
        return 12ull * W;
    return (uint64_t)ty_sizeof(x->type) * W;
}

/* The registers and parameters make sense, so the template can be built
 * without looking twice. */
static bool check_regs(const vm_prog *p, vm_trap *t)
{
    const bc_kernel *k = p->k;
    for (uint32_t i = 0; i < k->nparams; i++) {
        uint32_t x = k->params[i].reg;
        if (x >= k->nregs || k->regs[x].init != BC_INIT_PARAM ||
            k->regs[x].arg != i)
            return code_error(t, p, 0, "parameter without its register");
    }
    for (uint32_t x = 0; x < k->nregs; x++) {
        const bc_reg *g = &k->regs[x];
        if (g->type.s >= TY_NSCALAR || !ty_valid_width(g->type.n) ||
            g->kind > BC_REG_PTR || g->space > BC_PRIVATE)
            return code_error(t, p, 0, "register of no type");
        bool ok = true;
        switch (g->init) {
        case BC_INIT_NONE: break;
        case BC_INIT_PARAM: ok = g->arg < k->nparams; break;
        case BC_INIT_CONST:
            ok = g->kind == BC_REG_VALUE &&
                 g->arg <= p->m->nconst &&
                 ty_sizeof(g->type) <= p->m->nconst - g->arg;
            break;
        case BC_INIT_ARRAY:
            ok = g->kind == BC_REG_PTR &&
                 (g->space == BC_LOCAL || g->space == BC_PRIVATE);
            break;
        default: ok = false; break;
        }
        if (!ok)
            return code_error(t, p, 0, "register with a bad initialiser");
    }
    return true;
}

static bool check_args(const vm_prog *p, vm_trap *t)
{
    const bc_kernel *k = p->k;
    if (k->nparams && !p->args) {
        vm_trap_set(t, VM_TRAP_ARGS, "kernel '%s' takes %u arguments, none "
                    "given", bc_str(p->m, k->name), k->nparams);
        return false;
    }
    for (uint32_t i = 0; i < k->nparams; i++) {
        const bc_reg *g = &k->regs[k->params[i].reg];
        const vm_arg *a = &p->args[i];
        const char *name = bc_str(p->m, k->params[i].name);
        char tn[TY_NAME_MAX];
        if (g->kind == BC_REG_VALUE &&
            (!a->data || a->size != ty_sizeof(g->type))) {
            vm_trap_set(t, VM_TRAP_ARGS, "argument %u '%s': %s needs %zu "
                        "bytes, %llu given", i, name, ty_name(g->type, tn),
                        ty_sizeof(g->type),
                        a->data ? (unsigned long long)a->size : 0ull);
            return false;
        }
        if (g->kind == BC_REG_PTR && g->space != BC_LOCAL && a->size &&
            !a->data) {
            vm_trap_set(t, VM_TRAP_ARGS, "argument %u '%s': a buffer of "
                        "%llu bytes without data", i, name,
                        (unsigned long long)a->size);
            return false;
        }
    }
    return true;
}

/* A limit on what one work-group or warp may allocate, so that a huge
 * local argument fails cleanly instead of thrashing. */
#define MAX_BLOCK (1ull << 30)

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* Buffers, register offsets (the registers to reset first, then the other
 * written ones, so a warp start resets one prefix) and the template
 * register file. */
static bool layout(vm_prog *p, const uint8_t *written, const uint8_t *reset,
                   vm_trap *t)
{
    const bc_kernel *k = p->k;
    const uint32_t W = p->r.warp;
    uint32_t nb = 1;
    for (uint32_t x = 0; x < k->nregs; x++)
        nb += k->regs[x].kind == BC_REG_PTR &&
              (k->regs[x].init == BC_INIT_PARAM ||
               k->regs[x].init == BC_INIT_ARRAY);
    p->bufs = calloc(nb, sizeof *p->bufs);
    p->regoff = calloc(k->nregs + 1, sizeof *p->regoff);
    uint32_t *bufof = calloc(k->nregs + 1, sizeof *bufof);
    if (!p->bufs || !p->regoff || !bufof) {
        free(bufof);
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    p->bufs[0] = (vm_bufinfo){0, -1, BC_GLOBAL, 0, 0};
    p->nbufs = 1;
    uint64_t local = 0, priv = 0;
    for (uint32_t x = 0; x < k->nregs; x++) {
        const bc_reg *g = &k->regs[x];
        if (g->kind != BC_REG_PTR || (g->init != BC_INIT_PARAM &&
                                      g->init != BC_INIT_ARRAY))
            continue;
        vm_bufinfo *b = &p->bufs[p->nbufs];
        *b = (vm_bufinfo){x, -1, g->space, 0, 0};
        if (g->init == BC_INIT_PARAM) {
            b->param = (int)g->arg;
            b->size = p->args[g->arg].size;
        } else {
            b->size = (uint64_t)g->arg * ty_sizeof(g->type);
        }
        if (b->space == BC_LOCAL) {
            b->off = local = align_up(local, LS_BASE_ALIGN);
            local += b->size;
        } else if (b->space == BC_PRIVATE) {
            b->off = priv = align_up(priv, 16);
            priv += b->size;
        }
        if (local > MAX_BLOCK || priv * W > MAX_BLOCK) {
            free(bufof);
            vm_trap_set(t, VM_TRAP_NOMEM, "kernel '%s' needs %llu bytes of "
                        "local and %llu of private memory per work-group",
                        bc_str(p->m, k->name), (unsigned long long)local,
                        (unsigned long long)(priv * p->r.group_size));
            return false;
        }
        bufof[x] = p->nbufs++;
    }
    p->local_bytes = local;
    p->private_bytes = align_up(priv, 16);

    uint64_t off = 0;
    for (int pass = 2; pass >= 0; pass--) {
        for (uint32_t x = 0; x < k->nregs; x++) {
            if (written[x] + reset[x] != pass)
                continue;
            p->regoff[x] = (uint32_t)off;
            off += align_up(reg_bytes(&k->regs[x], W), 64);
            if (off > (1u << 31)) {
                free(bufof);
                vm_trap_set(t, VM_TRAP_NOMEM, "kernel '%s': registers too "
                            "big", bc_str(p->m, k->name));
                return false;
            }
        }
        if (pass == 2)
            p->resetsize = off;
        else if (pass == 1)
            p->writtensize = off;
    }
    p->filesize = off ? off : 64;
    p->tmpl = aligned_alloc(64, p->filesize);
    if (!p->tmpl) {
        free(bufof);
        vm_trap_set(t, VM_TRAP_NOMEM, "registers of kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    memset(p->tmpl, 0, p->filesize);
    for (uint32_t x = 0; x < k->nregs; x++) {
        const bc_reg *g = &k->regs[x];
        uint8_t *d = p->tmpl + p->regoff[x];
        if (g->kind == BC_REG_PTR) {
            /* offsets 0; the buffer id, 0 (null) for an unset pointer */
            for (uint32_t l = 0; l < W; l++)
                memcpy(d + 8 * W + 4 * l, &bufof[x], 4);
            continue;
        }
        unsigned es = ty_scalar_size(g->type.s), rows = ty_lanes(g->type);
        for (unsigned r = 0; r < rows; r++) {
            uint64_t v;
            if (g->init == BC_INIT_PARAM) {
                /* host order already: the parameter's own bytes. A wider
                 * register of a scalar parameter (the assembler's uniform
                 * broadcast) repeats its one element in every row. */
                const bc_reg *pr = &k->regs[k->params[g->arg].reg];
                unsigned src = pr->type.n == 1 ? 0 : r;
                uint8_t e[8];
                memcpy(e, p->args[g->arg].data + src * es, es);
                for (uint32_t l = 0; l < W; l++)
                    memcpy(d + ((size_t)r * W + l) * es, e, es);
                continue;
            } else if (g->init == BC_INIT_CONST) {
                v = le_load(p->m->consts + g->arg + r * es, es);
            } else {
                continue;
            }
            for (uint32_t l = 0; l < W; l++)
                ty_put_bits(d + ((size_t)r * W + l) * es, es, v);
        }
    }
    free(bufof);
    return true;
}

/* Finds the instructions, checks opcodes and register numbers, and marks
 * the registers the code writes. */
static bool scan(vm_prog *p, uint8_t *written, vm_trap *t)
{
    const bc_kernel *k = p->k;
    p->pcins = malloc(((size_t)k->ncode + 1) * sizeof *p->pcins);
    if (!p->pcins) {
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    memset(p->pcins, 0xff, ((size_t)k->ncode + 1) * sizeof *p->pcins);
    uint32_t n = 0, pc = 0;
    while (pc < k->ncode) {
        uint32_t h = k->code[pc];
        unsigned words = bc_ins_words(h);
        if (!words || words > k->ncode - pc)
            return code_error(t, p, pc, "bad opcode or truncated");
        p->pcins[pc] = n++;
        const char *l = bc_bases[bc_ops[BC_OPCODE(h)].base].operands;
        for (uint32_t q = pc + 1; *l; l++, q++) {
            for (uint32_t e = 0; *l == 'l' && e < BC_FLAGS(h); e++)
                if (k->code[q + e] >= k->nregs)
                    return code_error(t, p, pc, "no such register");
            if (strchr("dabcpo", *l)) {
                if (k->code[q] >= k->nregs)
                    return code_error(t, p, pc, "no such register");
                if (*l == 'd')
                    written[k->code[q]] = 1;
            }
            q += *l == 'z';
        }
        pc += words;
    }
    p->pcins[k->ncode] = n;
    p->nins = n + 1;
    return true;
}

typedef struct {
    uint32_t d, a, b, c, p, o, j, i, t;
    uint64_t z;
} operands;

static void read_operands(const uint32_t *w, const char *l, operands *o);

/* Bytes of register d an instruction writes in every lane it runs, or 0
 * if it may leave some of them (SWW, AS, vectors of 3 loaded with 3 rows,
 * stores, control flow). */
static uint64_t full_write(const vm_prog *p, const uint32_t *code,
                           const operands *o)
{
    const bc_kernel *k = p->k;
    const uint32_t W = p->r.warp, op = BC_OPCODE(code[0]), nn = BC_N(code[0]);
    const unsigned base = bc_ops[op].base;
    const enum ty_scalar el = (enum ty_scalar)bc_ops[op].elem;
    const uint64_t es = ty_scalar_size(el);
    if (!ty_valid_width(nn))
        return 0;
    const uint64_t rows = ty_lanes((ty_t){el, (uint8_t)nn});
    switch (base) {
    case BCB_SWW: case BCB_AS: case BCB_ST: case BCB_VSTORE: case BCB_VSTH:
    case BCB_CALL: case BCB_CALLV: case BCB_PRINTF:
        return 0;
    case BCB_CVT:
        return BC_CVT_DST(o->t) < TY_NSCALAR
                   ? rows * W * ty_scalar_size(BC_CVT_DST(o->t)) : 0;
    case BCB_SWZ:
        return nn * W * es;
    case BCB_GID: case BCB_LID: case BCB_GRP: case BCB_GSZ: case BCB_LSZ:
    case BCB_NGRP: case BCB_GOFF: case BCB_WDIM:
        return W * es;
    case BCB_LD: {
        const bc_reg *pr = &k->regs[o->p];
        return pr->type.s < TY_NSCALAR ? (uint64_t)pr->type.n * W * es : 0;
    }
    case BCB_VLOAD:
        return nn * W * es;
    case BCB_VLDH:
        return nn * W * 4;
    case BCB_PADD:
        return 12ull * W;
    default:
        /* the elementwise ops: rows * W elements of the op's size */
        return strchr(bc_bases[base].operands, 'd') ? rows * W * es : 0;
    }
}

/* Which written registers a warp start must reset: those some instruction
 * may read before the warp writes them. A register is defined once an
 * instruction outside every IF and LOOP (so run by every lane still
 * running, in pc order) writes all of its bytes; a read of a register not
 * yet defined, at any depth, marks it. Lanes that returned earlier keep
 * stale values, but they never run again. */
static void need_reset(const vm_prog *p, const uint8_t *written,
                       uint8_t *reset)
{
    const bc_kernel *k = p->k;
    uint8_t *defined = calloc(k->nregs + 1, 1);
    if (!defined) {
        memcpy(reset, written, k->nregs);
        return;
    }
    uint32_t depth = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc])) {
        const uint32_t *code = k->code + pc;
        const unsigned base = bc_ops[BC_OPCODE(code[0])].base;
        const char *l = bc_bases[base].operands;
        operands o;
        read_operands(code + 1, l, &o);
        const uint32_t reads[5] = {o.a, o.b, o.c, o.p, o.o};
        for (unsigned q = 0; q < 5; q++)
            if (strchr(l, "abcpo"[q]) && !defined[reads[q]])
                reset[reads[q]] = 1;
        if (strchr(l, 'l')) {   /* the list is last: after 'd' and 'i' */
            const uint32_t *list = code + strlen(l);
            for (uint32_t e = 0; e < BC_FLAGS(code[0]); e++)
                if (!defined[list[e]])
                    reset[list[e]] = 1;
        }
        if (strchr(l, 'd')) {
            uint64_t all = reg_bytes(&k->regs[o.d], p->r.warp);
            if (depth == 0 && full_write(p, code, &o) == all)
                defined[o.d] = 1;
            else if (!defined[o.d])
                reset[o.d] = 1; /* SWW reads d; the rest keep bytes */
        }
        depth += base == BCB_IF || base == BCB_LOOP;
        depth -= depth && (base == BCB_ENDIF || base == BCB_ENDLOOP);
    }
    for (uint32_t x = 0; x < k->nregs; x++)
        reset[x] &= written[x];
    free(defined);
}

static void read_operands(const uint32_t *w, const char *l, operands *o)
{
    memset(o, 0, sizeof *o);
    for (; *l; l++, w++) {
        switch (*l) {
        case 'd': o->d = *w; break;
        case 'a': o->a = *w; break;
        case 'b': o->b = *w; break;
        case 'c': o->c = *w; break;
        case 'p': o->p = *w; break;
        case 'o': o->o = *w; break;
        case 'j': o->j = *w; break;
        case 'i': o->i = *w; break;
        case 't': o->t = *w; break;
        case 'z': o->z = w[0] | (uint64_t)w[1] << 32; w++; break;
        }
    }
}

/* Is register x of that kind, with at least `bytes` of storage? The
 * verifier guarantees it; checking again costs nothing per run and keeps
 * a bad module from reading outside the register file. */
static bool fits(const vm_prog *p, uint32_t x, int kind, uint64_t bytes)
{
    const bc_reg *g = &p->k->regs[x];
    return g->kind == kind && reg_bytes(g, p->r.warp) >= bytes;
}

static bool decode_one(vm_prog *p, vm_ins *I, const uint32_t *code,
                       const uint8_t *written, const char **why)
{
    const bc_kernel *k = p->k;
    const uint32_t W = p->r.warp, h = code[0];
    const uint32_t op = BC_OPCODE(h), nn = BC_N(h);
    const unsigned base = bc_ops[op].base;
    const enum ty_scalar el = (enum ty_scalar)bc_ops[op].elem;
    const uint64_t es = ty_scalar_size(el);
    operands o;
    read_operands(code + 1, bc_bases[base].operands, &o);
    I->op = (uint16_t)op;
    I->n = (uint8_t)nn;
    I->flags = (uint8_t)BC_FLAGS(h);
    I->es = (uint8_t)es;
    uint64_t rows = ty_valid_width(nn) ? ty_lanes((ty_t){el, (uint8_t)nn}) : 0;
    I->cnt = (uint32_t)(rows * W);
    const uint64_t v = rows * W * es; /* bytes of an n-vector register */
    const bool vec = ty_valid_width(nn);
    uint32_t *regoff = p->regoff;
    I->d = regoff[o.d];
    I->a = regoff[o.a];
    I->b = regoff[o.b];
    I->c = regoff[o.c];
    I->j = o.j;
    *why = "operand of the wrong kind or size";
    switch (base) {
    case BCB_MOV: case BCB_NEG: case BCB_NOT: case BCB_FABS: case BCB_ABS:
        return vec && fits(p, o.d, BC_REG_VALUE, v) &&
               fits(p, o.a, BC_REG_VALUE, v);
    case BCB_SHL: case BCB_SHR:
        I->imm = !written[o.b] && (k->regs[o.b].init == BC_INIT_CONST ||
                                   k->regs[o.b].init == BC_INIT_PARAM);
        return vec && fits(p, o.d, BC_REG_VALUE, v) &&
               fits(p, o.a, BC_REG_VALUE, v) && fits(p, o.b, BC_REG_VALUE, v);
    case BCB_EQ: case BCB_NE: case BCB_LT: case BCB_LE: case BCB_GT:
    case BCB_GE: case BCB_LAND: case BCB_LOR: case BCB_LNOT:
        I->imm = nn == 1 ? 1 : UINT64_MAX;
        /* fall through */
    case BCB_ADD: case BCB_SUB: case BCB_MUL: case BCB_DIV: case BCB_REM:
    case BCB_MIN: case BCB_MAX: case BCB_AND: case BCB_OR: case BCB_XOR:
        return vec && fits(p, o.d, BC_REG_VALUE, v) &&
               fits(p, o.a, BC_REG_VALUE, v) &&
               (base == BCB_LNOT || fits(p, o.b, BC_REG_VALUE, v));
    case BCB_SELECT:
        I->imm = nn == 1 ? UINT64_MAX : 1ull << (8 * es - 1);
        /* fall through */
    case BCB_MAD: case BCB_FMA: case BCB_CLAMP:
        return vec && fits(p, o.d, BC_REG_VALUE, v) &&
               fits(p, o.a, BC_REG_VALUE, v) &&
               fits(p, o.b, BC_REG_VALUE, v) && fits(p, o.c, BC_REG_VALUE, v);
    case BCB_SPLAT:
        return vec && fits(p, o.d, BC_REG_VALUE, v) &&
               fits(p, o.a, BC_REG_VALUE, W * es);
    case BCB_SWZ: case BCB_SWW: {
        uint64_t top = 0;
        for (uint32_t q = 0; q < nn; q++)
            top = (o.z >> 4 * q & 15) > top ? o.z >> 4 * q & 15 : top;
        I->imm = o.z;
        I->rows = nn;
        uint64_t idx = (top + 1) * W * es, dat = (uint64_t)nn * W * es;
        return vec && nn <= 16 &&
               fits(p, o.d, BC_REG_VALUE, base == BCB_SWZ ? dat : idx) &&
               fits(p, o.a, BC_REG_VALUE, base == BCB_SWZ ? idx : dat) &&
               ty_scalar_size(k->regs[o.d].type.s) == es &&
               ty_scalar_size(k->regs[o.a].type.s) == es;
    }
    case BCB_AS: {
        ty_t dt = k->regs[o.d].type, st = k->regs[o.a].type;
        I->imm = dt.s | dt.n << 8 | (uint64_t)st.s << 16 |
                 (uint64_t)st.n << 24;
        return k->regs[o.d].kind == BC_REG_VALUE &&
               k->regs[o.a].kind == BC_REG_VALUE &&
               ty_sizeof(dt) == ty_sizeof(st);
    }
    case BCB_CVT: {
        enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(o.t),
                       ss = (enum ty_scalar)BC_CVT_SRC(o.t);
        if (ds >= TY_NSCALAR || ss >= TY_NSCALAR || !vec)
            return false;
        I->cv = cv_lookup(ds, ss, BC_CVT_SAT(o.t), (enum rnd)BC_CVT_RND(o.t));
        I->es = (uint8_t)ty_scalar_size(ds);
        /* (float)x of a 32-bit integer rounds to nearest, as stdlib */
        bool rte = BC_CVT_RND(o.t) == RND_RTE;
        I->imm = ds == TY_INT && ss == TY_FLOAT && BC_CVT_SAT(o.t) && rte
                     ? VM_CVT_I32_F32_SAT_RTE
                 : ds == TY_FLOAT && ss == TY_UINT && rte ? VM_CVT_F32_U32
                 : ds == TY_FLOAT && ss == TY_INT && rte ? VM_CVT_F32_I32
                                                         : VM_CVT_CALL;
        *why = "no such conversion";
        return I->cv && fits(p, o.d, BC_REG_VALUE, I->cnt * I->es) &&
               fits(p, o.a, BC_REG_VALUE, I->cnt * ty_scalar_size(ss));
    }
    case BCB_GID: case BCB_LID: case BCB_GRP: case BCB_GSZ: case BCB_LSZ:
    case BCB_NGRP: case BCB_GOFF: case BCB_WDIM:
        I->imm = base == BCB_WDIM ? 0 : o.i;
        *why = "work-item function of no dimension";
        return I->imm < 3 && fits(p, o.d, BC_REG_VALUE, W * es);
    case BCB_LD: case BCB_ST: case BCB_VLOAD: case BCB_VSTORE:
    case BCB_VLDH: case BCB_VSTH: case BCB_PADD: {
        const bc_reg *pr = &k->regs[o.p], *ir = &k->regs[o.o];
        uint32_t val = strchr(bc_bases[base].operands, 'd') ? o.d : o.a;
        I->d = regoff[val];
        I->a = regoff[o.p];
        I->b = regoff[o.o];
        I->widen = ir->kind == BC_REG_VALUE && ir->type.n == 1
                       ? widen_for((enum ty_scalar)ir->type.s) : NULL;
        if (!I->widen || pr->kind != BC_REG_PTR)
            return false;
        ty_t pt = pr->type;
        unsigned pes = ty_scalar_size(pt.s);
        if (base == BCB_PADD) {
            I->stride = ty_sizeof(pt);
            return fits(p, o.d, BC_REG_PTR, 0);
        }
        if (base == BCB_LD || base == BCB_ST) {
            I->rows = pt.n;
            I->stride = I->align = (uint32_t)ty_sizeof(pt);
        } else if (base == BCB_VLOAD || base == BCB_VSTORE) {
            I->rows = nn;
            I->stride = nn * es;
            I->align = (uint32_t)es;
        } else {
            bool al = I->flags & BC_F_ALIGNED;
            uint32_t lanes = al && nn == 3 ? 4 : nn;
            I->rows = nn;
            I->stride = 2 * lanes;
            I->align = al ? 2 * lanes : 2;
            if (pt.s != TY_HALF)
                return false;
        }
        I->len = I->rows * (uint32_t)pes;
        if (!vec || !ty_valid_width(I->rows) || I->rows > 16)
            return false;
        /* the value register: float for VLDH, else the op's element */
        uint64_t ves = base == BCB_VLDH ? 4 : es;
        return (base == BCB_VLDH || base == BCB_VSTH || pes == es) &&
               fits(p, val, BC_REG_VALUE, I->rows * W * ves);
    }
    case BCB_IF: case BCB_BRKIF:
        return fits(p, o.c, BC_REG_VALUE, W * es);
    case BCB_BARRIER:
        p->barrier = true;
        return true;
    case BCB_MATH1: case BCB_MATH2: case BCB_MATH3: case BCB_FTEST: {
        const unsigned na = (unsigned)strlen(bc_bases[base].operands) - 2;
        I->imm = o.i;
        *why = "math function of another arity or type";
        return vec && o.i < MF_COUNT && mathfns[o.i].nargs == na &&
               (mathfns[o.i].res == MF_MASK) == (base == BCB_FTEST) &&
               mathfn_takes((enum mathfn)o.i, el) &&
               fits(p, o.d, BC_REG_VALUE, v) && fits(p, o.a, BC_REG_VALUE, v) &&
               (na < 2 || fits(p, o.b, BC_REG_VALUE, v)) &&
               (na < 3 || fits(p, o.c, BC_REG_VALUE, v));
    }
    case BCB_CALL: case BCB_CALLV: case BCB_PRINTF: {
        /* the verifier checked the registers against the signature or
         * format; the handlers read them by their types */
        const unsigned fixed = base == BCB_CALL ? 2 : 1;
        I->a = o.i;
        I->b = BC_FLAGS(h);
        I->imm = (uint64_t)(code + 1 + fixed - k->code);
        p->printf |= base == BCB_PRINTF;
        *why = "call of no extern";
        return base == BCB_PRINTF ? I->a < p->m->nstrings
                                  : I->a < p->m->nexterns && vec;
    }
    default:
        return true;
    }
}

/* Decodes I as XOP_NOTE when it may hit a case (enum note) that the
 * profile gives another value for, or that strict or warn_impl must see.
 * Elsewhere, and for every other instruction, the fast handler stays. */
static void watch(vm_prog *p, vm_ins *I)
{
    const unsigned base = bc_ops[I->op].base;
    const enum ty_scalar el = (enum ty_scalar)bc_ops[I->op].elem;
    unsigned can = 0;
    uint64_t imm = I->imm;
    if (base == BCB_CVT) {
        operands o;
        read_operands(p->k->code + I->pc + 1, bc_bases[base].operands, &o);
        enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(o.t),
                       ss = (enum ty_scalar)BC_CVT_SRC(o.t);
        bool sat = BC_CVT_SAT(o.t);
        imm = o.t;
        if (ty_is_float(ss) && !ty_is_float(ds))
            can = sat ? NOTE_SAT_NAN : NOTE_FLT_RANGE | NOTE_FLT_NAN;
        else if (!ty_is_float(ss) && ty_is_signed(ds) && !sat &&
                 (ty_scalar_size(ds) < ty_scalar_size(ss) ||
                  (ds != ss && !ty_is_signed(ss) &&
                   ty_scalar_size(ds) == ty_scalar_size(ss))))
            can = NOTE_NARROW;
    } else if (base == BCB_AS) {
        ty_t dt = {(uint8_t)imm, (uint8_t)(imm >> 8)};
        ty_t st = {(uint8_t)(imm >> 16), (uint8_t)(imm >> 24)};
        enum as_check c = as_classify(dt, st);
        can = c == AS_COUNT ? NOTE_AS_COUNT : c == AS_4TO3 ? NOTE_AS_W
              : c == AS_3TO4 ? NOTE_AS_3TO4 : 0;
    } else if ((base == BCB_DIV || base == BCB_REM) && !ty_is_float(el)) {
        can = NOTE_DIV_ZERO | (ty_is_signed(el) ? NOTE_DIV_MIN : 0);
    } else if (I->flags & BC_F_SIGNED) { /* ADD, SUB, MUL, NEG (verify) */
        can = NOTE_OVERFLOW;
    }
    bool all = p->profile == PROF_STRICT || p->r.warn_impl;
    if (!(can & (all ? ~0u : prof_differs((enum prof_id)p->profile))))
        return;
    I->note_op = I->op;
    I->op = XOP_NOTE;
    I->imm = imm;
}

/* Decodes every instruction and checks the structure the mask stack
 * relies on: blocks nest, and each j is the matching instruction. */
static bool decode(vm_prog *p, const void *const *tab,
                   const uint8_t *written, vm_trap *t)
{
    const bc_kernel *k = p->k;
    uint32_t *open = malloc(p->nins * sizeof *open), sp = 0, loops = 0;
    p->ins = calloc(p->nins, sizeof *p->ins);
    if (!open || !p->ins) {
        free(open);
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    const char *why = NULL;
    uint32_t pc = 0, n = 0, bad = 0;
    for (; pc < k->ncode && !why; pc += bc_ins_words(k->code[pc]), n++) {
        vm_ins *I = &p->ins[n];
        I->pc = pc;
        if (!decode_one(p, I, k->code + pc, written, &why)) {
            bad = pc;
            break;
        }
        why = NULL;
        unsigned base = bc_ops[I->op].base;
        vm_ins *top = sp ? &p->ins[open[sp - 1]] : NULL;
        unsigned tb = top ? bc_ops[top->op].base : BCB_COUNT;
        switch (base) {
        case BCB_IF: case BCB_LOOP:
            open[sp++] = n;
            loops += base == BCB_LOOP;
            if (sp > p->depth)
                p->depth = sp;
            break;
        case BCB_ELSE:
            if (tb != BCB_IF || top->j != pc) {
                why = "ELSE without its IF";
            } else {
                top->imm = 1;
                open[sp - 1] = n;
            }
            break;
        case BCB_ENDIF:
            if ((tb != BCB_IF && tb != BCB_ELSE) || top->j != pc)
                why = "ENDIF without its IF";
            else
                sp--;
            break;
        case BCB_ENDLOOP:
            if (tb != BCB_LOOP || top->j != pc ||
                I->j != top->pc + bc_ins_words(k->code[top->pc]))
                why = "ENDLOOP without its LOOP";
            else
                sp--, loops--;
            break;
        case BCB_BREAK: case BCB_CONT: case BCB_BRKIF:
            if (!loops)
                why = "break or continue outside a loop";
            break;
        }
        if (why)
            bad = pc;
    }
    if (!why && sp)
        why = "block not closed", bad = pc;
    free(open);
    if (why)
        return code_error(t, p, bad, why);
    for (uint32_t i = 0; i + 1 < p->nins; i++) {
        vm_ins *I = &p->ins[i];
        unsigned base = bc_ops[I->op].base;
        if (base == BCB_IF || base == BCB_ELSE || base == BCB_LOOP ||
            base == BCB_ENDLOOP)
            I->j = p->pcins[I->j];
    }
    p->ins[p->nins - 1] = (vm_ins){.op = XOP_END, .pc = k->ncode};
    for (uint32_t i = 0; i + 1 < p->nins; i++)
        watch(p, &p->ins[i]);
    for (uint32_t i = 0; i < p->nins; i++)
        p->ins[i].label = tab ? tab[p->ins[i].op] : NULL;
    return true;
}

vm_prog *vm_prog_new(const bc_module *m, uint32_t kidx, vm_arg *args,
                     const vm_range *r, vm_trap *t)
{
    const void *const *tab = NULL;
    vm_runfn run = pick_loop();
#ifndef CLVM_SWITCH_DISPATCH
    run(NULL, 0, &tab);
#endif
    if (kidx >= m->nkernels) {
        vm_trap_set(t, VM_TRAP_ARGS, "no kernel %u (the module has %u)",
                    kidx, m->nkernels);
        return NULL;
    }
    vm_prog *p = calloc(1, sizeof *p);
    uint8_t *written = calloc(2 * (m->kernels[kidx].nregs + 1), 1);
    if (!p || !written) {
        free(p);
        free(written);
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel %u", kidx);
        return NULL;
    }
    p->run = run;
    p->m = m;
    p->k = &m->kernels[kidx];
    p->kidx = kidx;
    p->r = *r;
    p->args = args;
    p->profile = r->profile < PROF_COUNT ? r->profile : PROF_CLVM;
    if (m->nexterns && !vm_natives_bound(r->natives, m)) {
        vm_trap_set(t, VM_TRAP_ARGS, "the module calls host functions "
                    "(extern '%s' ...): bind them to --native libraries "
                    "first", bc_str(m, m->externs[0].name));
        free(p);
        free(written);
        return NULL;
    }
    uint8_t *reset = written + m->kernels[kidx].nregs + 1;
    bool ok = check_regs(p, t) && check_args(p, t) && scan(p, written, t);
    if (ok)
        need_reset(p, written, reset);
    ok = ok && layout(p, written, reset, t) && decode(p, tab, written, t);
    free(written);
    if (!ok) {
        vm_prog_free(p);
        return NULL;
    }
    return p;
}

void vm_prog_free(vm_prog *p)
{
    if (!p)
        return;
    free(p->ins);
    free(p->regoff);
    free(p->pcins);
    free(p->tmpl);
    free(p->bufs);
    free(p);
}

/* ------------------------------------------------------------------ */
/* Work-groups and warps                                               */

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

#else /* INTERP_LOOP: the dispatch loop, included from above */

/* Runs w; with tab set, only returns the label table (computed goto). */
static INTERP_TARGET enum vm_stop INTERP_LOOP(vm_warp *w, uint64_t budget,
                                              const void *const **tab)
{
#ifndef CLVM_SWITCH_DISPATCH
    static const void *const labels[XOP_COUNT] = {
#define XV(NAME, S, TY) [BC_##NAME##S] = &&L_BC_##NAME##S,
#define OP(NAME, CLASS, OPS, TYPES, PRINT, SYN) CLASS(XV, NAME)
#include "vm/opcodes.def"
#undef OP
#undef XV
        [XOP_END] = &&L_XOP_END,
        [XOP_NOTE] = &&L_XOP_NOTE,
    };
    if (tab) {
        *tab = labels;
        return VM_STOP_DONE;
    }
#else
    (void)tab;
#endif
    const vm_prog *P = w->P;
    const vm_ins *const ins = P->ins;
    const vm_ins *ip = ins + w->ip;
    uint8_t *const R = w->R;
    const uint32_t W = P->r.warp;
    const uint64_t all = w->all;
    uint64_t exec = w->exec, left = budget;
    enum vm_stop why;

    for (;;) {
        if (UNLIKELY(left == 0))
            goto out_of_budget;
        left--;
        vmdispatch(ip->op) {
/* Control-flow bodies end with their own vmbreak; the others go on to
 * the next instruction. */
#define XV(NAME, S, TY)                                                     \
    vmcase(BC_##NAME##S) {                                                  \
        H_##NAME(S)                                                         \
        ip++;                                                               \
    }                                                                       \
    vmbreak;
#define OP(NAME, CLASS, OPS, TYPES, PRINT, SYN) CLASS(XV, NAME)
#include "vm/opcodes.def"
#undef OP
#undef XV
        vmcase(XOP_END) goto done;
        vmcase(XOP_NOTE) {
            if (noted(w, ip, exec, R))
                goto trap;
            ip++;
        }
        vmbreak;
#ifdef CLVM_SWITCH_DISPATCH
        default: goto done;
#endif
        }
    }

out_of_budget:
    why = VM_STOP_BUDGET;
    goto out;
trap:
    why = VM_STOP_TRAP;
    goto out;
barrier:
    why = VM_STOP_BARRIER;
    goto out;
done:
    why = VM_STOP_DONE;
    exec = 0;
    ip = ins + P->nins - 1;
out:
    w->ip = (uint32_t)(ip - ins);
    w->exec = exec;
    w->steps += budget - left;
    return why;
}

#endif /* INTERP_LOOP */
