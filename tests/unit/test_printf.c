/* vm/printf.c: the format parser and checker the assembler and the
 * verifier share, and the C formats it hands to snprintf. */
#include <string.h>

#include "vm/printf.h"
#include "tests/lib/test.h"

static int parse_one(const char *fmt, pf_spec *s, pf_error *e)
{
    size_t pos = 0;
    return pf_next(fmt, strlen(fmt), &pos, s, e);
}

static void good_specs(void)
{
    static const struct {
        const char *fmt;
        char conv;
        unsigned vec, length;
        const char *flags, *cfmt;
        int width, prec;
    } cases[] = {
        {"%d", 'd', 0, PF_NONE, "", "%lld", -1, -1},
        {"%-08.3f", 'f', 0, PF_NONE, "-0", "%-08.3f", 8, 3},
        {"%v4hlf", 'f', 4, PF_HL, "", "%f", -1, -1},
        {"%v2hhd", 'd', 2, PF_HH, "", "%lld", -1, -1},
        {"%v8hx", 'x', 8, PF_H, "", "%llx", -1, -1},
        {"%v16lu", 'u', 16, PF_L, "", "%llu", -1, -1},
        {"%+ #.e", 'e', 0, PF_NONE, "+ #", "%+ #.0e", -1, 0},
        {"%lx", 'x', 0, PF_L, "", "%llx", -1, -1},
        {"%c", 'c', 0, PF_NONE, "", "%c", -1, -1},
        {"%10s", 's', 0, PF_NONE, "", "%10s", 10, -1},
        {"%p", 'p', 0, PF_NONE, "", "%p", -1, -1},
        {"%%", '%', 0, PF_NONE, "", "%%", -1, -1},
        {"%v3hla", 'a', 3, PF_HL, "", "%a", -1, -1},
        {"%-*.*f", 'f', 0, PF_NONE, "-", "%-f", -1, -1},   /* '*': from arguments */
        {"%.*v2hld", 'd', 2, PF_HL, "", "%lld", -1, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pf_spec s;
        pf_error e;
        char cf[PF_CFMT_MAX];
        int r = parse_one(cases[i].fmt, &s, &e);
        CHECK(r == 1, "%s: %d (%s)", cases[i].fmt, r, r < 0 ? e.msg : "");
        if (r != 1)
            continue;
        CHECK(s.conv == cases[i].conv && s.vec == cases[i].vec &&
              s.length == cases[i].length && s.width == cases[i].width &&
              s.prec == cases[i].prec && !strcmp(s.flags, cases[i].flags),
              "%s: conv %c vec %u len %u width %d prec %d flags '%s'",
              cases[i].fmt, s.conv, s.vec, s.length, s.width, s.prec,
              s.flags);
        CHECK(s.start == 0 && s.len == strlen(cases[i].fmt), "%s: span",
              cases[i].fmt);
        if (s.conv != '%') {
            pf_cformat(&s, cf);
            CHECK(!strcmp(cf, cases[i].cfmt), "%s: C format %s, want %s",
                  cases[i].fmt, cf, cases[i].cfmt);
        }
    }
}

static void bad_specs(void)
{
    static const struct {
        const char *fmt;
        unsigned at;
        const char *msg;
    } cases[] = {
        {"ab%n", 2, "%n"},
        {"%v4f", 0, "needs a length modifier"},
        {"%hlf", 1, "'hl' needs a vector"},
        {"%v5hd", 1, "2, 3, 4, 8 or 16"},
        {"%v4hhf", 3, "'hh' with a floating"},
        {"%hf", 1, "half vectors"},
        {"%v2hhc", 0, "cannot print vectors"},
        {"%lc", 1, "no length modifier with %c"},
        {"%lld", 2, "not OpenCL C's"},
        {"%jd", 1, "not OpenCL C's"},
        {"%*s", 0, "'*' with %s"},
        {"%.*c", 0, "precision"},
        {"%#d", 0, "flag '#'"},
        {"%0s", 0, "flag '0'"},
        {"%.2p", 0, "precision"},
        {"%--d", 2, "twice"},
        {"%5000d", 1, "over 4096"},
        {"%k", 1, "unknown conversion"},
        {"100%", 3, "no conversion character"},
        {"%5%", 0, "'%%' takes no"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pf_spec s;
        pf_error e = {0, ""};
        size_t pos = 0;
        int r;
        while ((r = pf_next(cases[i].fmt, strlen(cases[i].fmt), &pos, &s,
                            &e)) == 1)
            ;
        CHECK(r == -1, "%s: accepted", cases[i].fmt);
        CHECK(e.at == cases[i].at, "%s: error at %u, want %u (%s)",
              cases[i].fmt, e.at, cases[i].at, e.msg);
        CHECK(strstr(e.msg, cases[i].msg) != NULL, "%s: message '%s'",
              cases[i].fmt, e.msg);
    }
}

static pf_arg val(enum ty_scalar s, unsigned n)
{
    return (pf_arg){PF_ARG_VALUE, {(uint8_t)s, (uint8_t)n}};
}

static void arguments(void)
{
    static const struct {
        const char *fmt;
        pf_arg a;
        bool ok;
    } cases[] = {
        {"%d", {PF_ARG_VALUE, {TY_INT, 1}}, true},
        {"%d", {PF_ARG_VALUE, {TY_UCHAR, 1}}, true},   /* promoted */
        {"%d", {PF_ARG_VALUE, {TY_LONG, 1}}, false},
        {"%ld", {PF_ARG_VALUE, {TY_ULONG, 1}}, true},
        {"%ld", {PF_ARG_VALUE, {TY_INT, 1}}, false},
        {"%d", {PF_ARG_VALUE, {TY_FLOAT, 1}}, false},
        {"%f", {PF_ARG_VALUE, {TY_FLOAT, 1}}, true},
        {"%f", {PF_ARG_VALUE, {TY_DOUBLE, 1}}, true},
        {"%f", {PF_ARG_VALUE, {TY_HALF, 1}}, false},
        {"%f", {PF_ARG_VALUE, {TY_INT, 1}}, false},
        {"%v4hlf", {PF_ARG_VALUE, {TY_FLOAT, 4}}, true},
        {"%v4hlf", {PF_ARG_VALUE, {TY_DOUBLE, 4}}, false},
        {"%v4hlf", {PF_ARG_VALUE, {TY_FLOAT, 3}}, false},
        {"%v4hf", {PF_ARG_VALUE, {TY_HALF, 4}}, true},
        {"%v2lf", {PF_ARG_VALUE, {TY_DOUBLE, 2}}, true},
        {"%v2hhd", {PF_ARG_VALUE, {TY_CHAR, 2}}, true},
        {"%v2hhd", {PF_ARG_VALUE, {TY_SHORT, 2}}, false},
        {"%v8hx", {PF_ARG_VALUE, {TY_USHORT, 8}}, true},
        {"%v8hx", {PF_ARG_VALUE, {TY_HALF, 8}}, false},
        {"%v4hld", {PF_ARG_VALUE, {TY_INT, 4}}, true},
        {"%v4ld", {PF_ARG_VALUE, {TY_LONG, 4}}, true},
        {"%v4d", {PF_ARG_VALUE, {TY_INT, 4}}, false},   /* no length */
        {"%d", {PF_ARG_VALUE, {TY_INT, 4}}, false},
        {"%s", {PF_ARG_STRING, {0, 1}}, true},
        {"%s", {PF_ARG_POINTER, {TY_CHAR, 1}}, false},
        {"%p", {PF_ARG_POINTER, {TY_FLOAT, 1}}, true},
        {"%p", {PF_ARG_VALUE, {TY_ULONG, 1}}, false},
        {"%c", {PF_ARG_VALUE, {TY_CHAR, 1}}, true},
        {"%c", {PF_ARG_STRING, {0, 1}}, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pf_error e;
        int r = pf_check(cases[i].fmt, strlen(cases[i].fmt), &cases[i].a, 1,
                         &e);
        CHECK((r == 0) == cases[i].ok, "%s with kind %u type %u x %u: %s",
              cases[i].fmt, cases[i].a.kind, cases[i].a.type.s,
              cases[i].a.type.n, r ? e.msg : "accepted");
    }
}

static void counts(void)
{
    pf_error e;
    pf_arg two[2] = {val(TY_INT, 1), val(TY_FLOAT, 1)};
    CHECK(pf_check("%d %f", 5, two, 2, &e) == 0, "%s", e.msg);
    CHECK(pf_check("%d", 2, two, 2, &e) == -1 && e.at == 2,
          "an unused argument is an error at the end");
    CHECK(pf_check("%d %f %d", 8, two, 2, &e) == -1 && e.at == 6,
          "a missing argument is an error at its conversion");
    CHECK(pf_check("100%% sure\n", 11, NULL, 0, &e) == 0, "%%%% takes none");
    /* the length bounds the scan: a NUL-free prefix of a longer buffer */
    CHECK(pf_check("%d%n", 2, two, 1, &e) == 0, "len bounds the format");
}

int main(void)
{
    RUN(good_specs);
    RUN(bad_specs);
    RUN(arguments);
    RUN(counts);
    return t_summary("printf");
}
