/* The interpreter's fast paths against the general ones: they must give
 * the same bits on every input they take. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "stdlib/convert.h"
#include "stdlib/profile.h"
#include "vm/cvtint.h"
#include "vm/interp.h"
#include "tests/lib/test.h"
#include "vm/vm.h"

/* vm_f2i_sat_rte (the vectorised convert_int_sat_rte of the hot loop)
 * equals stdlib's on a stride through all floats and on the edges. */
static void f2i_sat_rte_matches_stdlib(void)
{
    cv_fn cv = cv_lookup(TY_INT, TY_FLOAT, true, RND_RTE);
    static const uint32_t edges[] = {
        0x00000000, 0x80000000, 0x3f000000, 0xbf000000, 0x3fc00000,
        0xbfc00000, 0x40200000, 0xc0200000, 0x4effffff, 0x4f000000,
        0xcf000000, 0xcf000001, 0x7f800000, 0xff800000, 0x7fc00000,
        0xffc00001, 0x7f800001, 0x00000001, 0x4b000001, 0xcb000001,
    };
    uint32_t b = 0;
    for (uint64_t i = 0;; i++) {
        if (i < sizeof edges / sizeof edges[0])
            b = edges[i];
        else if ((b += 65521u) < 65521u)
            break; /* wrapped: the stride covered the range */
        float x;
        memcpy(&x, &b, 4);
        int32_t want, got = vm_f2i_sat_rte(x);
        cv(&want, &x, 1);
        CHECK(got == want, "0x%08x: %d, stdlib %d", b, got, want);
    }
}

/* The sources of a conversion test of ss-byte integers: every value of an
 * 8- or 16-bit type; for 32 and 64 bits each 2^k and 2^k - 1 (k < bits)
 * with their negations and neighbours, then random values (splitmix64).
 * Fills up to n elements at out from sample number *i on; returns how
 * many, 0 when the samples are done. */
enum { CVT_RANDOM = 1 << 20 };
static uint32_t cvt_sources(unsigned ss, uint64_t *i, uint8_t *out,
                            uint32_t n)
{
    const uint64_t total = ss <= 2 ? (uint64_t)1 << (8 * ss)
                                   : 8 * 64 + (uint64_t)CVT_RANDOM;
    uint32_t m = 0;
    for (; m < n && *i < total; m++, ++*i) {
        uint64_t v;
        if (ss <= 2) {
            v = *i;
        } else if (*i < 8 * 64) {
            const uint64_t p = (uint64_t)1 << (*i / 8 % (8 * ss)),
                           q[8] = {p, p - 1, p + 1, 0 - p, 0 - p - 1,
                                   0 - p + 1, ~p, p - 2};
            v = q[*i % 8];
        } else {
            uint64_t z = *i * 0x9E3779B97F4A7C15ull;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            v = z ^ (z >> 31);
        }
        ty_put_bits(out + (size_t)m * ss, ss, v);
    }
    return m;
}

/* vm_cvt_int (the inline integer conversions without _sat, vm/cvtint.h)
 * gives stdlib's bits for every pair of integer types: on every 8- and
 * 16-bit source, and on the edges and 2^20 random values of the wider
 * ones; in place too where the sizes are equal. Batches of a size that
 * is not a multiple of 64 run both of its loops. */
static void cvt_int_matches_stdlib(void)
{
    static const enum ty_scalar it[] = {TY_CHAR, TY_UCHAR, TY_SHORT,
                                        TY_USHORT, TY_INT, TY_UINT,
                                        TY_LONG, TY_ULONG};
    enum { NB = 64 * 61 + 37 };
    static uint64_t src[NB], want[NB], got[NB];
    for (unsigned d = 0; d < 8; d++)
        for (unsigned s = 0; s < 8; s++) {
            const unsigned ds = ty_scalar_size(it[d]),
                           ss = ty_scalar_size(it[s]);
            const unsigned code = vm_cvt_int_code(ds, ss, ty_is_signed(it[s]));
            cv_fn cv = cv_lookup(it[d], it[s], false, RND_RTZ);
            CHECK(cv && code >= VM_CVT_INT, "convert %s of %s: no code",
                  ty_scalar_name(it[d]), ty_scalar_name(it[s]));
            uint64_t i = 0, bad = 0, seen = 0;
            uint32_t m;
            while ((m = cvt_sources(ss, &i, (uint8_t *)src, NB))) {
                cv(want, src, m);
                vm_cvt_int(got, src, m, code - VM_CVT_INT);
                bad += memcmp(got, want, (size_t)m * ds) != 0;
                if (ds == ss) {
                    vm_cvt_int(src, src, m, code - VM_CVT_INT);
                    bad += memcmp(src, want, (size_t)m * ds) != 0;
                }
                seen += m;
            }
            CHECK(!bad && seen >= 256, "convert %s of %s: %llu batches of "
                  "%llu sources differ from stdlib", ty_scalar_name(it[d]),
                  ty_scalar_name(it[s]), (unsigned long long)bad,
                  (unsigned long long)seen);
        }
}

/* Runs IR kernel src over global size g (warp 64) on buffer out. */
static int run(const char *src, uint64_t g, uint8_t *out, uint64_t size)
{
    bc_module m;
    if (asm_assemble(src, strlen(src), "fast.clasm", &m, stderr))
        return -1;
    vm_arg args[1] = {{out, size}};
    vm_ndrange nd = {.dims = 1, .global = {g}, .local = {64}, .threads = 1};
    vm_trap t;
    int rc = vm_run(&m, 0, args, &nd, &t);
    bc_free(&m);
    return rc;
}

/* A register written only inside an if must still start at zero in every
 * warp: the definite-assignment pass may skip resetting only registers
 * that are always written first. Lanes that skip the if read x. */
static void reset_of_conditionally_written(void)
{
    const char *src =
        "kernel k(global uint *o)\n"
        "    uint i, x\n"
        "    i = get_global_id(0)\n"
        "    if i < 64\n"
        "        x = 7\n"
        "    end\n"
        "    o[i] = x\n"
        "end\n";
    uint32_t o[256];
    memset(o, 0xcd, sizeof o);
    CHECK(run(src, 256, (uint8_t *)o, sizeof o) == 0, "run");
    for (int i = 0; i < 256; i++)
        CHECK(o[i] == (i < 64 ? 7u : 0u), "o[%d] = %u", i, o[i]);
}

/* The dense vload4/vstore4 path of a full warp, and the per-lane path of
 * the partial warp after it, move the same bytes. */
static void dense_vload_vstore(void)
{
    const char *src =
        "kernel k(global float *o)\n"
        "    ulong i\n"
        "    float4 v\n"
        "    i = get_global_id(0)\n"
        "    v = vload4(i, o)\n"
        "    v = v + 1.0f\n"
        "    vstore4(v, i, o)\n"
        "end\n";
    enum { N = 100 };
    float o[4 * N];
    for (int i = 0; i < 4 * N; i++)
        o[i] = (float)i;
    vm_arg args[1] = {{(uint8_t *)o, sizeof o}};
    bc_module m;
    CHECK(asm_assemble(src, strlen(src), "fast.clasm", &m, stderr) == 0, "asm");
    vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N}, .threads = 1};
    vm_trap t;
    CHECK(vm_run(&m, 0, args, &nd, &t) == 0, "run: %s", t.msg);
    bc_free(&m);
    for (int i = 0; i < 4 * N; i++)
        CHECK(o[i] == (float)i + 1, "o[%d] = %g", i, o[i]);
}

/* Full-warp rows stored into a buffer of 32 MiB or more go past the
 * caches (vm/loop.h's vm_stream, run.c's streams): element e of the
 * row-major output holds (T)e, on 4 threads, for rows of 64 to 8192
 * bytes a warp, starting on a cache line and 2 or 4 bytes past one (the
 * plain stores of a line's two ends); nothing outside is touched. */
static void streamed_stores(void)
{
    static const struct { const char *t; unsigned n, es, off; } c[] = {
        {"uchar", 1, 1, 0},  {"uchar", 2, 1, 0}, {"ushort", 3, 2, 1},
        {"uint", 4, 4, 0},   {"uint", 4, 4, 1},  {"ulong", 16, 8, 0},
        {"ulong", 16, 8, 3},
    };
    /* aligned_alloc's size: a multiple of the alignment */
    const size_t bytes = ((size_t)32 << 20) + 4096;
    uint8_t *o = aligned_alloc(4096, bytes);
    CHECK(o != NULL, "malloc");
    for (size_t k = 0; o && k < sizeof c / sizeof c[0]; k++) {
        char src[512], vt[16];
        snprintf(vt, sizeof vt, "%s%.0u", c[k].t, c[k].n > 1 ? c[k].n : 0);
        if (c[k].n > 1)
            snprintf(src, sizeof src,
                     "kernel k(global %s *o)\n"
                     "    ulong i = get_global_id(0)\n"
                     "    ulong%u j = (ulong%u)(i * %u) + (ulong%u)(%s)\n"
                     "    %s v = convert_%s(j)\n"
                     "    global %s *p = o + %u\n"
                     "    vstore%u(v, i, p)\n"
                     "end\n",
                     c[k].t, c[k].n, c[k].n, c[k].n, c[k].n,
                     c[k].n == 2 ? "0, 1" : c[k].n == 3 ? "0, 1, 2"
                     : c[k].n == 4 ? "0, 1, 2, 3"
                     : "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
                     vt, vt, c[k].t, c[k].off, c[k].n);
        else
            snprintf(src, sizeof src,
                     "kernel k(global %s *o)\n"
                     "    ulong i = get_global_id(0)\n"
                     "    %s v = convert_%s(i)\n"
                     "    o[i + %u] = v\n"
                     "end\n",
                     c[k].t, c[k].t, c[k].t, c[k].off);
        const uint64_t row = (uint64_t)c[k].n * c[k].es,
                       items = ((uint64_t)32 << 20) / row / 256 * 256;
        memset(o, 0xab, bytes);
        bc_module m;
        CHECK(asm_assemble(src, strlen(src), "fast.clasm", &m, stderr) == 0,
              "asm %s", vt);
        vm_arg args[1] = {{o, bytes}};
        vm_ndrange nd = {.dims = 1, .global = {items}, .local = {256},
                         .threads = 4};
        vm_trap t;
        CHECK(vm_run(&m, 0, args, &nd, &t) == 0, "run %s: %s", vt, t.msg);
        bc_free(&m);
        const size_t lo = (size_t)c[k].off * c[k].es, hi = lo + items * row;
        size_t bad = 0, first = 0;
        for (size_t b = 0; b < bytes; b++) {
            uint8_t want = 0xab;
            if (b >= lo && b < hi) {   /* little-endian byte of (T)e */
                uint64_t e = (b - lo) / c[k].es;
                want = (uint8_t)(e >> 8 * ((b - lo) % c[k].es));
            }
            if (o[b] != want && !bad++)
                first = b;
        }
        CHECK(!bad, "%s at +%u: %zu bytes wrong, the first at %zu", vt,
              c[k].off, bad, first);
    }
    free(o);
}

/* The opcode of base b on integers of t's size (CVT: the one). */
static uint16_t op_of(unsigned b, enum ty_scalar t)
{
    for (unsigned o = 0; o < BC_NOPS; o++) {
        const enum ty_scalar e = (enum ty_scalar)bc_ops[o].elem;
        if (bc_ops[o].base == b &&
            (b == BCB_CVT || (!ty_is_float(e) &&
                              ty_scalar_size(e) == ty_scalar_size(t))))
            return (uint16_t)o;
    }
    return 0;
}

/* vm_note_quiet (vm/quiet.c: vectorised, no compare per element) says
 * "no note" exactly when stdlib's scalar rule raises none, for the signed
 * arithmetic, DIV and REM and the narrowing conversions, one element at or next to an
 * edge at a time among quiet ones, at every position of a 64-lane row. */
static void quiet_matches_profile(void)
{
    static const int64_t edges[] = {0, 1, -1, 2, -2, 3, 127, 128, -128,
                                     -129, 255, 32767, 32768, -32768,
                                     -32769, 46340, 46341, -46341, 65535,
                                     INT32_MAX, (int64_t)INT32_MAX + 1,
                                     INT32_MIN, (int64_t)INT32_MIN - 1,
                                     3037000499, 3037000500, INT64_MAX,
                                     INT64_MIN, (int64_t)UINT32_MAX};
    static const enum ty_scalar st[] = {TY_CHAR, TY_SHORT, TY_INT, TY_LONG};
    static const unsigned bases[] = {BCB_ADD, BCB_SUB, BCB_MUL, BCB_NEG};
    enum { N = 64, NE = sizeof edges / sizeof edges[0] };
    static uint8_t R[3 * N * 8];
    for (unsigned t = 0; t < 4; t++)
        for (unsigned b = 0; b < 4; b++) {
            const unsigned es = ty_scalar_size(st[t]);
            vm_ins I = {.note_op = op_of(bases[b], st[t]),
                        .flags = BC_F_SIGNED, .es = (uint8_t)es, .cnt = N,
                        .a = 0, .b = N * 8, .d = 2 * N * 8};
            for (unsigned i = 0; i < NE * NE; i++) {
                const int64_t x = edges[i / NE], y = edges[i % NE];
                const unsigned at = i % N;
                memset(R, 0, sizeof R);   /* 0 op 0: quiet */
                memcpy(R + at * es, &x, es);
                memcpy(R + N * 8 + at * es, &y, es);
                uint8_t d[8];
                int n = prof_arith(PROF_STRICT, st[t], (enum prof_arith)b, d,
                                   R + at * es, R + N * 8 + at * es);
                bool q = vm_note_quiet(&I, R);
                CHECK(q == (n == 0), "%s %lld, %lld at lane %u: quiet %d, "
                      "notes %d", bc_ops[I.note_op].name, (long long)x,
                      (long long)y, at, q, n);
            }
        }
    static const enum ty_scalar it[] = {TY_CHAR, TY_UCHAR, TY_SHORT,
                                        TY_USHORT, TY_INT, TY_UINT,
                                        TY_LONG, TY_ULONG};
    for (unsigned t = 0; t < 8; t++)   /* DIV and REM, by their signedness */
        for (unsigned o = 0; o < BC_NOPS; o++) {
            const unsigned base = bc_ops[o].base;
            if ((base != BCB_DIV && base != BCB_REM) || bc_ops[o].elem != it[t])
                continue;
            const unsigned es = ty_scalar_size(it[t]);
            vm_ins I = {.note_op = (uint16_t)o, .es = (uint8_t)es, .cnt = N,
                        .a = 0, .b = N * 8, .d = 2 * N * 8};
            for (unsigned i = 0; i < NE * NE; i++) {
                const int64_t x = edges[i / NE], y = edges[i % NE];
                const unsigned at = i % N;
                memset(R, 0, sizeof R);
                memset(R + N * 8, 1, N * 8);   /* 0 / nonzero: quiet */
                memcpy(R + at * es, &x, es);
                memcpy(R + N * 8 + at * es, &y, es);
                uint8_t d[8];
                int n = prof_divrem(PROF_STRICT, it[t], base == BCB_REM, d,
                                    R + at * es, R + N * 8 + at * es);
                bool q = vm_note_quiet(&I, R);
                CHECK(q == (n == 0), "%s %lld, %lld: quiet %d, notes %d",
                      bc_ops[o].name, (long long)x, (long long)y, q, n);
            }
        }
    for (unsigned s = 0; s < 8; s++)
        for (unsigned d = 0; d < 8; d++) {
            const unsigned ss = ty_scalar_size(it[s]);
            vm_ins I = {.note_op = op_of(BCB_CVT, it[d]),
                        .es = (uint8_t)ty_scalar_size(it[d]), .cnt = N,
                        .a = 0, .d = 2 * N * 8,
                        .j = BC_CVT(it[d], it[s], 0, RND_RTE, 0)};
            for (unsigned i = 0; i < NE; i++) {
                memset(R, 0, sizeof R);
                memcpy(R + (i % N) * ss, &edges[i], ss);
                uint8_t out[8];
                int n = prof_cv_scalar(PROF_STRICT, it[d], it[s], out,
                                       R + (i % N) * ss, false, RND_RTE);
                bool q = vm_note_quiet(&I, R);
                CHECK(!q || n == 0, "convert %s of %s 0x%llx: quiet, notes %d",
                      ty_scalar_name(it[d]), ty_scalar_name(it[s]),
                      (unsigned long long)edges[i], n);
                const unsigned ds = ty_scalar_size(it[d]);
                const bool narrows = ty_is_signed(it[d]) &&
                    (ds < ss || (ds == ss && !ty_is_signed(it[s])));
                CHECK(q || n != 0 || !narrows,
                      "convert %s of %s 0x%llx: not quiet, no note",
                      ty_scalar_name(it[d]), ty_scalar_name(it[s]),
                      (unsigned long long)edges[i]);
            }
        }
}

int main(void)
{
    RUN(f2i_sat_rte_matches_stdlib);
    RUN(cvt_int_matches_stdlib);
    RUN(reset_of_conditionally_written);
    RUN(dense_vload_vstore);
    RUN(streamed_stores);
    RUN(quiet_matches_profile);
    return t_summary("vm_fast");
}
