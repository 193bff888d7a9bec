/* stdlib/mathfn: every float function's error against a long double
 * reference over special and random inputs, within the bound its table row
 * claims (and never looser than OpenCL's); the relational, bit and integer
 * functions exactly, against independent references; the verifier's rules
 * for MATH1..3 and FTEST; docs/semantics.md's table is the generated one. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "vm/bcfile.h"
#include "tests/lib/bits.h"
#include "stdlib/libm.h"
#include "stdlib/mathfn.h"
#include "tests/lib/ops.h"
#include "tests/lib/test.h"

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t rnd64(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Du;
}
static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(rnd64() >> 11) * 0x1p-53;
}

/* ---- the reference: the same function in long double ---- */

static long double ref_smoothstep(long double e0, long double e1,
                                  long double x)
{
    long double t = (x - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

static long double ref(enum mathfn f, long double x, long double y,
                       long double z)
{
    switch (f) {
    case MF_SQRT: return sqrtl(x);
    case MF_RSQRT: return 1 / sqrtl(x);
    case MF_FLOOR: return floorl(x);
    case MF_CEIL: return ceill(x);
    case MF_TRUNC: return truncl(x);
    case MF_ROUND: return roundl(x);
    case MF_RINT: return rintl(x);
    case MF_EXP: return expl(x);
    case MF_EXP2: return exp2l(x);
    case MF_LOG: return logl(x);
    case MF_LOG2: return log2l(x);
    case MF_POW: return powl(x, y);
    case MF_SIN: return sinl(x);
    case MF_COS: return cosl(x);
    case MF_TAN: return tanl(x);
    case MF_MIX: return x + (y - x) * z;
    case MF_STEP: return y < x ? 0 : 1;
    case MF_SMOOTHSTEP: return ref_smoothstep(x, y, z);
    case MF_SIGN: return x > 0 ? 1 : x < 0 ? -1 : x == 0 ? x : 0;
    default: return NAN;
    }
}

/* OpenCL's ulp of a real r in a type of p significant bits whose
 * smallest normal is 2^emin: 2^(e - p + 1) for 2^e <= |r|, never below
 * the smallest denormal. */
static long double ulp_of(long double r, int p, int emin)
{
    int e;
    frexpl(fabsl(r), &e);   /* |r| = m * 2^e, m in [0.5, 1) */
    e -= 1;
    if (e < emin || r == 0)
        e = emin;
    return ldexpl(1, e - p + 1);
}

typedef struct {
    int p, emin;
    long double max;
    bool dbl;
} fmt;
static const fmt F32 = {24, -126, FLT_MAX, false};
static const fmt F64 = {53, -1022, DBL_MAX, true};

/* The error of got against the exact r, in the function's unit (ulp or
 * absolute); INFINITY where the special values disagree. */
static long double err_of(const mathfn_info *m, long double got,
                          long double r, const fmt *t)
{
    if (isnan(r) || isnan(got))
        return isnan(r) && isnan(got) ? 0 : INFINITY;
    if (isinf(got) || isinf(r)) {
        /* an infinite result stands for anything past the largest finite
         * value (the rounded result overflows) */
        if (isinf(got) && signbit(got) == signbit(r) && fabsl(r) > t->max)
            return 0;
        if (!isinf(r))
            return INFINITY;
        return isinf(got) && signbit(got) == signbit(r) ? 0 : INFINITY;
    }
    if (m->unit == MF_ABS)
        return fabsl(got - r);
    if (r == 0 && got == 0 && signbit(got) != signbit(r))
        return INFINITY;
    long double a = fabsl(r) > t->max ? t->max : r;
    return fabsl(got - r) / ulp_of(a, t->p, t->emin);
}

/* The reference is long double: 11 more bits than double, so a correct
 * double result may appear up to 2^-10 ulp off. */
static double allowance(const mathfn_info *m, const fmt *t)
{
    double b = m->bound[t->dbl];
    return m->unit == MF_ULP && b > 0 ? b + (t->dbl ? 0x1p-10 : 0x1p-30) : b;
}

/* OpenCL's limits (Relative Error as ULPs), full profile; the table may
 * only be tighter. mix, smoothstep: absolute 1e-3, 1e-5 (float; double is
 * implementation-defined). */
static double opencl_bound(enum mathfn f, bool dbl)
{
    switch (f) {
    case MF_SQRT: return dbl ? 0.5 : 3;
    case MF_RSQRT: return 2;
    case MF_EXP: case MF_EXP2: case MF_LOG: case MF_LOG2: return 3;
    case MF_POW: case MF_POWR: return 16;
    case MF_SIN: case MF_COS: return 4;
    case MF_TAN: return 5;
    case MF_EXP10: case MF_EXPM1: case MF_LOG10: return 3;
    case MF_LOG1P: case MF_CBRT: return 2;
    case MF_ASIN: case MF_ACOS: case MF_SINH: case MF_COSH: case MF_ASINH:
    case MF_ACOSH: case MF_SINPI: case MF_COSPI: case MF_HYPOT: return 4;
    case MF_ATAN: case MF_TANH: case MF_ATANH: case MF_ASINPI:
    case MF_ACOSPI: case MF_ATANPI: return 5;
    case MF_TANPI: case MF_ATAN2: case MF_ATAN2PI: return 6;
    case MF_FDIM: case MF_LDEXP: return 0.5;   /* correctly rounded */
    case MF_DEGREES: case MF_RADIANS: return 2;
    case MF_SINCOS: return 4;
    case MF_POWN: case MF_ROOTN: return 16;
    case MF_HALF_COS: case MF_HALF_EXP: case MF_HALF_EXP2:
    case MF_HALF_EXP10: case MF_HALF_LOG: case MF_HALF_LOG2:
    case MF_HALF_LOG10: case MF_HALF_POWR: case MF_HALF_RECIP:
    case MF_HALF_RSQRT: case MF_HALF_SIN: case MF_HALF_SQRT:
    case MF_HALF_TAN: case MF_HALF_DIVIDE: return 8192;
    case MF_NATIVE_COS: case MF_NATIVE_EXP: case MF_NATIVE_EXP2:
    case MF_NATIVE_EXP10: case MF_NATIVE_LOG: case MF_NATIVE_LOG2:
    case MF_NATIVE_LOG10: case MF_NATIVE_POWR: case MF_NATIVE_RECIP:
    case MF_NATIVE_RSQRT: case MF_NATIVE_SIN: case MF_NATIVE_SQRT:
    case MF_NATIVE_TAN: case MF_NATIVE_DIVIDE:
        return INFINITY;   /* implementation-defined */
    case MF_ERF: case MF_ERFC: case MF_TGAMMA: return 16;
    case MF_LGAMMA: case MF_LGAMMA_R: return INFINITY; /* "Undefined" */
    case MF_MIX: return dbl ? INFINITY : 1e-3;
    case MF_SMOOTHSTEP: return dbl ? INFINITY : 1e-5;
    default: return 0;   /* exact: rounding, sign, step, tests, bits */
    }
}

static void table_within_opencl(void)
{
    for (int f = 0; f < MF_COUNT; f++) {
        if (mathfns[f].dom != MFD_FLT)
            continue;
        for (int d = 0; d < 2; d++)
            CHECK(mathfns[f].bound[d] <= opencl_bound((enum mathfn)f, d),
                  "%s (%s): table bound %g is looser than OpenCL's %g",
                  mathfns[f].name, d ? "double" : "float",
                  mathfns[f].bound[d], opencl_bound((enum mathfn)f, d));
    }
}

/* ---- inputs ---- */

static const double specials[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.0, 3.0, -3.0,
    0.49999999999999994, 0x1.000002p0, 0x1.fffffep-1, 10.0, 100.0, 88.7,
    89.0, -87.3, -104.0, -150.0, 128.0, -126.0, 127.9, 709.0, 710.0,
    -745.0, 1024.0, -1075.0, 0x1p-149, -0x1p-149, 0x1p-126, 0x1.fffffcp-127,
    0x1p-1074, -0x1p-1074, 0x1p-1022, 0x0.fffffffffffffp-1022,
    3.14159265358979, 1.5707963267948966, -1.5707963267948966,
    3.141592653589793, 6.283185307179586, 1e6, 1e10, 1e15, 1e22, -1e22,
    1e30, 3.4e38, 1e100, 1e300, 1.7976931348623157e308, -1e300, 0x1p24,
    0x1p52, 0x1.fffffep23, 0x1.fffffffffffffp51, 8388609.5, 4503599627370497.0,
    INFINITY, -INFINITY, NAN, -NAN,
};
enum { NSPEC = sizeof specials / sizeof specials[0] };

/* Random operands: any bits, or a range where the function is busy. */
static double draw(bool dbl, int kind)
{
    switch (kind) {
    case 0:
        return dbl ? bitsd(rnd64()) : (double)bitsf((uint32_t)rnd64());
    case 1: return uniform(-10, 10);
    case 2: return uniform(-1000, 1000);
    case 3: return uniform(0, 1);
    default: return specials[rnd64() % NSPEC];
    }
}

/* Operands as the type holds them. */
static double as_type(double v, bool dbl) { return dbl ? v : (double)(float)v; }

static long double run1(enum mathfn f, bool dbl, double x, double y,
                        double z)
{
    if (dbl) {
        double r, a[3] = {x, y, z};
        mathfn_run(f, TY_DOUBLE, &r, &a[0], &a[1], &a[2], 1, false);
        return r;
    }
    float r, a[3] = {(float)x, (float)y, (float)z};
    mathfn_run(f, TY_FLOAT, &r, &a[0], &a[1], &a[2], 1, false);
    return r;
}

/* Domains where OpenCL defines the result: mix's a in [0, 1],
 * smoothstep's edge0 < edge1. Elsewhere anything goes. */
static bool defined_for(enum mathfn f, double x, double y, double z)
{
    if (f == MF_MIX)
        return z >= 0 && z <= 1 && fabs(x) <= 1000 && fabs(y) <= 1000;
    if (f == MF_SMOOTHSTEP)
        return x < y && isfinite(x) && isfinite(y) && isfinite(z) &&
               y - x > 1e-3 && fabs(x) <= 1e3 && fabs(y) <= 1e3;
    return true;
}

static void accuracy_one(enum mathfn f, const fmt *t, long nrand)
{
    const mathfn_info *m = &mathfns[f];
    double worst = 0, wx = 0, wy = 0, wz = 0;
    long n = 0;
    const double lim = allowance(m, t);
    /* every special value, or every pair of them */
    const long nspec = m->nargs == 1 ? NSPEC : (long)NSPEC * NSPEC;
    for (long i = -nspec; i < nrand; i++) {
        double x, y, z;
        if (i < 0) {
            long k = i + nspec;
            x = specials[m->nargs == 1 ? k : k / NSPEC];
            y = specials[k % NSPEC], z = specials[(k * 7) % NSPEC];
        } else {
            int kind = (int)(rnd64() % 5);
            x = draw(t->dbl, kind), y = draw(t->dbl, kind);
            z = draw(t->dbl, f == MF_MIX ? 3 : kind);
        }
        x = as_type(x, t->dbl), y = as_type(y, t->dbl), z = as_type(z, t->dbl);
        if (!defined_for(f, x, y, z))
            continue;
        long double r = ref(f, x, y, z);
        long double e = err_of(m, run1(f, t->dbl, x, y, z), r, t);
        n++;
        if (e > worst || isnan(e))
            worst = (double)e, wx = x, wy = y, wz = z;
    }
    CHECK(worst <= lim, "%s (%s): error %g > %g at (%a, %a, %a) -> %a",
          m->name, t->dbl ? "double" : "float", worst, lim, wx, wy, wz,
          (double)run1(f, t->dbl, wx, wy, wz));
    CHECK(n > 1000, "%s: only %ld inputs in its domain", m->name, n);
    if (getenv("MATHFN_VERBOSE"))
        printf("  %-10s %-6s max error %.3g (%s, %ld inputs)\n", m->name,
               t->dbl ? "double" : "float", worst,
               m->unit == MF_ABS ? "abs" : "ulp", n);
}

/* The rows before the relational ones have a long double reference here;
 * the later cl_ rows are checked for giving stdlib/libm's bits (wiring),
 * their accuracy by tests/unit/test_libm.c against MPFR. */
static bool has_ref(int f) { return f < MF_ISNAN; }

static void accuracy(void)
{
    for (int f = 0; f < MF_COUNT; f++) {
        if (mathfns[f].dom != MFD_FLT || mathfns[f].shape != MFS_SAME ||
            !has_ref(f))
            continue;
        accuracy_one((enum mathfn)f, &F32, 60000);
        accuracy_one((enum mathfn)f, &F64, 60000);
    }
}


/* ---- the cl_ rows give stdlib/libm's results, bit for bit ---- */

static const struct {
    enum mathfn f;
    double (*d1)(double);
    float (*f1)(float);
    double (*d2)(double, double);
    float (*f2)(float, float);
} libm_rows[] = {
#define L1(E, n) {MF_##E, clvm_##n, clvm_##n##f, NULL, NULL}
#define L2(E, n) {MF_##E, NULL, NULL, clvm_##n, clvm_##n##f}
    L1(SQRT, sqrt), L1(RSQRT, rsqrt), L1(FLOOR, floor), L1(CEIL, ceil),
    L1(TRUNC, trunc), L1(ROUND, round), L1(RINT, rint), L1(EXP, exp),
    L1(EXP2, exp2), L1(LOG, log), L1(LOG2, log2), L2(POW, pow),
    L1(SIN, sin), L1(COS, cos), L1(TAN, tan), L1(EXP10, exp10),
    L1(EXPM1, expm1), L1(LOG10, log10), L1(LOG1P, log1p), L1(CBRT, cbrt),
    L1(ASIN, asin), L1(ACOS, acos), L1(ATAN, atan), L1(SINH, sinh),
    L1(COSH, cosh), L1(TANH, tanh), L1(ASINH, asinh), L1(ACOSH, acosh),
    L1(ATANH, atanh), L1(SINPI, sinpi), L1(COSPI, cospi), L1(TANPI, tanpi),
    L1(ASINPI, asinpi), L1(ACOSPI, acospi), L1(ATANPI, atanpi),
    L1(LOGB, logb), L2(ATAN2, atan2), L2(ATAN2PI, atan2pi),
    L2(HYPOT, hypot), L2(POWR, powr), L2(FMOD, fmod),
    L2(REMAINDER, remainder), L2(FDIM, fdim), L2(MAXMAG, maxmag),
    L2(MINMAG, minmag), L2(NEXTAFTER, nextafter), L2(COPYSIGN, copysign),
    L1(ERF, erf), L1(ERFC, erfc), L1(TGAMMA, tgamma), L1(LGAMMA, lgamma),
#undef L1
#undef L2
};

static void libm_wiring(void)
{
    size_t nrows = sizeof libm_rows / sizeof libm_rows[0];
    int cl = 0;
    /* the elementwise rows named as their stdlib/libm function (the
     * half_ and native_ forms, computed as the full functions, and the
     * shaped rows are checked by test_builtins) */
    for (int f = 0; f < MF_COUNT; f++)
        cl += mathfns[f].impl && !strncmp(mathfns[f].impl, "cl_", 3) &&
              mathfn_form((enum mathfn)f) == MF_FORM_MATH &&
              strncmp(mathfns[f].name, "half_", 5) &&
              strncmp(mathfns[f].name, "native_", 7);
    CHECK((size_t)cl == nrows, "%d cl_ rows in MATHFNS, %zu here", cl, nrows);
    for (size_t k = 0; k < nrows; k++) {
        enum mathfn f = libm_rows[k].f;
        CHECK(!strncmp(mathfns[f].impl, "cl_", 3) &&
                  !strncmp(mathfns[f].impl + 3, mathfns[f].name,
                           strlen(mathfns[f].name)),
              "%s: computed as %s", mathfns[f].name, mathfns[f].impl);
        for (long i = 0; i < NSPEC * 4 + 3000; i++) {
            double x = i < NSPEC * 4 ? specials[i % NSPEC] : draw(true, (int)(rnd64() % 5));
            double y = i < NSPEC * 4 ? specials[(i * 7 + i / NSPEC) % NSPEC] : draw(true, (int)(rnd64() % 5));
            double a[2] = {x, y}, rd;
            float af[2] = {(float)x, (float)y}, rf;
            mathfn_run(f, TY_DOUBLE, &rd, &a[0], &a[1], NULL, 1, false);
            mathfn_run(f, TY_FLOAT, &rf, &af[0], &af[1], NULL, 1, false);
            double wd = libm_rows[k].d1 ? libm_rows[k].d1(x) : libm_rows[k].d2(x, y);
            float wf = libm_rows[k].f1 ? libm_rows[k].f1(af[0]) : libm_rows[k].f2(af[0], af[1]);
            CHECK(dbits(rd) == dbits(wd) && fbits(rf) == fbits(wf),
                  "%s(%a, %a): table gives %a / %a, stdlib/libm %a / %a",
                  mathfns[f].name, x, y, rd, (double)rf, wd, (double)wf);
        }
    }
}

/* Known values: the cases that tell a careful implementation apart. */
static void special_cases(void)
{
    static const struct {
        enum mathfn f;
        double x, y, want;
    } cs[] = {
        {MF_POW, -1, INFINITY, 1},  {MF_POW, -1, -INFINITY, 1},
        {MF_POW, NAN, 0, 1},        {MF_POW, 1, NAN, 1},
        {MF_POW, -0.0, -3, -INFINITY}, {MF_POW, 0.0, -3, INFINITY},
        {MF_POW, -0.0, 3, -0.0},    {MF_POW, -8, 1.0 / 3, NAN},
        {MF_POW, -2, 3, -8},        {MF_POW, 0.5, -INFINITY, INFINITY},
        {MF_POW, 2, -INFINITY, 0},  {MF_POW, -INFINITY, -3, -0.0},
        {MF_RSQRT, 0.0, 0, INFINITY}, {MF_RSQRT, -0.0, 0, -INFINITY},
        {MF_RSQRT, -1, 0, NAN},     {MF_RSQRT, 4, 0, 0.5},
        {MF_SQRT, -0.0, 0, -0.0},   {MF_SQRT, -1, 0, NAN},
        {MF_LOG, 0, 0, -INFINITY},  {MF_LOG, -1, 0, NAN},
        {MF_LOG2, 1024, 0, 10},     {MF_EXP2, -1074, 0, 0x1p-1074},
        {MF_EXP, -INFINITY, 0, 0},  {MF_SIN, -0.0, 0, -0.0},
        {MF_SIN, 1e22, 0, -0.8522008497671888},
        {MF_COS, 1e22, 0, 0x1.0be2cef01c8f4p-1},
        {MF_TAN, -0.0, 0, -0.0},    {MF_SIN, INFINITY, 0, NAN},
        {MF_ROUND, 2.5, 0, 3},      {MF_ROUND, -2.5, 0, -3},
        {MF_ROUND, -0.4, 0, -0.0},  {MF_RINT, 2.5, 0, 2},
        {MF_RINT, 3.5, 0, 4},       {MF_FLOOR, -0.5, 0, -1},
        {MF_CEIL, -0.5, 0, -0.0},   {MF_TRUNC, -1.7, 0, -1},
        {MF_SIGN, -0.0, 0, -0.0},   {MF_SIGN, NAN, 0, 0},
        {MF_SIGN, -1e-300, 0, -1},  {MF_SIGN, INFINITY, 0, 1},
        {MF_STEP, 1, 0.5, 0},       {MF_STEP, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        double r, a[3] = {cs[i].x, cs[i].y, 0};
        mathfn_run(cs[i].f, TY_DOUBLE, &r, &a[0], &a[1], &a[2], 1, false);
        bool ok = isnan(cs[i].want) ? isnan(r)
                                    : dbits(r) == dbits(cs[i].want);
        CHECK(ok, "%s(%g, %g) = %a, want %a", mathfns[cs[i].f].name,
              cs[i].x, cs[i].y, r, cs[i].want);
    }
    /* float: computed in double, rounded once */
    float r, x = 0x1.fffffep127f, y = 2;
    mathfn_run(MF_POW, TY_FLOAT, &r, &x, &y, NULL, 1, false);
    CHECK(r == INFINITY, "pow(FLT_MAX, 2) in float = %a", r);
    x = -0x1p-149f;
    mathfn_run(MF_SQRT, TY_FLOAT, &r, &x, NULL, NULL, 1, false);
    CHECK(isnan(r), "sqrt(-denorm) = %a", r);
    x = 0x1p-149f;
    mathfn_run(MF_RSQRT, TY_FLOAT, &r, &x, NULL, NULL, 1, false);
    CHECK(r == 0x1.6a09e6p+74f, "rsqrt(0x1p-149f) = %a", r);
}

/* ---- relational, bit and integer functions: exact ---- */

static void relational(void)
{
    static const enum mathfn fs[] = {MF_ISNAN, MF_ISINF, MF_ISFINITE,
                                     MF_SIGNBIT};
    for (size_t k = 0; k < 4; k++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int vec = 0; vec < 2; vec++)
                for (long i = 0; i < NSPEC + 2000; i++) {
                    double v = i < NSPEC ? specials[i] : draw(dbl, 0);
                    v = as_type(v, dbl);
                    bool want = fs[k] == MF_ISNAN ? isnan(v)
                              : fs[k] == MF_ISINF ? isinf(v)
                              : fs[k] == MF_ISFINITE ? isfinite(v)
                                                     : signbit(v) != 0;
                    uint64_t got;
                    if (dbl) {
                        mathfn_run(fs[k], TY_DOUBLE, &got, &v, NULL, NULL, 1,
                                   vec);
                    } else {
                        float fv = (float)v;
                        uint32_t g32;
                        mathfn_run(fs[k], TY_FLOAT, &g32, &fv, NULL, NULL, 1,
                                   vec);
                        got = g32 == UINT32_MAX ? UINT64_MAX : g32;
                    }
                    uint64_t tv = vec ? UINT64_MAX : 1;
                    CHECK(got == (want ? tv : 0), "%s(%a) %s = 0x%llx",
                          mathfns[fs[k]].name, v, vec ? "vector" : "scalar",
                          (unsigned long long)got);
                }
}

static const enum ty_scalar itypes[] = {TY_CHAR, TY_UCHAR, TY_SHORT,
                                        TY_USHORT, TY_INT, TY_UINT,
                                        TY_LONG, TY_ULONG};

static uint64_t mask_w(unsigned w)
{
    return w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

/* Runs f on one element of type t (bits zero-extended in and out). */
static uint64_t irun(enum mathfn f, enum ty_scalar t, uint64_t x, uint64_t y,
                     uint64_t z)
{
    unsigned sz = ty_scalar_size(t);
    uint8_t a[3][8], d[8] = {0};
    uint64_t v[3] = {x, y, z};
    for (int k = 0; k < 3; k++)
        put_le(a[k], sz, v[k]);
    mathfn_run(f, t, d, a[0], a[1], a[2], 1, false);
    return get_le(d, sz);
}

#ifdef __SIZEOF_INT128__
typedef __int128 i128;
/* The w-bit value v as an integer of its type. */
static i128 val(uint64_t v, unsigned w, bool s)
{
    v &= mask_w(w);
    if (s && w < 64 && (v >> (w - 1) & 1))
        return (i128)v - ((i128)1 << w);
    if (s && w == 64)
        return (i128)(int64_t)v;
    return (i128)v;
}

static uint64_t sat(i128 r, unsigned w, bool s)
{
    i128 lo = s ? -((i128)1 << (w - 1)) : 0;
    i128 hi = s ? ((i128)1 << (w - 1)) - 1 : ((i128)1 << w) - 1;
    r = r < lo ? lo : r > hi ? hi : r;
    return (uint64_t)r & mask_w(w);
}
#endif

/* Edge operands for w bits: 0, 1, -1, MIN, MAX and neighbours. */
static uint64_t iedge(unsigned w, unsigned k)
{
    const uint64_t m = mask_w(w), top = UINT64_C(1) << (w - 1);
    const uint64_t e[] = {0, 1, 2, m, m - 1, top, top - 1, top + 1, w,
                          w + 1, 2 * w, 3};
    return e[k % 12] & m;
}

static void integers(void)
{
#ifndef __SIZEOF_INT128__
    t_skip("no 128-bit integer type for the reference");
#else
    for (size_t ti = 0; ti < 8; ti++) {
        enum ty_scalar t = itypes[ti];
        unsigned w = 8 * ty_scalar_size(t);
        bool s = ty_is_signed(t);
        for (long i = 0; i < 144 + 5000; i++) {
            uint64_t x = i < 144 ? iedge(w, (unsigned)i / 12)
                                 : rnd64() & mask_w(w);
            uint64_t y = i < 144 ? iedge(w, (unsigned)i) : rnd64() & mask_w(w);
            i128 a = val(x, w, s), b = val(y, w, s);
            uint64_t want, got;
            want = sat(a + b, w, s);
            got = irun(MF_ADD_SAT, t, x, y, 0);
            CHECK(got == want, "add_sat %s 0x%llx 0x%llx = 0x%llx",
                  ty_scalar_name(t), (unsigned long long)x,
                  (unsigned long long)y, (unsigned long long)got);
            want = sat(a - b, w, s);
            got = irun(MF_SUB_SAT, t, x, y, 0);
            CHECK(got == want, "sub_sat %s 0x%llx 0x%llx = 0x%llx",
                  ty_scalar_name(t), (unsigned long long)x,
                  (unsigned long long)y, (unsigned long long)got);
            /* the product's bits w..2w-1, by two's complement */
            unsigned __int128 p = s ? (unsigned __int128)(a * b)
                                    : (unsigned __int128)a *
                                          (unsigned __int128)b;
            want = (uint64_t)(p >> w) & mask_w(w);
            got = irun(MF_MUL_HI, t, x, y, 0);
            CHECK(got == want, "mul_hi %s 0x%llx 0x%llx = 0x%llx",
                  ty_scalar_name(t), (unsigned long long)x,
                  (unsigned long long)y, (unsigned long long)got);
            /* rotate, bit by bit: bit k goes to (k + y) mod w */
            want = 0;
            for (unsigned k = 0; k < w; k++)
                if (x >> k & 1)
                    want |= UINT64_C(1) << ((k + (y % w)) % w);
            got = irun(MF_ROTATE, t, x, y, 0);
            CHECK(got == want, "rotate %s 0x%llx by %lld = 0x%llx",
                  ty_scalar_name(t), (unsigned long long)x, (long long)b,
                  (unsigned long long)got);
            unsigned lz = 0, pc = 0;
            while (lz < w && !(x >> (w - 1 - lz) & 1))
                lz++;
            for (unsigned k = 0; k < w; k++)
                pc += x >> k & 1;
            CHECK(irun(MF_CLZ, t, x, 0, 0) == lz, "clz %s 0x%llx",
                  ty_scalar_name(t), (unsigned long long)x);
            CHECK(irun(MF_POPCOUNT, t, x, 0, 0) == pc, "popcount %s 0x%llx",
                  ty_scalar_name(t), (unsigned long long)x);
            uint64_t z = rnd64() & mask_w(w), bs = 0;
            for (unsigned k = 0; k < w; k++)
                bs |= ((z >> k & 1) ? y : x) & (UINT64_C(1) << k);
            CHECK(irun(MF_BITSELECT, t, x, y, z) == bs, "bitselect %s",
                  ty_scalar_name(t));
        }
    }
#endif
}

static void bitselect_floats(void)
{
    for (int i = 0; i < 1000; i++) {
        uint32_t a = (uint32_t)rnd64(), b = (uint32_t)rnd64(),
                 c = (uint32_t)rnd64(), r;
        float fa = bitsf(a), fb = bitsf(b), fc = bitsf(c), fr;
        mathfn_run(MF_BITSELECT, TY_FLOAT, &fr, &fa, &fb, &fc, 1, false);
        r = fbits(fr);
        for (int k = 0; k < 32; k++)
            CHECK((r >> k & 1) == ((c >> k & 1) ? b >> k & 1 : a >> k & 1),
                  "bitselect float bit %d", k);
        uint64_t x = rnd64(), y = rnd64(), z = rnd64();
        double dx = bitsd(x), dy = bitsd(y), dz = bitsd(z), dr;
        mathfn_run(MF_BITSELECT, TY_DOUBLE, &dr, &dx, &dy, &dz, 1, false);
        CHECK(dbits(dr) == ((x & ~z) | (y & z)), "bitselect double");
    }
}

/* Loops over many elements, in place: d may be an operand. */
static void loops_in_place(void)
{
    float v[37];
    for (int i = 0; i < 37; i++)
        v[i] = (float)i * 0.25f;
    mathfn_run(MF_SQRT, TY_FLOAT, v, v, NULL, NULL, 37, true);
    for (int i = 0; i < 37; i++)
        CHECK(v[i] == (float)sqrt(i * 0.25), "sqrt in place [%d] = %a", i,
              v[i]);
    CHECK(!mathfn_takes(MF_SQRT, TY_INT) && !mathfn_takes(MF_CLZ, TY_FLOAT) &&
              mathfn_takes(MF_SQRT, TY_HALF) &&
              !mathfn_takes(MF_CLZ, TY_HALF) &&
              !mathfn_takes(MF_HALF_SQRT, TY_HALF) &&
              mathfn_takes(MF_BITSELECT, TY_UCHAR) &&
              !mathfn_takes(MF_COUNT, TY_FLOAT),
          "domains");
    CHECK(mathfn_find("smoothstep", 10) == MF_SMOOTHSTEP &&
              mathfn_find("smooth", 6) < 0 && mathfn_find("mad", 3) < 0,
          "mathfn_find");
}

/* ---- the verifier's rules for MATH* and FTEST ---- */

static void verifier(void)
{
    static const char src[] =
        "kernel k(global float *p, global int *q)\n"
        "    float4 f = vload4(0, p)\n"
        "    f = sqrt(f)\n"
        "    q[0] = isnan(p[1])\n"
        "end\n";
    bc_module m;
    char err[256];
    if (asm_assemble(src, sizeof src - 1, "v.clasm", &m, stderr)) {
        CHECK(0, "the kernel does not assemble");
        return;
    }
    uint32_t *sq = t_find_op(&m, "MATH1_F32"), *ft = t_find_op(&m, "FTEST_F32");
    CHECK(sq && ft, "no MATH1_F32 or FTEST_F32");
    if (!sq || !ft) {
        bc_free(&m);
        return;
    }
    CHECK(sq[3] == MF_SQRT && ft[3] == MF_ISNAN, "function ids");
    CHECK(!bc_verify(&m, err, sizeof err), "valid module: %s", err);
    const struct {
        uint32_t *at;
        uint32_t id;
        const char *msg;
    } bad[] = {
        {sq, MF_COUNT, "out of range"},
        {sq, MF_POW, "takes 2 operands"},
        {sq, MF_ISNAN, "takes 1 operand and gives a mask"},
        {sq, MF_CLZ, "clz does not take float"},
        {ft, MF_SQRT, "sqrt takes 1 operand and gives a value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t keep = bad[i].at[3];
        bad[i].at[3] = bad[i].id;
        CHECK(bc_verify(&m, err, sizeof err) && strstr(err, bad[i].msg),
              "id %u: '%s', want '%s'", bad[i].id, err, bad[i].msg);
        bad[i].at[3] = keep;
    }
    bc_free(&m);
}

/* ---- docs/semantics.md shows the table ---- */

static void doc_current(void)
{
    t_check_doc("docs/semantics.md", "mathfn", mathfn_write_md);
}

int main(void)
{
    RUN(table_within_opencl);
    RUN(accuracy);
    RUN(libm_wiring);
    RUN(special_cases);
    RUN(relational);
    RUN(integers);
    RUN(bitselect_floats);
    RUN(loops_in_place);
    RUN(verifier);
    RUN(doc_current);
    return t_summary("mathfn");
}
