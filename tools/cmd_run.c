/* clvm run: one kernel over an NDRange, on buffers from files, with the
 * results printed as OpenCL C literals (tools/value.h) or written back. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm.h"
#include "bcfile.h"
#include "cmds.h"
#include "file.h"
#include "lit.h"
#include "value.h"
#include "vm.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: clvm run FILE.clasm|FILE.bc --global G[,G[,G]] [options]\n"
"\n"
"Runs one kernel over an NDRange. A .clasm file is assembled first (its\n"
"diagnostics go to stderr); any other file must be a bytecode module.\n"
"\n"
"  --kernel NAME          the kernel to run (default: the only one)\n"
"  --global G[,G[,G]]     global size per dimension; 1 to 3 numbers set\n"
"                         the work dimension\n"
"  --local L[,L[,L]]      work-group size, as many numbers as --global;\n"
"                         each global size must be a multiple of it\n"
"                         (default: clvm chooses, in dimension 0 the\n"
"                         largest divisor of G up to 256, elsewhere 1)\n"
"  --offset O[,O[,O]]     global offset (default 0)\n"
"  --arg NAME=VALUE       one per kernel parameter, every one required:\n"
"      value parameter    a literal as in the IR: 1.5, -3, 0x9E3779B9,\n"
"                         0x1.8p1, nan, inf, -inf, INT_MAX; a vector as\n"
"                         (float4)(1, 2, 3, 4) or (float4)(1); it must fit\n"
"                         the type exactly (no conversion, no overflow)\n"
"      global/constant *  @PATH: a buffer holding the file's bytes, of\n"
"                         its size; zeros:BYTES: a zero-filled buffer\n"
"      local *            local:BYTES: that much local memory per group\n"
"  --out NAME=PATH        write buffer NAME to PATH after the run\n"
"  --print NAME[:TYPE][:hex]\n"
"                         print buffer NAME after the run, one element a\n"
"                         line: 'NAME[i] = VALUE' in OpenCL C literal\n"
"                         syntax, as its pointee type or as TYPE (any\n"
"                         type whose size divides the buffer's: y:uint4\n"
"                         reads a float buffer's bits as integers); :hex\n"
"                         prints each component's bits in hex, a vector\n"
"                         as the unsigned type of its element size\n"
"  --threads N            worker threads (default 0: every core)\n"
"  --warp W               work-items run in lockstep, 1..64 (default 64)\n"
"  --max-steps N          instructions a warp may dispatch before the run\n"
"                         traps (default %u)\n"
"  --time                 print 'time: kernel=SECONDS' (the run alone) to\n"
"                         stderr\n"
"\n"
"Buffers are little-endian. --out and --print happen after a trap too,\n"
"showing what the work-groups that ran had written (which groups ran\n"
"besides the trapping one depends on --threads); the trap's one-line\n"
"message comes last, on stderr. The trap reported is the first in NDRange\n"
"order, whatever --threads.\n"
"\n"
"Values print as OpenCL C literals that read back to the same bits:\n"
"integers in decimal, floating values as whole numbers in full (65504)\n"
"or in the fewest digits that read back (0.1, 1e-08), -0, inf, -inf, and\n"
"nan or -nan by the sign bit (:hex shows a NaN's payload).\n"
"\n"
"exit status: 0 the kernel ran, 1 it trapped, 2 usage or input error\n"
"(assembly errors included)\n",
            VM_DEFAULT_MAX_STEPS);
}

static int err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);   /* keep the order of what was printed */
    fputs("clvm run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

/* A decimal number, nothing else (no sign, no octal surprises). */
static bool number(const char *s, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    if (!len)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

/* "A[,B[,C]]" into v; returns the count, 0 if malformed. */
static unsigned numlist(const char *s, uint64_t v[3])
{
    unsigned n = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        if (n == 3 || !number(s, len, &v[n]))
            return 0;
        n++;
        if (!s[len])
            return n;
        s += len + 1;
    }
}

typedef struct {
    const char *name, *path;   /* --out NAME=PATH; --print NAME (path NULL) */
    size_t nlen;
    ty_t type;
    bool typed;                /* --print NAME:TYPE */
    bool hex;                  /* --print NAME:hex: bits in hex */
    uint32_t param;
} output;

typedef struct {
    const char *file, *kernel;
    const char *global, *local, *offset;
    const char **args;
    output *outs;
    int nargs, nouts;
    bool time;
    vm_ndrange nd;
} options;

/* The options that take a value. */
#define RUN_OPTIONS(X)                                                   \
    X(KERNEL, "--kernel") X(GLOBAL, "--global") X(LOCAL, "--local")     \
    X(OFFSET, "--offset") X(ARG, "--arg") X(OUT, "--out")               \
    X(PRINT, "--print") X(THREADS, "--threads") X(WARP, "--warp")       \
    X(MAX_STEPS, "--max-steps")
enum {
#define X(E, s) OPT_##E,
    RUN_OPTIONS(X)
#undef X
    OPT_COUNT
};
static const char *const opt_names[] = {
#define X(E, s) s,
    RUN_OPTIONS(X)
#undef X
};

/* --name VALUE or --name=VALUE. */
static const char *optarg_of(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* --print NAME[:TYPE][:hex] */
static int print_spec(const char *v, output *out)
{
    out->nlen = strcspn(v, ":");
    if (!out->nlen)
        return err("--print %s: expected NAME[:TYPE][:hex]", v);
    for (const char *c = v + out->nlen; *c == ':'; c += strcspn(c, ":")) {
        size_t n = strcspn(++c, ":");
        if (n == 3 && !memcmp(c, "hex", 3) && !out->hex)
            out->hex = true;
        else if (!out->typed && ty_parse(c, n, &out->type))
            out->typed = true;
        else
            return err("--print %s: '%.*s' is neither a type (float4, uint, "
                       "uchar16, ...) nor hex", v, (int)n, c);
    }
    return 0;
}

/* --threads, --warp, --max-steps */
static int count_opt(int k, const char *v, vm_ndrange *nd)
{
    uint64_t x;
    if (!number(v, strlen(v), &x))
        return err("%s %s: expected a decimal number", opt_names[k], v);
    if (k == OPT_THREADS) {
        if (x > 1024)
            return err("--threads %s: at most 1024", v);
        nd->threads = (unsigned)x;
    } else if (k == OPT_WARP) {
        if (x < 1 || x > 64)
            return err("--warp %s: must be 1 to 64", v);
        nd->warp = (unsigned)x;
    } else {
        if (x < 1)
            return err("--max-steps 0: must be at least 1");
        nd->max_steps = x;
    }
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *eq;
        int k, rc = 0;
        for (k = 0; k < OPT_COUNT; k++)
            if ((v = optarg_of(argc, argv, &i, opt_names[k])) != NULL)
                break;
        output *out = &o->outs[o->nouts];
        switch (k) {
        case OPT_KERNEL:
            o->kernel = v;
            break;
        case OPT_GLOBAL: case OPT_LOCAL: case OPT_OFFSET: {
            const char **slot = k == OPT_GLOBAL  ? &o->global
                                : k == OPT_LOCAL ? &o->local
                                                 : &o->offset;
            if (*slot)
                return err("%s given twice", opt_names[k]);
            *slot = v;
            break;
        }
        case OPT_ARG:
            o->args[o->nargs++] = v;
            break;
        case OPT_OUT:
            eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1])
                return err("--out %s: expected NAME=PATH", v);
            *out = (output){.name = v, .nlen = (size_t)(eq - v),
                            .path = eq + 1};
            o->nouts++;
            break;
        case OPT_PRINT:
            *out = (output){.name = v};
            rc = print_spec(v, out);
            o->nouts++;
            break;
        case OPT_THREADS: case OPT_WARP: case OPT_MAX_STEPS:
            rc = count_opt(k, v, &o->nd);
            break;
        default:
            if (!strcmp(a, "--time")) {
                o->time = true;
            } else if (a[0] == '-' && a[1]) {
                for (k = 0; k < OPT_COUNT; k++)
                    if (!strcmp(a, opt_names[k]))
                        return err("%s needs a value", a);
                return err("unknown option '%s' (see clvm run --help)", a);
            } else if (o->file) {
                return err("more than one input file ('%s', '%s')", o->file,
                           a);
            } else {
                o->file = a;
            }
        }
        if (rc)
            return rc;
    }
    if (!o->file)
        return err("no input file (see clvm run --help)");
    if (!o->global)
        return err("--global is missing: the NDRange's size, e.g. "
                   "--global 1024");
    static const char *const what[] = {"--global", "--local", "--offset"};
    const char *lists[] = {o->global, o->local, o->offset};
    uint64_t *dst[] = {o->nd.global, o->nd.local, o->nd.offset};
    for (unsigned d = 0; d < 3; d++) {
        if (!lists[d])
            continue;
        unsigned n = numlist(lists[d], dst[d]);
        if (!n)
            return err("%s %s: expected 1 to 3 decimal numbers separated by "
                       "commas", what[d], lists[d]);
        if (d == 0)
            o->nd.dims = n;
        else if (n != o->nd.dims)
            return err("%s %s has %u number%s, --global %s has %u", what[d],
                       lists[d], n, n == 1 ? "" : "s", o->global,
                       o->nd.dims);
    }
    for (unsigned d = 0; d < o->nd.dims; d++) {
        uint64_t g = o->nd.global[d], l = o->nd.local[d];
        if (g == 0)
            return err("--global %s: a size of 0 in dimension %u", o->global,
                       d);
        if (o->local && l == 0)
            return err("--local %s: a size of 0 in dimension %u", o->local,
                       d);
        if (o->local && g % l)
            return err("global size %llu is not a multiple of local size "
                       "%llu in dimension %u", (unsigned long long)g,
                       (unsigned long long)l, d);
    }
    return 0;
}

/* ---- the module and the kernel's parameters ---- */

static int load(const char *path, bc_module *m)
{
    size_t len = 0;
    uint8_t *buf = file_read(path, &len);
    if (!buf)
        return err("cannot read '%s': %s", path, strerror(errno));
    size_t pl = strlen(path);
    bool bc = (len >= 8 && !memcmp(buf, BC_MAGIC, 8)) ||
              (pl > 3 && !strcmp(path + pl - 3, ".bc"));
    int rc = 0;
    if (bc) {
        char why[512];
        if (bc_read(buf, len, m, why, sizeof why))
            rc = err("%s: %s", path, why);
    } else {
        int n = asm_assemble((const char *)buf, len, path, m, stderr);
        if (n)
            rc = err("%d error%s in %s", n, n == 1 ? "" : "s", path);
    }
    free(buf);
    return rc;
}

/* The parameter's declaration: "global const float *x", "uint n". */
static char *decl(const bc_reg *g, const char *name, char *buf, size_t len)
{
    char tn[TY_NAME_MAX];
    ty_name(g->type, tn);
    if (g->kind == BC_REG_VALUE)
        snprintf(buf, len, "%s %s", tn, name);
    else
        snprintf(buf, len, "%s %s%s *%s", bc_space_name(g->space),
                 g->flags & BC_REGF_CONSTPTR && g->space != BC_CONSTANT
                     ? "const " : "", tn, name);
    return buf;
}

/* What --arg takes for it. */
static const char *form_of(const bc_reg *g)
{
    return g->kind == BC_REG_VALUE ? "LITERAL"
           : g->space == BC_LOCAL  ? "local:BYTES"
                                   : "@FILE|zeros:BYTES";
}

static int find_kernel(const bc_module *m, const char *path, const char *name,
                       uint32_t *k)
{
    char list[512] = "";
    size_t at = 0;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const char *kn = bc_str(m, m->kernels[i].name);
        if (name && !strcmp(kn, name)) {
            *k = i;
            return 0;
        }
        at += (size_t)snprintf(list + at, at < sizeof list ? sizeof list - at
                                                           : 0,
                               "%s%s", i ? ", " : "", kn);
        if (at >= sizeof list)
            at = sizeof list;
    }
    if (!name && m->nkernels == 1) {
        *k = 0;
        return 0;
    }
    if (!m->nkernels)
        return err("%s has no kernel", path);
    if (!name)
        return err("%s has %u kernels (%s): choose one with --kernel", path,
                   m->nkernels, list);
    return err("%s has no kernel '%s' (kernels: %s)", path, name, list);
}

static int param_of(const bc_kernel *k, const bc_module *m, const char *name,
                    size_t len, uint32_t *p)
{
    for (uint32_t i = 0; i < k->nparams; i++) {
        const char *pn = bc_str(m, k->params[i].name);
        if (strlen(pn) == len && !memcmp(pn, name, len)) {
            *p = i;
            return 0;
        }
    }
    return -1;
}

/* "x, y, a" for messages. */
static void param_list(const bc_kernel *k, const bc_module *m, char *buf,
                       size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < k->nparams && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
                               bc_str(m, k->params[i].name));
    if (!k->nparams)
        snprintf(buf, len, "none");
}

/* Builds the argument of parameter g from its --arg text. */
static int make_arg(const bc_reg *g, const char *name, const char *v,
                    vm_arg *a)
{
    char pd[128];
    decl(g, name, pd, sizeof pd);
    uint64_t n;
    bool isfile = v[0] == '@', iszeros = !strncmp(v, "zeros:", 6),
         islocal = !strncmp(v, "local:", 6);
    if (g->kind == BC_REG_VALUE) {
        if (isfile || iszeros || islocal)
            return err("--arg %s=%s: '%s' is a value (%s): give a "
                       "literal, not a buffer", name, v, name, pd);
        uint64_t bits[TY_MAXLANES];
        char why[160];
        if (val_parse(g->type, v, strlen(v), bits, why, sizeof why))
            return err("--arg %s=%s: %s", name, v, why);
        a->size = ty_sizeof(g->type);
        a->data = calloc(1, a->size);
        if (!a->data)
            return err("out of memory");
        for (unsigned c = 0; c < g->type.n; c++)
            lit_host_put(a->data, g->type.s, c, bits[c]);
        return 0;
    }
    if (g->space == BC_LOCAL) {
        if (!islocal)
            return err("--arg %s=%s: '%s' is local memory (%s): give "
                       "local:BYTES", name, v, name, pd);
        if (!number(v + 6, strlen(v + 6), &n))
            return err("--arg %s=%s: BYTES must be a decimal number", name,
                       v);
        a->size = n;
        return 0;
    }
    if (iszeros) {
        if (!number(v + 6, strlen(v + 6), &n))
            return err("--arg %s=%s: BYTES must be a decimal number", name,
                       v);
        a->data = n && n <= SIZE_MAX ? malloc((size_t)n) : NULL;
        if (n && !a->data)
            return err("--arg %s=%s: cannot allocate %llu bytes", name, v,
                       (unsigned long long)n);
        /* Write the zeros now, so first-touch page faults are not counted
         * in the kernel's --time (PoCL and plain C pay them in warm-up). */
        if (n)
            memset(a->data, 0, (size_t)n);
        a->size = n;
        return 0;
    }
    if (isfile) {
        size_t len;
        uint8_t *d = file_read(v + 1, &len);
        if (!d)
            return err("--arg %s=%s: cannot read '%s': %s", name, v, v + 1,
                       strerror(errno));
        a->data = d, a->size = len;
        return 0;
    }
    return err("--arg %s=%s: '%s' is a buffer (%s): give @FILE or "
               "zeros:BYTES", name, v, name, pd);
}

/* Resolves --out/--print names to global or constant buffers with a
 * printing type that divides their size. */
static int check_outputs(options *o, const bc_module *m, const bc_kernel *k,
                         const vm_arg *args)
{
    for (int i = 0; i < o->nouts; i++) {
        output *out = &o->outs[i];
        const char *opt = out->path ? "--out" : "--print";
        char pl[256], pd[128], tn[TY_NAME_MAX];
        if (param_of(k, m, out->name, out->nlen, &out->param)) {
            param_list(k, m, pl, sizeof pl);
            return err("%s %s: kernel '%s' has no parameter '%.*s' "
                       "(parameters: %s)", opt, out->name,
                       bc_str(m, k->name), (int)out->nlen, out->name, pl);
        }
        const bc_reg *g = &k->regs[k->params[out->param].reg];
        if (g->kind != BC_REG_PTR || g->space == BC_LOCAL)
            return err("%s %s: '%.*s' is not a global or constant buffer "
                       "(%s)", opt, out->name, (int)out->nlen, out->name,
                       decl(g, bc_str(m, k->params[out->param].name), pd,
                            sizeof pd));
        if (!out->typed)
            out->type = g->type;
        uint64_t size = args[out->param].size, es = ty_sizeof(out->type);
        if (!out->path && size % es)
            return err("--print %s: the buffer's %llu bytes are not a whole "
                       "number of %s (%llu bytes)", out->name,
                       (unsigned long long)size, ty_name(out->type, tn),
                       (unsigned long long)es);
    }
    return 0;
}

/* ---- after the run ---- */

static int write_out(const output *out, const vm_arg *a)
{
    FILE *f = fopen(out->path, "wb");
    if (!f)
        return err("--out %s: cannot open '%s': %s", out->name, out->path,
                   strerror(errno));
    errno = 0;
    size_t n = a->size ? fwrite(a->data, 1, (size_t)a->size, f) : 0;
    int e = n != a->size || ferror(f) ? errno ? errno : EIO : 0;
    if (fclose(f) && !e)
        e = errno ? errno : EIO;
    if (e)
        return err("--out %s: writing '%s': %s", out->name, out->path,
                   strerror(e));
    return 0;
}

static void print_out(const output *out, const vm_arg *a)
{
    size_t es = ty_sizeof(out->type);
    uint64_t bits[TY_MAXLANES];
    char text[VAL_TEXT_MAX];
    for (uint64_t i = 0; es && i < a->size / es; i++) {
        val_load(out->type, a->data + i * es, bits);
        val_format(out->type, bits, out->hex ? VAL_HEX : 0, text);
        printf("%.*s[%llu] = %s\n", (int)out->nlen, out->name,
               (unsigned long long)i, text);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Everything that needs freeing. */
typedef struct {
    options o;
    bc_module m;
    bool loaded;
    vm_arg *args;
    uint32_t nargs;
} run_state;

static int run(int argc, char **argv, run_state *s)
{
    options *o = &s->o;
    int rc = parse_options(argc, argv, o);
    if (rc)
        return rc;
    if ((rc = load(o->file, &s->m)) != 0)
        return rc;
    s->loaded = true;
    uint32_t ki = 0;
    if ((rc = find_kernel(&s->m, o->file, o->kernel, &ki)) != 0)
        return rc;
    const bc_module *m = &s->m;
    const bc_kernel *k = &m->kernels[ki];
    const char *kn = bc_str(m, k->name);
    char pl[256], pd[128];

    /* --arg: every parameter exactly once */
    const char **given = calloc(k->nparams + 1, sizeof *given);
    s->args = calloc(k->nparams + 1, sizeof *s->args);
    s->nargs = k->nparams;
    if (!given || !s->args) {
        free(given);
        return err("out of memory");
    }
    for (int i = 0; i < o->nargs && !rc; i++) {
        const char *a = o->args[i], *eq = strchr(a, '=');
        uint32_t p;
        if (!eq || eq == a)
            rc = err("--arg %s: expected NAME=VALUE", a);
        else if (param_of(k, m, a, (size_t)(eq - a), &p)) {
            param_list(k, m, pl, sizeof pl);
            rc = err("--arg %s: kernel '%s' has no parameter '%.*s' "
                     "(parameters: %s)", a, kn, (int)(eq - a), a, pl);
        } else if (given[p])
            rc = err("--arg %s: '%.*s' was already given (--arg %s)", a,
                     (int)(eq - a), a, given[p]);
        else
            given[p] = a;
    }
    int missing = 0;
    for (uint32_t p = 0; p < k->nparams && !rc; p++)
        if (!given[p]) {
            const bc_reg *g = &k->regs[k->params[p].reg];
            const char *pn = bc_str(m, k->params[p].name);
            char form[160];
            if (!missing++)
                err("kernel '%s' needs these arguments:", kn);
            snprintf(form, sizeof form, "%s=%s", pn, form_of(g));
            fprintf(stderr, "  --arg %-24s (%s)\n", form,
                    decl(g, pn, pd, sizeof pd));
        }
    if (missing)
        rc = 2;
    for (uint32_t p = 0; p < k->nparams && !rc; p++) {
        const char *name = bc_str(m, k->params[p].name);
        rc = make_arg(&k->regs[k->params[p].reg], name,
                      given[p] + strlen(name) + 1, &s->args[p]);
    }
    free(given);
    if (rc || (rc = check_outputs(o, m, k, s->args)) != 0)
        return rc;

    vm_trap trap;
    double t0 = now();
    int kind = vm_run(m, ki, s->args, &o->nd, &trap);
    double t1 = now();
    switch (kind) {
    case VM_OK: case VM_TRAP_BOUNDS: case VM_TRAP_ALIGN:
    case VM_TRAP_BARRIER: case VM_TRAP_STEPS:
        break;
    default:    /* the run never started: an input error */
        return err("%s", trap.msg + (strncmp(trap.msg, "trap: ", 6) ? 0 : 6));
    }
    if (o->time)
        fprintf(stderr, "time: kernel=%.6f\n", t1 - t0);
    for (int i = 0; i < o->nouts; i++) {
        const output *out = &o->outs[i];
        if (out->path)
            rc |= write_out(out, &s->args[out->param]);
        else
            print_out(out, &s->args[out->param]);
    }
    if (fflush(stdout) || ferror(stdout))
        rc = err("writing standard output: %s", strerror(errno));
    if (kind) {
        fprintf(stderr, "%s\n", trap.msg);
        return rc ? rc : 1;
    }
    return rc;
}

int cmd_run(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    run_state s = {0};
    s.o.args = calloc((size_t)argc, sizeof *s.o.args);
    s.o.outs = calloc((size_t)argc, sizeof *s.o.outs);
    int rc = s.o.args && s.o.outs ? run(argc, argv, &s) : err("out of memory");
    for (uint32_t i = 0; s.args && i < s.nargs; i++)
        free(s.args[i].data);
    free(s.args);
    free(s.o.args);
    free(s.o.outs);
    if (s.loaded)
        bc_free(&s.m);
    return rc;
}
