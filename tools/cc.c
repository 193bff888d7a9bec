/* The OpenCL C driver: clang-14 compiles a .cl file to LLVM bitcode
 * (an OpenCL program's compiled object; llvm-link-14 links several) and
 * llvm-spirv-14 turns that into SPIR-V, all run as subprocesses
 * (posix_spawnp, no shell) on temporary files under $TMPDIR that are
 * removed afterwards; clang's diagnostics reach the user verbatim. Then
 * asm/spirv/ translates the SPIR-V into a clvm module, which the compile
 * cache (tools/cccache.c) keeps for the next time. */
#include "tools/cc.h"

#include <dirent.h>
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

#include "asm/asm.h"
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
 * (pyopencl's random123) define their helpers so.
 * -U__IMAGE_SUPPORT__: clang defines it for every spir target, and OpenCL
 * C says it is defined only where the device has images, which clvm's has
 * not; __OPENCL_VERSION__, the device's OpenCL version, clang leaves to
 * the implementation (clvm's device is OpenCL 1.2). -cl-ext: the
 * extension macros are the device's (tools/cc.h), no more. */
#define CC_EXT(e) ",+" #e
static const char *const clang_first[] = {
    "-cl-std=CL1.2", "-target", "spir64", "-cl-kernel-arg-info",
    "-fno-discard-value-names", "-gline-tables-only", "-fgnu89-inline",
    "-U__IMAGE_SUPPORT__", "-D__OPENCL_VERSION__=120",
    "-Xclang", "-cl-ext=-all" CC_EXTENSIONS(CC_EXT),
};
/* After the user's options, whatever they were: clvm needs -O0 (clang's
 * OpenCL default optimises, which folds conversions with the host's
 * arithmetic and gives modules llvm-spirv 14 cannot write). */
static const char *const clang_last[] = {"-O0", "-emit-llvm", "-c"};
/* Or, for the preprocessed text alone: */
static const char *const clang_pp[] = {"-E", "-P"};

/* The tools (0 clang, 1 llvm-spirv, 2 llvm-link), CLVM_CLANG,
 * CLVM_LLVM_SPIRV and CLVM_LLVM_LINK overriding their names. */
static const char *tool(int i)
{
    static const char *const env[] = {"CLVM_CLANG", "CLVM_LLVM_SPIRV",
                                      "CLVM_LLVM_LINK"};
    static const char *const name[] = {"clang-14", "llvm-spirv-14",
                                       "llvm-link-14"};
    const char *e = getenv(env[i]);
    return e && *e ? e : name[i];
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

/* A private temporary folder for one run of the tools: its path, and
 * the file the tools' stderr goes to. */
typedef struct {
    char dir[512], er[600];
} job;

/* Opens j, the outputs of its run emptied first. */
static int job_open(job *j, uint8_t **out, size_t *len, char **msgs,
                    size_t *mlen, char *why, size_t wlen)
{
    *out = NULL, *len = 0, *msgs = NULL, *mlen = 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(j->dir, sizeof j->dir, "%s/clvm-cc.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(j->dir))
        return FAIL("cannot make a temporary directory %s: %s", j->dir,
                    strerror(errno));
    snprintf(j->er, sizeof j->er, "%s/msgs", j->dir);
    return 0;
}

/* The path of the file name in j's folder, into out (600 bytes; empty,
 * which names no file, if it does not fit). */
static char *job_file(const job *j, const char *name, char *out)
{
    if (snprintf(out, 600, "%s/%s", j->dir, name) >= 600)
        out[0] = 0;
    return out;
}

/* The file f, made by a tool, into *out. */
static int take(const char *f, uint8_t **out, size_t *len, char *why,
                size_t wlen)
{
    if (!(*out = file_read(f, len)))
        return FAIL("cannot read %s: %s", f, strerror(errno));
    return 0;
}

/* What the tools said into *msgs (verbatim), and the folder removed with
 * every file in it (the job made them all). */
static void job_close(job *j, char **msgs, size_t *mlen)
{
    *msgs = file_read(j->er, mlen);
    if (!*msgs)
        *mlen = 0;
    DIR *d = opendir(j->dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char f[600];
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(job_file(j, e->d_name, f));
    }
    if (d)
        closedir(d);
    rmdir(j->dir);
}

/* What a job's first tool works on: clang's source file and options, or
 * llvm-link's objects. */
typedef struct {
    const char *path;
    char *const *opts;
    int nopts;
    bool pp;                             /* clang -E: the text, no bitcode */
    const uint8_t *const *objs;
    const size_t *lens;
    int n;
} job_in;

/* clang: the OpenCL C file in->path into the LLVM bitcode file bc. */
static int run_clang(const job *j, const job_in *in, const char *bc,
                     char *why, size_t wlen)
{
    size_t nf = sizeof clang_first / sizeof *clang_first;
    const char *const *last = in->pp ? clang_pp : clang_last;
    size_t nl = in->pp ? sizeof clang_pp / sizeof *clang_pp
                       : sizeof clang_last / sizeof *clang_last;
    char **av = calloc(nf + nl + (size_t)in->nopts + 6, sizeof *av);
    if (!av)
        return FAIL("out of memory");
    size_t k = 0;
    av[k++] = (char *)tool(0);
    for (size_t i = 0; i < nf; i++)
        av[k++] = (char *)clang_first[i];
    for (int i = 0; i < in->nopts; i++)
        av[k++] = in->opts[i];
    for (size_t i = 0; i < nl; i++)
        av[k++] = (char *)last[i];
    av[k++] = (char *)in->path, av[k++] = (char *)"-o", av[k++] = (char *)bc;
    av[k] = NULL;
    int rc = spawn(av, "clang-14", j->er, why, wlen);
    free(av);
    return rc;
}

/* llvm-spirv: the bitcode file bc into SPIR-V, read into *spv. */
static int run_spirv(const job *j, const char *bc, uint8_t **spv,
                     size_t *len, char *why, size_t wlen)
{
    char sp[600];
    char *lv[] = {(char *)tool(1),
                  (char *)"--spirv-replace-fmuladd-with-ocl-mad=false",
                  (char *)"--preserve-ocl-kernel-arg-type-metadata-through-"
                          "string",
                  (char *)bc, (char *)"-o", job_file(j, "k.spv", sp), NULL};
    return spawn(lv, "llvm-spirv-14", j->er, why, wlen) ||
           take(sp, spv, len, why, wlen);
}

/* A job: first (clang or llvm-link) makes LLVM bitcode of in, then *out
 * is that bitcode, or (spirv) llvm-spirv's SPIR-V of it; the tools'
 * messages into *msgs. */
static int job_run(int (*first)(const job *, const job_in *, const char *,
                                char *, size_t),
                   const job_in *in, bool spirv, uint8_t **out, size_t *len,
                   char **msgs, size_t *mlen, char *why, size_t wlen)
{
    job j;
    char bc[600];
    if (job_open(&j, out, len, msgs, mlen, why, wlen))
        return 1;
    int rc = first(&j, in, job_file(&j, "k.bc", bc), why, wlen) ||
             (spirv ? run_spirv(&j, bc, out, len, why, wlen)
                    : take(bc, out, len, why, wlen));
    job_close(&j, msgs, mlen);
    return rc;
}

/* clang on path, then llvm-spirv (what CC_MODULE) or not: *out is SPIR-V,
 * LLVM bitcode (CC_OBJECT) or the preprocessed text (CC_TEXT). */
static int front(const char *path, char *const *opts, int nopts,
                 cc_what what, uint8_t **out, size_t *len, char **msgs,
                 size_t *mlen, char *why, size_t wlen)
{
    job_in in = {.path = path, .opts = opts, .nopts = nopts,
                 .pp = what == CC_TEXT};
    return job_run(run_clang, &in, what == CC_MODULE, out, len, msgs, mlen,
                   why, wlen);
}

int cc_compile(const char *path, char *const *opts, int nopts,
               uint8_t **spv, size_t *len, char **msgs, size_t *mlen,
               char *why, size_t wlen)
{
    double t0 = now();
    int rc = front(path, opts, nopts, CC_MODULE, spv, len, msgs, mlen, why,
                   wlen);
    last_tools = now() - t0, last_kind = 2;
    return rc;
}

/* The objects of in written into j's folder (o0.bc ...), linked by
 * llvm-link into the file out. */
static int run_link(const job *j, const job_in *in, const char *out,
                    char *why, size_t wlen)
{
    int n = in->n;
    char **av = calloc((size_t)n + 4, sizeof *av);
    int made = 0, rc = 0;                /* av[1 .. made] are malloc'd */
    if (!av)
        return FAIL("out of memory");
    av[0] = (char *)tool(2);
    for (int i = 0; i < n && !rc; i++) {
        char name[32], f[600];
        snprintf(name, sizeof name, "o%d.bc", i);
        FILE *o = fopen(job_file(j, name, f), "wb");
        bool ok = o && fwrite(in->objs[i], 1, in->lens[i], o) == in->lens[i];
        if ((o && fclose(o)) || !ok)
            rc = FAIL("cannot write %s: %s", f, strerror(errno));
        else if (!(av[made + 1] = strdup(f)))
            rc = FAIL("out of memory");
        else
            made++;
    }
    if (!rc) {
        av[n + 1] = (char *)"-o", av[n + 2] = (char *)out, av[n + 3] = NULL;
        rc = spawn(av, "llvm-14", j->er, why, wlen);
    }
    for (int i = 1; i <= made; i++)
        free(av[i]);
    free(av);
    return rc;
}

/* A copy of n bytes of p into *to (NUL-terminated); false when out of
 * memory. */
static bool dup_bytes(const void *p, size_t n, void *to)
{
    char *c = malloc(n + 1);
    if (c)
        memcpy(c, p, n), c[n] = 0;
    memcpy(to, &c, sizeof c);
    return c != NULL;
}

/* Linking goes through the compile cache too, keyed by the objects (each
 * after its length, in order) and the two tools. */
int cc_link(const uint8_t *const *objs, const size_t *lens, int n,
            bool library, uint8_t **out, size_t *len, char **msgs,
            size_t *mlen, char *why, size_t wlen)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += 8 + lens[i];
    uint8_t *src = malloc(total ? total : 1), *at = src;
    for (int i = 0; src && i < n; i++) {
        for (int b = 0; b < 8; b++)
            *at++ = (uint8_t)((uint64_t)lens[i] >> 8 * b);
        memcpy(at, objs[i], lens[i]);
        at += lens[i];
    }
    ccc_input cin = {library ? "library" : "link", "link", (char *)src,
                     total, NULL, 0, NULL, 0, {tool(2), tool(1)}, true};
    ccc_key k;
    bool cached = src && ccc_key_make(&k, &cin);
    free(src);
    uint8_t *entry = NULL;
    const uint8_t *bc;
    const char *d;
    size_t dl, bl;
    int rc;
    *out = NULL, *msgs = NULL;
    if (cached && ccc_get(&k, &entry, &d, &dl, &bc, &bl) &&
        dup_bytes(bc, bl, out) && dup_bytes(d, dl, msgs)) {
        *len = bl, *mlen = dl, rc = 0;
        last_kind = 1, last_tools = 0;
    } else {
        free(*out), free(*msgs);
        job_in in = {.objs = objs, .lens = lens, .n = n};
        rc = job_run(run_link, &in, !library, out, len, msgs, mlen, why,
                     wlen);
        if (!rc && cached)
            ccc_put(&k, *msgs ? *msgs : "", *msgs ? *mlen : 0, *out, *len);
    }
    free(entry);
    if (cached)
        ccc_key_free(&k);
    return rc;
}

/* Does the (little-endian, as llvm-spirv writes it) module spv declare a
 * kernel? True too when it cannot tell: the translator then says what is
 * wrong. */
static bool has_kernel(const uint8_t *spv, size_t len)
{
    if (len < 20 || spv[0] != 0x03 || spv[3] != 0x07)
        return true;
    for (size_t at = 20; at + 4 <= len;) {
        uint32_t w = (uint32_t)spv[at] | (uint32_t)spv[at + 1] << 8 |
                     (uint32_t)spv[at + 2] << 16 | (uint32_t)spv[at + 3] << 24;
        if ((w & 0xffff) == 15 || !(w >> 16))   /* OpEntryPoint */
            return true;
        at += 4 * (size_t)(w >> 16);
    }
    return false;
}

int cc_translate(const uint8_t *spv, size_t len, const char *name,
                 bc_module *m, FILE *diag, char *why, size_t wlen)
{
    /* an OpenCL C program of helper functions only builds, to a module
     * of no kernels (the translator refuses such a module) */
    if (!has_kernel(spv, len) && !asm_assemble("", 0, name, m, diag))
        return 0;
    int ne = spv_translate(spv, len, name, m, diag);
    if (ne)
        return FAIL("%s: %d error%s translating its SPIR-V", name, ne,
                    ne == 1 ? "" : "s");
    return 0;
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
    rc = cc_translate(spv, len, path, m, diag, why, wlen);
    free(spv);
    return rc;
}

bool cc_is_bitcode(const uint8_t *b, size_t n)
{
    return n >= 4 && b[0] == 'B' && b[1] == 'C' && b[2] == 0xc0 &&
           b[3] == 0xde;
}

/* A cache entry's result bytes bc[0..n) as u's: the module into *m
 * (verified), or the object or text into *out (malloc'd, NUL-terminated);
 * false if they will not do (compiled again then). */
static bool take_hit(cc_what what, const uint8_t *bc, size_t n, bc_module *m,
                     uint8_t **out, size_t *olen)
{
    char err[256];
    if (what == CC_MODULE)
        return !bc_read(bc, n, m, err, sizeof err);
    if ((what == CC_OBJECT && !cc_is_bitcode(bc, n)) ||
        !(*out = malloc(n + 1)))
        return false;
    memcpy(*out, bc, n);
    (*out)[n] = 0, *olen = n;
    return true;
}

/* u compiled: translated into *m, or clang's object or text into *out;
 * its messages to diag and into *msgs (malloc'd). */
static int make(const cc_unit *u, cc_what what, bc_module *m, uint8_t **out,
                size_t *olen, FILE *diag, char **msgs, size_t *mlen,
                char *why, size_t wlen)
{
    char **av = malloc(((size_t)u->nopts + 2) * sizeof *av);
    int n = 0, rc;
    if (!av)
        return FAIL("out of memory");
    if (u->hdir)     /* the embedded headers are searched before -I's */
        av[n++] = (char *)"-I", av[n++] = (char *)u->hdir;
    for (int i = 0; i < u->nopts; i++)
        av[n++] = u->opts[i];
    if (what == CC_MODULE)
        rc = compile(u->path, av, n, m, diag, msgs, mlen, why, wlen);
    else {
        rc = front(u->path, av, n, what, out, olen, msgs, mlen, why, wlen);
        fwrite(*msgs ? *msgs : "", 1, *mlen, diag);
        uint8_t *t = rc ? NULL : realloc(*out, *olen + 1);  /* + its NUL */
        if (t)
            t[*olen] = 0, *out = t;
        else if (!rc)
            rc = FAIL("out of memory");
    }
    free(av);
    return rc;
}

/* u through the compile cache: a module into *m, or an object or text
 * into *out; the messages (a hit's: the first compilation's) to diag. */
static int through_cache(const cc_unit *u, cc_what what, bc_module *m,
                         uint8_t **out, size_t *olen, FILE *diag, char *why,
                         size_t wlen)
{
    static const char *const kinds[] = {"module", "object", "text"};
    size_t n = 0;
    char *src = file_read(u->path, &n);
    if (!src)
        return FAIL("cannot read '%s': %s", u->path, strerror(errno));
    ccc_input in = {kinds[what], u->name, src, n, u->hdrs, u->nh, u->opts,
                    u->nopts, {tool(0), tool(1)}, false};
    ccc_key k;
    bool cached = ccc_key_make(&k, &in);
    free(src);
    uint8_t *entry = NULL, *bytes = NULL;
    const uint8_t *bc;
    const char *d;
    size_t dl, bl;
    char *msgs = NULL;
    int rc;
    /* an entry that does not verify is compiled again (and replaced) */
    if (cached && ccc_get(&k, &entry, &d, &dl, &bc, &bl) &&
        take_hit(what, bc, bl, m, out, olen)) {
        fwrite(d, 1, dl, diag);
        rc = 0;
        last_kind = 1, last_tools = 0;
    } else if (!(rc = make(u, what, m, out, olen, diag, &msgs, &dl, why,
                           wlen)) && cached) {
        if (what != CC_MODULE)
            ccc_put(&k, msgs, dl, *out, *olen);
        else if (!bc_write(m, &bytes, &bl))
            ccc_put(&k, msgs, dl, bytes, bl);
    }
    free(entry);
    free(bytes);
    free(msgs);
    ccc_key_free(&k);
    return rc;
}

int cc_load(const char *path, char *const *opts, int nopts, bc_module *m,
            FILE *diag, char *why, size_t wlen)
{
    return cc_load_as(path, path, opts, nopts, m, diag, why, wlen);
}

int cc_load_as(const char *path, const char *name, char *const *opts,
               int nopts, bc_module *m, FILE *diag, char *why, size_t wlen)
{
    cc_unit u = {.path = path, .name = name, .opts = opts, .nopts = nopts};
    return through_cache(&u, CC_MODULE, m, NULL, NULL, diag, why, wlen);
}

int cc_make(const cc_unit *u, cc_what what, uint8_t **out, size_t *len,
            FILE *diag, char *why, size_t wlen)
{
    *out = NULL, *len = 0;
    if (what == CC_MODULE)
        return FAIL("cc_make makes objects and text, not modules");
    return through_cache(u, what, NULL, out, len, diag, why, wlen);
}

bool cc_is_opencl_c(const char *path, const char *text, size_t len)
{
    size_t pl = strlen(path);
    if (pl > 3 && !strcmp(path + pl - 3, ".cl"))
        return true;
    /* IR has no braces; OpenCL C kernels have them. */
    return memchr(text, '{', len) != NULL;
}

bool cc_program_is_opencl_c(const char *text, size_t len)
{
    if (memchr(text, '{', len))
        return true;
    /* IR without braces has kernels: a line "kernel NAME(...)" */
    for (size_t i = 0; i < len; i++) {
        size_t j = i;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (len - j > 7 && !memcmp(text + j, "kernel", 6) &&
            (text[j + 6] == ' ' || text[j + 6] == '\t'))
            return false;
        const char *nl = memchr(text + j, '\n', len - j);
        if (!nl)
            break;
        i = (size_t)(nl - text);
    }
    return true;
}
