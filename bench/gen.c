/* Input files and output hashes for running the reference benchmarks
 * through `clvm run` (bench/run.sh).
 *
 *   gen bench N FILE     in.bin: the 4N floats of the bench kernel
 *   gen loop N FILE      seed.bin: the N uints of the loop kernel
 *   gen zeros BYTES FILE a file of zero bytes
 *   gen math N FILE      in.bin: the N floats of the math kernel
 *   gen hash FILE        prints "hash: H", FNV-1a-64 of the file's bytes
 *   gen close A B ULP    compares two float files: prints the largest
 *                        difference in ulp; exit 1 if above ULP */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

/* Little-endian bytes, whatever the host, as `clvm run` reads buffers. */
static void put32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {v & 0xff, v >> 8 & 0xff, v >> 16 & 0xff, v >> 24};
    fwrite(b, 1, 4, f);
}

/* The largest difference between the floats of files a and b in ulp of b
 * (NaN against NaN agrees); exit status 1 above lim. */
static int close_files(const char *a, const char *b, double lim)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    if (!fa || !fb) {
        perror(fa ? b : a);
        return 2;
    }
    float x, y;
    double worst = 0;
    size_t n = 0;
    while (fread(&x, 4, 1, fa) == 1 && fread(&y, 4, 1, fb) == 1) {
        n++;
        if (x != x && y != y)
            continue;
        double u = ldexp(1, ilogb(y == 0 ? 0x1p-126f : y) - 23);
        double d = x == y ? 0 : fabs((double)x - (double)y) / u;
        if (d != d || d > worst)
            worst = d != d ? INFINITY : d;
    }
    fclose(fa);
    fclose(fb);
    printf("close: %zu floats, largest difference %.1f ulp\n", n, worst);
    return n > 0 && worst <= lim ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: gen bench|loop|math N FILE | gen zeros BYTES FILE | gen hash FILE"
                    " | gen close A B ULP\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "hash")) {
        FILE *f = fopen(argv[2], "rb");
        if (!f) {
            perror(argv[2]);
            return 2;
        }
        unsigned char buf[1 << 16];
        uint64_t h = FNV_BASIS;
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            h = fnv1a64(h, buf, n);
        fclose(f);
        printf("hash: %016" PRIx64 "\n", h);
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "close"))
        return close_files(argv[2], argv[3], atof(argv[4]));
    if (argc != 4)
        return usage();
    if (!strcmp(argv[1], "zeros")) {
        FILE *f = fopen(argv[3], "wb");
        static const unsigned char zero[1 << 16];
        for (uint64_t left = strtoull(argv[2], NULL, 0); f && left;) {
            size_t n = left < sizeof zero ? (size_t)left : sizeof zero;
            if (fwrite(zero, 1, n, f) != n)
                break;
            left -= n;
        }
        if (!f || fclose(f) != 0) {
            perror(argv[3]);
            return 2;
        }
        return 0;
    }
    int is_bench = !strcmp(argv[1], "bench"), is_math = !strcmp(argv[1], "math");
    if (!is_bench && !is_math && strcmp(argv[1], "loop"))
        return usage();
    uint64_t n = strtoull(argv[2], NULL, 0);
    if (n == 0 || n > (is_bench ? UINT32_MAX / 4 : UINT32_MAX))
        return usage();
    FILE *f = fopen(argv[3], "wb");
    if (!f) {
        perror(argv[3]);
        return 2;
    }
    for (uint64_t k = 0; k < (is_bench ? 4 * n : n); k++) {
        uint32_t v;
        if (is_bench || is_math) {
            float x = is_bench ? bench_input((uint32_t)k) : math_input((uint32_t)k);
            memcpy(&v, &x, 4);
        } else {
            v = loop_seed((uint32_t)k);
        }
        put32(f, v);
    }
    if (fclose(f) != 0) {
        perror(argv[3]);
        return 2;
    }
    return 0;
}
