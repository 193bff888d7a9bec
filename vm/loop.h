/* What the dispatch loops share, private to vm/: the helpers of
 * vm/helpers.c that the handler bodies call out of line, and the parts of
 * the memory, race and note checks that must be inline in each loop, so
 * that they vectorise for its instruction set.
 *
 * vm/dispatch.inc is compiled once per instruction-set level, each in a
 * file of its own so that the three build in parallel (each is minutes
 * at -O3): vm/loop_base.c, and on x86-64 vm/loop_avx2.c and
 * vm/loop_avx512.c. (GCC's target_clones cannot copy a function that
 * keeps label addresses.) vm_interp_pick (vm/interp.c) chooses the best
 * the host has. */
#ifndef CLVM_LOOP_H
#define CLVM_LOOP_H

#include "vm/handlers.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(CLVM_NO_AVX2)
#define VM_HAVE_AVX2 1 /* the AVX2 and AVX-512 loops are built */
#endif
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#include <string.h>

/* The loops, one per level (vm/interp.c picks one: vm_interp_pick). */
enum vm_stop interp_base(vm_warp *w, uint64_t budget, const void *const **tab);
#ifdef VM_HAVE_AVX2
enum vm_stop interp_avx2(vm_warp *w, uint64_t budget, const void *const **tab);
enum vm_stop interp_avx512(vm_warp *w, uint64_t budget,
                           const void *const **tab);
#endif

/* Signed elements, read where they may alias others. */
typedef int8_t MAY_ALIAS sa8;
typedef int16_t MAY_ALIAS sa16;
typedef int32_t MAY_ALIAS sa32;
typedef int64_t MAY_ALIAS sa64;

/* vm/helpers.c's helpers, each described there. */
void vm_blend8(vm_warp *w, uint64_t exec, void *d, const void *t,
               uint32_t cnt);
void vm_blend16(vm_warp *w, uint64_t exec, void *d, const void *t,
                uint32_t cnt);
void vm_blend32(vm_warp *w, uint64_t exec, void *d, const void *t,
                uint32_t cnt);
void vm_blend64(vm_warp *w, uint64_t exec, void *d, const void *t,
                uint32_t cnt);
void vm_blend_es(vm_warp *w, uint64_t exec, void *d, const void *t,
                 uint32_t cnt, unsigned es);
void vm_widen_i8(uint64_t *dst, const uint8_t *src, uint32_t w);
void vm_widen_i16(uint64_t *dst, const uint8_t *src, uint32_t w);
void vm_widen_i32(uint64_t *dst, const uint8_t *src, uint32_t w);
void vm_widen_i64(uint64_t *dst, const uint8_t *src, uint32_t w);
void vm_widen_u8(uint64_t *dst, const uint8_t *src, uint32_t w);
void vm_widen_u16(uint64_t *dst, const uint8_t *src, uint32_t w);
void vm_widen_u32(uint64_t *dst, const uint8_t *src, uint32_t w);
void vm_widen_u64(uint64_t *dst, const uint8_t *src, uint32_t w);
int vm_mem_check(vm_warp *w, const vm_ins *ip, uint64_t exec, uint8_t *R);
void vm_wi_values(const vm_warp *w, unsigned base, uint64_t dim,
                  uint64_t *out);
void vm_as_lanes(vm_warp *w, const vm_ins *ip, uint64_t exec, uint8_t *R);
void vm_maths_lanes(vm_warp *w, const vm_ins *ip, uint64_t exec, uint8_t *R);
int vm_noted(vm_warp *w, const vm_ins *ip, uint64_t exec, uint8_t *R);

/* A dense store's n bytes, composed at src, to dst past the caches: the
 * whole 64-byte lines with non-temporal stores, the ends plain. Each
 * loop file names its VM_STREAM: the AVX2 and AVX-512 loops use 32-byte
 * stores, as 16-byte ones run 10% slower than plain stores on Zen 4
 * (32-byte ones as fast). */
#define STREAM_BODY(T, STORE)                                               \
    const size_t head = (size_t)(-(uintptr_t)dst & 63);                     \
    if (head + 64 > n) {                                                    \
        memcpy(dst, src, n);                                                \
        return;                                                             \
    }                                                                       \
    const size_t end = head + ((n - head) & ~(size_t)63);                   \
    memcpy(dst, src, head);                                                 \
    for (size_t i = head; i < end; i += sizeof(T)) {                        \
        T v;                                                                \
        memcpy(&v, src + i, sizeof v);                                      \
        STORE((T *)(void *)(dst + i), v);                                   \
    }                                                                       \
    memcpy(dst + end, src + end, n - end);
static inline ALWAYS_INLINE void vm_stream16(uint8_t *dst, const uint8_t *src,
                                             size_t n)
{
#if defined(__SSE2__)
    STREAM_BODY(__m128i, _mm_stream_si128)
#else
    memcpy(dst, src, n);
#endif
}
#ifdef VM_HAVE_AVX2
static inline ALWAYS_INLINE __attribute__((target("avx"))) void
vm_stream32(uint8_t *dst, const uint8_t *src, size_t n)
{
    STREAM_BODY(__m256i, _mm256_stream_si256)
}
#endif

/* Whether a row from index i0 (si 0: the lanes' indices are i0, i0 + 1,
 * ...) of buffer b0 is aligned and in bounds; then w->mp[0] is set. */
static inline ALWAYS_INLINE bool row_fits(vm_warp *w, const vm_ins *ip,
                                          const uint8_t *R, uint32_t b0,
                                          uint64_t i0, uint64_t si)
{
    const uint64_t stride = ip->stride, len = ip->len,
                   span = (VM_MAXW - 1) * stride;
    const vm_buf *b = &w->bufs[b0];
    const uint64_t at = *(const ua64 *)(R + ip->a) + i0 * stride;
    if (!si && !(at & (ip->align - 1)) &&
        stride <= UINT64_MAX / VM_MAXW && len <= b->size &&
        span <= b->size - len && at <= b->size - len - span) {
        w->mp[0] = b->data + at;
        return true;
    }
    return false;
}

/* vm_mem_check of an instruction whose pointer is the same in every lane
 * (vm_ins.uni) when every lane runs: the common p[i] with i a 32- or
 * 64-bit row index (lane l's is lane 0's + l) in a full warp is checked
 * here (mem_row_at: true, w->mp[0] set, when it is such a row in bounds),
 * inline in each dispatch loop and so vectorised for its instruction set
 * (one compare of the index row with 0, 1, 2, ...); anything else goes
 * to vm_mem_check, which gives the same answer. */
static inline ALWAYS_INLINE bool mem_row_at(vm_warp *w, const vm_ins *ip,
                                            const uint8_t *R)
{
    uint32_t b0 = 0;
    if (w->lanes != VM_MAXW ||   /* (else W is 64) */
        (b0 = *(const ua32 *)(R + ip->a + 8 * VM_MAXW)) >= w->P->nbufs ||
        w->bufs[b0].lstride)
        return false;
    if (ip->widen == vm_widen_u64 || ip->widen == vm_widen_i64) {
        const ua64 *idx = (const ua64 *)(R + ip->b);
        const uint64_t i0 = idx[0];
        uint64_t si = 0;
        IVDEP for (uint32_t l = 0; l < VM_MAXW; l++)
            si |= idx[l] - i0 - l;
        return row_fits(w, ip, R, b0, i0, si);
    }
    if (ip->widen == vm_widen_u32 || ip->widen == vm_widen_i32) {
        /* lane l's is lane 0's + l in 32 bits, and lane 0's at most 63
         * below the type's largest (no wrap; for int, not negative), so
         * the widened ones are too, and lane 0's is its own widening */
        const ua32 *idx = (const ua32 *)(R + ip->b);
        const uint32_t i0 = idx[0],
                       top = ip->widen == vm_widen_i32 ? (uint32_t)INT32_MAX
                                                    : UINT32_MAX;
        uint32_t si = 0;
        IVDEP for (uint32_t l = 0; l < VM_MAXW; l++)
            si |= idx[l] - i0 - l;
        return row_fits(w, ip, R, b0, i0, si | (i0 > top - (VM_MAXW - 1)));
    }
    return false;
}

static inline ALWAYS_INLINE int mem_row(vm_warp *w, const vm_ins *ip,
                                        uint8_t *R)
{
    return mem_row_at(w, ip, R) ? 2 : vm_mem_check(w, ip, w->all, R);
}

/* XOP_RACE's check (vm_race_mem): a full warp's row that mem_row_at finds
 * in bounds, its first byte in w->mp[0], goes to vm_race_row at once. */
static inline ALWAYS_INLINE int race_check(vm_warp *w, const vm_ins *ip,
                                           uint64_t exec, const uint8_t *R)
{
    if (ip->uni && exec == w->all && mem_row_at(w, ip, R))
        return vm_race_row(w, ip, w->mp[0]);
    return vm_race_mem(w, ip, exec);
}

/* get_global_id(0) of lane 0, if the warp's lanes have consecutive ones:
 * when it does not wrap a row of the work-group (always so when local[0]
 * is a multiple of W), lane l's is that + l. */
static inline bool gid0_row(const vm_warp *w, uint64_t *v0)
{
    const vm_range *r = &w->P->r;
    uint64_t lid0 = w->base % r->local[0];
    if (lid0 + r->warp > r->local[0])
        return false;
    *v0 = w->g->id[0] * r->local[0] + lid0 + r->offset[0];
    return true;
}

/* vm_note_quiet, with the signed 32-bit adds, subtracts and multiplies
 * of a full-width warp (index arithmetic: the strict profile's commonest
 * checks) checked here, inline in each dispatch loop and so vectorised
 * for its instruction set, in rows of constant trip count. A product is
 * exact in 64 bits and fits when p + 2^31 is below 2^32 (as quiet.c). */
static inline ALWAYS_INLINE bool note_quiet(const vm_ins *ip,
                                            const uint8_t *R)
{
    const unsigned base = bc_ops[ip->note_op].base;
    const uint32_t cnt = ip->cnt;
    if (ip->es != 4 || !(ip->flags & BC_F_SIGNED) || (cnt & (VM_MAXW - 1)) ||
        (base != BCB_ADD && base != BCB_SUB && base != BCB_MUL))
        return vm_note_quiet(ip, R);
    const ua32 *a = (const ua32 *)(R + ip->a), *b = (const ua32 *)(R + ip->b);
    uint32_t bad = 0;
    if (base == BCB_MUL) {
        const sa32 *x = (const sa32 *)a, *y = (const sa32 *)b;
        uint64_t big = 0;
        for (uint32_t r = 0; r < cnt; r += VM_MAXW, x += VM_MAXW, y += VM_MAXW)
            IVDEP for (uint32_t i = 0; i < VM_MAXW; i++)
                big |= (uint64_t)((int64_t)x[i] * y[i]) + (1ull << 31);
        return !(big >> 32);
    } else if (base == BCB_ADD) {
        for (uint32_t r = 0; r < cnt; r += VM_MAXW, a += VM_MAXW, b += VM_MAXW)
            IVDEP for (uint32_t i = 0; i < VM_MAXW; i++)
                bad |= VM_ADD_OVF(a[i], b[i]);
    } else {
        for (uint32_t r = 0; r < cnt; r += VM_MAXW, a += VM_MAXW, b += VM_MAXW)
            IVDEP for (uint32_t i = 0; i < VM_MAXW; i++)
                bad |= VM_SUB_OVF(a[i], b[i]);
    }
    return !(bad >> 31);
}

#endif
