/* The table of stdlib/mathfn.h as data: names, domains, the types of each
 * call (mathfn_sig), how the VM runs each row, and the docs table. */
#include "stdlib/mathfn.h"

#include <string.h>

#define OC(n) {n, n}
#define OCI(s, u) {s, u}
const mathfn_info mathfns[MF_COUNT] = {
#define MF_INFO(P, E, name, args, dom, shape, unit, bf, bd, bh, oc, doc,   \
                impl)                                                       \
    [MF_##E] = {#name, args, MFD_##dom, MFS_##shape, MF_##unit,             \
                {bf, bd, bh},                                               \
                oc, doc, #impl},
    MATHFNS(MF_INFO, _)
#undef MF_INFO
};
#undef OC
#undef OCI

int mathfn_find(const char *name, size_t len)
{
    for (int f = 0; f < MF_COUNT; f++)
        if (strlen(mathfns[f].name) == len && !memcmp(mathfns[f].name, name, len))
            return f;
    return -1;
}

bool mathfn_takes(enum mathfn f, enum ty_scalar t)
{
    if ((unsigned)f >= MF_COUNT || t >= TY_NSCALAR)
        return false;
    if (t == TY_HALF)
        return mathfns[f].dom == MFD_FLT || mathfns[f].dom == MFD_ANY ||
               mathfns[f].dom == MFD_ALL;
    unsigned sz = ty_scalar_size(t);
    bool flt = ty_is_float(t), sgn = ty_is_signed(t);
    switch (mathfns[f].dom) {
    case MFD_FLT: return flt;
    case MFD_F32: return t == TY_FLOAT;
    case MFD_INT: return !flt;
    case MFD_I32: return t == TY_INT || t == TY_UINT;
    case MFD_NRW: return !flt && sz < 8;
    case MFD_SGN: return sgn;
    case MFD_UNS: return t == TY_USHORT || t == TY_UINT || t == TY_ULONG;
    default: return true;
    }
}

enum mf_form mathfn_form(enum mathfn f)
{
    switch (mathfns[f].shape) {
    case MFS_SAME: case MFS_UTYP: case MFS_UTOF: return MF_FORM_MATH;
    case MFS_MASK: return MF_FORM_TEST;
    default: return MF_FORM_SHAPED;
    }
}

static bool geometric_width(unsigned n) { return n <= 4; }
static bool pow2_width(unsigned n)
{
    return n == 2 || n == 4 || n == 8 || n == 16;
}

bool mathfn_sig(enum mathfn f, ty_t t, unsigned m, mf_sig *s,
                const char **why)
{
    static const enum ty_scalar wide[] = {
        [TY_CHAR] = TY_SHORT, [TY_UCHAR] = TY_USHORT, [TY_SHORT] = TY_INT,
        [TY_USHORT] = TY_UINT, [TY_INT] = TY_LONG, [TY_UINT] = TY_ULONG};
    const char *w = NULL;
    if ((unsigned)f >= MF_COUNT || !ty_valid_width(t.n) ||
        !mathfn_takes(f, (enum ty_scalar)t.s)) {
        *why = "type";
        return false;
    }
    const mathfn_info *mi = &mathfns[f];
    ty_t in = {TY_INT, t.n};
    *s = (mf_sig){t, {t, t, t}, {0, 0}};
    for (unsigned i = mi->nargs; i < 3; i++)
        s->arg[i] = (ty_t){0, 0};
    switch (mi->shape) {
    case MFS_MASK: s->res = ty_signed(t); break;
    case MFS_UTYP: s->res = ty_unsigned(t); break;
    case MFS_UTOF:
        s->res = (ty_t){t.s == TY_USHORT ? TY_HALF
                        : t.s == TY_UINT ? TY_FLOAT : TY_DOUBLE, t.n};
        break;
    case MFS_ARGI: case MFS_ARGN: s->arg[1] = in; break;
    case MFS_ILOG: s->res = in; break;
    case MFS_PTR: s->out = t; break;
    case MFS_PTRI: s->out = in; break;
    case MFS_WIDE:
        s->arg[1] = ty_unsigned(t);
        s->res = (ty_t){(uint8_t)wide[t.s], t.n};
        break;
    case MFS_RED:
        if (ty_is_float((enum ty_scalar)t.s) && !geometric_width(t.n))
            w = "width";
        s->res = (ty_t){ty_is_float((enum ty_scalar)t.s) ? t.s : TY_INT, 1};
        break;
    case MFS_VEC:
        if (!geometric_width(t.n) || (mi->nargs == 2 && t.n < 3))
            w = "width";
        break;
    case MFS_SHUF:
        if (!pow2_width(t.n) || !pow2_width(m))
            w = "width";
        s->arg[mi->nargs - 1] = (ty_t){ty_scalar_size((enum ty_scalar)t.s) == 1
                                           ? TY_UCHAR
                                       : ty_scalar_size((enum ty_scalar)t.s) == 2
                                           ? TY_USHORT
                                       : ty_scalar_size((enum ty_scalar)t.s) == 4
                                           ? TY_UINT : TY_ULONG, (uint8_t)m};
        s->res = (ty_t){t.s, (uint8_t)m};
        break;
    default: break;
    }
    if (w) {
        *why = w;
        return false;
    }
    return true;
}

/* One bound as text: "<= 3 ulp", "correctly rounded", "exact", ... */
static void bound_text(const mathfn_info *m, int k, char buf[32])
{
    double b = m->bound[k];
    if (m->unit == MF_EXACT || (m->unit == MF_ULP && b == 0))
        snprintf(buf, 32, "exact");
    else if (m->unit == MF_SPEC)
        snprintf(buf, 32, "OpenCL's bound (see docs)");
    else if (m->unit == MF_ABS)
        snprintf(buf, 32, "abs. error <= %g", b);
    else if (b == 0.5)
        snprintf(buf, 32, "correctly rounded");
    else if (b > 1e300)
        snprintf(buf, 32, "undefined (see below)");
    else
        snprintf(buf, 32, "<= %g ulp", b);
}

const char *mathfn_accuracy(enum mathfn f, char buf[128])
{
    const mathfn_info *m = &mathfns[f];
    char acc[3][32];
    for (int k = 0; k < 3; k++)
        bound_text(m, k, acc[k]);
    if (m->dom != MFD_FLT ||
        (!strcmp(acc[0], acc[1]) && !strcmp(acc[0], acc[2])))
        snprintf(buf, 128, "%s", acc[0]);
    else if (!strcmp(acc[0], acc[1]))
        snprintf(buf, 128, "float, double %s; half %s", acc[0], acc[2]);
    else
        snprintf(buf, 128, "float %s, double %s, half %s", acc[0], acc[1],
                 acc[2]);
    return buf;
}

void mathfn_write_md(FILE *out)
{
    static const char *const dom[] = {
        "half, float, double", "float", "integers", "int, uint",
        "char ... uint", "signed integers", "ushort, uint, ulong",
        "every type", "every type"};
    static const char *const shape[] = {
        "", "; gives 1/0 (scalar), -1/0 (vector)", "; gives the unsigned type",
        "; gives the float type of its size", "; second operand int(n)",
        "; second operand intn", "; gives int(n)",
        "; second result through a pointer",
        ("; int(n) result through a pointer"), "; gives the type twice as wide", "; gives a scalar",
        "; whole vectors", "; mask picks elements"};
    fputs("| function | operands | accuracy | computed as |\n"
          "|---|---|---|---|\n", out);
    for (int f = 0; f < MF_COUNT; f++) {
        const mathfn_info *m = &mathfns[f];
        char acc[128];
        fprintf(out, "| `%s` | %d, %s%s | %s", m->name, m->nargs,
                dom[m->dom], shape[m->shape],
                mathfn_accuracy((enum mathfn)f, acc));
        /* a | inside a table cell needs its backslash, code or not */
        fputs(" | `", out);
        for (const char *c = m->impl; *c; c++)
            fputs(*c == '|' ? "\\|" : (char[2]){*c, 0}, out);
        fputs("` |\n", out);
    }
}
