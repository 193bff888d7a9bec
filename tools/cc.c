/* The OpenCL C driver: clang-14 compiles a .cl file to LLVM bitcode and
 * llvm-spirv-14 turns that into SPIR-V, both run as subprocesses
 * (posix_spawnp, no shell) on temporary files under $TMPDIR that are
 * removed afterwards; clang's diagnostics reach the user verbatim. Then
 * asm/spirv/ translates the SPIR-V into a clvm module. */
#include "tools/cc.h"

#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asm/spirv/spirv.h"
#include "tools/file.h"

extern char **environ;

/* Sets why (of wlen bytes) and gives the failure status, 1. */
#define FAIL(...) (snprintf(why, wlen, __VA_ARGS__), 1)

static const char *const clang_first[] = {
    "-cl-std=CL1.2", "-target", "spir64", "-cl-kernel-arg-info",
    "-fno-discard-value-names", "-gline-tables-only",
};
/* After the user's options, whatever they were: clvm needs -O0 (clang's
 * OpenCL default optimises, which folds conversions with the host's
 * arithmetic and gives modules llvm-spirv 14 cannot write). */
static const char *const clang_last[] = {"-O0", "-emit-llvm", "-c"};

/* Runs argv[0] (found on PATH) and waits; 0 if it exited with 0. */
static int spawn(char *const *argv, const char *pkg, char *why, size_t wlen)
{
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
    if (e == ENOENT)
        return FAIL("%s not found: clvm runs OpenCL C through it "
                    "(Debian package %s: apt-get install %s)", argv[0], pkg,
                    pkg);
    if (e)
        return FAIL("cannot run %s: %s", argv[0], strerror(e));
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return FAIL("waiting for %s: %s", argv[0],
                        strerror(errno));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st))
        return FAIL("%s failed (exit status %d)", argv[0],
                    WEXITSTATUS(st));
    return FAIL("%s was killed by signal %d", argv[0],
                WTERMSIG(st));
}

int cc_compile(const char *path, char *const *opts, int nopts,
               uint8_t **spv, size_t *len, char *why, size_t wlen)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512], bc[600], sp[600];
    *spv = NULL, *len = 0;
    snprintf(dir, sizeof dir, "%s/clvm-cc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return FAIL("cannot make a temporary directory %s: %s",
                    dir, strerror(errno));
    snprintf(bc, sizeof bc, "%s/k.bc", dir);
    snprintf(sp, sizeof sp, "%s/k.spv", dir);
    size_t nf = sizeof clang_first / sizeof *clang_first;
    size_t nl = sizeof clang_last / sizeof *clang_last;
    char **av = calloc(nf + nl + (size_t)nopts + 6, sizeof *av);
    int rc = 1;
    if (!av) {
        snprintf(why, wlen, "out of memory");
        goto out;
    }
    size_t k = 0;
    av[k++] = (char *)"clang-14";
    for (size_t i = 0; i < nf; i++)
        av[k++] = (char *)clang_first[i];
    for (int i = 0; i < nopts; i++)
        av[k++] = opts[i];
    for (size_t i = 0; i < nl; i++)
        av[k++] = (char *)clang_last[i];
    av[k++] = (char *)path, av[k++] = (char *)"-o", av[k++] = bc;
    av[k] = NULL;
    if (spawn(av, "clang-14", why, wlen))
        goto out;
    char *lv[] = {(char *)"llvm-spirv-14",
                  (char *)"--spirv-replace-fmuladd-with-ocl-mad=false",
                  (char *)"--preserve-ocl-kernel-arg-type-metadata-through-"
                          "string",
                  bc, (char *)"-o", sp, NULL};
    if (spawn(lv, "llvm-spirv-14", why, wlen))
        goto out;
    *spv = file_read(sp, len);
    if (!*spv)
        snprintf(why, wlen, "cannot read %s: %s", sp, strerror(errno));
    rc = !*spv;
out:
    free(av);
    unlink(bc), unlink(sp), rmdir(dir);
    return rc;
}

int cc_load(const char *path, char *const *opts, int nopts, bc_module *m,
            FILE *diag, char *why, size_t wlen)
{
    uint8_t *spv;
    size_t len;
    if (cc_compile(path, opts, nopts, &spv, &len, why, wlen))
        return 1;
    int ne = spv_translate(spv, len, path, m, diag);
    free(spv);
    if (ne)
        return FAIL("%s: %d error%s translating its SPIR-V", path,
                    ne, ne == 1 ? "" : "s");
    return 0;
}

bool cc_is_opencl_c(const char *path, const char *text, size_t len)
{
    size_t pl = strlen(path);
    if (pl > 3 && !strcmp(path + pl - 3, ".cl"))
        return true;
    /* IR has no braces; OpenCL C kernels have them. */
    return memchr(text, '{', len) != NULL;
}
