/* What the REPL shows of a stopped kernel: where it is, registers of the
 * focused work-item (or of the whole warp), buffers as typed elements, and
 * the source around the current line. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tools/repl.h"
#include "tools/runargs.h"
#include "tools/value.h"

static const bc_kernel *kern(const repl *r)
{
    return &r->m.kernels[r->ki];
}

/* The instructions of the current line, the current one marked. */
static void show_ins(repl *r, const vm_warp *w, bool whole_line)
{
    const vm_prog *P = w->P;
    char text[128];
    uint32_t line = bc_line_of(kern(r), P->ins[w->ip].pc), a = w->ip,
             b = w->ip;
    while (whole_line && a > 0 && bc_line_of(kern(r), P->ins[a - 1].pc) == line)
        a--;
    while (whole_line && b + 1 < P->nins &&
           bc_line_of(kern(r), P->ins[b + 1].pc) == line &&
           P->ins[b + 1].pc < kern(r)->ncode)
        b++;
    for (uint32_t i = a; i <= b; i++) {
        vm_ins_text(&r->m, kern(r), P->ins[i].pc, text, sizeof text);
        if (i == w->ip)
            repl_color(r, "1");
        printf("%s pc %-4u %s\n", i == w->ip ? "    =>" : "      ",
               P->ins[i].pc, text);
        if (i == w->ip)
            repl_color(r, "0");
    }
}

void repl_where(repl *r)
{
    vm_warp *w = repl_warp(r, true);
    if (!w)
        return;
    const vm_prog *P = w->P;
    uint32_t line = bc_line_of(kern(r), P->ins[w->ip].pc);
    uint64_t g0[3], g1[3];
    vm_warp_gid(w, 0, g0);
    vm_warp_gid(w, w->lanes - 1, g1);
    printf("%s:%u", r->file, line);
    if (line && line <= r->nsrc)
        printf(":  %s", r->src[line - 1] + strspn(r->src[line - 1], " \t"));
    printf("\n  group %llu, warp %u: work-items (%llu,%llu,%llu)..(%llu,%llu,"
           "%llu), %d active\n", (unsigned long long)r->s.group, w->index,
           (unsigned long long)g0[0], (unsigned long long)g0[1],
           (unsigned long long)g0[2], (unsigned long long)g1[0],
           (unsigned long long)g1[1], (unsigned long long)g1[2],
           __builtin_popcountll(w->exec));
    show_ins(r, w, false);
}

/* ---- registers ---- */

/* Lane l of register x as the bytes memory would hold (mem, sizeof of
 * its type); false for a pointer. */
static bool lane_bytes(vm_warp *w, const bc_reg *g, uint32_t x, uint32_t l,
                       uint8_t *mem)
{
    if (g->kind != BC_REG_VALUE)
        return false;
    const uint8_t *p = vm_warp_reg(w, x);
    size_t es = ty_scalar_size((enum ty_scalar)g->type.s);
    uint32_t W = w->P->r.warp;
    for (unsigned c = 0; c < ty_lanes(g->type); c++)
        memcpy(mem + c * es, p + (c * W + l) * es, es);
    return true;
}

static void show_ptr(repl *r, vm_warp *w, uint32_t x, uint32_t l)
{
    uint32_t W = w->P->r.warp;
    const uint8_t *p = vm_warp_reg(w, x);
    uint64_t off;
    uint32_t id;
    memcpy(&off, p + (size_t)l * 8, 8);
    memcpy(&id, p + (size_t)W * 8 + (size_t)l * 4, 4);
    if (id == 0 || id >= w->P->nbufs) {
        printf("null");
        return;
    }
    const vm_bufinfo *b = &w->P->bufs[id];
    printf("%s + %llu bytes (of %llu)",
           bc_str(&r->m, kern(r)->regs[b->reg].name), (unsigned long long)off,
           (unsigned long long)b->size);
}

void repl_show_reg(repl *r, vm_warp *w, uint32_t x, int lane, ty_t as,
                   bool hex)
{
    const bc_reg *g = &kern(r)->regs[x];
    uint8_t mem[16 * 8];
    uint64_t bits[TY_MAXLANES];
    char text[VAL_TEXT_MAX];
    if (!lane_bytes(w, g, x, (uint32_t)lane, mem)) {
        show_ptr(r, w, x, (uint32_t)lane);
        return;
    }
    val_load(as, mem, bits);
    printf("%s", val_format(as, bits, hex ? VAL_HEX : 0, text));
}

/* The focused lane of the current warp, or -1 with a message. */
static int focus_lane(repl *r, vm_warp **w)
{
    if (!(*w = repl_warp(r, false)))
        return -1;
    int l = repl_lane(r, *w);
    if (l < 0)
        return repl_err(r, "work-item (%llu,%llu,%llu) is not in the current "
                        "warp (workitem ID chooses one that is)",
                        (unsigned long long)r->focus[0],
                        (unsigned long long)r->focus[1],
                        (unsigned long long)r->focus[2]);
    return l;
}

static int64_t find_reg(repl *r, const char *name, size_t len)
{
    if (!r->loaded)
        return repl_err(r, "no kernel loaded (load FILE)");
    int64_t x = repl_reg(r, name, len);
    if (x < 0)
        return repl_err(r, "kernel '%s' has no register '%.*s'",
                        bc_str(&r->m, kern(r)->name), (int)len, name);
    return x;
}

static bool is_let(const repl *r, const char *name, size_t n)
{
    for (size_t i = 0; i < r->nlets; i++)
        if (strlen(r->lets[i].name) == n && !memcmp(r->lets[i].name, name, n))
            return true;
    return false;
}

int rc_print(repl *r, char *args)
{
    char tn[TY_NAME_MAX], an[TY_NAME_MAX];
    size_t n = strcspn(args, " \t");
    if (!n)
        return repl_err(r, "print needs a register (print REG [as TYPE|bits|"
                        "all])");
    char *rest = args + n + strspn(args + n, " \t");
    if (!(r->loaded && repl_reg(r, args, n) >= 0) && is_let(r, args, n)) {
        /* a let value: print NAME as T is as_T(NAME), bits its fields */
        char e[300];
        if (!strncmp(rest, "as", 2) && isspace((unsigned char)rest[2])) {
            snprintf(e, sizeof e, "as_%s(%.*s)",
                     rest + 2 + strspn(rest + 2, " \t"), (int)n, args);
            return rc_eval(r, e);
        }
        snprintf(e, sizeof e, "%.*s", (int)n, args);
        if (!strcmp(rest, "bits"))
            return rc_bits(r, e);
        if (*rest)
            return repl_err(r, "print %s: a let value takes 'as TYPE' or "
                            "'bits'", e);
        return rc_eval(r, e);
    }
    int64_t x = find_reg(r, args, n);
    if (x < 0)
        return -1;
    const bc_reg *g = &kern(r)->regs[x];
    ty_t as = g->type;
    bool hex = false, all = false;
    if (!strncmp(rest, "as", 2) && isspace((unsigned char)rest[2])) {
        const char *t = rest + 2 + strspn(rest + 2, " \t");
        if (!ty_parse(t, strlen(t), &as))
            return repl_err(r, "print %.*s as %s: not a type", (int)n, args,
                            t);
        if (g->kind != BC_REG_VALUE || ty_sizeof(as) != ty_sizeof(g->type))
            return repl_err(r, "print %.*s as %s: %s is %zu bytes, %s %zu "
                            "(as needs the same size)", (int)n, args, t,
                            g->kind == BC_REG_VALUE ? ty_name(g->type, tn)
                                                    : "a pointer",
                            g->kind == BC_REG_VALUE ? ty_sizeof(g->type) : 12,
                            ty_name(as, an), ty_sizeof(as));
    } else if (!strcmp(rest, "bits")) {
        hex = true;
    } else if (!strcmp(rest, "all")) {
        all = true;
    } else if (*rest) {
        return repl_err(r, "print: after the register, 'as TYPE', 'bits' or "
                        "'all', not '%s'", rest);
    }
    vm_warp *w;
    if (all) {
        if (!(w = repl_warp(r, false)))
            return -1;
        printf("%.*s across warp %u, active mask 0x%llx (%d of %u):\n",
               (int)n, args, w->index, (unsigned long long)w->exec,
               __builtin_popcountll(w->exec), w->lanes);
        for (uint32_t l = 0; l < w->lanes; l++) {
            uint64_t gid[3];
            vm_warp_gid(w, l, gid);
            printf("  %c (%llu,%llu,%llu) ", w->exec >> l & 1 ? '*' : ' ',
                   (unsigned long long)gid[0], (unsigned long long)gid[1],
                   (unsigned long long)gid[2]);
            repl_show_reg(r, w, (uint32_t)x, (int)l, as, false);
            printf("\n");
        }
        return 0;
    }
    int l = focus_lane(r, &w);
    if (l < 0)
        return -1;
    printf("%.*s = ", (int)n, args);
    repl_show_reg(r, w, (uint32_t)x, l, as, hex);
    printf("\n");
    return 0;
}

int rc_info(repl *r, char *args)
{
    if (!strcmp(args, "breakpoints")) {
        if (!r->loaded)
            return repl_err(r, "no kernel loaded (load FILE)");
        for (size_t i = 0; i < r->nbreaks; i++)
            printf("breakpoint %zu at line %u\n", i + 1, r->breaks[i]);
        if (r->break_kernel)
            printf("breakpoint at kernel '%s'\n",
                   bc_str(&r->m, kern(r)->name));
        if (r->watch >= 0)
            printf("watch %s\n",
                   bc_str(&r->m, kern(r)->regs[r->watch].name));
        if (!r->nbreaks && !r->break_kernel && r->watch < 0)
            printf("no breakpoints\n");
        return 0;
    }
    if (strcmp(args, "registers"))
        return repl_err(r, "info registers or info breakpoints, not '%s'",
                        args);
    vm_warp *w;
    int l = focus_lane(r, &w);
    if (l < 0)
        return -1;
    const bc_kernel *k = kern(r);
    char tn[TY_NAME_MAX];
    printf("work-item (%llu,%llu,%llu):\n", (unsigned long long)r->focus[0],
           (unsigned long long)r->focus[1], (unsigned long long)r->focus[2]);
    for (uint32_t x = 0; x < k->nregs; x++) {
        const bc_reg *g = &k->regs[x];
        if (g->flags & BC_REGF_TEMP)
            continue;
        printf("  %-10s %-8s ", bc_str(&r->m, g->name),
               g->kind == BC_REG_VALUE ? ty_name(g->type, tn) : "pointer");
        repl_show_reg(r, w, x, l, g->type, false);
        printf("\n");
    }
    return 0;
}

/* ---- memory ---- */

int rc_x(repl *r, char *args)
{
    size_t n = strcspn(args, " \t+");
    if (!n)
        return repl_err(r, "x needs a buffer (x BUFFER[+OFFSET] [TYPE] "
                        "[COUNT])");
    int64_t x = find_reg(r, args, n);
    if (x < 0)
        return -1;
    const bc_reg *g = &kern(r)->regs[x];
    if (g->kind != BC_REG_PTR)
        return repl_err(r, "'%.*s' is not a buffer", (int)n, args);
    char *p = args + n;
    uint64_t off = 0, count = 1;
    ty_t t = g->type;
    if (*p == '+') {
        size_t d = strcspn(++p, " \t");
        if (!ra_number(p, d, &off))
            return repl_err(r, "x: the offset '%.*s' is not a decimal number",
                            (int)d, p);
        p += d;
    }
    p += strspn(p, " \t");
    size_t d = strcspn(p, " \t");
    if (d && !isdigit((unsigned char)*p)) {
        if (!ty_parse(p, d, &t))
            return repl_err(r, "x: '%.*s' is not a type", (int)d, p);
        p += d;
        p += strspn(p, " \t");
        d = strcspn(p, " \t");
    }
    if (d && (!ra_number(p, d, &count) || !count || p[d]))
        return repl_err(r, "x: expected a count (at least 1) at '%s'", p);
    if (!r->s.started)
        return repl_err(r, "the kernel has not run yet (run starts it)");
    /* the buffer: a parameter's argument, or an array of the warp */
    const vm_prog *P = r->s.P;
    const uint8_t *data = NULL;
    uint64_t size = 0;
    for (uint32_t b = 1; b < P->nbufs; b++) {
        if (P->bufs[b].reg != x)
            continue;
        if (P->bufs[b].param >= 0) {
            data = r->s.args[P->bufs[b].param].data;
            size = r->s.args[P->bufs[b].param].size;
        } else {
            vm_warp *w;
            int l = focus_lane(r, &w);
            if (l < 0)
                return -1;
            data = w->bufs[b].data + (uint64_t)l * w->bufs[b].lstride;
            size = P->bufs[b].size;
        }
    }
    if (!data && !size)
        return repl_err(r, "'%.*s' has no memory to show (a local pointer "
                        "parameter, or not set)", (int)n, args);
    size_t es = ty_sizeof(t);
    if (off > size / es || count > size / es - off) {
        char tn[TY_NAME_MAX];
        return repl_err(r, "x: elements %llu..%llu of %s are past the end of "
                        "'%.*s' (%llu bytes)", (unsigned long long)off,
                        (unsigned long long)(off + count - 1),
                        ty_name(t, tn), (int)n, args,
                        (unsigned long long)size);
    }
    ra_print_elems(stdout, args, n, t, 0, data, off, count);
    return 0;
}

/* ---- source ---- */

int rc_list(repl *r, char *args)
{
    if (!r->loaded)
        return repl_err(r, "no kernel loaded (load FILE)");
    uint64_t center;
    vm_warp *w = repl_warp(r, true);
    uint32_t cur = w ? bc_line_of(kern(r), w->P->ins[w->ip].pc) : 0;
    if (*args) {
        if (!ra_number(args, strlen(args), &center) || !center)
            return repl_err(r, "list %s: expected a line number", args);
    } else {
        center = cur ? cur : kern(r)->line + 4;
    }
    if (!r->nsrc) {
        if (!w)
            return repl_err(r, "%s has no source to list (a .bc file)",
                            r->file);
        show_ins(r, w, true);
        return 0;
    }
    uint64_t a = center > 5 ? center - 5 : 1, b = center + 5;
    for (uint64_t l = a; l <= b && l <= r->nsrc; l++) {
        printf("%s%4llu  %s\n", l == cur ? "=>" : "  ", (unsigned long long)l,
               r->src[l - 1]);
        if (l == cur)
            show_ins(r, w, true);
    }
    return 0;
}
