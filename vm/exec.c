/* Running a kernel over an NDRange: validating the range, spreading
 * work-groups over threads, barriers between the warps of a group, and the
 * one trap that is reported (the same whatever the thread count). */
#include "vm/interp.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stdlib/builtin.h"
#include "stdlib/profile.h"

const char *vm_trap_name(enum vm_trapkind k)
{
    static const char *const names[] = {
        [VM_OK] = "ok",
#define X(E, msg) [VM_TRAP_##E] = msg,
        VM_TRAPS(X)
#undef X
    };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* snprintf for messages, where cutting a long one short is fine (and gcc
 * need not warn that it may happen). */
static void __attribute__((format(printf, 3, 4)))
put(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

void vm_trap_set(vm_trap *t, enum vm_trapkind kind, const char *fmt, ...)
{
    char detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->param = -1;
    put(t->msg, sizeof t->msg, "trap: %s: %s", vm_trap_name(kind), detail);
}

/* ------------------------------------------------------------------ */
/* The NDRange                                                         */

int vm_range_resolve(const vm_ndrange *nd, vm_range *r, vm_trap *t)
{
    memset(r, 0, sizeof *r);
    if (!nd || nd->dims < 1 || nd->dims > 3) {
        vm_trap_set(t, VM_TRAP_NDRANGE, "work dimension %u: must be 1, 2 "
                    "or 3", nd ? nd->dims : 0);
        return t->kind;
    }
    r->dims = nd->dims;
    uint64_t total = 1, group = 1;
    r->ngroups = 1;
    for (unsigned d = 0; d < 3; d++) {
        uint64_t g = 1, l = 1, o = 0;
        if (d < nd->dims) {
            g = nd->global[d], l = nd->local[d], o = nd->offset[d];
            if (g == 0) {
                vm_trap_set(t, VM_TRAP_NDRANGE, "global size 0 in "
                            "dimension %u", d);
                return t->kind;
            }
            if (o > UINT64_MAX - g) {
                vm_trap_set(t, VM_TRAP_NDRANGE, "global offset %llu + size "
                            "%llu overflows in dimension %u",
                            (unsigned long long)o, (unsigned long long)g, d);
                return t->kind;
            }
            if (l == 0) {
                l = d == 0 ? (g < VM_LOCAL_CHOICE ? g : VM_LOCAL_CHOICE) : 1;
                while (g % l)
                    l--;
            } else if (g % l) {
                vm_trap_set(t, VM_TRAP_NDRANGE, "global size %llu is not a "
                            "multiple of local size %llu in dimension %u",
                            (unsigned long long)g, (unsigned long long)l, d);
                return t->kind;
            }
        }
        if (g > (UINT64_MAX >> 1) / total) {
            vm_trap_set(t, VM_TRAP_NDRANGE, "more than 2^63 work-items");
            return t->kind;
        }
        total *= g;
        if (l > VM_MAX_GROUP || group * l > VM_MAX_GROUP) {
            vm_trap_set(t, VM_TRAP_NDRANGE, "work-group of more than %u "
                        "work-items (local size %llu in dimension %u)",
                        VM_MAX_GROUP, (unsigned long long)l, d);
            return t->kind;
        }
        group *= l;
        r->global[d] = g, r->local[d] = l, r->offset[d] = o;
        r->groups[d] = g / l;
        r->ngroups *= g / l;
    }
    unsigned w = nd->warp ? nd->warp : VM_MAXW;
    if (w > VM_MAXW) {
        vm_trap_set(t, VM_TRAP_NDRANGE, "warp of %u work-items: at most %u",
                    w, VM_MAXW);
        return t->kind;
    }
    r->group_size = (uint32_t)group;
    r->warp = w < group ? w : (uint32_t)group;
    r->nwarps = (r->group_size + r->warp - 1) / r->warp;
    unsigned th = nd->threads;
    if (th == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        th = n > 0 ? (unsigned)n : 1;
    }
    if (th > 256)
        th = 256;
    r->threads = r->ngroups < th ? (unsigned)r->ngroups : th;
    r->max_steps = nd->max_steps ? nd->max_steps : VM_DEFAULT_MAX_STEPS;
    r->natives = nd->natives;
    r->out = nd->out ? nd->out : stdout;
    r->profile = nd->profile;
    r->warn_impl = nd->warn_impl;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */

static const char *reg_name(const bc_module *m, const bc_kernel *k,
                            uint32_t x, char *buf, size_t len)
{
    const char *s = x < k->nregs ? bc_str(m, k->regs[x].name) : "";
    if (*s)
        return s;
    snprintf(buf, len, "r%u", x);
    return buf;
}

void vm_ins_text(const bc_module *m, const bc_kernel *k, uint32_t pc,
                 char *buf, size_t len)
{
    if (pc >= k->ncode || !bc_ins_words(k->code[pc])) {
        put(buf, len, "end of kernel");
        return;
    }
    uint32_t h = k->code[pc], op = BC_OPCODE(h);
    size_t at = (size_t)snprintf(buf, len, "%s", bc_ops[op].name);
    const uint32_t *w = k->code + pc + 1;
    const char *sep = " ";
    for (const char *l = bc_bases[bc_ops[op].base].operands; *l; l++, w++) {
        char tmp[BI_NAME_MAX + 24];
        const char *s = tmp;
        unsigned base = bc_ops[op].base;
        switch (*l) {
        case 'j': put(tmp, sizeof tmp, "@%u", *w); break;
        case 'i':
            if ((base == BCB_CALL || base == BCB_CALLV) && *w < m->nexterns)
                put(tmp, sizeof tmp, "%s", bc_str(m, m->externs[*w].name));
            else if (base == BCB_PRINTF)
                put(tmp, sizeof tmp, "\"%.20s%s\"", bc_str(m, *w),
                    strlen(bc_str(m, *w)) > 20 ? "..." : "");
            else
                put(tmp, sizeof tmp, "%u", *w);
            break;
        case 'l':   /* the registers of the list, the last operand */
            for (uint32_t e = 0; e < BC_FLAGS(h); e++) {
                s = reg_name(m, k, w[e], tmp, sizeof tmp);
                if (at < len)
                    at += (size_t)snprintf(buf + at, len - at, "%s%s", sep,
                                           s);
                sep = ", ";
            }
            return;
        case 'z':
            put(tmp, sizeof tmp, "0x%llx",
                     (unsigned long long)(w[0] | (uint64_t)w[1] << 32));
            w++;
            break;
        case 't': {
            bi_desc d = {BI_CONVERT, {(uint8_t)BC_CVT_DST(*w), (uint8_t)BC_N(h)},
                         BC_N(h), BC_CVT_SAT(*w), BC_CVT_SPELLED(*w),
                         (enum rnd)BC_CVT_RND(*w)};
            bi_format(&d, tmp);
            break;
        }
        default: s = reg_name(m, k, *w, tmp, sizeof tmp); break;
        }
        if (at < len)
            at += (size_t)snprintf(buf + at, len - at, "%s%s", sep, s);
        sep = ", ";
    }
}

/* An address the way the kernel computed it: offsets that went below the
 * buffer's start show as negative. */
static void fmt_addr(char *buf, size_t len, uint64_t a)
{
    if (a > INT64_MAX)
        put(buf, len, "-%llu", (unsigned long long)(0 - a));
    else
        put(buf, len, "%llu", (unsigned long long)a);
}

static void buf_name(const vm_prog *P, uint32_t b, char *buf, size_t len)
{
    const vm_bufinfo *bi = &P->bufs[b];
    const char *name = bc_str(P->m, P->k->regs[bi->reg].name);
    if (b == 0)
        put(buf, len, "no buffer (a pointer never set)");
    else if (bi->param >= 0)
        put(buf, len, "buffer '%s' (%llu bytes)", name,
                 (unsigned long long)bi->size);
    else
        put(buf, len, "%s array '%s' (%llu bytes)",
                 bi->space == BC_LOCAL ? "local" : "private", name,
                 (unsigned long long)bi->size);
}

/* A value of type t (its bits b) in decimal. */
static void fmt_val(char *buf, size_t len, enum ty_scalar t, uint64_t b)
{
    unsigned bits = 8 * ty_scalar_size(t);
    uint64_t m = ~UINT64_C(0) >> (64 - bits);
    if (ty_is_signed(t) && (b & m) >> (bits - 1))
        put(buf, len, "-%llu", (unsigned long long)((0 - b) & m));
    else
        put(buf, len, "%llu", (unsigned long long)(b & m));
}

/* The strict profile's trap: the case, its rule, and what each other
 * profile gives for the operands that raised it. */
static void impl_detail(const vm_prog *P, uint32_t pc, const vm_fault *f,
                        char *buf, size_t len)
{
    const uint32_t *code = P->k->code + pc;
    const unsigned op = BC_OPCODE(code[0]), base = bc_ops[op].base;
    const enum note_id id = (enum note_id)f->note;
    int n = snprintf(buf, len, "component %u: %s (%s): %s: \"%s\";",
                     f->comp, note_name(id), note_kind(id), note_what(id),
                     note_rule(id));
    for (int p = 0; p < PROF_COUNT && n >= 0 && (size_t)n < len; p++) {
        char v[40] = "";
        uint64_t d = 0;
        if (p == PROF_STRICT)
            continue;
        if (base == BCB_CVT) {
            enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(code[3]);
            prof_cv_scalar((enum prof_id)p, ds,
                           (enum ty_scalar)BC_CVT_SRC(code[3]), &d,
                           &f->opnd[0], BC_CVT_SAT(code[3]),
                           (enum rnd)BC_CVT_RND(code[3]));
            fmt_val(v, sizeof v, ds, d);
        } else if (base == BCB_DIV || base == BCB_REM) {
            enum ty_scalar t = (enum ty_scalar)bc_ops[op].elem;
            prof_divrem((enum prof_id)p, t, base == BCB_REM, &d, &f->opnd[0],
                        &f->opnd[1]);
            fmt_val(v, sizeof v, t, d);
        } else if (base == BCB_ADD || base == BCB_SUB || base == BCB_MUL ||
                   base == BCB_NEG) { /* BC_F_SIGNED: the signed type */
            enum ty_scalar t = ty_signed_of(bc_ops[op].elem);
            prof_arith((enum prof_id)p, t,
                       base == BCB_ADD   ? PA_ADD
                       : base == BCB_SUB ? PA_SUB
                       : base == BCB_MUL ? PA_MUL : PA_NEG,
                       &d, &f->opnd[0], &f->opnd[1]);
            fmt_val(v, sizeof v, t, d);
        }
        n += snprintf(buf + n, len - (size_t)n, " %s gives %s%s", prof_name(p),
                      *v ? v : prof_what((enum prof_id)p, id),
                      p + 1 < PROF_COUNT ? "," : "");
    }
}

void vm_warp_trap(const vm_warp *w, enum vm_stop why, vm_trap *t)
{
    const vm_prog *P = w->P;
    const bc_kernel *k = P->k;
    const vm_fault *f = &w->fault;
    memset(t, 0, sizeof *t);
    t->kind = why == VM_STOP_BUDGET ? VM_TRAP_STEPS : f->kind;
    t->kernel = P->kidx;
    t->pc = P->ins[w->ip].pc;
    t->line = bc_line_of(k, t->pc);
    t->param = -1;
    uint64_t run = w->exec ? w->exec : w->all;
    uint32_t lane = f->lane;
    if (t->kind == VM_TRAP_STEPS)
        for (lane = 0; !(run >> lane & 1); lane++)
            ;
    vm_warp_gid(w, lane, t->gid);

    char detail[768] = "", where[64], ins[96];
    const char *src = bc_str(P->m, P->m->source);
    if (t->line)
        put(where, sizeof where, "%.40s:%u", *src ? src : "?", t->line);
    else
        put(where, sizeof where, "pc %u", t->pc);
    vm_ins_text(P->m, k, t->pc, ins, sizeof ins);

    if (t->kind == VM_TRAP_BOUNDS || t->kind == VM_TRAP_ALIGN) {
        char a0[24], a1[24], bn[96];
        t->has_addr = true;
        t->addr = f->addr;
        t->len = f->len;
        t->param = P->bufs[f->buf].param;
        t->bufsize = P->bufs[f->buf].size;
        fmt_addr(a0, sizeof a0, f->addr);
        fmt_addr(a1, sizeof a1, f->addr + f->len - 1);
        buf_name(P, f->buf, bn, sizeof bn);
        if (t->kind == VM_TRAP_BOUNDS)
            put(detail, sizeof detail, "bytes %s..%s of %s", a0, a1, bn);
        else
            put(detail, sizeof detail, "bytes %s..%s of %s: not "
                     "%llu-byte aligned", a0, a1, bn,
                     (unsigned long long)f->align);
    } else if (t->kind == VM_TRAP_BARRIER) {
        uint64_t g[3];
        vm_group_gid(w->g, f->other, g);
        int n = snprintf(detail, sizeof detail, "work-item (%llu,%llu,%llu) "
                         "of its group ", (unsigned long long)g[0],
                         (unsigned long long)g[1], (unsigned long long)g[2]);
        uint32_t oline = bc_line_of(k, f->other_pc);
        if (f->barwhy == VM_BAR_FINISHED)
            put(detail + n, sizeof detail - n, "finished without it");
        else if (f->barwhy == VM_BAR_ELSEWHERE && oline)
            put(detail + n, sizeof detail - n, "waits at the barrier "
                     "of line %u", oline);
        else if (f->barwhy == VM_BAR_ELSEWHERE)
            put(detail + n, sizeof detail - n, "waits at the barrier "
                     "at pc %u", f->other_pc);
        else
            put(detail + n, sizeof detail - n, "did not arrive");
    } else if (t->kind == VM_TRAP_IMPL) {
        impl_detail(P, t->pc, f, detail, sizeof detail);
    } else if (t->kind == VM_TRAP_NOMEM) {
        put(detail, sizeof detail, "printf output of a work-item over %u "
            "bytes, or no memory for it", (unsigned)VM_PRINTF_MAX);
    } else if (t->kind == VM_TRAP_STEPS) {
        put(detail, sizeof detail, "its warp ran %llu instructions",
                 (unsigned long long)w->steps);
    }
    put(t->msg, sizeof t->msg, "trap: %s in kernel '%.40s' at %s: %s: "
             "work-item (%llu,%llu,%llu)%s%s", vm_trap_name(t->kind),
             bc_str(P->m, k->name), where, ins,
             (unsigned long long)t->gid[0], (unsigned long long)t->gid[1],
             (unsigned long long)t->gid[2], *detail ? ": " : "", detail);
}

/* ------------------------------------------------------------------ */
/* Work-groups                                                         */

/* A barrier reached by only some warps: report the lowest waiting warp,
 * at its barrier, naming the lowest warp that is elsewhere. */
static int barrier_trap(vm_group *g, uint32_t wait, uint32_t other,
                        bool finished, vm_trap *t)
{
    vm_warp *w = &g->w[wait], *o = &g->w[other];
    w->ip--; /* back on the BARRIER */
    w->fault = (vm_fault){.kind = VM_TRAP_BARRIER, .lane = 0,
                          .other = o->base,
                          .barwhy = finished ? VM_BAR_FINISHED
                                             : VM_BAR_ELSEWHERE,
                          .other_pc = finished ? 0
                                               : w->P->ins[o->ip - 1].pc};
    vm_warp_trap(w, VM_STOP_TRAP, t);
    return t->kind;
}

static int run_group(vm_group *g, uint64_t linear, vm_trap *t)
{
    const vm_range *r = &g->P->r;
    vm_group_start(g, linear);
    if (g->nctx == 1) {
        /* no barriers between warps: one context serves them in turn */
        vm_warp *w = &g->w[0];
        for (uint32_t i = 0; i < r->nwarps; i++) {
            vm_warp_start(w, i);
            enum vm_stop s = vm_warp_run(w, r->max_steps);
            if (s != VM_STOP_DONE) {
                vm_warp_trap(w, s, t);
                return t->kind;
            }
        }
        return 0;
    }
    for (uint32_t i = 0; i < g->nctx; i++)
        vm_warp_start(&g->w[i], i);
    /* Rounds: each warp runs until it finishes or waits at a barrier;
     * when all wait at the same one, all go on. */
    for (;;) {
        uint32_t ndone = 0, wait = UINT32_MAX, done = UINT32_MAX;
        for (uint32_t i = 0; i < g->nctx; i++) {
            vm_warp *w = &g->w[i];
            if (w->exec != 0) {
                enum vm_stop s = vm_warp_run(w, r->max_steps - w->steps);
                if (s == VM_STOP_TRAP || s == VM_STOP_BUDGET) {
                    vm_warp_trap(w, s, t);
                    return t->kind;
                }
            }
            if (w->exec == 0) {
                ndone++;
                done = done < i ? done : i;
            } else {
                wait = wait < i ? wait : i;
            }
        }
        if (ndone == g->nctx)
            return 0;
        if (ndone)
            return barrier_trap(g, wait, done, true, t);
        uint32_t pc = g->w[wait].ip;
        for (uint32_t i = wait + 1; i < g->nctx; i++)
            if (g->w[i].ip != pc)
                return barrier_trap(g, wait, i, false, t);
    }
}

/* A finished group's printf output, waiting for the groups before it. */
typedef struct pend {
    struct pend *next;
    uint64_t gi;
    bool trapped;
    size_t len;
    char buf[];
} pend;

typedef struct {
    const vm_prog *P;
    _Atomic uint64_t next;   /* the next group to take */
    _Atomic uint64_t first;  /* the lowest group that trapped so far */
    pthread_mutex_t lock;
    vm_trap trap;            /* ... and its trap */
    /* printf output goes out group by group in linear group order, so it
     * is the same whatever the thread count; nothing after a trapping
     * group (whose own output, up to the trap, goes out) */
    uint64_t emit;           /* the next group to write */
    pend *pending;           /* later groups that finished, sorted */
    bool stop;               /* a trapping group was written */
    bool lost;               /* no memory to hold a group's output */
    /* warn_impl: each group's counts (ncount/nfirst of its touched
     * slots), kept apart so that the groups past a trap can be left out */
    struct wrec { uint64_t gi, count; uint32_t slot, first; } *recs;
    size_t nrecs, caprecs;
} run_state;

static void emit_one(run_state *s, bool trapped)
{
    s->emit++;
    s->stop |= trapped;
}

/* Called with s->lock held when group gi finished (or trapped). */
static void emit_group(run_state *s, vm_group *g, uint64_t gi, bool trapped)
{
    FILE *out = s->P->r.out;
    if (gi == s->emit) {
        if (!s->stop)
            vm_group_flush(g, out);
        emit_one(s, trapped);
    } else {
        size_t len = 0;
        for (uint32_t i = 0; i < s->P->r.group_size; i++)
            len += g->pout[i].len;
        pend *e = malloc(sizeof *e + len), **at = &s->pending;
        if (!e) {
            s->lost = true;
            return;
        }
        e->gi = gi, e->trapped = trapped, e->len = 0;
        for (uint32_t i = 0; i < s->P->r.group_size; i++) {
            if (g->pout[i].len)
                memcpy(e->buf + e->len, g->pout[i].buf, g->pout[i].len);
            e->len += g->pout[i].len;
        }
        while (*at && (*at)->gi < gi)
            at = &(*at)->next;
        e->next = *at;
        *at = e;
    }
    while (s->pending && s->pending->gi == s->emit) {
        pend *e = s->pending;
        s->pending = e->next;
        if (!s->stop && e->len)
            fwrite(e->buf, 1, e->len, out);
        emit_one(s, e->trapped);
        free(e);
    }
}

typedef struct {
    run_state *s;
    vm_group *g;
} worker;

/* Takes groups in increasing order. A group above the lowest trapping one
 * is skipped, but every group below it runs to the end, so the group
 * reported is the lowest that traps whatever the thread count. */
static void keep_counts(run_state *s, vm_group *g, uint64_t gi)
{
    if (s->nrecs + g->ntouched > s->caprecs) {
        size_t cap = 2 * (s->nrecs + g->ntouched);
        struct wrec *r = realloc(s->recs, cap * sizeof *r);
        if (!r) {
            s->lost = true;
            return;
        }
        s->recs = r, s->caprecs = cap;
    }
    for (uint32_t i = 0; i < g->ntouched; i++) {
        uint32_t slot = g->touched[i];
        s->recs[s->nrecs++] = (struct wrec){gi, g->ncount[slot], slot,
                                            g->nfirst[slot]};
    }
}

/* The warnings of a run from the kept counts, in instruction order: the
 * groups up to the first that trapped (all when none did). */
static void make_warnings(run_state *s, vm_warnings *out)
{
    const vm_prog *P = s->P;
    const vm_range *r = &P->r;
    size_t slots = (size_t)P->nins * NOTE_COUNT, n = 0;
    struct wrec *best = calloc(slots ? slots : 1, sizeof *best);
    out->v = NULL, out->n = 0;
    if (!best)
        return;
    uint64_t last = atomic_load(&s->first);
    for (size_t i = 0; i < s->nrecs; i++) {
        struct wrec *e = &s->recs[i], *b = &best[e->slot];
        if (e->gi > last)
            continue;
        n += b->count == 0;
        if (b->count == 0 || e->gi < b->gi)
            b->gi = e->gi, b->first = e->first;
        b->count += e->count;
    }
    out->v = calloc(n ? n : 1, sizeof *out->v);
    for (size_t i = 0; out->v && i < slots; i++) {
        const struct wrec *b = &best[i];
        if (!b->count)
            continue;
        vm_warning *v = &out->v[out->n++];
        v->kernel = P->kidx;
        v->pc = P->ins[i / NOTE_COUNT].pc;
        v->line = bc_line_of(P->k, v->pc);
        v->note = (uint8_t)(i % NOTE_COUNT);
        v->count = b->count;
        uint64_t gid3[3] = {b->gi % r->groups[0],
                            b->gi / r->groups[0] % r->groups[1],
                            b->gi / r->groups[0] / r->groups[1]},
                 lid[3] = {b->first % r->local[0],
                           b->first / r->local[0] % r->local[1],
                           b->first / r->local[0] / r->local[1]};
        for (int d = 0; d < 3; d++)
            v->gid[d] = gid3[d] * r->local[d] + lid[d] + r->offset[d];
    }
    free(best);
}

static void *work(void *arg)
{
    worker *me = arg;
    run_state *s = me->s;
    vm_trap t;
    for (;;) {
        uint64_t gi = atomic_fetch_add(&s->next, 1);
        if (gi >= s->P->r.ngroups || gi > atomic_load(&s->first))
            break;
        int rc = run_group(me->g, gi, &t);
        if (rc || s->P->printf || me->g->ntouched) {
            pthread_mutex_lock(&s->lock);
            keep_counts(s, me->g, gi);
            if (rc && gi < atomic_load(&s->first)) {
                s->trap = t;
                atomic_store(&s->first, gi);
            }
            if (s->P->printf)
                emit_group(s, me->g, gi, rc != 0);
            pthread_mutex_unlock(&s->lock);
        }
    }
    return NULL;
}

int vm_run(const bc_module *m, uint32_t k, vm_arg *args,
           const vm_ndrange *nd, vm_trap *trap)
{
    vm_trap spare;
    if (!trap)
        trap = &spare;
    memset(trap, 0, sizeof *trap);
    trap->param = -1;
    vm_range r;
    if (vm_range_resolve(nd, &r, trap))
        return trap->kind;
    vm_prog *P = vm_prog_new(m, k, args, &r, trap);
    if (!P)
        return trap->kind;

    run_state s = {.P = P};
    atomic_init(&s.next, 0);
    atomic_init(&s.first, UINT64_MAX);
    pthread_mutex_init(&s.lock, NULL);
    worker *ws = calloc(r.threads, sizeof *ws);
    pthread_t *tids = calloc(r.threads, sizeof *tids);
    bool ok = ws && tids;
    for (unsigned i = 0; ok && i < r.threads; i++) {
        ws[i] = (worker){&s, vm_group_new(P)};
        ok = ws[i].g != NULL;
    }
    if (ok) {
        /* the calling thread is worker 0; a thread that cannot start
         * leaves its share to the others */
        unsigned started = 1;
        for (unsigned i = 1; i < r.threads; i++)
            if (pthread_create(&tids[i], NULL, work, &ws[i]) == 0)
                tids[started++] = tids[i];
        work(&ws[0]);
        for (unsigned i = 1; i < started; i++)
            pthread_join(tids[i], NULL);
        if (atomic_load(&s.first) != UINT64_MAX)
            *trap = s.trap;
        else if (s.lost)
            vm_trap_set(trap, VM_TRAP_NOMEM, "printf output of kernel '%s'",
                        bc_str(m, P->k->name));
        if (P->printf)
            fflush(r.out);
    } else {
        vm_trap_set(trap, VM_TRAP_NOMEM, "work-group memory of kernel '%s'",
                    bc_str(m, P->k->name));
    }
    for (unsigned i = 0; ws && i < r.threads; i++)
        vm_group_free(ws[i].g);
    free(ws);
    free(tids);
    while (s.pending) {
        pend *e = s.pending;
        s.pending = e->next;
        free(e);
    }
    if (ok && nd->warn_impl && nd->warnings)
        make_warnings(&s, nd->warnings);
    free(s.recs);
    pthread_mutex_destroy(&s.lock);
    vm_prog_free(P);
    return trap->kind;
}
