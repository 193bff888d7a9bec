/* The shaped built-ins of stdlib/mathfn.h (issue 14): every row's
 * OpenCL.std number against the SPIR-V grammar (skipped without the shared
 * folder); the integer functions against independent 128-bit references,
 * exhaustively for 8-bit operands; the geometric functions against long
 * double; shuffle; the pointer functions against stdlib/libm directly;
 * mathfn_sig's types. All through mathfn_one, the VM's entry point. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/asmint.h"
#include "stdlib/builtin.h"
#include "asm/sigs.h"
#include "vm/bcfile.h"
#include "stdlib/geom.h"
#include "stdlib/libm.h"
#include "stdlib/mathfn.h"
#include "tests/lib/bits.h"
#include "tests/lib/ops.h"
#include "tests/lib/test.h"

static uint64_t rstate = 0x2545F4914F6CDD1Du;
static uint64_t rnd64(void)
{
    rstate ^= rstate >> 12, rstate ^= rstate << 25, rstate ^= rstate >> 27;
    return rstate * 0x9E3779B97F4A7C15u;
}

/* ---- OpenCL.std numbers ---- */

/* The opcode of opname name in the grammar text, or -1. */
static int grammar_opcode(const char *g, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"opname\" : \"%s\"", name);
    const char *p = strstr(g, key);
    if (!p)
        return -1;
    p = strstr(p, "\"opcode\"");
    return p ? atoi(strchr(p, ':') + 1) : -1;
}

/* The opname of opcode oc in the grammar text, or NULL. */
static const char *grammar_name(const char *g, int oc)
{
    static char name[64];
    for (const char *p = strstr(g, "\"opname\""); p;
         p = strstr(p + 1, "\"opname\"")) {
        const char *q = strchr(strchr(p + 8, '"') + 1, '"');
        const char *o = strstr(p, "\"opcode\"");
        if (!q || !o || atoi(strchr(o, ':') + 1) != oc)
            continue;
        const char *b = strchr(p + 8, '"') + 1;
        snprintf(name, sizeof name, "%.*s", (int)(q - b), b);
        return name;
    }
    return NULL;
}

static void opencl_std_numbers(void)
{
    const char *dir = t_shared_dir();
    char path[4200];
    if (!dir) {
        t_skip("no shared folder (set CLVM_SHARED): OpenCL.std numbers "
               "unchecked");
        return;
    }
    snprintf(path, sizeof path, "%s/third_party/SPIRV-Headers/include/spirv/"
             "unified1/extinst.opencl.std.100.grammar.json", dir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        t_skip("no %s", path);
        return;
    }
    static char g[1 << 20];
    size_t len = fread(g, 1, sizeof g - 1, f);
    fclose(f);
    g[len] = 0;
    int checked = 0;
    for (int k = 0; k < MF_COUNT; k++) {
        const mathfn_info *m = &mathfns[k];
        char s[64], u[64];
        snprintf(s, sizeof s, "s_%s", m->name);
        snprintf(u, sizeof u, "u_%s", m->name);
        int plain = grammar_opcode(g, m->name), gs = grammar_opcode(g, s),
            gu = grammar_opcode(g, u);
        /* an integer function with signed and unsigned instructions; a
         * u_ form alone (u_abs_diff) shares the s_ one */
        int want_s = gs >= 0 ? gs : plain, want_u = gu >= 0 ? gu : want_s;
        if (gs < 0 && gu >= 0)
            want_s = gu;
        CHECK(m->oc[0] == want_s && m->oc[1] == want_u,
              "%s: table says OpenCL.std %d/%d, the grammar %d/%d", m->name,
              m->oc[0], m->oc[1], want_s, want_u);
        checked += want_s >= 0;
    }
    CHECK(checked > 90, "only %d rows have OpenCL.std numbers", checked);
    /* the other built-ins: the grammar's name for each number names the
     * built-in (fmin_common for min, s_abs and u_abs for abs, ...) */
    for (int fn = 0; fn < F_COUNT; fn++)
        for (int k = 0; k < 3 && asm_fns[fn].mf < 0; k++) {
            int oc = asm_fns[fn].oc[k];
            const char *nm = oc >= 0 ? grammar_name(g, oc) : NULL;
            CHECK(oc < 0 || (nm && strstr(nm, asm_fns[fn].name)),
                  "%s: OpenCL.std %d is %s", asm_fns[fn].name, oc,
                  nm ? nm : "no instruction");
            checked += oc >= 0;
        }
    for (int k = 0; k < BI_NKIND; k++)
        for (int v = 0; v < 4; v++) {
            int oc = bi_kind_ocl((enum bi_kind)k, v >> 1, v & 1);
            const char *nm = oc >= 0 ? grammar_name(g, oc) : NULL;
            char want[40];   /* vload_halfn, vstore_half_r, ... */
            snprintf(want, sizeof want, "%s%s%s",
                     bi_kind_prefix((enum bi_kind)k), v >> 1 ? "n" : "",
                     v & 1 ? "_r" : "");
            CHECK(oc < 0 || (nm && !strcmp(nm, want)),
                  "%s: OpenCL.std %d is %s", want, oc,
                  nm ? nm : "no instruction");
        }
}

/* ---- integer functions, against 128-bit arithmetic ---- */

typedef __int128 i128;

static i128 sval(uint64_t x, unsigned w, bool s)
{
    uint64_t m = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    x &= m;
    if (s && (x >> (w - 1) & 1))
        return (i128)x - ((i128)1 << w);
    return (i128)x;
}

static i128 sat(i128 v, unsigned w, bool s)
{
    i128 lo = s ? -((i128)1 << (w - 1)) : 0;
    i128 hi = s ? ((i128)1 << (w - 1)) - 1 : ((i128)1 << w) - 1;
    return v < lo ? lo : v > hi ? hi : v;
}

/* ulong mad_sat: the product may pass 2^127, out of i128's range */
static i128 umad_sat(uint64_t x, uint64_t y, uint64_t z)
{
    unsigned __int128 r = (unsigned __int128)x * y + z;
    return r >> 64 || r < z ? (i128)UINT64_MAX : (i128)(uint64_t)r;
}

static i128 floordiv2(i128 v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

static const enum ty_scalar ints[] = {TY_CHAR, TY_UCHAR, TY_SHORT, TY_USHORT,
                                      TY_INT, TY_UINT, TY_LONG, TY_ULONG};

/* f(x, y, z) of type t through mathfn_one, as bits. */
static uint64_t run_int(enum mathfn f, enum ty_scalar t, uint64_t x,
                        uint64_t y, uint64_t z)
{
    unsigned es = ty_scalar_size(t);
    uint8_t a[8], b[8], c[8], d[16] = {0};
    ty_put_bits(a, es, x), ty_put_bits(b, es, y), ty_put_bits(c, es, z);
    mathfn_one(f, (ty_t){(uint8_t)t, 1}, 0, false, d, a, b, c);
    return ty_get_bits(d, f == MF_UPSAMPLE ? 2 * es : es);
}

static void int_case(enum ty_scalar t, uint64_t x, uint64_t y, uint64_t z)
{
    unsigned w = 8 * ty_scalar_size(t);
    bool s = ty_is_signed(t);
    uint64_t m = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    i128 a = sval(x, w, s), b = sval(y, w, s), c = sval(z, w, s);
    bool u64 = w == 64 && !s;   /* a * b may pass 2^127 */
    i128 p = u64 ? 0 : a * b;
    struct {
        enum mathfn f;
        i128 want;
    } cs[] = {
        {MF_ABS_DIFF, a > b ? a - b : b - a},
        {MF_HADD, floordiv2(a + b)},
        {MF_RHADD, floordiv2(a + b + 1)},
        {MF_MAD_SAT, w == 64 && !s ? umad_sat(x, y, z) : sat(p + c, w, s)},
        {MF_ADD_SAT, sat(a + b, w, s)},
        {MF_SUB_SAT, sat(a - b, w, s)},
    };
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        uint64_t got = run_int(cs[k].f, t, x, y, z) & m;
        uint64_t want = (uint64_t)cs[k].want & m;
        CHECK(got == want, "%s(%s: 0x%llx, 0x%llx, 0x%llx) = 0x%llx, want "
              "0x%llx", mathfns[cs[k].f].name, ty_scalar_name(t),
              (unsigned long long)x, (unsigned long long)y,
              (unsigned long long)z, (unsigned long long)got,
              (unsigned long long)want);
    }
    /* mad_hi: the high half of the 2w-bit product, plus z (wrapping) */
    i128 hi = u64 ? (i128)(((unsigned __int128)x * y) >> 64) : p >> w;
    uint64_t got = run_int(MF_MAD_HI, t, x, y, z) & m;
    CHECK(got == ((uint64_t)(hi + c) & m), "mad_hi(%s: 0x%llx, 0x%llx, "
          "0x%llx) = 0x%llx", ty_scalar_name(t), (unsigned long long)x,
          (unsigned long long)y, (unsigned long long)z,
          (unsigned long long)got);
    if (w < 64) {   /* upsample: hi of t, lo unsigned, 2w bits */
        uint64_t up = run_int(MF_UPSAMPLE, t, x, y, 0);
        uint64_t want = (x & m) << w | (y & m);
        CHECK(up == want, "upsample(%s: 0x%llx, 0x%llx) = 0x%llx",
              ty_scalar_name(t), (unsigned long long)x,
              (unsigned long long)y, (unsigned long long)up);
    }
    if (w == 32) {  /* mul24, mad24: the 32-bit product, wrapping */
        uint64_t m24 = run_int(MF_MAD24, t, x, y, z) & m;
        CHECK(m24 == ((x * y + z) & m), "mad24 0x%llx",
              (unsigned long long)m24);
    }
}

static void integer_functions(void)
{
    /* every pair of 8-bit operands (z from the pair), both signs */
    for (uint64_t x = 0; x < 256; x++)
        for (uint64_t y = 0; y < 256; y++) {
            int_case(TY_CHAR, x, y, x ^ y);
            int_case(TY_UCHAR, x, y, (x * 7 + y) & 255);
        }
    static const uint64_t edges[] = {0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff,
                                     0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                     0xffffffff, 0x7fffffffffffffff,
                                     0x8000000000000000, UINT64_MAX};
    const size_t ne = sizeof edges / sizeof edges[0];
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        for (size_t i = 0; i < ne * ne * ne; i++)
            int_case(ints[k], edges[i % ne], edges[i / ne % ne],
                     edges[i / ne / ne]);
        for (int i = 0; i < 20000; i++)
            int_case(ints[k], rnd64(), rnd64(), rnd64());
    }
}

static void any_all_nan(void)
{
    int8_t v[4] = {0, 0, -128, 1};
    int32_t r = -7;
    mathfn_one(MF_ANY, (ty_t){TY_CHAR, 4}, 0, false, &r, v, NULL, NULL);
    CHECK(r == 1, "any = %d", r);
    mathfn_one(MF_ALL, (ty_t){TY_CHAR, 4}, 0, false, &r, v, NULL, NULL);
    CHECK(r == 0, "all = %d", r);
    int64_t l[2] = {-1, INT64_MIN};
    mathfn_one(MF_ALL, (ty_t){TY_LONG, 2}, 0, false, &r, l, NULL, NULL);
    CHECK(r == 1, "all(long2) = %d", r);
    uint32_t code = 0x123;
    float q;
    mathfn_one(MF_QNAN, (ty_t){TY_UINT, 1}, 0, false, &q, &code, NULL, NULL);
    CHECK(fbits(q) == fbits(clvm_nanf(code)) && isnan(q), "nan(0x123)");
}

/* ---- geometric functions ---- */

static long double ldot(const double *x, const double *y, unsigned n)
{
    long double s = 0;
    for (unsigned k = 0; k < n; k++)
        s += (long double)x[k] * y[k];
    return s;
}

static void geometric(void)
{
    double worst[2] = {0, 0};
    for (int i = 0; i < 200000; i++) {
        unsigned n = 1 + (unsigned)(rnd64() % 4);
        bool f32 = i & 1;
        double x[4], y[4];
        for (unsigned k = 0; k < n; k++) {
            double a = (double)(int64_t)(rnd64() >> 11) * 0x1p-40;
            double b = (double)(int64_t)(rnd64() >> 11) * 0x1p-40;
            x[k] = f32 ? (double)(float)a : a;
            y[k] = f32 ? (double)(float)b : b;
        }
        /* positive terms: no cancellation, so the result is within an
         * ulp or so of the exact sum (long double holds the float case
         * exactly) */
        for (unsigned k = 0; k < n; k++)
            y[k] = fabs(y[k]), x[k] = fabs(x[k]);
        long double want = ldot(x, y, n);
        double got = geom_dot(x, y, n, f32);
        double ulp = f32 ? (double)nextafterf((float)want, INFINITY) -
                               (double)(float)want
                         : nextafter((double)want, INFINITY) - (double)want;
        double e = (double)fabsl((long double)got - want) / ulp;
        if (e > worst[f32])
            worst[f32] = e;
        double len = geom_length(x, n, f32);
        long double lw = sqrtl(ldot(x, x, n));
        CHECK(fabsl(len - lw) <= 1.01L * ulp * 4 + 1e-300L,
              "length off by %Lg", fabsl(len - lw));
    }
    CHECK(worst[0] <= 0.5 + 0x1p-10 && worst[1] <= 0.5 + 0x1p-20,
          "dot: %g ulp (double), %g ulp (float) from the exact sum",
          worst[0], worst[1]);
    /* cancellation: exact where the terms cancel exactly */
    double a[3] = {(float)1e20, 1, -(float)1e20},
           b[3] = {(float)1e20, 1, (float)1e20};
    CHECK(geom_dot(a, b, 3, false) == 1 && geom_dot(a, b, 3, true) == 1,
          "dot with cancellation");
    double big[2] = {1e300, 1e300}, tiny[2] = {0x1p-1074, 0};
    CHECK(geom_length(big, 2, false) == 1e300 * sqrt(2.0) ||
              fabs(geom_length(big, 2, false) / (1e300 * sqrt(2.0)) - 1) <
                  3e-16,
          "length without overflow");
    CHECK(geom_length(tiny, 2, false) == 0x1p-1074, "length of a denormal");
    double r[4], z4[4] = {0, -0.0, 0, 0}, inf4[4] = {INFINITY, 1, 0, 0};
    geom_normalize(r, z4, 4, true);
    CHECK(r[0] == 0 && signbit(r[1]), "normalize(0) is its operand");
    geom_normalize(r, inf4, 4, true);
    CHECK(r[0] == 1 && r[1] == 0, "normalize toward an infinity");
    double p[4] = {1, 2, 3, 9}, q[4] = {4, 5, 6, 9};
    geom_cross(r, p, q, 4, false);
    CHECK(r[0] == -3 && r[1] == 6 && r[2] == -3 && r[3] == 0, "cross");
}

static void shuffles(void)
{
    uint64_t x[4] = {10, 11, 12, 13}, y[4] = {20, 21, 22, 23}, r[8];
    uint64_t m[8] = {7, 6, 5, 4, 3, 2, 1, 0x100};
    geom_shuffle(r, x, y, m, 4, 8, true);
    CHECK(r[0] == 23 && r[3] == 20 && r[4] == 13 && r[7] == 10,
          "shuffle2");
    geom_shuffle(r, x, x, m, 4, 8, false);
    CHECK(r[0] == 13 && r[3] == 10 && r[7] == 10, "shuffle");
    /* through the table: a half vector moves its bits */
    uint16_t h[2] = {0x3c00, 0x7e00}, hm[4] = {1, 0, 1, 1}, hr[4];
    mathfn_one(MF_SHUFFLE, (ty_t){TY_HALF, 2}, 4, false, hr, h, hm, NULL);
    CHECK(hr[0] == 0x7e00 && hr[1] == 0x3c00 && hr[3] == 0x7e00,
          "shuffle of half");
}

/* ---- the pointer functions: the value and the output ---- */

static void pointer_functions(void)
{
    static const double xs[] = {8.0, -0.375, 1e-40, 0.0, -0.0, 1e30,
                                INFINITY, -INFINITY, NAN, 2.5, -7.25};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        float x = (float)xs[i], y = 0.75f, r, o;
        int e, ge, q, gq;
        mathfn_one(MF_FREXP, (ty_t){TY_FLOAT, 1}, 0, false, &r, &x, NULL,
                   NULL);
        mathfn_one(MF_FREXP, (ty_t){TY_FLOAT, 1}, 0, true, &ge, &x, NULL,
                   NULL);
        float w = clvm_frexpf(x, &e);
        CHECK(fbits(r) == fbits(w) && ge == e, "frexp(%a)", (double)x);
        float wi, wf = clvm_fractf(x, &wi);
        mathfn_one(MF_FRACT, (ty_t){TY_FLOAT, 1}, 0, false, &r, &x, NULL,
                   NULL);
        mathfn_one(MF_FRACT, (ty_t){TY_FLOAT, 1}, 0, true, &o, &x, NULL,
                   NULL);
        CHECK(fbits(r) == fbits(wf) && fbits(o) == fbits(wi), "fract(%a)",
              (double)x);
        double dx = xs[i], dr, dy = 0.75;
        mathfn_one(MF_REMQUO, (ty_t){TY_DOUBLE, 1}, 0, false, &dr, &dx, &dy,
                   NULL);
        mathfn_one(MF_REMQUO, (ty_t){TY_DOUBLE, 1}, 0, true, &gq, &dx, &dy,
                   NULL);
        double wr = clvm_remquo(dx, dy, &q);
        CHECK(dbits(dr) == dbits(wr) && gq == q, "remquo(%a)", dx);
        (void)y;
        double s, c, gs, gc;
        clvm_sincos(dx, &s, &c);
        mathfn_one(MF_SINCOS, (ty_t){TY_DOUBLE, 1}, 0, false, &gs, &dx, NULL,
                   NULL);
        mathfn_one(MF_SINCOS, (ty_t){TY_DOUBLE, 1}, 0, true, &gc, &dx, NULL,
                   NULL);
        CHECK(dbits(gs) == dbits(s) && dbits(gc) == dbits(c), "sincos(%a)",
              dx);
        int ls, gs2;
        double lg, lw = clvm_lgamma_r(dx, &ls);
        mathfn_one(MF_LGAMMA_R, (ty_t){TY_DOUBLE, 1}, 0, false, &lg, &dx,
                   NULL, NULL);
        mathfn_one(MF_LGAMMA_R, (ty_t){TY_DOUBLE, 1}, 0, true, &gs2, &dx,
                   NULL, NULL);
        CHECK(dbits(lg) == dbits(lw) && gs2 == ls, "lgamma_r(%a)", dx);
        int il;
        mathfn_one(MF_ILOGB, (ty_t){TY_DOUBLE, 1}, 0, false, &il, &dx, NULL,
                   NULL);
        CHECK(il == clvm_ilogb(dx), "ilogb(%a)", dx);
        int32_t k[2] = {3, -1080};
        double ld[2] = {dx, dx}, lr[2];
        mathfn_one(MF_LDEXP, (ty_t){TY_DOUBLE, 2}, 0, false, lr, ld, k,
                   NULL);
        CHECK(dbits(lr[0]) == dbits(clvm_ldexp(dx, 3)) &&
                  dbits(lr[1]) == dbits(clvm_ldexp(dx, -1080)),
              "ldexp(%a)", dx);
    }
}

/* ---- the types of each call ---- */

static void signatures(void)
{
    mf_sig s;
    const char *why;
    CHECK(mathfn_sig(MF_UPSAMPLE, (ty_t){TY_CHAR, 4}, 0, &s, &why) &&
              s.res.s == TY_SHORT && s.res.n == 4 && s.arg[1].s == TY_UCHAR,
          "upsample(char4, uchar4) gives short4");
    CHECK(!mathfn_sig(MF_UPSAMPLE, (ty_t){TY_LONG, 1}, 0, &s, &why),
          "no upsample of long");
    CHECK(mathfn_sig(MF_FREXP, (ty_t){TY_DOUBLE, 3}, 0, &s, &why) &&
              s.out.s == TY_INT && s.out.n == 3 && s.res.s == TY_DOUBLE,
          "frexp(double3, int3 *)");
    CHECK(mathfn_sig(MF_DOT, (ty_t){TY_FLOAT, 4}, 0, &s, &why) &&
              s.res.n == 1 && !mathfn_sig(MF_DOT, (ty_t){TY_FLOAT, 8}, 0, &s,
                                          &why),
          "dot: float4 yes, float8 no");
    CHECK(!mathfn_sig(MF_CROSS, (ty_t){TY_FLOAT, 2}, 0, &s, &why) &&
              mathfn_sig(MF_CROSS, (ty_t){TY_DOUBLE, 3}, 0, &s, &why),
          "cross: 3 or 4 components");
    CHECK(mathfn_sig(MF_SHUFFLE2, (ty_t){TY_SHORT, 8}, 2, &s, &why) &&
              s.res.n == 2 && s.arg[2].s == TY_USHORT && s.arg[2].n == 2 &&
              !mathfn_sig(MF_SHUFFLE, (ty_t){TY_SHORT, 3}, 2, &s, &why),
          "shuffle2(short8, short8, ushort2)");
    CHECK(mathfn_sig(MF_ABS_DIFF, (ty_t){TY_INT, 2}, 0, &s, &why) &&
              s.res.s == TY_UINT, "abs_diff gives the unsigned type");
    CHECK(mathfn_sig(MF_ANY, (ty_t){TY_LONG, 16}, 0, &s, &why) &&
              s.res.s == TY_INT && s.res.n == 1 &&
              !mathfn_sig(MF_ANY, (ty_t){TY_UINT, 2}, 0, &s, &why),
          "any(long16) gives int; no unsigned");
    CHECK(!mathfn_takes(MF_MUL24, TY_LONG) && mathfn_takes(MF_MUL24, TY_UINT),
          "mul24: 32-bit only");
    CHECK(!mathfn_takes(MF_HALF_SIN, TY_DOUBLE), "half_sin: float only");
}

/* ---- the verifier's rule for MATHS ---- */

static void verifier(void)
{
    static const char src[] =
        "kernel k(global float *p, float4 v, float4 w)\n"
        "    p[0] = dot(v, w)\n"
        "end\n";
    bc_module m;
    char err[256];
    if (asm_assemble(src, sizeof src - 1, "v.clasm", &m, stderr)) {
        CHECK(0, "the kernel does not assemble");
        return;
    }
    uint32_t *ms = t_find_op(&m, "MATHS_F32");
    CHECK(ms && ms[5] == MF_DOT && ms[4] == ms[2],
          "dot is MATHS_F32 with c = a");
    if (!ms) {
        bc_free(&m);
        return;
    }
    CHECK(!bc_verify(&m, err, sizeof err), "valid module: %s", err);
    const struct {
        unsigned word;
        uint32_t value;
        const char *msg;
    } bad[] = {
        {5, MF_SQRT, "not a shaped"},
        {5, MF_COUNT, "not a shaped"},
        {5, MF_CROSS, "operand 1"},          /* a float4 result */
        {5, MF_DOT | 4u << 16, "mask width"},
        {4, 0, "repeat operand 2"},          /* c is not a */
        {0, ((uint32_t)BC_F_SECOND << 24), "no pointer output"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t keep = ms[bad[i].word];
        ms[bad[i].word] = bad[i].word ? bad[i].value : keep | bad[i].value;
        CHECK(bc_verify(&m, err, sizeof err) && strstr(err, bad[i].msg),
              "mutation %zu: '%s', want '%s'", i, err, bad[i].msg);
        ms[bad[i].word] = keep;
    }
    bc_free(&m);
}

/* docs/ir.md's list of built-ins is the one the assembler's tables give
 * (make docs regenerates it). */
static void builtins_doc_current(void)
{
    t_check_doc("docs/ir.md", "builtins", asm_builtins_md);
}

int main(void)
{
    RUN(opencl_std_numbers);
    RUN(integer_functions);
    RUN(any_all_nan);
    RUN(geometric);
    RUN(shuffles);
    RUN(pointer_functions);
    RUN(signatures);
    RUN(verifier);
    RUN(builtins_doc_current);
    return t_summary("builtins");
}
