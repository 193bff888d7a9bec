/* clvm run: one kernel over an NDRange, on buffers from files, with the
 * results printed as OpenCL C literals (tools/value.h) or written back. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cc.h"
#include "tools/cmds.h"
#include "tools/npy.h"
#include "tools/run_json.h"
#include "vm/native.h"
#include "stdlib/profile.h"
#include "tools/runargs.h"
#include "tools/structarg.h"
#include "tools/value.h"
#include "vm/vm.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: clvm run FILE.cl|FILE.spv|FILE.clasm|FILE.bc --global G[,G[,G]]\n"
"                [options] [clang options]\n"
"\n"
"Runs one kernel over an NDRange. FILE is a bytecode module if it starts\n"
"with the bytecode magic, whatever its name; SPIR-V by its magic; OpenCL\n"
"C (a .cl name, or braces), compiled with clang-14 and llvm-spirv-14\n"
"through the compile cache (CLVM_NO_CACHE=1 bypasses it); else IR text,\n"
"which is assembled first (diagnostics go to stderr). Options with one\n"
"dash go to clang for a .cl file: -DN=4, -I DIR, -cl-std=CL1.1, -Werror,\n"
"-cl-mad-enable ... (docs/opencl-c.md says which change clvm's results).\n"
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
"                         its size, or, for a NumPy .npy file (known by\n"
"                         its content), its array, whose dtype must be\n"
"                         the pointee's element type; zeros:BYTES: a\n"
"                         zero-filled buffer\n"
"      local *            local:BYTES: that much local memory per group\n"
"  --out NAME=PATH        write buffer NAME to PATH after the run: raw\n"
"                         bytes, or a NumPy array of the pointee type\n"
"                         when PATH ends in .npy\n"
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
"  --json                 print the outcome as one JSON object on stdout\n"
"                         instead of --print's text: the --print buffers\n"
"                         (else every global and constant one) as values\n"
"                         and hex, printf output, the trap, the\n"
"                         implementation-defined events (notes), --time's\n"
"                         timing; an error gives {\"status\": \"error\"}\n"
"                         (docs/json.md)\n"
"  --time                 print 'time: kernel=SECONDS' (the run alone) to\n"
"                         stderr; for OpenCL C first 'time: load=SECONDS\n"
"                         cached|compiled tools=SECONDS' (clang and\n"
"                         llvm-spirv's part)\n"
"  --profile NAME         clvm (default), strict, nvidia or pocl: give the\n"
"                         implementation-defined results that device gives\n"
"                         (strict: trap on them; docs/semantics.md)\n"
"  --check races          trap on a data race: two accesses to one byte\n"
"                         of global or local memory by work-items of one\n"
"                         barrier interval or of different groups, one a\n"
"                         write, not both atomic (also under --profile\n"
"                         strict; on several threads, which race of\n"
"                         several is found first may vary: --threads 1\n"
"                         reports the first in work-group order)\n"
"  --warn-impl            after the run, one warning per instruction and\n"
"                         implementation-defined case it hit, with counts\n"
"  --native LIB.so        the kernels may call the functions LIB.so defines\n"
"                         (repeatable); a module naming any other extern\n"
"                         is refused (docs/security.md)\n"
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

/* The last error, for --json's report of a run that never started. */
static char last_err[1024];

static int err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_err, sizeof last_err, fmt, ap);
    va_end(ap);
    fflush(stdout);   /* keep the order of what was printed */
    fprintf(stderr, "clvm run: %s\n", last_err);
    return 2;
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
    const char **natives;      /* --native LIB.so */
    char **ccopts;             /* clang's options (one dash), for a .cl */
    int nccopts;
    output *outs;
    int nargs, nouts, nnatives;
    bool time, json;
    bool warn_text;            /* --warn-impl: the warnings as text */
    vm_ndrange nd;
} options;

/* The options that take a value. */
#define RUN_OPTIONS(X)                                                   \
    X(KERNEL, "--kernel") X(GLOBAL, "--global") X(LOCAL, "--local")     \
    X(OFFSET, "--offset") X(ARG, "--arg") X(OUT, "--out")               \
    X(PRINT, "--print") X(THREADS, "--threads") X(WARP, "--warp")       \
    X(MAX_STEPS, "--max-steps") X(NATIVE, "--native")                   \
    X(PROFILE, "--profile") X(CHECK, "--check")
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


/* --print NAME[:TYPE][:hex] */
static int print_spec(const char *v, output *out)
{
    ra_view view = {0};
    char why[RA_WHY];
    if (ra_print_spec(v, &view, why, sizeof why))
        return err("%s", why);
    out->nlen = view.nlen, out->type = view.type;
    out->typed = view.typed, out->hex = view.hex;
    return 0;
}

/* --threads, --warp, --max-steps */
static int count_opt(int k, const char *v, vm_ndrange *nd)
{
    char why[RA_WHY];
    return ra_count(opt_names[k], v, nd, why, sizeof why) ? err("%s", why)
                                                           : 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *eq;
        int k, rc = 0;
        for (k = 0; k < OPT_COUNT; k++)
            if ((v = ra_optval(argc, argv, &i, opt_names[k])) != NULL)
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
        case OPT_NATIVE:
            o->natives[o->nnatives++] = v;
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
        case OPT_CHECK:
            if (strcmp(v, "races"))
                return err("--check %s: no such check (races)", v);
            o->nd.races = true;
            break;
        case OPT_PROFILE: {
            int p = prof_parse(v);
            if (p < 0)
                return err("--profile %s: no such profile (clvm, strict, "
                           "nvidia, pocl)", v);
            o->nd.profile = (uint8_t)p;
            break;
        }
        default:
            if (!strcmp(a, "--time")) {
                o->time = true;
            } else if (!strcmp(a, "--warn-impl")) {
                o->nd.warn_impl = o->warn_text = true;
            } else if (!strcmp(a, "--json")) {
                o->json = o->nd.warn_impl = true;
            } else if (cc_take_opt(argc, argv, &i, o->ccopts,
                                   &o->nccopts)) {
                continue;
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
    char why[RA_WHY];
    if (ra_ndrange(o->global, o->local, o->offset, &o->nd, why, sizeof why))
        return err("%s", why);
    return 0;
}

/* --warn-impl: each contraction site of kernel k (CMAD, XMAD: whether or
 * not the run reached it), with the profiles that fuse it. */
static void contract_sites(const bc_module *m, const bc_kernel *k)
{
    const char *src = bc_str(m, m->source);
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc])) {
        unsigned base = bc_ops[BC_OPCODE(k->code[pc])].base;
        if (base != BCB_CMAD && base != BCB_XMAD)
            continue;
        enum prof_fuse f = base == BCB_CMAD ? PF_EXPR : PF_STMT;
        char ins[128], who[64] = "";
        for (int p = 0; p < PROF_COUNT; p++)
            if (prof_fuses((enum prof_id)p, f))
                snprintf(who + strlen(who), sizeof who - strlen(who), "%s%s",
                         *who ? ", " : "", prof_name((enum prof_id)p));
        vm_ins_text(m, k, pc, ins, sizeof ins);
        fprintf(stderr, "%s:%u: note: %s: contraction site (%s): fused "
                "by profile %s, rounded twice by the others\n",
                *src ? src : "?", bc_line_of(k, pc), ins,
                f == PF_EXPR ? "a * b + c" : "a product a later statement "
                "adds", who);
    }
}

/* --warn-impl: one line per instruction and case, then the total. */
static void warn_impl(const bc_module *m, enum prof_id p,
                      const vm_warnings *ws)
{
    uint64_t total = 0;
    const char *src = bc_str(m, m->source);
    for (size_t i = 0; i < ws->n; i++) {
        const vm_warning *v = &ws->v[i];
        const bc_kernel *k = &m->kernels[v->kernel];
        char ins[128];
        vm_ins_text(m, k, v->pc, ins, sizeof ins);
        fprintf(stderr, "%s:%u: warning: %s: %s (%s): %s gives %s; %llu "
                "work-item%s, first (%llu,%llu,%llu)\n", *src ? src : "?",
                v->line, ins, note_name((enum note_id)v->note),
                note_kind((enum note_id)v->note), prof_name(p),
                prof_what(p, (enum note_id)v->note),
                (unsigned long long)v->count, v->count == 1 ? "" : "s",
                (unsigned long long)v->gid[0], (unsigned long long)v->gid[1],
                (unsigned long long)v->gid[2]);
        total += v->count;
    }
    if (ws->v)
        fprintf(stderr, "warn-impl: %llu implementation-defined result%s at "
                "%zu instruction%s\n", (unsigned long long)total,
                total == 1 ? "" : "s", ws->n, ws->n == 1 ? "" : "s");
}

/* ---- the module and the kernel's parameters ---- */

static int load(const options *o, bc_module *m)
{
    char why[RA_WHY];
    return ra_load_cc(o->file, o->ccopts, o->nccopts, m, stderr, why,
                      sizeof why) ? err("%s", why) : 0;
}

/* --out writes a NumPy array to a path ending in .npy, raw bytes else. */
static bool is_npy(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && !strcmp(path + n - 4, ".npy");
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
        if (ra_param_of(k, m, out->name, out->nlen, &out->param)) {
            ra_param_list(k, m, pl, sizeof pl);
            return err("%s %s: kernel '%s' has no parameter '%.*s' "
                       "(parameters: %s)", opt, out->name,
                       bc_str(m, k->name), (int)out->nlen, out->name, pl);
        }
        const bc_reg *g = &k->regs[k->params[out->param].reg];
        if (g->kind != BC_REG_PTR || g->space == BC_LOCAL)
            return err("%s %s: '%.*s' is not a global or constant buffer "
                       "(%s)", opt, out->name, (int)out->nlen, out->name,
                       ra_decl(m, k, out->param, pd, sizeof pd));
        if (!out->typed)
            out->type = g->type;
        uint64_t size = args[out->param].size, es = ty_sizeof(out->type);
        if ((!out->path || is_npy(out->path)) && size % es)
            return err("%s %s: the buffer's %llu bytes are not a whole "
                       "number of %s (%llu bytes)", opt, out->name,
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
    uint8_t hdr[NPY_HDR_MAX];
    size_t hl = is_npy(out->path)
        ? npy_header(out->type, a->size / ty_sizeof(out->type), hdr) : 0;
    size_t n = hl ? fwrite(hdr, 1, hl, f) : 0;
    n += a->size ? fwrite(a->data, 1, (size_t)a->size, f) : 0;
    int e = n != hl + a->size || ferror(f) ? errno ? errno : EIO : 0;
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
    ra_print_elems(stdout, out->name, out->nlen, out->type,
                   out->hex ? VAL_HEX : 0, a->data, 0, es ? a->size / es : 0);
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
    bool loaded, reported;     /* reported: --json's object is written */
    vm_natives *nat;
    vm_arg *args;
    uint32_t nargs;
    char *out;                 /* --json: the kernel's printf output */
    size_t outlen;
} run_state;

/* --json: the report of a run that happened (ok or trapped). */
static void report(run_state *s, uint32_t ki, int kind, const vm_trap *trap,
                   const vm_warnings *warns, double seconds, int rc)
{
    const options *o = &s->o;
    const bc_kernel *k = &s->m.kernels[ki];
    rj_buf *bufs = calloc(k->nparams + (size_t)o->nouts + 1, sizeof *bufs);
    size_t nb = 0;
    for (int i = 0; bufs && i < o->nouts; i++)
        if (!o->outs[i].path)
            bufs[nb++] = (rj_buf){o->outs[i].param, o->outs[i].type};
    bool printed = nb > 0;
    for (uint32_t p = 0; bufs && !printed && p < k->nparams; p++) {
        const bc_reg *g = &k->regs[k->params[p].reg];
        if (g->kind == BC_REG_PTR && g->space != BC_LOCAL &&
            s->args[p].size % ty_sizeof(g->type) == 0)
            bufs[nb++] = (rj_buf){p, g->type};
    }
    if (s->o.nd.out)
        fclose(s->o.nd.out);
    s->o.nd.out = NULL;
    rj_run r = {o->file, &s->m, ki, o->nd.profile, s->args, bufs, nb,
                s->out, s->outlen, kind, trap, warns, o->time, seconds,
                rc ? rc : kind ? 1 : 0};
    rj_write(stdout, &r);
    s->reported = true;
    free(bufs);
}

static int run(int argc, char **argv, run_state *s)
{
    options *o = &s->o;
    int rc = parse_options(argc, argv, o);
    if (rc)
        return rc;
    double l0 = now(), tools;
    if ((rc = load(o, &s->m)) != 0)
        return rc;
    int how = cc_last(&tools);
    if (o->time && how)
        fprintf(stderr, "time: load=%.6f %s tools=%.6f\n", now() - l0,
                how == 1 ? "cached" : "compiled", tools);
    s->loaded = true;
    uint32_t ki = 0;
    char why[RA_WHY];
    /* host functions: only those of the libraries named here */
    if (!(s->nat = vm_natives_new()))
        return err("out of memory");
    for (int i = 0; i < o->nnatives; i++)
        if (vm_natives_open(s->nat, o->natives[i], why, sizeof why))
            return err("%s", why);
    if (vm_natives_bind(s->nat, &s->m, why, sizeof why))
        return err("%s: %s", o->file, why);
    o->nd.natives = s->nat;
    if (ra_find_kernel(&s->m, o->file, o->kernel, &ki, why, sizeof why))
        return err("%s", why);
    const bc_module *m = &s->m;
    const bc_kernel *k = &m->kernels[ki];
    const char *kn = bc_str(m, k->name);
    char pd[128];

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
        if (ra_arg_param(m, k, a, &p, why, sizeof why))
            rc = err("%s", why);
        else if (given[p])
            rc = err("--arg %s: '%.*s' was already given (--arg %s)", a,
                     (int)(eq - a), a, given[p]);
        else
            given[p] = a;
    }
    int missing = 0;
    for (uint32_t p = 0; p < k->nparams && !rc; p++)
        if (!given[p]) {
            const char *pn = bc_str(m, k->params[p].name);
            char form[160];
            if (!missing++)
                err("kernel '%s' needs these arguments:", kn);
            snprintf(form, sizeof form, "%s=%s", pn, ra_form_of(k, p));
            fprintf(stderr, "  --arg %-24s (%s)\n", form,
                    ra_decl(m, k, p, pd, sizeof pd));
            size_t at = strlen(last_err);   /* --json's message: all */
            snprintf(last_err + at, sizeof last_err - at, " --arg %s (%s)",
                     form, pd);
        }
    if (missing)
        rc = 2;
    for (uint32_t p = 0; p < k->nparams && !rc; p++) {
        const char *name = bc_str(m, k->params[p].name);
        if (ra_make_arg(m, k, p, given[p] + strlen(name) + 1, &s->args[p],
                        why, sizeof why))
            rc = err("%s", why);
    }
    free(given);
    if (rc || (rc = check_outputs(o, m, k, s->args)) != 0)
        return rc;

    vm_trap trap;
    vm_warnings warns = {0};
    o->nd.warnings = &warns;
    if (o->json && !(o->nd.out = open_memstream(&s->out, &s->outlen)))
        return err("out of memory");
    /* The worker threads start ahead of the timed run, as a host program's
     * are there from its first launch on; not for a small NDRange, which
     * may need none. */
    uint64_t items = 1;
    for (unsigned d = 0; d < o->nd.dims && d < 3 && items < 4096; d++)
        items *= o->nd.global[d] && o->nd.global[d] < 4096 ? o->nd.global[d]
                                                          : 4096;
    if (items >= 4096 && o->nd.threads != 1)
        vm_threads_start(o->nd.threads);
    double t0 = now();
    int kind = vm_run(m, ki, s->args, &o->nd, &trap);
    double t1 = now();
    switch (kind) {
    case VM_OK: case VM_TRAP_BOUNDS: case VM_TRAP_ALIGN:
    case VM_TRAP_BARRIER: case VM_TRAP_STEPS: case VM_TRAP_IMPL:
    case VM_TRAP_ASYNC: case VM_TRAP_RACE:
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
        else if (!o->json && k->params[out->param].byval.size && !out->typed)
            printf("%.*s = ", (int)out->nlen, out->name),
            sa_print(stdout, m, &k->params[out->param],
                     s->args[out->param].data, out->hex ? VAL_HEX : 0);
        else if (!o->json)
            print_out(out, &s->args[out->param]);
    }
    if (o->json)
        report(s, ki, kind, &trap, &warns, t1 - t0, rc);
    if (fflush(stdout) || ferror(stdout))
        rc = err("writing standard output: %s", strerror(errno));
    if (o->warn_text) {
        contract_sites(m, k);
        warn_impl(m, (enum prof_id)o->nd.profile, &warns);
    }
    free(warns.v);
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
    s.o.natives = calloc((size_t)argc, sizeof *s.o.natives);
    s.o.ccopts = calloc((size_t)argc, sizeof *s.o.ccopts);
    int rc = s.o.args && s.o.outs && s.o.natives && s.o.ccopts
             ? run(argc, argv, &s) : err("out of memory");
    if (s.o.nd.out)
        fclose(s.o.nd.out);
    if (s.o.json && !s.reported && rc)
        rj_error(stdout, s.o.file, last_err, rc);
    free(s.out);
    for (uint32_t i = 0; s.args && i < s.nargs; i++)
        free(s.args[i].data);
    free(s.args);
    free(s.o.args);
    free(s.o.outs);
    free(s.o.natives);
    free(s.o.ccopts);
    if (s.loaded)
        bc_free(&s.m);
    vm_natives_free(s.nat);
    return rc;
}
