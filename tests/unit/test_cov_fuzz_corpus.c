/* The committed fuzz corpus and regression inputs (tests/fuzz/) through the
 * fuzz targets' own checks, in the ordinary build: so gcc, the switch
 * interpreter, `make sanitize` and `make coverage` replay them too, not
 * only clang with libFuzzer. A failed check aborts; the handler names the
 * input first. */
#include <dirent.h>
#include <stdint.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/test.h"

/* Each target's entry point under its own name. */
int fuzz_asm_one(const uint8_t *data, size_t size);
int fuzz_bc_one(const uint8_t *data, size_t size);
int fuzz_run_one(const uint8_t *data, size_t size);
int fuzz_asmrun_one(const uint8_t *data, size_t size);
int fuzz_spirv_one(const uint8_t *data, size_t size);
#define LLVMFuzzerTestOneInput fuzz_asm_one
#include "tests/unit/../fuzz/fuzz_asm.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_bc_one
#include "tests/unit/../fuzz/fuzz_bc.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_run_one
#include "tests/unit/../fuzz/fuzz_run.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_asmrun_one
#include "tests/unit/../fuzz/fuzz_asmrun.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_spirv_one
#include "tests/unit/../fuzz/fuzz_spirv.c"
#undef LLVMFuzzerTestOneInput
#include "tests/unit/../fuzz/fuzz.c"

static char current[512];

static void on_abort(int sig)
{
    static const char msg[] = "fuzz corpus input that failed: ";
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0 ||
        write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0)
        _exit(134);
    _exit(134);
}

/* Feeds every file of tests/fuzz/{corpus,regress}/NAME to fn; returns how
 * many there were. */
static int replay(const char *name, int (*fn)(const uint8_t *, size_t))
{
    static const char *const kinds[] = {"corpus", "regress"};
    int n = 0;
    for (int k = 0; k < 2; k++) {
        char dir[256];
        snprintf(dir, sizeof dir, "tests/fuzz/%s/%s", kinds[k], name);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(current, sizeof current, "%s/%s", dir, e->d_name);
            FILE *f = fopen(current, "rb");
            CHECK(f, "cannot open %s", current);
            if (!f)
                continue;
            uint8_t *buf = NULL;
            size_t len = 0, got;
            do {
                buf = realloc(buf, len + 65536);
                if (!buf)
                    abort();
                got = fread(buf + len, 1, 65536, f);
                len += got;
            } while (got);
            fclose(f);
            CHECK(fn(buf, len) == 0, "%s: target returned non-zero", current);
            free(buf);
            n++;
        }
        closedir(d);
    }
    return n;
}

#define TARGET(NAME)                                                      \
    static void test_##NAME(void)                                         \
    {                                                                     \
        int n = replay(#NAME, fuzz_##NAME##_one);                         \
        if (!n)                                                           \
            t_skip("no tests/fuzz/corpus/" #NAME " (run from the root)"); \
        printf("%s: %d inputs\n", #NAME, n);                              \
    }
TARGET(asm)
TARGET(bc)
TARGET(run)
TARGET(asmrun)
TARGET(spirv)

int main(void)
{
    signal(SIGABRT, on_abort);
    RUN(test_asm);
    RUN(test_bc);
    RUN(test_run);
    RUN(test_asmrun);
    RUN(test_spirv);
    return t_summary("fuzz_corpus");
}
