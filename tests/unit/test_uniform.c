/* The row-uniform operand forms (vm_ins.uni, decode.c; EW2 and EW3 of
 * vm/handlers.h) against the plain ones: every elementwise op of two or
 * three sources, on each element type, gives the same bits with its b (and
 * c) a register nothing writes as with a written copy of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "tests/lib/mkmod.h"
#include "tests/lib/test.h"
#include "vm/interp.h"
#include "vm/vm.h"

enum { N = 100, MAXN = 4 };

/* Whether op o is an elementwise op of sources a, b (and c) of its own
 * type (d of its type or a comparison mask; SELECT's c an integer): the
 * ops the uniform forms serve. */
static bool elementwise(unsigned o)
{
    const bc_baseinfo *bi = &bc_bases[bc_ops[o].base];
    if (strcmp(bi->operands, "dab") && strcmp(bi->operands, "dabc"))
        return false;
    if (bi->types[0] != 'T' && bi->types[0] != 'M')
        return false;
    for (const char *t = bi->types + 1; *t; t++)
        if (*t != 'T' && *t != 'K')
            return false;
    return true;
}

/* The type name of n components of op o's element (signed: the signed
 * integer of its size, for comparison masks and SELECT's c). */
static const char *tname(unsigned o, unsigned n, bool sint,
                         char buf[TY_NAME_MAX])
{
    static const enum ty_scalar si[9] = {[1] = TY_CHAR, [2] = TY_SHORT,
                                         [4] = TY_INT, [8] = TY_LONG};
    enum ty_scalar e = (enum ty_scalar)bc_ops[o].elem;
    if (sint)
        e = si[ty_scalar_size(e)];
    return ty_name((ty_t){(uint8_t)e, (uint8_t)n}, buf);
}

/* Kernel: x = vloadn(i, in); d = x; if (i % 3) d = x OP b[, c];
 * vstoren(d, i, out) (n = 1: in[i], out[i]). b and c are constants with a value per component
 * (from kb, kc), or, with bparam, b is the kernel's parameter; with copy,
 * the op reads written copies of them instead (the plain form). */
static bc_module *kernel(unsigned o, unsigned n, bool copy, bool bparam,
                         const uint8_t *kb, const uint8_t *kc)
{
    const bc_baseinfo *bi = &bc_bases[bc_ops[o].base];
    const bool three = strlen(bi->operands) == 4;
    char ta[TY_NAME_MAX], td[TY_NAME_MAX], tc[TY_NAME_MAX], te[TY_NAME_MAX];
    tname(o, n, false, ta);
    tname(o, n, bi->types[0] == 'M', td);
    tname(o, n, three && bi->types[3] == 'K', tc);
    tname(o, 1, false, te);
    const unsigned es = ty_scalar_size((enum ty_scalar)bc_ops[o].elem);
    const enum bc_op mov = es == 1   ? BC_MOV_B8
                           : es == 2 ? BC_MOV_B16
                           : es == 4 ? BC_MOV_B32 : BC_MOV_B64;
    const enum bc_op vld = (enum bc_op)(mov - BC_MOV_B8 + BC_VLOAD_B8),
                     vst = (enum bc_op)(mov - BC_MOV_B8 + BC_VSTORE_B8),
                     ld = (enum bc_op)(mov - BC_MOV_B8 + BC_LD_B8),
                     st = (enum bc_op)(mov - BC_MOV_B8 + BC_ST_B8);
    mk_mod *b = mk_new("uniform.clasm");
    mk_kernel(b, "k");
    uint32_t in = mk_pparam(b, "in", BC_GLOBAL, te),
             out = mk_pparam(b, "out", BC_GLOBAL, te);
    uint32_t rb = bparam ? mk_param(b, "kb", ta) : mk_kbytes(b, ta, kb);
    uint32_t rc = three ? mk_kbytes(b, tc, kc) : 0;
    uint32_t i = mk_val(b, "i", "uint"), t = mk_val(b, "t", "uint"),
             x = mk_val(b, "x", ta), d = mk_val(b, "d", td),
             three_ = mk_ki(b, "uint", 3);
    MK(b, BC_GID_B32, 1, i, 0);
    if (n == 1)
        MK(b, ld, 1, x, in, i);
    else
        MK(b, vld, n, x, i, in);
    MK(b, mov, n, d, x);
    if (copy) {
        uint32_t cb = mk_val(b, "cb", ta);
        MK(b, mov, n, cb, rb);
        rb = cb;
        if (three) {
            uint32_t cc = mk_val(b, "cc", tc);
            MK(b, mov, n, cc, rc);
            rc = cc;
        }
    }
    MK(b, BC_REM_U32, 1, t, i, three_);
    mk_if(b, BC_IF_B32, t);
    if (three)
        MK(b, (enum bc_op)o, n, d, x, rb, rc);
    else
        MK(b, (enum bc_op)o, n, d, x, rb);
    mk_endif(b);
    if (n == 1)
        MK(b, st, 1, out, i, d);
    else
        MK(b, vst, n, d, i, out);
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

/* Runs m over N work-items (warp w, local size l) on in; out gets d. */
static int run(bc_module *m, unsigned w, unsigned l, uint8_t *in,
               uint8_t *out, size_t len, uint8_t *kb, size_t kblen,
               vm_trap *t)
{
    vm_arg args[3] = {{in, len}, {out, len}, {kb, kblen}};
    vm_ndrange nd = {.dims = 1, .global = {N}, .local = {l}, .warp = w,
                     .threads = 1};
    memset(out, 0, len);
    return vm_run(m, 0, args, &nd, t);
}

/* The uni bits the decoder gives m's instruction of op o. */
static unsigned uni_of(bc_module *m, unsigned o, uint8_t *in, uint8_t *out,
                       size_t len, uint8_t *kb, size_t kblen)
{
    vm_arg args[3] = {{in, len}, {out, len}, {kb, kblen}};
    vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N}, .threads = 1};
    vm_range r;
    vm_trap t;
    unsigned u = 0xff;
    if (vm_range_resolve(&nd, &r, &t))
        return u;
    vm_prog *p = vm_prog_new(m, 0, args, &r, &t);
    for (uint32_t k = 0; p && k < p->nins; k++)
        if (p->ins[k].op == o)
            u = p->ins[k].uni;
    vm_prog_free(p);
    return u;
}

/* Every such op, n of 1, 3 and 4 components, full and partial warps of
 * 64 (N = 100: a warp of 64 and one of 36), warps of 16 (the plain loop
 * on uniform registers), groups of 20 run several to a warp, lanes masked
 * off by the if; b a constant or a parameter. */
static void uniform_forms_match_plain(void)
{
    static const unsigned ns[] = {1, 3, 4};
    static const unsigned warps[][2] = {{64, 100}, {16, 100}, {64, 20}};
    unsigned tried = 0;
    for (unsigned o = 0; o < BC_NOPS; o++) {
        if (!elementwise(o))
            continue;
        const unsigned es = ty_scalar_size((enum ty_scalar)bc_ops[o].elem);
        for (unsigned ni = 0; ni < 3; ni++)
            for (unsigned bp = 0; bp < 2; bp++) {
                const unsigned n = ns[ni];
                const size_t len = (size_t)N * n * es;
                uint8_t kb[MAXN * 8], kc[MAXN * 8];
                static uint8_t in[N * MAXN * 8], u[N * MAXN * 8],
                    p[N * MAXN * 8];
                fill(kb, sizeof kb);
                fill(kc, sizeof kc);
                fill(in, len);
                bc_module *mu = kernel(o, n, false, bp, kb, kc),
                          *mp = kernel(o, n, true, bp, kb, kc);
                const size_t kl = n == 3 ? 4 * es : n * es;
                const unsigned want =
                    VM_UNI_B | (strlen(bc_bases[bc_ops[o].base].operands) == 4
                                    ? VM_UNI_C : 0);
                CHECK(uni_of(mu, o, in, u, len, kb, kl) == want &&
                          uni_of(mp, o, in, u, len, kb, kl) == 0,
                      "%s: uni bits %u (plain %u)", bc_ops[o].name,
                      uni_of(mu, o, in, u, len, kb, kl),
                      uni_of(mp, o, in, u, len, kb, kl));
                for (unsigned k = 0; k < 3; k++) {
                    vm_trap t;
                    int ru = run(mu, warps[k][0], warps[k][1], in, u, len,
                                 kb, kl, &t);
                    CHECK(ru == 0, "%s: %s", bc_ops[o].name, t.msg);
                    int rp = run(mp, warps[k][0], warps[k][1], in, p, len,
                                 kb, kl, &t);
                    CHECK(rp == 0, "%s: %s", bc_ops[o].name, t.msg);
                    CHECK(!memcmp(u, p, len), "%s n %u %s, warp %u local "
                          "%u: uniform and plain forms differ",
                          bc_ops[o].name, n, bp ? "param" : "const",
                          warps[k][0], warps[k][1]);
                    tried++;
                }
                bc_free(mu);
                bc_free(mp);
                free(mu);
                free(mp);
            }
    }
    CHECK(tried > 1000, "only %u runs", tried);
}

/* A scalar comparison a branch reads next counts its true lanes for the
 * branch (VM_TALLY, decode.c): loops whose bound differs by lane (some
 * lanes leave, then all) or not, an if on a comparison, lanes masked off
 * by an outer if, a partial warp; W = 64 (counted) and 16 (scanned) give
 * the sums C gives. */
static void tallied_branches(void)
{
    static const char src[] =
        "kernel t(global uint *out, uint lim)\n"
        "    uint i, k, s\n"
        "    i = get_global_id(0)\n"
        "    s = 0\n"
        "    if i % 3 != 0\n"
        "        k = 0\n"
        "        while k < i % 7 + lim\n"
        "            s += k\n"
        "            k += 1\n"
        "        end\n"
        "        k = 0\n"
        "        while k < lim\n"
        "            s += 2\n"
        "            k += 1\n"
        "        end\n"
        "        if s > 20\n"
        "            s += 100\n"
        "        end\n"
        "    end\n"
        "    out[i] = s\n"
        "end\n";
    bc_module m;
    if (asm_assemble(src, strlen(src), "tally.clasm", &m, stderr)) {
        CHECK(0, "assembly failed");
        return;
    }
    static const unsigned warps[] = {64, 16};
    for (uint32_t lim = 0; lim < 6; lim += 3)
        for (unsigned wi = 0; wi < 2; wi++) {
            uint32_t out[N];
            memset(out, 0xcd, sizeof out);
            vm_arg args[2] = {{(uint8_t *)out, sizeof out},
                              {(uint8_t *)&lim, 4}};
            vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N},
                             .warp = warps[wi], .threads = 1};
            vm_trap t;
            CHECK(vm_run(&m, 0, args, &nd, &t) == 0, "%s", t.msg);
            for (uint32_t i = 0; i < N; i++) {
                uint32_t want = 0;
                if (i % 3) {
                    for (uint32_t k = 0; k < i % 7 + lim; k++)
                        want += k;
                    want += 2 * lim;
                    want += want > 20 ? 100 : 0;
                }
                CHECK(out[i] == want, "lim %u warp %u item %u: %u, want %u",
                      lim, warps[wi], i, out[i], want);
            }
        }
    /* the four comparisons before branches are counted */
    uint32_t lim = 3, out[N];
    vm_arg args[2] = {{(uint8_t *)out, sizeof out}, {(uint8_t *)&lim, 4}};
    vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N}, .threads = 1};
    vm_range r;
    vm_trap t;
    unsigned counted = 0;
    if (vm_range_resolve(&nd, &r, &t) == 0) {
        vm_prog *p = vm_prog_new(&m, 0, args, &r, &t);
        for (uint32_t k = 0; p && k < p->nins; k++)
            counted += (p->ins[k].uni & VM_TALLY) != 0;
        vm_prog_free(p);
    }
    CHECK(counted == 4, "%u comparisons counted", counted);
    bc_free(&m);
}

int main(void)
{
    RUN(tallied_branches);
    RUN(uniform_forms_match_plain);
    setenv("CLVM_ISA", "base", 1);
    RUN(uniform_forms_match_plain);
    setenv("CLVM_ISA", "avx512", 1);
    RUN(uniform_forms_match_plain);
    unsetenv("CLVM_ISA");
    return t_summary("uniform");
}
