/* Traps: recording what stopped a run and formatting every runtime message
 * of the VM, with the instruction text that messages and the debugger show. */
#include "vm/trap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stdlib/builtin.h"
#include "stdlib/note.h"
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
    char detail[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->param = -1;
    put(t->msg, sizeof t->msg, "trap: %s: %s", vm_trap_name(kind), detail);
}

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
        put(buf, len, "no buffer (the null pointer, or a pointer made "
            "from an address in no buffer)");
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

/* The strict profile's trap: the case on the event's line, then on a line
 * of its own what clvm's rule gives and what each other profile gives for
 * the operands that raised it (the spec's words are in docs/semantics.md
 * and in the REPL's note). */
static void impl_detail(const vm_prog *P, uint32_t pc, const vm_fault *f,
                        char *buf, size_t len)
{
    const uint32_t *code = P->k->code + pc;
    const unsigned op = BC_OPCODE(code[0]), base = bc_ops[op].base;
    const enum note_id id = (enum note_id)f->note;
    int n = snprintf(buf, len, "%s (%s) in component %u\n  %s;",
                     note_name(id), note_kind(id), f->comp, note_what(id));
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
        } else if (base == BCB_MAD || base == BCB_CMAD || base == BCB_XMAD) {
            enum ty_scalar t = (enum ty_scalar)bc_ops[op].elem;
            prof_muladd((enum prof_id)p, vm_fuse_shape(base), t, &d,
                        &f->opnd[0], &f->opnd[1], &f->opnd[2]);
            float fv;
            double dv;
            memcpy(&fv, &d, 4), memcpy(&dv, &d, 8);
            snprintf(v, sizeof v, "%a", t == TY_FLOAT ? (double)fv : dv);
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

/* RACE: the access, and the other work-item's. */
static void race_detail(const vm_warp *w, const vm_fault *f, char *buf,
                        size_t len)
{
    const vm_prog *P = w->P;
    const uint32_t gs = P->r.group_size;
    static const char *const what[] = {"read", "write", "atomic",
                                       "atomic read", "async copy read",
                                       "async copy write"};
    char a0[24], a1[24], bn[96], oline[48];
    fmt_addr(a0, sizeof a0, f->addr);
    fmt_addr(a1, sizeof a1, f->addr + f->len - 1);
    buf_name(P, f->buf, bn, sizeof bn);
    uint64_t grp = f->opnd[0] / gs, g[3];
    vm_group tmp = *w->g;   /* the other's group, for its global id */
    const vm_range *r = &P->r;
    tmp.id[0] = grp % r->groups[0];
    tmp.id[1] = grp / r->groups[0] % r->groups[1];
    tmp.id[2] = grp / r->groups[0] / r->groups[1];
    vm_group_gid(&tmp, f->opnd[0] % gs, g);
    uint32_t ol = bc_line_of(P->k, f->other_pc);
    if (ol)
        put(oline, sizeof oline, "line %u", ol);
    else
        put(oline, sizeof oline, "pc %u", f->other_pc);
    put(buf, len, "its %s of bytes %s..%s of %s and the %s of work-item "
        "(%llu,%llu,%llu) at %s %s", what[f->barwhy % 6], a0, a1, bn,
        what[f->opnd[1] % 6], (unsigned long long)g[0],
        (unsigned long long)g[1], (unsigned long long)g[2], oline,
        grp != w->g->linear ? "are in different work-groups (nothing orders "
                              "them)" : "are in one barrier interval");
}

/* ASYNC: which rule of the async copies the work-item broke. */
static void async_detail(const vm_warp *w, const vm_fault *f, char *buf,
                         size_t len)
{
    uint64_t g[3];
    vm_group_gid(w->g, f->other, g);
    char who[80];
    put(who, sizeof who, "work-item (%llu,%llu,%llu) of its group",
        (unsigned long long)g[0], (unsigned long long)g[1],
        (unsigned long long)g[2]);
    switch (f->barwhy) {
    case VM_AS_DIVERGE:
        put(buf, len, "%s did not reach it with this one", who);
        break;
    case VM_AS_ARGS:
        put(buf, len, "it passes other operands than %s", who);
        break;
    case VM_AS_MISSING:
        put(buf, len, "%s never reached it", who);
        break;
    case VM_AS_NOWAIT:
        put(buf, len, "%s did not wait for its event "
            "(wait_group_events) before the kernel ended", who);
        break;
    case VM_AS_EVENT:
        put(buf, len, "it waits for event %llu, which no async copy it "
            "reached returned", (unsigned long long)f->opnd[0]);
        break;
    default:
        put(buf, len, "its event operand %llu is not 0 or an event an "
            "earlier copy of the group returned",
            (unsigned long long)f->opnd[0]);
        break;
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
    size_t sl = strlen(src);   /* a long path: its last 40 bytes */
    if (t->line)
        put(where, sizeof where, "%s%s:%u", sl > 40 ? "..." : "",
            *src ? src + (sl > 40 ? sl - 40 : 0) : "?", t->line);
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
    } else if (t->kind == VM_TRAP_ASYNC) {
        async_detail(w, f, detail, sizeof detail);
    } else if (t->kind == VM_TRAP_RACE) {
        race_detail(w, f, detail, sizeof detail);
    } else if (t->kind == VM_TRAP_IMPL) {
        impl_detail(P, t->pc, f, detail, sizeof detail);
    } else if (t->kind == VM_TRAP_NOMEM && f->barwhy == VM_NOMEM_RACE) {
        put(detail, sizeof detail, "no memory for the race detector's "
            "records of the bytes it accessed");
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

void vm_trap_barrier(vm_warp *w, const vm_warp *o, bool finished,
                     vm_trap *t)
{
    w->ip--; /* back on the BARRIER */
    w->fault = (vm_fault){.kind = VM_TRAP_BARRIER, .lane = 0,
                          .other = o->base,
                          .barwhy = finished ? VM_BAR_FINISHED
                                             : VM_BAR_ELSEWHERE,
                          .other_pc = finished ? 0
                                               : w->P->ins[o->ip - 1].pc};
    vm_warp_trap(w, VM_STOP_TRAP, t);
}
