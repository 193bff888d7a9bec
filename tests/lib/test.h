/* A minimal unit-test harness: TESTs made of CHECKs; a test passes when all
 * its checks hold. Each program ends with "SUITE: N passed, N failed,
 * N skipped", which tests/run.sh adds up. */
#ifndef CLVM_TEST_H
#define CLVM_TEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Checks that failed in the current test; only the first few print. */
extern int t_failed_checks;
extern int t_skipped;
enum { T_MAX_REPORT = 8 };

void t_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void t_run(const char *name, void (*fn)(void));
/* Marks the current test skipped, with a one-line reason. */
void t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int t_summary(const char *suite); /* prints the summary; exit status */

#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond))                                       \
            t_fail(__FILE__, __LINE__, __VA_ARGS__);       \
    } while (0)
#define RUN(fn) t_run(#fn, fn)

/* Where the shared conformance folder is ($CLVM_SHARED, else ../shared),
 * or NULL when neither exists. */
const char *t_shared_dir(void);

/* For a host program test of the OpenCL platform: makes the library of
 * the build this test belongs to (BUILD/libclvm-icd.so beside
 * BUILD/tests/) the only vendor the ICD loader sees; false, said on
 * stdout, when it is not there. */
bool t_icd_only(const char *argv0);

/* Checks that the lines between <!-- mark --> and <!-- /mark --> of the
 * document at path (from the repository root) are what gen writes;
 * skipped when the document is not there. */
void t_check_doc(const char *path, const char *mark, void (*gen)(FILE *));

#endif
