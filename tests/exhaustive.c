/* Every float bit pattern through convert_<int type>[_sat]_<mode> and
 * through float -> half in every mode (convert_half and half_from_float),
 * against the exact reference of tests/lib/ref.c: result bits and notes,
 * as blocks through the cv_lookup loops and, where notes are expected, one
 * element at a time (n = 1), so that each element's notes count.
 *
 * usage: exhaustive [first [last [stride]]]
 *   the float patterns first, first+stride, ... <= last (decimal or 0x hex;
 *   default 0, 0xffffffff, 1). `make check-exhaustive` runs them all. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stdlib/convert.h"
#include "stdlib/half.h"
#include "tests/lib/ref.h"

enum { BLOCK = 4096, MAX_THREADS = 64, SHOW = 10 };

static const enum ty_scalar dsts[] = {TY_CHAR, TY_UCHAR, TY_SHORT, TY_USHORT,
                                      TY_INT,  TY_UINT,  TY_LONG,  TY_ULONG};
#define NDST (sizeof dsts / sizeof dsts[0])

static cv_fn fns[NDST][2][RND_NMODE], halves[RND_NMODE];
static unsigned dsz[NDST];
static uint64_t first, stride, count, nblocks;
static atomic_uint_fast64_t next_block, done_blocks, mismatches, checked;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static double t0;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void mismatch(const char *how, enum ty_scalar dst, bool sat,
                     enum rnd r, uint32_t f, const void *want, int wn,
                     const void *got, int gn)
{
    if (atomic_fetch_add(&mismatches, 1) >= SHOW)
        return;
    pthread_mutex_lock(&out_lock);
    fprintf(stderr, "MISMATCH %s: convert_%s%s_%s(float 0x%08lx): want 0x%llx"
            " notes %d, got 0x%llx notes %d\n", how, ty_scalar_name(dst),
            sat ? "_sat" : "", rnd_name(r), (unsigned long)f,
            (unsigned long long)ref_bits(dst, want), wn,
            (unsigned long long)ref_bits(dst, got), gn);
    pthread_mutex_unlock(&out_lock);
}

/* An element of sz bytes, for comparisons cheaper than a memcmp call. */
static inline uint64_t load(const void *p, unsigned sz)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d;
    switch (sz) {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&h, p, 2); return h;
    case 4: memcpy(&w, p, 4); return w;
    default: memcpy(&d, p, 8); return d;
    }
}

/* One thread's buffers: a block of floats, and per destination, _sat and
 * mode the expected results and notes. */
typedef struct {
    float src[BLOCK];
    uint32_t bits[BLOCK];
    ref_num x[BLOCK];
    unsigned char want[NDST][2][BLOCK * 8];
    _Alignas(8) unsigned char got[BLOCK * 8]; /* any destination type */
    uint8_t wnote[NDST][2][BLOCK];
    uint16_t whalf[BLOCK];
} work;

/* The library's loop fn over the block, then element by element, against
 * want/wnote (n elements of dst). */
static void compare(work *w, cv_fn fn, enum ty_scalar dst, bool sat,
                    enum rnd r, const void *want, const uint8_t *wnote,
                    size_t n)
{
    unsigned sz = ty_scalar_size(dst);
    unsigned wor = 0;
    for (size_t i = 0; i < n; i++)
        wor |= wnote[i];
    unsigned gor = fn(w->got, w->src, n);
    if (memcmp(w->got, want, n * sz) != 0)
        for (size_t i = 0; i < n; i++)
            if (load(w->got + i * sz, sz) !=
                load((const char *)want + i * sz, sz))
                mismatch("block", dst, sat, r, w->bits[i],
                         (const char *)want + i * sz, wnote[i],
                         w->got + i * sz, -1);
    if (gor != wor && atomic_fetch_add(&mismatches, 1) < SHOW) {
        pthread_mutex_lock(&out_lock);
        fprintf(stderr, "MISMATCH block notes: convert_%s%s_%s(float "
                "0x%08lx..): want %u, got %u\n", ty_scalar_name(dst),
                sat ? "_sat" : "", rnd_name(r), (unsigned long)w->bits[0],
                wor, gor);
        pthread_mutex_unlock(&out_lock);
    }
    /* The OR is 0 only if every element's notes are: no need to look
     * closer. Otherwise one at a time, so each element's notes count. */
    if (wor == 0 && gor == 0)
        return;
    for (size_t i = 0; i < n; i++) {
        uint64_t one = 0;
        unsigned gn = fn(&one, &w->src[i], 1);
        if (gn != wnote[i] ||
            load(&one, sz) != load((const char *)want + i * sz, sz))
            mismatch("n=1", dst, sat, r, w->bits[i],
                     (const char *)want + i * sz, wnote[i], &one, (int)gn);
    }
}

static void run_block(work *w, uint64_t b)
{
    uint64_t lo = b * BLOCK;
    size_t n = count - lo < BLOCK ? (size_t)(count - lo) : BLOCK;
    for (size_t i = 0; i < n; i++) {
        w->bits[i] = (uint32_t)(first + (lo + i) * stride);
        memcpy(&w->src[i], &w->bits[i], 4);
        w->x[i] = ref_decode(TY_FLOAT, &w->bits[i]);
    }
    for (int r = 0; r < RND_NMODE; r++) {
        /* One rounding per float and mode; every destination from it.
         * Integers, infinities and NaNs round alike in every mode, so
         * their results from the first mode are still in place. */
        for (size_t i = 0; i < n; i++) {
            ref_int v = ref_round_int(w->x[i], (enum rnd)r);
            for (size_t d = 0; d < NDST && (r == 0 || v.frac); d++)
                for (int sat = 0; sat < 2; sat++) {
                    void *p = w->want[d][sat] + i * dsz[d];
                    w->wnote[d][sat][i] =
                        (uint8_t)ref_store_int(dsts[d], &v, sat, p);
                }
            w->whalf[i] =
                (uint16_t)ref_round_float(TY_HALF, w->x[i], (enum rnd)r);
        }
        for (size_t d = 0; d < NDST; d++)
            for (int sat = 0; sat < 2; sat++)
                compare(w, fns[d][sat][r], dsts[d], sat, (enum rnd)r,
                        w->want[d][sat], w->wnote[d][sat], n);
        /* float -> half: a NaN matches any NaN of its sign, so no memcmp;
         * and no notes, so the block's OR says it all. */
        unsigned gn = halves[r](w->got, w->src, n);
        for (size_t i = 0; i < n; i++) {
            uint16_t h = half_from_float(w->src[i], (enum rnd)r);
            if (gn ||
                !ref_same(TY_HALF, TY_FLOAT, &w->whalf[i], w->got + 2 * i))
                mismatch("block", TY_HALF, false, (enum rnd)r, w->bits[i],
                         &w->whalf[i], 0, w->got + 2 * i, (int)gn);
            if (!ref_same(TY_HALF, TY_FLOAT, &w->whalf[i], &h))
                mismatch("half_from_float", TY_HALF, false, (enum rnd)r,
                         w->bits[i], &w->whalf[i], 0, &h, 0);
        }
    }
    atomic_fetch_add(&checked, n);
}

static void *worker(void *arg)
{
    work *w = arg;
    for (;;) {
        uint64_t b = atomic_fetch_add(&next_block, 1);
        if (b >= nblocks)
            return NULL;
        run_block(w, b);
        uint64_t done = atomic_fetch_add(&done_blocks, 1) + 1;
        /* Progress at each 1/16 of the blocks. */
        if (done * 16 / nblocks != (done - 1) * 16 / nblocks) {
            pthread_mutex_lock(&out_lock);
            fprintf(stderr, "exhaustive: %2llu/16 done, %.0f s, %llu "
                    "mismatches\n", (unsigned long long)(done * 16 / nblocks),
                    now() - t0, (unsigned long long)atomic_load(&mismatches));
            pthread_mutex_unlock(&out_lock);
        }
    }
}

static uint64_t arg(int argc, char **argv, int i, uint64_t def)
{
    if (i >= argc)
        return def;
    char *end;
    uint64_t v = strtoull(argv[i], &end, 0);
    if (*end || !*argv[i]) {
        fprintf(stderr, "exhaustive: bad number '%s'\n"
                "usage: exhaustive [first [last [stride]]]\n", argv[i]);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    first = arg(argc, argv, 1, 0);
    uint64_t last = arg(argc, argv, 2, UINT32_MAX);
    stride = arg(argc, argv, 3, 1);
    if (last > UINT32_MAX || first > last || stride == 0) {
        fprintf(stderr, "exhaustive: need first <= last <= 0xffffffff, "
                "stride > 0\n");
        return 2;
    }
    count = (last - first) / stride + 1;
    nblocks = (count + BLOCK - 1) / BLOCK;
    for (size_t d = 0; d < NDST; d++)
        dsz[d] = ty_scalar_size(dsts[d]);
    for (size_t d = 0; d < NDST; d++)
        for (int sat = 0; sat < 2; sat++)
            for (int r = 0; r < RND_NMODE; r++)
                if (!(fns[d][sat][r] = cv_lookup(dsts[d], TY_FLOAT, sat, r))) {
                    fprintf(stderr, "exhaustive: no convert_%s%s_%s(float)\n",
                            ty_scalar_name(dsts[d]), sat ? "_sat" : "",
                            rnd_name(r));
                    return 1;
                }
    for (int r = 0; r < RND_NMODE; r++)
        if (!(halves[r] = cv_lookup(TY_HALF, TY_FLOAT, false, r))) {
            fprintf(stderr, "exhaustive: no convert_half_%s(float)\n",
                    rnd_name(r));
            return 1;
        }

    long np = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = np < 1 ? 1 : np > MAX_THREADS ? MAX_THREADS : (int)np;
    pthread_t th[MAX_THREADS];
    work *ws[MAX_THREADS];
    fprintf(stderr, "exhaustive: %llu floats (0x%08llx..0x%08llx step %llu), "
            "%zu destinations x {plain,_sat} x 4 modes + half x 4 modes x 2, "
            "%d threads\n", (unsigned long long)count,
            (unsigned long long)first, (unsigned long long)last,
            (unsigned long long)stride, NDST, nt);
    t0 = now();
    for (int i = 0; i < nt; i++) {
        if (!(ws[i] = malloc(sizeof *ws[i]))) {
            fprintf(stderr, "exhaustive: out of memory\n");
            return 1;
        }
        if (pthread_create(&th[i], NULL, worker, ws[i]) != 0) {
            fprintf(stderr, "exhaustive: cannot start a thread\n");
            return 1;
        }
    }
    for (int i = 0; i < nt; i++) {
        pthread_join(th[i], NULL);
        free(ws[i]);
    }
    uint64_t bad = atomic_load(&mismatches);
    printf("exhaustive: %llu floats x %zu conversions in %.1f s: %llu "
           "mismatches\n", (unsigned long long)atomic_load(&checked),
           NDST * 2 * RND_NMODE + 2 * RND_NMODE, now() - t0,
           (unsigned long long)bad);
    return bad != 0;
}
