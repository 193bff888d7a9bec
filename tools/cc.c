/* The OpenCL C driver: clang-14 compiles a .cl file to LLVM bitcode and
 * llvm-spirv-14 turns that into SPIR-V, both run as subprocesses
 * (posix_spawnp, no shell) on temporary files under $TMPDIR that are
 * removed afterwards; clang's diagnostics reach the user verbatim. Then
 * asm/spirv/ translates the SPIR-V into a clvm module, which the compile
 * cache (tools/cccache.c) keeps for the next time. */
#include "tools/cc.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asm/spirv/spirv.h"
#include "tools/cccache.h"
#include "tools/file.h"
#include "vm/bcfile.h"

extern char **environ;

/* Sets why (of wlen bytes) and gives the failure status, 1. */
#define FAIL(...) (snprintf(why, wlen, __VA_ARGS__), 1)

/* -fgnu89-inline: a plain `inline` function (C99: an inline definition
 * only, which clang at -O0 does not emit) gets its body, as every
 * optimising OpenCL compiler in effect gives it by inlining: real kernels
 * (pyopencl's random123) define their helpers so. */
static const char *const clang_first[] = {
    "-cl-std=CL1.2", "-target", "spir64", "-cl-kernel-arg-info",
    "-fno-discard-value-names", "-gline-tables-only", "-fgnu89-inline",
};
/* After the user's options, whatever they were: clvm needs -O0 (clang's
 * OpenCL default optimises, which folds conversions with the host's
 * arithmetic and gives modules llvm-spirv 14 cannot write). */
static const char *const clang_last[] = {"-O0", "-emit-llvm", "-c"};

/* The tools, CLVM_CLANG and CLVM_LLVM_SPIRV overriding their names. */
static const char *tool(int i)
{
    const char *e = getenv(i ? "CLVM_LLVM_SPIRV" : "CLVM_CLANG");
    return e && *e ? e : i ? "llvm-spirv-14" : "clang-14";
}

/* Runs argv[0] (found on PATH), its stderr into the file errpath, and
 * waits; 0 if it exited with 0. */
static int spawn(char *const *argv, const char *pkg, const char *errpath,
                 char *why, size_t wlen)
{
    pid_t pid;
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa))
        return FAIL("out of memory");
    int e = posix_spawn_file_actions_addopen(&fa, 2, errpath,
                                             O_WRONLY | O_APPEND | O_CREAT,
                                             0600);
    if (!e)
        e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
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

/* What this thread's last cc_load did (cc_last). */
static _Thread_local int last_kind;
static _Thread_local double last_tools;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cc_last(double *tools)
{
    *tools = last_tools;
    return last_kind;
}

int cc_compile(const char *path, char *const *opts, int nopts,
               uint8_t **spv, size_t *len, char **msgs, size_t *mlen,
               char *why, size_t wlen)
{
    double t0 = now();
    const char *tmp = getenv("TMPDIR");
    char dir[512], bc[600], sp[600], er[600];
    *spv = NULL, *len = 0, *msgs = NULL, *mlen = 0;
    snprintf(dir, sizeof dir, "%s/clvm-cc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return FAIL("cannot make a temporary directory %s: %s",
                    dir, strerror(errno));
    snprintf(bc, sizeof bc, "%s/k.bc", dir);
    snprintf(sp, sizeof sp, "%s/k.spv", dir);
    snprintf(er, sizeof er, "%s/msgs", dir);
    size_t nf = sizeof clang_first / sizeof *clang_first;
    size_t nl = sizeof clang_last / sizeof *clang_last;
    char **av = calloc(nf + nl + (size_t)nopts + 6, sizeof *av);
    int rc = 1;
    if (!av) {
        snprintf(why, wlen, "out of memory");
        goto out;
    }
    size_t k = 0;
    av[k++] = (char *)tool(0);
    for (size_t i = 0; i < nf; i++)
        av[k++] = (char *)clang_first[i];
    for (int i = 0; i < nopts; i++)
        av[k++] = opts[i];
    for (size_t i = 0; i < nl; i++)
        av[k++] = (char *)clang_last[i];
    av[k++] = (char *)path, av[k++] = (char *)"-o", av[k++] = bc;
    av[k] = NULL;
    char *lv[] = {(char *)tool(1),
                  (char *)"--spirv-replace-fmuladd-with-ocl-mad=false",
                  (char *)"--preserve-ocl-kernel-arg-type-metadata-through-"
                          "string",
                  bc, (char *)"-o", sp, NULL};
    if (spawn(av, "clang-14", er, why, wlen) ||
        spawn(lv, "llvm-spirv-14", er, why, wlen))
        goto out;
    *spv = file_read(sp, len);
    if (!*spv)
        snprintf(why, wlen, "cannot read %s: %s", sp, strerror(errno));
    rc = !*spv;
out:
    last_tools = now() - t0, last_kind = 2;
    *msgs = file_read(er, mlen);   /* what the tools said, verbatim */
    if (!*msgs)
        *mlen = 0;
    free(av);
    unlink(bc), unlink(sp), unlink(er), rmdir(dir);
    return rc;
}

bool cc_take_opt(int argc, char **argv, int *i, char **opts, int *nopts)
{
    static const char *const v[] = {"-D", "-U", "-I", "-include", "-x",
                                    "-Xclang", "-isystem", "-imacros"};
    const char *a = argv[*i];
    if (a[0] != '-' || !a[1] || a[1] == '-')
        return false;
    opts[(*nopts)++] = argv[*i];
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (!strcmp(a, v[k]) && *i + 1 < argc) {
            opts[(*nopts)++] = argv[++*i];
            break;
        }
    return true;
}

/* The compilation and translation of path into *m, its messages in *msgs
 * (malloc'd). */
static int compile(const char *path, char *const *opts, int nopts,
                   bc_module *m, FILE *diag, char **msgs, size_t *mlen,
                   char *why, size_t wlen)
{
    uint8_t *spv;
    size_t len;
    int rc = cc_compile(path, opts, nopts, &spv, &len, msgs, mlen, why,
                        wlen);
    if (*mlen)
        fwrite(*msgs, 1, *mlen, diag);
    if (rc)
        return 1;
    int ne = spv_translate(spv, len, path, m, diag);
    free(spv);
    if (ne)
        return FAIL("%s: %d error%s translating its SPIR-V", path,
                    ne, ne == 1 ? "" : "s");
    return 0;
}

int cc_load(const char *path, char *const *opts, int nopts, bc_module *m,
            FILE *diag, char *why, size_t wlen)
{
    size_t n = 0;
    char *src = file_read(path, &n);
    if (!src)
        return FAIL("cannot read '%s': %s", path, strerror(errno));
    const char *const tools[2] = {tool(0), tool(1)};
    ccc_key k;
    bool cached = ccc_key_make(&k, path, src, n, opts, nopts, tools);
    free(src);
    uint8_t *entry = NULL, *bytes = NULL;
    const uint8_t *bc;
    const char *d;
    size_t dl, bl;
    char err[256], *msgs = NULL;
    int rc;
    /* an entry that does not verify is compiled again (and replaced) */
    if (cached && ccc_get(&k, &entry, &d, &dl, &bc, &bl) &&
        !bc_read(bc, bl, m, err, sizeof err)) {
        fwrite(d, 1, dl, diag);
        rc = 0;
        last_kind = 1, last_tools = 0;
    } else if (!(rc = compile(path, opts, nopts, m, diag, &msgs, &dl, why,
                              wlen)) &&
               cached && !bc_write(m, &bytes, &bl)) {
        ccc_put(&k, msgs, dl, bytes, bl);
    }
    free(entry);
    free(bytes);
    free(msgs);
    ccc_key_free(&k);
    return rc;
}

int cc_load_nocache(const char *path, char *const *opts, int nopts,
                    bc_module *m, FILE *diag, char *why, size_t wlen)
{
    char *msgs = NULL;
    size_t ml = 0;
    int rc = compile(path, opts, nopts, m, diag, &msgs, &ml, why, wlen);
    free(msgs);
    return rc;
}

bool cc_is_opencl_c(const char *path, const char *text, size_t len)
{
    size_t pl = strlen(path);
    if (pl > 3 && !strcmp(path + pl - 3, ".cl"))
        return true;
    /* IR has no braces; OpenCL C kernels have them. */
    return memchr(text, '{', len) != NULL;
}
