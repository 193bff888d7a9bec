/* half.c against an independent reference: the value of every half from
 * its definition (ldexp of the integer significand), and rounding by
 * bracketing x between two adjacent entries of the sorted table of all
 * finite halves, then picking by mode. Only exact double arithmetic is
 * used (comparisons, ldexp, midpoints of two halves). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stdlib/half.h"
#include "tests/lib/bits.h"
#include "tests/lib/test.h"

static const enum rnd modes[] = {
#define X(E, n) RND_##E,
    RND_MODES(X)
#undef X
};
#define NMODES (int)(sizeof modes / sizeof modes[0])

/* val[k]: the value of the positive half with bits k, for k < 0x7c00;
 * val[0x7c00] is 65536, where the next half would be with an unbounded
 * exponent. IEEE overflow is rounding against that value. */
static double val[0x7c01];

static void make_table(void)
{
    for (int k = 0; k < 0x7c00; k++)
        val[k] = k < 0x400 ? ldexp(k, -24)
                           : ldexp(1024 + (k & 0x3ff), (k >> 10) - 25);
    val[0x7c00] = 65536.0;
}


/* The correctly rounded half of a non-NaN x in each mode, into out[]. */
static void reference(double x, uint16_t out[])
{
    unsigned s = signbit(x) ? 0x8000u : 0;
    double a = fabs(x);
    unsigned lo, hi;
    int side; /* <0: below the midpoint of [lo, hi], 0 on it, >0 above */
    if (isinf(a)) {
        for (int i = 0; i < NMODES; i++)
            out[i] = (uint16_t)(s | 0x7c00);
        return;
    }
    if (a >= 65536.0) {
        lo = 0x7bff, hi = 0x7c00, side = 1;
    } else { /* the largest lo with val[lo] <= a */
        unsigned l = 0, h = 0x7c00;
        while (h - l > 1) {
            unsigned m = (l + h) / 2;
            if (val[m] <= a)
                l = m;
            else
                h = m;
        }
        lo = l, hi = l + 1;
        if (val[lo] == a) {
            for (int i = 0; i < NMODES; i++)
                out[i] = (uint16_t)(s | lo);
            return;
        }
        double mid = (val[lo] + val[hi]) / 2; /* exact: 12 bits */
        side = a < mid ? -1 : a > mid;
    }
    for (int i = 0; i < NMODES; i++) {
        unsigned k;
        switch (modes[i]) {
        case RND_RTE: k = side < 0 ? lo : side > 0 ? hi : (lo & 1 ? hi : lo);
            break;
        case RND_RTZ: k = lo; break;
        case RND_RTP: k = s ? lo : hi; break;
        case RND_RTN: k = s ? hi : lo; break;
        default: k = 0xffff; break;
        }
        out[i] = (uint16_t)(s | k);
    }
}

static void check_double(double x)
{
    uint16_t want[NMODES];
    if (isnan(x)) {
        uint64_t b = dbits(x);
        unsigned w = (unsigned)(b >> 48 & 0x8000) | 0x7e00 |
                     (unsigned)(b >> 42 & 0x3ff);
        for (int i = 0; i < NMODES; i++)
            CHECK(half_from_double(x, modes[i]) == w, "NaN %016llx %s",
                  (unsigned long long)b, rnd_name(modes[i]));
        return;
    }
    reference(x, want);
    for (int i = 0; i < NMODES; i++) {
        uint16_t got = half_from_double(x, modes[i]);
        CHECK(got == want[i], "double %a (%016llx) %s: got %04x want %04x", x,
              (unsigned long long)dbits(x), rnd_name(modes[i]), got, want[i]);
    }
}

/* half_from_float, and half_from_double of the same (exactly widened)
 * value, both against the reference. */
static void check_float(float f)
{
    uint16_t want[NMODES];
    if (isnan(f)) {
        uint32_t b = fbits(f);
        unsigned w = (b >> 16 & 0x8000) | 0x7e00 | (b >> 13 & 0x3ff);
        for (int i = 0; i < NMODES; i++)
            CHECK(half_from_float(f, modes[i]) == w, "NaN %08x %s",
                  (unsigned)b, rnd_name(modes[i]));
        return;
    }
    reference(f, want);
    for (int i = 0; i < NMODES; i++) {
        uint16_t got = half_from_float(f, modes[i]);
        uint16_t gotd = half_from_double(f, modes[i]);
        CHECK(got == want[i] && gotd == want[i],
              "float %a (%08x) %s: got %04x/%04x want %04x", (double)f,
              (unsigned)fbits(f), rnd_name(modes[i]), got, gotd, want[i]);
    }
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t xorshift(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* ---- widening ---- */

static void spec_values(void)
{
    static const struct { uint16_t h; double v; } cases[] = {
        {0x3c00, 1.0},      {0xbc00, -1.0},   {0x7bff, 65504.0},
        {0x0001, 0x1p-24},  {0x0400, 0x1p-14}, {0x03ff, 0x3ffp-24},
        {0x3555, 0x555p-12}, {0xc000, -2.0}, {0x0000, 0.0},
        {0x7c00, INFINITY}, {0xfc00, -INFINITY},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double d = half_to_double(cases[i].h);
        float f = half_to_float(cases[i].h);
        CHECK(dbits(d) == dbits(cases[i].v), "%04x -> %a", cases[i].h, d);
        CHECK(fbits(f) == fbits((float)cases[i].v), "%04x -> %a", cases[i].h,
              (double)f);
    }
    CHECK(dbits(half_to_double(0x8000)) == 0x8000000000000000u, "-0");
    CHECK(fbits(half_to_float(0x8000)) == 0x80000000u, "-0f");
    CHECK(fbits(half_to_float(0x7e00)) == 0x7fc00000u, "qnan");
    CHECK(fbits(half_to_float(0x7c01)) == 0x7fc02000u, "snan quieted");
    CHECK(fbits(half_to_float(0xfd55)) == 0xffeaa000u, "-snan payload");
    CHECK(dbits(half_to_double(0x7c01)) == 0x7ff8040000000000u, "snan d");
    CHECK(half_from_float(1.0f, RND_RTE) == 0x3c00, "1.0");
    CHECK(half_from_double(-2.0, RND_RTZ) == 0xc000, "-2.0");
}

/* Every half, widened to float and double, against its definition; and
 * back in every mode. */
static void all_halves(void)
{
    for (unsigned h = 0; h < 0x10000; h++) {
        unsigned s = h & 0x8000, e = h >> 10 & 31, m = h & 0x3ff;
        float f = half_to_float((uint16_t)h);
        double d = half_to_double((uint16_t)h);
        if (e == 31 && m) {
            uint32_t wf = (uint32_t)s << 16 | 0x7fc00000u | m << 13;
            uint64_t wd = (uint64_t)s << 48 | 0x7ff8000000000000u |
                          (uint64_t)m << 42;
            CHECK(isnan(f) && fbits(f) == wf, "%04x -> %08x", h,
                  (unsigned)fbits(f));
            CHECK(isnan(d) && dbits(d) == wd, "%04x -> %016llx", h,
                  (unsigned long long)dbits(d));
            for (int i = 0; i < NMODES; i++) {
                CHECK(half_from_float(f, modes[i]) == (h | 0x200),
                      "nan %04x back", h);
                CHECK(half_from_double(d, modes[i]) == (h | 0x200),
                      "nan %04x back d", h);
            }
            continue;
        }
        double v = e == 31 ? INFINITY
                 : e == 0  ? ldexp(m, -24)
                           : ldexp(1024 + m, (int)e - 25);
        if (s)
            v = -v;
        CHECK(dbits(d) == dbits(v), "%04x -> %a want %a", h, d, v);
        CHECK(fbits(f) == fbits((float)v), "%04x -> %a want %a", h,
              (double)f, v);
        for (int i = 0; i < NMODES; i++) {
            CHECK(half_from_float(f, modes[i]) == h, "%04x back %s", h,
                  rnd_name(modes[i]));
            CHECK(half_from_double(d, modes[i]) == h, "%04x back d %s", h,
                  rnd_name(modes[i]));
        }
    }
}

/* ---- narrowing, hand-computed expectations ---- */

static void tricky_values(void)
{
    /* want[] in the order rte, rtz, rtp, rtn */
    static const struct { double x; uint16_t want[4]; } cases[] = {
        {65504.0,           {0x7bff, 0x7bff, 0x7bff, 0x7bff}},
        {65519.99,          {0x7bff, 0x7bff, 0x7c00, 0x7bff}},
        {65520.0,           {0x7c00, 0x7bff, 0x7c00, 0x7bff}},
        {-65520.0,          {0xfc00, 0xfbff, 0xfbff, 0xfc00}},
        {65536.0,           {0x7c00, 0x7bff, 0x7c00, 0x7bff}},
        {1e300,             {0x7c00, 0x7bff, 0x7c00, 0x7bff}},
        {-1e300,            {0xfc00, 0xfbff, 0xfbff, 0xfc00}},
        {0x1p-24,           {0x0001, 0x0001, 0x0001, 0x0001}},
        {0x1p-25,           {0x0000, 0x0000, 0x0001, 0x0000}},
        {-0x1p-25,          {0x8000, 0x8000, 0x8000, 0x8001}},
        {0x1p-25 + 0x1p-77, {0x0001, 0x0000, 0x0001, 0x0000}},
        {0x3p-26,           {0x0001, 0x0000, 0x0001, 0x0000}},
        {0x3p-25,           {0x0002, 0x0001, 0x0002, 0x0001}},
        {0x1p-1074,         {0x0000, 0x0000, 0x0001, 0x0000}},
        {-0x1p-1074,        {0x8000, 0x8000, 0x8000, 0x8001}},
        {0x1p-14,           {0x0400, 0x0400, 0x0400, 0x0400}},
        {0x1p-14 - 0x1p-25, {0x0400, 0x03ff, 0x0400, 0x03ff}},
        {0x1p-14 - 0x3p-25, {0x03fe, 0x03fe, 0x03ff, 0x03fe}},
        {0.0,               {0x0000, 0x0000, 0x0000, 0x0000}},
        {-0.0,              {0x8000, 0x8000, 0x8000, 0x8000}},
        {INFINITY,          {0x7c00, 0x7c00, 0x7c00, 0x7c00}},
        {-INFINITY,         {0xfc00, 0xfc00, 0xfc00, 0xfc00}},
        {1.0 + 0x1p-11,     {0x3c00, 0x3c00, 0x3c01, 0x3c00}},
        {1.0 + 0x3p-11,     {0x3c02, 0x3c01, 0x3c02, 0x3c01}},
        {-1.0 - 0x1p-11,    {0xbc00, 0xbc00, 0xbc00, 0xbc01}},
        {0.1,               {0x2e66, 0x2e66, 0x2e67, 0x2e66}},
        {-0.1,              {0xae66, 0xae66, 0xae66, 0xae67}},
        {1.0 / 3,           {0x3555, 0x3555, 0x3556, 0x3555}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint16_t ref[NMODES];
        reference(cases[i].x, ref);
        for (int j = 0; j < NMODES; j++) {
            uint16_t w = cases[i].want[modes[j]];
            CHECK(ref[j] == w, "reference disagrees: %a %s", cases[i].x,
                  rnd_name(modes[j]));
            CHECK(half_from_double(cases[i].x, modes[j]) == w,
                  "%a %s: got %04x want %04x", cases[i].x, rnd_name(modes[j]),
                  half_from_double(cases[i].x, modes[j]), w);
            float f = (float)cases[i].x;
            if ((double)f == cases[i].x)
                CHECK(half_from_float(f, modes[j]) == w, "%a %s (float)",
                      cases[i].x, rnd_name(modes[j]));
        }
        check_double(cases[i].x);
    }
}

/* Rounding a double through float first would be wrong: these doubles are
 * not midpoints, but float rounds them onto one (or onto a half). */
static void no_double_rounding(void)
{
    double above = 1.0 + 0x1p-11 + 0x1p-40; /* just above 1 + ulp/2 */
    CHECK((float)above == 1.0f + 0x1p-11f, "premise: float hits the tie");
    CHECK(half_from_double(above, RND_RTE) == 0x3c01, "above tie");
    CHECK(half_from_float((float)above, RND_RTE) == 0x3c00, "float tie");
    double below = 1.0 + 0x3p-11 - 0x1p-40; /* just below 1 + 3ulp/2 */
    CHECK(half_from_double(below, RND_RTE) == 0x3c01, "below tie");
    CHECK(half_from_float((float)below, RND_RTE) == 0x3c02, "float tie 2");
    double tiny = 1.0 + 0x1p-40; /* float rounds it to exactly 1 */
    CHECK(half_from_double(tiny, RND_RTP) == 0x3c01, "rtp above 1");
    CHECK(half_from_double(-tiny, RND_RTN) == 0xbc01, "rtn below -1");
    CHECK(half_from_float((float)tiny, RND_RTP) == 0x3c00, "float exact 1");
    double sub = 0x1p-25 + 0x1p-60; /* denormal tie, plus a sliver */
    CHECK((float)sub == 0x1p-25f, "premise: float hits 2^-25");
    CHECK(half_from_double(sub, RND_RTE) == 0x0001, "denormal above tie");
    double big = 65520.0 - 0x1p-30; /* float rounds it up to 65520 */
    CHECK((float)big == 65520.0f, "premise: float hits 65520");
    CHECK(half_from_double(big, RND_RTE) == 0x7bff, "below overflow tie");
    CHECK(half_from_float((float)big, RND_RTE) == 0x7c00, "float overflow");
}

static void nans(void)
{
    static const struct { uint64_t d; uint16_t h; } dn[] = {
        {0x7ff8000000000000u, 0x7e00}, {0xfff8000000000000u, 0xfe00},
        {0x7ff0000000000001u, 0x7e00}, {0x7ff4000000000000u, 0x7f00},
        {0x7ffffc0000000000u, 0x7fff}, {0xfff0040000000000u, 0xfe01},
        {0x7ff003ffffffffffu, 0x7e00},
    };
    static const struct { uint32_t f; uint16_t h; } fn[] = {
        {0x7fc00000u, 0x7e00}, {0xffc00000u, 0xfe00}, {0x7f800001u, 0x7e00},
        {0x7fa00000u, 0x7f00}, {0x7fffe000u, 0x7fff}, {0xff802000u, 0xfe01},
    };
    for (int i = 0; i < NMODES; i++) {
        for (size_t j = 0; j < sizeof dn / sizeof dn[0]; j++)
            CHECK(half_from_double(bitsd(dn[j].d), modes[i]) == dn[j].h,
                  "%016llx", (unsigned long long)dn[j].d);
        for (size_t j = 0; j < sizeof fn / sizeof fn[0]; j++)
            CHECK(half_from_float(bitsf(fn[j].f), modes[i]) == fn[j].h,
                  "%08x", (unsigned)fn[j].f);
    }
}

/* ---- narrowing, against the reference ---- */

/* Every midpoint between adjacent halves (and the values themselves), and
 * their neighbours a few ulps away in double and in float. */
static void midpoints(void)
{
    for (unsigned k = 0; k < 0x7c00; k++) {
        double mid = (val[k] + val[k + 1]) / 2;
        for (int sgn = 0; sgn < 2; sgn++) {
            double pts[] = {val[k], mid};
            for (int p = 0; p < 2; p++) {
                double x = sgn ? -pts[p] : pts[p];
                double d = x, u = x;
                float fd = (float)x, fu = (float)x; /* exact: <= 12 bits */
                for (int i = 0; i < 3; i++) {
                    check_double(d), check_double(u);
                    check_float(fd), check_float(fu);
                    d = nextafter(d, -INFINITY), u = nextafter(u, INFINITY);
                    fd = nextafterf(fd, -INFINITY);
                    fu = nextafterf(fu, INFINITY);
                }
            }
        }
    }
}

/* Every float in [2^-25, 2^-23): ties and near-ties around the two
 * smallest denormals, bit by bit; every other positive and negative float
 * with an odd stride (NaNs included). */
static void float_sweeps(void)
{
    for (uint32_t b = fbits(0x1p-25f); b < fbits(0x1p-23f); b++)
        check_float(bitsf(b));
    for (uint64_t b = 0; b < 0x100000000u; b += 997)
        check_float(bitsf((uint32_t)b));
    /* Each float exponent near the half range, every top-10-bit
     * significand, low bits below/at/above the half-ulp tie. */
    static const uint32_t low[] = {0, 1, 0xfff, 0x1000, 0x1001, 0x1fff,
                                   0x0800, 0x1800};
    for (uint32_t e = 90; e <= 150; e++)
        for (uint32_t top = 0; top < 1024; top++)
            for (size_t i = 0; i < sizeof low / sizeof low[0]; i++) {
                uint32_t b = e << 23 | top << 13 | low[i];
                check_float(bitsf(b));
                check_float(bitsf(b | 0x80000000u));
            }
}

static void random_doubles(void)
{
    for (int i = 0; i < 1000000; i++) {
        uint64_t b = xorshift();
        check_double(bitsd(b)); /* anywhere, NaNs included */
        /* exponent in [2^-40, 2^20): denormal band to past overflow */
        uint64_t e = (uint64_t)(1023 - 40 + (int)(xorshift() % 60)) << 52;
        check_double(bitsd((b & 0x800fffffffffffffu) | e));
        /* a random half midpoint plus a small random offset in ulps */
        unsigned k = (unsigned)(xorshift() % 0x7c00);
        double mid = (val[k] + val[k + 1]) / 2, x = mid;
        int off = (int)(xorshift() % 9) - 4;
        for (; off > 0; off--)
            x = nextafter(x, INFINITY);
        for (; off < 0; off++)
            x = nextafter(x, -INFINITY);
        check_double(b >> 63 ? -x : x);
    }
}

int main(void)
{
    make_table();
    RUN(spec_values);
    RUN(all_halves);
    RUN(tricky_values);
    RUN(no_double_rounding);
    RUN(nans);
    RUN(midpoints);
    RUN(float_sweeps);
    RUN(random_doubles);
    return t_summary("half");
}
