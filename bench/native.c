/* The reference benchmarks in plain C, the baseline clvm is measured
 * against: single-threaded, compiled -O2 without FP contraction, written as
 * a C programmer would (scalar loops, library rounding).
 *
 *   native bench N          N work-items of the convert pipeline
 *   native loop N ITERS     N work-items of the xorshift loop
 *   native copy N           bench's memory traffic alone: N float4s
 *                           copied (what no implementation of bench can
 *                           beat on this memory; make bench-scaling)
 *
 * Prints "hash: H" (FNV-1a-64 of the output bytes) on stdout and
 * "time: kernel=SECONDS" on stderr, as `clvm run --time` does. Built with
 * -fopenmp (bench/native_omp, for `make bench-scaling`), the work-items
 * are spread over OMP_NUM_THREADS threads. */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

/* convert_int_sat_rte: NaN gives 0, out-of-range values saturate, the
 * rest round to nearest even. lrintf rounds in the current mode, which a
 * C program starts in and we never change: nearest even. The range checks
 * come first because converting an out-of-range float is undefined. */
static int32_t int_sat_rte(float f)
{
    if (isnan(f))
        return 0;
    if (f >= 2147483648.0f)
        return INT32_MAX;
    if (f <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)lrintf(f);
}

/* The work-item loops: over threads with OpenMP, else plain loops. */
#ifdef _OPENMP
#define PAR_FOR _Pragma("omp parallel for schedule(static)")
#else
#define PAR_FOR
#endif

static void bench(const float *in, float *out, size_t n, float scale,
                  float bias, uint32_t key, uint32_t mask)
{
    PAR_FOR
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 4; c++) {
            float v = in[4 * i + c];
            float a = v * scale + bias;   /* -ffp-contract=off: two roundings */
            float b = a * 0.25f + v;
            uint32_t u = (uint32_t)int_sat_rte(b);
            u = (u ^ key) & mask;
            out[4 * i + c] = (float)u;    /* nearest even */
        }
    }
}

static void loop(const uint32_t *seed, uint32_t *out, size_t n,
                 uint32_t iters)
{
    PAR_FOR
    for (size_t i = 0; i < n; i++) {
        uint32_t x = seed[i], acc = 0;
        for (uint32_t k = 0; k < iters; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            acc += x ^ k;
        }
        out[i] = acc;
    }
}

static void copy(const float *in, float *out, size_t n)
{
    PAR_FOR
    for (size_t i = 0; i < 4 * n; i++)
        out[i] = in[i];
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "native: out of memory\n");
        exit(2);
    }
    return p;
}

static int usage(void)
{
    fprintf(stderr, "usage: native bench N | native loop N ITERS | "
                    "native copy N\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    size_t n = strtoull(argv[2], NULL, 0);
    double t0, t1;
    uint64_t h;
    bool cp = !strcmp(argv[1], "copy");
    if ((cp || !strcmp(argv[1], "bench")) && argc == 3 && n > 0) {
        float *in = xcalloc(4 * n, sizeof *in), *out = xcalloc(4 * n, sizeof *out);
        for (size_t k = 0; k < 4 * n; k++)
            in[k] = bench_input((uint32_t)k);
        /* A warm-up run faults the output pages in, so the timed run
         * measures the kernel alone, as the PoCL and clvm timings do. */
        for (int r = 0; r < 2; r++) {
            t0 = now_sec();
            if (cp)
                copy(in, out, n);
            else
                bench(in, out, n, BENCH_SCALE, BENCH_BIAS, BENCH_KEY,
                      BENCH_MASK);
            t1 = now_sec();
        }
        h = fnv1a64(FNV_BASIS, out, 4 * n * sizeof *out);
        free(in);
        free(out);
    } else if (!strcmp(argv[1], "loop") && argc == 4 && n > 0) {
        uint32_t iters = (uint32_t)strtoul(argv[3], NULL, 0);
        uint32_t *seed = xcalloc(n, sizeof *seed), *out = xcalloc(n, sizeof *out);
        for (size_t i = 0; i < n; i++)
            seed[i] = loop_seed((uint32_t)i);
#ifdef _OPENMP
        loop(seed, out, n, iters);   /* starts the threads before timing */
#endif
        t0 = now_sec();
        loop(seed, out, n, iters);
        t1 = now_sec();
        h = fnv1a64(FNV_BASIS, out, n * sizeof *out);
        free(seed);
        free(out);
    } else {
        return usage();
    }
    printf("hash: %016" PRIx64 "\n", h);
    fprintf(stderr, "time: kernel=%.9f\n", t1 - t0);
    return 0;
}
