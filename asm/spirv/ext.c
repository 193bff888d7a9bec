/* OpenCL.std extended instructions as clvm operations: vloadn/vstoren and
 * the half forms, mad/fma/min/max/clamp/abs/fabs/select, and the math
 * built-ins of stdlib/mathfn.h found by name (an s_ or u_ prefix gives
 * the signed or unsigned variant). An instruction clvm has no built-in
 * for is refused with its name and the source line. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"
#include "asm/optab.h"
#include "vm/printf.h"

/* The instruction set's names by number, from the Khronos grammar. */
static const char *ocl_name(uint32_t n)
{
    switch (n) {
#define OCLSTD(num, name, ops) case num: return #name;
#include "asm/spirv/oclstd.inc"
#undef OCLSTD
    }
    return NULL;
}

/* Operations with their own opcodes. X(name, base, how, args) */
#define OCL_OPS(X)                                                          \
    X(mad, MAD, 'f', 3) X(fma, FMA, 'f', 3) X(fmin, MIN, 'f', 2)             \
    X(fmax, MAX, 'f', 2) X(s_min, MIN, 's', 2) X(u_min, MIN, 'u', 2)         \
    X(s_max, MAX, 's', 2) X(u_max, MAX, 'u', 2) X(fclamp, CLAMP, 'f', 3)     \
    X(s_clamp, CLAMP, 's', 3) X(u_clamp, CLAMP, 'u', 3)                     \
    X(s_abs, ABS, 's', 1) X(u_abs, ABS, 'u', 1) X(fabs, FABS, 'f', 1)   \
    X(select, SELECT, 'f', 3)

static const struct oclop {
    const char *name;
    uint8_t base;
    char how;
    uint8_t args;
} oclops[] = {
#define X(N, B, H, A) {#N, BCB_##B, H, A},
    OCL_OPS(X)
#undef X
};

static enum ty_scalar how_of(ty_t t, char how)
{
    enum ty_scalar s = (enum ty_scalar)t.s;
    return how == 'f' ? s : how == 's' ? ty_signed_of(s) : ty_unsigned_of(s);
}

/* The n value operands into w; `extra` more (pointers) follow them. */
static void args_of(SX *x, uint32_t n, uint32_t *w, uint32_t extra)
{
    if (spv_wc(&x->m, x->at) != 5 + n + extra)
        sx_refuse(x, "OpenCL.std instruction with %u operands, %u expected",
                  spv_wc(&x->m, x->at) - 5, n + extra);
    for (uint32_t i = 0; i < n; i++)
        w[i] = sx_reg(x, 5 + i);
}

static void op(SX *x, const struct oclop *o)
{
    uint32_t w[5];
    args_of(x, o->args, w + 1, 0);
    ty_t t = sx_r(x, w[1])->type;
    ty_t rt = o->base == BCB_ABS ? TY(ty_unsigned_of((enum ty_scalar)t.s), t.n)
                                 : t;
    w[0] = sx_def(x, rt);
    sx_emit(x, (enum bc_base)o->base, how_of(t, o->how), t.n, 0, w,
            1u + o->args);
}

/* frexp, modf, fract, remquo, sincos, lgamma_r: the value the function
 * stores (MATHS with SECOND) into a temporary, and its store through the
 * pointer operand (word i), checked as every store is. */
static void ptr_out(SX *x, enum ty_scalar s, unsigned n, const mf_sig *sig,
                    const uint32_t *w, uint32_t i)
{
    uint32_t idx, base = sx_addr(x, sx_val(x, i), i, &idx);
    ty_t pt = sx_r(x, base)->type;
    if (sx_r(x, base)->kind != BC_REG_PTR || pt.n != sig->out.n ||
        ty_scalar_size((enum ty_scalar)pt.s) !=
            ty_scalar_size((enum ty_scalar)sig->out.s))
        sx_refuse(x, "a pointer output of another type");
    uint32_t m[5] = {sx_temp(x, pt), w[1], w[2], w[3], w[4]};
    sx_emit(x, BCB_MATHS, s, n, BC_F_SECOND, m, 5);
    uint32_t st[3] = {base, idx, m[0]};
    sx_emit(x, BCB_ST, ty_unsigned_of((enum ty_scalar)pt.s), pt.n, 0, st, 3);
}

/* A math built-in of stdlib/mathfn.h: elementwise (MATHn), a test
 * (FTEST, FTEST2: a mask), or a shaped one (MATHS, its types from
 * mathfn_sig; a pointer output is stored first, ptr_out). */
static void math(SX *x, int f, char how)
{
    const mathfn_info *mi = &mathfns[f];
    uint32_t w[5];
    bool out = mi->shape == MFS_PTR || mi->shape == MFS_PTRI;
    args_of(x, mi->nargs, w + 1, out);
    ty_t t = sx_r(x, w[1])->type;
    enum ty_scalar s = how_of(t, how);
    if (!mathfn_takes((enum mathfn)f, s))
        sx_refuse(x, "OpenCL.std %s of %s", mi->name,
                  ty_scalar_name((enum ty_scalar)t.s));
    enum mf_form form = mathfn_form((enum mathfn)f);
    if (form == MF_FORM_SHAPED) {
        mf_sig sig;
        const char *why = NULL;
        /* shuffle's mask, last: its width is the result's */
        unsigned mw = mi->shape == MFS_SHUF ? sx_r(x, w[mi->nargs])->type.n : 0;
        if (!mathfn_sig((enum mathfn)f, TY(s, t.n), mw, &sig, &why))
            sx_refuse(x, "OpenCL.std %s through SPIR-V%s%s", mi->name,
                      why ? ": " : " (not yet)", why ? why : "");
        if (mi->shape == MFS_SHUF)   /* SPIR-V's integers have no sign */
            w[mi->nargs] = sx_as(x, w[mi->nargs], sig.arg[mi->nargs - 1]);
        for (unsigned i = 1 + mi->nargs; i < 4; i++)
            w[i] = w[1];   /* unused operands repeat the first */
        w[4] = (uint32_t)f | mw << 16;
        if (out)   /* the pointer output first: the result may be x */
            ptr_out(x, s, t.n, &sig, w, 5 + mi->nargs);
        w[0] = sx_def(x, sig.res);
        sx_emit(x, BCB_MATHS, s, t.n, 0, w, 5);
        return;
    }
    ty_t rt = t;
    if (form == MF_FORM_TEST) {
        unsigned sz = ty_scalar_size((enum ty_scalar)t.s);
        rt = TY(sz == 4 ? TY_INT : sz == 8 ? TY_LONG : TY_SHORT, t.n);
    }
    /* nan(code): the instruction writes the floating bits into a
     * register of the code's type; the result is a floating register
     * (else a conversion of it, printf's promotion to double, would take
     * the bits for an integer) */
    bool utof = mi->shape == MFS_UTOF;
    w[0] = utof ? sx_temp(x, rt) : sx_def(x, rt);
    w[1 + mi->nargs] = (uint32_t)f;
    sx_emit(x, form == MF_FORM_TEST
                   ? (mi->nargs == 1 ? BCB_FTEST : BCB_FTEST2)
                   : (enum bc_base)(BCB_MATH1 + mi->nargs - 1),
            s, t.n, 0, w, 2u + mi->nargs);
    if (utof) {
        unsigned sz = ty_scalar_size((enum ty_scalar)t.s);
        ty_t ft = TY(sz == 2 ? TY_HALF : sz == 4 ? TY_FLOAT : TY_DOUBLE, t.n);
        uint32_t mv[2] = {sx_def(x, ft), w[0]};
        sx_emit(x, BCB_MOV, (enum ty_scalar)ft.s, ft.n, 0, mv, 2);
    }
}

/* vloadn(offset, p, n), vload_half[n](offset, p[, n]), vloada_halfn. */
static void vload(SX *x, const char *name)
{
    bool half = strstr(name, "half") != NULL;
    ty_t rt = sx_vty(x, spv_word(&x->m, x->at, 1));
    uint32_t w[3] = {0, sx_reg(x, 5), sx_reg(x, 6)};
    const bc_reg p = *sx_r(x, w[2]);   /* a copy: sx_def may move it */
    if (p.kind != BC_REG_PTR || p.type.n != 1)
        sx_refuse(x, "%s from a pointer to a vector type", name);
    w[0] = sx_def(x, half ? TY(TY_FLOAT, rt.n) : rt);
    if (half)
        sx_emit(x, BCB_VLDH, TY_UINT, rt.n,
                name[5] == 'a' ? BC_F_ALIGNED : 0, w, 3);
    else
        sx_emit(x, BCB_VLOAD, ty_unsigned_of((enum ty_scalar)p.type.s),
                rt.n, 0, w, 3);
}

/* vstoren(data, offset, p), vstore[a]_half[n][_r](data, offset, p[,mode]) */
static void vstore(SX *x, const char *name)
{
    bool half = strstr(name, "half") != NULL;
    size_t nl = strlen(name);
    bool r = nl > 2 && !strcmp(name + nl - 2, "_r");
    uint32_t w[3] = {sx_reg(x, 5), sx_reg(x, 6), sx_reg(x, 7)};
    ty_t t = sx_r(x, w[0])->type;
    if (sx_r(x, w[2])->kind != BC_REG_PTR)
        sx_refuse(x, "%s to a non-pointer", name);
    if (!half) {
        sx_emit(x, BCB_VSTORE, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0,
                w, 3);
        return;
    }
    static const enum rnd modes[4] = {RND_RTE, RND_RTZ, RND_RTP, RND_RTN};
    uint32_t mode = r ? spv_word(&x->m, x->at, 8) : 0;
    if (mode > 3)
        sx_refuse(x, "%s with rounding mode %u", name, mode);
    unsigned fl = (unsigned)modes[mode] << BC_F_RND_SHIFT |
                  (name[6] == 'a' ? BC_F_ALIGNED : 0);
    sx_emit(x, BCB_VSTH, (enum ty_scalar)t.s, t.n, fl, w, 3);
}

/* A string literal: a pointer to the first byte of a program-scope
 * constant char array (printf's format, a %s argument). Its bytes up to
 * the NUL into buf; the length, or SIZE_MAX (what is wrong in *why) if id
 * is no such pointer. */
static size_t string_lit(SX *x, uint32_t ptr, char *buf, size_t cap,
                         const char **why)
{
    spv_mod *m = &x->m;
    uint32_t c = m->def[ptr], op = spv_op(m, c);
    *why = "is not a string literal";
    if (op != SpvOpInBoundsPtrAccessChain && op != SpvOpPtrAccessChain)
        return SIZE_MAX;
    uint32_t var = spv_id(m, c, 3), vd = m->def[var];
    if (spv_op(m, vd) != SpvOpVariable || spv_wc(m, vd) < 5 ||
        spv_word(m, vd, 3) != SpvStorageClassUniformConstant)
        return SIZE_MAX;
    for (uint32_t i = 4; i < spv_wc(m, c); i++) {
        const spv_const *k = spv_const_of(m, spv_id(m, c, i));
        if (!k || k->v[0]) {
            *why = "does not start its string";
            return SIZE_MAX;
        }
    }
    uint32_t init = spv_id(m, vd, 4), id = m->def[init];
    size_t n = 0;
    if (spv_op(m, id) == SpvOpConstantNull) { /* "": its bytes are all 0 */
        buf[0] = 0;
        return 0;
    }
    if (spv_op(m, id) != SpvOpConstantComposite)
        return SIZE_MAX;
    for (uint32_t i = 3; i < spv_wc(m, id); i++) {
        const spv_const *k = spv_const_of(m, spv_id(m, id, i));
        if (!k)
            return SIZE_MAX;
        if (!(k->v[0] & 0xff))
            break;
        if (n + 1 >= cap) {
            *why = "is a string longer than clvm's printf takes";
            return SIZE_MAX;
        }
        buf[n++] = (char)(k->v[0] & 0xff);
    }
    buf[n] = 0;
    return n;
}

/* Appends len bytes of s to the format being built (its % doubled if
 * lit, text a conversion printed). */
static void append(SX *x, char *out, size_t *n, size_t cap, const char *s,
                   size_t len, bool text)
{
    for (size_t i = 0; i < len; i++) {
        if (*n + 2 >= cap)
            sx_refuse(x, "a printf format longer than %zu bytes", cap - 2);
        if (text && s[i] == '%')
            out[(*n)++] = '%';
        out[(*n)++] = s[i];
    }
    out[*n] = 0;
}

/* printf's format with each %s of a string literal formatted into it, as
 * the IR assembler does; the registers of the other arguments into w and
 * their kinds into args. Returns the format's length. */
static size_t splice(SX *x, const char *fmt, size_t len, char *out,
                     size_t cap, uint32_t *w, pf_arg *args, uint32_t *nargs)
{
    uint32_t wc = spv_wc(&x->m, x->at), next = 6, n = 0;
    size_t pos = 0, tx = 0, olen = 0;
    pf_spec sp;
    pf_error e;
    int r;
    out[0] = 0;
    while ((r = pf_next(fmt, len, &pos, &sp, &e)) == 1) {
        append(x, out, &olen, cap, fmt + tx, sp.start - tx, false);
        tx = pos;
        if (!pf_takes_arg(&sp)) {
            append(x, out, &olen, cap, "%%", 2, false);
            continue;
        }
        if (next >= wc)
            sx_refuse(x, "printf format \"%s\": '%.*s' has no argument", fmt,
                      (int)sp.len, fmt + sp.start);
        for (unsigned k = pf_nstars(&sp); k; k--) {   /* '*': an int each */
            if (next >= wc)
                break;
            uint32_t sid = spv_id(&x->m, x->at, next++);
            w[1 + n] = sx_val_reg(x, &x->fr->v[sid], sid);
            const bc_reg *rg = sx_r(x, w[1 + n]);
            args[n++] = (pf_arg){rg->kind == BC_REG_PTR ? PF_ARG_POINTER
                                                        : PF_ARG_VALUE, rg->type};
        }
        if (next >= wc)
            sx_refuse(x, "printf format \"%s\": '%.*s' has no argument", fmt,
                      (int)sp.len, fmt + sp.start);
        char str[1024], cf[PF_CFMT_MAX];
        const char *why;
        uint32_t id = spv_id(&x->m, x->at, next++);
        if (x->fr->v[id].kind == VK_NONE &&
            string_lit(x, id, str, sizeof str, &why) != SIZE_MAX) {
            char msg[160];
            if (pf_check_arg(&sp, fmt, (pf_arg){PF_ARG_STRING, {0, 1}}, msg,
                             sizeof msg))
                sx_refuse(x, "printf format \"%s\": %s", fmt, msg);
            pf_cformat(&sp, cf);
            char txt[2048];
            int k = snprintf(txt, sizeof txt, cf, str);
            append(x, out, &olen, cap, txt, k < 0 ? 0 : (size_t)k, true);
            continue;
        }
        w[1 + n] = sx_val_reg(x, &x->fr->v[id], id);
        const bc_reg *rg = sx_r(x, w[1 + n]);
        args[n++] = (pf_arg){rg->kind == BC_REG_PTR ? PF_ARG_POINTER
                                                    : PF_ARG_VALUE, rg->type};
        append(x, out, &olen, cap, fmt + sp.start, sp.len, false);
    }
    if (r < 0)
        sx_refuse(x, "printf format \"%s\": %s", fmt, e.msg);
    /* arguments past the format's are evaluated and ignored (C99
     * 7.19.6.1): the IR, stricter, has none */
    append(x, out, &olen, cap, fmt + tx, len - tx, false);
    *nargs = n;
    return olen;
}

/* printf(format, args...): PRINTF, the format checked as the assembler
 * checks it (vm/printf.c), %s of string literals spliced in; its result
 * is 0. */
static void printf_(SX *x)
{
    char fmt[4096], out[4096];
    const char *why;
    uint32_t wc = spv_wc(&x->m, x->at);
    if (wc < 6 || wc - 6 > BC_MAX_CALL_ARGS)
        sx_refuse(x, "printf with %u arguments (at most %d)", wc - 6,
                  BC_MAX_CALL_ARGS);
    size_t len = string_lit(x, spv_id(&x->m, x->at, 5), fmt, sizeof fmt,
                            &why);
    if (len == SIZE_MAX)
        sx_refuse(x, "printf's format %s", why);
    uint32_t w[1 + BC_MAX_CALL_ARGS] = {0}, n;
    pf_arg args[BC_MAX_CALL_ARGS];
    len = splice(x, fmt, len, out, sizeof out, w, args, &n);
    pf_error e;
    if (pf_check(out, len, args, n, &e))
        sx_refuse(x, "printf format \"%s\": %s", fmt, e.msg);
    uint32_t at = kb_pc(x->a) + 1;
    if (!kb_emit(x->a, op_variant(BCB_PRINTF, TY_UINT), 1, n, w, 1 + n))
        spv_fail(&x->m, x->at, "out of memory");
    char *s = malloc(len + 1);
    if (!s)
        spv_fail(&x->m, x->at, "out of memory");
    memcpy(s, out, len + 1);
    kb_format_add(x->a, at, s, len);
    ty_t rt = sx_vty(x, spv_word(&x->m, x->at, 1));
    x->fr->v[spv_word(&x->m, x->at, 2)] = sv((int32_t)sx_const(x, rt, 0),
                                             VK_REG, 0);
}

void sx_ocl(SX *x)
{
    uint32_t set = spv_id(&x->m, x->at, 3), n = spv_word(&x->m, x->at, 4);
    if (x->m.extset[set] == SE_SKIP)
        return;
    if (x->m.extset[set] != SE_OCL)
        sx_refuse(x, "an extended instruction set other than OpenCL.std");
    const char *name = ocl_name(n);
    if (!name)
        sx_refuse(x, "OpenCL.std instruction %u does not exist", n);
    for (size_t i = 0; i < sizeof oclops / sizeof oclops[0]; i++)
        if (!strcmp(oclops[i].name, name)) {
            op(x, &oclops[i]);
            return;
        }
    if (!strcmp(name, "printf")) {
        printf_(x);
        return;
    }
    if (!strcmp(name, "prefetch"))
        return;   /* a hint: no instruction (docs/ir.md) */
    if (!strncmp(name, "vload", 5)) {
        vload(x, name);
        return;
    }
    if (!strncmp(name, "vstore", 6)) {
        vstore(x, name);
        return;
    }
    char how = 'f';
    const char *base = name;
    if (!strncmp(name, "s_", 2) || !strncmp(name, "u_", 2))
        how = name[0], base = name + 2;
    int f = mathfn_find(base, strlen(base));
    if (f >= 0) {
        if (how == 'f' && mathfns[f].dom != MFD_FLT &&
            mathfns[f].dom != MFD_F32) {
            ty_t t = sx_r(x, sx_reg(x, 5))->type;
            if (!ty_is_float((enum ty_scalar)t.s))
                how = 'u';
        }
        math(x, f, how);
        return;
    }
    sx_refuse(x, "the OpenCL.std built-in '%s' is not in clvm yet", name);
}
