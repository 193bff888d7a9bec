/* clvm conform: conformance vector files (docs/conform.md)
 * through the real assembler and the real interpreter.
 *
 * The cases of one built-in on one source type form a group, and each
 * group becomes one generated IR kernel, assembled once:
 *
 *   convert_/as_   out[i] = OP(in[i])        work-item i runs case i
 *   loads          out[0] = OP(off, p)       one run per case
 *   stores         OP(in[0], off, p)         one run per case
 *
 * A file of 80,000 conversions is thus a few hundred small kernels, each
 * run over an NDRange of its cases. Loads and stores get a run each
 * because the buffer is part of the case: p is exactly the case's buffer
 * (a store's filled with cd bytes), so the VM checks bounds against it. A
 * vload3 that touched a 4th element at the end of its buffer would trap
 * here, where in a slice of a shared buffer it would read the neighbour's
 * bytes and pass. A run costs a few microseconds: even a file of
 * nothing but loads goes at about 100,000 cases a second. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm/asm.h"
#include "tools/cmds.h"
#include "stdlib/convert.h"
#include "vm/native.h"
#include "stdlib/profile.h"
#include "tools/conformvec.h"
#include "tools/json.h"
#include "vm/vm.h"

enum {
    MAX_MALFORMED = 20,    /* per file; then the rest is not read */
    FILL = 0xcd,           /* store buffers before the store */
    CHUNK = 256            /* work-items per run (and work-group) */
};

/* The device classes each profile reproduces, besides `defined`: the
 * device's bits where OpenCL leaves them to it, and where it broke a
 * defined rule (issue 7 spells that class `nvidia-disagrees`; the README's
 * `<device>-disagrees` with device `nvidia-gpu` gives the other spelling).
 * Only their convert_ lines run: the rest are skipped, counted. clvm has
 * none (the default); strict is refused (see cmd_conform). */
enum { MAX_DEVCLASS = 3 };
static const char *const devclasses[PROF_COUNT][MAX_DEVCLASS] = {
    [PROF_NVIDIA] = {"impl:nvidia-gpu", "nvidia-disagrees",
                     "nvidia-gpu-disagrees"},
    [PROF_POCL] = {"impl:pocl-cpu"},
};

typedef struct {          /* cases of one built-in on one source type */
    uint64_t key;
    bi_desc op;
    ty_t src;
    uint32_t count;
    uint32_t first;       /* where its case numbers start in order[] */
} group;

enum status { PENDING, PASSED, FAILED };

/* Why a case failed. */
enum why { WHY_WRONG, WHY_ASM, WHY_TRAP };

typedef struct {          /* one case that runs, kept until its group ran */
    unsigned long line;
    uint32_t group;
    uint8_t status, why;
    uint32_t cls;         /* in conform.cls */
    uint16_t departs;     /* notes where the profile departs from the
                             defined bits (they are the expectation) */
    uint64_t arg;
    size_t at;            /* in bytes[]: src, expect, care, got, and the
                             defined bits of a departure */
    size_t src_len, len;  /* len: expect_len */
    char *trap;           /* the trap message (WHY_TRAP) */
} kcase;

typedef struct {          /* passed/failed/skipped of one class */
    char *name;
    unsigned long pass, fail, skip;
} klass;

typedef struct {
    klass *cls;
    size_t ncls, clscap;
    bool malformed;       /* exit 2 */
    enum prof_id prof;    /* --profile */
    unsigned long departures;
    /* per file */
    const char *file;
    group *g;
    size_t ng, gcap;
    uint32_t *slot;       /* hash of group keys: index + 1, 0 empty */
    size_t nslot;
    kcase *c;
    size_t nc, ccap;
    uint8_t *bytes;
    size_t nb, bcap;
    uint32_t *order;      /* case numbers grouped */
    json *js;             /* --json: the report goes here, else text */
} conform;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "clvm conform: out of memory\n");
        exit(2);
    }
    return q;
}

/* Makes room for one more of *n elements of size es in *p. */
static void *room(void *p, size_t *cap, size_t n, size_t es)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 64;
    return xrealloc(p, *cap * es);
}

static klass *class_of(conform *k, const char *name)
{
    for (size_t i = 0; i < k->ncls; i++)
        if (!strcmp(k->cls[i].name, name))
            return &k->cls[i];
    k->cls = room(k->cls, &k->clscap, k->ncls, sizeof *k->cls);
    klass *c = &k->cls[k->ncls++];
    memset(c, 0, sizeof *c);
    c->name = xrealloc(NULL, strlen(name) + 1);
    strcpy(c->name, name);
    return c;
}

/* Everything that makes two cases need different kernels, in one word. */
static uint64_t group_key(const bi_desc *d, ty_t src)
{
    return (uint64_t)d->kind | (uint64_t)d->type.s << 4 |
           (uint64_t)d->type.n << 8 | (uint64_t)d->n << 13 |
           (uint64_t)d->sat << 18 | (uint64_t)d->has_round << 19 |
           (uint64_t)d->round << 20 | (uint64_t)src.s << 24 |
           (uint64_t)src.n << 28;
}

static size_t slot_of(uint64_t key, size_t nslot)
{
    key *= 0x9E3779B97F4A7C15u;
    return (size_t)(key >> 32) & (nslot - 1);
}

static uint32_t find_group(conform *k, const vec_case *vc)
{
    uint64_t key = group_key(&vc->op, vc->src);
    size_t s;
    if (2 * (k->ng + 1) > k->nslot) {    /* keep the table half empty */
        size_t n = k->nslot ? 2 * k->nslot : 256;
        uint32_t *t = xrealloc(NULL, n * sizeof *t);
        memset(t, 0, n * sizeof *t);
        for (size_t i = 0; i < k->ng; i++) {
            for (s = slot_of(k->g[i].key, n); t[s]; s = (s + 1) & (n - 1)) {}
            t[s] = (uint32_t)i + 1;
        }
        free(k->slot);
        k->slot = t, k->nslot = n;
    }
    for (s = slot_of(key, k->nslot); k->slot[s]; s = (s + 1) & (k->nslot - 1))
        if (k->g[k->slot[s] - 1].key == key)
            return k->slot[s] - 1;
    k->g = room(k->g, &k->gcap, k->ng, sizeof *k->g);
    group *g = &k->g[k->ng];
    memset(g, 0, sizeof *g);
    g->key = key, g->op = vc->op, g->src = vc->src;
    k->slot[s] = (uint32_t)k->ng + 1;
    return (uint32_t)k->ng++;
}

static bool is_load(enum bi_kind kd)
{
    return kd == BI_VLOAD || kd == BI_VLOAD_HALF || kd == BI_VLOADA_HALF;
}

/* A `defined` convert_ case under profile p: where p knowingly gives
 * other bits than the defined rule (nvidia's NaN under _sat), its bits
 * replace the expectation, every bit cared for. Returns the notes of the
 * elements that depart, 0 if none does. */
static unsigned depart(enum prof_id p, const vec_case *vc, uint8_t *expect,
                       uint8_t *care)
{
    if (p == PROF_CLVM || vc->cls != VEC_DEFINED ||
        vc->op.kind != BI_CONVERT)
        return 0;
    enum ty_scalar ds = (enum ty_scalar)vc->op.type.s,
                   ss = (enum ty_scalar)vc->src.s;
    unsigned des = ty_scalar_size(ds), ses = ty_scalar_size(ss), notes = 0;
    enum rnd r = vc->op.has_round ? vc->op.round : cv_default_round(ds);
    for (unsigned i = 0; i < vc->op.type.n; i++) {
        uint8_t def[8], got[8];
        const uint8_t *s = vc->src_bytes + i * ses;
        int n = prof_cv_scalar(PROF_CLVM, ds, ss, def, s, vc->op.sat, r);
        prof_cv_scalar(p, ds, ss, got, s, vc->op.sat, r);
        if (n > 0 && memcmp(def, got, des)) {
            memcpy(expect + i * des, got, des);
            memset(care + i * des, 0xff, des);
            notes |= (unsigned)n;
        }
    }
    return notes;
}

/* Keeps a case of class cls that runs: its bytes, then room for what the
 * VM gives, then the defined bits if the profile departs from them. */
static void keep(conform *k, const vec_case *vc, size_t cls)
{
    uint32_t gi = find_group(k, vc);
    group *g = &k->g[gi];
    size_t len = vc->expect_len, need = vc->src_len + 4 * len;
    k->c = room(k->c, &k->ccap, k->nc, sizeof *k->c);
    kcase *c = &k->c[k->nc++];
    memset(c, 0, sizeof *c);
    c->line = vc->line, c->group = gi, c->arg = vc->arg;
    c->cls = (uint32_t)cls;
    c->src_len = vc->src_len, c->len = len;
    while (k->nb + need > k->bcap) {
        k->bcap = k->bcap ? 2 * k->bcap : 1 << 16;
        k->bytes = xrealloc(k->bytes, k->bcap);
    }
    c->at = k->nb;
    uint8_t *e = k->bytes + k->nb + vc->src_len;
    memcpy(k->bytes + k->nb, vc->src_bytes, vc->src_len);
    memcpy(e, vc->expect, len);
    memcpy(e + len, vc->care, len);
    memcpy(e + 3 * len, vc->expect, len);
    c->departs = (uint16_t)depart(k->prof, vc, e, e + len);
    k->nb += need;
    g->count++;
}

static uint8_t *src_of(const conform *k, const kcase *c)
{
    return k->bytes + c->at;
}
static uint8_t *got_of(const conform *k, const kcase *c)
{
    return k->bytes + c->at + c->src_len + 2 * c->len;
}

/* A vec_case again, enough for vec_compare and the report. */
static vec_case unkeep(const conform *k, const kcase *c)
{
    vec_case vc;
    const group *g = &k->g[c->group];
    memset(&vc, 0, sizeof vc);
    vc.file = k->file, vc.line = c->line, vc.op = g->op, vc.src = g->src;
    vc.has_arg = bi_is_store(g->op.kind) || is_load(g->op.kind);
    vc.arg = c->arg;
    vc.src_bytes = src_of(k, c), vc.src_len = c->src_len;
    vc.expect = vc.src_bytes + c->src_len, vc.care = vc.expect + c->len;
    vc.expect_len = c->len;
    return vc;
}

static void failed(kcase *c, enum why w, const char *trap)
{
    c->status = FAILED, c->why = (uint8_t)w;
    if (trap) {
        size_t n = strlen(trap) + 1;
        free(c->trap);
        c->trap = memcpy(xrealloc(NULL, n), trap, n);
    }
}

/* The element type a load reads or a store writes. */
static ty_t pointee(const group *g)
{
    ty_t t = {(uint8_t)g->src.s, 1};
    if (bi_is_store(g->op.kind) && bi_is_half(g->op.kind))
        t.s = TY_HALF;
    return t;
}

/* The value a convert_, as_ or load gives. */
static ty_t result(const group *g)
{
    ty_t t = g->op.type;
    if (g->op.kind == BI_VLOAD)
        t.s = g->src.s, t.n = (uint8_t)g->op.n;
    else if (is_load(g->op.kind))
        t.s = TY_FLOAT, t.n = (uint8_t)g->op.n;
    return t;
}

/* The group's kernel in IR (docs/ir.md). */
static void kernel_text(const group *g, char *buf, size_t cap)
{
    char op[BI_NAME_MAX], s[TY_NAME_MAX], r[TY_NAME_MAX], e[TY_NAME_MAX];
    bi_format(&g->op, op);
    ty_name(g->src, s);
    ty_name(result(g), r);
    ty_name(pointee(g), e);
    if (is_load(g->op.kind))
        snprintf(buf, cap,
                 "kernel conform(global const %s *p, global %s *out, "
                 "ulong off)\n    out[0] = %s(off, p)\nend\n",
                 e, r, op);
    else if (bi_is_store(g->op.kind))
        snprintf(buf, cap,
                 "kernel conform(global const %s *in, global %s *p, "
                 "ulong off)\n    %s(in[0], off, p)\nend\n",
                 s, e, op);
    else
        snprintf(buf, cap,
                 "kernel conform(global const %s *in, global %s *out)\n"
                 "    ulong i = get_global_id(0)\n"
                 "    out[i] = %s(in[i])\nend\n",
                 s, r, op);
}

typedef struct {          /* one group's run */
    conform *k;
    bc_module m;
    vm_arg args[3];
    const uint32_t *idx;  /* its case numbers */
} grun;

/* --native libraries: the generated kernels call no extern today, but a
 * vector file's kernels run under the same rule as `clvm run`'s. */
static vm_natives *natives;

/* Runs work-items [lo, hi) in one work-group. A trap fails them all:
 * a conversion cannot trap but for a VM bug, and a load or store runs
 * alone. Returns whether the run finished. */
static bool run(grun *r, uint64_t lo, uint64_t hi)
{
    vm_ndrange nd;
    vm_trap t;
    memset(&nd, 0, sizeof nd);
    nd.dims = 1, nd.global[0] = nd.local[0] = hi - lo, nd.offset[0] = lo;
    nd.threads = 1;
    nd.natives = natives;
    nd.profile = (uint8_t)r->k->prof;
    if (!vm_run(&r->m, 0, r->args, &nd, &t))
        return true;
    if (t.kind == VM_TRAP_NOMEM) {
        fprintf(stderr, "clvm conform: %s\n", t.msg);
        exit(2);
    }
    for (uint64_t i = lo; i < hi; i++)
        failed(&r->k->c[r->idx[i]], WHY_TRAP, t.msg);
    return false;
}

/* The VM's result of a case that did not trap, against its expectation. */
static void judge(conform *k, kcase *c, const uint8_t *got)
{
    if (c->status == FAILED)
        return;
    memcpy(got_of(k, c), got, c->len);
    vec_case vc = unkeep(k, c);
    c->status = vec_compare(&vc, got) ? PASSED : FAILED;
}

static void run_group(conform *k, uint32_t gi)
{
    const group *g = &k->g[gi];
    const uint32_t *idx = k->order + g->first;
    size_t n = g->count;
    char src[1024], *diag = NULL;
    size_t dlen = 0;
    grun r;
    memset(&r, 0, sizeof r);
    r.k = k, r.idx = idx;

    kernel_text(g, src, sizeof src);
    FILE *df = open_memstream(&diag, &dlen);
    int nerr = asm_assemble(src, strlen(src), "<conform>", &r.m, df);
    if (df)
        fclose(df);
    char why[256];
    if (!nerr && natives && vm_natives_bind(natives, &r.m, why, sizeof why)) {
        fprintf(stderr, "clvm conform: %s\n", why);
        exit(2);
    }
    if (nerr) {
        char op[BI_NAME_MAX], ty[TY_NAME_MAX];
        fprintf(stderr,
                "clvm conform: %s: the kernel generated for %s(%s) does not "
                "assemble (an assembler bug):\n%s%s",
                k->file, bi_format(&g->op, op), ty_name(g->src, ty), src,
                diag ? diag : "");
        for (size_t i = 0; i < n; i++)
            failed(&k->c[idx[i]], WHY_ASM, NULL);
        free(diag);
        return;
    }
    free(diag);

    if (is_load(g->op.kind) || bi_is_store(g->op.kind)) {
        bool store = bi_is_store(g->op.kind);
        for (size_t i = 0; i < n; i++) {
            kcase *c = &k->c[idx[i]];
            /* p: the case's buffer (a store's holds cd bytes before it);
             * v: the loaded value, or the value to store */
            size_t plen = store ? c->len : c->src_len;
            size_t vlen = store ? c->src_len : ty_sizeof(result(g));
            uint8_t *p = xrealloc(NULL, plen), *v = xrealloc(NULL, vlen);
            uint64_t off = c->arg;      /* a value argument: host order */
            if (store)
                memset(p, FILL, plen), memcpy(v, src_of(k, c), vlen);
            else
                memcpy(p, src_of(k, c), plen), memset(v, FILL, vlen);
            r.args[0] = store ? (vm_arg){v, vlen} : (vm_arg){p, plen};
            r.args[1] = store ? (vm_arg){p, plen} : (vm_arg){v, vlen};
            r.args[2] = (vm_arg){(uint8_t *)&off, sizeof off};
            r.idx = idx + i;
            if (run(&r, 0, 1))
                judge(k, c, store ? p : v);
            free(p), free(v);
        }
    } else {
        size_t in_es = ty_sizeof(g->src), out_es = ty_sizeof(result(g));
        uint8_t *in = xrealloc(NULL, n * in_es);
        uint8_t *out = xrealloc(NULL, n * out_es);
        memset(out, FILL, n * out_es);
        for (size_t i = 0; i < n; i++)
            memcpy(in + i * in_es, src_of(k, &k->c[idx[i]]), in_es);
        r.args[0] = (vm_arg){in, n * in_es};
        r.args[1] = (vm_arg){out, n * out_es};
        for (size_t lo = 0; lo < n; lo += CHUNK)
            run(&r, lo, n - lo > CHUNK ? lo + CHUNK : n);
        for (size_t i = 0; i < n; i++)
            judge(k, &k->c[idx[i]], out + i * out_es);
        free(in), free(out);
    }
    bc_free(&r.m);
}

/* --json: a case's place, operation and input, opening its object. */
static void js_case(const conform *k, const kcase *c, const vec_case *vc,
                    const char *result, char *h)
{
    char ty[TY_NAME_MAX], op[BI_NAME_MAX];
    js_obj(k->js, NULL);
    js_str(k->js, "result", result);
    js_str(k->js, "file", k->file);
    js_u64(k->js, "line", c->line);
    js_str(k->js, "op", bi_format(&vc->op, op));
    js_str(k->js, "type", ty_name(vc->src, ty));
    if (vc->has_arg)
        js_u64(k->js, "offset", c->arg);
    js_str(k->js, "input", vec_hex(h, vc->src_bytes, NULL, c->src_len));
}

static void report(const conform *k, const kcase *c)
{
    vec_case vc = unkeep(k, c);
    char ty[TY_NAME_MAX], op[BI_NAME_MAX];
    char *h = xrealloc(NULL, 2 * (c->src_len > c->len ? c->src_len : c->len)
                                 + 1);
    const char *got = c->why == WHY_ASM
        ? "nothing: the generated kernel did not assemble"
        : c->why == WHY_TRAP ? c->trap   /* "trap: ..." */
                             : NULL;
    if (k->js) {
        js_case(k, c, &vc, "failed", h);
        js_str(k->js, "expected", vec_hex(h, vc.expect, vc.care, c->len));
        js_str(k->js, got ? "error" : "got",
               got ? got : vec_hex(h, got_of(k, c), NULL, c->len));
        js_end(k->js);
        free(h);
        return;
    }
    printf("%s:%lu: %s(%s)", k->file, c->line, bi_format(&vc.op, op),
           ty_name(vc.src, ty));
    if (vc.has_arg)
        printf(" offset %llu", (unsigned long long)c->arg);
    printf(": input %s\n", vec_hex(h, vc.src_bytes, NULL, c->src_len));
    printf("  expected %s\n", vec_hex(h, vc.expect, vc.care, c->len));
    printf("  got      %s\n", got ? got : vec_hex(h, got_of(k, c), NULL, c->len));
    free(h);
}

/* A case that passed with the profile's bits instead of the defined ones:
 * one line, the notes of the case, the defined bits and the profile's. */
static void report_departure(const conform *k, const kcase *c)
{
    vec_case vc = unkeep(k, c);
    char ty[TY_NAME_MAX], op[BI_NAME_MAX];
    char *h = xrealloc(NULL, 2 * (c->src_len > c->len ? c->src_len : c->len)
                                 + 1);
    if (k->js) {
        js_case(k, c, &vc, "departure", h);
        js_arr(k->js, "notes");
        for (unsigned id = 0; id < NOTE_COUNT; id++)
            if (c->departs >> id & 1)
                js_str(k->js, NULL, note_name((enum note_id)id));
        js_end(k->js);
        js_str(k->js, "defined", vec_hex(h, vc.expect + 3 * c->len, vc.care,
                                         c->len));
        js_str(k->js, "gives", vec_hex(h, vc.expect, NULL, c->len));
        js_end(k->js);
        free(h);
        return;
    }
    printf("%s:%lu: %s(%s): input %s: departure", k->file, c->line,
           bi_format(&vc.op, op), ty_name(vc.src, ty),
           vec_hex(h, vc.src_bytes, NULL, c->src_len));
    for (unsigned id = 0; id < NOTE_COUNT; id++)
        if (c->departs >> id & 1)
            printf(" %s", note_name((enum note_id)id));
    printf(": defined %s,", vec_hex(h, vc.expect + 3 * c->len, vc.care,
                                    c->len));
    printf(" %s gives %s\n", prof_name(k->prof),
           vec_hex(h, vc.expect, NULL, c->len));
    free(h);
}

/* Reads, runs and reports one file. */
static void conform_file(conform *k, const char *path)
{
    vec_reader *rd = strcmp(path, "-") ? vec_open(path)
                                       : vec_open_stream(stdin, "<stdin>");
    vec_case vc;
    int got, bad = 0;
    if (!rd) {
        fprintf(stderr, "clvm conform: cannot read '%s': %s\n", path,
                strerror(errno));
        k->malformed = true;
        return;
    }
    k->file = strcmp(path, "-") ? path : "<stdin>";
    k->ng = k->nc = k->nb = 0;
    if (k->slot)
        memset(k->slot, 0, k->nslot * sizeof *k->slot);
    while ((got = vec_next(rd, &vc)) != 0) {
        if (got < 0) {
            fprintf(stderr, "%s\n", vec_error(rd));
            k->malformed = true;
            if (++bad == MAX_MALFORMED) {
                fprintf(stderr, "%s: too many malformed lines; the rest is "
                                "not read\n", k->file);
                break;
            }
            continue;
        }
        klass *cl = class_of(k, vc.cls_name);
        bool dev = false;   /* a class of the profile's device */
        for (unsigned i = 0; i < MAX_DEVCLASS; i++)
            dev |= devclasses[k->prof][i] &&
                   !strcmp(vc.cls_name, devclasses[k->prof][i]);
        /* a device's convert_ bits are reproduced; its other results (as_
         * between element counts, ...) are not: skipped, counted */
        if (vc.cls == VEC_DEFINED || (dev && vc.op.kind == BI_CONVERT))
            keep(k, &vc, (size_t)(cl - k->cls));
        else
            cl->skip++;
    }
    vec_close(rd);

    /* Counting sort of the cases by group, line order kept in each. */
    k->order = xrealloc(k->order, (k->nc ? k->nc : 1) * sizeof *k->order);
    uint32_t at = 0;
    for (size_t i = 0; i < k->ng; i++)
        k->g[i].first = at, at += k->g[i].count, k->g[i].count = 0;
    for (size_t i = 0; i < k->nc; i++) {
        group *g = &k->g[k->c[i].group];
        k->order[g->first + g->count++] = (uint32_t)i;
    }
    for (uint32_t i = 0; i < k->ng; i++)
        run_group(k, i);

    /* k->c is in line order: so are the reports. */
    for (size_t i = 0; i < k->nc; i++) {
        kcase *c = &k->c[i];
        if (c->status == PASSED) {
            k->cls[c->cls].pass++;
            if (c->departs) {
                k->departures++;
                report_departure(k, c);
            }
        } else {
            k->cls[c->cls].fail++;
            report(k, c);
        }
        free(c->trap);
    }
}

static void usage(FILE *f)
{
    fputs("usage: clvm conform [--profile NAME] [--stats] [--json] FILE.tsv...\n\n"
          "Runs conformance vectors (docs/conform.md gives the format)\n"
          "through the assembler and the interpreter: the cases of "
          "one built-in on one\nsource type become one generated kernel. "
          "Prints every failing case\n(file:line, op, input, expected, got), "
          "then counts per class, and last\n\"N passed, N failed, N "
          "skipped\". FILE may be - for standard input.\n\n"
          "  --profile NAME  the device profile to compare with: clvm (the "
          "default: only\n                  `defined` cases run, others are "
          "skipped), nvidia\n                  (also impl:nvidia-gpu and "
          "nvidia[-gpu]-disagrees) or pocl\n                  (also "
          "impl:pocl-cpu); of a device's lines only convert_ run.\n"
          "                  Defined cases where the profile knowingly "
          "departs\n                  expect its bits and are listed as "
          "departures.\n"
          "  --native LIB.so the kernels may call LIB.so's functions "
          "(docs/security.md)\n"
          "  --stats         print the rate to stderr: \"conform: N cases in "
          "S s (R cases/s)\"\n"
          "  --json          the report as one JSON object on stdout: failing "
          "cases and\n                  departures, counts per class, totals "
          "(docs/json.md)\n\n"
          "exit status: 0 all passed, 1 a case failed, 2 usage error or a "
          "malformed\nor unreadable file\n", f);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cmd_conform(int argc, char **argv)
{
    const char *profile = NULL, **files = xrealloc(NULL, (size_t)argc *
                                                             sizeof *files);
    bool stats = false, opts = true, as_json = false;
    int nfiles = 0, rc = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!opts || a[0] != '-' || !a[1]) {
            files[nfiles++] = a;
        } else if (!strcmp(a, "--")) {
            opts = false;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            rc = 0;
            goto done;
        } else if (!strcmp(a, "--stats")) {
            stats = true;
        } else if (!strcmp(a, "--json")) {
            as_json = true;
        } else if (!strcmp(a, "--native") && i + 1 < argc) {
            char why[256];
            if ((!natives && !(natives = vm_natives_new())) ||
                vm_natives_open(natives, argv[++i], why, sizeof why)) {
                fprintf(stderr, "clvm conform: %s\n",
                        natives ? why : "out of memory");
                goto done;
            }
        } else if (!strncmp(a, "--profile=", 10)) {
            profile = a + 10;
        } else if (!strcmp(a, "--profile") && i + 1 < argc) {
            profile = argv[++i];
        } else if (!strcmp(a, "--profile")) {
            fprintf(stderr, "clvm conform: --profile needs a name\n");
            goto done;
        } else {
            fprintf(stderr, "clvm conform: unknown option '%s'\n", a);
            usage(stderr);
            goto done;
        }
    }
    int prof = profile ? prof_parse(profile) : PROF_CLVM;
    if (prof == PROF_STRICT) {
        fprintf(stderr, "clvm conform: the strict profile traps on every "
                        "implementation-defined result; it is for running "
                        "kernels (clvm run), not for conform\n");
        goto done;
    }
    if (prof < 0) {
        fprintf(stderr, "clvm conform: unknown profile '%s'; known:",
                profile);
        for (int p = 0; p < PROF_COUNT; p++)
            if (p != PROF_STRICT)
                fprintf(stderr, " %s", prof_name((enum prof_id)p));
        fprintf(stderr, "\n");
        goto done;
    }
    if (!nfiles) {
        fprintf(stderr, "clvm conform: no vector file given\n");
        usage(stderr);
        goto done;
    }

    double t0 = now();
    conform k;
    memset(&k, 0, sizeof k);
    k.prof = (enum prof_id)prof;
    class_of(&k, "defined");
    json js;
    if (as_json) {
        k.js = &js;
        js_open(&js, stdout);
        js_str(&js, "profile", prof_name(k.prof));
        js_arr(&js, "cases");   /* failures and departures, in file order */
    }
    for (int i = 0; i < nfiles; i++)
        conform_file(&k, files[i]);
    fflush(stdout);

    unsigned long pass = 0, fail = 0, skip = 0;
    for (size_t i = 0; i < k.ncls; i++)
        pass += k.cls[i].pass, fail += k.cls[i].fail, skip += k.cls[i].skip;
    if (stats) {   /* before the counts: the summary stays the last line */
        double s = now() - t0;
        unsigned long n = pass + fail + skip;
        fprintf(stderr, "conform: %lu cases in %.3f s (%.0f cases/s)\n", n, s,
                s > 0 ? (double)n / s : 0.0);
    }
    rc = k.malformed ? 2 : fail ? 1 : 0;
    if (as_json)
        js_end(&js);
    if (as_json && k.prof != PROF_CLVM)
        js_u64(&js, "departures", k.departures);
    else if (k.prof != PROF_CLVM)
        printf("%s departures: %lu defined cases passed with the profile's "
               "bits\n", prof_name(k.prof), k.departures);
    if (as_json)
        js_obj(&js, "classes");
    for (size_t i = 0; i < k.ncls; i++) {
        const klass *c = &k.cls[i];
        if (as_json) {
            js_obj(&js, c->name);
            js_u64(&js, "passed", c->pass);
            js_u64(&js, "failed", c->fail);
            js_u64(&js, "skipped", c->skip);
            js_end(&js);
        } else {
            printf("%s: %lu passed, %lu failed, %lu skipped\n", c->name,
                   c->pass, c->fail, c->skip);
        }
        free(c->name);
    }
    if (as_json) {
        js_end(&js);
        js_u64(&js, "passed", pass);
        js_u64(&js, "failed", fail);
        js_u64(&js, "skipped", skip);
        js_bool(&js, "malformed_input", k.malformed);
        js_i64(&js, "exit", rc);
        js_close(&js);
    } else {
        printf("%lu passed, %lu failed, %lu skipped\n", pass, fail, skip);
    }
    fflush(stdout);
    free(k.cls), free(k.g), free(k.slot), free(k.c), free(k.bytes);
    free(k.order);
done:
    free(files);
    vm_natives_free(natives);
    natives = NULL;
    return rc;
}
