/* The interpreter and the NDRange engine, on modules built by hand
 * (tests/lib/mkmod.h), so that they do not depend on the assembler.
 * Expected values are computed here, by plain C per work-item. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "vm/bcfile.h"
#include "stdlib/half.h"
#include "vm/interp.h"
#include "tests/lib/mkmod.h"
#include "tests/lib/bits.h"
#include "tests/lib/test.h"
#include "vm/vm.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static unsigned lg2(unsigned es) { return es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3; }

/* The _B8.._B64 variant of a TC_BITS opcode. */
static enum bc_op bop(enum bc_op b8, unsigned es) { return (enum bc_op)(b8 + lg2(es)); }

static vm_ndrange nd1(uint64_t g, uint64_t l)
{
    vm_ndrange n;
    memset(&n, 0, sizeof n);
    n.dims = 1;
    n.global[0] = g;
    n.local[0] = l;
    n.threads = 1;
    return n;
}

/* Every hand-built module must pass the verifier, as vm_run assumes. */
static bc_module *verified(bc_module *m)
{
    char err[256];
    CHECK(bc_verify(m, err, sizeof err) == 0, "verifier: %s", err);
    return m;
}

static void freem(bc_module *m)
{
    bc_free(m);
    free(m);
}

static uint8_t *zbuf(size_t n)
{
    uint8_t *p = calloc(n ? n : 1, 1);
    if (!p)
        abort();
    return p;
}

/* ------------------------------------------------------------------ */
/* Elementwise operations: every opcode, several widths, with and      */
/* without divergence                                                  */

/* What base op computes on one element (raw bits of es bytes). */
static uint64_t ref_int(unsigned base, char kind, unsigned bits, unsigned n,
                        uint64_t a, uint64_t b, uint64_t c)
{
    const uint64_t m = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    const uint64_t tv = n == 1 ? 1 : m, sign = 1ull << (bits - 1);
    const bool sg = kind == 'i';
    /* sign-extended copies, as int64 without implementation-defined
     * conversions */
    int64_t sa = (a & sign) ? -(int64_t)(~a & m) - 1 : (int64_t)a;
    int64_t sb = (b & sign) ? -(int64_t)(~b & m) - 1 : (int64_t)b;
    int64_t sc = (c & sign) ? -(int64_t)(~c & m) - 1 : (int64_t)c;
    bool lt = sg ? sa < sb : a < b, gt = sg ? sa > sb : a > b;
    switch (base) {
    case BCB_MOV: return a;
    case BCB_ADD: return (a + b) & m;
    case BCB_SUB: return (a - b) & m;
    case BCB_MUL: return (a * b) & m;
    case BCB_NEG: return (0 - a) & m;
    case BCB_DIV:
        if (b == 0) return 0;
        if (sg && sb == -1) return (0 - a) & m;
        return sg ? (uint64_t)(sa / sb) & m : a / b;
    case BCB_REM:
        if (b == 0) return a;
        if (sg && sb == -1) return 0;
        return sg ? (uint64_t)(sa % sb) & m : a % b;
    case BCB_MIN: return lt ? a : b;
    case BCB_MAX: return gt ? a : b;
    case BCB_CLAMP: {
        uint64_t t = gt ? a : b;
        int64_t st = gt ? sa : sb;
        return (sg ? st < sc : t < c) ? t : c;
    }
    case BCB_ABS: return sg && sa < 0 ? (0 - a) & m : a;
    case BCB_AND: return a & b;
    case BCB_OR: return a | b;
    case BCB_XOR: return a ^ b;
    case BCB_NOT: return ~a & m;
    case BCB_SHL: return (a << (b & (bits - 1))) & m;
    case BCB_SHR: {
        unsigned s = (unsigned)(b & (bits - 1));
        if (sg && sa < 0)
            return ~((~a & m) >> s) & m;
        return a >> s;
    }
    case BCB_EQ: return a == b ? tv : 0;
    case BCB_NE: return a != b ? tv : 0;
    case BCB_LT: return lt ? tv : 0;
    case BCB_LE: return !gt ? tv : 0;
    case BCB_GT: return gt ? tv : 0;
    case BCB_GE: return !lt ? tv : 0;
    case BCB_LNOT: return a == 0 ? tv : 0;
    case BCB_LAND: return a && b ? tv : 0;
    case BCB_LOR: return a || b ? tv : 0;
    case BCB_SELECT:
        return (n == 1 ? c != 0 : (c & sign) != 0) ? b : a;
    }
    return 0xdead;
}

/* A comparison of two floating values (exact as doubles): tv or 0. */
static uint64_t ref_cmp(unsigned base, double x, double y, uint64_t tv)
{
    bool r = base == BCB_EQ ? x == y : base == BCB_NE ? x != y
             : base == BCB_LT ? x < y : base == BCB_LE ? x <= y
             : base == BCB_GT ? x > y : x >= y;
    return r ? tv : 0;
}

static uint64_t ref_f32(unsigned base, unsigned n, uint64_t ua, uint64_t ub,
                        uint64_t uc)
{
    float x = bitsf((uint32_t)ua), y = bitsf((uint32_t)ub),
          z = bitsf((uint32_t)uc), r = 0, p;
    uint64_t tv = n == 1 ? 1 : 0xffffffffu;
    switch (base) {
    case BCB_ADD: r = x + y; break;
    case BCB_SUB: r = x - y; break;
    case BCB_MUL: r = x * y; break;
    case BCB_DIV: r = x / y; break;
    case BCB_NEG: r = -x; break;
    case BCB_MAD: p = x * y; r = p + z; break;
    case BCB_FMA: r = fmaf(x, y, z); break;
    case BCB_MIN: r = fminf(x, y); break;
    case BCB_MAX: r = fmaxf(x, y); break;
    case BCB_CLAMP: r = fminf(fmaxf(x, y), z); break;
    case BCB_FABS: r = fabsf(x); break;
    case BCB_EQ: case BCB_NE: case BCB_LT: case BCB_LE: case BCB_GT:
    case BCB_GE: return ref_cmp(base, x, y, tv);
    }
    return fbits(r);
}

static uint64_t ref_f64(unsigned base, unsigned n, uint64_t ua, uint64_t ub,
                        uint64_t uc)
{
    double x = bitsd(ua), y = bitsd(ub), z = bitsd(uc), r = 0, p;
    uint64_t tv = n == 1 ? 1 : UINT64_MAX;
    switch (base) {
    case BCB_ADD: r = x + y; break;
    case BCB_SUB: r = x - y; break;
    case BCB_MUL: r = x * y; break;
    case BCB_DIV: r = x / y; break;
    case BCB_NEG: r = -x; break;
    case BCB_MAD: p = x * y; r = p + z; break;
    case BCB_FMA: r = fma(x, y, z); break;
    case BCB_MIN: r = fmin(x, y); break;
    case BCB_MAX: r = fmax(x, y); break;
    case BCB_CLAMP: r = fmin(fmax(x, y), z); break;
    case BCB_FABS: r = fabs(x); break;
    case BCB_EQ: case BCB_NE: case BCB_LT: case BCB_LE: case BCB_GT:
    case BCB_GE: return ref_cmp(base, x, y, tv);
    }
    return dbits(r);
}

/* Half: each result from the exact value in double (+ - * are exact
 * there, / rounds twice harmlessly: 53 >= 2 * 11 + 2) rounded once to half
 * (exhaustive_half.c checks stdlib/half.c's own arithmetic against MPFR). */
static uint64_t ref_f16(unsigned base, unsigned n, uint64_t ua, uint64_t ub,
                        uint64_t uc)
{
    uint16_t a = (uint16_t)ua, b = (uint16_t)ub, c = (uint16_t)uc;
    double x = half_to_double(a), y = half_to_double(b), r = 0;
    uint64_t tv = n == 1 ? 1 : 0xffff;
    switch (base) {
    case BCB_ADD: r = x + y; break;
    case BCB_SUB: r = x - y; break;
    case BCB_MUL: r = x * y; break;
    case BCB_DIV: r = x / y; break;
    case BCB_NEG: return a ^ 0x8000u;
    case BCB_FABS: return a & 0x7fffu;
    case BCB_MAD:
        r = half_to_double(half_from_double(x * y, RND_RTE)) +
            half_to_double(c);
        break;
    case BCB_FMA: return half_fma(a, b, c);
    case BCB_MIN: return x <= y || y != y ? a : b;
    case BCB_MAX: return x >= y || y != y ? a : b;
    case BCB_CLAMP: {
        uint16_t m = x >= y || y != y ? a : b;
        double v = half_to_double(m), w = half_to_double(c);
        return v <= w || w != w ? m : c;
    }
    case BCB_EQ: case BCB_NE: case BCB_LT: case BCB_LE: case BCB_GT:
    case BCB_GE: return ref_cmp(base, x, y, tv);
    }
    return half_from_double(r, RND_RTE);
}

/* Raw bits of one element of type s: edge cases often, else random. */
static uint64_t gen(enum ty_scalar s)
{
    unsigned es = ty_scalar_size(s), bits = 8 * es;
    uint64_t m = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    uint64_t r = rnd64();
    if (s == TY_FLOAT) {
        static const float e[] = {0.0f, -0.0f, 1.0f, -1.5f, 3.0f, 1e30f,
                                  -1e-40f, 2.5f};
        if (r % 4 == 0) {
            uint32_t k = (uint32_t)(r >> 8) % (NELEM(e) + 3);
            return k < NELEM(e) ? fbits(e[k])
                   : k == NELEM(e) ? 0x7fc00001u
                   : k == NELEM(e) + 1 ? 0x7f800000u : 0xff800000u;
        }
        return fbits((float)((int32_t)(r >> 40) - (1 << 23)) / 64.0f);
    }
    if (s == TY_DOUBLE) {
        static const double e[] = {0.0, -0.0, 1.0, -1.5, 3.0, 1e300,
                                   -1e-310, 2.5};
        if (r % 4 == 0) {
            uint32_t k = (uint32_t)(r >> 8) % (NELEM(e) + 2);
            return k < NELEM(e) ? dbits(e[k])
                   : k == NELEM(e) ? 0x7ff8000000000001ull
                                   : 0xfff0000000000000ull;
        }
        return dbits((double)((int64_t)(r >> 20) - (1ll << 43)) / 1024.0);
    }
    switch (r % 8) {
    case 0: return 0;
    case 1: return m;                    /* -1 */
    case 2: return 1ull << (bits - 1);   /* MIN */
    case 3: return m >> 1;               /* MAX */
    case 4: return (r >> 8) % 9;         /* small */
    default: return (r >> 3) & m;
    }
}

/* Builds, runs and checks one op on one width. With `masked`, the op only
 * runs for work-items with i % 3 != 0; the others must keep a sentinel. */
static void ew_case(enum bc_op op, unsigned n, bool masked, unsigned warp)
{
    enum { N = 200 };
    unsigned base = bc_ops[op].base;
    enum ty_scalar s = (enum ty_scalar)bc_ops[op].elem;
    unsigned es = ty_scalar_size(s), lanes = n == 3 ? 4 : n;
    const char *ops = bc_bases[base].operands;
    unsigned nin = (unsigned)strlen(ops) - 1;
    bool cmp = strchr("M", bc_bases[base].types[0]) != NULL;
    char tn[TY_NAME_MAX], rn[TY_NAME_MAX];
    ty_name((ty_t){(uint8_t)s, (uint8_t)n}, tn);
    /* comparison results are signed integers of the element's size */
    static const enum ty_scalar sint[9] = {[1] = TY_CHAR, [2] = TY_SHORT,
                                           [4] = TY_INT, [8] = TY_LONG};
    ty_t rt = {(uint8_t)(cmp ? sint[es] : base == BCB_ABS
                                ? (uint8_t)(sint[es] + 1) : (uint8_t)s),
               (uint8_t)n};
    ty_name(rt, rn);

    mk_mod *b = mk_new("ew.clasm");
    mk_kernel(b, "ew");
    uint32_t pa = mk_pparam(b, "a", BC_GLOBAL, tn);
    uint32_t pb = mk_pparam(b, "b", BC_GLOBAL, tn);
    uint32_t pc = mk_pparam(b, "c", BC_GLOBAL, tn);
    uint32_t po = mk_pparam(b, "out", BC_GLOBAL, rn);
    uint32_t i = mk_val(b, "i", "ulong"), x = mk_val(b, "x", tn),
             y = mk_val(b, "y", tn), z = mk_val(b, "z", tn),
             r = mk_val(b, "r", rn), t = mk_val(b, "t", "ulong"),
             c = mk_val(b, "cond", "long");
    uint32_t sent = mk_ki(b, rn, 0x5a5a5a5a5a5a5a5all);
    if (rt.s == TY_FLOAT || rt.s == TY_DOUBLE)
        sent = mk_kf(b, rn, 42.5);
    uint32_t k3 = mk_ki(b, "ulong", 3), k0 = mk_ki(b, "ulong", 0);
    MK(b, BC_GID_B64, 1, i, 0);
    MK(b, bop(BC_LD_B8, es), n, x, pa, i);
    MK(b, bop(BC_LD_B8, es), n, y, pb, i);
    MK(b, bop(BC_LD_B8, es), n, z, pc, i);
    if (masked) {
        MK(b, bop(BC_MOV_B8, es), n, r, sent);
        MK(b, BC_REM_U64, 1, t, i, k3);
        MK(b, BC_NE_U64, 1, c, t, k0);
        mk_if(b, BC_IF_B64, c);
    }
    if (nin == 1)
        MK(b, op, n, r, x);
    else if (nin == 2)
        MK(b, op, n, r, x, y);
    else
        MK(b, op, n, r, x, y, z);
    if (masked)
        mk_endif(b);
    MK(b, bop(BC_ST_B8, es), n, po, i, r);
    bc_module *m = verified(mk_finish(b));

    size_t stride = (size_t)lanes * es;
    uint8_t *A = zbuf(N * stride), *B = zbuf(N * stride),
            *C = zbuf(N * stride), *O = zbuf(N * stride);
    for (size_t e = 0; e < (size_t)N * lanes; e++) {
        put_le(A + e * es, es, gen(s));
        put_le(B + e * es, es, gen(s));
        put_le(C + e * es, es, gen(s));
    }
    memset(O, 0xee, N * stride);
    vm_arg args[4] = {{A, N * stride}, {B, N * stride}, {C, N * stride},
                      {O, N * stride}};
    vm_ndrange nd = nd1(N, 0);
    nd.warp = warp;
    vm_trap trap;
    int rc = vm_run(m, 0, args, &nd, &trap);
    CHECK(rc == 0, "%s n=%u: %s", bc_ops[op].name, n, trap.msg);
    unsigned bad = 0;
    for (unsigned w = 0; w < N && !rc; w++) {
        for (unsigned k = 0; k < lanes; k++) {
            size_t at = w * stride + k * es;
            uint64_t got = get_le(O + at, es), want;
            if (k >= n) {
                want = get_le((const uint8_t[8]){0xee, 0xee, 0xee, 0xee,
                                                 0xee, 0xee, 0xee, 0xee}, es);
            } else if (masked && w % 3 == 0) {
                want = rt.s == TY_FLOAT ? fbits(42.5f)
                       : rt.s == TY_DOUBLE ? dbits(42.5)
                       : 0x5a5a5a5a5a5a5a5aull & (es == 8 ? UINT64_MAX
                                                  : (1ull << 8 * es) - 1);
            } else {
                uint64_t av = get_le(A + at, es), bv = get_le(B + at, es),
                         cv = get_le(C + at, es);
                want = s == TY_FLOAT ? ref_f32(base, n, av, bv, cv)
                       : s == TY_DOUBLE ? ref_f64(base, n, av, bv, cv)
                       : s == TY_HALF ? ref_f16(base, n, av, bv, cv)
                       : ref_int(base, ty_scalar_kind(s), 8 * es, n, av,
                                 bv, cv);
                /* gcc treats fmin/fmax as commutative, so the C library
                 * reference may return either of +0 and -0 */
                if ((base == BCB_MIN || base == BCB_MAX || base == BCB_CLAMP) &&
                    ((want | got) << (s == TY_DOUBLE ? 1 : 33)) == 0)
                    want = got;
                /* NaN is NaN: payloads are not what these ops promise */
                if (s == TY_FLOAT && !cmp && isnan(bitsf((uint32_t)want)) &&
                    isnan(bitsf((uint32_t)got)))
                    want = got;
                if (s == TY_DOUBLE && !cmp && isnan(bitsd(want)) &&
                    isnan(bitsd(got)))
                    want = got;
                if (s == TY_HALF && !cmp && (want & 0x7fff) > 0x7c00 &&
                    (got & 0x7fff) > 0x7c00)
                    want = got;
            }
            if (got != want && bad++ < 3)
                CHECK(0, "%s n=%u%s w=%u item %u lane %u: got %llx want %llx"
                      " (a %llx b %llx c %llx)", bc_ops[op].name, n,
                      masked ? " masked" : "", warp, w, k,
                      (unsigned long long)got, (unsigned long long)want,
                      (unsigned long long)get_le(A + at, es),
                      (unsigned long long)get_le(B + at, es),
                      (unsigned long long)get_le(C + at, es));
        }
    }
    free(A), free(B), free(C), free(O);
    freem(m);
}

static void elementwise_ops(void)
{
    static const unsigned bases[] = {
        BCB_MOV, BCB_ADD, BCB_SUB, BCB_MUL, BCB_DIV, BCB_REM, BCB_NEG,
        BCB_MAD, BCB_FMA, BCB_MIN, BCB_MAX, BCB_CLAMP, BCB_ABS, BCB_FABS,
        BCB_AND, BCB_OR, BCB_XOR, BCB_NOT, BCB_SHL, BCB_SHR, BCB_EQ, BCB_NE,
        BCB_LT, BCB_LE, BCB_GT, BCB_GE, BCB_LNOT, BCB_LAND, BCB_LOR,
        BCB_SELECT};
    static const unsigned widths[] = {1, 3, 4, 16};
    unsigned cases = 0;
    for (unsigned op = 0; op < BC_NOPS; op++) {
        bool want = false;
        for (size_t k = 0; k < NELEM(bases); k++)
            want |= bc_ops[op].base == bases[k];
        if (!want)
            continue;
        for (size_t k = 0; k < NELEM(widths); k++) {
            ew_case((enum bc_op)op, widths[k], false, 0);
            ew_case((enum bc_op)op, widths[k], true, 0);
            cases += 2;
        }
        /* odd warp widths: rows that are not a multiple of the vector */
        ew_case((enum bc_op)op, 2, true, 7);
        ew_case((enum bc_op)op, 8, false, 1);
    }
    CHECK(cases > 1000, "only %u cases", cases);
}

/* ------------------------------------------------------------------ */
/* Data movement, conversions, reinterpretation                        */

/* out[i] = f(in[i]) for one-register-in, one-out kernels built by fn. */
typedef void (*body_fn)(mk_mod *b, uint32_t d, uint32_t a);

static int run_unary(const char *tin, const char *tout, body_fn body,
                     const void *in, size_t insize, void *out,
                     size_t outsize, unsigned n_items, unsigned warp,
                     bool masked)
{
    ty_t ti = mk_type(tin), to = mk_type(tout);
    mk_mod *b = mk_new("u.clasm");
    mk_kernel(b, "u");
    uint32_t pi = mk_pparam(b, "in", BC_GLOBAL, tin);
    uint32_t po = mk_pparam(b, "out", BC_GLOBAL, tout);
    uint32_t i = mk_val(b, "i", "uint"), x = mk_val(b, "x", tin),
             r = mk_val(b, "r", tout), c = mk_val(b, "c", "int"),
             one = mk_ki(b, "uint", 1);
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, bop(BC_LD_B8, ty_scalar_size(ti.s)), ti.n, x, pi, i);
    MK(b, bop(BC_LD_B8, ty_scalar_size(to.s)), to.n, r, po, i);
    if (masked) {
        MK(b, BC_AND_B32, 1, c, i, one);
        mk_if(b, BC_IF_B32, c);
    }
    body(b, r, x);
    if (masked)
        mk_endif(b);
    MK(b, bop(BC_ST_B8, ty_scalar_size(to.s)), to.n, po, i, r);
    bc_module *m = verified(mk_finish(b));
    vm_arg args[2] = {{(uint8_t *)in, insize}, {out, outsize}};
    vm_ndrange nd = nd1(n_items, 0);
    nd.warp = warp;
    vm_trap t;
    int rc = vm_run(m, 0, args, &nd, &t);
    if (rc)
        fprintf(stderr, "%s\n", t.msg);
    freem(m);
    return rc;
}

static void body_swz(mk_mod *b, uint32_t d, uint32_t a)
{
    /* d = a.s3021 (d: uint4, a: uint4) */
    MK(b, BC_SWZ_B32, 4, d, a, 0x1203ull);
}

static void body_sww(mk_mod *b, uint32_t d, uint32_t a)
{
    /* d.s31 = a.s02 via a temporary: t = a.s02; d.s31 = t */
    uint32_t t = mk_val(b, "t", "ushort2");
    MK(b, BC_SWZ_B16, 2, t, a, 0x20ull);
    MK(b, BC_SWW_B16, 2, d, t, 0x13ull);
}

static void body_swz_inplace(mk_mod *b, uint32_t d, uint32_t a)
{
    MK(b, BC_MOV_B64, 4, d, a);
    MK(b, BC_SWZ_B64, 4, d, d, 0x0123ull); /* d = d.wzyx */
}

static void body_splat(mk_mod *b, uint32_t d, uint32_t a)
{
    MK(b, BC_SPLAT_B8, 16, d, a);
}

static void data_movement(void)
{
    enum { N = 70 };
    uint32_t in[N * 4], out[N * 4];
    for (unsigned k = 0; k < N * 4; k++)
        in[k] = (uint32_t)rnd64();
    for (int masked = 0; masked < 2; masked++) {
        memset(out, 0x11, sizeof out);
        CHECK(run_unary("uint4", "uint4", body_swz, in, sizeof in, out,
                        sizeof out, N, 0, masked) == 0, "swz");
        for (unsigned i = 0; i < N; i++) {
            static const unsigned sel[4] = {3, 0, 2, 1};
            for (unsigned k = 0; k < 4; k++) {
                uint32_t want = masked && !(i & 1) ? 0x11111111u
                                                   : in[4 * i + sel[k]];
                CHECK(out[4 * i + k] == want, "swz %u.%u", i, k);
            }
        }
    }
    /* SWW on ushort4: d.s3 = a.s0, d.s1 = a.s2, d.s0/s2 kept */
    uint16_t hin[N * 4], hout[N * 4];
    for (unsigned k = 0; k < N * 4; k++)
        hin[k] = (uint16_t)rnd64(), hout[k] = (uint16_t)(k * 7);
    uint16_t orig[N * 4];
    memcpy(orig, hout, sizeof hout);
    CHECK(run_unary("ushort4", "ushort4", body_sww, hin, sizeof hin, hout,
                    sizeof hout, N, 0, true) == 0, "sww");
    for (unsigned i = 0; i < N; i++) {
        uint16_t want[4] = {orig[4 * i], orig[4 * i + 1], orig[4 * i + 2],
                            orig[4 * i + 3]};
        if (i & 1)
            want[3] = hin[4 * i], want[1] = hin[4 * i + 2];
        CHECK(memcmp(hout + 4 * i, want, 8) == 0, "sww %u", i);
    }
    /* SWZ in place on ulong4 */
    uint64_t lin[N * 4], lout[N * 4];
    for (unsigned k = 0; k < N * 4; k++)
        lin[k] = rnd64();
    CHECK(run_unary("ulong4", "ulong4", body_swz_inplace, lin, sizeof lin,
                    lout, sizeof lout, N, 0, false) == 0, "swz in place");
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < 4; k++)
            CHECK(lout[4 * i + k] == lin[4 * i + 3 - k], "wzyx %u", i);
    /* SPLAT uchar -> uchar16 */
    uint8_t cin[N], cout[N * 16];
    for (unsigned k = 0; k < N; k++)
        cin[k] = (uint8_t)rnd64();
    memset(cout, 0, sizeof cout);
    CHECK(run_unary("uchar", "uchar16", body_splat, cin, sizeof cin, cout,
                    sizeof cout, N, 5, true) == 0, "splat");
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < 16; k++)
            CHECK(cout[16 * i + k] == ((i & 1) ? cin[i] : 0), "splat %u", i);
}

/* CVT through the VM against stdlib's cv_scalar. */
static enum ty_scalar cvt_dst, cvt_src;
static bool cvt_sat;
static enum rnd cvt_rnd;
static unsigned cvt_n;
static void body_cvt(mk_mod *b, uint32_t d, uint32_t a)
{
    MK(b, BC_CVT, cvt_n, d, a, BC_CVT(cvt_dst, cvt_src, cvt_sat, cvt_rnd, 1));
}

static void body_cvt_inplace(mk_mod *b, uint32_t d, uint32_t a)
{
    MK(b, BC_MOV_B32, cvt_n, d, a);
    MK(b, BC_CVT, cvt_n, d, d, BC_CVT(TY_FLOAT, TY_FLOAT, 0, RND_RTE, 0));
}

static void conversions(void)
{
    static const struct {
        enum ty_scalar dst, src;
        bool sat;
        enum rnd r;
        unsigned n;
    } cases[] = {
        {TY_INT, TY_FLOAT, true, RND_RTE, 4},
        {TY_FLOAT, TY_UINT, false, RND_RTE, 4},
        {TY_UCHAR, TY_DOUBLE, true, RND_RTN, 16},
        {TY_SHORT, TY_INT, false, RND_RTZ, 3},
        {TY_HALF, TY_FLOAT, false, RND_RTP, 8},
        {TY_LONG, TY_FLOAT, false, RND_RTZ, 2},
        {TY_DOUBLE, TY_CHAR, false, RND_RTE, 1},
    };
    enum { N = 100 };
    for (size_t c = 0; c < NELEM(cases); c++) {
        cvt_dst = cases[c].dst, cvt_src = cases[c].src;
        cvt_sat = cases[c].sat, cvt_rnd = cases[c].r, cvt_n = cases[c].n;
        ty_t ti = {(uint8_t)cvt_src, (uint8_t)cvt_n},
             to = {(uint8_t)cvt_dst, (uint8_t)cvt_n};
        char tin[TY_NAME_MAX], tout[TY_NAME_MAX];
        ty_name(ti, tin), ty_name(to, tout);
        size_t isz = ty_sizeof(ti), osz = ty_sizeof(to);
        unsigned ies = ty_scalar_size(cvt_src), oes = ty_scalar_size(cvt_dst);
        uint8_t *in = zbuf(N * isz), *out = zbuf(N * osz);
        for (size_t e = 0; e < N * isz / ies; e++)
            put_le(in + e * ies, ies, gen(cvt_src));
        memset(out, 0x33, N * osz);
        for (int masked = 0; masked < 2; masked++) {
            CHECK(run_unary(tin, tout, body_cvt, in, N * isz, out, N * osz,
                            N, 0, masked) == 0, "cvt %s(%s)", tout, tin);
            for (unsigned i = 0; i < N; i++)
                for (unsigned k = 0; k < cvt_n; k++) {
                    uint8_t want[8] = {0x33, 0x33, 0x33, 0x33,
                                       0x33, 0x33, 0x33, 0x33};
                    if (!masked || (i & 1))
                        cv_scalar(cvt_dst, cvt_src, want,
                                  in + i * isz + k * ies, cvt_sat, cvt_rnd);
                    CHECK(get_le(out + i * osz + k * oes, oes) ==
                              get_le(want, oes),
                          "cvt %s(%s) item %u lane %u", tout, tin, i, k);
                }
            memset(out, 0x33, N * osz);
        }
        free(in), free(out);
    }
    /* a conversion whose source is its destination */
    float fin[N * 4], fout[N * 4];
    for (unsigned k = 0; k < N * 4; k++)
        fin[k] = (float)k * 0.5f;
    cvt_n = 4;
    CHECK(run_unary("float4", "float4", body_cvt_inplace, fin, sizeof fin,
                    fout, sizeof fout, N, 0, false) == 0, "cvt in place");
    CHECK(memcmp(fin, fout, sizeof fin) == 0, "cvt in place");
}

static void body_as_repack(mk_mod *b, uint32_t d, uint32_t a)
{
    MK(b, BC_AS, 8, d, a); /* ushort8 = as_ushort8(float4) */
}

static void body_as_3to4(mk_mod *b, uint32_t d, uint32_t a)
{
    MK(b, BC_AS, 4, d, a); /* uchar4 = as_uchar4(uint) */
}

static void reinterpretation(void)
{
    enum { N = 90 };
    float in[N * 4];
    uint16_t out[N * 8];
    for (unsigned k = 0; k < N * 4; k++)
        in[k] = bitsf((uint32_t)rnd64());
    memset(out, 0x44, sizeof out);
    CHECK(run_unary("float4", "ushort8", body_as_repack, in, sizeof in, out,
                    sizeof out, N, 0, true) == 0, "as_ushort8");
    for (unsigned i = 0; i < N; i++) {
        uint8_t want[16];
        if (i & 1)
            memcpy(want, in + 4 * i, 16);   /* memory order: same bytes */
        else
            memset(want, 0x44, 16);
        CHECK(memcmp(out + 8 * i, want, 16) == 0, "as_ushort8 %u", i);
    }
    uint32_t uin[N];
    uint8_t cout[N * 4];
    for (unsigned k = 0; k < N; k++)
        uin[k] = (uint32_t)rnd64();
    CHECK(run_unary("uint", "uchar4", body_as_3to4, uin, sizeof uin, cout,
                    sizeof cout, N, 3, false) == 0, "as_uchar4");
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < 4; k++)
            CHECK(cout[4 * i + k] == (uint8_t)(uin[i] >> 8 * k),
                  "as_uchar4 %u", i);
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */

static void memory_forms(void)
{
    /* vload3/vstore3 (stride 3 elements), LD/ST of float3 (stride 16),
     * PADD with a negative index, vload_half/vstorea_half */
    enum { N = 40 };
    mk_mod *b = mk_new("mem.clasm");
    mk_kernel(b, "mem");
    uint32_t px = mk_pparam(b, "x", BC_GLOBAL, "float");
    uint32_t pv = mk_pparam(b, "v", BC_GLOBAL, "float3");
    uint32_t ph = mk_pparam(b, "h", BC_GLOBAL, "half");
    uint32_t pout = mk_pparam(b, "out", BC_GLOBAL, "float");
    uint32_t pv2 = mk_pparam(b, "v2", BC_GLOBAL, "float3");
    uint32_t ph2 = mk_pparam(b, "h2", BC_GLOBAL, "half");
    uint32_t i = mk_val(b, "i", "int"), f3 = mk_val(b, "f3", "float3"),
             g3 = mk_val(b, "g3", "float3"), s = mk_val(b, "s", "float"),
             h4 = mk_val(b, "h4", "float4"), m1 = mk_ki(b, "int", -1),
             k4 = mk_ki(b, "long", 4), q = mk_ptr(b, "q", BC_GLOBAL, "float"),
             i1 = mk_val(b, "i1", "int"), one = mk_ki(b, "int", 1);
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_VLOAD_B32, 3, f3, i, px);          /* f3 = vload3(i, x) */
    MK(b, BC_LD_B32, 3, g3, pv, i);             /* g3 = v[i] */
    MK(b, BC_ADD_F32, 3, f3, f3, g3);
    MK(b, BC_VSTORE_B32, 3, f3, i, pout);       /* vstore3(f3, i, out) */
    MK(b, BC_ST_B32, 3, pv2, i, g3);            /* v2[i] = g3 */
    MK(b, BC_ADD_B32, 1, i1, i, one);
    MK(b, BC_PADD, 1, q, px, k4);               /* q = x + 4 */
    MK(b, BC_LD_B32, 1, s, q, m1);              /* s = q[-1] == x[3] */
    MK(b, BC_ST_B32, 1, pout, i, s);            /* out[i] = s (overwrites
                                                   out[3i].. first lane) */
    MKF(b, BC_VLDH, 4, 0, h4, i, ph);           /* h4 = vload_half4(i, h) */
    MKF(b, BC_VSTH_F32, 4, BC_F_ALIGNED | RND_RTZ << BC_F_RND_SHIFT, h4, i1,
        ph2);                                   /* vstorea_half4_rtz */
    bc_module *m = verified(mk_finish(b));

    float x[N * 3], v[N * 4], out[N * 3], v2[N * 4];
    uint16_t h[N * 4], h2[(N + 1) * 4];
    for (unsigned k = 0; k < N * 3; k++)
        x[k] = (float)k + 0.25f;
    for (unsigned k = 0; k < N * 4; k++)
        v[k] = (float)k * -2.0f, h[k] = half_from_float((float)k / 3.0f,
                                                          RND_RTE);
    memset(out, 0, sizeof out);
    memset(v2, 0x55, sizeof v2);
    memset(h2, 0x66, sizeof h2);
    vm_arg args[] = {{(uint8_t *)x, sizeof x}, {(uint8_t *)v, sizeof v},
                     {(uint8_t *)h, sizeof h}, {(uint8_t *)out, sizeof out},
                     {(uint8_t *)v2, sizeof v2}, {(uint8_t *)h2, sizeof h2}};
    vm_ndrange nd = nd1(N, 0);
    vm_trap t;
    CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
    for (unsigned w = 0; w < N; w++) {
        uint32_t pad;
        memcpy(&pad, &v2[4 * w + 3], 4);
        CHECK(memcmp(&v2[4 * w], &v[4 * w], 12) == 0 && pad == 0x55555555u,
              "v2[%u]", w);
        for (unsigned k = 0; k < 4; k++) {
            float hv = half_to_float(h[4 * w + k]);
            CHECK(h2[4 * (w + 1) + k] == half_from_float(hv, RND_RTZ),
                  "vstorea_half4 %u", w);
        }
    }
    CHECK(h2[0] == 0x6666 && h2[3] == 0x6666, "h2 head untouched");
    /* out: vstore3 of item w covers out[3w..3w+2]; then out[w] = x[3]
     * for every item, stores in instruction order. */
    for (unsigned e = 0; e < N * 3; e++) {
        float want = e < N ? x[3] : x[e] + v[4 * (e / 3) + e % 3];
        CHECK(out[e] == want, "out[%u] = %g, want %g", e, out[e], want);
    }
    freem(m);
}

/* ------------------------------------------------------------------ */
/* Work-item functions                                                 */

static void work_item_functions(void)
{
    /* 3-D range with offsets; every function, every dimension, as uint
     * and ulong */
    static const enum bc_op f32[] = {BC_GID_B32, BC_LID_B32, BC_GRP_B32,
                                     BC_GSZ_B32, BC_LSZ_B32, BC_NGRP_B32,
                                     BC_GOFF_B32};
    enum { NF = 7, PER = NF * 3 + 2 };
    mk_mod *b = mk_new("wi.clasm");
    mk_kernel(b, "wi");
    uint32_t po = mk_pparam(b, "out", BC_GLOBAL, "ulong");
    uint32_t g[3], lin = mk_val(b, "lin", "ulong"), t = mk_val(b, "t", "ulong"),
             v = mk_val(b, "v", "ulong"), u = mk_val(b, "u", "uint"),
             at = mk_val(b, "at", "ulong"), kper = mk_ki(b, "ulong", PER),
             sz0 = mk_val(b, "sz0", "ulong"), sz1 = mk_val(b, "sz1", "ulong"),
             off = mk_val(b, "off", "ulong"), one = mk_ki(b, "ulong", 1);
    for (int d = 0; d < 3; d++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", d);
        g[d] = mk_val(b, name, "ulong");
    }
    /* lin = ((g2 - o2) * gs1 + (g1 - o1)) * gs0 + (g0 - o0) */
    for (int d = 0; d < 3; d++) {
        MK(b, BC_GID_B64, 1, g[d], d);
        MK(b, BC_GOFF_B64, 1, off, d);
        MK(b, BC_SUB_B64, 1, g[d], g[d], off);
    }
    MK(b, BC_GSZ_B64, 1, sz0, 0);
    MK(b, BC_GSZ_B64, 1, sz1, 1);
    MK(b, BC_MUL_B64, 1, lin, g[2], sz1);
    MK(b, BC_ADD_B64, 1, lin, lin, g[1]);
    MK(b, BC_MUL_B64, 1, lin, lin, sz0);
    MK(b, BC_ADD_B64, 1, lin, lin, g[0]);
    MK(b, BC_MUL_B64, 1, at, lin, kper);
    for (int f = 0; f < NF; f++)
        for (int d = 0; d < 3; d++) {
            if (f % 2) {
                /* the uint form, widened back with a conversion */
                MK(b, f32[f], 1, u, d);
                MK(b, BC_CVT, 1, v, u, BC_CVT(TY_ULONG, TY_UINT, 0, RND_RTZ, 0));
            } else {
                MK(b, (enum bc_op)(f32[f] + 1), 1, v, d);
            }
            MK(b, BC_ST_B64, 1, po, at, v);
            MK(b, BC_ADD_B64, 1, at, at, one);
        }
    MK(b, BC_WDIM_B64, 1, v);
    MK(b, BC_ST_B64, 1, po, at, v);
    MK(b, BC_ADD_B64, 1, at, at, one);
    MK(b, BC_WDIM_B32, 1, u);
    MK(b, BC_CVT, 1, t, u, BC_CVT(TY_ULONG, TY_UINT, 0, RND_RTZ, 0));
    MK(b, BC_ST_B64, 1, po, at, t);
    bc_module *m = verified(mk_finish(b));

    static const unsigned warps[] = {64, 4, 7, 1};
    for (size_t wi = 0; wi < NELEM(warps); wi++) {
        vm_ndrange nd;
        memset(&nd, 0, sizeof nd);
        nd.dims = 3;
        uint64_t G[3] = {6, 4, 10}, L[3] = {3, 2, 5}, O[3] = {10, 20, 30};
        memcpy(nd.global, G, sizeof G);
        memcpy(nd.local, L, sizeof L);
        memcpy(nd.offset, O, sizeof O);
        nd.warp = warps[wi];
        nd.threads = wi == 2 ? 3 : 1;
        size_t nitems = 6 * 4 * 10;
        uint64_t *out = calloc(nitems * PER, 8);
        vm_arg args[1] = {{(uint8_t *)out, nitems * PER * 8}};
        vm_trap tr;
        CHECK(vm_run(m, 0, args, &nd, &tr) == 0, "%s", tr.msg);
        for (uint64_t z = 0; z < G[2]; z++)
            for (uint64_t y = 0; y < G[1]; y++)
                for (uint64_t x = 0; x < G[0]; x++) {
                    uint64_t id[3] = {x, y, z};
                    const uint64_t *o = out + ((z * G[1] + y) * G[0] + x) * PER;
                    for (int d = 0; d < 3; d++) {
                        uint64_t want[NF] = {id[d] + O[d], id[d] % L[d],
                                             id[d] / L[d], G[d], L[d],
                                             G[d] / L[d], O[d]};
                        for (int f = 0; f < NF; f++)
                            CHECK(o[f * 3 + d] == want[f],
                                  "warp %u item (%llu,%llu,%llu) fn %d dim %d:"
                                  " %llu want %llu", warps[wi],
                                  (unsigned long long)x, (unsigned long long)y,
                                  (unsigned long long)z, f, d,
                                  (unsigned long long)o[f * 3 + d],
                                  (unsigned long long)want[f]);
                    }
                    CHECK(o[NF * 3] == 3 && o[NF * 3 + 1] == 3,
                          "work dim %llu %llu", (unsigned long long)o[NF * 3],
                          (unsigned long long)o[NF * 3 + 1]);
                }
        free(out);
    }
    freem(m);
}

/* ------------------------------------------------------------------ */
/* Control flow                                                        */

static uint32_t cf_ref(uint32_t i)
{
    uint32_t acc = 0, k = 0;
    for (;;) {
        k++;
        if (k > i % 7 + 3)
            break;
        if (k % 2 == 0) {
            if (i % 5 == 0)
                continue;
            acc += k * 2;
        } else {
            acc += 1;
        }
        if (i % 11 == 3 && k == 4)
            return acc + 1000;
        for (uint32_t j = 0;;) {
            j++;
            if (!(j < k))
                break;
            if (j == i % 3)
                continue;
            acc += j;
        }
    }
    return acc;
}

static bc_module *cf_module(void)
{
    mk_mod *b = mk_new("cf.clasm");
    mk_kernel(b, "cf");
    uint32_t po = mk_pparam(b, "out", BC_GLOBAL, "uint");
    uint32_t i = mk_val(b, "i", "uint"), acc = mk_val(b, "acc", "uint"),
             k = mk_val(b, "k", "uint"), j = mk_val(b, "j", "uint"),
             t = mk_val(b, "t", "uint"), c = mk_val(b, "c", "int"),
             c2 = mk_val(b, "c2", "int"), r = mk_val(b, "r", "uint");
    uint32_t k0 = mk_ki(b, "uint", 0), k1 = mk_ki(b, "uint", 1),
             k2 = mk_ki(b, "uint", 2), k3 = mk_ki(b, "uint", 3),
             k4 = mk_ki(b, "uint", 4), k5 = mk_ki(b, "uint", 5),
             k7 = mk_ki(b, "uint", 7), k11 = mk_ki(b, "uint", 11),
             k1000 = mk_ki(b, "uint", 1000);
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_MOV_B32, 1, acc, k0);
    MK(b, BC_MOV_B32, 1, k, k0);
    mk_loop(b);
    {
        MK(b, BC_ADD_B32, 1, k, k, k1);
        MK(b, BC_REM_U32, 1, t, i, k7);
        MK(b, BC_ADD_B32, 1, t, t, k3);
        MK(b, BC_GT_U32, 1, c, k, t);
        mk_if(b, BC_IF_B32, c);
        MK0(b, BC_BREAK);
        mk_endif(b);
        MK(b, BC_REM_U32, 1, t, k, k2);
        MK(b, BC_EQ_U32, 1, c, t, k0);
        mk_if(b, BC_IF_B32, c);
        {
            MK(b, BC_REM_U32, 1, t, i, k5);
            MK(b, BC_EQ_U32, 1, c2, t, k0);
            mk_if(b, BC_IF_B32, c2);
            MK0(b, BC_CONT);
            mk_endif(b);
            MK(b, BC_MUL_B32, 1, t, k, k2);
            MK(b, BC_ADD_B32, 1, acc, acc, t);
        }
        mk_else(b);
        MK(b, BC_ADD_B32, 1, acc, acc, k1);
        mk_endif(b);
        MK(b, BC_REM_U32, 1, t, i, k11);
        MK(b, BC_EQ_U32, 1, c, t, k3);
        MK(b, BC_EQ_U32, 1, c2, k, k4);
        MK(b, BC_LAND_I32, 1, c, c, c2);
        mk_if(b, BC_IF_B32, c);
        MK(b, BC_ADD_B32, 1, r, acc, k1000);
        MK(b, BC_ST_B32, 1, po, i, r);
        MK0(b, BC_RET);
        mk_endif(b);
        MK(b, BC_MOV_B32, 1, j, k0);
        mk_loop(b);
        {
            MK(b, BC_ADD_B32, 1, j, j, k1);
            MK(b, BC_LT_U32, 1, c, j, k);
            mk_brkif(b, BC_BRKIF_B32, c, 1); /* break unless j < k */
            MK(b, BC_REM_U32, 1, t, i, k3);
            MK(b, BC_EQ_U32, 1, c, j, t);
            mk_if(b, BC_IF_B32, c);
            MK0(b, BC_CONT);
            mk_endif(b);
            MK(b, BC_ADD_B32, 1, acc, acc, j);
        }
        mk_endloop(b);
    }
    mk_endloop(b);
    MK(b, BC_ST_B32, 1, po, i, acc);
    return verified(mk_finish(b));
}

static void control_flow(void)
{
    enum { N = 300 };
    bc_module *m = cf_module();
    static const unsigned warps[] = {64, 1, 7, 32};
    for (size_t w = 0; w < NELEM(warps); w++) {
        uint32_t out[N];
        memset(out, 0xff, sizeof out);
        vm_arg args[1] = {{(uint8_t *)out, sizeof out}};
        vm_ndrange nd = nd1(N, w == 3 ? 100 : 0);
        nd.warp = warps[w];
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
        for (uint32_t i = 0; i < N; i++)
            CHECK(out[i] == cf_ref(i), "warp %u item %u: %u want %u",
                  warps[w], i, out[i], cf_ref(i));
    }
    freem(m);

    /* returned lanes never rejoin; ELSE with every lane or no lane;
     * plain BRKIF; IF whose condition is uniformly false */
    mk_mod *b = mk_new("ret.clasm");
    mk_kernel(b, "ret");
    uint32_t po = mk_pparam(b, "out", BC_GLOBAL, "uint");
    uint32_t i = mk_val(b, "i", "uint"), c = mk_val(b, "c", "int"),
             s = mk_val(b, "s", "uint"), n = mk_val(b, "n", "uint"),
             k0 = mk_ki(b, "uint", 0), k1 = mk_ki(b, "uint", 1),
             k3 = mk_ki(b, "uint", 3), k100 = mk_ki(b, "uint", 100),
             k500 = mk_ki(b, "uint", 500);
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_MOV_B32, 1, s, k0);
    MK(b, BC_MOV_B32, 1, n, k0);
    mk_loop(b); /* s = 0 + 1 + ... + i */
    MK(b, BC_GT_U32, 1, c, n, i);
    mk_brkif(b, BC_BRKIF_B32, c, 0);
    MK(b, BC_ADD_B32, 1, s, s, n);
    MK(b, BC_ADD_B32, 1, n, n, k1);
    mk_endloop(b);
    MK(b, BC_GT_U32, 1, c, i, k500);   /* never */
    mk_if(b, BC_IF_B32, c);
    MK(b, BC_MOV_B32, 1, s, k100);
    mk_else(b);
    MK(b, BC_ADD_B32, 1, s, s, k1);    /* always */
    mk_endif(b);
    MK(b, BC_LT_U32, 1, c, i, k500);   /* always */
    mk_if(b, BC_IF_B32, c);
    MK(b, BC_ADD_B32, 1, s, s, k1);
    mk_else(b);
    MK(b, BC_MOV_B32, 1, s, k100);     /* never */
    mk_endif(b);
    MK(b, BC_REM_U32, 1, n, i, k3);
    MK(b, BC_EQ_U32, 1, c, n, k1);
    mk_if(b, BC_IF_B32, c);
    MK0(b, BC_RET);
    mk_endif(b);
    MK(b, BC_ST_B32, 1, po, i, s);
    m = verified(mk_finish(b));
    uint32_t out[130];
    memset(out, 0xff, sizeof out);
    vm_arg args[1] = {{(uint8_t *)out, sizeof out}};
    vm_ndrange nd = nd1(130, 65);
    vm_trap t;
    CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
    for (uint32_t k = 0; k < 130; k++)
        CHECK(out[k] == (k % 3 == 1 ? 0xffffffffu : k * (k + 1) / 2 + 2),
              "ret item %u: %u", k, out[k]);
    freem(m);
}

/* Through the internal API, as the REPL will: a uniformly false IF costs
 * two instructions, a warp can be stepped and its registers read. */
static void stepping(void)
{
    mk_mod *b = mk_new("step.clasm");
    mk_kernel(b, "step");
    uint32_t i = mk_val(b, "i", "uint"), c = mk_val(b, "c", "int"),
             k9 = mk_ki(b, "uint", 999);
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_GT_U32, 1, c, i, k9);
    mk_if(b, BC_IF_B32, c);
    for (int k = 0; k < 50; k++)
        MK(b, BC_ADD_B32, 1, i, i, i);
    mk_endif(b);
    MK(b, BC_ADD_B32, 1, i, i, i);
    bc_module *m = verified(mk_finish(b));
    vm_ndrange nd = nd1(64, 0);
    vm_range r;
    vm_trap t;
    CHECK(vm_range_resolve(&nd, &r, &t) == 0, "%s", t.msg);
    vm_prog *p = vm_prog_new(m, 0, NULL, &r, &t);
    CHECK(p != NULL, "%s", t.msg);
    vm_group *g = p ? vm_group_new(p) : NULL;
    if (g) {
        vm_group_start(g, 0);
        vm_warp *w = &g->w[0];
        vm_warp_start(w, 0);
        CHECK(vm_warp_run(w, 1) == VM_STOP_BUDGET && vm_warp_pc(w) == 3,
              "one step");
        const uint32_t *ri = vm_warp_reg(w, i);
        CHECK(ri[0] == 0 && ri[63] == 63, "registers after GID");
        CHECK(vm_warp_run(w, 1000) == VM_STOP_DONE, "done");
        CHECK(w->steps == 5, "steps %llu", (unsigned long long)w->steps);
        CHECK(ri[5] == 10, "i doubled");
        vm_group_free(g);
    }
    vm_prog_free(p);
    freem(m);
}

/* ------------------------------------------------------------------ */
/* Barriers                                                            */

/* tile[lid] = in[gid]; a tree reduction with a barrier per level; item 0
 * writes the sum. Wrong unless every barrier waits for all 4 warps. */
static bc_module *reduce_module(bool local_param)
{
    mk_mod *b = mk_new("reduce.clasm");
    mk_kernel(b, "reduce");
    uint32_t pin = mk_pparam(b, "in", BC_GLOBAL, "uint");
    uint32_t pout = mk_pparam(b, "out", BC_GLOBAL, "uint");
    uint32_t tile = local_param ? mk_pparam(b, "scratch", BC_LOCAL, "uint")
                                : mk_array(b, "tile", BC_LOCAL, "uint", 256);
    uint32_t gid = mk_val(b, "gid", "uint"), lid = mk_val(b, "lid", "uint"),
             grp = mk_val(b, "grp", "uint"), s = mk_val(b, "s", "uint"),
             x = mk_val(b, "x", "uint"), y = mk_val(b, "y", "uint"),
             t = mk_val(b, "t", "uint"), c = mk_val(b, "c", "int"),
             k0 = mk_ki(b, "uint", 0), k1 = mk_ki(b, "uint", 1),
             k128 = mk_ki(b, "uint", 128);
    MK(b, BC_GID_B32, 1, gid, 0);
    MK(b, BC_LID_B32, 1, lid, 0);
    MK(b, BC_GRP_B32, 1, grp, 0);
    MK(b, BC_LD_B32, 1, x, pin, gid);
    MK(b, BC_ST_B32, 1, tile, lid, x);
    MK(b, BC_BARRIER, 1, 1);
    MK(b, BC_MOV_B32, 1, s, k128);
    mk_loop(b);
    MK(b, BC_EQ_U32, 1, c, s, k0);
    mk_brkif(b, BC_BRKIF_B32, c, 0);
    MK(b, BC_LT_U32, 1, c, lid, s);
    mk_if(b, BC_IF_B32, c);
    MK(b, BC_ADD_B32, 1, t, lid, s);
    MK(b, BC_LD_B32, 1, x, tile, lid);
    MK(b, BC_LD_B32, 1, y, tile, t);
    MK(b, BC_ADD_B32, 1, x, x, y);
    MK(b, BC_ST_B32, 1, tile, lid, x);
    mk_endif(b);
    MK(b, BC_BARRIER, 1, 1);
    MK(b, BC_SHR_U32, 1, s, s, k1);
    mk_endloop(b);
    MK(b, BC_EQ_U32, 1, c, lid, k0);
    mk_if(b, BC_IF_B32, c);
    MK(b, BC_LD_B32, 1, x, tile, k0);
    MK(b, BC_ST_B32, 1, pout, grp, x);
    mk_endif(b);
    return verified(mk_finish(b));
}

static void barriers(void)
{
    enum { G = 8, L = 256, N = G * L };
    uint32_t *in = malloc(N * 4), out[G], want[G] = {0};
    for (uint32_t k = 0; k < N; k++) {
        in[k] = (uint32_t)rnd64() >> 8;
        want[k / L] += in[k];
    }
    for (int lp = 0; lp < 2; lp++) {
        bc_module *m = reduce_module(lp);
        static const unsigned warps[] = {64, 32, 1, 48};
        for (size_t w = 0; w < NELEM(warps); w++)
            for (unsigned th = 1; th <= 2; th++) {
                memset(out, 0, sizeof out);
                vm_arg args[3] = {{(uint8_t *)in, N * 4},
                                  {(uint8_t *)out, sizeof out},
                                  {NULL, L * 4}};
                vm_ndrange nd = nd1(N, L);
                nd.warp = warps[w];
                nd.threads = th;
                vm_trap t;
                CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
                CHECK(memcmp(out, want, sizeof out) == 0,
                      "reduction, warp %u, %u threads, local %s", warps[w],
                      th, lp ? "param" : "array");
            }
        freem(m);
    }
    free(in);
}

static void barrier_traps(void)
{
    /* a barrier inside a divergent IF */
    mk_mod *b = mk_new("bar.clasm");
    mk_kernel(b, "bar");
    uint32_t lid = mk_val(b, "lid", "uint"), c = mk_val(b, "c", "int"),
             k = mk_ki(b, "uint", 10);
    mk_line(b, 3);
    MK(b, BC_LID_B32, 1, lid, 0);
    mk_line(b, 4);
    MK(b, BC_LT_U32, 1, c, lid, k);
    mk_if(b, BC_IF_B32, c);
    mk_line(b, 5);
    MK(b, BC_BARRIER, 1, 1);
    mk_endif(b);
    bc_module *m = verified(mk_finish(b));
    vm_ndrange nd = nd1(256, 128);
    vm_trap t;
    CHECK(vm_run(m, 0, NULL, &nd, &t) == VM_TRAP_BARRIER, "divergent");
    CHECK(strcmp(t.msg, "trap: barrier not reached by every work-item of "
                 "the group in kernel 'bar' at bar.clasm:5: BARRIER 1: "
                 "work-item (0,0,0): work-item (10,0,0) of its group did "
                 "not arrive") == 0, "%s", t.msg);
    CHECK(t.line == 5 && t.gid[0] == 0, "where");
    /* the same with a one-warp group */
    nd = nd1(256, 16);
    CHECK(vm_run(m, 0, NULL, &nd, &t) == VM_TRAP_BARRIER, "one warp");
    freem(m);

    /* warps 2 and 3 return before a barrier the others wait at */
    b = mk_new("bar2.clasm");
    mk_kernel(b, "bar2");
    lid = mk_val(b, "lid", "uint"), c = mk_val(b, "c", "int");
    k = mk_ki(b, "uint", 128);
    MK(b, BC_LID_B32, 1, lid, 0);
    MK(b, BC_GE_U32, 1, c, lid, k);
    mk_if(b, BC_IF_B32, c);
    MK0(b, BC_RET);
    mk_endif(b);
    mk_line(b, 7);
    MK(b, BC_BARRIER, 1, 1);
    m = verified(mk_finish(b));
    nd = nd1(512, 256);
    nd.threads = 2;
    CHECK(vm_run(m, 0, NULL, &nd, &t) == VM_TRAP_BARRIER, "finished");
    CHECK(strstr(t.msg, "at bar2.clasm:7: BARRIER 1: work-item (0,0,0): "
                 "work-item (128,0,0) of its group finished without it"),
          "%s", t.msg);
    freem(m);

    /* two different barriers */
    b = mk_new("bar3.clasm");
    mk_kernel(b, "bar3");
    lid = mk_val(b, "lid", "uint"), c = mk_val(b, "c", "int");
    k = mk_ki(b, "uint", 64);
    MK(b, BC_LID_B32, 1, lid, 0);
    MK(b, BC_GE_U32, 1, c, lid, k);
    mk_if(b, BC_IF_B32, c);
    mk_line(b, 4);
    MK(b, BC_BARRIER, 1, 1);
    mk_else(b);
    mk_line(b, 6);
    MK(b, BC_BARRIER, 1, 2);
    mk_endif(b);
    m = verified(mk_finish(b));
    nd = nd1(128, 128);
    CHECK(vm_run(m, 0, NULL, &nd, &t) == VM_TRAP_BARRIER, "elsewhere");
    CHECK(strstr(t.msg, "at bar3.clasm:6: BARRIER 2: work-item (0,0,0): "
                 "work-item (64,0,0) of its group waits at the barrier of "
                 "line 4"), "%s", t.msg);
    freem(m);
}

/* ------------------------------------------------------------------ */
/* Traps                                                               */

static void bounds_trap_message(void)
{
    mk_mod *b = mk_new("saxpy.clasm");
    mk_line(b, 2);
    mk_kernel(b, "saxpy");
    uint32_t px = mk_pparam(b, "x", BC_GLOBAL, "float");
    uint32_t py = mk_pparam(b, "y", BC_GLOBAL, "float");
    uint32_t pa = mk_param(b, "a", "float");
    uint32_t i = mk_val(b, "i", "ulong"), vx = mk_val(b, "vx", "float4"),
             vy = mk_val(b, "vy", "float4"), va = mk_val(b, "_t1", "float4");
    mk_line(b, 5);
    MK(b, BC_GID_B64, 1, i, 0);
    mk_line(b, 6);
    MK(b, BC_VLOAD_B32, 4, vx, i, px);
    mk_line(b, 8);
    MK(b, BC_SPLAT_B32, 4, va, pa);
    MK(b, BC_MUL_F32, 4, vy, vx, va);
    mk_line(b, 9);
    MK(b, BC_VSTORE_B32, 4, vy, i, py);
    bc_module *m = verified(mk_finish(b));
    enum { N = 1025 };
    float *x = malloc(N * 16), *y = calloc(1024, 16), a = 2.0f;
    for (unsigned k = 0; k < N * 4; k++)
        x[k] = (float)k;
    vm_arg args[3] = {{(uint8_t *)x, N * 16}, {(uint8_t *)y, 1024 * 16},
                      {(uint8_t *)&a, 4}};
    for (unsigned th = 1; th <= 3; th++) {
        vm_ndrange nd = nd1(N, 0);
        nd.threads = th;
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == VM_TRAP_BOUNDS, "bounds");
        CHECK(strcmp(t.msg, "trap: out-of-bounds access in kernel 'saxpy' "
                     "at saxpy.clasm:9: VSTORE_B32 vy, i, y: work-item "
                     "(1024,0,0): bytes 16384..16399 of buffer 'y' "
                     "(16384 bytes)") == 0, "%s", t.msg);
        CHECK(t.kind == VM_TRAP_BOUNDS && t.line == 9 && t.gid[0] == 1024 &&
                  t.has_addr && t.addr == 16384 && t.len == 16 &&
                  t.param == 1 && t.bufsize == 16384 && t.pc == 14,
              "trap fields");
        /* groups of 205: the first four ran; in the last, the trapping
         * instruction stored nothing for the last warp */
        bool ok = true;
        for (unsigned k = 0; k < 1012 * 4; k++)
            ok &= y[k] == 2.0f * (float)k;
        CHECK(ok, "stores before the trap");
    }
    free(x), free(y);
    freem(m);
}

static void align_and_local_traps(void)
{
    /* vloada_half4 through q = h + gid: item 1 is 2 bytes off */
    mk_mod *b = mk_new("al.clasm");
    mk_kernel(b, "al");
    uint32_t ph = mk_pparam(b, "h", BC_GLOBAL, "half");
    uint32_t tile = mk_array(b, "tile", BC_LOCAL, "float", 64);
    uint32_t priv = mk_array(b, "tmp", BC_PRIVATE, "int", 4);
    uint32_t i = mk_val(b, "i", "uint"), q = mk_ptr(b, "q", BC_GLOBAL, "half"),
             v = mk_val(b, "v", "float4"), z = mk_val(b, "z", "uint"),
             sel = mk_param(b, "sel", "int"), c = mk_val(b, "c", "int"),
             k1 = mk_ki(b, "int", 1), k2 = mk_ki(b, "int", 2),
             f = mk_val(b, "f", "float"), n = mk_val(b, "n", "int");
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_EQ_I32, 1, c, sel, k1);
    mk_if(b, BC_IF_B32, c);
    mk_line(b, 4);
    MK(b, BC_PADD, 1, q, ph, i);
    MKF(b, BC_VLDH, 4, BC_F_ALIGNED, v, z, q);
    mk_endif(b);
    MK(b, BC_EQ_I32, 1, c, sel, k2);
    mk_if(b, BC_IF_B32, c);
    mk_line(b, 7);
    MK(b, BC_LD_B32, 1, f, tile, i);
    mk_else(b);
    mk_line(b, 9);
    MK(b, BC_ST_B32, 1, priv, i, i);
    MK(b, BC_LD_B32, 1, n, priv, z);
    mk_endif(b);
    bc_module *m = verified(mk_finish(b));
    uint16_t h[64] = {0};
    int32_t s = 1;
    vm_arg args[2] = {{(uint8_t *)h, sizeof h}, {(uint8_t *)&s, 4}};
    vm_ndrange nd = nd1(128, 0);
    vm_trap t;
    CHECK(vm_run(m, 0, args, &nd, &t) == VM_TRAP_ALIGN, "%s", t.msg);
    CHECK(strcmp(t.msg, "trap: misaligned access in kernel 'al' at al.clasm:4:"
                 " VLDH v, z, q: work-item (1,0,0): bytes 2..9 of buffer 'h' "
                 "(128 bytes): not 8-byte aligned") == 0, "%s", t.msg);
    s = 2;
    CHECK(vm_run(m, 0, args, &nd, &t) == VM_TRAP_BOUNDS, "%s", t.msg);
    CHECK(strstr(t.msg, "at al.clasm:7: LD_B32 f, tile, i: work-item "
                 "(64,0,0): bytes 256..259 of local array 'tile' (256 "
                 "bytes)"), "%s", t.msg);
    CHECK(t.param == -1 && t.bufsize == 256, "local array fields");
    s = 3;
    CHECK(vm_run(m, 0, args, &nd, &t) == VM_TRAP_BOUNDS, "%s", t.msg);
    CHECK(strstr(t.msg, "at al.clasm:9: ST_B32 tmp, i, i: work-item "
                 "(4,0,0): bytes 16..19 of private array 'tmp' (16 bytes)"),
          "%s", t.msg);
    freem(m);

    /* p[-1] below the start of a buffer; an unset pointer */
    b = mk_new("neg.clasm");
    mk_kernel(b, "neg");
    uint32_t px = mk_pparam(b, "x", BC_GLOBAL, "uint");
    uint32_t un = mk_ptr(b, "p", BC_GLOBAL, "uint");
    uint32_t m1 = mk_ki(b, "long", -1), r = mk_val(b, "r", "uint");
    sel = mk_param(b, "sel", "int");
    c = mk_val(b, "c", "int"), k1 = mk_ki(b, "int", 1);
    MK(b, BC_EQ_I32, 1, c, sel, k1);
    mk_if(b, BC_IF_B32, c);
    MK(b, BC_LD_B32, 1, r, px, m1);
    mk_else(b);
    MK(b, BC_LD_B32, 1, r, un, m1);
    mk_endif(b);
    m = verified(mk_finish(b));
    uint32_t xs[4] = {0};
    vm_arg a2[2] = {{(uint8_t *)xs, sizeof xs}, {(uint8_t *)&s, 4}};
    s = 1;
    CHECK(vm_run(m, 0, a2, &nd, &t) == VM_TRAP_BOUNDS, "%s", t.msg);
    CHECK(strstr(t.msg, "bytes -4..-1 of buffer 'x' (16 bytes)"), "%s", t.msg);
    s = 0;
    CHECK(vm_run(m, 0, a2, &nd, &t) == VM_TRAP_BOUNDS, "%s", t.msg);
    CHECK(strstr(t.msg, "of no buffer (the null pointer, or a pointer made "
                 "from an address in no buffer)"), "%s", t.msg);
    freem(m);
}

static void step_limit(void)
{
    mk_mod *b = mk_new("inf.clasm");
    mk_kernel(b, "inf");
    uint32_t i = mk_val(b, "i", "uint"), one = mk_ki(b, "uint", 1);
    mk_loop(b);
    mk_line(b, 3);
    MK(b, BC_ADD_B32, 1, i, i, one);
    mk_endloop(b);
    bc_module *m = verified(mk_finish(b));
    vm_ndrange nd = nd1(100, 50);
    nd.max_steps = 1000;
    vm_trap t;
    CHECK(vm_run(m, 0, NULL, &nd, &t) == VM_TRAP_STEPS, "steps");
    CHECK(strcmp(t.msg, "trap: step limit exceeded in kernel 'inf' at "
                 "inf.clasm:3: ENDLOOP @2: work-item (0,0,0): its warp ran "
                 "1000 instructions") == 0, "%s", t.msg);
    freem(m);
}

/* The reported work-item is the same for any thread count and warp. */
static void deterministic_traps(void)
{
    mk_mod *b = mk_new("det.clasm");
    mk_kernel(b, "det");
    uint32_t px = mk_pparam(b, "x", BC_GLOBAL, "uint");
    uint32_t i = mk_val(b, "i", "uint"), t = mk_val(b, "t", "uint"),
             c = mk_val(b, "c", "int"), r = mk_val(b, "r", "uint"),
             j = mk_val(b, "j", "uint"), k97 = mk_ki(b, "uint", 97),
             k50 = mk_ki(b, "uint", 50), k3000 = mk_ki(b, "uint", 3000),
             big = mk_ki(b, "uint", 1u << 30), k0 = mk_ki(b, "uint", 0);
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_MOV_B32, 1, j, k0);
    MK(b, BC_REM_U32, 1, t, i, k97);
    MK(b, BC_EQ_U32, 1, c, t, k50);
    mk_if(b, BC_IF_B32, c);
    MK(b, BC_GE_U32, 1, c, i, k3000);
    mk_if(b, BC_IF_B32, c);
    MK(b, BC_MOV_B32, 1, j, big);
    mk_endif(b);
    mk_endif(b);
    MK(b, BC_LD_B32, 1, r, px, j);
    bc_module *m = verified(mk_finish(b));
    enum { N = 8192 };
    uint32_t *x = calloc(N, 4);
    static const unsigned warps[] = {64, 8, 1};
    for (size_t w = 0; w < NELEM(warps); w++)
        for (unsigned th = 1; th <= 4; th *= 2) {
            vm_arg args[1] = {{(uint8_t *)x, N * 4}};
            vm_ndrange nd = nd1(N, 64);
            nd.threads = th;
            nd.warp = warps[w];
            vm_trap tr;
            CHECK(vm_run(m, 0, args, &nd, &tr) == VM_TRAP_BOUNDS, "det");
            CHECK(tr.gid[0] == 3057 && tr.addr == 4ull << 30,
                  "warp %u threads %u: %s", warps[w], th, tr.msg);
        }
    free(x);
    freem(m);
}

/* ------------------------------------------------------------------ */
/* Bad NDRanges and arguments                                          */

static void ndrange_errors(void)
{
    mk_mod *b = mk_new("e.clasm");
    mk_kernel(b, "e");
    uint32_t pa = mk_param(b, "a", "float4");
    (void)pa;
    bc_module *m = verified(mk_finish(b));
    float a[4] = {0};
    vm_arg args[1] = {{(uint8_t *)a, sizeof a}};
    static const struct {
        unsigned dims;
        uint64_t g0, l0, o0;
        unsigned warp;
        const char *msg;
    } cases[] = {
        {0, 1, 0, 0, 0, "trap: bad NDRange: work dimension 0: must be 1, 2 or 3"},
        {4, 1, 0, 0, 0, "trap: bad NDRange: work dimension 4: must be 1, 2 or 3"},
        {1, 0, 0, 0, 0, "trap: bad NDRange: global size 0 in dimension 0"},
        {1, 100, 64, 0, 0, "trap: bad NDRange: global size 100 is not a "
                           "multiple of local size 64 in dimension 0"},
        {1, 8192, 8192, 0, 0, "trap: bad NDRange: work-group of more than "
                              "4096 work-items (local size 8192 in "
                              "dimension 0)"},
        {1, 64, 0, 0, 65, "trap: bad NDRange: warp of 65 work-items: at "
                          "most 64"},
        {1, 64, 0, UINT64_MAX - 10, 0, "trap: bad NDRange: global offset "
                                       "18446744073709551605 + size 64 "
                                       "overflows in dimension 0"},
    };
    for (size_t c = 0; c < NELEM(cases); c++) {
        vm_ndrange nd = nd1(cases[c].g0, cases[c].l0);
        nd.dims = cases[c].dims;
        nd.offset[0] = cases[c].o0;
        nd.warp = cases[c].warp;
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == VM_TRAP_NDRANGE, "case %zu", c);
        CHECK(strcmp(t.msg, cases[c].msg) == 0, "%s", t.msg);
    }
    /* local 0: the largest divisor up to 256 */
    vm_ndrange nd = nd1(1000, 0);
    vm_range r;
    vm_trap t;
    CHECK(vm_range_resolve(&nd, &r, &t) == 0 && r.local[0] == 250 &&
              r.nwarps == 4 && r.warp == 64, "local choice");
    nd = nd1(7, 0);
    nd.dims = 2;
    nd.global[1] = 3;
    CHECK(vm_range_resolve(&nd, &r, &t) == 0 && r.local[0] == 7 &&
              r.local[1] == 1 && r.warp == 7, "small group");
    /* arguments */
    nd = nd1(64, 0);
    CHECK(vm_run(m, 0, NULL, &nd, &t) == VM_TRAP_ARGS &&
              strcmp(t.msg, "trap: bad kernel arguments: kernel 'e' takes 1 "
                     "arguments, none given") == 0, "%s", t.msg);
    args[0].size = 12;
    CHECK(vm_run(m, 0, args, &nd, &t) == VM_TRAP_ARGS &&
              strcmp(t.msg, "trap: bad kernel arguments: argument 0 'a': "
                     "float4 needs 16 bytes, 12 given") == 0, "%s", t.msg);
    CHECK(vm_run(m, 1, args, &nd, &t) == VM_TRAP_ARGS, "no kernel 1");
    freem(m);
}

/* Unverified structure is refused, not run. */
static void bad_code(void)
{
    mk_mod *b = mk_new("bad.clasm");
    mk_kernel(b, "bad");
    MK0(b, BC_ENDIF);
    bc_module *m = mk_finish(b);
    vm_ndrange nd = nd1(1, 0);
    vm_trap t;
    CHECK(vm_run(m, 0, NULL, &nd, &t) == VM_TRAP_CODE &&
              strstr(t.msg, "ENDIF without a matching IF"), "%s", t.msg);
    freem(m);
}


/* ------------------------------------------------------------------ */
/* Kernels from IR, through the assembler                              */

static bc_module *assemble(const char *src)
{
    bc_module *m = calloc(1, sizeof *m);
    int errs = asm_assemble(src, strlen(src), "t.clasm", m, stderr);
    CHECK(errs == 0, "%d assembly errors", errs);
    if (errs) {
        free(m);
        return NULL;
    }
    return verified(m);
}

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static uint64_t fnv1a(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211u;
    return h;
}

/* The two reference benchmarks of shared/bench/BENCHMARKS.md, checked
 * against their published output hashes. */
static void ir_benchmarks(void)
{
    static const char loop[] =
        "kernel xorshift(global const uint *seed, global uint *out, uint iters)\n"
        "    uint i, x, acc, k\n"
        "    i = get_global_id(0)\n"
        "    x = seed[i]\n"
        "    acc = 0\n"
        "    k = 0\n"
        "    while k < iters\n"
        "        x ^= x << 13\n"
        "        x ^= x >> 17\n"
        "        x ^= x << 5\n"
        "        acc += x ^ k\n"
        "        k += 1\n"
        "    end\n"
        "    out[i] = acc\n"
        "end\n";
    bc_module *m = assemble(loop);
    if (m) {
        enum { N = 1 << 14 };
        uint32_t *seed = malloc(N * 4), *out = malloc(N * 4), iters = 1000;
        for (uint32_t i = 0; i < N; i++)
            seed[i] = hash32(i ^ 0xA5A5A5A5u) | 1;
        vm_arg args[3] = {{(uint8_t *)seed, N * 4}, {(uint8_t *)out, N * 4},
                          {(uint8_t *)&iters, 4}};
        vm_ndrange nd = nd1(N, 0);
        nd.threads = 2;
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
        CHECK(fnv1a(out, N * 4) == 0xbc65aa02af92f0ccu, "loop hash %016llx",
              (unsigned long long)fnv1a(out, N * 4));
        free(seed), free(out);
        freem(m);
    }

    static const char bench[] =
        "kernel bench(global const float *in, global float *out, float scale,"
        " float bias, uint key, uint mask)\n"
        "    ulong i\n"
        "    float4 v, a, b, r\n"
        "    int4 q\n"
        "    uint4 u\n"
        "    i = get_global_id(0)\n"
        "    v = vload4(i, in)\n"
        "    a = v * scale + bias\n"
        "    b = a * 0.25f + v\n"
        "    q = convert_int4_sat_rte(b)\n"
        "    u = as_uint4(q)\n"
        "    u = (u ^ key) & mask\n"
        "    r = convert_float4(u)\n"
        "    vstore4(r, i, out)\n"
        "end\n";
    m = assemble(bench);
    if (m) {
        enum { N = 1 << 22 };
        static const float specials[16] = {
            NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 2147483520.0f,
            2147483648.0f, -2147483648.0f, 0.5f, 1.5f, 2.5f, -0.5f, -2.5f,
            1e20f, -1e20f, -0.0f};
        float *in = malloc((size_t)N * 16), *out = malloc((size_t)N * 16);
        for (uint32_t k = 0; k < 4u * N; k++) {
            uint32_t h = hash32(k);
            /* (int32)h >> 10, rounding toward minus infinity */
            int64_t v = h & 0x80000000u ? (int64_t)h - 4294967296 : h;
            v = v >= 0 ? v / 1024 : -((-v + 1023) / 1024);
            in[k] = (h & 15) == 0 ? specials[(h >> 4) & 15]
                                  : (float)v * 0.25f;
        }
        float scale = 1.5f, bias = 0.5f;
        uint32_t key = 0x9E3779B9u, mask = 0xFFFF0FFFu;
        vm_arg args[6] = {{(uint8_t *)in, (size_t)N * 16},
                          {(uint8_t *)out, (size_t)N * 16},
                          {(uint8_t *)&scale, 4}, {(uint8_t *)&bias, 4},
                          {(uint8_t *)&key, 4}, {(uint8_t *)&mask, 4}};
        vm_ndrange nd = nd1(N, 0);
        nd.threads = 0;
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
        CHECK(fnv1a(out, (size_t)N * 16) == 0xe4e722c0960ebcbfu,
              "bench hash %016llx",
              (unsigned long long)fnv1a(out, (size_t)N * 16));
        free(in), free(out);
        freem(m);
    }
}

static uint32_t ir_cf_ref(uint32_t i)
{
    uint32_t s = 0, k = 0;
    while (k < i % 13) {
        k += 1;
        if (k % 3 == 0)
            continue;
        if (k == 9 && i % 2 == 1)
            break;
        if (i % 17 == 5 && k == 4)
            return 0xdead;
        if (i % 5 == 0) {
            s += k * 2;
            if (s > 40)
                break;
        } else {
            s += k;
        }
    }
    return s;
}

/* Structured control flow and a barrier reduction, written in IR. */
static void ir_kernels(void)
{
    static const char cf[] =
        "kernel cf(global uint *out)\n"
        "    uint i, s, k\n"
        "    i = get_global_id(0)\n"
        "    s = 0\n"
        "    k = 0\n"
        "    while k < i % 13\n"
        "        k += 1\n"
        "        if k % 3 == 0\n"
        "            continue\n"
        "        end\n"
        "        break if k == 9 && i % 2 == 1\n"
        "        if i % 17 == 5 && k == 4\n"
        "            out[i] = 0xdead\n"
        "            return\n"
        "        end\n"
        "        if i % 5 == 0\n"
        "            s += k * 2\n"
        "            break if s > 40\n"
        "        else\n"
        "            s += k\n"
        "        end\n"
        "    end\n"
        "    out[i] = s\n"
        "end\n";
    bc_module *m = assemble(cf);
    if (m) {
        enum { N = 500 };
        uint32_t out[N];
        static const unsigned warps[] = {64, 5, 1};
        for (size_t w = 0; w < NELEM(warps); w++) {
            memset(out, 0, sizeof out);
            vm_arg args[1] = {{(uint8_t *)out, sizeof out}};
            vm_ndrange nd = nd1(N, 100);
            nd.warp = warps[w];
            vm_trap t;
            CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
            for (uint32_t i = 0; i < N; i++)
                CHECK(out[i] == ir_cf_ref(i), "warp %u item %u: %u want %u",
                      warps[w], i, out[i], ir_cf_ref(i));
        }
        freem(m);
    }

    static const char red[] =
        "kernel sum(global const int *in, global int *out, local int *part)\n"
        "    local int tile[128]\n"
        "    uint lid, s\n"
        "    lid = get_local_id(0)\n"
        "    tile[lid] = in[get_global_id(0)]\n"
        "    barrier(CLK_LOCAL_MEM_FENCE)\n"
        "    s = 64\n"
        "    while s > 0\n"
        "        if lid < s\n"
        "            tile[lid] = tile[lid] + tile[lid + s]\n"
        "        end\n"
        "        barrier(CLK_LOCAL_MEM_FENCE)\n"
        "        s = s >> 1\n"
        "    end\n"
        "    if lid == 0\n"
        "        part[0] = tile[0]\n"
        "        out[get_group_id(0)] = part[0]\n"
        "    end\n"
        "end\n";
    m = assemble(red);
    if (m) {
        enum { G = 6, L = 128 };
        int32_t in[G * L], out[G], want[G] = {0};
        for (int k = 0; k < G * L; k++) {
            in[k] = (int32_t)(rnd64() % 2001) - 1000;
            want[k / L] += in[k];
        }
        vm_arg args[3] = {{(uint8_t *)in, sizeof in},
                          {(uint8_t *)out, sizeof out}, {NULL, 4}};
        vm_ndrange nd = nd1(G * L, L);
        nd.warp = 16;
        nd.threads = 2;
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
        CHECK(memcmp(out, want, sizeof out) == 0, "IR reduction");
        freem(m);
    }

    /* swizzles, vector comparison, select, as_type across counts */
    static const char vec[] =
        "kernel vec(global const float4 *in, global float4 *out,\n"
        "           global int4 *mask, global ushort8 *bits)\n"
        "    uint i\n"
        "    float4 v, w\n"
        "    int4 m\n"
        "    i = get_global_id(0)\n"
        "    v = in[i]\n"
        "    w = v.wzyx\n"
        "    w.xz = v.yy\n"
        "    m = v < w\n"
        "    out[i] = select(v, w, m)\n"
        "    mask[i] = m\n"
        "    bits[i] = as_ushort8(v)\n"
        "end\n";
    m = assemble(vec);
    if (m) {
        enum { N = 77 };
        float in[N * 4], out[N * 4];
        int32_t mask[N * 4];
        uint16_t bits[N * 8];
        for (int k = 0; k < N * 4; k++)
            in[k] = (float)(int)(rnd64() % 200) - 100.0f;
        vm_arg args[4] = {{(uint8_t *)in, sizeof in},
                          {(uint8_t *)out, sizeof out},
                          {(uint8_t *)mask, sizeof mask},
                          {(uint8_t *)bits, sizeof bits}};
        vm_ndrange nd = nd1(N, 0);
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == 0, "%s", t.msg);
        for (int i = 0; i < N; i++) {
            const float *v = in + 4 * i;
            float w[4] = {v[1], v[2], v[1], v[0]};
            for (int k = 0; k < 4; k++) {
                int32_t mk = v[k] < w[k] ? -1 : 0;
                CHECK(mask[4 * i + k] == mk, "mask %d.%d", i, k);
                CHECK(out[4 * i + k] == (mk ? w[k] : v[k]), "select %d.%d",
                      i, k);
            }
            CHECK(memcmp(bits + 8 * i, v, 16) == 0, "as_ushort8 %d", i);
        }
        freem(m);
    }

    /* the saxpy of docs/ir.md, with a y one float4 short */
    static const char saxpy[] =
        "// y[i] = a * x[i] + y[i], four floats per work-item\n"
        "kernel saxpy(global const float *x, global float *y, float a)\n"
        "    ulong  i\n"
        "    float4 vx, vy\n"
        "    i  = get_global_id(0)\n"
        "    vx = vload4(i, x)\n"
        "    vy = vload4(i, y)\n"
        "    vy = mad(vx, (float4)(a), vy)\n"
        "    vstore4(vy, i, y)\n"
        "end\n";
    m = assemble(saxpy);
    if (m) {
        float x[64], y[60], a = 3.0f;
        for (int k = 0; k < 64; k++)
            x[k] = (float)k;
        for (int k = 0; k < 60; k++)
            y[k] = 1.0f;
        vm_arg args[3] = {{(uint8_t *)x, sizeof x}, {(uint8_t *)y, sizeof y},
                          {(uint8_t *)&a, 4}};
        vm_ndrange nd = nd1(16, 1);
        vm_trap t;
        CHECK(vm_run(m, 0, args, &nd, &t) == VM_TRAP_BOUNDS, "saxpy trap");
        CHECK(strcmp(t.msg, "trap: out-of-bounds access in kernel 'saxpy' at "
                     "t.clasm:7: VLOAD_B32 vy, i, y: work-item (15,0,0): "
                     "bytes 240..255 of buffer 'y' (240 bytes)") == 0,
              "%s", t.msg);
        bool ok = true;
        for (int k = 0; k < 60; k++)
            ok &= y[k] == 3.0f * (float)k + 1.0f;
        CHECK(ok, "saxpy results");
        freem(m);
    }
}

/* The same again on the baseline, AVX2 and AVX-512 dispatch loops (this
 * host picked one of them; without AVX2, avx2 is the baseline, without
 * AVX-512, avx512 the best the host has). */
static void capped_isa(const char *isa)
{
    setenv("CLVM_ISA", isa, 1);
    elementwise_ops();
    data_movement();
    conversions();
    memory_forms();
    control_flow();
    barriers();
    ir_kernels();
    unsetenv("CLVM_ISA");
}
static void baseline_isa(void) { capped_isa("base"); }
static void avx2_isa(void) { capped_isa("avx2"); }
static void avx512_isa(void) { capped_isa("avx512"); }

int main(void)
{
    RUN(elementwise_ops);
    RUN(data_movement);
    RUN(conversions);
    RUN(reinterpretation);
    RUN(memory_forms);
    RUN(work_item_functions);
    RUN(control_flow);
    RUN(stepping);
    RUN(barriers);
    RUN(barrier_traps);
    RUN(bounds_trap_message);
    RUN(align_and_local_traps);
    RUN(step_limit);
    RUN(deterministic_traps);
    RUN(ndrange_errors);
    RUN(bad_code);
    RUN(ir_benchmarks);
    RUN(ir_kernels);
    RUN(baseline_isa);
    RUN(avx2_isa);
    RUN(avx512_isa);
    return t_summary("vm");
}
