/* `clvm conform` (tools/cmd_conform.c) on the shared vector files, called
 * in-process through cmd_conform() with its output captured: every
 * `defined` case passes and the impl: lines are skipped; a copy with some
 * expectations flipped fails exactly on those lines, so a runner that
 * compared nothing could not pass. The small cases (report format, exit
 * statuses, usage) are golden tests in tests/conform/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmds.h"
#include "tests/lib/test.h"

static const char *const files[] = {
    "cts_special_conversions.tsv", "spec_examples.tsv", "wasm_conversions.tsv",
};
enum { NFILES = sizeof files / sizeof files[0] };

static char paths[NFILES][4200];

/* Fills paths[]; false (and the test skipped) without the shared folder. */
static int have_shared(void)
{
    const char *dir = t_shared_dir();
    if (!dir) {
        t_skip("no shared conformance folder (set CLVM_SHARED)");
        return 0;
    }
    for (int i = 0; i < NFILES; i++)
        snprintf(paths[i], sizeof paths[i], "%s/conformance/%s", dir,
                 files[i]);
    return 1;
}

/* Runs cmd_conform(argv) with stdout and stderr going to one temporary
 * file; returns what it wrote (malloc'd) and the exit status in *rc. */
static char *capture(int argc, char **argv, int *rc)
{
    FILE *tmp = tmpfile();
    char *out;
    long n;
    int o, e;
    if (!tmp) {
        perror("tmpfile");
        exit(1);
    }
    fflush(stdout);
    fflush(stderr);
    o = dup(1), e = dup(2);
    dup2(fileno(tmp), 1);
    dup2(fileno(tmp), 2);
    *rc = cmd_conform(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(o, 1), dup2(e, 2);
    close(o), close(e);
    n = ftell(tmp);
    out = malloc((size_t)(n > 0 ? n : 0) + 1);
    if (!out)
        exit(1);
    rewind(tmp);
    n = (long)fread(out, 1, (size_t)(n > 0 ? n : 0), tmp);
    out[n] = 0;
    fclose(tmp);
    return out;
}

/* The last line of s (without its newline), in a static buffer. */
static const char *last_line(const char *s)
{
    static char buf[256];
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        n--;
    size_t b = n;
    while (b && s[b - 1] != '\n')
        b--;
    snprintf(buf, sizeof buf, "%.*s", (int)(n - b), s + b);
    return buf;
}

static int has_line(const char *s, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = s; (p = strstr(p, line)); p++)
        if ((p == s || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
            return 1;
    return 0;
}

/* All three files: 80013 + 200 + 1037 defined cases, 9 impl:wasm. */
static void shared_files(void)
{
    char *argv[2 + NFILES] = {"conform", "--stats"};
    int rc;
    if (!have_shared())
        return;
    for (int i = 0; i < NFILES; i++)
        argv[2 + i] = paths[i];
    char *out = capture(2 + NFILES, argv, &rc);
    CHECK(rc == 0, "exit status %d", rc);
    CHECK(has_line(out, "defined: 81250 passed, 0 failed, 0 skipped"),
          "defined counts:\n%.2000s", out);
    CHECK(has_line(out, "impl:wasm: 0 passed, 0 failed, 9 skipped"),
          "impl:wasm counts:\n%.2000s", out);
    CHECK(!strcmp(last_line(out), "81250 passed, 0 failed, 9 skipped"),
          "last line '%s'", last_line(out));
    CHECK(strstr(out, "conform: 81259 cases in "), "no --stats line");
    free(out);
}

static int hexval(int ch)
{
    return ch <= '9' ? ch - '0' : ch - 'a' + 10;
}

/* A copy of cts_special_conversions.tsv in which the expectation of
 * every 499th integer-result convert_ case has its lowest bit flipped:
 * exactly those cases fail, reported in line order. */
static void flipped_expectations(void)
{
    enum { EVERY = 499, MAXFLIP = 200 };
    char tmpl[] = "/tmp/clvm-conform-XXXXXX";
    unsigned long flipped[MAXFLIP], nflip = 0, line = 0, ncase = 0;
    char buf[8192];
    int rc, fd;
    FILE *in, *out;
    if (!have_shared())
        return;
    if (!(in = fopen(paths[0], "r"))) {
        CHECK(0, "cannot open %s", paths[0]);
        return;
    }
    if ((fd = mkstemp(tmpl)) < 0 || !(out = fdopen(fd, "w"))) {
        CHECK(0, "cannot create %s", tmpl);
        fclose(in);
        return;
    }
    while (fgets(buf, sizeof buf, in)) {
        line++;
        if (buf[0] != '#' && buf[0] != '\n') {
            char *col[6], *s = buf;
            int n = 0;
            for (; n < 6 && s; n++, s = strchr(s, '\t'), s = s ? s + 1 : s)
                col[n] = s;
            if (n == 6 && !strncmp(col[0], "convert_", 8) &&
                strncmp(col[0], "convert_float", 13) &&
                strncmp(col[0], "convert_double", 14) &&
                strncmp(col[0], "convert_half", 12) &&
                !strncmp(col[5], "defined", 7) && ++ncase % EVERY == 0 &&
                nflip < MAXFLIP) {
                char *d = col[4] + 1;   /* low nibble of the first byte */
                *d = "0123456789abcdef"[hexval(*d) ^ 1];
                flipped[nflip++] = line;
            }
        }
        fputs(buf, out);
    }
    fclose(in);
    fclose(out);
    CHECK(nflip > 20, "only %lu cases flipped", nflip);

    char *argv[] = {"conform", tmpl};
    char *res = capture(2, argv, &rc);
    CHECK(rc == 1, "exit status %d", rc);
    const char *p = res;
    for (unsigned long i = 0; i < nflip; i++) {
        char want[64];
        snprintf(want, sizeof want, "%s:%lu: ", tmpl, flipped[i]);
        const char *q = strstr(p, want);
        CHECK(q, "line %lu not reported (in order)", flipped[i]);
        if (q)
            p = q + 1;
    }
    unsigned long reports = 0;
    for (const char *q = res; (q = strstr(q, tmpl)); q++)
        reports++;
    CHECK(reports == nflip, "%lu reports for %lu flipped cases", reports,
          nflip);
    snprintf(buf, sizeof buf, "%lu passed, %lu failed, 0 skipped",
             80013 - nflip, nflip);
    CHECK(!strcmp(last_line(res), buf), "last line '%s', want '%s'",
          last_line(res), buf);
    free(res);
    remove(tmpl);
}

/* "-" reads standard input. */
static void from_stdin(void)
{
    FILE *f = tmpfile();
    int rc, saved = dup(0);
    if (!f) {
        CHECK(0, "tmpfile");
        return;
    }
    fputs("# a comment\nas_uint\tfloat\t-\t0000803f\t0000803f\tdefined\n"
          "as_uint\tfloat\t-\t0000803f\t0000803e\tdefined\n", f);
    fflush(f);
    rewind(f);
    dup2(fileno(f), 0);
    clearerr(stdin);
    char *argv[] = {"conform", "-"};
    char *out = capture(2, argv, &rc);
    dup2(saved, 0);
    close(saved);
    clearerr(stdin);
    fclose(f);
    CHECK(rc == 1, "exit status %d", rc);
    CHECK(strstr(out, "<stdin>:3: as_uint(float): input 0000803f\n"
                      "  expected 0000803e\n  got      0000803f\n"),
          "report:\n%s", out);
    CHECK(!strcmp(last_line(out), "1 passed, 1 failed, 0 skipped"),
          "last line '%s'", last_line(out));
    free(out);
}

int main(void)
{
    RUN(shared_files);
    RUN(flipped_expectations);
    RUN(from_stdin);
    return t_summary("conform_cli");
}
