/* The REPL's kernel: loading it, its NDRange and arguments, and stepping
 * it the way vm_run would run it (work-groups in order, warps in order,
 * warps of a kernel with barriers round by round), one instruction at a
 * time when a breakpoint or a watch needs looking at. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vm/bcfile.h"
#include "tools/file.h"
#include "stdlib/profile.h"
#include "tools/repl.h"
#include "tools/runargs.h"

/* ---- the module ---- */

void repl_sess_end(repl *r)
{
    repl_sess *s = &r->s;
    vm_group_free(s->g);
    vm_prog_free(s->P);
    const bc_kernel *k = r->loaded ? &r->m.kernels[r->ki] : NULL;
    for (uint32_t i = 0; s->args && k && i < k->nparams; i++)
        free(s->args[i].data);
    free(s->args);
    free(s->lstart);
    *s = (repl_sess){0};
}

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
               ra_decl(&k->regs[k->params[i].reg],
                       bc_str(&r->m, k->params[i].name), pd, sizeof pd));
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

/* The source lines, for list (a .bc file has none). */
static void read_source(repl *r, const char *path)
{
    size_t len;
    char *t = file_read(path, &len);
    if (!t || (len >= 8 && !memcmp(t, BC_MAGIC, 8))) {
        free(t);
        return;
    }
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
    free(t);
}

int repl_load(repl *r, const char *path)
{
    char why[RA_WHY];
    repl_unload(r);
    if (ra_load(path, &r->m, stdout, why, sizeof why))
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

int rc_load(repl *r, char *args)
{
    if (!*args)
        return repl_err(r, "load needs a file name");
    return repl_load(r, args);
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
    int rc = ra_make_arg(&k->regs[k->params[p].reg], name,
                         args + strlen(name) + 1, &a, why, sizeof why);
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
    watch_clear(r);
    printf("no breakpoints, no watch\n");
    return 0;
}

int64_t repl_reg(const repl *r, const char *name, size_t len)
{
    const bc_kernel *k = &r->m.kernels[r->ki];
    for (uint32_t i = 0; i < k->nregs; i++) {
        const char *n = bc_str(&r->m, k->regs[i].name);
        if (strlen(n) == len && !memcmp(n, name, len))
            return i;
    }
    return -1;
}

const char *repl_reg_name(const repl *r, uint32_t i)
{
    const bc_kernel *k = &r->m.kernels[r->ki];
    return k->regs[i].flags & BC_REGF_TEMP ? NULL : bc_str(&r->m, k->regs[i].name);
}

/* Bytes register x takes in a warp's file. */
static size_t reg_bytes(const repl *r, uint32_t x)
{
    const bc_reg *g = &r->m.kernels[r->ki].regs[x];
    uint32_t W = r->s.r.warp;
    if (g->kind == BC_REG_PTR)
        return (size_t)W * 12;
    return (size_t)ty_lanes(g->type) * W * ty_scalar_size((enum ty_scalar)g->type.s);
}

static void watch_snap(repl *r, vm_warp *w)
{
    if (r->watch >= 0 && w && r->watched)
        memcpy(r->watched, vm_warp_reg(w, (uint32_t)r->watch),
               reg_bytes(r, (uint32_t)r->watch));
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
    /* the largest a register can take: 16 lanes of 8 bytes, 64 lanes */
    if (!(r->watched = calloc(16 * 8, VM_MAXW)))
        return repl_err(r, "out of memory");
    watch_snap(r, repl_warp(r, true));
    printf("watching %s\n", args);
    return 0;
}

/* ---- the session ---- */

vm_warp *repl_warp(repl *r, bool quiet)
{
    repl_sess *s = &r->s;
    if (s->started && !s->done)
        return &s->g->w[s->cur];
    if (!quiet)
        repl_err(r, s->done ? "the kernel has finished (run starts it "
                 "again)" : "the kernel is not running (run starts it)");
    return NULL;
}

int repl_lane(const repl *r, const vm_warp *w)
{
    for (uint32_t l = 0; l < w->lanes; l++) {
        uint64_t g[3];
        vm_warp_gid(w, l, g);
        if (!memcmp(g, r->focus, sizeof g))
            return (int)l;
    }
    return -1;
}

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
    for (uint32_t p = 0; p < k->nparams; p++)
        if (!r->argtext[p]) {
            const bc_reg *g = &k->regs[k->params[p].reg];
            const char *pn = bc_str(m, k->params[p].name);
            if (!missing++)
                repl_err(r, "kernel '%s' needs these arguments:",
                         bc_str(m, k->name));
            printf("  arg %s=%s  (%s)\n", pn, ra_form_of(g),
                   ra_decl(g, pn, pd, sizeof pd));
        }
    if (missing)
        return -1;
    if (!(s->args = calloc(k->nparams + 1, sizeof *s->args)))
        return repl_err(r, "out of memory");
    for (uint32_t p = 0; p < k->nparams; p++) {
        const char *pn = bc_str(m, k->params[p].name);
        if (ra_make_arg(&k->regs[k->params[p].reg], pn,
                        r->argtext[p] + strlen(pn) + 1, &s->args[p], why,
                        sizeof why))
            return repl_err(r, "%s", why);
    }
    r->nd.threads = 1;
    r->nd.profile = (uint8_t)r->profile;
    r->nd.warn_impl = true;   /* the VM raises notes on every profile */
    if (vm_range_resolve(&r->nd, &s->r, &s->trap) ||
        !(s->P = vm_prog_new(m, r->ki, s->args, &s->r, &s->trap)))
        return repl_err(r, "%s", s->trap.msg);
    s->P->fresh = true;
    if (!(s->g = vm_group_new(s->P)) ||
        !(s->lstart = calloc(s->P->nins + 1, sizeof *s->lstart)))
        return repl_err(r, "out of memory");
    /* the instructions where a source line's code begins */
    for (uint32_t i = 0; i < k->nlines; i++)
        if (k->lines[i].pc < k->ncode)
            s->lstart[s->P->pcins[k->lines[i].pc]] = k->lines[i].line;
    vm_group_start(s->g, 0);
    for (uint32_t i = 0; i < s->g->nctx; i++)
        vm_warp_start(&s->g->w[i], i);
    s->started = true;
    memcpy(r->focus, r->nd.offset, sizeof r->focus);
    watch_snap(r, &s->g->w[0]);
    return 0;
}

/* A barrier reached by some warps of the group only: the trap vm_run
 * reports (lowest waiting warp, at its barrier, naming warp `other`). */
static void barrier_trap(repl *r, uint32_t wait, uint32_t other,
                         bool finished)
{
    repl_sess *s = &r->s;
    vm_warp *w = &s->g->w[wait], *o = &s->g->w[other];
    w->ip--;
    w->fault = (vm_fault){.kind = VM_TRAP_BARRIER, .other = o->base,
                          .barwhy = finished ? VM_BAR_FINISHED
                                             : VM_BAR_ELSEWHERE,
                          .other_pc = finished ? 0
                                               : w->P->ins[o->ip - 1].pc};
    vm_warp_trap(w, VM_STOP_TRAP, &s->trap);
    s->cur = wait;
    s->trapped = true;
}

enum { ONE_RAN, ONE_END, ONE_TRAP, ONE_WARP };

/* The next warp to run after the current one stopped (done or at a
 * barrier): ONE_WARP, or ONE_END after the last group, or ONE_TRAP. */
static int next_warp(repl *r)
{
    repl_sess *s = &r->s;
    vm_group *g = s->g;
    if (g->nctx == 1) {
        if (++s->warpno < s->r.nwarps) {
            vm_warp_start(&g->w[0], s->warpno);
            return ONE_WARP;
        }
    } else {
        while (++s->cur < g->nctx && g->w[s->cur].exec == 0)
            ;
        if (s->cur < g->nctx)
            return ONE_WARP;
        /* a round is over: all finished, or all at the same barrier */
        uint32_t ndone = 0, wait = UINT32_MAX, done = UINT32_MAX;
        for (uint32_t i = 0; i < g->nctx; i++) {
            if (g->w[i].exec == 0) {
                ndone++;
                done = done < i ? done : i;
            } else {
                wait = wait < i ? wait : i;
            }
        }
        if (ndone && ndone < g->nctx) {
            barrier_trap(r, wait, done, true);
            return ONE_TRAP;
        }
        if (!ndone) {
            for (uint32_t i = wait + 1; i < g->nctx; i++)
                if (g->w[i].ip != g->w[wait].ip) {
                    barrier_trap(r, wait, i, false);
                    return ONE_TRAP;
                }
            s->cur = wait;
            return ONE_WARP;
        }
    }
    /* the group's printf output, as vm_run writes it: group by group */
    vm_group_flush(g, stdout);
    if (++s->group >= s->r.ngroups) {
        s->done = true;
        return ONE_END;
    }
    vm_group_start(g, s->group);
    for (uint32_t i = 0; i < g->nctx; i++)
        vm_warp_start(&g->w[i], i);
    s->cur = 0, s->warpno = 0;
    return ONE_WARP;
}

/* Runs at most budget instructions of the current warp. */
static int one(repl *r, uint64_t budget)
{
    repl_sess *s = &r->s;
    vm_warp *w = &s->g->w[s->cur];
    if (w->steps >= s->r.max_steps) {
        vm_warp_trap(w, VM_STOP_BUDGET, &s->trap);
        s->trapped = true;
        return ONE_TRAP;
    }
    uint64_t left = s->r.max_steps - w->steps;
    enum vm_stop st = vm_warp_run(w, budget < left ? budget : left);
    if (st == VM_STOP_BUDGET)
        return ONE_RAN;
    if (st == VM_STOP_TRAP) {
        vm_warp_trap(w, st, &s->trap);
        s->trapped = true;
        return ONE_TRAP;
    }
    return next_warp(r);
}

/* Has the watched register changed? Says how, in the first lane. */
static bool watch_hit(repl *r, vm_warp *w)
{
    if (r->watch < 0 || !r->watched)
        return false;
    uint32_t x = (uint32_t)r->watch;
    size_t n = reg_bytes(r, x);
    const uint8_t *now = vm_warp_reg(w, x);
    if (!memcmp(now, r->watched, n))
        return false;
    const bc_reg *g = &r->m.kernels[r->ki].regs[x];
    uint32_t W = r->s.r.warp, lane = 0;
    size_t es = g->kind == BC_REG_PTR ? 8
                : ty_scalar_size((enum ty_scalar)g->type.s);
    for (size_t b = 0; b < n; b++)
        if (now[b] != r->watched[b]) {
            lane = (uint32_t)(b / es % W);
            break;
        }
    uint64_t gid[3];
    vm_warp_gid(w, lane, gid);
    printf("watch %s: work-item (%llu,%llu,%llu) changed it\n",
           bc_str(&r->m, g->name), (unsigned long long)gid[0],
           (unsigned long long)gid[1], (unsigned long long)gid[2]);
    memcpy(r->focus, gid, sizeof gid);
    memcpy(r->watched, now, n);
    return true;
}

static bool at_break(repl *r, vm_warp *w)
{
    uint32_t line = r->s.lstart[w->ip];
    for (size_t i = 0; line && i < r->nbreaks; i++)
        if (r->breaks[i] == line) {
            printf("breakpoint %zu, line %u\n", i + 1, line);
            return true;
        }
    return false;
}

enum { GO_STEPS, GO_NEXT, GO_CONTINUE };

/* Runs until how says to stop (n instructions, the next line, or a
 * breakpoint), always stopping at breakpoints, watches, traps and the
 * end. */
static int go(repl *r, int how, uint64_t n)
{
    repl_sess *s = &r->s;
    if (s->trapped)
        return repl_err(r, "the kernel trapped (run starts it again)");
    vm_warp *w = repl_warp(r, false);
    if (!w)
        return -1;
    uint32_t ip0 = w->ip, line0 = bc_line_of(r->m.kernels + r->ki,
                                             s->P->ins[w->ip].pc);
    bool fast = how == GO_CONTINUE && !r->nbreaks && !r->break_kernel &&
                r->watch < 0;
    w->notes = 0;
    for (uint64_t i = 0;; i++) {
        if (how == GO_STEPS && i == n)
            break;
        int rc = one(r, fast ? UINT64_MAX : 1);
        if (rc == ONE_END) {
            printf("kernel '%s' finished\n",
                   bc_str(&r->m, r->m.kernels[r->ki].name));
            return 0;
        }
        if (rc == ONE_TRAP) {
            repl_where(r);
            fflush(stdout);
            printf("%s\n", s->trap.msg);
            return 0;
        }
        w = &s->g->w[s->cur];
        if (rc == ONE_WARP) {
            watch_snap(r, w);
            if (how == GO_NEXT)
                break;
            if (r->break_kernel && w->ip == 0) {
                printf("breakpoint at kernel '%s'\n",
                       bc_str(&r->m, r->m.kernels[r->ki].name));
                break;
            }
        } else if (watch_hit(r, w)) {
            break;
        }
        if (how != GO_STEPS && at_break(r, w))
            break;
        if (how == GO_NEXT && s->lstart[w->ip] &&
            (s->lstart[w->ip] != line0 || w->ip <= ip0))
            break;
    }
    repl_where(r);
    if (w->notes)
        repl_notes(r, w->notes, bc_line_of(r->m.kernels + r->ki,
                                           s->P->ins[w->note_ip].pc));
    return 0;
}

int rc_run(repl *r, char *args)
{
    if (*args)
        return repl_err(r, "run takes no argument (set them with global, "
                        "local, offset and arg)");
    if (start(r))
        return -1;
    vm_warp *w = &r->s.g->w[0];
    if (r->break_kernel || at_break(r, w)) {
        if (r->break_kernel)
            printf("breakpoint at kernel '%s'\n",
                   bc_str(&r->m, r->m.kernels[r->ki].name));
        repl_where(r);
        return 0;
    }
    return go(r, GO_CONTINUE, 0);
}

int rc_step(repl *r, char *args)
{
    uint64_t n = 1;
    if (*args && (!ra_number(args, strlen(args), &n) || !n))
        return repl_err(r, "step %s: expected a number of instructions, at "
                        "least 1", args);
    return go(r, GO_STEPS, n);
}

int rc_next(repl *r, char *args)
{
    return *args ? repl_err(r, "next takes no argument") : go(r, GO_NEXT, 0);
}

int rc_continue(repl *r, char *args)
{
    return *args ? repl_err(r, "continue takes no argument")
                 : go(r, GO_CONTINUE, 0);
}

int rc_workitem(repl *r, char *args)
{
    uint64_t v[3] = {0};
    unsigned n = ra_numlist(args, v);
    if (!n)
        return repl_err(r, "workitem %s: expected a global id, 1 to 3 "
                        "decimal numbers separated by commas", args);
    if (r->s.started) {
        const vm_range *rg = &r->s.r;
        for (unsigned d = 0; d < 3; d++)
            if (v[d] < rg->offset[d] || v[d] - rg->offset[d] >= rg->global[d])
                return repl_err(r, "work-item (%llu,%llu,%llu) is not in the "
                                "NDRange", (unsigned long long)v[0],
                                (unsigned long long)v[1],
                                (unsigned long long)v[2]);
    }
    memcpy(r->focus, v, sizeof v);
    vm_warp *w = repl_warp(r, true);
    printf("work-item (%llu,%llu,%llu)", (unsigned long long)v[0],
           (unsigned long long)v[1], (unsigned long long)v[2]);
    if (w && repl_lane(r, w) < 0)
        printf(": not in the current warp (print and info show it when its "
               "warp runs)");
    printf("\n");
    return 0;
}
