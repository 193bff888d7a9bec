/* What the REPL shows of a stopped kernel: registers, buffers and source.
 *
 * Registers of the focused work-item (or of the whole warp), buffers as
 * typed elements, and the source around the current line. */
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

/* ---- registers ---- */

static void show_ptr(repl *r, vm_debug *d, uint32_t x, uint32_t l)
{
    uint32_t buf;
    uint64_t size, off;
    if (!vm_debug_pointer(d, x, l, &buf, &size, &off)) {
        printf("null");
        return;
    }
    printf("%s + %llu bytes (of %llu)",
           bc_str(&r->m, kern(r)->regs[buf].name), (unsigned long long)off,
           (unsigned long long)size);
}

/* Register x of lane `lane` of the current warp, as type `as`. */
static void show_reg(repl *r, vm_debug *d, uint32_t x, int lane, ty_t as,
                     bool hex)
{
    uint8_t mem[16 * 8];
    uint64_t bits[TY_MAXLANES];
    char text[VAL_TEXT_MAX];
    if (!vm_debug_value(d, x, (uint32_t)lane, mem)) {
        show_ptr(r, d, x, (uint32_t)lane);
        return;
    }
    val_load(as, mem, bits);
    printf("%s", val_format(as, bits, hex ? VAL_HEX : 0, text));
}

/* The focused lane of the current warp, or -1 with a message. */
static int focus_lane(repl *r, vm_debug **d)
{
    if (!(*d = repl_dbg(r, false)))
        return -1;
    int l = repl_lane(r);
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

int rc_print(repl *r, char *args)
{
    char tn[TY_NAME_MAX], an[TY_NAME_MAX];
    size_t n = strcspn(args, " \t");
    if (!n)
        return repl_err(r, "print needs a register (print REG [as TYPE|bits|"
                        "all])");
    char *rest = args + n + strspn(args + n, " \t");
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
    vm_debug *d;
    if (all) {
        if (!(d = repl_dbg(r, false)))
            return -1;
        vm_dbg_pos p;
        vm_debug_pos(d, &p);
        printf("%.*s across warp %u, active mask 0x%llx (%d of %u):\n",
               (int)n, args, p.warp, (unsigned long long)p.active,
               __builtin_popcountll(p.active), p.lanes);
        for (uint32_t l = 0; l < p.lanes; l++) {
            uint64_t gid[3];
            vm_debug_gid(d, l, gid);
            printf("  %c (%llu,%llu,%llu) ", p.active >> l & 1 ? '*' : ' ',
                   (unsigned long long)gid[0], (unsigned long long)gid[1],
                   (unsigned long long)gid[2]);
            show_reg(r, d, (uint32_t)x, (int)l, as, false);
            printf("\n");
        }
        return 0;
    }
    int l = focus_lane(r, &d);
    if (l < 0)
        return -1;
    printf("%.*s = ", (int)n, args);
    show_reg(r, d, (uint32_t)x, l, as, hex);
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
    vm_debug *d;
    int l = focus_lane(r, &d);
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
        show_reg(r, d, x, l, g->type, false);
        printf("\n");
    }
    return 0;
}

/* ---- memory ---- */

int rc_x(repl *r, char *args)
{
    /* :hex after the buffer or the type, as --print takes it: bits */
    bool hex = false;
    for (char *h = args; (h = strstr(h, ":hex")) != NULL;)
        if (!h[4] || h[4] == ' ' || h[4] == '\t') {
            memmove(h, h + 4, strlen(h + 4) + 1);
            hex = true;
        } else {
            h += 4;
        }
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
    const uint8_t *data = NULL;
    uint64_t size = 0;
    int l = 0;
    vm_debug *dbg = r->s.d;
    /* an array's memory is the focused lane's, a local parameter's the
     * current group's: neither is left once the kernel has finished */
    if (g->init == BC_INIT_ARRAY ? (l = focus_lane(r, &dbg)) < 0
                                 : g->space == BC_LOCAL && !repl_dbg(r, false))
        return -1;
    vm_debug_memory(dbg, (uint32_t)x, (uint32_t)l, &data, &size);
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
    ra_print_elems(stdout, args, n, t, hex ? VAL_HEX : 0, data, off, count);
    return 0;
}

/* ---- source ---- */

int rc_list(repl *r, char *args)
{
    if (!r->loaded)
        return repl_err(r, "no kernel loaded (load FILE)");
    uint64_t center;
    vm_debug *d = repl_dbg(r, true);
    vm_dbg_pos p = {0};
    if (d)
        vm_debug_pos(d, &p);
    uint32_t cur = p.line;
    if (*args) {
        if (!ra_number(args, strlen(args), &center) || !center)
            return repl_err(r, "list %s: expected a line number", args);
    } else {
        center = cur ? cur : kern(r)->line + 4;
    }
    if (!r->nsrc) {
        if (!d)
            return repl_err(r, "%s has no source to list (a .bc file)",
                            r->file);
        repl_show_ins(r, p.pc, true);
        return 0;
    }
    uint64_t a = center > 5 ? center - 5 : 1, b = center + 5;
    for (uint64_t l = a; l <= b && l <= r->nsrc; l++) {
        printf("%s%4llu  %s\n", l == cur ? "=>" : "  ", (unsigned long long)l,
               r->src[l - 1]);
        if (l == cur)
            repl_show_ins(r, p.pc, true);
    }
    return 0;
}
