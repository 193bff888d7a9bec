/* The fused pairs (vm/fuse.h, decode.c fuse, H_FUSED of vm/handlers.h)
 * against the same two ops run apart: every pair, t first or second in its
 * second op, its b and the second op's other operand constants or loaded,
 * t read afterwards or never, every lane running or some masked off, full
 * and partial warps, 1, 4 and 16 components, on every instruction-set
 * level, gives the same bits; and the decoder fuses what it should. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/mkmod.h"
#include "tests/lib/test.h"
#include "vm/interp.h"
#include "vm/vm.h"

enum { N = 100, MAXN = 16 };

static const struct {
    enum bc_op op1, op2;
} pairs[] = {
#define X(N1, S1, N2, S2) {BC_##N1##S1, BC_##N2##S2},
    FUSE_PAIRS(X)
#undef X
};

/* What a case varies (bits). */
enum {
    T_SECOND = 1,   /* d = c OP2 t (integer OP2s only) */
    B_LOADED = 2,   /* the first op's b comes from memory, else a constant */
    C_LOADED = 4,   /* so does the second op's other operand */
    T_READ = 8,     /* t is stored after the pair */
    MASKED = 16,    /* the pair runs in an if that leaves lanes out */
    APART = 32,     /* a MOV between the two ops: the plain reference */
    NCASES = 64
};

/* Kernel: x, y, z from in (y and z, unless loaded, constants); d = x;
 * [if i % 3] t = x OP1 y; d = t OP2 z (or z OP2 t) [end]; out[i] = d;
 * with T_READ, out2[i] = t. */
static bc_module *kernel(unsigned f, unsigned n, unsigned c,
                         const uint8_t *ky, const uint8_t *kz)
{
    const enum ty_scalar el = (enum ty_scalar)bc_ops[pairs[f].op1].elem;
    char tn[TY_NAME_MAX], te[TY_NAME_MAX];
    ty_name((ty_t){(uint8_t)el, (uint8_t)n}, tn);
    ty_name((ty_t){(uint8_t)el, 1}, te);
    mk_mod *b = mk_new("fuse.clasm");
    mk_kernel(b, "k");
    uint32_t in = mk_pparam(b, "in", BC_GLOBAL, te),
             out = mk_pparam(b, "out", BC_GLOBAL, te),
             out2 = mk_pparam(b, "out2", BC_GLOBAL, te);
    uint32_t i = mk_val(b, "i", "uint"), m = mk_val(b, "m", "uint"),
             x = mk_val(b, "x", tn), t = mk_val(b, "t", tn),
             d = mk_val(b, "d", tn), q = mk_val(b, "q", "uint"),
             three = mk_ki(b, "uint", 3), one = mk_ki(b, "uint", 1),
             two = mk_ki(b, "uint", 2);
    uint32_t y = c & B_LOADED ? mk_val(b, "y", tn) : mk_kbytes(b, tn, ky);
    uint32_t z = c & C_LOADED ? mk_val(b, "z", tn) : mk_kbytes(b, tn, kz);
/* vloadn / vstoren, or for n = 1 p[o] */
#define LOAD(r, o, p)                                                       \
    (n == 1 ? MK(b, BC_LD_B32, 1, r, p, o) : MK(b, BC_VLOAD_B32, n, r, o, p))
#define STORE(r, o, p)                                                      \
    (n == 1 ? MK(b, BC_ST_B32, 1, p, o, r) : MK(b, BC_VSTORE_B32, n, r, o, p))
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_MUL_B32, 1, m, i, three);
    LOAD(x, m, in);
    if (c & B_LOADED) {
        MK(b, BC_ADD_B32, 1, q, m, one);
        LOAD(y, q, in);
    }
    if (c & C_LOADED) {
        MK(b, BC_ADD_B32, 1, q, m, two);
        LOAD(z, q, in);
    }
    MK(b, BC_MOV_B32, n, d, x);
    if (c & MASKED) {
        MK(b, BC_REM_U32, 1, q, i, three);
        mk_if(b, BC_IF_B32, q);
    }
    MK(b, pairs[f].op1, n, t, x, y);
    if (c & APART)
        MK(b, BC_MOV_B32, 1, q, i);
    if (c & T_SECOND)
        MK(b, pairs[f].op2, n, d, z, t);
    else
        MK(b, pairs[f].op2, n, d, t, z);
    if (c & MASKED)
        mk_endif(b);
    STORE(d, i, out);
    if (c & T_READ)
        STORE(t, i, out2);
#undef LOAD
#undef STORE
    return mk_finish(b);
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static void fill(uint8_t *p, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        p[k] = (uint8_t)(rng >> 24);
    }
}

/* The fused instructions the decoder makes of m, and their VM_KEEP bits. */
static unsigned fused_in(const bc_module *m, vm_arg *args, unsigned *keep)
{
    vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N}, .threads = 1};
    vm_range r;
    vm_trap t;
    unsigned k = 0;
    *keep = 0;
    if (vm_range_resolve(&nd, &r, &t))
        return 99;
    vm_prog *p = vm_prog_new(m, 0, args, &r, &t);
    for (uint32_t j = 0; p && j < p->nins; j++)
        if (p->ins[j].op >= XOP_FUSE && p->ins[j].op < XOP_COUNT) {
            k++;
            *keep += (p->ins[j].uni & VM_KEEP) != 0;
        }
    vm_prog_free(p);
    return k;
}

static void pairs_match_apart(void)
{
    static const unsigned ns[] = {1, 4, 16};
    static uint8_t in[(N * 3 + 2) * MAXN * 4], o[2][2][N * MAXN * 4];
    unsigned tried = 0;
    for (unsigned f = 0; f < sizeof pairs / sizeof *pairs; f++) {
        const bool flt = ty_is_float((enum ty_scalar)bc_ops[pairs[f].op2].elem);
        for (unsigned ni = 0; ni < 3; ni++)
            for (unsigned c = 0; c < NCASES / 2; c++) {
                if ((c & T_SECOND) && flt)
                    continue;
                const unsigned n = ns[ni];
                const size_t len = (size_t)N * n * 4;
                uint8_t ky[MAXN * 4], kz[MAXN * 4];
                fill(ky, sizeof ky);
                fill(kz, sizeof kz);
                fill(in, sizeof in);
                bc_module *mf = kernel(f, n, c, ky, kz),
                          *ma = kernel(f, n, c | APART, ky, kz);
                for (unsigned v = 0; v < 2; v++) {
                    bc_module *m = v ? ma : mf;
                    vm_arg args[3] = {{in, sizeof in}, {o[v][0], len},
                                      {o[v][1], len}};
                    unsigned keep, k = fused_in(m, args, &keep);
                    CHECK(k == !v && keep == (!v && (c & T_READ)),
                          "%s then %s, case %u%s: %u fused, %u kept",
                          bc_ops[pairs[f].op1].name,
                          bc_ops[pairs[f].op2].name, c, v ? " apart" : "",
                          k, keep);
                    memset(o[v], 0, sizeof o[v]);
                    vm_ndrange nd = {.dims = 1, .global = {N},
                                     .local = {N}, .threads = 1};
                    vm_trap t;
                    CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
                }
                /* a float op of two NaNs gives one of their payloads,
                 * the host compiler's choice of operand order (it may
                 * swap those of + and *), which may differ between the
                 * two ways; any other difference fails */
                unsigned bad = 0;
                for (size_t at = 0; at < sizeof o[0]; at += 4) {
                    uint32_t fu, ap;
                    memcpy(&fu, (const uint8_t *)o[0] + at, 4);
                    memcpy(&ap, (const uint8_t *)o[1] + at, 4);
                    bad += fu != ap && !(flt && (fu & 0x7fffffff) > 0x7f800000 &&
                                         (ap & 0x7fffffff) > 0x7f800000);
                }
                CHECK(!bad, "%s then %s, n %u, case %u: fused and apart "
                      "differ in %u elements", bc_ops[pairs[f].op1].name,
                      bc_ops[pairs[f].op2].name, n, c, bad);
                tried++;
                bc_free(mf);
                bc_free(ma);
                free(mf);
                free(ma);
            }
    }
    CHECK(tried > 2000, "only %u cases", tried);
}

/* Steps count instructions, fused or not: the fewest max_steps that let
 * the kernel finish is one less than with a MOV between the pair's ops; a
 * budget that ends between them (the REPL's single steps) runs the first
 * alone. */
static unsigned fewest_steps(const bc_module *m, vm_arg *args)
{
    for (unsigned s = 1; s < 40; s++) {
        vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N},
                         .threads = 1, .max_steps = s};
        vm_trap t;
        if (vm_run(m, 0, args, &nd, &t) == 0)
            return s;
    }
    return 0;
}

static void steps_count_both(void)
{
    static uint8_t in[(N * 3 + 2) * 4], o[2][N * 4];
    uint8_t ky[4] = {3}, kz[4] = {5};
    fill(in, sizeof in);
    vm_arg args[3] = {{in, sizeof in}, {o[0], sizeof o[0]},
                      {o[1], sizeof o[1]}};
    bc_module *m = kernel(0, 1, 0, ky, kz), *ma = kernel(0, 1, APART, ky, kz);
    unsigned k, sf = fewest_steps(m, args), sa = fewest_steps(ma, args);
    CHECK(fused_in(m, args, &k) == 1 && sf > 0 && sa == sf + 1,
          "steps: fused %u, apart %u", sf, sa);
    bc_free(m);
    bc_free(ma);
    free(m);
    free(ma);
}

int main(void)
{
    RUN(pairs_match_apart);
    RUN(steps_count_both);
    setenv("CLVM_ISA", "base", 1);
    RUN(pairs_match_apart);
    setenv("CLVM_ISA", "avx512", 1);
    RUN(pairs_match_apart);
    unsetenv("CLVM_ISA");
    return t_summary("fuse");
}
