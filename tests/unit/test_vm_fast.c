/* The interpreter's fast paths against the general ones: they must give
 * the same bits on every input they take. */
#include <string.h>

#include "asm/asm.h"
#include "stdlib/convert.h"
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

int main(void)
{
    RUN(f2i_sat_rte_matches_stdlib);
    RUN(reset_of_conditionally_written);
    RUN(dense_vload_vstore);
    return t_summary("vm_fast");
}
