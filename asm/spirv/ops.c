/* The core SPIR-V instructions of an OpenCL C kernel as clvm operations:
 * arithmetic, bitwise, shifts, comparisons, OpSelect, conversions (with
 * their FPRoundingMode and SaturatedConversion decorations), OpBitcast,
 * vector composites, loads and stores, pointer arithmetic, built-in
 * variables and barriers. SPIR-V integers have no sign: the opcode says
 * how to read them, and clvm's instruction variant follows it (registers
 * are signed unless the operation that made them was unsigned). */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"
#include "stdlib/mathfn.h"
#include "stdlib/convert.h"

/* Binary operations. X(opcode, base, how, mask result):
 * how  b: sign-agnostic integer, s: signed, u: unsigned, f: floating.
 * An unordered comparison is the negation of the ordered opposite. */
#define BINOPS(X)                                                          \
    X(IAdd, ADD, 'b', 0) X(ISub, SUB, 'b', 0) X(IMul, MUL, 'b', 0)         \
    X(FAdd, ADD, 'f', 0) X(FSub, SUB, 'f', 0) X(FMul, MUL, 'f', 0)         \
    X(FDiv, DIV, 'f', 0) X(SDiv, DIV, 's', 0) X(UDiv, DIV, 'u', 0)         \
    X(SRem, REM, 's', 0) X(UMod, REM, 'u', 0)                              \
    X(BitwiseAnd, AND, 'b', 0) X(BitwiseOr, OR, 'b', 0)                    \
    X(BitwiseXor, XOR, 'b', 0) X(ShiftLeftLogical, SHL, 'b', 0)            \
    X(ShiftRightLogical, SHR, 'u', 0) X(ShiftRightArithmetic, SHR, 's', 0) \
    X(IEqual, EQ, 'u', 1) X(INotEqual, NE, 'u', 1)                         \
    X(SLessThan, LT, 's', 1) X(SLessThanEqual, LE, 's', 1)                 \
    X(SGreaterThan, GT, 's', 1) X(SGreaterThanEqual, GE, 's', 1)           \
    X(ULessThan, LT, 'u', 1) X(ULessThanEqual, LE, 'u', 1)                 \
    X(UGreaterThan, GT, 'u', 1) X(UGreaterThanEqual, GE, 'u', 1)           \
    X(FOrdEqual, EQ, 'f', 1) X(FUnordNotEqual, NE, 'f', 1)                 \
    X(FOrdLessThan, LT, 'f', 1) X(FOrdLessThanEqual, LE, 'f', 1)           \
    X(FOrdGreaterThan, GT, 'f', 1) X(FOrdGreaterThanEqual, GE, 'f', 1)     \
    X(FUnordLessThan, GE, 'f', 2) X(FUnordLessThanEqual, GT, 'f', 2)       \
    X(FUnordGreaterThan, LE, 'f', 2) X(FUnordGreaterThanEqual, LT, 'f', 2) \
    X(LogicalAnd, LAND, 'u', 1) X(LogicalOr, LOR, 'u', 1)                  \
    X(LogicalEqual, EQ, 'u', 1) X(LogicalNotEqual, NE, 'u', 1)

static const struct binop {
    uint16_t op;
    uint8_t base;
    char how;
    uint8_t mask;         /* 1: a comparison, 2: negated */
} binops[] = {
#define X(O, B, H, M) {SpvOp##O, BCB_##B, H, M},
    BINOPS(X)
#undef X
};

/* The scalar a variant is chosen by: of type t's size, read as `how`. */
static enum ty_scalar as_how(ty_t t, char how)
{
    enum ty_scalar s = (enum ty_scalar)t.s;
    if (how == 'f')
        return s;
    return how == 's' ? ty_signed_of(s) : ty_unsigned_of(s);
}

/* The mask type of a comparison of operands of type t. */
static ty_t mask_of(ty_t t)
{
    enum ty_scalar s = (enum ty_scalar)t.s;
    unsigned size = ty_scalar_size(s);
    return TY(size == 1 ? TY_CHAR : size == 2 ? TY_SHORT
              : size == 4 ? TY_INT : TY_LONG, t.n);
}

/* Operand b of a binary op on a: the same element size as a (truth values
 * and shift counts may differ). */
static uint32_t like(SX *x, uint32_t b, uint32_t a)
{
    ty_t ta = sx_r(x, a)->type, tb = sx_r(x, b)->type;
    if (ta.n != tb.n || sx_r(x, a)->kind != BC_REG_VALUE ||
        sx_r(x, b)->kind != BC_REG_VALUE)
        sx_refuse(x, "the operands of %s differ in shape",
                  spv_opname(spv_op(&x->m, x->at)));
    if (ty_scalar_size((enum ty_scalar)ta.s) ==
        ty_scalar_size((enum ty_scalar)tb.s))
        return b;
    return sx_as(x, b, TY(ty_is_float((enum ty_scalar)ta.s) ? tb.s
                          : ty_is_signed((enum ty_scalar)tb.s)
                          ? ty_signed_of((enum ty_scalar)ta.s)
                          : ty_unsigned_of((enum ty_scalar)ta.s), tb.n));
}

static void lnot(SX *x, uint32_t d, uint32_t a)
{
    ty_t t = sx_r(x, a)->type;
    uint32_t w[2] = {d, a};
    sx_emit(x, BCB_LNOT, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w, 2);
}

static void binary(SX *x, const struct binop *o)
{
    uint32_t a = sx_reg(x, 3), b = like(x, sx_reg(x, 4), a);
    ty_t t = sx_r(x, a)->type;
    if (ty_is_float((enum ty_scalar)t.s) != (o->how == 'f'))
        sx_refuse(x, "internal error: operand kind of opcode %u",
                  spv_op(&x->m, x->at));
    /* equality reads the registers as they are (the same bits either way) */
    enum ty_scalar vs = (o->base == BCB_EQ || o->base == BCB_NE) &&
                        o->how == 'u' ? (enum ty_scalar)t.s : as_how(t, o->how);
    /* NoSignedWrap: OpenCL C's signed arithmetic, whose overflow is
     * undefined (the OVERFLOW note); without it the operation wraps. */
    bool nsw = x->m.deco[spv_word(&x->m, x->at, 2)].nsw && o->how == 'b' &&
               (o->base == BCB_ADD || o->base == BCB_SUB ||
                o->base == BCB_MUL);
    ty_t rt = o->mask ? mask_of(t)
              : o->how == 'u' ? TY(ty_unsigned_of((enum ty_scalar)t.s), t.n)
              : sx_vty(x, spv_word(&x->m, x->at, 1));
    /* bit operations keep their operand's type; + - * without
     * NoSignedWrap are OpenCL C's unsigned ones */
    if (o->how == 'b' && !o->mask)
        rt = (o->base == BCB_ADD || o->base == BCB_SUB ||
              o->base == BCB_MUL) && !nsw ? ty_unsigned(t)
             : o->base == BCB_ADD || o->base == BCB_SUB || o->base == BCB_MUL
             ? ty_signed(t) : t;
    uint32_t d = sx_def(x, rt);
    uint32_t w[3] = {o->mask == 2 ? sx_temp(x, rt) : d, a, b};
    sx_emit(x, (enum bc_base)o->base, vs, t.n, nsw ? BC_F_SIGNED : 0, w, 3);
    if (o->mask == 2)
        lnot(x, d, w[0]);
}

/* a != b ordered: a < b || a > b; its negation, unordered ==. */
static void ord_ne(SX *x, bool neg)
{
    uint32_t a = sx_reg(x, 3), b = sx_reg(x, 4);
    ty_t t = sx_r(x, a)->type, mt = mask_of(t);
    uint32_t d = sx_def(x, mt), l = sx_temp(x, mt), g = sx_temp(x, mt);
    uint32_t w[3] = {l, a, b};
    sx_emit(x, BCB_LT, (enum ty_scalar)t.s, t.n, 0, w, 3);
    w[0] = g;
    sx_emit(x, BCB_GT, (enum ty_scalar)t.s, t.n, 0, w, 3);
    w[0] = neg ? l : d, w[1] = l, w[2] = g;
    sx_emit(x, BCB_OR, ty_unsigned_of((enum ty_scalar)mt.s), t.n, 0, w, 3);
    if (neg)
        lnot(x, d, l);
}

static void unary(SX *x, enum bc_base base, char how)
{
    uint32_t a = sx_reg(x, 3);
    ty_t t = sx_r(x, a)->type;
    bool nsw = base == BCB_NEG && how == 'b' &&
               x->m.deco[spv_word(&x->m, x->at, 2)].nsw;
    uint32_t w[2] = {sx_def(x, base == BCB_LNOT ? t : sx_vty(x,
                                spv_word(&x->m, x->at, 1))), a};
    sx_emit(x, base, as_how(t, how), t.n, nsw ? BC_F_SIGNED : 0, w, 2);
}

/* OpIsNan ... : FTEST with the math table's relational functions. */
static void ftest(SX *x, enum mathfn f)
{
    uint32_t a = sx_reg(x, 3);
    ty_t t = sx_r(x, a)->type;
    uint32_t w[3] = {sx_def(x, mask_of(t)), a, (uint32_t)f};
    sx_emit(x, BCB_FTEST, (enum ty_scalar)t.s, t.n, 0, w, 3);
}

/* OpOrdered, OpUnordered: FTEST2 (isordered, isunordered). */
static void ftest2(SX *x, enum mathfn f)
{
    uint32_t a = sx_reg(x, 3), b = sx_reg(x, 4);
    ty_t t = sx_r(x, a)->type;
    uint32_t w[4] = {sx_def(x, mask_of(t)), a, b, (uint32_t)f};
    sx_emit(x, BCB_FTEST2, (enum ty_scalar)t.s, t.n, 0, w, 4);
}

/* OpBitCount: popcount, elementwise, of the operand's type. */
static void bitcount(SX *x)
{
    uint32_t a = sx_reg(x, 3);
    ty_t t = sx_r(x, a)->type;
    uint32_t w[3] = {sx_def(x, t), a, (uint32_t)MF_POPCOUNT};
    sx_emit(x, BCB_MATH1, (enum ty_scalar)t.s, t.n, 0, w, 3);
}

/* ---- conversions ---- */

static void convert(SX *x, char src, char dst, bool sat)
{
    uint32_t a = sx_reg(x, 3), id = spv_word(&x->m, x->at, 2);
    ty_t st = sx_r(x, a)->type, rt = sx_vty(x, spv_word(&x->m, x->at, 1));
    if (src != 'f')
        st.s = (uint8_t)as_how(st, src);
    if (dst != 'f')
        rt.s = (uint8_t)as_how(rt, dst);
    /* Narrowing keeps the low bits whatever the signs: the source as it
     * is, into the signed type (OpenCL C's (int)l more often than not). */
    if (src == dst && src != 'f' && !sat && !x->m.deco[id].sat &&
        ty_scalar_size((enum ty_scalar)rt.s) <
            ty_scalar_size((enum ty_scalar)st.s)) {
        st = sx_r(x, a)->type;
        rt.s = (uint8_t)ty_signed_of((enum ty_scalar)rt.s);
    }
    a = sx_as(x, a, st);
    const spv_deco *dc = &x->m.deco[id];
    sat |= dc->sat;
    enum ty_scalar ds = (enum ty_scalar)rt.s, ss = (enum ty_scalar)st.s;
    if (sat && !cv_legal(ds, true))
        sx_refuse(x, "SaturatedConversion to a floating type");
    static const enum rnd modes[4] = {RND_RTE, RND_RTZ, RND_RTP, RND_RTN};
    bool spelled = dc->rnd >= 0;
    enum rnd r = spelled ? modes[dc->rnd] : cv_default_round(ds);
    uint32_t d = sx_def(x, rt), tmp = d;
    ty_t dt = sx_r(x, d)->type;   /* a variable's, if computed into one */
    if (dt.s != rt.s) {
        bool any = !sat && !ty_is_float(ds) && !ty_is_float(ss) &&
                   ty_scalar_size(ds) < ty_scalar_size(ss);
        if (any)   /* narrowing an integer keeps the low bits: either sign */
            ds = (enum ty_scalar)dt.s, r = cv_default_round(ds);
        else
            tmp = sx_temp(x, rt);
    }
    uint32_t w[3] = {tmp, a, BC_CVT(ds, ss, sat, r, spelled)};
    sx_emit(x, BCB_CVT, TY_UINT, rt.n, 0, w, 3);
    if (tmp != d) {
        uint32_t m[2] = {d, tmp};
        sx_emit(x, BCB_MOV, ty_unsigned_of(ds), rt.n, 0, m, 2);
    }
}

static void bitcast(SX *x)
{
    uint32_t tid = spv_word(&x->m, x->at, 1);
    const spv_type *t = spv_typ(&x->m, x->at, tid);
    if (t->kind == SK_PTR) {
        /* a view: loads and stores through it convert (float3 as float4) */
        spv_val v = *sx_val(x, 3);
        if (v.kind != VK_VAR && v.kind != VK_REG && v.kind != VK_CHAIN &&
            v.kind != VK_CINIT)
            sx_refuse(x, "a cast of this pointer is not supported yet");
        v.view = t->elem;
        x->fr->v[spv_word(&x->m, x->at, 2)] = v;
        return;
    }
    uint32_t a = sx_reg(x, 3);
    ty_t st = sx_r(x, a)->type, rt = t->ty;
    if (ty_sizeof(st) != ty_sizeof(rt) && !(st.n == 3 || rt.n == 3))
        sx_refuse(x, "as_type between sizes");
    uint32_t w[2] = {sx_def(x, rt), a};
    if (st.n == rt.n && ty_scalar_size((enum ty_scalar)st.s) ==
                        ty_scalar_size((enum ty_scalar)rt.s))
        sx_emit(x, BCB_MOV, (enum ty_scalar)rt.s, rt.n, 0, w, 2);
    else
        sx_emit(x, BCB_AS, TY_UINT, rt.n, 0, w, 2);
}

/* OpSelect c a b: c ? a : b, clvm's select(b, a, c). */
static void select_(SX *x)
{
    uint32_t c = sx_reg(x, 3), a = sx_reg(x, 4), b = sx_reg(x, 5);
    const bc_reg *ra = sx_r(x, a);
    if (ra->kind != BC_REG_VALUE) {
        sx_select_ptr(x, c, a, b);
        return;
    }
    ty_t t = ra->type, ct = sx_r(x, c)->type;
    ty_t want = TY(ty_signed_of(mask_of(t).s), ct.n);
    if (ct.n != t.n)
        sx_refuse(x, "OpSelect with a scalar condition on vectors");
    c = ty_scalar_size((enum ty_scalar)ct.s) ==
        ty_scalar_size((enum ty_scalar)want.s) ? c : sx_as(x, c, want);
    uint32_t w[4] = {sx_def(x, t), b, a, c};
    sx_emit(x, BCB_SELECT, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w, 4);
}

/* ---- vectors ---- */

static void swz(SX *x, uint32_t d, uint32_t a, const uint32_t *sel,
                unsigned n, bool write)
{
    uint64_t z = 0;
    for (unsigned k = 0; k < n; k++)
        z |= (uint64_t)(sel[k] & 15) << 4 * k;
    ty_t t = sx_r(x, write ? d : a)->type;
    uint32_t w[4] = {d, a, (uint32_t)z, (uint32_t)(z >> 32)};
    sx_emit(x, write ? BCB_SWW : BCB_SWZ, ty_unsigned_of((enum ty_scalar)t.s),
            n, 0, w, 4);
}

static uint32_t count_of(SX *x, uint32_t reg) { return sx_r(x, reg)->type.n; }

static void extract(SX *x)
{
    spv_val *v = sx_val(x, 3);
    uint32_t k = spv_word(&x->m, x->at, 4);
    if (spv_wc(&x->m, x->at) != 5)
        sx_refuse(x, "composite extraction from arrays and structs is not "
                  "supported yet");
    if (v->kind == VK_BVEC) {
        static const uint8_t bases[] = {BCB_GID, BCB_LID, BCB_GRP, BCB_GSZ,
                                        BCB_LSZ, BCB_NGRP, BCB_GOFF};
        ty_t rt = sx_vty(x, spv_word(&x->m, x->at, 1));
        rt.s = (uint8_t)ty_unsigned_of((enum ty_scalar)rt.s);   /* size_t */
        uint32_t w[2] = {sx_def(x, rt), k};
        if (k > 2) {   /* past dimension 2: 0 for ids and offsets, 1 for sizes */
            w[1] = sx_const(x, rt, v->aux >= 3 && v->aux <= 5);
            sx_emit(x, BCB_MOV, (enum ty_scalar)rt.s, 1, 0, w, 2);
            return;
        }
        sx_emit(x, (enum bc_base)bases[v->aux], (enum ty_scalar)rt.s, 1, 0,
                w, 2);
        return;
    }
    uint32_t a = sx_reg(x, 3);
    if (k >= count_of(x, a))
        sx_refuse(x, "component %u of a %u-component vector", k,
                  count_of(x, a));
    ty_t t = sx_r(x, a)->type;
    uint32_t d = sx_def(x, TY(t.s, 1));
    swz(x, d, a, &k, 1, false);
}

/* OpDot: the dot built-in, as the assembler lowers it (MATHS). */
static void dot(SX *x)
{
    uint32_t a = sx_reg(x, 3), w[5] = {0, a, sx_reg(x, 4), a, MF_DOT};
    ty_t t = sx_r(x, a)->type;
    mf_sig sig;
    const char *why = NULL;
    if (!mathfn_sig(MF_DOT, t, 0, &sig, &why))
        sx_refuse(x, "dot of this type%s%s", why ? ": " : "", why ? why : "");
    w[0] = sx_def(x, sig.res);
    sx_emit(x, BCB_MATHS, (enum ty_scalar)t.s, t.n, 0, w, 5);
}

/* OpAny / OpAll of a truth vector: its components or'd / and'd, != 0. */
static void any_all(SX *x, bool all)
{
    uint32_t a = sx_reg(x, 3);
    ty_t t = sx_r(x, a)->type, st = TY(t.s, 1);
    enum ty_scalar us = ty_unsigned_of((enum ty_scalar)t.s);
    uint32_t acc = sx_temp(x, st), e = sx_temp(x, st);
    for (uint32_t k = 0; k < t.n; k++) {
        swz(x, k ? e : acc, a, &k, 1, false);
        uint32_t w[3] = {acc, acc, e};
        if (k)
            sx_emit(x, all ? BCB_AND : BCB_OR, us, 1, 0, w, 3);
    }
    uint32_t w[3] = {sx_def(x, mask_of(st)), acc, sx_const(x, st, 0)};
    sx_emit(x, BCB_NE, us, 1, 0, w, 3);
}

/* v[i] with a run-time i: v.s0, then each component where i equals its
 * number (a built-in vector: get_global_id(i) and the like, with the
 * specification's 0, or 1 for the sizes, for i >= 3). */
static void extract_dyn(SX *x)
{
    static const uint8_t bases[] = {BCB_GID, BCB_LID, BCB_GRP, BCB_GSZ,
                                    BCB_LSZ, BCB_NGRP, BCB_GOFF};
    spv_val *v = sx_val(x, 3);
    uint32_t i = sx_reg(x, 4), n, src = 0;
    ty_t it = sx_r(x, i)->type, rt = sx_vty(x, spv_word(&x->m, x->at, 1));
    bool bvec = v->kind == VK_BVEC;
    if (bvec) {
        rt.s = (uint8_t)ty_unsigned_of((enum ty_scalar)rt.s);
        n = 3;
    } else {
        src = sx_reg(x, 3);
        n = count_of(x, src);
    }
    if (ty_is_float((enum ty_scalar)it.s) || it.n != 1)
        sx_refuse(x, "a vector index that is not a scalar integer");
    uint32_t d = sx_def(x, rt), t = sx_temp(x, rt);
    uint32_t c = sx_temp(x, TY(ty_signed_of((enum ty_scalar)it.s), 1));
    enum ty_scalar us = ty_unsigned_of((enum ty_scalar)rt.s);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t dst = k || bvec ? t : d;
        if (bvec) {
            uint32_t w[2] = {dst, k};
            sx_emit(x, (enum bc_base)bases[v->aux], us, 1, 0, w, 2);
        } else {
            swz(x, dst, src, &k, 1, false);
        }
        if (!k && !bvec)
            continue;
        if (!k) {   /* out of range: 0 for ids and offsets, 1 for sizes */
            uint32_t w[2] = {d, sx_const(x, rt, v->aux >= 3 && v->aux <= 5)};
            sx_emit(x, BCB_MOV, us, 1, 0, w, 2);
        }
        uint32_t e[3] = {c, i, sx_const(x, it, k)};
        sx_emit(x, BCB_EQ, ty_unsigned_of((enum ty_scalar)it.s), 1, 0, e, 3);
        uint32_t cc = sx_as(x, c, TY(ty_signed_of(us), 1));
        uint32_t w[4] = {d, d, t, cc};
        sx_emit(x, BCB_SELECT, us, 1, 0, w, 4);
    }
}

/* v[i] = s with a run-time i: each component takes s where i is its
 * number. */
static void insert_dyn(SX *x)
{
    uint32_t vec = sx_reg(x, 3), obj = sx_reg(x, 4), i = sx_reg(x, 5);
    ty_t t = sx_r(x, vec)->type, it = sx_r(x, i)->type, st = TY(t.s, 1);
    if (ty_is_float((enum ty_scalar)it.s) || it.n != 1 ||
        !ty_eq(sx_r(x, obj)->type, st))
        sx_refuse(x, "OpVectorInsertDynamic of mismatched operands");
    enum ty_scalar us = ty_unsigned_of((enum ty_scalar)t.s);
    uint32_t d = sx_def(x, t), e = sx_temp(x, st);
    uint32_t c = sx_temp(x, TY(ty_signed_of((enum ty_scalar)it.s), 1));
    uint32_t m[2] = {d, vec};
    sx_emit(x, BCB_MOV, us, t.n, 0, m, 2);
    for (uint32_t k = 0; k < t.n; k++) {
        uint32_t q[3] = {c, i, sx_const(x, it, k)};
        sx_emit(x, BCB_EQ, (enum ty_scalar)it.s, 1, 0, q, 3);
        swz(x, e, d, &k, 1, false);
        uint32_t w[4] = {e, e, obj, sx_as(x, c, TY(ty_signed_of(us), 1))};
        sx_emit(x, BCB_SELECT, us, 1, 0, w, 4);
        swz(x, d, e, &k, 1, true);
    }
}

static void insert(SX *x)
{
    uint32_t vid = spv_id(&x->m, x->at, 4), ud = x->m.def[vid];
    if (spv_wc(&x->m, x->at) == 6 && spv_op(&x->m, ud) == SpvOpUndef &&
        spv_word(&x->m, x->at, 5) < sx_vty(x, spv_word(&x->m, ud, 1)).n) {
        /* (T)(s) in -O0 code: insert, then shuffle component k everywhere */
        x->fr->v[spv_word(&x->m, x->at, 2)] = sv(
            (int32_t)sx_reg(x, 3), VK_SPLAT, spv_word(&x->m, x->at, 5));
        return;
    }
    uint32_t obj = sx_reg(x, 3), vec = sx_reg(x, 4);
    uint32_t k = spv_word(&x->m, x->at, 5);
    ty_t t = sx_r(x, vec)->type;
    if (spv_wc(&x->m, x->at) != 6 || k >= t.n)
        sx_refuse(x, "composite insertion other than one vector component");
    /* (T)(a, b, ...): a chain of insertions, each into the last, which
     * nothing else reads: in place */
    const uint32_t *nuse = x->fr->tmp[0];
    uint32_t vd = x->m.def[vid];
    if (nuse && nuse[vid] == 1 && !x->fr->into[vid] &&
        spv_op(&x->m, vd) == SpvOpCompositeInsert) {
        x->fr->v[spv_word(&x->m, x->at, 2)] = sv((int32_t)vec, VK_REG, 0);
        swz(x, vec, obj, &k, 1, true);
        return;
    }
    uint32_t d = sx_def(x, t), w[2] = {d, vec};
    sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w, 2);
    swz(x, d, obj, &k, 1, true);
}

static void shuffle(SX *x)
{
    spv_val *sv = sx_val(x, 3);
    uint32_t wc = spv_wc(&x->m, x->at), same = sv->kind == VK_SPLAT;
    for (uint32_t i = 5; i < wc && same; i++)
        same = spv_word(&x->m, x->at, i) == sv->aux;
    if (same && ty_valid_width(wc - 5)) {
        const bc_reg *r = sx_r(x, (uint32_t)sv->reg);
        ty_t st = r->type;
        uint32_t id = spv_word(&x->m, x->at, 2);
        /* a parameter's splat: a register the kernel's start fills, as
         * the IR's `const float4 _p1 = scale` (no instruction) */
        if (r->init == BC_INIT_PARAM && r->kind == BC_REG_VALUE &&
            !x->fr->into[id]) {
            int32_t b = kb_bcast(x->a, r->arg, TY(st.s, wc - 5));
            if (b < 0)
                sx_refuse(x, "out of memory");
            x->fr->v[id] = (spv_val){b, VK_REG, 0, 0};
            return;
        }
        uint32_t w[2] = {sx_def(x, TY(st.s, wc - 5)), (uint32_t)sv->reg};
        sx_emit(x, BCB_SPLAT, ty_unsigned_of((enum ty_scalar)st.s), wc - 5, 0,
                w, 2);
        return;
    }
    uint32_t a = sx_reg(x, 3), b = sx_reg(x, 4);
    uint32_t na = count_of(x, a), n = spv_wc(&x->m, x->at) - 5;
    ty_t t = sx_r(x, a)->type;
    if (!ty_valid_width(n))
        sx_refuse(x, "a shuffle into %u components", n);
    uint32_t d = sx_def(x, TY(t.s, n));
    for (int src = 0; src < 2; src++) {
        uint32_t sel[16], pos[16], k = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = spv_word(&x->m, x->at, 5 + i);
            if (c == 0xffffffffu)   /* undefined: take component 0 */
                c = 0;
            if ((c >= na) != src)
                continue;
            c -= src ? na : 0;
            if (c >= count_of(x, src ? b : a))
                sx_refuse(x, "shuffle component %u out of range", c);
            sel[k] = c, pos[k++] = i;
        }
        if (!k)
            continue;
        if (k == n) {
            swz(x, d, src ? b : a, sel, n, false);
            continue;
        }
        /* Through temporaries of widths clvm has (5 components: 4 + 1). */
        for (uint32_t j = 0, w; j < k; j += w) {
            w = k - j >= 16 ? 16 : k - j >= 8 ? 8 : k - j >= 4 ? 4 : k - j;
            uint32_t tmp = sx_temp(x, TY(t.s, w));
            swz(x, tmp, src ? b : a, sel + j, w, false);
            swz(x, d, tmp, pos + j, w, true);
        }
    }
}

static void construct(SX *x)
{
    ty_t rt = sx_vty(x, spv_word(&x->m, x->at, 1));
    uint32_t d = sx_def(x, rt), at = 0;
    for (uint32_t i = 3; i < spv_wc(&x->m, x->at); i++) {
        uint32_t r = sx_reg(x, i), k = count_of(x, r), pos[16];
        if (at + k > rt.n)
            sx_refuse(x, "a vector built from too many components");
        for (uint32_t c = 0; c < k; c++)
            pos[c] = at + c;
        swz(x, d, r, pos, k, true);
        at += k;
    }
}

/* ---- memory ---- */

/* d = s where the two types have one size: a 3-vector and a 4-vector of
 * one element type by components (no undefined w is read), else the
 * bits. */
static void reinterpret(SX *x, uint32_t d, uint32_t s)
{
    ty_t dt = sx_r(x, d)->type, st = sx_r(x, s)->type;
    if (ty_sizeof(dt) != ty_sizeof(st))
        sx_refuse(x, "a pointer cast between types of different sizes is not "
                  "supported yet");
    uint32_t sel[4] = {0, 1, 2, 3};
    if (dt.s == st.s && dt.n == 3 && st.n == 4) {
        swz(x, d, s, sel, 3, false);
    } else if (dt.s == st.s && dt.n == 4 && st.n == 3) {
        swz(x, d, s, sel, 3, true);
    } else if (dt.n == st.n && ty_scalar_size((enum ty_scalar)dt.s) ==
                                   ty_scalar_size((enum ty_scalar)st.s)) {
        uint32_t w[2] = {d, s};
        sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)dt.s), dt.n, 0,
                w, 2);
    } else {
        uint32_t w[2] = {d, s};
        sx_emit(x, BCB_AS, TY_UINT, dt.n, 0, w, 2);
    }
}

/* A load or store through a pointer cast: the underlying type's access
 * and a conversion. */
static void view(SX *x, spv_val *p, bool st)
{
    ty_t vt = sx_vty(x, p->view);
    uint32_t base = 0, idx = 0, under;
    if (p->kind == VK_VAR) {
        under = (uint32_t)p->reg;
    } else {
        base = sx_addr(x, p, st ? 1 : 3, &idx);
        if (sx_r(x, base)->kind != BC_REG_PTR)
            sx_refuse(x, "internal error: a cast of a non-pointer");
        under = sx_temp(x, sx_r(x, base)->type);
    }
    ty_t ut = sx_r(x, under)->type;
    uint32_t w[3] = {under, base, idx};
    if (!st) {
        if (p->kind != VK_VAR)
            sx_emit(x, BCB_LD, ty_unsigned_of((enum ty_scalar)ut.s), ut.n, 0,
                    w, 3);
        reinterpret(x, sx_def(x, vt), under);
        return;
    }
    reinterpret(x, under, sx_reg(x, 2));
    if (p->kind != VK_VAR) {
        uint32_t s[3] = {base, idx, under};
        sx_emit(x, BCB_ST, ty_unsigned_of((enum ty_scalar)ut.s), ut.n, 0, s,
                3);
    }
}

/* A load or store through pointer cast p that moves another number of
 * bytes than the underlying register's elements: through a register of
 * the cast's type. */
static spv_val *cast_ptr(SX *x, spv_val *p, uint32_t i, spv_val *tmp)
{
    if (!p->view || (p->kind != VK_REG && p->kind != VK_CHAIN) ||
        ty_sizeof(spv_memty(&x->m, x->at, p->view)) ==
        ty_sizeof(sx_r(x, (uint32_t)p->reg)->type))
        return p;
    *tmp = sv((int32_t)sx_val_reg(x, p, spv_id(&x->m, x->at, i)), VK_REG, 0);
    return tmp;
}

/* A pointer loaded from (LDP) or stored to (STP, v the register) its
 * 8-byte slot at p; a load's rtid is the pointer's type. */
static void slot(SX *x, spv_val *p, uint32_t v, bool st)
{
    uint32_t idx, base = sx_addr(x, p, st ? 1 : 3, &idx);
    const bc_reg *b = sx_r(x, base);
    uint64_t al = sx_aligned(x, st ? 3 : 4);
    if (b->kind != BC_REG_PTR || !sx_same_bits(b->type, TY(TY_ULONG, 1)) ||
        (al && al < 8))
        sx_refuse(x, "a pointer in memory that is not an aligned 8-byte "
                  "slot");
    if (!st) {
        const spv_type *pt = spv_typ(&x->m, x->at, v);
        uint32_t id = spv_word(&x->m, x->at, 2);
        uint32_t d = sx_defptr(x, id, spv_memty(&x->m, x->at, pt->elem),
                               sx_space(x, pt->space), false,
                               x->fr->hint ? x->fr->hint[id] : NULL);
        uint32_t w[3] = {d, base, idx};
        sx_emit(x, BCB_LDP, TY_UINT, 1, 0, w, 3);
        return;
    }
    uint32_t w[3] = {base, idx, v};
    sx_emit(x, BCB_STP, TY_UINT, 1, 0, w, 3);
}

/* An access's alignment: the larger of the Aligned operand's and the
 * pointer's known one (a variable's Alignment). */
static uint64_t max_al(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void load(SX *x)
{
    spv_val tmp, *p = cast_ptr(x, sx_val(x, 3), 3, &tmp);
    uint32_t rtid = spv_word(&x->m, x->at, 1);
    if (spv_is_agg(&x->m, rtid))
        sx_refuse(x, "a struct or array loaded as one value is not "
                  "supported (copy it, or read its members)");
    if (p->view) {
        view(x, p, false);
        return;
    }
    if (p->kind == VK_BUILTIN) {
        uint32_t id = spv_word(&x->m, x->at, 2);
        if (p->aux == 7) {   /* WorkDim */
            ty_t t = sx_vty(x, rtid);
            t.s = (uint8_t)ty_unsigned_of((enum ty_scalar)t.s);
            uint32_t w[1] = {sx_def(x, t)};
            sx_emit(x, BCB_WDIM, (enum ty_scalar)t.s, 1, 0, w, 1);
        } else {
            x->fr->v[id] = sv(-1, VK_BVEC, p->aux);
        }
        return;
    }
    if (p->kind == VK_ALIAS) {
        if (p->reg < 0)
            sx_refuse(x, "internal error: a variable read before written");
        x->fr->v[spv_word(&x->m, x->at, 2)] = sv(p->reg, VK_REG, 0);
        return;
    }
    if (p->kind == VK_VAR && sx_r(x, (uint32_t)p->reg)->kind == BC_REG_PTR) {
        const bc_reg *pr = sx_r(x, (uint32_t)p->reg);
        if (x->fr->alias[spv_word(&x->m, x->at, 2)]) {
            x->fr->v[spv_word(&x->m, x->at, 2)] = sv(p->reg, VK_REG,
                                                            0);
            return;
        }
        uint32_t w[3] = {sx_defptr(x, spv_word(&x->m, x->at, 2), pr->type,
                                   pr->space, pr->flags & BC_REGF_CONSTPTR,
                                   NULL), (uint32_t)p->reg,
                         sx_const(x, TY(TY_INT, 1), 0)};
        sx_emit(x, BCB_PADD, TY_UINT, 1, 0, w, 3);
        return;
    }
    if (spv_typ(&x->m, x->at, rtid)->kind == SK_PTR) {
        slot(x, p, rtid, false);
        return;
    }
    ty_t t = sx_vty(x, rtid);
    if (p->kind == VK_VAR && x->fr->alias[spv_word(&x->m, x->at, 2)]) {
        x->fr->v[spv_word(&x->m, x->at, 2)] = sv(p->reg, VK_REG, 0);
        return;
    }
    if (p->kind == VK_VAR) {
        uint32_t w[2] = {sx_def(x, sx_r(x, (uint32_t)p->reg)->type),
                         (uint32_t)p->reg};
        sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w, 2);
        return;
    }
    uint32_t idx, base = sx_addr(x, p, 3, &idx);
    ty_t pt = sx_r(x, base)->type;
    uint32_t w[3] = {sx_def(x, pt), base, idx};
    uint64_t al = sx_aligned(x, 4);
    if (al && al < ty_sizeof(pt))
        al = max_al(al, sx_known_align(x, spv_id(&x->m, x->at, 3), 0));
    if (al && al < ty_sizeof(pt))   /* a packed struct's member */
        sx_unaligned(x, w[0], base, idx, false);
    else
        sx_emit(x, BCB_LD, ty_unsigned_of((enum ty_scalar)pt.s), pt.n, 0,
                w, 3);
}

static void store(SX *x)
{
    spv_val tmp, *p = cast_ptr(x, sx_val(x, 1), 1, &tmp);
    uint32_t vid = spv_id(&x->m, x->at, 2);
    uint32_t vt = spv_type_of(&x->m, x->at, vid);
    if (spv_is_agg(&x->m, vt)) {
        /* S s = {...} stored whole: a constant, stored as its bytes */
        uint32_t idx, base = sx_addr(x, p, 1, &idx);
        if (!spv_const_of(&x->m, vid) &&
            spv_op(&x->m, x->m.def[vid]) != SpvOpConstantComposite &&
            spv_op(&x->m, x->m.def[vid]) != SpvOpConstantNull &&
            spv_op(&x->m, x->m.def[vid]) != SpvOpUndef)
            sx_refuse(x, "a struct or array stored as one value is not "
                      "supported (copy it, or write its members)");
        sx_store_const(x, base, idx, vid, vt, 1);
        return;
    }
    if (p->view) {
        view(x, p, true);
        return;
    }
    uint32_t v = sx_reg(x, 2);
    ty_t t = sx_r(x, v)->type;
    if (p->kind == VK_ALIAS) {
        p->reg = (int32_t)v;
        return;
    }
    if (p->kind == VK_VAR && sx_r(x, (uint32_t)p->reg)->kind == BC_REG_PTR) {
        sx_move(x, (uint32_t)p->reg, v);
        return;
    }
    if (p->kind == VK_VAR) {
        uint32_t w[2] = {(uint32_t)p->reg, v};
        if (v != (uint32_t)p->reg)   /* else computed into it already */
            sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0,
                    w, 2);
        return;
    }
    if (sx_r(x, v)->kind == BC_REG_PTR) {
        slot(x, p, v, true);
        return;
    }
    uint32_t idx, base = sx_addr(x, p, 1, &idx);
    uint32_t w[3] = {base, idx, v};
    uint64_t al = sx_aligned(x, 3);
    if (al && al < ty_sizeof(t))
        al = max_al(al, sx_known_align(x, spv_id(&x->m, x->at, 1), 0));
    if (al && al < ty_sizeof(t))   /* a packed struct's member */
        sx_unaligned(x, v, base, idx, true);
    else
        sx_emit(x, BCB_ST, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w,
                3);
}

static void barrier(SX *x)
{
    const spv_const *sem = spv_const_of(&x->m, spv_id(&x->m, x->at, 3));
    if (!sem)
        sx_refuse(x, "barrier with run-time memory semantics");
    uint32_t f = 0;
    f |= sem->v[0] & SpvMemorySemanticsWorkgroupMemoryMask ? BC_FENCE_LOCAL
                                                            : 0;
    f |= sem->v[0] & SpvMemorySemanticsCrossWorkgroupMemoryMask
         ? BC_FENCE_GLOBAL : 0;
    uint32_t w[1] = {f};
    sx_emit(x, BCB_BARRIER, TY_UINT, 1, 0, w, 1);
}

static void copy(SX *x)
{
    uint32_t a = sx_reg(x, 3);
    const bc_reg *r = sx_r(x, a);
    uint32_t id = spv_word(&x->m, x->at, 2);
    if (r->kind == BC_REG_PTR) {
        x->fr->v[id] = sv((int32_t)a, VK_REG, 0);
        return;
    }
    ty_t t = r->type;
    uint32_t w[2] = {sx_def(x, t), a};
    sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w, 2);
}

const char *spv_opname(uint32_t op)
{
    switch (op) {
#define COREOP(n, name) case n: return #name;
#include "asm/spirv/coreops.inc"
#undef COREOP
    }
    return "an unknown SPIR-V instruction";
}

void sx_ins(SX *x, uint32_t op)
{
    if ((op == SpvOpFMul && sx_fused_mul(x)) ||
        (op == SpvOpFAdd && sx_muladd(x)) ||
        (op == SpvOpISub && sx_ptrdiff(x)))
        return;
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
        if (binops[i].op == op) {
            binary(x, &binops[i]);
            return;
        }
    switch (op) {
    case SpvOpFOrdNotEqual: ord_ne(x, false); break;
    case SpvOpFUnordEqual: ord_ne(x, true); break;
    case SpvOpSNegate: unary(x, BCB_NEG, 'b'); break;
    case SpvOpFNegate: unary(x, BCB_NEG, 'f'); break;
    case SpvOpNot: unary(x, BCB_NOT, 'b'); break;
    case SpvOpLogicalNot: unary(x, BCB_LNOT, 'u'); break;
    case SpvOpIsNan: ftest(x, MF_ISNAN); break;
    case SpvOpIsInf: ftest(x, MF_ISINF); break;
    case SpvOpIsFinite: ftest(x, MF_ISFINITE); break;
    case SpvOpSignBitSet: ftest(x, MF_SIGNBIT); break;
    case SpvOpIsNormal: ftest(x, MF_ISNORMAL); break;
    case SpvOpOrdered: ftest2(x, MF_ISORDERED); break;
    case SpvOpUnordered: ftest2(x, MF_ISUNORDERED); break;
    case SpvOpBitCount: bitcount(x); break;
    case SpvOpConvertFToU: convert(x, 'f', 'u', false); break;
    case SpvOpConvertFToS: convert(x, 'f', 's', false); break;
    case SpvOpConvertSToF: convert(x, 's', 'f', false); break;
    case SpvOpConvertUToF: convert(x, 'u', 'f', false); break;
    case SpvOpUConvert: convert(x, 'u', 'u', false); break;
    case SpvOpSConvert: convert(x, 's', 's', false); break;
    case SpvOpFConvert: convert(x, 'f', 'f', false); break;
    case SpvOpSatConvertSToU: convert(x, 's', 'u', true); break;
    case SpvOpSatConvertUToS: convert(x, 'u', 's', true); break;
    case SpvOpBitcast: bitcast(x); break;
    case SpvOpSelect: select_(x); break;
    case SpvOpCompositeExtract: extract(x); break;
    case SpvOpVectorExtractDynamic: extract_dyn(x); break;
    case SpvOpVectorInsertDynamic: insert_dyn(x); break;
    case SpvOpAny: any_all(x, false); break;
    case SpvOpDot: dot(x); break;
    case SpvOpAll: any_all(x, true); break;
    case SpvOpCompositeInsert: insert(x); break;
    case SpvOpVectorShuffle: shuffle(x); break;
    case SpvOpCompositeConstruct: construct(x); break;
    case SpvOpCopyObject: copy(x); break;
    case SpvOpLoad: load(x); break;
    case SpvOpStore: store(x); break;
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: sx_chain(x, true); break;
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain: sx_chain(x, false); break;
    case SpvOpCopyMemory: sx_copy(x, false); break;
    case SpvOpCopyMemorySized: sx_copy(x, true); break;
    case SpvOpConvertPtrToU: sx_ptrtou(x); break;
    case SpvOpConvertUToPtr: sx_utop(x); break;
    case SpvOpControlBarrier: barrier(x); break;
    case SpvOpExtInst: sx_ocl(x); break;
    case SpvOpMemoryBarrier: sx_fence(x); break;
    case SpvOpLifetimeStart: case SpvOpLifetimeStop:
    case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpNoLine:
    case SpvOpUndef:
        break;
    default:
        if (!sx_atomic(x, op) && !sx_async(x, op))
            sx_refuse(x, "%s is not supported yet", spv_opname(op));
    }
}
