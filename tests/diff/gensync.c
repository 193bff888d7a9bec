/* The difftest generator's synchronising statements (docs/difftest.md):
 * atomics whose final memory does not depend on the order the work-items
 * take, async copies between global and local memory with their
 * barriers and events, and printf, in both languages. */
#include "tests/diff/genint.h"

#include <stdio.h>
#include <string.h>

static const uint8_t atom_scalar[DT_NATOM] = {TY_INT, TY_UINT, TY_LONG, TY_ULONG};
static const char *const atom_arr[DT_NATOM] = {"la_i", "la_ui", "la_l", "la_ul"};

static ty_t scal(unsigned s) { return (ty_t){(uint8_t)s, 1}; }

static const char *tname(gen *g, ty_t t)
{
    char buf[TY_NAME_MAX];
    return dt_str(g, "%s", ty_name(t, buf));
}

static const char *lid(gen *g)
{
    static const char n[] = "lid";
    for (int d = 0; d < g->k->ndecl; d++)
        if (!strcmp(g->k->decl_name[d], n))
            return n;
    dt_decl(g, dt_str(g, "%s", n), dt_str(g, "ulong lid = get_local_id(0);"),
            dt_str(g, "ulong lid = get_local_id(0)"));
    return n;
}

static void add_init(gen *g, char *cl, char *ir)
{
    dt_syncstate *y = &g->sy;
    y->init_cl[y->ninit] = cl;
    y->init_ir[y->ninit++] = ir;
}

/* An atomic read-modify-write whose old value goes unused, on a target of
 * its own: so every target sees one kind of operation (the add family,
 * min, max, and, or or xor), and its final value is the same in whatever
 * order the work-items come. The target is a slot of a local array
 * (every work-item of the group), the group's first work-item's output
 * element (the group) or work-item 0's (all 64 work-items, across the
 * groups); it starts at a random value (zero for the last). */
dt_stmt *dt_sync_atomic(gen *g)
{
    static const char *const ops[] = {"add", "sub", "inc", "dec", "min", "max", "and", "or", "xor"};
    dt_syncstate *y = &g->sy;
    unsigned a = dt_rnd(g, 4) == 0 ? 2 + dt_rnd(g, 2) : dt_rnd(g, 2);
    unsigned s = atom_scalar[a];
    const char *op = ops[dt_rnd(g, 9)];
    bool wide = a >= 2;
    const char *pre = wide || dt_rnd(g, 4) == 0 ? "atom_" : "atomic_";
    int b = dt_buf_of(s);
    unsigned where = dt_rnd(g, 4); /* 0, 1: local; 2: the group; 3: all */
    ex init = dt_ilit(g, s);
    char *tgt;
    if (where < 2) {
        if (y->nslot[a] == DT_LSLOTS || y->ninit == DT_MAXINIT || y->nout == DT_MAXINIT)
            return NULL;
        int j = y->nslot[a]++;
        int at = dt_reserve(g, b, 1);
        if (at < 0)
            return NULL;
        if (j == 0)
            dt_decl(g, dt_str(g, "%s", atom_arr[a]),
                    dt_str(g, "local %s %s[%d];", tname(g, scal(s)), atom_arr[a], DT_LSLOTS),
                    dt_str(g, "local %s %s[%d]", tname(g, scal(s)), atom_arr[a], DT_LSLOTS));
        add_init(g, dt_str(g, "%s[%d] = %s;", atom_arr[a], j, init.cl),
                 dt_str(g, "%s[%d] = %s", atom_arr[a], j, init.ir));
        y->out_cl[y->nout] = dt_str(g, "o_%s[gid * %d + %d] = %s[%d];", dt_buf_suffix[b], DT_NOUT,
                                    at, atom_arr[a], j);
        y->out_ir[y->nout++] = dt_str(g, "o_%s[gid * %d + %d] = %s[%d]", dt_buf_suffix[b],
                                      DT_NOUT, at, atom_arr[a], j);
        tgt = dt_str(g, "%s + %d", atom_arr[a], j);
    } else {
        if (where == 2 && y->ninit == DT_MAXINIT)
            return NULL;
        int at = dt_reserve(g, b, 1);
        if (at < 0)
            return NULL;
        if (where == 2) {
            add_init(g, dt_str(g, "o_%s[gid * %d + %d] = %s;", dt_buf_suffix[b], DT_NOUT, at, init.cl),
                     dt_str(g, "o_%s[gid * %d + %d] = %s", dt_buf_suffix[b], DT_NOUT, at, init.ir));
            tgt = dt_str(g, "o_%s + (gid - %s) * %d + %d", dt_buf_suffix[b], lid(g), DT_NOUT, at);
        } else {
            tgt = dt_str(g, "o_%s + %d", dt_buf_suffix[b], at);
        }
    }
    if (wide)
        g->k->atom64 = true;
    char *cl, *ir;
    if (!strcmp(op, "inc") || !strcmp(op, "dec")) {
        cl = dt_str(g, "%s%s(%s);", pre, op, tgt);
        ir = dt_str(g, "%s%s(%s)", pre, op, tgt);
    } else {
        ex v = dt_expr(g, scal(s), 1 + (int)dt_rnd(g, 2));
        cl = dt_str(g, "%s%s(%s, %s);", pre, op, tgt, v.cl);
        ir = dt_str(g, "%s%s(%s, %s)", pre, op, tgt, v.ir);
    }
    return dt_line(g, cl, ir);
}

static const uint8_t copy_scalars[] = {
    TY_CHAR, TY_UCHAR, TY_SHORT, TY_USHORT, TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_FLOAT, TY_DOUBLE,
};

/* The event array all copies use, declared once. */
static void events(gen *g)
{
    for (int d = 0; d < g->k->ndecl; d++)
        if (!strcmp(g->k->decl_name[d], "ev"))
            return;
    dt_decl(g, dt_str(g, "ev"), dt_str(g, "event_t ev[1];"), dt_str(g, "uint ev[1]"));
}

/* A pointer of type T (global, const when in) n scalars past o_X/i_X. */
static ex gptr(gen *g, ty_t t, bool in, const char *off)
{
    const char *sfx = dt_buf_suffix[dt_buf_of(t.s)];
    char io = in ? 'i' : 'o';
    if (t.n == 1)
        return (ex){dt_str(g, "%c_%s + %s", io, sfx, off), dt_str(g, "%c_%s + %s", io, sfx, off)};
    const char *T = tname(g, t);
    return (ex){dt_str(g, "(global %s%s *)(%c_%s + %s)", in ? "const " : "", T, io, sfx, off),
                dt_str(g, "(%s *)(%c_%s + %s)", T, io, sfx, off)};
}

/* An async copy between global and local memory, by the whole group with
 * the same operands (it is generated only where every work-item comes):
 * either inputs into a local array, waited for, then read by every
 * work-item at places of its own choosing and stored; or a local array
 * each work-item filled (then a barrier), copied to the outputs, strided
 * into each work-item's own element or whole into the group's first
 * work-item's, and waited for. */
dt_stmt *dt_sync_async(gen *g)
{
    static const uint8_t widths[] = {1, 1, 1, 2, 4, 8, 16};
    dt_syncstate *y = &g->sy;
    ty_t t = {copy_scalars[dt_rnd(g, sizeof copy_scalars)], widths[dt_rnd(g, sizeof widths)]};
    const char *T = tname(g, t), *L = lid(g);
    int b = dt_buf_of(t.s);
    int lb = y->nlocal;
    char *name = dt_str(g, "lb%d", lb);
    events(g);
    char *cl, *ir;
    if (dt_rnd(g, 2)) { /* global to local */
        unsigned gt = DT_LOCAL * DT_NIN / t.n; /* the group's inputs, in T */
        unsigned st = (const unsigned[]){1, 1, 2, 3, 5}[dt_rnd(g, 5)];
        unsigned c = DT_LOCAL * (1 + dt_rnd(g, 3));
        if ((c - 1) * st + 1 > gt) {
            st = 1;
            c = DT_LOCAL;
        }
        unsigned r = dt_rnd(g, gt - ((c - 1) * st + 1) + 1);
        ex src = gptr(g, t, true, dt_str(g, "(gid - %s) * %d + %u", L, DT_NIN, r * t.n));
        if (st == 1 && dt_rnd(g, 2)) {
            cl = dt_str(g, "ev[0] = async_work_group_copy(%s, %s, %u, (event_t)0);", name, src.cl, c);
            ir = dt_str(g, "ev[0] = async_work_group_copy(%s, %s, %u, 0u)", name, src.ir, c);
        } else {
            cl = dt_str(g, "ev[0] = async_work_group_strided_copy(%s, %s, %u, %u, (event_t)0);",
                        name, src.cl, c, st);
            ir = dt_str(g, "ev[0] = async_work_group_strided_copy(%s, %s, %u, %u, 0u)", name,
                        src.ir, c, st);
        }
        cl = dt_str(g, "%s\nwait_group_events(1, ev);", cl);
        ir = dt_str(g, "%s\nwait_group_events(1, ev)", ir);
        for (unsigned j = 0, nj = 1 + dt_rnd(g, 2); j < nj; j++) {
            int at = dt_reserve(g, b, t.n);
            if (at < 0)
                break;
            char *e = dt_str(g, "%s[(%s * %u + %u) %% %u]", name, L, 1 + 2 * dt_rnd(g, 4),
                             dt_rnd(g, c), c);
            dt_stmt *s = dt_store_at(g, t, b, (unsigned)at, (ex){e, e});
            cl = dt_str(g, "%s\n%s", cl, s->cl);
            ir = dt_str(g, "%s\n%s", ir, s->ir);
        }
        dt_decl(g, name, dt_str(g, "local %s %s[%u];", T, name, c),
                dt_str(g, "local %s %s[%u]", T, name, c));
    } else { /* local to global */
        bool whole = t.n <= 4 && dt_rnd(g, 2);
        int at = dt_reserve(g, b, whole ? DT_LOCAL * t.n : t.n);
        if (at < 0)
            return NULL;
        ex v = dt_expr(g, t, 1 + (int)dt_rnd(g, 2));
        ex dst = gptr(g, t, false, dt_str(g, "(gid - %s) * %d + %d", L, DT_NOUT, at));
        cl = dt_str(g, "%s[%s] = %s;\nbarrier(CLK_LOCAL_MEM_FENCE);", name, L, v.cl);
        ir = dt_str(g, "%s[%s] = %s\nbarrier(CLK_LOCAL_MEM_FENCE)", name, L, v.ir);
        if (whole) {
            cl = dt_str(g, "%s\nev[0] = async_work_group_copy(%s, %s, %d, (event_t)0);", cl, dst.cl,
                        name, DT_LOCAL);
            ir = dt_str(g, "%s\nev[0] = async_work_group_copy(%s, %s, %d, 0u)", ir, dst.ir, name,
                        DT_LOCAL);
        } else {
            cl = dt_str(g, "%s\nev[0] = async_work_group_strided_copy(%s, %s, %d, %d, (event_t)0);",
                        cl, dst.cl, name, DT_LOCAL, DT_NOUT / t.n);
            ir = dt_str(g, "%s\nev[0] = async_work_group_strided_copy(%s, %s, %d, %d, 0u)", ir,
                        dst.ir, name, DT_LOCAL, DT_NOUT / t.n);
        }
        cl = dt_str(g, "%s\nwait_group_events(1, ev);", cl);
        ir = dt_str(g, "%s\nwait_group_events(1, ev)", ir);
        dt_decl(g, name, dt_str(g, "local %s %s[%d];", T, name, DT_LOCAL),
                dt_str(g, "local %s %s[%d]", T, name, DT_LOCAL));
    }
    y->nlocal++;
    return dt_line(g, cl, ir);
}

/* Flags (some of "-+ #0", those C defines for conversion c), a width and
 * a precision (where c takes one), as printf's format has them. */
static const char *fwp(gen *g, char c, unsigned maxw)
{
    char f[8];
    int n = 0;
    for (const char *p = "-+ #0"; *p; p++) {
        /* '#' and '0' are undefined with d i u c s (and refused); '+' and
         * ' ' mean nothing to c s o u x X: PoCL gets those wrong (its
         * fault 10) */
        bool ok = !(*p == '#' && strchr("diucs", c)) && !(*p == '0' && strchr("cs", c)) &&
                  !(strchr("+ ", *p) && strchr("csouxX", c));
        if (ok && *p == ' ' && memchr(f, '+', (size_t)n)) /* with '+': no effect (10) */
            ok = false;
        if (ok && dt_rnd(g, 4) == 0)
            f[n++] = *p;
    }
    f[n] = 0;
    const char *w = dt_rnd(g, 2) ? "" : dt_str(g, "%u", dt_rnd(g, maxw + 1));
    const char *pr = c == 'c' || dt_rnd(g, 2) ? "" : dt_rnd(g, 8) ? dt_str(g, ".%u", dt_rnd(g, 13)) : ".";
    if (*w == '0' || (c == 's' && *pr)) /* a width does not begin with 0 (a flag);
                                         * PoCL's fault 12: %5.1s */
        w = "";
    char *z = strchr(f, '0');
    if (z && *pr && strchr("diouxX", c)) /* ignored with a precision: PoCL's fault 10 */
        memmove(z, z + 1, strlen(z));
    return dt_str(g, "%s%s%s", f, w, pr);
}

static const struct { char len[3]; uint8_t s[2]; } int_lens[] = {
    {"", {TY_INT, TY_UINT}}, {"hh", {TY_CHAR, TY_UCHAR}}, {"h", {TY_SHORT, TY_USHORT}},
    {"l", {TY_LONG, TY_ULONG}},
};

/* A floating printf argument of type t: a float leaf, its NaNs made the
 * positive quiet NaN (the sign of a NaN is no value's: "nan" or "-nan" is
 * not the point), converted to double for a double (PoCL prints a double
 * as the float nearest it, its fault 9: the value is one). */
static ex float_arg(gen *g, ty_t t)
{
    ty_t f = {TY_FLOAT, t.n};
    ex x = dt_expr(g, f, 0);
    const char *F = tname(g, f);
    ex e = {dt_str(g, "((%s != %s) ? (%s)(as_float(0x7fc00000u)) : %s)", x.cl, x.cl, F, x.cl),
            dt_str(g, "((%s != %s) ? (%s)(as_float(0x7fc00000)) : %s)", x.ir, x.ir, F, x.ir)};
    if (t.s == TY_FLOAT)
        return e;
    const char *cv = t.n > 1 ? dt_str(g, "convert_double%u", t.n) : "convert_double";
    return (ex){dt_str(g, "%s(%s)", cv, e.cl), dt_str(g, "%s(%s)", cv, e.ir)};
}

/* One conversion of printf and its argument, appended to *f and *a. */
static void conversion(gen *g, char **f, ex *a)
{
    static const uint8_t widths[] = {2, 3, 4, 8, 16};
    static const char *const strs[] = {"", "a", "hello", "x y", "50%", "-+ #0"};
    unsigned r = dt_rnd(g, 12);
    ex e = {NULL, NULL};
    if (r < 3) { /* an integer */
        char c = "diouxX"[dt_rnd(g, 6)];
        unsigned l = dt_rnd(g, 4);
        *f = dt_str(g, "%s%%%s%s%c", *f, fwp(g, c, 20), int_lens[l].len, c);
        e = dt_expr(g, scal(int_lens[l].s[dt_rnd(g, 2)]), 1);
    } else if (r == 3) { /* a printable character */
        *f = dt_str(g, "%s%%%sc", *f, fwp(g, 'c', 6));
        ex v = dt_expr(g, scal(TY_UINT), 1);
        e = (ex){dt_str(g, "(((%s) & 63u) + 32u)", v.cl), dt_str(g, "(((%s) & 63) + 32)", v.ir)};
    } else if (r < 7) { /* a float or double */
        char c = "fFeEgGaA"[dt_rnd(g, 8)];
        *f = dt_str(g, "%s%%%s%s%c", *f, fwp(g, c, 24), dt_rnd(g, 4) ? "" : "l", c);
        e = float_arg(g, scal(dt_rnd(g, 2) ? TY_FLOAT : TY_DOUBLE));
    } else if (r < 10) { /* a vector */
        unsigned n = widths[dt_rnd(g, 5)];
        bool flt = dt_rnd(g, 3) == 0;
        char c = flt ? "fFeEgGaA"[dt_rnd(g, 8)] : "diouxX"[dt_rnd(g, 6)];
        unsigned l = flt ? 0 : dt_rnd(g, 4);
        const char *len = flt ? (dt_rnd(g, 2) ? "hl" : "l") : l ? int_lens[l].len : "hl";
        unsigned s = flt ? (len[0] == 'h' ? TY_FLOAT : TY_DOUBLE) : int_lens[l].s[dt_rnd(g, 2)];
        if ((s == TY_DOUBLE || s == TY_LONG || s == TY_ULONG) && n == 16) /* PoCL's fault 11 */
            n = 8;
        *f = dt_str(g, "%s%%%sv%u%s%c", *f, fwp(g, c, 8), n, len, c);
        ty_t t = {(uint8_t)s, (uint8_t)n};
        e = flt ? float_arg(g, t) : dt_expr(g, t, 1);
    } else if (r == 10) { /* a string literal */
        *f = dt_str(g, "%s%%%ss", *f, fwp(g, 's', 8));
        const char *str = strs[dt_rnd(g, sizeof strs / sizeof strs[0])];
        e = (ex){dt_str(g, "\"%s\"", str), dt_str(g, "\"%s\"", str)};
    } else {
        *f = dt_str(g, "%s%%%%", *f);
    }
    if (e.cl) {
        a->cl = dt_str(g, "%s, %s", a->cl, e.cl);
        a->ir = dt_str(g, "%s, %s", a->ir, e.ir);
    }
}

/* A printf of one to three conversions (every conversion but %p, whose
 * text is the implementation's), each line beginning with the kernel's
 * name and the work-item's gid, by which the outputs are compared. */
dt_stmt *dt_sync_printf(gen *g)
{
    char *f = dt_str(g, "%c:%%lu:", DT_NAME_MARK);
    ex a = {"", ""};
    for (unsigned i = 0, n = 1 + dt_rnd(g, 3); i < n; i++) {
        f = dt_str(g, "%s ", f);
        conversion(g, &f, &a);
    }
    g->k->prints = true;
    return dt_line(g, dt_str(g, "printf(\"%s\\n\", gid%s);", f, a.cl),
                   dt_str(g, "printf(\"%s\\n\", gid%s)", f, a.ir));
}

/* Lines run by the group's first work-item, in a block of each
 * language's form. */
static void by_first(gen *g, char **cl, char **ir, char **lcl, char **lir, int n)
{
    const char *L = lid(g);
    *cl = dt_str(g, "%sif (%s == 0) {", *cl, L);
    *ir = dt_str(g, "%sif %s == 0", *ir, L);
    for (int i = 0; i < n; i++) {
        *cl = dt_str(g, "%s\n    %s", *cl, lcl[i]);
        *ir = dt_str(g, "%s\n    %s", *ir, lir[i]);
    }
    *cl = dt_str(g, "%s\n}", *cl);
    *ir = dt_str(g, "%s\nend", *ir);
}

/* The statement of n lines by the first work-item (kept by the shrinker),
 * with a barrier after them (the prologue) or before (the epilogue). */
static dt_stmt *first_block(gen *g, char **lcl, char **lir, int n, bool pro)
{
    if (!n)
        return NULL;
    char *cl = pro ? "" : "barrier(CLK_LOCAL_MEM_FENCE);\n";
    char *ir = pro ? "" : "barrier(CLK_LOCAL_MEM_FENCE)\n";
    by_first(g, &cl, &ir, lcl, lir, n);
    if (pro) {
        cl = dt_str(g, "%s\nbarrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);", cl);
        ir = dt_str(g, "%s\nbarrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)", ir);
    }
    dt_stmt *s = dt_line(g, cl, ir);
    s->keep = true;
    return s;
}

dt_stmt *dt_sync_prologue(gen *g)
{
    return first_block(g, g->sy.init_cl, g->sy.init_ir, g->sy.ninit, true);
}

dt_stmt *dt_sync_epilogue(gen *g)
{
    return first_block(g, g->sy.out_cl, g->sy.out_ir, g->sy.nout, false);
}
