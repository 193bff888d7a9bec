/* What the REPL's command files share: messages and notes, the running
 * session (the VM's debugger, vm/debug.h) and where it stopped. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/note.h"
#include "stdlib/profile.h"
#include "tools/repl.h"

/* ---- messages ---- */

int repl_err(repl *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    repl_color(r, "1;31");
    fputs("error: ", stdout);
    repl_color(r, "0");
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    r->errors++;
    return -1;
}

void repl_color(const repl *r, const char *sgr)
{
    if (r->color)
        printf("\033[%sm", sgr);
}

void repl_notes(repl *r, unsigned notes, uint32_t line)
{
    for (int id = 0; id < NOTE_COUNT; id++) {
        if (!(notes >> id & 1))
            continue;
        repl_color(r, "33");
        printf("note:");
        repl_color(r, "0");
        if (line)
            printf(" line %u:", line);
        printf(" %s result (%s)\n  spec: %s\n  profile %s: %s\n",
               note_kind((enum note_id)id), note_name((enum note_id)id),
               note_rule((enum note_id)id),
               prof_name((enum prof_id)r->profile),
               prof_what((enum prof_id)r->profile, (enum note_id)id));
    }
}

/* ---- the session ---- */

void repl_sess_end(repl *r)
{
    repl_sess *s = &r->s;
    vm_debug_free(s->d);
    const bc_kernel *k = r->loaded ? &r->m.kernels[r->ki] : NULL;
    for (uint32_t i = 0; s->args && k && i < k->nparams; i++)
        free(s->args[i].data);
    free(s->args);
    *s = (repl_sess){0};
}

vm_debug *repl_dbg(repl *r, bool quiet)
{
    repl_sess *s = &r->s;
    if (s->started && !s->done)
        return s->d;
    if (!quiet)
        repl_err(r, s->done ? "the kernel has finished (run starts it "
                 "again)" : "the kernel is not running (run starts it)");
    return NULL;
}

int repl_lane(const repl *r)
{
    vm_dbg_pos p;
    vm_debug_pos(r->s.d, &p);
    for (uint32_t l = 0; l < p.lanes; l++) {
        uint64_t g[3];
        vm_debug_gid(r->s.d, l, g);
        if (!memcmp(g, r->focus, sizeof g))
            return (int)l;
    }
    return -1;
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

/* ---- where it stopped ---- */

void repl_show_ins(repl *r, uint32_t pc, bool whole_line)
{
    const bc_kernel *k = &r->m.kernels[r->ki];
    const uint32_t line = bc_line_of(k, pc);
    char text[128];
    /* from the first of the run of pc's line's instructions that reaches
     * pc, to the last of that run */
    uint32_t first = pc, run = UINT32_MAX;
    for (uint32_t q = 0; whole_line && q <= pc && q < k->ncode;
         q += bc_ins_words(k->code[q])) {
        if (bc_line_of(k, q) != line)
            run = UINT32_MAX;
        else if (run == UINT32_MAX)
            run = q;
    }
    if (run != UINT32_MAX)
        first = run;
    for (uint32_t q = first; q == pc || q < k->ncode;
         q += bc_ins_words(k->code[q])) {
        if (q > pc && (!whole_line || bc_line_of(k, q) != line))
            break;
        vm_ins_text(&r->m, k, q, text, sizeof text);
        if (q == pc)
            repl_color(r, "1");
        printf("%s pc %-4u %s\n", q == pc ? "    =>" : "      ", q, text);
        if (q == pc)
            repl_color(r, "0");
        if (q >= k->ncode)
            break;
    }
}

void repl_where(repl *r)
{
    vm_debug *d = repl_dbg(r, true);
    if (!d)
        return;
    vm_dbg_pos p;
    vm_debug_pos(d, &p);
    uint64_t g0[3], g1[3];
    vm_debug_gid(d, 0, g0);
    vm_debug_gid(d, p.lanes - 1, g1);
    printf("%s:%u", r->file, p.line);
    if (p.line && p.line <= r->nsrc)
        printf(":  %s", r->src[p.line - 1] +
                            strspn(r->src[p.line - 1], " \t"));
    printf("\n  group %llu, warp %u: work-items (%llu,%llu,%llu)..(%llu,%llu,"
           "%llu), %d active\n", (unsigned long long)p.group, p.warp,
           (unsigned long long)g0[0], (unsigned long long)g0[1],
           (unsigned long long)g0[2], (unsigned long long)g1[0],
           (unsigned long long)g1[1], (unsigned long long)g1[2],
           __builtin_popcountll(p.active));
    repl_show_ins(r, p.pc, false);
}
