/* The value printer and parser (tools/value.h) and `clvm run` called in
 * process: what golden files cannot check (--out files, --time, write
 * errors, .bc input). Round trips are checked against the C library's
 * strtof/strtod and stdlib's half conversion, not against value.c's own
 * reader; shortness against the decimals one digit shorter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/asm.h"
#include "vm/bcfile.h"
#include "tools/cmds.h"
#include "stdlib/half.h"
#include "tests/lib/bits.h"
#include "tests/lib/test.h"
#include "tools/value.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define TY(s, n) ((ty_t){(uint8_t)(s), (uint8_t)(n)})

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}


/* s read back by the C library (or stdlib for half), as bits of t. */
static uint64_t libc_read(enum ty_scalar t, const char *s)
{
    if (t == TY_FLOAT)
        return fbits(strtof(s, NULL));
    double d = strtod(s, NULL);
    if (t == TY_DOUBLE)
        return dbits(d);
    /* decimal -> double -> half rounds twice, but a decimal of at most 5
     * digits is never within 2^-53 of a half midpoint it is not equal to */
    return half_from_double(d, RND_RTE);
}

static double value_of(enum ty_scalar t, uint64_t b)
{
    return t == TY_HALF ? half_to_double((uint16_t)b)
           : t == TY_FLOAT ? (double)bitsf((uint32_t)b) : bitsd(b);
}

/* Significant digits of a decimal string. */
static int sig_digits(const char *s)
{
    int n = 0, lead = 1, trail = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        if (*s == '0' && lead)
            continue;
        lead = 0;
        n++;
        trail = *s == '0' ? trail + 1 : 0;
    }
    return n ? n - trail : 1;
}

/* The decimals of p significant digits just below and just above the
 * positive finite v (the same when v has such a form), as "Ne-X". */
static void neighbours(double v, int p, char *lo, char *hi, size_t len)
{
    char e[64];
    snprintf(e, sizeof e, "%.*e", p - 1, v);
    unsigned long long n = 0;
    char *x = strchr(e, 'e');
    for (const char *c = e; c < x; c++)
        if (*c >= '0' && *c <= '9')
            n = n * 10 + (unsigned)(*c - '0');
    int ex = atoi(x + 1) - (p - 1);
    double r = strtod(e, NULL);
    unsigned long long a = r > v ? n - 1 : n, b = r < v ? n + 1 : n;
    snprintf(lo, len, "%llue%d", a, ex);
    snprintf(hi, len, "%llue%d", b, ex);
}

/* Checks val_elem's text for element bits b of floating type t. */
static void check_float_text(enum ty_scalar t, uint64_t b)
{
    char s[VAL_ELEM_MAX];
    unsigned bits = ty_scalar_size(t) * 8;
    uint64_t sign = (uint64_t)1 << (bits - 1);
    val_elem(t, b, 0, s);
    double v = value_of(t, b);
    if (isnan(v)) {
        CHECK(!strcmp(s, b & sign ? "-nan" : "nan"), "%llx: '%s'",
              (unsigned long long)b, s);
        return;
    }
    if (isinf(v)) {
        CHECK(!strcmp(s, v < 0 ? "-inf" : "inf"), "%llx: '%s'",
              (unsigned long long)b, s);
        return;
    }
    CHECK(libc_read(t, s) == b, "%s %llx printed '%s' reads back as %llx",
          ty_scalar_name(t), (unsigned long long)b, s,
          (unsigned long long)libc_read(t, s));
    CHECK((s[0] == '-') == ((b & sign) != 0), "%llx: sign of '%s'",
          (unsigned long long)b, s);
    int maxd = t == TY_HALF ? 5 : t == TY_FLOAT ? 9 : 17;
    int p = sig_digits(s);
    double a = fabs(v);
    if (a == floor(a) && a < 1e16) {
        /* whole numbers are written in full, exactly */
        CHECK(strtod(s, NULL) == v && !strpbrk(s, ".e"),
              "%llx: whole number '%s'", (unsigned long long)b, s);
        return;
    }
    CHECK(p <= maxd, "%s %llx: '%s' has %d digits", ty_scalar_name(t),
          (unsigned long long)b, s, p);
    if (p > 1) {
        /* no decimal of p - 1 digits reads back as b: the rounding
         * interval is contiguous, so the two nearest ones decide */
        char lo[64], hi[64];
        neighbours(a, p - 1, lo, hi, sizeof lo);
        uint64_t mag = b & ~sign;
        CHECK(libc_read(t, lo) != mag && libc_read(t, hi) != mag,
              "%s %llx: '%s' is not the shortest ('%s' / '%s' read back)",
              ty_scalar_name(t), (unsigned long long)b, s, lo, hi);
    }
    /* layout as %g: an exponent below 1e-4 and from 1e16 (judged on the
     * printed value, which may round across 1e-4) */
    bool expo = strchr(s, 'e') != NULL;
    double pv = fabs(strtod(s, NULL));
    CHECK(expo == (pv < 1e-4 || pv >= 1e16), "%llx: layout of '%s'",
          (unsigned long long)b, s);
}

/* Every half: printed, read back by stdlib and by val_parse. */
static void all_halves(void)
{
    for (uint32_t h = 0; h < 0x10000; h++) {
        check_float_text(TY_HALF, h);
        char s[VAL_ELEM_MAX], e[160];
        uint64_t back;
        val_elem(TY_HALF, h, 0, s);
        int rc = val_parse(TY(TY_HALF, 1), s, strlen(s), &back, e, sizeof e);
        bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
        uint64_t want = nan ? (h & 0x8000) | 0x7fff : h;   /* NAN's */
        CHECK(rc == 0 && back == want, "half %x: '%s' parsed as %llx (%s)", h,
              s, (unsigned long long)back, rc ? e : "ok");
    }
}

static void random_floats(void)
{
    for (int i = 0; i < 150000; i++) {
        uint32_t u = (uint32_t)rnd64();
        if (i < 256)           /* every power of two and its neighbours */
            u = (uint32_t)i << 23;
        check_float_text(TY_FLOAT, u);
        if (i < 256) {
            check_float_text(TY_FLOAT, u + 1);
            check_float_text(TY_FLOAT, u - 1);
        }
        char s[VAL_ELEM_MAX], e[160];
        uint64_t back;
        val_elem(TY_FLOAT, u, 0, s);
        if (!isnan(bitsf(u))) {
            int rc = val_parse(TY(TY_FLOAT, 1), s, strlen(s), &back, e,
                               sizeof e);
            CHECK(rc == 0 && back == u, "float %x: '%s' parsed as %llx", u,
                  s, (unsigned long long)back);
        }
    }
    /* small whole numbers and decimals */
    for (int i = -2000; i <= 2000; i++) {
        check_float_text(TY_FLOAT, fbits((float)i / 1000));
        check_float_text(TY_FLOAT, fbits((float)i));
    }
}

static void random_doubles(void)
{
    for (int i = 0; i < 100000; i++) {
        uint64_t u = rnd64();
        if (i < 4096)
            u = (uint64_t)(i & 2047) << 52 | (uint64_t)(i >> 11) << 63;
        check_float_text(TY_DOUBLE, u);
        if (i < 4096) {
            check_float_text(TY_DOUBLE, u + 1);
            check_float_text(TY_DOUBLE, u - 1);
        }
    }
    for (int i = -2000; i <= 2000; i++)
        check_float_text(TY_DOUBLE, dbits((double)i / 100));
}

/* Exact texts, computed by hand (and with Python's repr). */
static void known_texts(void)
{
    static const struct {
        enum ty_scalar t;
        uint64_t bits;
        unsigned flags;
        const char *text;
    } k[] = {
        {TY_FLOAT, 0x3dcccccd, 0, "0.1"},
        {TY_FLOAT, 0x3eaaaaab, 0, "0.33333334"},
        {TY_FLOAT, 0x7f7fffff, 0, "3.4028235e+38"},
        {TY_FLOAT, 0x00800000, 0, "1.1754944e-38"},
        {TY_FLOAT, 0x00000001, 0, "1e-45"},
        {TY_FLOAT, 0x80000001, 0, "-1e-45"},
        {TY_FLOAT, 0x501502f9, 0, "10000000000"},       /* 1e10f */
        {TY_FLOAT, 0x4ceb79a3, 0, "123456792"},         /* 123456789f */
        {TY_FLOAT, 0x5a0e1bca, 0, "1e+16"},
        {TY_FLOAT, 0x38d1b717, 0, "0.0001"},
        {TY_FLOAT, 0x3727c5ac, 0, "1e-05"},
        {TY_FLOAT, 0x38fba882, 0, "0.00012"},
        {TY_FLOAT, 0x3fc00000, 0, "1.5"},
        {TY_FLOAT, 0xc0200000, 0, "-2.5"},
        {TY_FLOAT, 0x33800000, 0, "5.9604645e-08"},
        {TY_FLOAT, 0x00000000, 0, "0"},
        {TY_FLOAT, 0x80000000, 0, "-0"},
        {TY_FLOAT, 0x7f800000, 0, "inf"},
        {TY_FLOAT, 0xff800000, 0, "-inf"},
        {TY_FLOAT, 0x7fc00000, 0, "nan"},
        {TY_FLOAT, 0x7f800001, 0, "nan"},
        {TY_FLOAT, 0xffc00000, 0, "-nan"},
        {TY_FLOAT, 0x3f800000, VAL_HEX, "0x3f800000"},
        {TY_FLOAT, 0x7fc00001, VAL_HEX, "0x7fc00001"},
        {TY_DOUBLE, 0x3fb999999999999a, 0, "0.1"},
        {TY_DOUBLE, 0x3fd5555555555555, 0, "0.3333333333333333"},
        {TY_DOUBLE, 0x7fefffffffffffff, 0, "1.7976931348623157e+308"},
        {TY_DOUBLE, 0x0000000000000001, 0, "5e-324"},
        {TY_DOUBLE, 0x4340000000000000, 0, "9007199254740992"},
        {TY_DOUBLE, 0x4341c37937e08000, 0, "1e+16"},
        {TY_DOUBLE, 0x444b1ae4d6e2ef50, 0, "1e+21"},
        {TY_DOUBLE, 0x405edd2f1a9fbe77, 0, "123.456"},
        {TY_DOUBLE, 0x430c6bf526340001, 0, "1000000000000000.1"},
        {TY_DOUBLE, 0x8000000000000000, 0, "-0"},
        {TY_DOUBLE, 0x3ff0000000000000, VAL_HEX, "0x3ff0000000000000"},
        {TY_HALF, 0x3c00, 0, "1"},
        {TY_HALF, 0x3555, 0, "0.3333"},
        {TY_HALF, 0x2e66, 0, "0.1"},
        {TY_HALF, 0x7bff, 0, "65504"},
        {TY_HALF, 0xfbff, 0, "-65504"},
        {TY_HALF, 0x0001, 0, "6e-08"},
        {TY_HALF, 0x0400, 0, "6.104e-05"},
        {TY_HALF, 0x3c01, 0, "1.001"},
        {TY_HALF, 0x8000, 0, "-0"},
        {TY_HALF, 0x7e01, 0, "nan"},
        {TY_HALF, 0xfc00, 0, "-inf"},
        {TY_HALF, 0x3c00, VAL_HEX, "0x3c00"},
        {TY_CHAR, 0x80, 0, "-128"},
        {TY_CHAR, 0x7f, 0, "127"},
        {TY_CHAR, 0xff, VAL_HEX, "0xff"},
        {TY_UCHAR, 0xff, 0, "255"},
        {TY_SHORT, 0x8000, 0, "-32768"},
        {TY_USHORT, 0xffff, 0, "65535"},
        {TY_INT, 0x80000000, 0, "-2147483648"},
        {TY_INT, 0xffffffff, 0, "-1"},
        {TY_UINT, 0xffffffff, 0, "4294967295"},
        {TY_UINT, 0x9e3779b9, VAL_HEX, "0x9e3779b9"},
        {TY_LONG, 0x8000000000000000, 0, "-9223372036854775808"},
        {TY_ULONG, UINT64_MAX, 0, "18446744073709551615"},
        {TY_ULONG, 1, VAL_HEX, "0x0000000000000001"},
        {TY_INT, 0xffffffffffffff85, 0, "-123"},   /* bits above: ignored */
    };
    for (size_t i = 0; i < NELEM(k); i++) {
        char s[VAL_ELEM_MAX];
        val_elem(k[i].t, k[i].bits, k[i].flags, s);
        CHECK(!strcmp(s, k[i].text), "%s %llx: '%s', expected '%s'",
              ty_scalar_name(k[i].t), (unsigned long long)k[i].bits, s,
              k[i].text);
    }
}

static void vector_formats(void)
{
    char s[VAL_TEXT_MAX];
    uint64_t c4[] = {0x7f, 0x80, 5, 0xfb};
    val_format(TY(TY_CHAR, 4), c4, 0, s);
    CHECK(!strcmp(s, "(char4)(127, -128, 5, -5)"), "'%s'", s);
    val_format(TY(TY_CHAR, 4), c4, VAL_HEX, s);
    CHECK(!strcmp(s, "(uchar4)(0x7f, 0x80, 0x05, 0xfb)"), "'%s'", s);
    uint64_t f4[] = {0x3fc00000, 0x40000000, 0x7fc00000, 0xff800000};
    val_format(TY(TY_FLOAT, 4), f4, 0, s);
    CHECK(!strcmp(s, "(float4)(1.5, 2, nan, -inf)"), "'%s'", s);
    val_format(TY(TY_FLOAT, 3), f4, 0, s);
    CHECK(!strcmp(s, "(float3)(1.5, 2, nan)"), "'%s'", s);
    val_format(TY(TY_FLOAT, 2), f4, VAL_HEX, s);
    CHECK(!strcmp(s, "(uint2)(0x3fc00000, 0x40000000)"), "'%s'", s);
    val_format(TY(TY_HALF, 2), c4, VAL_HEX, s);
    CHECK(!strcmp(s, "(ushort2)(0x007f, 0x0080)"), "'%s'", s);
    val_format(TY(TY_DOUBLE, 1), f4, VAL_HEX, s);
    CHECK(!strcmp(s, "0x000000003fc00000"), "'%s'", s);
    val_format(TY(TY_FLOAT, 1), f4, 0, s);
    CHECK(!strcmp(s, "1.5"), "'%s'", s);
    /* the longest text fits */
    uint64_t d16[16];
    for (int i = 0; i < 16; i++)
        d16[i] = 0x800fffffffffffffu;   /* -2.225073858507201e-308 */
    val_format(TY(TY_DOUBLE, 16), d16, 0, s);
    CHECK(strlen(s) < VAL_TEXT_MAX && !strcmp(s + strlen(s) - 2, "8)"),
          "double16: '%s'", s);
    uint64_t l16[16];
    for (int i = 0; i < 16; i++)
        l16[i] = (uint64_t)1 << 63;
    val_format(TY(TY_LONG, 16), l16, 0, s);
    CHECK(strlen(s) == 9 + 16 * 20 + 15 * 2 + 1, "long16: '%s'", s);
}

/* val_parse: (type, text) -> bits, or an error. */
static void parsing(void)
{
    static const struct {
        const char *type, *text;
        int ok;
        uint64_t bits[4];
    } k[] = {
        {"float", "1.5", 1, {0x3fc00000}},
        {"float", " -0 ", 1, {0x80000000}},
        {"float", "0x1.8p1", 1, {0x40400000}},
        {"float", "nan", 1, {0x7fffffff}},
        {"float", "-nan", 1, {0xffffffff}},
        {"float", "-inf", 1, {0xff800000}},
        {"float", "+infinity", 1, {0x7f800000}},
        {"float", "INFINITY", 1, {0x7f800000}},
        {"float", "FLT_MAX", 1, {0x7f7fffff}},
        {"float", "16777217", 1, {0x4b800000}},
        {"float", "1.5f", 1, {0x3fc00000}},
        {"float", "1e-50", 1, {0}},
        {"float", "1e39", 0, {0}},
        {"float", "1.5d", 0, {0}},
        {"float", "1..5", 0, {0}},
        {"float", "--1", 0, {0}},
        {"float", "- 1", 0, {0}},
        {"float", "pi", 0, {0}},
        {"float", "", 0, {0}},
        {"float", "1, 2", 0, {0}},
        {"double", "0.1f", 1, {0x3fb99999a0000000}},
        {"double", "0.1", 1, {0x3fb999999999999a}},
        {"half", "65504", 1, {0x7bff}},
        {"half", "65519", 1, {0x7bff}},
        {"half", "65520", 0, {0}},
        {"half", "1.5h", 1, {0x3e00}},
        {"half", "1.5f", 0, {0}},
        {"half", "1.000488281250000001", 1, {0x3c01}},
        {"int", "2147483647", 1, {0x7fffffff}},
        {"int", "2147483648", 0, {0}},
        {"int", "-2147483648", 1, {0x80000000}},
        {"int", "0x7fffffff", 1, {0x7fffffff}},
        {"int", "0x80000000", 0, {0}},
        {"int", "INT_MIN", 1, {0x80000000}},
        {"int", "-INT_MIN", 0, {0}},
        {"int", "1.0", 0, {0}},
        {"int", "010", 0, {0}},
        {"uint", "4294967295", 1, {0xffffffff}},
        {"uint", "0x9E3779B9", 1, {0x9e3779b9}},
        {"uint", "1u", 1, {1}},
        {"uint", "-1", 0, {0}},
        {"uint", "-0", 1, {0}},
        {"char", "-128", 1, {0x80}},
        {"char", "128", 0, {0}},
        {"uchar", "255", 1, {0xff}},
        {"uchar", "256", 0, {0}},
        {"ulong", "18446744073709551615", 1, {UINT64_MAX}},
        {"ulong", "18446744073709551616", 0, {0}},
        {"long", "-9223372036854775808", 1, {(uint64_t)1 << 63}},
        {"float4", "(float4)(1, 2, 3, 4)", 1,
         {0x3f800000, 0x40000000, 0x40400000, 0x40800000}},
        {"float4", " ( float4 ) ( 1 ,2,  3 , 4 ) ", 1,
         {0x3f800000, 0x40000000, 0x40400000, 0x40800000}},
        {"float4", "(float4)((float2)(1, 2), (float2)(3, 4))", 1,
         {0x3f800000, 0x40000000, 0x40400000, 0x40800000}},
        {"float4", "(float4)(1, (float3)(2, 3, 4))", 1,
         {0x3f800000, 0x40000000, 0x40400000, 0x40800000}},
        {"float4", "(float4)((float2)(1), 3, 4)", 1,
         {0x3f800000, 0x3f800000, 0x40400000, 0x40800000}},
        {"float4", "(float4)(1)", 1,
         {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000}},
        {"float4", "2", 1, {0x40000000, 0x40000000, 0x40000000, 0x40000000}},
        {"float3", "(float3)(1, 2, 3)", 1,
         {0x3f800000, 0x40000000, 0x40400000}},
        {"int2", "(int2)(-1, INT_MAX)", 1, {0xffffffff, 0x7fffffff}},
        {"float4", "(float4)(1, 2)", 0, {0}},
        {"float4", "(float4)(1, 2, 3, 4, 5)", 0, {0}},
        {"float4", "(int4)(1, 2, 3, 4)", 0, {0}},
        {"float4", "(float4)(1, 2, 3, 4)x", 0, {0}},
        {"float4", "(float4)", 0, {0}},
        {"float4", "(float4)(", 0, {0}},
        {"float4", "(float4)(1, , 3, 4)", 0, {0}},
        {"float4", "(float4)((int2)(1, 2), 3, 4)", 0, {0}},
        {"float4", "(float4)((float2)(1, 2))", 0, {0}},
        {"float4", "(foo)(1)", 0, {0}},
        {"float4", "(float4)(1, 2, 3, 1e39)", 0, {0}},
        {"float4", "((((((float4)(1))))))", 0, {0}},
        {"float2", "(float2)((float2)((float2)((float2)((float2)((float2)"
                   "(1)))))))", 0, {0}},
    };
    for (size_t i = 0; i < NELEM(k); i++) {
        ty_t t;
        uint64_t b[16] = {0};
        char e[160] = "";
        CHECK(ty_parse(k[i].type, strlen(k[i].type), &t), "type %s",
              k[i].type);
        int rc = val_parse(t, k[i].text, strlen(k[i].text), b, e, sizeof e);
        if (!k[i].ok) {
            CHECK(rc == -1 && e[0], "%s '%s' should fail", k[i].type,
                  k[i].text);
            continue;
        }
        CHECK(rc == 0, "%s '%s': %s", k[i].type, k[i].text, e);
        for (unsigned c = 0; c < t.n && c < 4; c++)
            CHECK(b[c] == k[i].bits[c], "%s '%s' [%u]: %llx, expected %llx",
                  k[i].type, k[i].text, c, (unsigned long long)b[c],
                  (unsigned long long)k[i].bits[c]);
    }
}

/* Random values of every type and width: format, parse, same bits (NaNs
 * excepted: their payload is not printed). */
static void round_trips(void)
{
    static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
    for (int s = 0; s < TY_NSCALAR; s++)
        for (size_t w = 0; w < NELEM(widths); w++)
            for (int r = 0; r < 300; r++) {
                ty_t t = TY(s, widths[w]);
                unsigned bits = ty_scalar_size(t.s) * 8;
                uint64_t mask = bits == 64 ? UINT64_MAX
                                           : ((uint64_t)1 << bits) - 1;
                uint64_t v[16], back[16];
                char text[VAL_TEXT_MAX], e[160];
                for (unsigned c = 0; c < t.n; c++) {
                    v[c] = rnd64() & mask;
                    if (ty_is_float(t.s) && isnan(value_of(t.s, v[c])))
                        v[c] &= ~((uint64_t)1 << (bits - 2)); /* exponent */
                }
                val_format(t, v, 0, text);
                int rc = val_parse(t, text, strlen(text), back, e, sizeof e);
                bool same = rc == 0;
                for (unsigned c = 0; same && c < t.n; c++)
                    same = back[c] == v[c];
                CHECK(same, "'%s' did not read back (%s)", text,
                      rc ? e : "other bits");
            }
}

/* Random text never crashes the parser (run under the sanitizers), and
 * every refusal says why. */
static void parser_fuzz(void)
{
    static const char *const pieces[] = {
        "(", ")", ",", " ", "1", "0x", "1.5", "e", "-", "+", "p", "f", "h",
        "nan", "inf", "float4", "float2", "int4", "char3", "(float4)",
        "(float2)(1, 2)", "INT_MAX", "9999999999999999999999", ".", "u",
        "\t", "x",
    };
    static const char *const types[] = {"float4", "int", "half2", "char3",
                                         "double", "ulong16"};
    int parsed = 0;
    for (int i = 0; i < 20000; i++) {
        char text[256] = "";
        size_t n = 0;
        int pieces_n = (int)(rnd64() % 12);
        for (int k = 0; k < pieces_n; k++) {
            const char *pc = pieces[rnd64() % NELEM(pieces)];
            size_t pl = strlen(pc);
            if (n + pl < sizeof text)
                memcpy(text + n, pc, pl), n += pl;
        }
        ty_t t;
        const char *tn = types[rnd64() % NELEM(types)];
        ty_parse(tn, strlen(tn), &t);
        uint64_t b[16];
        char e[160] = "";
        int rc = val_parse(t, text, n, b, e, sizeof e);
        CHECK(rc == 0 || (rc == -1 && e[0]), "%s '%s': rc %d, '%s'", tn,
              text, rc, e);
        parsed += rc == 0;
    }
    CHECK(parsed > 100, "only %d random texts parsed", parsed);
}

static void memory_layout(void)
{
    uint8_t m[16] = {0};
    uint64_t v[3] = {0x0102, 0xa0b0, 0xffff}, back[3];
    val_store(TY(TY_SHORT, 3), v, m);
    static const uint8_t want[8] = {2, 1, 0xb0, 0xa0, 0xff, 0xff, 0, 0};
    CHECK(!memcmp(m, want, 8), "little-endian, 3 components only");
    val_load(TY(TY_SHORT, 3), m, back);
    CHECK(back[0] == 0x0102 && back[1] == 0xa0b0 && back[2] == 0xffff,
          "load");
}

/* ------------------------------------------------------------------ */
/* clvm run in process                                                 */

static char dir[] = "/tmp/clvm-test-value.XXXXXX";

static char *path_in(const char *name)
{
    static char buf[4][256];
    static int k;
    char *p = buf[k++ & 3];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

static size_t read_back(const char *path, void *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return (size_t)-1;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* Runs `clvm run ARGS` (NULL-terminated) with stdout into *out (up to
 * 4 KiB) and stderr into *err; returns its exit status. stdout_to, if
 * not NULL, replaces stdout's file instead (e.g. /dev/full). */
static int run_clvm(const char *stdout_to, char *out, char *errs,
                    const char *const *args)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"run";
    for (; args[argc - 1] && argc < 63; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    FILE *o = stdout_to ? fopen(stdout_to, "w") : tmpfile(), *e = tmpfile();
    if (!o || !e) {
        CHECK(0, "temporary files");
        return -1;
    }
    int so = dup(1), se = dup(2);
    dup2(fileno(o), 1);
    dup2(fileno(e), 2);
    int rc = cmd_run(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    clearerr(stdout);
    size_t n;
    if (out) {
        rewind(o);
        n = fread(out, 1, 4095, o);
        out[n] = 0;
    }
    rewind(e);
    n = fread(errs, 1, 4095, e);
    errs[n] = 0;
    fclose(o);
    fclose(e);
    return rc;
}

static const char kernel_src[] =
    "kernel scale(global const float *x, global float *y, float a)\n"
    "    uint i = get_global_id(0)\n"
    "    y[i] = x[i] * a\n"
    "end\n";

static void run_out_files(void)
{
    if (!mkdtemp(dir)) {
        t_skip("no temporary directory");
        return;
    }
    write_file(path_in("k.clasm"), kernel_src, sizeof kernel_src - 1);
    float x[1000];
    for (int i = 0; i < 1000; i++)
        x[i] = (float)i * 0.25f;
    write_file(path_in("x.bin"), x, sizeof x);
    char out[4096], errs[4096], xarg[300], yout[300];
    snprintf(xarg, sizeof xarg, "x=@%s", path_in("x.bin"));
    snprintf(yout, sizeof yout, "y=%s", path_in("y.bin"));

    /* --out writes the whole buffer; y is 1000 floats of x * -2 */
    const char *a1[] = {path_in("k.clasm"), "--global", "1000", "--arg", xarg,
                        "--arg", "y=zeros:4000", "--arg", "a=-2", "--out",
                        yout, "--time", NULL};
    int rc = run_clvm(NULL, out, errs, a1);
    CHECK(rc == 0, "exit %d: %s", rc, errs);
    float y[1001];
    size_t n = read_back(path_in("y.bin"), y, sizeof y);
    CHECK(n == 4000, "y.bin has %zu bytes", n);
    bool same = true;
    for (int i = 0; i < 1000 && n == 4000; i++)
        same &= fbits(y[i]) == fbits(x[i] * -2.0f);
    CHECK(same, "y.bin holds x * -2");
    double secs = -1;
    CHECK(sscanf(errs, "time: kernel=%lf\n", &secs) == 1 && secs >= 0 &&
          !strchr(strchr(errs, '\n') + 1, '\n'),
          "--time line: '%s'", errs);
    CHECK(out[0] == 0, "nothing on stdout: '%s'", out);

    /* the same through a .bc file, and --out of an @ input in place */
    bc_module m;
    char e[512];
    int nerr = asm_assemble(kernel_src, sizeof kernel_src - 1, "k.clasm", &m,
                            NULL);
    CHECK(nerr == 0, "assembles");
    if (nerr == 0) {
        CHECK(!bc_save_file(path_in("k.bc"), &m, e, sizeof e), "%s", e);
        bc_free(&m);
    }
    char xout[300];
    snprintf(xout, sizeof xout, "x=%s", path_in("x.bin"));
    const char *a2[] = {path_in("k.bc"), "--global", "10", "--local", "5",
                        "--arg", xarg, "--arg", "y=zeros:40", "--arg",
                        "a=0.5", "--print", "y", "--out", xout, NULL};
    rc = run_clvm(NULL, out, errs, a2);
    CHECK(rc == 0, "exit %d: %s", rc, errs);
    CHECK(!strncmp(out, "y[0] = 0\ny[1] = 0.125\ny[2] = 0.25\n", 33) &&
          strstr(out, "y[9] = 1.125\n"), "stdout: '%s'", out);
    n = read_back(path_in("x.bin"), y, sizeof y);
    CHECK(n == 4000 && !memcmp(y, x, sizeof x), "x written back unchanged");

    /* an --out after a trap: the groups that ran wrote their part */
    const char *a3[] = {path_in("k.clasm"), "--global", "8", "--local", "4",
                        "--threads", "1", "--arg", "x=zeros:20", "--arg",
                        "y=zeros:32", "--arg", "a=1", "--out", yout, NULL};
    rc = run_clvm(NULL, out, errs, a3);
    CHECK(rc == 1 && !strncmp(errs, "trap: out-of-bounds access", 26),
          "exit %d: %s", rc, errs);
    n = read_back(path_in("y.bin"), y, sizeof y);
    CHECK(n == 32, "y.bin written after the trap (%zu bytes)", n);

    /* standard output that cannot be written: exit 2, said on stderr */
    if (access("/dev/full", W_OK) == 0) {
        const char *a4[] = {path_in("k.clasm"), "--global", "1000", "--arg",
                            xarg, "--arg", "y=zeros:4000", "--arg", "a=1",
                            "--print", "y", NULL};
        rc = run_clvm("/dev/full", NULL, errs, a4);
        CHECK(rc == 2 && strstr(errs, "writing standard output"),
              "exit %d: %s", rc, errs);
    }
    /* an --out that cannot be written completely */
    if (access("/dev/full", W_OK) == 0) {
        const char *a5[] = {path_in("k.clasm"), "--global", "1000", "--arg",
                            xarg, "--arg", "y=zeros:4000", "--arg", "a=1",
                            "--out", "y=/dev/full", NULL};
        rc = run_clvm(NULL, out, errs, a5);
        CHECK(rc == 2 && strstr(errs, "writing '/dev/full'"), "exit %d: %s",
              rc, errs);
    }
    remove(path_in("k.clasm"));
    remove(path_in("k.bc"));
    remove(path_in("x.bin"));
    remove(path_in("y.bin"));
    rmdir(dir);
}

int main(void)
{
    RUN(all_halves);
    RUN(random_floats);
    RUN(random_doubles);
    RUN(known_texts);
    RUN(vector_formats);
    RUN(parsing);
    RUN(round_trips);
    RUN(parser_fuzz);
    RUN(memory_layout);
    RUN(run_out_files);
    return t_summary("value");
}
