/* Every `defined` vector of each shared/conformance/ .tsv file through the
 * stdlib API (convert.h, reinterpret.h, loadstore.h), compared by the
 * README's rules (vec_compare). One TEST per file. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/convert.h"
#include "stdlib/loadstore.h"
#include "stdlib/reinterpret.h"
#include "tests/lib/test.h"
#include "tools/conformvec.h"

/* The files hold little-endian elements; stdlib registers are host order.
 * They coincide on a little-endian host, which this test assumes. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "test_conformance reads file bytes as host registers");
#else
#error "cannot tell the host byte order"
#endif

enum { MAX_SHOWN = 20, MAX_FILES = 64 };

/* The files the README lists, with their `defined` counts: a reader that
 * skipped lines would pass every vector it saw. */
static const struct { const char *name; unsigned long defined; } known[] = {
    {"cts_special_conversions.tsv", 80013},
    {"spec_examples.tsv", 200},
    {"wasm_conversions.tsv", 1037},
};
enum { NKNOWN = sizeof known / sizeof known[0] };

static const char *shared;
static char *files[MAX_FILES];
static int nfiles;
static const char *current;     /* the file the running TEST reads */

/* A register: the widest value is 16 x 8 bytes. */
typedef union {
    uint8_t b[TY_MAXLANES * 8];
    float f[TY_MAXLANES * 2];
    double d[TY_MAXLANES];
    uint64_t u[TY_MAXLANES];
} reg;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_files(void)
{
    char dir[4200];
    DIR *d;
    struct dirent *e;
    snprintf(dir, sizeof dir, "%s/conformance", shared);
    if (!(d = opendir(dir)))
        return;
    while ((e = readdir(d)) && nfiles < MAX_FILES) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] != '.' && n > 4 &&
            strcmp(e->d_name + n - 4, ".tsv") == 0)
            if ((files[nfiles] = strdup(e->d_name)))
                nfiles++;
    }
    closedir(d);
    qsort(files, (size_t)nfiles, sizeof files[0], by_name);
}

/* A buffer of len bytes (at least 1, so that malloc never says NULL for
 * an empty one) holding init, or fill where init is NULL. */
static uint8_t *buffer(const uint8_t *init, size_t len, int fill)
{
    uint8_t *p = malloc(len ? len : 1);
    if (!p) {
        perror("malloc");
        exit(1);
    }
    if (init)
        memcpy(p, init, len);
    else
        memset(p, fill, len);
    return p;
}

/* Runs c through the stdlib into got (c->expect_len bytes). Returns NULL,
 * or why the API refused it. */
static const char *evaluate(const vec_case *c, uint8_t *got)
{
    const bi_desc *d = &c->op;
    reg s, r;
    ls_buf b = {NULL, 0};
    ls_fault f;
    enum ls_err err = LS_OK;
    const char *why = NULL;
    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
    if (d->kind == BI_CONVERT || d->kind == BI_AS || bi_is_store(d->kind))
        memcpy(s.b, c->src_bytes, c->src_len);   /* reader checked sizeof */
    switch (d->kind) {
    case BI_CONVERT: {
        enum ty_scalar to = (enum ty_scalar)d->type.s;
        cv_fn fn = cv_lookup(to, (enum ty_scalar)c->src.s, d->sat,
                             d->has_round ? d->round : cv_default_round(to));
        if (!fn)
            return "cv_lookup: no such conversion";
        /* A 3-vector converts 3 lanes: its 4th is filler. */
        fn(r.b, s.b, c->src.n);
        memcpy(got, r.b, c->expect_len);
        return NULL;
    }
    case BI_AS:
        if (as_reinterpret(d->type, c->src, r.b, s.b) < 0)
            return "as_reinterpret: sizes differ";
        memcpy(got, r.b, c->expect_len);
        return NULL;
    case BI_VLOAD:
    case BI_VLOAD_HALF:
    case BI_VLOADA_HALF:
        b.data = buffer(c->src_bytes, c->src_len, 0);
        b.size = c->src_len;
        if (d->kind == BI_VLOAD)
            err = ls_vload((enum ty_scalar)c->src.s, d->n, &b, 0, c->arg, r.b,
                           &f);
        else
            err = ls_vload_half(d->n, d->kind == BI_VLOADA_HALF, &b, 0,
                                c->arg, r.f, &f);
        memcpy(got, r.b, c->expect_len);
        break;
    default: /* stores: the buffer starts as cd bytes */
        b.data = buffer(NULL, c->expect_len, 0xcd);
        b.size = c->expect_len;
        if (d->kind == BI_VSTORE)
            err = ls_vstore((enum ty_scalar)c->src.s, d->n, s.b, &b, 0, c->arg,
                            &f);
        else
            err = ls_vstore_half(d->n, d->kind == BI_VSTOREA_HALF,
                                 c->src.s == TY_DOUBLE, s.b,
                                 d->has_round ? d->round : RND_RTE, &b, 0,
                                 c->arg, &f);
        memcpy(got, b.data, c->expect_len);
    }
    free(b.data);
    if (err != LS_OK)
        why = ls_err_name(err);
    return why;
}

static void show_failure(const vec_case *c, const uint8_t *got,
                         const char *why)
{
    char ty[TY_NAME_MAX];
    char *in = malloc(2 * c->src_len + 1), *ex = malloc(2 * c->expect_len + 1),
         *gt = malloc(2 * c->expect_len + 1);
    if (!in || !ex || !gt) {
        perror("malloc");
        exit(1);
    }
    printf("  line %lu: %s(%s)", c->line, c->opname, ty_name(c->src, ty));
    if (c->has_arg)
        printf(" offset %llu", (unsigned long long)c->arg);
    printf(" input %s\n    expected %s\n    got      %s%s%s\n",
           vec_hex(in, c->src_bytes, NULL, c->src_len),
           vec_hex(ex, c->expect, c->care, c->expect_len),
           why ? "(not run: " : vec_hex(gt, got, NULL, c->expect_len),
           why ? why : "", why ? ")" : "");
    if (*c->comment)
        printf("    # %s\n", c->comment);
    free(in), free(ex), free(gt);
}

static void run_file(void)
{
    char path[4200];
    vec_reader *r;
    vec_case c;
    unsigned long passed = 0, failed = 0, skipped = 0, malformed = 0;
    int got;
    snprintf(path, sizeof path, "%s/conformance/%s", shared, current);
    if (!(r = vec_open(path))) {
        CHECK(0, "cannot open %s", path);
        return;
    }
    while ((got = vec_next(r, &c)) != 0) {
        uint8_t *out;
        const char *why;
        if (got < 0) {
            CHECK(0, "%s", vec_error(r));
            malformed++;
            continue;
        }
        if (c.cls != VEC_DEFINED) {
            skipped++;
            continue;
        }
        out = buffer(NULL, c.expect_len, 0);
        why = evaluate(&c, out);
        if (!why && vec_compare(&c, out)) {
            passed++;
        } else {
            if (failed++ < MAX_SHOWN)
                show_failure(&c, out, why);
        }
        free(out);
    }
    vec_close(r);
    printf("conformance: %s: %lu defined vectors passed, %lu failed, "
           "%lu non-defined lines skipped", current, passed, failed, skipped);
    if (malformed)
        printf(", %lu malformed lines", malformed);
    printf("\n");
    if (failed > MAX_SHOWN)
        printf("  (%lu more failures not shown)\n", failed - MAX_SHOWN);
    CHECK(failed == 0, "%lu of %lu defined vectors failed", failed,
          passed + failed);
    for (int i = 0; i < NKNOWN; i++)
        if (strcmp(current, known[i].name) == 0)
            CHECK(passed + failed == known[i].defined,
                  "%lu defined vectors read, the README says %lu",
                  passed + failed, known[i].defined);
}

static void no_shared(void)
{
    t_skip("no shared folder (set CLVM_SHARED, or put it at ../shared)");
}

static void known_files_present(void)
{
    for (int i = 0; i < NKNOWN; i++) {
        bool found = false;
        for (int k = 0; k < nfiles; k++)
            found = found || strcmp(files[k], known[i].name) == 0;
        CHECK(found, "%s/conformance/%s is missing", shared, known[i].name);
    }
}

int main(void)
{
    shared = t_shared_dir();
    if (!shared) {
        for (int i = 0; i < NKNOWN; i++)
            t_run(known[i].name, no_shared);
        return t_summary("conformance");
    }
    list_files();
    RUN(known_files_present);
    for (int i = 0; i < nfiles; i++) {
        current = files[i];
        t_run(files[i], run_file);
    }
    for (int i = 0; i < nfiles; i++)
        free(files[i]);
    return t_summary("conformance");
}
