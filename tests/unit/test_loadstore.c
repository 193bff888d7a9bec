#include <string.h>

#include "stdlib/loadstore.h"
#include "tests/lib/bits.h"
#include "tests/lib/test.h"

/* Restated here, not taken from types.c. */
static const unsigned esz[TY_NSCALAR] = {
    [TY_CHAR] = 1, [TY_UCHAR] = 1, [TY_SHORT] = 2, [TY_USHORT] = 2,
    [TY_INT] = 4,  [TY_UINT] = 4,  [TY_LONG] = 8,  [TY_ULONG] = 8,
    [TY_HALF] = 2, [TY_FLOAT] = 4, [TY_DOUBLE] = 8,
};
static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
#define NWIDTH (sizeof widths / sizeof widths[0])
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

enum { MEM = 2048, REG = 160 };
_Alignas(LS_BASE_ALIGN) static uint8_t mem[MEM];

/* A host-order register element (memory goes through bits.h's get_le). */
static uint64_t get_reg(const void *r, unsigned size)
{
    uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
    switch (size) {
    case 1: memcpy(&u8, r, 1); return u8;
    case 2: memcpy(&u16, r, 2); return u16;
    case 4: memcpy(&u32, r, 4); return u32;
    default: memcpy(&u64, r, 8); return u64;
    }
}

static void scramble(uint8_t *m, size_t n, uint32_t seed)
{
    for (size_t k = 0; k < n; k++) {
        seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
        m[k] = (uint8_t)(seed >> 7);
    }
}

/* Index of the first byte that is not 0xcd in m[from, to), or -1. */
static long dirty(const uint8_t *m, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++)
        if (m[k] != 0xcd)
            return (long)k;
    return -1;
}

/* The half of a small non-negative integer, encoded by hand. */
static uint16_t half_int(unsigned k)
{
    unsigned e = 0;
    if (k == 0)
        return 0;
    while (k >> (e + 1))
        e++;
    return (uint16_t)((e + 15) << 10 | ((k << (10 - e)) & 0x3ff));
}

/* sizeof(halfN): halves at stride n, or 4 for half3, with alignment 2n
 * (8 for half3) -- the a-forms' layout. */
static unsigned halfa_lanes(unsigned n) { return n == 3 ? 4 : n; }

/* vloadN / vstoreN: p + offset*n elements (offset*3 for the 3-forms). */
static void vload_vstore_addresses(void)
{
    static const uint64_t offs[] = {0, 1, 2, 5};
    for (int el = 0; el < TY_NSCALAR; el++)
        for (size_t w = 0; w < NWIDTH; w++)
            for (unsigned pk = 0; pk < 4; pk++)
                for (size_t o = 0; o < NELEM(offs); o++) {
                    unsigned n = widths[w], e = esz[el];
                    uint64_t p = (uint64_t)(pk == 3 ? 64 : pk * 3) * e;
                    uint64_t addr = p + offs[o] * n * e;
                    ls_buf b = {mem, MEM};
                    uint8_t reg[REG];
                    ls_fault f = {0, 0, 0, 0};
                    const char *tn = ty_scalar_name((enum ty_scalar)el);

                    scramble(mem, MEM, (uint32_t)(el * 1000 + w * 100 + o + 1));
                    memset(reg, 0xcd, REG);
                    CHECK(ls_vload((enum ty_scalar)el, n, &b, p, offs[o], reg,
                                   &f) == LS_OK, "vload%u %s", n, tn);
                    for (unsigned i = 0; i < n; i++)
                        CHECK(get_reg(reg + i * e, e) ==
                                  get_le(mem + addr + i * e, e),
                              "vload%u %s p=%llu off=%llu lane %u", n, tn,
                              (unsigned long long)p,
                              (unsigned long long)offs[o], i);
                    CHECK(dirty(reg, n * e, REG) < 0, "vload%u %s wrote past",
                          n, tn);

                    scramble(reg, REG, (uint32_t)(el + 7 * w + 77 * o + 5));
                    memset(mem, 0xcd, MEM);
                    CHECK(ls_vstore((enum ty_scalar)el, n, reg, &b, p,
                                    offs[o], &f) == LS_OK, "vstore%u", n);
                    for (unsigned i = 0; i < n; i++)
                        CHECK(get_le(mem + addr + i * e, e) ==
                                  get_reg(reg + i * e, e),
                              "vstore%u %s p=%llu off=%llu lane %u", n, tn,
                              (unsigned long long)p,
                              (unsigned long long)offs[o], i);
                    CHECK(dirty(mem, 0, addr) < 0 &&
                              dirty(mem, addr + n * e, MEM) < 0,
                          "vstore%u %s p=%llu off=%llu wrote outside", n, tn,
                          (unsigned long long)p, (unsigned long long)offs[o]);
                }
}

/* The half forms, on halves holding small integers: the value loaded names
 * the half it came from. */
static void half_addresses(void)
{
    static const uint64_t offs[] = {0, 1, 2, 5};
    for (int a = 0; a < 2; a++)
        for (size_t w = 0; w < NWIDTH; w++)
            for (unsigned pk = 0; pk < 3; pk++)
                for (size_t o = 0; o < NELEM(offs); o++) {
                    unsigned n = widths[w];
                    unsigned align = a ? 2 * halfa_lanes(n) : 2;
                    unsigned stride = a ? halfa_lanes(n) : n; /* halves */
                    uint64_t p = (uint64_t)pk * 3 * align;
                    uint64_t first = p / 2 + offs[o] * stride;
                    ls_buf b = {mem, MEM};
                    float reg[16 + 4];
                    const char *nm = a ? "vloada_half" : "vload_half";

                    for (unsigned k = 0; k < MEM / 2; k++)
                        put_le(mem + 2 * k, 2, half_int(k));
                    for (unsigned i = 0; i < NELEM(reg); i++)
                        reg[i] = bitsf(0xcdcdcdcdu);
                    CHECK(ls_vload_half(n, a, &b, p, offs[o], reg, NULL) ==
                              LS_OK, "%s%u", nm, n);
                    for (unsigned i = 0; i < n; i++)
                        CHECK(reg[i] == (float)(first + i),
                              "%s%u p=%llu off=%llu lane %u: %g", nm, n,
                              (unsigned long long)p,
                              (unsigned long long)offs[o], i, (double)reg[i]);
                    for (unsigned i = n; i < NELEM(reg); i++)
                        CHECK(fbits(reg[i]) == 0xcdcdcdcdu, "%s%u lane %u",
                              nm, n, i);

                    /* stores, from float and from double, every mode */
                    for (int sd = 0; sd < 2; sd++)
                        for (int r = 0; r < RND_NMODE; r++) {
                            float fs[16];
                            double ds[16];
                            for (unsigned i = 0; i < 16; i++)
                                fs[i] = (float)(ds[i] = 100 + 7 * i + r);
                            memset(mem, 0xcd, MEM);
                            CHECK(ls_vstore_half(n, a, sd, sd ? (void *)ds
                                                              : (void *)fs,
                                                 (enum rnd)r, &b, p, offs[o],
                                                 NULL) == LS_OK,
                                  "vstore%s_half%u", a ? "a" : "", n);
                            for (unsigned i = 0; i < n; i++)
                                CHECK(get_le(mem + 2 * (first + i), 2) ==
                                          half_int(100 + 7 * i + (unsigned)r),
                                      "vstore%s_half%u p=%llu off=%llu %u",
                                      a ? "a" : "", n, (unsigned long long)p,
                                      (unsigned long long)offs[o], i);
                            CHECK(dirty(mem, 0, 2 * first) < 0 &&
                                      dirty(mem, 2 * (first + n), MEM) < 0,
                                  "vstore%s_half%u wrote outside",
                                  a ? "a" : "", n);
                        }
                }
}

/* Checks a failed access: the fault and that nothing moved. */
#define EXPECT_FAULT(call, want, faddr, flen, falign, what, ...)             \
    do {                                                                     \
        ls_fault f_ = {LS_OK, 0, 0, 0};                                      \
        enum ls_err e_ = (call);                                             \
        CHECK(e_ == (want) && f_.err == (want) && f_.addr == (faddr) &&      \
                  f_.len == (flen) && f_.align == (falign),                  \
              what ": err %d addr %llu len %llu align %llu", __VA_ARGS__,    \
              e_, (unsigned long long)f_.addr, (unsigned long long)f_.len,   \
              (unsigned long long)f_.align);                                 \
    } while (0)
#define F (&f_)

static void misaligned(void)
{
    ls_buf b = {mem, MEM};
    uint8_t reg[REG];
    for (int el = 0; el < TY_NSCALAR; el++)
        for (size_t w = 0; w < NWIDTH; w++)
            for (uint64_t p = 1; p < 2 * esz[el]; p++) {
                unsigned n = widths[w], e = esz[el];
                const char *tn = ty_scalar_name((enum ty_scalar)el);
                if (p % e == 0)
                    continue;
                for (uint64_t off = 0; off < 3; off++) {
                    memset(reg, 0xcd, REG);
                    memset(mem, 0xcd, MEM);
                    EXPECT_FAULT(ls_vload((enum ty_scalar)el, n, &b, p, off,
                                          reg, F),
                                 LS_ALIGN, p + off * n * e, n * e, e,
                                 "vload%u %s p=%llu", n, tn,
                                 (unsigned long long)p);
                    CHECK(dirty(reg, 0, REG) < 0, "vload wrote");
                    EXPECT_FAULT(ls_vstore((enum ty_scalar)el, n, reg, &b, p,
                                           off, F),
                                 LS_ALIGN, p + off * n * e, n * e, e,
                                 "vstore%u %s p=%llu", n, tn,
                                 (unsigned long long)p);
                    CHECK(dirty(mem, 0, MEM) < 0, "vstore wrote");
                }
            }
    /* chars are never misaligned */
    CHECK(ls_vload(TY_CHAR, 3, &b, 1, 1, reg, NULL) == LS_OK, "char3 p=1");
    CHECK(ls_vload(TY_UCHAR, 16, &b, 7, 3, reg, NULL) == LS_OK, "uchar16");
    /* vload3 of float at p + 12: element alignment only, not float4's */
    CHECK(ls_vload(TY_FLOAT, 3, &b, 0, 1, reg, NULL) == LS_OK, "vload3 +12");

    /* half forms: 2, or sizeof(halfN) for vloada (8 for half3) */
    static const unsigned aligna[] = {2, 4, 8, 8, 16, 32};
    float fr[20];
    double dsrc[16] = {0};
    for (int a = 0; a < 2; a++)
        for (size_t w = 0; w < NWIDTH; w++)
            for (uint64_t p = 1; p < 2 * aligna[w]; p++) {
                unsigned n = widths[w], al = a ? aligna[w] : 2;
                unsigned stride = a ? (n == 3 ? 4 : n) : n;
                if (p % al == 0) {
                    CHECK(ls_vload_half(n, a, &b, p, 1, fr, NULL) == LS_OK,
                          "half%u a=%d p=%llu", n, a, (unsigned long long)p);
                    continue;
                }
                memset(mem, 0xcd, MEM);
                memset(fr, 0xcd, sizeof fr);
                EXPECT_FAULT(ls_vload_half(n, a, &b, p, 1, fr, F), LS_ALIGN,
                             p + 2 * stride, 2 * n, al, "vload%s_half%u p=%llu",
                             a ? "a" : "", n, (unsigned long long)p);
                CHECK(dirty((uint8_t *)fr, 0, sizeof fr) < 0, "loaded");
                for (int r = 0; r < RND_NMODE; r++)
                    EXPECT_FAULT(ls_vstore_half(n, a, r & 1, dsrc, (enum rnd)r,
                                                &b, p, 1, F),
                                 LS_ALIGN, p + 2 * stride, 2 * n, al,
                                 "vstore%s_half%u p=%llu", a ? "a" : "", n,
                                 (unsigned long long)p);
                CHECK(dirty(mem, 0, MEM) < 0, "stored");
            }
    /* vloada_half3 at 4-byte but not 8-byte alignment */
    EXPECT_FAULT(ls_vload_half(3, true, &b, 4, 0, fr, F), LS_ALIGN, 4, 6, 8,
                 "vloada_half3 p=%d", 4);
    EXPECT_FAULT(ls_vstore_half(3, true, false, dsrc, RND_RTE, &b, 12, 2, F),
                 LS_ALIGN, 28, 6, 8, "vstorea_half3 p=%d", 12);
    CHECK(ls_vload_half(3, false, &b, 4, 0, fr, NULL) == LS_OK, "vload_half3");
    CHECK(ls_vload_half(3, true, &b, 8, 0, fr, NULL) == LS_OK, "vloada_half3");
    CHECK(ls_vload_half(1, true, &b, 2, 0, fr, NULL) == LS_OK, "vloada_half");
    CHECK(ls_vload(TY_HALF, 4, &b, 2, 0, reg, NULL) == LS_OK, "vload4 half");
}

/* Exactly the bytes touched: a buffer ending right after them is fine, one
 * byte shorter is not. Buffers are malloc'ed to size, so the sanitizer
 * also sees any byte read or written past the end. */
static void exact_bounds(void)
{
    uint8_t reg[REG];
    memset(reg, 0x11, REG);
    for (int el = 0; el < TY_NSCALAR; el++)
        for (size_t w = 0; w < NWIDTH; w++)
            for (uint64_t off = 0; off < 4; off++)
                for (uint64_t pk = 0; pk < 2; pk++) {
                    unsigned n = widths[w], e = esz[el];
                    uint64_t p = pk * e, addr = p + off * n * e;
                    size_t need = (size_t)(addr + n * e);
                    uint8_t *m = malloc(need);
                    ls_buf b = {m, need};
                    const char *tn = ty_scalar_name((enum ty_scalar)el);
                    memset(m, 0xcd, need);
                    CHECK(ls_vload((enum ty_scalar)el, n, &b, p, off, reg,
                                   NULL) == LS_OK, "vload%u %s end", n, tn);
                    CHECK(ls_vstore((enum ty_scalar)el, n, reg, &b, p, off,
                                    NULL) == LS_OK, "vstore%u %s end", n, tn);
                    memset(m, 0xcd, need);
                    b.size = need - 1;
                    EXPECT_FAULT(ls_vload((enum ty_scalar)el, n, &b, p, off,
                                          reg, F),
                                 LS_BOUNDS, addr, n * e, e, "vload%u %s", n, tn);
                    EXPECT_FAULT(ls_vstore((enum ty_scalar)el, n, reg, &b, p,
                                           off, F),
                                 LS_BOUNDS, addr, n * e, e, "vstore%u %s", n,
                                 tn);
                    CHECK(dirty(m, 0, need) < 0, "vstore%u %s wrote", n, tn);
                    free(m);
                }
    /* the spec's case: vload3 at offset 3 of a 48-byte float buffer */
    uint8_t *m = malloc(48);
    ls_buf b = {m, 48};
    memset(m, 0, 48);
    CHECK(ls_vload(TY_FLOAT, 3, &b, 0, 3, reg, NULL) == LS_OK, "48 bytes");
    b.size = 47;
    CHECK(ls_vload(TY_FLOAT, 3, &b, 0, 3, reg, NULL) == LS_BOUNDS, "47");
    free(m);

    /* half forms: 2n bytes at the computed address, never the padding */
    float fr[20];
    float fsrc[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    for (int a = 0; a < 2; a++)
        for (size_t w = 0; w < NWIDTH; w++)
            for (uint64_t off = 0; off < 3; off++) {
                unsigned n = widths[w];
                unsigned stride = a ? halfa_lanes(n) : n;
                unsigned al = a ? 2 * stride : 2;
                uint64_t addr = off * 2 * stride;
                size_t need = (size_t)addr + 2 * n;
                uint8_t *hm = malloc(need);
                ls_buf hb = {hm, need};
                memset(hm, 0, need);
                CHECK(ls_vload_half(n, a, &hb, 0, off, fr, NULL) == LS_OK,
                      "vload%s_half%u end", a ? "a" : "", n);
                CHECK(ls_vstore_half(n, a, false, fsrc, RND_RTZ, &hb, 0, off,
                                     NULL) == LS_OK,
                      "vstore%s_half%u end", a ? "a" : "", n);
                memset(hm, 0xcd, need);
                hb.size = need - 1;
                EXPECT_FAULT(ls_vload_half(n, a, &hb, 0, off, fr, F),
                             LS_BOUNDS, addr, 2 * n, al, "vload%s_half%u",
                             a ? "a" : "", n);
                EXPECT_FAULT(ls_vstore_half(n, a, false, fsrc, RND_RTE, &hb, 0,
                                            off, F),
                             LS_BOUNDS, addr, 2 * n, al, "vstore%s_half%u",
                             a ? "a" : "", n);
                CHECK(dirty(hm, 0, need) < 0, "stored");
                free(hm);
            }
}

/* Offsets whose address does not fit in 64 bits fail cleanly, with the
 * address saturated; addresses that fit are reported exactly. The buffer
 * "all" claims 2^64 - 1 bytes but is never touched: every access to it
 * ends past 2^64 - 1 (or its address overflows). */
static void huge_offsets(void)
{
    uint8_t tiny[16], reg[REG];
    ls_buf all = {tiny, UINT64_MAX}, small = {tiny, sizeof tiny};
    const uint64_t M = UINT64_MAX;
    float fr[20];
    EXPECT_FAULT(ls_vload(TY_FLOAT, 4, &all, 0, M, reg, F), LS_BOUNDS, M, 16,
                 4, "float4 offset %s", "max");
    EXPECT_FAULT(ls_vload(TY_DOUBLE, 16, &all, 0, 1ull << 57, reg, F),
                 LS_BOUNDS, M, 128, 8, "double16 offset %s", "2^57");
    /* fits: 2^64 - 128, and the access would end at 2^64 */
    EXPECT_FAULT(ls_vload(TY_DOUBLE, 16, &all, 0, (1ull << 57) - 1, reg, F),
                 LS_BOUNDS, M - 127, 128, 8, "double16 offset %s", "2^57-1");
    /* product fits, p + product does not */
    EXPECT_FAULT(ls_vstore(TY_DOUBLE, 16, reg, &all, 128, (1ull << 57) - 1, F),
                 LS_BOUNDS, M, 128, 8, "double16 p=128 %s", "");
    /* above the no-division shortcut but fitting */
    EXPECT_FAULT(ls_vload(TY_CHAR, 2, &small, 0, 1ull << 62, reg, F),
                 LS_BOUNDS, 1ull << 63, 2, 1, "char2 offset %s", "2^62");
    EXPECT_FAULT(ls_vload(TY_CHAR, 4, &small, 0, 1ull << 62, reg, F),
                 LS_BOUNDS, M, 4, 1, "char4 offset %s", "2^62");
    EXPECT_FAULT(ls_vstore(TY_UCHAR, 1, reg, &small, 1, M, F), LS_BOUNDS, M,
                 1, 1, "uchar offset %s", "max, p=1");
    EXPECT_FAULT(ls_vstore(TY_UCHAR, 1, reg, &small, M, 0, F), LS_BOUNDS, M,
                 1, 1, "uchar p=%s", "max");
    EXPECT_FAULT(ls_vload_half(3, true, &all, 0, 1ull << 61, fr, F), LS_BOUNDS,
                 M, 6, 8, "vloada_half3 offset %s", "2^61");
    EXPECT_FAULT(ls_vload_half(3, true, &small, 0, (1ull << 61) - 1, fr, F),
                 LS_BOUNDS, M - 7, 6, 8, "vloada_half3 offset %s", "2^61-1");
    EXPECT_FAULT(ls_vstore_half(16, false, true, reg, RND_RTN, &all, 2, M, F),
                 LS_BOUNDS, M, 32, 2, "vstore_half16 offset %s", "max");
    /* both wrong: alignment is checked first */
    EXPECT_FAULT(ls_vload(TY_INT, 4, &small, 2, M, reg, F), LS_ALIGN, M, 16, 4,
                 "misaligned and out of bounds%s", "");
    EXPECT_FAULT(ls_vload(TY_INT, 4, &small, 2, 1, reg, F), LS_ALIGN, 18, 16,
                 4, "misaligned and out of bounds%s", "");
}

static void err_names(void)
{
    CHECK(strcmp(ls_err_name(LS_BOUNDS), "out of bounds") == 0, "bounds");
    CHECK(strcmp(ls_err_name(LS_ALIGN), "misaligned") == 0, "align");
    CHECK(strcmp(ls_err_name(LS_OK), "ok") == 0, "ok");
}

/* Scalar vstore_half in each mode; expected bits derived by hand. */
static void vstore_half_modes(void)
{
    static const struct { uint32_t in; uint16_t h[RND_NMODE]; } cases[] = {
        /*  input         rte     rtz     rtp     rtn */
        {0x3f800000u, {0x3c00, 0x3c00, 0x3c00, 0x3c00}}, /* 1.0 */
        {0xbfc00000u, {0xbe00, 0xbe00, 0xbe00, 0xbe00}}, /* -1.5 */
        {0x477ff000u, {0x7c00, 0x7bff, 0x7c00, 0x7bff}}, /* 65520: tie */
        {0xc77ff000u, {0xfc00, 0xfbff, 0xfbff, 0xfc00}}, /* -65520 */
        {0x477fefffu, {0x7bff, 0x7bff, 0x7c00, 0x7bff}}, /* just below */
        {0x477fe000u, {0x7bff, 0x7bff, 0x7bff, 0x7bff}}, /* 65504 */
        {0x49742400u, {0x7c00, 0x7bff, 0x7c00, 0x7bff}}, /* 1e6 */
        {0xc9742400u, {0xfc00, 0xfbff, 0xfbff, 0xfc00}}, /* -1e6 */
        {0x3f801000u, {0x3c00, 0x3c00, 0x3c01, 0x3c00}}, /* 1+2^-11 tie */
        {0xbf801000u, {0xbc00, 0xbc00, 0xbc00, 0xbc01}},
        {0x3f803000u, {0x3c02, 0x3c01, 0x3c02, 0x3c01}}, /* 1+3*2^-11 */
        {0x3f800800u, {0x3c00, 0x3c00, 0x3c01, 0x3c00}}, /* 1+2^-12 */
        {0x3dcccccdu, {0x2e66, 0x2e66, 0x2e67, 0x2e66}}, /* 0.1 */
        {0x38800000u, {0x0400, 0x0400, 0x0400, 0x0400}}, /* 2^-14 */
        {0x387fc000u, {0x03ff, 0x03ff, 0x03ff, 0x03ff}}, /* 1023*2^-24 */
        {0x387fe000u, {0x0400, 0x03ff, 0x0400, 0x03ff}}, /* 1023.5*2^-24 */
        {0x33800000u, {0x0001, 0x0001, 0x0001, 0x0001}}, /* 2^-24 */
        {0x33000000u, {0x0000, 0x0000, 0x0001, 0x0000}}, /* 2^-25 tie */
        {0xb3000000u, {0x8000, 0x8000, 0x8000, 0x8001}},
        {0x33400000u, {0x0001, 0x0000, 0x0001, 0x0000}}, /* 0.75*2^-24 */
        {0x00000001u, {0x0000, 0x0000, 0x0001, 0x0000}}, /* 2^-149 */
        {0x80000000u, {0x8000, 0x8000, 0x8000, 0x8000}}, /* -0.0 */
        {0x7f800000u, {0x7c00, 0x7c00, 0x7c00, 0x7c00}}, /* inf */
        {0xff800000u, {0xfc00, 0xfc00, 0xfc00, 0xfc00}},
    };
    uint8_t m[8];
    ls_buf b = {m, sizeof m};
    for (size_t i = 0; i < NELEM(cases); i++)
        for (int r = 0; r < RND_NMODE; r++) {
            float x = bitsf(cases[i].in);
            memset(m, 0xcd, sizeof m);
            CHECK(ls_vstore_half(1, r & 1, false, &x, (enum rnd)r, &b, 2, 1,
                                 NULL) == LS_OK, "store");
            uint16_t h = (uint16_t)get_le(m + 4, 2);
            CHECK(h == cases[i].h[r], "vstore_half_%s(%#x) = %#x, want %#x",
                  rnd_name((enum rnd)r), (unsigned)cases[i].in, h,
                  cases[i].h[r]);
            CHECK(dirty(m, 0, 4) < 0 && dirty(m, 6, 8) < 0, "outside");
        }
    /* NaN stays NaN (sign and payload are half.c's business) */
    static const uint32_t nans[] = {0x7fc00000u, 0xff800001u, 0x7f800001u};
    for (size_t i = 0; i < NELEM(nans); i++)
        for (int r = 0; r < RND_NMODE; r++) {
            float x = bitsf(nans[i]);
            CHECK(ls_vstore_half(1, false, false, &x, (enum rnd)r, &b, 0, 0,
                                 NULL) == LS_OK, "store");
            uint16_t h = (uint16_t)get_le(m, 2);
            CHECK((h & 0x7c00) == 0x7c00 && (h & 0x3ff), "NaN %#x -> %#x",
                  (unsigned)nans[i], h);
        }
}

/* double -> half rounds once: values a float would have rounded onto a
 * half tie first. */
static void vstore_half_double_once(void)
{
    static const struct { uint64_t in; uint16_t h[RND_NMODE]; } cases[] = {
        /* 1 + 2^-11 + 2^-40: above the tie; via float, the tie -> 0x3c00 */
        {0x3ff0020000001000u, {0x3c01, 0x3c00, 0x3c01, 0x3c00}},
        /* 1 + 3*2^-11 - 2^-40: below the tie; via float -> 0x3c02 */
        {0x3ff005fffffff000u, {0x3c01, 0x3c01, 0x3c02, 0x3c01}},
        /* 65519.99999999: below 65520; via float 65520.0f -> inf */
        {0x40effdfffffffaa2u, {0x7bff, 0x7bff, 0x7c00, 0x7bff}},
        {0x3e70000000000000u, {0x0001, 0x0001, 0x0001, 0x0001}}, /* 2^-24 */
        {0x3e50000000000000u, {0x0000, 0x0000, 0x0001, 0x0000}}, /* 2^-26 */
        {0xfe37e43c8800759cu, {0xfc00, 0xfbff, 0xfbff, 0xfc00}}, /* -1e300 */
        {0x3ff0000000000000u, {0x3c00, 0x3c00, 0x3c00, 0x3c00}},
    };
    uint8_t m[4];
    ls_buf b = {m, sizeof m};
    for (size_t i = 0; i < NELEM(cases); i++)
        for (int r = 0; r < RND_NMODE; r++) {
            double x = bitsd(cases[i].in);
            memset(m, 0xcd, sizeof m);
            CHECK(ls_vstore_half(1, false, true, &x, (enum rnd)r, &b, 0, 1,
                                 NULL) == LS_OK, "store");
            uint16_t h = (uint16_t)get_le(m + 2, 2);
            CHECK(h == cases[i].h[r], "vstore_half_%s(double %#llx) = %#x",
                  rnd_name((enum rnd)r), (unsigned long long)cases[i].in, h);
            CHECK(dirty(m, 0, 2) < 0, "outside");
        }
}

/* Examples of the spec pages, worked out by hand. */
static void spec_examples(void)
{
    uint8_t m[64];
    ls_buf b = {m, 48};
    float fv[4];
    /* float buffer 0.0, 1.0, ..., 11.0 */
    for (int k = 0; k < 12; k++)
        put_le(m + 4 * k, 4, fbits((float)k));
    fv[3] = -1;
    CHECK(ls_vload(TY_FLOAT, 3, &b, 0, 1, fv, NULL) == LS_OK && fv[0] == 3 &&
              fv[1] == 4 && fv[2] == 5 && fv[3] == -1, "vload3(1)");
    CHECK(ls_vload(TY_FLOAT, 3, &b, 0, 3, fv, NULL) == LS_OK && fv[0] == 9 &&
              fv[1] == 10 && fv[2] == 11 && fv[3] == -1, "vload3(3)");
    CHECK(ls_vload(TY_FLOAT, 4, &b, 0, 1, fv, NULL) == LS_OK && fv[0] == 4 &&
              fv[3] == 7, "vload4(1)");
    CHECK(ls_vload(TY_FLOAT, 2, &b, 0, 5, fv, NULL) == LS_OK && fv[0] == 10 &&
              fv[1] == 11, "vload2(5)");

    /* bytes 0x10 .. 0x27 */
    uint8_t c[16];
    for (int k = 0; k < 24; k++)
        m[k] = (uint8_t)(0x10 + k);
    b.size = 24;
    c[3] = 0xee;
    CHECK(ls_vload(TY_CHAR, 3, &b, 0, 2, c, NULL) == LS_OK && c[0] == 0x16 &&
              c[1] == 0x17 && c[2] == 0x18 && c[3] == 0xee, "vload3 char");
    CHECK(ls_vload(TY_UCHAR, 8, &b, 0, 2, c, NULL) == LS_OK && c[0] == 0x20 &&
              c[7] == 0x27, "vload8 uchar");
    CHECK(ls_vload(TY_CHAR, 16, &b, 0, 0, c, NULL) == LS_OK && c[15] == 0x1f,
          "vload16");

    /* shorts -6 .. 5: vload3(3) gives (3, 4, 5) */
    int16_t s[4];
    for (int k = 0; k < 12; k++)
        put_le(m + 2 * k, 2, (uint16_t)(k - 6));
    CHECK(ls_vload(TY_SHORT, 3, &b, 0, 3, s, NULL) == LS_OK && s[0] == 3 &&
              s[1] == 4 && s[2] == 5, "vload3 short");

    /* a bit copy: signalling NaN and -0.0 survive */
    uint64_t d[2];
    put_le(m, 8, 0x7ff0000000000001u);
    put_le(m + 8, 8, 0x8000000000000000u);
    b.size = 16;
    CHECK(ls_vload(TY_DOUBLE, 2, &b, 0, 0, d, NULL) == LS_OK &&
              d[0] == 0x7ff0000000000001u && d[1] == 0x8000000000000000u,
          "vload2 double");
    put_le(m, 4, 0x7f800001u);
    uint32_t sn;
    CHECK(ls_vload(TY_FLOAT, 1, &b, 0, 0, &sn, NULL) == LS_OK &&
              sn == 0x7f800001u, "vload float sNaN");
    memset(m, 0xcd, 16);
    CHECK(ls_vstore(TY_FLOAT, 1, &sn, &b, 4, 0, NULL) == LS_OK &&
              get_le(m + 4, 4) == 0x7f800001u, "vstore float sNaN");

    /* halves 3c00 4000 8000 7c01 7bff 0001: vload2 half (1) = raw bits */
    static const uint16_t h6[] = {0x3c00, 0x4000, 0x8000, 0x7c01, 0x7bff, 1};
    uint16_t h[2];
    for (int k = 0; k < 6; k++)
        put_le(m + 2 * k, 2, h6[k]);
    b.size = 12;
    CHECK(ls_vload(TY_HALF, 2, &b, 0, 1, h, NULL) == LS_OK && h[0] == 0x8000 &&
              h[1] == 0x7c01, "vload2 half");

    /* vload_half family over 12 halves */
    static const uint16_t h12[] = {0x3c00, 0xc000, 0x0001, 0x8000,
                                   0x7bff, 0x7c00, 0xfc00, 0x7e00,
                                   0x03ff, 0x0400, 0x3555, 0x7c01};
    for (int k = 0; k < 12; k++)
        put_le(m + 2 * k, 2, h12[k]);
    b.size = 24;
    static const struct {
        unsigned n;
        bool a;
        uint64_t off;
        uint32_t want[4]; /* 1 = any NaN */
    } loads[] = {
        {1, false, 0, {0x3f800000u}},
        {1, false, 2, {0x33800000u}},  /* smallest denormal, not flushed */
        {1, false, 4, {0x477fe000u}},
        {1, false, 8, {0x387fc000u}},
        {1, false, 10, {0x3eaaa000u}},
        {1, false, 11, {1}},
        {1, true, 3, {0x80000000u}},
        {2, false, 1, {0x33800000u, 0x80000000u}},
        {3, false, 1, {0x80000000u, 0x477fe000u, 0x7f800000u}},
        {3, true, 1, {0x477fe000u, 0x7f800000u, 0xff800000u}}, /* stride 4 */
        {4, false, 2, {0x387fc000u, 0x38800000u, 0x3eaaa000u, 1}},
        {4, true, 1, {0x477fe000u, 0x7f800000u, 0xff800000u, 1}},
    };
    for (size_t i = 0; i < NELEM(loads); i++) {
        float r[4];
        memset(r, 0xcd, sizeof r);
        CHECK(ls_vload_half(loads[i].n, loads[i].a, &b, 0, loads[i].off, r,
                            NULL) == LS_OK, "load %zu", i);
        for (unsigned k = 0; k < 4; k++) {
            uint32_t got = fbits(r[k]), want = loads[i].want[k];
            if (k >= loads[i].n)
                CHECK(got == 0xcdcdcdcdu, "vload_half %zu lane %u", i, k);
            else if (want == 1)
                CHECK(r[k] != r[k], "vload_half %zu lane %u NaN", i, k);
            else
                CHECK(got == want, "vload_half %zu lane %u: %#x want %#x", i,
                      k, (unsigned)got, (unsigned)want);
        }
    }

    /* vstore3(v, 1, p) writes elements 3..5 only, not the padding */
    uint32_t v3[4] = {0x3f800000u, 0x40000000u, 0x40400000u, 0xdeadbeefu};
    memset(m, 0xcd, sizeof m);
    b.size = 36;
    CHECK(ls_vstore(TY_FLOAT, 3, v3, &b, 0, 1, NULL) == LS_OK &&
              get_le(m + 12, 4) == 0x3f800000u &&
              get_le(m + 20, 4) == 0x40400000u && dirty(m, 0, 12) < 0 &&
              dirty(m, 24, sizeof m) < 0, "vstore3 float");
    uint8_t u2[2] = {0xa1, 0xb2};
    memset(m, 0xcd, sizeof m);
    CHECK(ls_vstore(TY_UCHAR, 2, u2, &b, 0, 3, NULL) == LS_OK && m[6] == 0xa1 &&
              m[7] == 0xb2 && dirty(m, 0, 6) < 0 && dirty(m, 8, sizeof m) < 0,
          "vstore2 uchar");
    int16_t s3[4] = {7, -7, 0x1234, 0x5555};
    memset(m, 0xcd, sizeof m);
    CHECK(ls_vstore(TY_SHORT, 3, s3, &b, 0, 2, NULL) == LS_OK &&
              get_le(m + 12, 2) == 7 && get_le(m + 14, 2) == 0xfff9 &&
              get_le(m + 16, 2) == 0x1234 && dirty(m, 0, 12) < 0 &&
              dirty(m, 18, sizeof m) < 0, "vstore3 short");

    /* vstore_half(1.0f, 2, p) writes bytes 4..5 */
    float one = 1.0f;
    memset(m, 0xcd, sizeof m);
    CHECK(ls_vstore_half(1, false, false, &one, RND_RTE, &b, 0, 2, NULL) ==
                  LS_OK && m[4] == 0x00 && m[5] == 0x3c && dirty(m, 0, 4) < 0 &&
              dirty(m, 6, sizeof m) < 0, "vstore_half(1.0f, 2)");
    /* vstore_half3 at halves 3..5; vstorea_half3 at halves 4..6, and the
     * padding half 7 untouched */
    float f3[4] = {1.0f, -2.0f, 0.5f, 99.0f};
    for (int a = 0; a < 2; a++) {
        unsigned at = a ? 8 : 6;
        memset(m, 0xcd, sizeof m);
        CHECK(ls_vstore_half(3, a, false, f3, RND_RTE, &b, 0, 1, NULL) ==
                      LS_OK && get_le(m + at, 2) == 0x3c00 &&
                  get_le(m + at + 2, 2) == 0xc000 &&
                  get_le(m + at + 4, 2) == 0x3800 && dirty(m, 0, at) < 0 &&
                  dirty(m, at + 6, sizeof m) < 0,
              "vstore%s_half3", a ? "a" : "");
    }
    /* vstorea_half4_rtz(65520, -65520, 1+2^-11, ~1e-8, 1, p) */
    uint32_t f4[4] = {0x477ff000u, 0xc77ff000u, 0x3f801000u, 0x322bcc77u};
    memset(m, 0xcd, sizeof m);
    CHECK(ls_vstore_half(4, true, false, f4, RND_RTZ, &b, 0, 1, NULL) ==
                  LS_OK && get_le(m + 8, 8) == 0x00003c00fbff7bffu &&
              dirty(m, 0, 8) < 0 && dirty(m, 16, sizeof m) < 0,
          "vstorea_half4_rtz");
    /* vstore_half2_rtp(+-(1+2^-12)) */
    uint32_t f2[2] = {0x3f800800u, 0xbf800800u};
    memset(m, 0xcd, sizeof m);
    CHECK(ls_vstore_half(2, false, false, f2, RND_RTP, &b, 0, 0, NULL) ==
                  LS_OK && get_le(m, 4) == 0xbc003c01u && dirty(m, 4, 64) < 0,
          "vstore_half2_rtp");
    /* vstore_half2((double2)(2^-24, -1e300), 1, p) */
    uint64_t d2[2] = {0x3e70000000000000u, 0xfe37e43c8800759cu};
    memset(m, 0xcd, sizeof m);
    CHECK(ls_vstore_half(2, false, true, d2, RND_RTE, &b, 0, 1, NULL) ==
                  LS_OK && get_le(m + 4, 4) == 0xfc000001u &&
              dirty(m, 0, 4) < 0 && dirty(m, 8, 64) < 0, "vstore_half2 double");
}

int main(void)
{
    RUN(vload_vstore_addresses);
    RUN(half_addresses);
    RUN(misaligned);
    RUN(exact_bounds);
    RUN(huge_offsets);
    RUN(err_names);
    RUN(vstore_half_modes);
    RUN(vstore_half_double_once);
    RUN(spec_examples);
    return t_summary("loadstore");
}
