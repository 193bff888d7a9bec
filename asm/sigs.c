/* The built-ins' signatures in words, from the tables the assembler uses
 * (asm/asmint.h's ASM_FUNCS, stdlib/mathfn.h's MATHFNS and shapes): the
 * REPL's help and the list of built-ins in docs/ir.md. */
#include "asm/sigs.h"

#include <stdarg.h>
#include <string.h>

#include "asm/asmint.h"

/* The gentype T of each domain, in words. */
static const char *const gentype[] = {
    [MFD_FLT] = "half, float or double", [MFD_F32] = "float",
    [MFD_INT] = "any integer type", [MFD_I32] = "int or uint",
    [MFD_NRW] = "char, uchar, short, ushort, int or uint",
    [MFD_SGN] = "char, short, int or long",
    [MFD_UNS] = "ushort, uint or ulong",
    [MFD_ANY] = "any type, half too",
    [MFD_ALL] = "any type, half too"};

/* The widths T takes, by shape. */
static const char *widths(const mathfn_info *m)
{
    switch (m->shape) {
    case MFS_RED:
        return m->dom == MFD_SGN ? "n = 1, 2, 3, 4, 8, 16"
                                 : "n = 1, 2, 3, 4";
    case MFS_VEC: return m->nargs == 2 ? "n = 3, 4" : "n = 1, 2, 3, 4";
    case MFS_SHUF: return "n, m = 2, 4, 8, 16";
    default: return "n = 1, 2, 3, 4, 8, 16";
    }
}

/* The operand list "T x, T y, T z" of the first k of a math row, with
 * the types the shape gives (a, b: the words for operands 1 and 2). */
static void operands(char *buf, size_t len, unsigned k, const char *a,
                     const char *b, const char *c)
{
    const char *t[3] = {a, b, c}, *nm[3] = {"x", "y", "z"};
    size_t at = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < k && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s %s", i ? ", " : "",
                               t[i], nm[i]);
}

/* snprintf that may cut the text short (the buffers are ample). */
static void put(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* One math row's signatures, in words. */
static void math_sig(const mathfn_info *m, const char *name, bool out,
                     char *buf, size_t len)
{
    char ops[96];
    unsigned k = m->nargs;
    switch (m->shape) {
    case MFS_SAME:
        operands(ops, sizeof ops, k, "T", "T", "T");
        put(buf, len, "T %s(%s)%s", name, ops,
                 k > 1 ? " (a scalar operand meets vectors broadcast)" : "");
        break;
    case MFS_MASK:
        operands(ops, sizeof ops, k, "T", "T", "T");
        put(buf, len, "int %s(%s) for scalar T; for vectors the signed "
                 "integer vector of T's element size (-1/0)", name, ops);
        break;
    case MFS_UTYP:
        operands(ops, sizeof ops, k, "T", "T", "T");
        put(buf, len, "U %s(%s); U the unsigned T", name, ops);
        break;
    case MFS_UTOF:
        put(buf, len, "F %s(T code); F float for uint, double for "
                 "ulong (n)", name);
        break;
    case MFS_ARGI:
        put(buf, len, "T %s(T x, intn k), T %s(T x, int k)", name, name);
        break;
    case MFS_ARGN: put(buf, len, "T %s(T x, intn y)", name); break;
    case MFS_ILOG: put(buf, len, "intn %s(T x)", name); break;
    case MFS_PTR:
    case MFS_PTRI: {
        const char *o = m->shape == MFS_PTR ? "T" : "intn";
        operands(ops, sizeof ops, k, "T", "T", "T");
        if (out)
            put(buf, len, "%s %s(%s): the value %.*s stores", o, name,
                     ops, (int)(strlen(name) - 4), name);
        else
            put(buf, len, "T %s(%s, global/local/private %s *p); "
                     "%s(%s) alone gives the value only, %s_out(%s) what "
                     "it stores", name, ops, o, name, ops, name, ops);
        break;
    }
    case MFS_WIDE:
        put(buf, len, "W %s(T hi, U lo); U the unsigned T, W twice as "
                 "wide with T's sign (short for char, ...)", name);
        break;
    case MFS_RED:
        operands(ops, sizeof ops, k, "T", "T", "T");
        put(buf, len, "%s %s(%s)", m->dom == MFD_SGN ? "int" : "E",
                 name, ops);
        if (m->dom != MFD_SGN)
            put(buf + strlen(buf), len - strlen(buf), "; E T's element");
        break;
    case MFS_VEC:
        operands(ops, sizeof ops, k, "T", "T", "T");
        put(buf, len, "T %s(%s)", name, ops);
        break;
    default:
        put(buf, len, "Tm %s(Tn x%s, Um mask); Um unsigned, of T's "
                 "element size", name, k == 3 ? ", Tn y" : "");
        break;
    }
}

static int find(const char *name)
{
    for (int i = 0; i < F_COUNT; i++)
        if (!strcmp(asm_fns[i].name, name))
            return i;
    return -1;
}

/* Signature, T's types and what it does, for asm_fns[f]. */
static void describe(int f, char *sig, size_t slen, const char **types,
                     const char **doc, const char **acc, char accbuf[128],
                     int *oc)
{
    const asm_fninfo *fi = &asm_fns[f];
    *acc = NULL, *types = NULL;
    if (fi->mf < 0) {
        snprintf(sig, slen, "%s", fi->sig);
        *doc = fi->doc;
        oc[0] = fi->oc[0], oc[1] = fi->oc[1], oc[2] = fi->oc[2];
        return;
    }
    enum mathfn mf = (enum mathfn)(fi->mf & (ASM_MF_OUT - 1));
    const mathfn_info *m = &mathfns[mf];
    math_sig(m, fi->name, fi->mf & ASM_MF_OUT, sig, slen);
    *types = gentype[m->dom];
    *doc = m->doc;
    *acc = mathfn_accuracy(mf, accbuf);
    bool flt = m->dom == MFD_FLT || m->dom == MFD_F32;
    bool ints = m->dom != MFD_FLT && m->dom != MFD_F32;
    oc[0] = flt || !ints || m->dom == MFD_ANY || m->dom == MFD_ALL
                ? m->oc[0] : -1;
    oc[1] = ints ? m->oc[0] : -1;
    oc[2] = ints ? m->oc[1] : -1;
}

/* "OpenCL.std 98 (float), 158 (signed), 159 (unsigned)", or one number
 * when they agree; "" when there is none. */
static void ocl_text(const int *oc, char *buf, size_t len, const char *pre)
{
    static const char *const kind[] = {"float", "signed", "unsigned"};
    int first = -1;
    bool same = true;
    for (int i = 0; i < 3; i++)
        if (oc[i] >= 0) {
            same &= first < 0 || oc[i] == oc[first];
            first = first < 0 ? i : first;
        }
    buf[0] = 0;
    if (first < 0)
        return;
    if (same) {
        put(buf, len, "%s%d", pre, oc[first]);
        return;
    }
    size_t at = 0;
    for (int i = 0; i < 3 && at < len; i++)
        if (oc[i] >= 0)
            at += (size_t)snprintf(buf + at, len - at, "%s%d (%s)",
                                   at ? ", " : pre, oc[i], kind[i]);
}

bool asm_builtin_help(const char *name, FILE *out)
{
    int f = find(name);
    if (f < 0)
        return false;
    char sig[320], acc[128];
    const char *types, *doc, *a;
    int oc[3];
    describe(f, sig, sizeof sig, &types, &doc, &a, acc, oc);
    fprintf(out, "%s\n  %s\n", sig, doc);
    if (types)
        fprintf(out, "  T: %s; %s\n", types,
                widths(&mathfns[asm_fns[f].mf & (ASM_MF_OUT - 1)]));
    if (a)
        fprintf(out, "  accuracy: %s\n", a);
    char ocs[96];
    ocl_text(oc, ocs, sizeof ocs, "OpenCL.std ");
    if (*ocs)
        fprintf(out, "  %s\n", ocs);
    return true;
}

/* The families of stdlib/builtin.h (their names carry the type). */
static const char *const family[BI_NKIND][3] = {
    [BI_CONVERT] = {"D convert_D[_sat][_rte\\|_rtz\\|_rtp\\|_rtn](S x); D, S any "
                    "types of one width", "x converted (see Conversions)",
                    "rounded as named (default: toward zero to integers, "
                    "to nearest to floats)"},
    [BI_AS] = {"D as_D(S x); D, S any types of one size",
               "x's bits read as D"},
    [BI_VLOAD] = {"Tn vloadn(size_t i, const T *p); n = 2, 3, 4, 8, 16",
                  "p[i*n] ... p[i*n + n - 1]"},
    [BI_VSTORE] = {"void vstoren(Tn v, size_t i, T *p)",
                   "v into p[i*n] ... p[i*n + n - 1]"},
    [BI_VLOAD_HALF] = {"floatn vload_halfn(size_t i, const half *p)",
                       "halves read as floats"},
    [BI_VLOADA_HALF] = {"floatn vloada_halfn(size_t i, const half *p)",
                        "the same, aligned to the vector (3: to 4)"},
    [BI_VSTORE_HALF] = {"void vstore_halfn[_rtX](floatn/doublen v, size_t i, "
                        "half *p)", "v rounded to halves", "rounded as named (default: "
                        "to nearest even)"},
    [BI_VSTOREA_HALF] = {"void vstorea_halfn[_rtX](floatn/doublen v, "
                         "size_t i, half *p)", "the same, aligned"},
};

void asm_builtins_md(FILE *out)
{
    fputs("| built-in | signatures (T: the types) | what it gives | "
          "accuracy | OpenCL.std |\n|---|---|---|---|---|\n", out);
    for (int k = 0; k < BI_NKIND; k++) {
        char ocs[64] = "";
        for (int v = 0; v < 4; v++) {
            int oc = bi_kind_ocl((enum bi_kind)k, v >> 1, v & 1);
            if (oc >= 0)
                put(ocs + strlen(ocs), sizeof ocs - strlen(ocs), "%s%d",
                    *ocs ? ", " : "", oc);
        }
        fprintf(out, "| `%s...` | %s | %s | %s | %s |\n",
                bi_kind_prefix((enum bi_kind)k), family[k][0], family[k][1],
                family[k][2] ? family[k][2] : "exact", *ocs ? ocs : "core");
    }
    for (int f = 0; f < F_COUNT; f++) {
        char sig[320], acc[128];
        const char *types, *doc, *a;
        int oc[3];
        describe(f, sig, sizeof sig, &types, &doc, &a, acc, oc);
        fprintf(out, "| `%s` | ", asm_fns[f].name);
        for (const char *c = sig; *c; c++)
            fputs(*c == '|' ? "\\|" : (char[2]){*c, 0}, out);
        if (types)
            fprintf(out, "; T: %s; %s", types,
                    widths(&mathfns[asm_fns[f].mf & (ASM_MF_OUT - 1)]));
        fputs(" | ", out);
        for (const char *c = doc; *c; c++)
            fputs(*c == '|' ? "\\|" : (char[2]){*c, 0}, out);
        char ocs[96];
        ocl_text(oc, ocs, sizeof ocs, "");
        fprintf(out, " | %s | %s |\n", a ? a : f == F_MAD ? "two roundings "
                "(OpenCL: implementation-defined)" : f == F_FMULADD ||
                f == F_FMULADD_ACROSS ? "by profile (clvm: two roundings)"
                : f == F_FMA
                ? "correctly rounded" : "exact", *ocs ? ocs : "core");
    }
}
