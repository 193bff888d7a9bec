/* The unit-test harness of tests/lib/test.h. */
#include "tests/lib/test.h"

#include <libgen.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

int t_failed_checks, t_skipped;
static int passed, failed, skipped;
static const char *current;

void t_fail(const char *file, int line, const char *fmt, ...)
{
    if (t_failed_checks++ < T_MAX_REPORT) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s:%d: %s: ", file, line, current);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

void t_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("skip %s: ", current);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    t_skipped = 1;
}

void t_run(const char *name, void (*fn)(void))
{
    current = name;
    t_failed_checks = 0;
    t_skipped = 0;
    fn();
    if (t_failed_checks) {
        failed++;
        fprintf(stderr, "FAIL %s (%d failed checks)\n", name, t_failed_checks);
    } else if (t_skipped) {
        skipped++;
    } else {
        passed++;
    }
    fflush(stdout);
}

int t_summary(const char *suite)
{
    /* A suite that ran nothing fails: an edit must not empty one quietly. */
    if (passed + failed + skipped == 0) {
        fprintf(stderr, "FAIL %s: no tests ran\n", suite);
        failed = 1;
    }
    printf("%s: %d passed, %d failed, %d skipped\n", suite, passed, failed,
           skipped);
    return failed != 0;
}

const char *t_shared_dir(void)
{
    static char buf[4096];
    const char *env = getenv("CLVM_SHARED");
    const char *dir = env && *env ? env : "../shared";
    struct stat st;
    snprintf(buf, sizeof buf, "%s/conformance", dir);
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    snprintf(buf, sizeof buf, "%s", dir);
    return buf;
}

void t_check_doc(const char *path, const char *mark, void (*gen)(FILE *))
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        t_skip("no %s (run from the repository root)", path);
        return;
    }
    char *doc = calloc(1, 1 << 20);
    size_t len = doc ? fread(doc, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    char *out = NULL, open[64], close[64];
    size_t olen = 0;
    FILE *g = open_memstream(&out, &olen);
    gen(g);
    fclose(g);
    snprintf(open, sizeof open, "<!-- %s -->\n", mark);
    snprintf(close, sizeof close, "<!-- /%s -->", mark);
    char *a = len ? strstr(doc, open) : NULL, *b = a ? strstr(a, close) : NULL;
    CHECK(a && b, "%s has no %s markers", path, mark);
    if (a && b) {
        a += strlen(open);
        CHECK((size_t)(b - a) == olen && !memcmp(a, out, olen),
              "%s's %s table is stale (make docs); it should be:\n%s", path,
              mark, out);
    }
    free(out);
    free(doc);
}

bool t_icd_only(const char *argv0)
{
    char path[4096], *dir = strdup(argv0);
    snprintf(path, sizeof path, "%s/../libclvm-icd.so",
             dir ? dirname(dir) : ".");
    free(dir);
    if (access(path, R_OK)) {
        printf("no %s\n", path);
        return false;
    }
    setenv("OCL_ICD_VENDORS", path, 1);
    return true;
}
