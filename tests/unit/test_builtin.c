#include <stdlib.h>
#include <string.h>

#include "stdlib/builtin.h"
#include "tests/lib/test.h"

/* The test's own spellings, so that the parser is checked against names
 * built independently of types.c and builtin.c. */
static const char *const scalar[] = {"char",  "uchar", "short", "ushort",
                                     "int",   "uint",  "long",  "ulong",
                                     "half",  "float", "double"};
static const char *const rounding[] = {"rte", "rtz", "rtp", "rtn"};
static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
enum { NSCALAR = 11, NWIDTH = 6 };

static const struct {
    enum bi_kind kind;
    const char *prefix;
    char arg;        /* 'T' type, 'N' width, 'n' optional width */
    bool round_ok;   /* takes a rounding suffix */
} kinds[] = {
    {BI_CONVERT, "convert_", 'T', true},
    {BI_AS, "as_", 'T', false},
    {BI_VLOAD, "vload", 'N', false},
    {BI_VSTORE, "vstore", 'N', false},
    {BI_VLOAD_HALF, "vload_half", 'n', false},
    {BI_VLOADA_HALF, "vloada_half", 'n', false},
    {BI_VSTORE_HALF, "vstore_half", 'n', true},
    {BI_VSTOREA_HALF, "vstorea_half", 'n', true},
};

static bool parse(const char *s, bi_desc *d)
{
    return bi_parse(s, strlen(s), d, NULL);
}

/* Parses s from an exact-size heap copy without a NUL, so that ASan sees
 * any read past len. */
static bool parse_exact(const char *s, bi_desc *d)
{
    size_t len = strlen(s);
    char *p = malloc(len ? len : 1);
    bool ok;
    memcpy(p, s, len);
    ok = bi_parse(p, len, d, NULL);
    free(p);
    return ok;
}

static void examples(void)
{
    bi_desc d;
    CHECK(parse("convert_char4_sat_rte", &d) && d.kind == BI_CONVERT &&
              d.type.s == TY_CHAR && d.type.n == 4 && d.n == 4 && d.sat &&
              d.has_round && d.round == RND_RTE,
          "convert_char4_sat_rte");
    CHECK(parse("convert_float", &d) && d.kind == BI_CONVERT &&
              d.type.s == TY_FLOAT && d.n == 1 && !d.sat && !d.has_round,
          "convert_float");
    CHECK(parse("convert_half8_rtz", &d) && d.type.s == TY_HALF && d.n == 8 &&
              d.has_round && d.round == RND_RTZ && !bi_check(&d),
          "convert_half8_rtz");
    CHECK(parse("as_uint4", &d) && d.kind == BI_AS && d.type.s == TY_UINT &&
              d.n == 4, "as_uint4");
    CHECK(parse("as_float3", &d) && d.type.s == TY_FLOAT && d.n == 3,
          "as_float3");
    CHECK(parse("as_half2", &d) && d.type.s == TY_HALF && d.n == 2,
          "as_half2");
    CHECK(parse("vload16", &d) && d.kind == BI_VLOAD && d.n == 16, "vload16");
    CHECK(parse("vstore3", &d) && d.kind == BI_VSTORE && d.n == 3, "vstore3");
    CHECK(parse("vload_half", &d) && d.kind == BI_VLOAD_HALF && d.n == 1,
          "vload_half");
    CHECK(parse("vloada_half3", &d) && d.kind == BI_VLOADA_HALF && d.n == 3,
          "vloada_half3");
    CHECK(parse("vstore_half_rtz", &d) && d.kind == BI_VSTORE_HALF &&
              d.n == 1 && d.has_round && d.round == RND_RTZ,
          "vstore_half_rtz");
    CHECK(parse("vstorea_half16_rtn", &d) && d.kind == BI_VSTOREA_HALF &&
              d.n == 16 && d.round == RND_RTN && !bi_check(&d),
          "vstorea_half16_rtn");
    /* "convert_uint" must not read as u + convert_int... nor "ushort" as
     * "u" + "short": longest names win. */
    CHECK(parse("convert_ushort2", &d) && d.type.s == TY_USHORT, "ushort");
    /* Only len bytes count. */
    CHECK(bi_parse("convert_int4", 11, &d, NULL) && d.type.s == TY_INT &&
              d.n == 1, "len");
    CHECK(bi_parse("vload_half4", 10, &d, NULL) && d.kind == BI_VLOAD_HALF &&
              d.n == 1, "len");
}

/* Every kind x type or width x {plain, _sat} x {none, 4 modes}: parse gives
 * the fields the name was built from, format gives the name back, and
 * bi_check agrees with the rules stated in this test. */
static void round_trips(void)
{
    int count = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int s = 0; s < (kinds[k].arg == 'T' ? NSCALAR : 1); s++)
            for (int w = 0; w < NWIDTH; w++)
                for (int sat = 0; sat < 2; sat++)
                    for (int r = -1; r < 4; r++) {
                        unsigned n = widths[w];
                        char name[80], back[BI_NAME_MAX], num[16] = "";
                        bi_desc d;
                        bool legal;
                        if (kinds[k].arg == 'N' && n == 1)
                            continue;
                        if (n > 1)
                            snprintf(num, sizeof num, "%u", n);
                        snprintf(name, sizeof name, "%s%s%s%s%s%s",
                                 kinds[k].prefix,
                                 kinds[k].arg == 'T' ? scalar[s] : "", num,
                                 sat ? "_sat" : "", r >= 0 ? "_" : "",
                                 r >= 0 ? rounding[r] : "");
                        count++;
                        if (!parse_exact(name, &d)) {
                            CHECK(0, "rejected %s", name);
                            continue;
                        }
                        CHECK(d.kind == kinds[k].kind && d.n == n &&
                                  d.type.n == n && d.sat == sat &&
                                  d.has_round == (r >= 0) &&
                                  (r < 0 || (int)d.round == r) &&
                                  (kinds[k].arg != 'T' || d.type.s == s),
                              "fields of %s", name);
                        CHECK(strcmp(bi_format(&d, back), name) == 0,
                              "%s formats as %s", name, back);
                        legal = (!sat || (kinds[k].kind == BI_CONVERT &&
                                          s != TY_HALF && s != TY_FLOAT &&
                                          s != TY_DOUBLE)) &&
                                (r < 0 || kinds[k].round_ok);
                        CHECK(legal == !bi_check(&d), "bi_check(%s): %s",
                              name, bi_check(&d) ? bi_check(&d) : "legal");
                    }
    /* 2 typed kinds x 11 x 6, 2 x 5 widths, 4 x 6, each x 10 suffixes. */
    CHECK(count == (2 * 66 + 2 * 5 + 4 * 6) * 10, "%d names", count);
}

static void rejects(void)
{
    static const char *const bad[] = {
        "", "convert_float5", "convert_int_sat_sat", "vload1", "as_",
        "vstore_half4_rtq", "convert_", "convert", "as", "vload", "vstore",
        "vload0", "vload02", "vload5", "vload160", "vload32", "vload_half1",
        "vload_half01", "vload_half5", "vstore_half0", "convert_int_rte_sat",
        "convert_int_rte_rtz", "convert_int_rte_rte", "convert_int_sat_",
        "convert_int__sat", "convert_int_", "convert_int_rtez",
        "convert_int_rt", "as_int4x", "as_int4 ", " as_int4", "vload4_",
        "vload_half_", "vloadhalf", "vload_half4_", "Convert_int",
        "convert_INT", "convert_int1", "convert_int16_sat_rte_",
        "convert_bool", "as_size_t", "vload_float4", "vstorea4",
        "vloada_half_half", "vload4vload4", "convert_int_saturate",
        "convert_int4_sat_rte4", "vstore_half_rte_sat",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bi_desc d;
        const char *why = NULL;
        size_t len = strlen(bad[i]);
        char *p = malloc(len ? len : 1);
        memcpy(p, bad[i], len);
        CHECK(!bi_parse(p, len, &d, &why) && why && *why, "accepted '%s'",
              bad[i]);
        free(p);
    }
    /* An embedded NUL is not the end of the name. */
    {
        bi_desc d;
        CHECK(!bi_parse("vload4\0", 7, &d, NULL), "NUL");
    }
}

static void semantic_checks(void)
{
    static const struct { const char *name; const char *why; } cases[] = {
        {"convert_float_sat", "_sat needs an integer destination"},
        {"convert_half2_sat_rtz", "_sat needs an integer destination"},
        {"convert_double16_sat", "_sat needs an integer destination"},
        {"as_int_rte", "a rounding suffix is only for convert_ and "
                       "vstore(a)_half"},
        {"as_int_sat", "_sat is only for convert_"},
        {"vload4_rtz", "a rounding suffix is only for convert_ and "
                       "vstore(a)_half"},
        {"vstore8_rtp", "a rounding suffix is only for convert_ and "
                        "vstore(a)_half"},
        {"vload_half_rte", "a rounding suffix is only for convert_ and "
                           "vstore(a)_half"},
        {"vloada_half4_rtn", "a rounding suffix is only for convert_ and "
                             "vstore(a)_half"},
        {"vstore_half_sat", "_sat is only for convert_"},
        {"vload2_sat", "_sat is only for convert_"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bi_desc d;
        const char *why;
        if (!parse(cases[i].name, &d)) {
            CHECK(0, "rejected %s", cases[i].name);
            continue;
        }
        why = bi_check(&d);
        CHECK(why && strcmp(why, cases[i].why) == 0, "%s: %s", cases[i].name,
              why ? why : "legal");
    }
    /* Hand-built descriptors: ranges the parser cannot produce. */
    {
        char buf[BI_NAME_MAX];
        bi_desc d = {.kind = BI_VLOAD, .type = {0, 1}, .n = 1};
        CHECK(bi_check(&d) != NULL, "vload1");
        CHECK(strcmp(bi_format(&d, buf), "vload1") == 0, "%s", buf);
        d.n = 5;
        CHECK(bi_check(&d) != NULL, "vload5");
        d = (bi_desc){.kind = BI_VSTORE_HALF, .n = 7};
        CHECK(bi_check(&d) != NULL, "vstore_half7");
        d.n = 1000;
        CHECK(bi_check(&d) != NULL && strcmp(bi_format(&d, buf),
                                             "vstore_half?") == 0, "%s", buf);
        d = (bi_desc){.kind = BI_CONVERT, .type = {TY_INT, 4}, .n = 2};
        CHECK(bi_check(&d) != NULL, "n differs from type.n");
        d = (bi_desc){.kind = BI_AS, .type = {TY_NSCALAR, 1}, .n = 1};
        CHECK(bi_check(&d) != NULL && strcmp(bi_format(&d, buf), "as_?") == 0,
              "%s", buf);
        d = (bi_desc){.kind = BI_AS, .type = {TY_INT, 5}, .n = 5};
        CHECK(bi_check(&d) != NULL, "int5");
        d = (bi_desc){.kind = (enum bi_kind)BI_NKIND, .n = 1};
        CHECK(bi_check(&d) != NULL && strcmp(bi_format(&d, buf), "??") == 0,
              "%s", buf);
        d = (bi_desc){.kind = BI_CONVERT, .type = {TY_INT, 1}, .n = 1,
                      .has_round = true, .round = (enum rnd)RND_NMODE};
        CHECK(bi_check(&d) != NULL &&
                  strcmp(bi_format(&d, buf), "convert_int_?") == 0,
              "%s", buf);
    }
}

static void kind_helpers(void)
{
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const char *p = kinds[k].prefix;
        CHECK(strcmp(bi_kind_prefix(kinds[k].kind), p) == 0, "%s", p);
        CHECK(bi_is_half(kinds[k].kind) == (strstr(p, "half") != NULL), "%s",
              p);
        CHECK(bi_is_store(kinds[k].kind) == (strncmp(p, "vstore", 6) == 0),
              "%s", p);
    }
}

int main(void)
{
    RUN(examples);
    RUN(round_trips);
    RUN(rejects);
    RUN(semantic_checks);
    RUN(kind_helpers);
    return t_summary("builtin");
}
