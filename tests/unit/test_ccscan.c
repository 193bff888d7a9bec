/* tools/ccscan.c: which OpenCL C units the compile cache may keep, each
 * include written as clang's preprocessor reads it (splices, comments,
 * digraphs, a header's own folder first). */
#include <string.h>

#include "tests/lib/test.h"
#include "tools/ccscan.h"

/* Is src, with the header "dir/a.h" (text a) and "b.h" (text b) embedded
 * and the option opt (NULL for none), pinned by the cache's key? */
static bool pinned(const char *src, const char *a, const char *b,
                   const char *opt)
{
    ccc_header h[2] = {{"dir/a.h", a, strlen(a)}, {"b.h", b, strlen(b)}};
    char *opts[1] = {(char *)opt};
    ccc_input in = {"object", "program.cl", src, strlen(src), h, 2, opts,
                    opt ? 1 : 0, {"clang-14", "llvm-spirv-14"}, false};
    return ccs_pinned(&in);
}

static void includes(void)
{
    static const struct {
        const char *src, *a;
        bool want;
    } c[] = {
        {"kernel void k() {}\n", "", true},
        {"#include \"b.h\"\n", "", true},
        {"#include <b.h>\n", "", true},
        {"  #  include \"dir/a.h\"\n", "", true},
        {"#include \"c.h\"\n", "", false},
        {"#include <stdio.h>\n", "", false},
        {"#include HDR\n", "", false},             /* a macro's name */
        {"/* x */ #include \"c.h\"\n", "", false}, /* a comment is blank */
        {"#inc\\\nlude \"c.h\"\n", "", false},     /* a spliced line */
        {"#inc\\  \nlude \"c.h\"\n", "", false},   /* blanks before it */
        {"%:include \"c.h\"\n", "", false},        /* a digraph */
        {"?\?=include \"c.h\"\n", "", false},       /* a trigraph */
        {"# /*\n*/ include \"c.h\"\n", "", false}, /* a comment's newline */
        {"/*\n*/#include \"c.h\"\n", "", false},
        {"#include_next <b.h>\n", "", false},
        {"#import \"b.h\"\n", "", false},
        {"#if __has_include(\"c.h\")\n#endif\n", "", false},
        {"int t = __TIME__[0];\n", "", false},
        {"#pragma GCC dependency \"c.h\"\n", "", false},
        {"// #include \"c.h\"\n", "", true},       /* in a comment */
        {"/* #include \"c.h\" */\n", "", true},
        {"char *s = \"#include <c.h>\";\n", "", true},
        {"int x; #include \"c.h\"\n", "", true},   /* not a directive */
        /* a header's quoted include: its own folder, then the others */
        {"", "#include \"b.h\"\n", true},
        {"", "#include \"a.h\"\n", true},          /* dir/a.h itself */
        {"", "#include <a.h>\n", false},           /* <>: no own folder */
        {"", "#include \"c.h\"\n", false},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        CHECK(pinned(c[i].src, c[i].a, "", NULL) == c[i].want,
              "case %zu: '%s' / '%s': want %d", i, c[i].src, c[i].a,
              c[i].want);
    /* the other header is scanned too; a NUL stops the scan: not pinned */
    CHECK(!pinned("", "", "#include \"x.h\"\n", NULL), "b.h's include");
    ccc_header h = {"b.h", "#def\0ine", 8};
    ccc_input in = {"object", "p", "", 0, &h, 1, NULL, 0, {"a", "b"},
                    false};
    CHECK(!ccs_pinned(&in), "a NUL in a header");
    /* a link's objects are bytes, not text: whatever they hold */
    ccc_input objs = {"link", "link", "#include <x.h>\0__DATE__", 23, NULL,
                      0, NULL, 0, {"a", "b"}, true};
    CHECK(ccs_pinned(&objs), "opaque objects are pinned");
    objs.opaque = false;
    CHECK(!ccs_pinned(&objs), "the same as text is not");
}

static void options(void)
{
    static const char *const bad[] = {"-include", "-imacros", "-iquote",
                                      "-isystem", "@opts", "--config=x",
                                      "-Wp,-include,x.h", "-Xpreprocessor"};
    static const char *const good[] = {"-DN=4", "-I", "-cl-std=CL1.1",
                                       "-Werror", "-cl-fast-relaxed-math"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(!pinned("", "", "", bad[i]), "%s pinned", bad[i]);
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        CHECK(pinned("", "", "", good[i]), "%s not pinned", good[i]);
}

int main(void)
{
    RUN(includes);
    RUN(options);
    return t_summary("ccscan");
}
