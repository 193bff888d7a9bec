/* The REPL's kernel: loading it, its NDRange and arguments, breakpoints
 * and watches, and stepping it.
 *
 * It steps through the VM's debugger (vm/debug.h), one instruction at a
 * time when a watch or `next` needs looking at. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm/bcfile.h"
#include "tools/file.h"
#include "stdlib/profile.h"
#include "tools/repl.h"
#include "tools/value.h"
#include "tools/runargs.h"

/* ---- the module ---- */

static void args_clear(repl *r)
{
    const bc_kernel *k = r->loaded ? &r->m.kernels[r->ki] : NULL;
    for (uint32_t i = 0; r->argtext && k && i < k->nparams; i++)
        free(r->argtext[i]);
    free(r->argtext);
    r->argtext = NULL;
}

static void watch_clear(repl *r)
{
    free(r->watched);
    r->watched = NULL;
    r->watch = -1;
}

void repl_unload(repl *r)
{
    repl_sess_end(r);
    args_clear(r);
    watch_clear(r);
    for (size_t i = 0; i < r->nsrc; i++)
        free(r->src[i]);
    free(r->src);
    r->src = NULL, r->nsrc = 0;
    free(r->breaks);
    r->breaks = NULL, r->nbreaks = 0, r->break_kernel = false;
    if (r->loaded)
        bc_free(&r->m);
    r->loaded = false;
    free(r->file);
    r->file = NULL;
    free(r->global), free(r->local), free(r->offset);
    r->global = r->local = r->offset = NULL;
}

static void show_kernel(repl *r)
{
    const bc_kernel *k = &r->m.kernels[r->ki];
    char pd[128];
    printf("kernel %s(", bc_str(&r->m, k->name));
    for (uint32_t i = 0; i < k->nparams; i++)
        printf("%s%s", i ? ", " : "",
               ra_decl(&r->m, k, i, pd, sizeof pd));
    if (k->reqd[0])
        printf(") reqd_work_group_size(%u, %u, %u)\n", k->reqd[0],
               k->reqd[1], k->reqd[2]);
    else
        printf(")\n");
}

static int choose(repl *r, uint32_t ki)
{
    repl_sess_end(r);
    args_clear(r);
    watch_clear(r);
    r->ki = ki;
    r->argtext = calloc(r->m.kernels[ki].nparams + 1, sizeof *r->argtext);
    if (!r->argtext)
        return repl_err(r, "out of memory");
    show_kernel(r);
    return 0;
}

/* The source lines of text t, for list. */
static void source_lines(repl *r, const char *t, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    r->src = calloc(n, sizeof *r->src);
    for (size_t i = 0, at = 0; r->src && at < len; i++) {
        const char *nl = memchr(t + at, '\n', len - at);
        size_t e = nl ? (size_t)(nl - t) : len;
        r->src[r->nsrc++] = strndup(t + at, e - at);
        at = e + 1;
    }
}

/* The source lines of the file at path (a .bc file has none). */
static void read_source(repl *r, const char *path)
{
    size_t len;
    char *t = file_read(path, &len);
    if (t && !(len >= 8 && !memcmp(t, BC_MAGIC, 8)))
        source_lines(r, t, len);
    free(t);
}

int repl_adopt(repl *r, const bc_module *m, const char *file,
               const char *src, uint32_t ki)
{
    uint8_t *buf;
    size_t len;
    char why[RA_WHY];
    repl_unload(r);
    if (bc_write(m, &buf, &len))
        return repl_err(r, "out of memory");
    int rc = bc_read(buf, len, &r->m, why, sizeof why);
    free(buf);
    if (rc)
        return repl_err(r, "%s", why);
    r->loaded = true;
    if (!(r->file = strdup(file)))
        return repl_err(r, "out of memory");
    if (vm_natives_bind(r->natives, &r->m, why, sizeof why))
        return repl_err(r, "%s: %s", file, why);
    if (src)
        source_lines(r, src, strlen(src));
    return choose(r, ki);
}

/* Loads path, an OpenCL C file compiled with clang options opts. */
static int load_cc(repl *r, const char *path, char **opts, int nopts)
{
    char why[RA_WHY];
    repl_unload(r);
    if (ra_load_cc(path, opts, nopts, &r->m, stdout, why, sizeof why))
        return repl_err(r, "%s", why);
    r->loaded = true;
    if (!(r->file = strdup(path)))
        return repl_err(r, "out of memory");
    if (vm_natives_bind(r->natives, &r->m, why, sizeof why)) {
        repl_err(r, "%s: %s", path, why);
        repl_unload(r);
        return -1;
    }
    read_source(r, path);
    printf("loaded %s: %u kernel%s\n", path, r->m.nkernels,
           r->m.nkernels == 1 ? "" : "s");
    if (!r->m.nkernels) {
        repl_unload(r);
        return repl_err(r, "%s has no kernel", path);
    }
    return choose(r, 0);
}

int repl_load(repl *r, const char *path)
{
    return load_cc(r, path, NULL, 0);
}

int rc_load(repl *r, char *args)
{
    char *words[64], *save = NULL;
    int n = 0;
    if (*args && !access(args, F_OK))   /* a name with blanks */
        return load_cc(r, args, NULL, 0);
    for (char *w = strtok_r(args, " \t", &save); w && n < 64;
         w = strtok_r(NULL, " \t", &save))
        words[n++] = w;
    if (!n)
        return repl_err(r, "load needs a file name");
    for (int i = 1; i < n; i++)
        if (words[i][0] != '-')
            return repl_err(r, "load %s: '%s' is not a clang option (load "
                            "FILE [-DNAME=VALUE ...])", words[0], words[i]);
    return load_cc(r, words[0], words + 1, n - 1);
}

static bool need_module(repl *r)
{
    if (!r->loaded)
        repl_err(r, "no kernel loaded (load FILE)");
    return r->loaded;
}

int rc_kernel(repl *r, char *args)
{
    char why[RA_WHY];
    uint32_t ki;
    if (!need_module(r))
        return -1;
    if (!*args) {
        show_kernel(r);
        return 0;
    }
    if (ra_find_kernel(&r->m, r->file, args, &ki, why, sizeof why))
        return repl_err(r, "%s", why);
    return choose(r, ki);
}

/* global, local, offset: checked against each other at run */
static int range_list(repl *r, char **slot, const char *opt, char *args)
{
    uint64_t v[3];
    if (!ra_numlist(args, v))
        return repl_err(r, "%s %s: expected 1 to 3 decimal numbers "
                        "separated by commas", opt, args);
    free(*slot);
    *slot = strdup(args);
    repl_sess_end(r);
    return *slot ? 0 : repl_err(r, "out of memory");
}

int rc_global(repl *r, char *args)
{
    return range_list(r, &r->global, "global", args);
}

int rc_local(repl *r, char *args)
{
    return range_list(r, &r->local, "local", args);
}

int rc_offset(repl *r, char *args)
{
    return range_list(r, &r->offset, "offset", args);
}

int rc_warp(repl *r, char *args)
{
    char why[RA_WHY];
    if (ra_count("--warp", args, &r->nd, why, sizeof why))
        return repl_err(r, "%s", why);
    repl_sess_end(r);
    return 0;
}

int rc_arg(repl *r, char *args)
{
    char why[RA_WHY];
    uint32_t p;
    if (!need_module(r))
        return -1;
    const bc_kernel *k = &r->m.kernels[r->ki];
    if (ra_arg_param(&r->m, k, args, &p, why, sizeof why))
        return repl_err(r, "%s", why);
    /* build it once now, so a bad value is reported here */
    const char *name = bc_str(&r->m, k->params[p].name);
    vm_arg a = {0};
    int rc = ra_make_arg(&r->m, k, p, args + strlen(name) + 1, &a, why,
                         sizeof why);
    free(a.data);
    if (rc)
        return repl_err(r, "%s", why);
    free(r->argtext[p]);
    if (!(r->argtext[p] = strdup(args)))
        return repl_err(r, "out of memory");
    repl_sess_end(r);
    return 0;
}

/* ---- breakpoints and watches ---- */

int rc_break(repl *r, char *args)
{
    uint64_t line;
    if (!need_module(r))
        return -1;
    if (!*args)
        return repl_err(r, "break needs a LINE or a KERNEL name");
    char *colon = strrchr(args, ':');
    if (colon && colon[1] && ra_number(colon + 1, strlen(colon + 1), &line)) {
        /* FILE:LINE: FILE must be the loaded file, by path or name */
        const char *base = strrchr(r->file, '/');
        size_t fl = (size_t)(colon - args);
        base = base ? base + 1 : r->file;
        if ((strlen(r->file) != fl || strncmp(args, r->file, fl)) &&
            (strlen(base) != fl || strncmp(args, base, fl)))
            return repl_err(r, "break %s: '%.*s' is not the loaded file "
                            "(%s)", args, (int)fl, args, r->file);
        args = colon + 1;
    }
    if (ra_number(args, strlen(args), &line)) {
        const bc_kernel *k = &r->m.kernels[r->ki];
        uint32_t i;
        for (i = 0; i < k->nlines && k->lines[i].line != line; i++)
            ;
        if (i == k->nlines)
            return repl_err(r, "no code of kernel '%s' at line %s",
                            bc_str(&r->m, k->name), args);
        uint32_t *b = realloc(r->breaks, (r->nbreaks + 1) * sizeof *b);
        if (!b)
            return repl_err(r, "out of memory");
        r->breaks = b;
        r->breaks[r->nbreaks++] = (uint32_t)line;
        if (r->s.d)
            vm_debug_break(r->s.d, (uint32_t)line);
        printf("breakpoint %zu at line %s\n", r->nbreaks, args);
        return 0;
    }
    char why[RA_WHY];
    uint32_t ki;
    if (ra_find_kernel(&r->m, r->file, args, &ki, why, sizeof why))
        return repl_err(r, "break %s: neither a line number nor a kernel "
                        "(%s)", args, why);
    if (ki != r->ki && choose(r, ki))
        return -1;
    r->break_kernel = true;
    printf("breakpoint at kernel '%s': the start of each warp\n", args);
    return 0;
}

int rc_delete(repl *r, char *args)
{
    if (*args)
        return repl_err(r, "delete takes no argument: it removes every "
                        "breakpoint and watch");
    free(r->breaks);
    r->breaks = NULL, r->nbreaks = 0, r->break_kernel = false;
    if (r->s.d)
        vm_debug_break_clear(r->s.d);
    watch_clear(r);
    printf("no breakpoints, no watch\n");
    return 0;
}

/* Keeps the watched register's bytes of the current warp. */
static void watch_snap(repl *r)
{
    vm_debug *d = repl_dbg(r, true);
    if (r->watch < 0 || !d || !r->watched)
        return;
    size_t n;
    const void *now = vm_debug_reg(d, (uint32_t)r->watch, &n);
    memcpy(r->watched, now, n);
}

int rc_watch(repl *r, char *args)
{
    if (!need_module(r))
        return -1;
    int64_t x = repl_reg(r, args, strlen(args));
    if (!*args || x < 0)
        return repl_err(r, "watch: kernel '%s' has no register '%s'",
                        bc_str(&r->m, r->m.kernels[r->ki].name), args);
    watch_clear(r);
    r->watch = x;
    /* the largest a register can take: 16 components of 8 bytes, in a
     * warp of 64 lanes (vm.h: at most 64) */
    if (!(r->watched = calloc(16 * 8, 64)))
        return repl_err(r, "out of memory");
    watch_snap(r);
    printf("watching %s\n", args);
    return 0;
}

/* ---- the session ---- */

static int start(repl *r)
{
    char why[RA_WHY], pd[128];
    if (!need_module(r))
        return -1;
    repl_sess_end(r);
    repl_sess *s = &r->s;
    const bc_module *m = &r->m;
    const bc_kernel *k = &m->kernels[r->ki];
    if (!r->global)
        return repl_err(r, "no global size (global G[,G[,G]])");
    if (ra_ndrange(r->global, r->local, r->offset, &r->nd, why, sizeof why))
        return repl_err(r, "%s", why);
    int missing = 0;
    for (uint32_t p = 0; p < k->nparams && !r->host; p++)
        if (!r->argtext[p]) {
            const char *pn = bc_str(m, k->params[p].name);
            if (!missing++)
                repl_err(r, "kernel '%s' needs these arguments:",
                         bc_str(m, k->name));
            printf("  arg %s=%s  (%s)\n", pn, ra_form_of(k, p),
                   ra_decl(m, k, p, pd, sizeof pd));
        }
    if (missing)
        return -1;
    if (!(s->args = calloc(k->nparams + 1, sizeof *s->args)))
        return repl_err(r, "out of memory");
    for (uint32_t p = 0; p < k->nparams; p++) {
        const char *pn = bc_str(m, k->params[p].name);
        if (r->host) {   /* a copy: the host's launch runs after the REPL */
            s->args[p].size = r->host[p].size;
            if (r->host[p].data &&
                !(s->args[p].data = malloc(r->host[p].size + 1)))
                return repl_err(r, "out of memory");
            if (r->host[p].data)
                memcpy(s->args[p].data, r->host[p].data, r->host[p].size);
            continue;
        }
        if (ra_make_arg(m, k, p, r->argtext[p] + strlen(pn) + 1,
                        &s->args[p], why, sizeof why))
            return repl_err(r, "%s", why);
    }
    r->nd.threads = 1;
    r->nd.profile = (uint8_t)r->profile;
    r->nd.warn_impl = true;   /* the VM raises notes on every profile */
    if (!(s->d = vm_debug_new(m, r->ki, s->args, &r->nd, &s->trap)))
        return repl_err(r, "%s", s->trap.msg);
    for (size_t i = 0; i < r->nbreaks; i++)
        vm_debug_break(s->d, r->breaks[i]);
    s->started = true;
    memcpy(r->focus, r->nd.offset, sizeof r->focus);
    watch_snap(r);
    return 0;
}

/* Has the watched register changed? Says how, in the first lane. */
static bool watch_hit(repl *r)
{
    if (r->watch < 0 || !r->watched)
        return false;
    vm_debug *d = r->s.d;
    uint32_t x = (uint32_t)r->watch;
    size_t n;
    const uint8_t *now = vm_debug_reg(d, x, &n);
    if (!memcmp(now, r->watched, n))
        return false;
    const bc_reg *g = &r->m.kernels[r->ki].regs[x];
    vm_dbg_range rg;
    vm_debug_range(d, &rg);
    uint32_t W = rg.warp, lane = 0;
    size_t es = g->kind == BC_REG_PTR ? 8
                : ty_scalar_size((enum ty_scalar)g->type.s);
    for (size_t b = 0; b < n; b++)
        if (now[b] != r->watched[b]) {
            lane = (uint32_t)(b / es % W);
            break;
        }
    uint64_t gid[3];
    vm_debug_gid(d, lane, gid);
    printf("watch %s: work-item (%llu,%llu,%llu) changed it",
           bc_str(&r->m, g->name), (unsigned long long)gid[0],
           (unsigned long long)gid[1], (unsigned long long)gid[2]);
    if (g->kind == BC_REG_VALUE) {
        /* its value in that work-item, before and after: component c of
         * lane l is element c * W + l of the register's storage */
        uint64_t was[TY_MAXLANES], is[TY_MAXLANES];
        char a[VAL_TEXT_MAX], b[VAL_TEXT_MAX];
        for (unsigned c = 0; c < g->type.n; c++) {
            size_t at = ((size_t)c * W + lane) * es;
            was[c] = ty_get_bits(r->watched + at, (unsigned)es);
            is[c] = ty_get_bits(now + at, (unsigned)es);
        }
        printf(": %s -> %s", val_format(g->type, was, 0, a),
               val_format(g->type, is, 0, b));
    }
    printf("\n");
    memcpy(r->focus, gid, sizeof gid);
    memcpy(r->watched, now, n);
    return true;
}

static bool at_break(const vm_dbg_pos *p)
{
    if (p->brk)
        printf("breakpoint %u, line %u\n", p->brk, p->line_start);
    return p->brk != 0;
}

enum { GO_STEPS, GO_NEXT, GO_CONTINUE };

/* Runs until how says to stop (n instructions, n source lines, or a
 * breakpoint), always stopping at breakpoints, watches, traps and the
 * end. */
static int go(repl *r, int how, uint64_t n)
{
    repl_sess *s = &r->s;
    if (s->trapped)
        return repl_err(r, "the kernel trapped (run starts it again)");
    vm_debug *d = repl_dbg(r, false);
    if (!d)
        return -1;
    /* only now: with no module loaded there is no kernel to point at */
    const bc_kernel *k = &r->m.kernels[r->ki];
    vm_dbg_pos p0, p;
    vm_debug_pos(d, &p0);
    /* the debugger looks at breakpoints itself; watches, a kernel
     * breakpoint and `next` need a look after each instruction */
    bool fast = how == GO_CONTINUE && !r->break_kernel && r->watch < 0;
    vm_debug_clear_notes(d);
    for (uint64_t i = 0;; i++) {
        if (how == GO_STEPS && i == n)
            break;
        enum vm_dbg_event e = vm_debug_run(d, fast ? UINT64_MAX : 1,
                                           how != GO_STEPS);
        if (e == VM_DBG_DONE) {
            s->done = true;
            printf("kernel '%s' finished%s\n", bc_str(&r->m, k->name),
                   r->host ? " (continue: the host program goes on)" : "");
            return 0;
        }
        if (e == VM_DBG_TRAP) {
            s->trapped = true;
            repl_where(r);
            fflush(stdout);
            printf("%s\n", vm_debug_trap(d)->msg);
            return 0;
        }
        vm_debug_pos(d, &p);
        if (e == VM_DBG_WARP) {
            watch_snap(r);
            if (how == GO_NEXT)
                break;
            if (r->break_kernel && p.pc == 0) {
                printf("breakpoint at kernel '%s'\n", bc_str(&r->m, k->name));
                break;
            }
        } else if (watch_hit(r)) {
            break;
        }
        if (how != GO_STEPS && at_break(&p))
            break;
        if (how == GO_NEXT && p.line_start &&
            (p.line_start != p0.line || p.pc <= p0.pc)) {
            if (--n == 0)
                break;
            p0 = p;   /* step N: N lines */
        }
    }
    repl_where(r);
    uint32_t npc;
    unsigned notes = vm_debug_notes(d, &npc);
    if (notes)
        repl_notes(r, notes, bc_line_of(k, npc));
    return 0;
}

int rc_run(repl *r, char *args)
{
    if (*args)
        return repl_err(r, "run takes no argument (set them with global, "
                        "local, offset and arg)");
    if (start(r))
        return -1;
    vm_dbg_pos p;
    vm_debug_pos(r->s.d, &p);
    if (r->break_kernel || at_break(&p)) {
        if (r->break_kernel)
            printf("breakpoint at kernel '%s'\n",
                   bc_str(&r->m, r->m.kernels[r->ki].name));
        repl_where(r);
        return 0;
    }
    return go(r, GO_CONTINUE, 0);
}

int rc_stepi(repl *r, char *args)
{
    uint64_t n = 1;
    if (*args && (!ra_number(args, strlen(args), &n) || !n))
        return repl_err(r, "stepi %s: expected a number of instructions, at "
                        "least 1", args);
    return go(r, GO_STEPS, n);
}

int rc_step(repl *r, char *args)
{
    uint64_t n = 1;
    if (*args && (!ra_number(args, strlen(args), &n) || !n))
        return repl_err(r, "step %s: expected a number of source lines, at "
                        "least 1", args);
    return go(r, GO_NEXT, n);
}

int rc_next(repl *r, char *args)
{
    return *args ? repl_err(r, "next takes no argument") : go(r, GO_NEXT, 1);
}

int rc_continue(repl *r, char *args)
{
    if (*args)
        return repl_err(r, "continue takes no argument");
    if (r->host && r->s.started && !repl_dbg(r, true)) {
        r->leave = true;   /* the kernel has ended: back to the host */
        printf("the host program continues\n");
        return 0;
    }
    return go(r, GO_CONTINUE, 0);
}

int rc_workitem(repl *r, char *args)
{
    uint64_t v[3] = {0};
    unsigned n = ra_numlist(args, v);
    if (!n)
        return repl_err(r, "workitem %s: expected a global id, 1 to 3 "
                        "decimal numbers separated by commas", args);
    if (r->s.started) {
        vm_dbg_range rg;
        vm_debug_range(r->s.d, &rg);
        for (unsigned d = 0; d < 3; d++)
            if (v[d] < rg.offset[d] || v[d] - rg.offset[d] >= rg.global[d])
                return repl_err(r, "work-item (%llu,%llu,%llu) is not in the "
                                "NDRange", (unsigned long long)v[0],
                                (unsigned long long)v[1],
                                (unsigned long long)v[2]);
    }
    memcpy(r->focus, v, sizeof v);
    vm_debug *d = repl_dbg(r, true);
    printf("work-item (%llu,%llu,%llu)", (unsigned long long)v[0],
           (unsigned long long)v[1], (unsigned long long)v[2]);
    if (d && repl_lane(r) < 0)
        printf(": not in the current warp (print and info show it when its "
               "warp runs)");
    printf("\n");
    return 0;
}
