/* Lowering: a checked expression tree (calls of externs included) into
 * three-address instructions. Each subexpression lands in a temporary
 * (reused across statements by type), except that the outermost one is
 * computed straight into the destination register. as_T views cost
 * nothing: the operand is read as the other type (the verifier checks
 * sizes, not OpenCL types). */
#include <string.h>

#include "asm/asmint.h"
#include "stdlib/convert.h"
#include "asm/optab.h"

static bool emit(A *a, enum bc_base b, ty_t t, unsigned n, unsigned flags,
                 const uint32_t *w, unsigned nw)
{
    /* signed + - * and negation (a pointer's p - i too): overflow is
     * undefined, which strict and --warn-impl must see */
    if ((b == BCB_ADD || b == BCB_SUB || b == BCB_MUL || b == BCB_NEG) &&
        ty_is_signed((enum ty_scalar)t.s))
        flags |= BC_F_SIGNED;
    return kb_emit(a, op_variant(b, (enum ty_scalar)t.s), n, flags, w, nw);
}

static ty_t regty(const A *a, uint32_t r) { return kb_regp(a, r)->type; }

/* Where an instruction producing t writes: dst if given (and of type t
 * exactly, when the instruction demands it), else a temporary. */
static int32_t target(A *a, int32_t dst, ty_t t, bool exact)
{
    if (dst >= 0 && (!exact || ty_eq(regty(a, (uint32_t)dst), t)))
        return dst;
    return kb_temp(a, t);
}

/* r holds the value (type t); move it to dst if that was asked for. */
static bool done(A *a, int32_t dst, int32_t r, ty_t t, opnd *o)
{
    if (r < 0)
        return false;
    o->reg = (uint32_t)r, o->ty = t;
    if (dst >= 0 && r != dst) {
        uint32_t w[2] = {(uint32_t)dst, (uint32_t)r};
        if (!emit(a, BCB_MOV, t, t.n, 0, w, 2))
            return false;
        kb_release(a, (uint32_t)r);
        o->reg = (uint32_t)dst;
    }
    return true;
}

/* Instructions that read their operand in another layout (CVT) need the
 * register's own type to be the operand's. */
static bool exact_src(A *a, opnd *c)
{
    if (ty_eq(regty(a, c->reg), c->ty))
        return true;
    int32_t t = kb_temp(a, c->ty);
    uint32_t w[2] = {(uint32_t)t, c->reg};
    if (t < 0 || !emit(a, BCB_MOV, c->ty, c->ty.n, 0, w, 2))
        return false;
    kb_release(a, c->reg);
    c->reg = (uint32_t)t;
    return true;
}

/* Does the tree read register r? (Then it cannot be built piecewise in
 * r.) */
static bool reads(const node *n, int32_t r)
{
    if (!n)
        return false;
    if (n->kind == N_NAME && n->reg == r)
        return true;
    if (reads(n->a, r) || reads(n->b, r) || reads(n->c, r))
        return true;
    for (unsigned i = 0; i < n->nargs; i++)
        if (reads(n->args[i], r))
            return true;
    return false;
}

static uint32_t cvt_word(ty_t d, ty_t s, bool sat, bool spelled, enum rnd r)
{
    if (!spelled)
        r = cv_default_round((enum ty_scalar)d.s);
    return BC_CVT(d.s, s.s, sat, r, spelled);
}

/* CVT dst = convert_T(c), keeping the verifier's exact-type rule. */
static bool convert(A *a, int32_t dst, ty_t t, opnd c, bool sat,
                    bool spelled, enum rnd r, opnd *o)
{
    if (!exact_src(a, &c))
        return false;
    int32_t d = target(a, dst, t, true);
    if (d == (int32_t)c.reg)   /* convert_float4(f) into f: s and d may
                                  not overlap */
        d = kb_temp(a, t);
    uint32_t w[3] = {(uint32_t)d, c.reg, cvt_word(t, c.ty, sat, spelled, r)};
    if (d < 0 || !kb_emit(a, op_variant(BCB_CVT, TY_UINT), t.n, 0, w, 3))
        return false;
    kb_release(a, c.reg);
    return done(a, dst, d, t, o);
}

static bool lower_plain(A *a, node *n, int32_t dst, opnd *o);

bool lower_expr(A *a, node *n, int32_t dst, opnd *o)
{
    if (n->x.cls == X_PTR) {
        asm_error_node(a, n, "a pointer where a value is needed");
        return false;
    }
    /* an implicitly typed value nothing settled (a printf argument):
     * computed in its own type */
    if ((n->x.cls == X_IMPL || n->x.cls == X_SIZE) && !settle_default(a, n))
        return false;
    if (n->bcast) {
        ty_t v = TY(n->x.t.s, n->bcast);
        if (n->isconst) {
            uint64_t e[16];
            for (unsigned i = 0; i < v.n; i++)
                e[i] = n->vv[0];
            return done(a, dst, kb_const(a, v, e), v, o);
        }
        if (ASM_PARAM_BCAST && n->kind == N_NAME &&
            kb_regp(a, (uint32_t)n->reg)->init == BC_INIT_PARAM &&
            ty_eq(regty(a, (uint32_t)n->reg), n->x.t))
            return done(a, dst, kb_bcast(a, kb_regp(a, (uint32_t)n->reg)->arg,
                                         v), v, o);
        opnd s;
        uint8_t bc = n->bcast;
        n->bcast = 0;
        bool ok = lower_expr(a, n, -1, &s);
        n->bcast = bc;
        if (!ok)
            return false;
        int32_t d = target(a, dst, v, false);
        uint32_t w[2] = {(uint32_t)d, s.reg};
        if (d < 0 || !emit(a, BCB_SPLAT, v, v.n, 0, w, 2))
            return false;
        kb_release(a, s.reg);
        return done(a, dst, d, v, o);
    }
    if (n->via.n) {
        /* A truth value computed in its comparison's type, converted. */
        ty_t t = n->x.t, via = n->via;
        opnd s;
        n->x.t = via, n->via = TY(0, 0);
        bool ok = lower_expr(a, n, -1, &s);
        n->x.t = t, n->via = via;
        return ok && convert(a, dst, t, s, false, false, RND_RTE, o);
    }
    if (n->isconst)
        return done(a, dst, kb_const(a, n->x.t, n->vv), n->x.t, o);
    return lower_plain(a, n, dst, o);
}

static enum bc_base binop_base(int op)
{
    switch (op) {
    case P_ADD: return BCB_ADD;
    case P_SUB: return BCB_SUB;
    case P_MUL: return BCB_MUL;
    case P_DIV: return BCB_DIV;
    case P_MOD: return BCB_REM;
    case P_AND: return BCB_AND;
    case P_OR: return BCB_OR;
    case P_XOR: return BCB_XOR;
    case P_SHL: return BCB_SHL;
    case P_SHR: return BCB_SHR;
    case P_LT: return BCB_LT;
    case P_LE: return BCB_LE;
    case P_GT: return BCB_GT;
    case P_GE: return BCB_GE;
    case P_EQ: return BCB_EQ;
    case P_NE: return BCB_NE;
    case P_ANDAND: return BCB_LAND;
    default: return BCB_LOR;
    }
}

/* The type an operand node is computed in (broadcasts included). */
static ty_t opty(const node *n)
{
    return n->bcast ? TY(n->x.t.s, n->bcast) : n->x.t;
}

/* d = OP(args...) for an elementwise operation of type t (the variant),
 * n components, result type rt. */
static bool elementwise_imm(A *a, enum bc_base b, ty_t t, ty_t rt,
                            node **args, unsigned nargs, int64_t imm,
                            int32_t dst, opnd *o);

static bool elementwise(A *a, enum bc_base b, ty_t t, ty_t rt, node **args,
                        unsigned nargs, int32_t dst, opnd *o)
{
    return elementwise_imm(a, b, t, rt, args, nargs, -1, dst, o);
}

/* The same with an immediate word after the operands (imm >= 0). */
static bool elementwise_imm(A *a, enum bc_base b, ty_t t, ty_t rt,
                            node **args, unsigned nargs, int64_t imm,
                            int32_t dst, opnd *o)
{
    opnd s[3];
    uint32_t w[5];
    for (unsigned i = 0; i < nargs; i++)
        if (!lower_expr(a, args[i], -1, &s[i]))
            return false;
    int32_t d = target(a, dst, rt, false);
    if (d < 0)
        return false;
    w[0] = (uint32_t)d;
    for (unsigned i = 0; i < nargs; i++)
        w[i + 1] = s[i].reg;
    if (imm >= 0)
        w[nargs + 1] = (uint32_t)imm;
    if (!emit(a, b, t, t.n, 0, w, nargs + 1 + (imm >= 0)))
        return false;
    for (unsigned i = 0; i < nargs; i++)
        kb_release(a, s[i].reg);
    return done(a, dst, d, rt, o);
}

static bool lower_cond_expr(A *a, node *n, int32_t dst, opnd *o)
{
    ty_t t = n->x.t;
    if (n->a->x.t.n > 1) {
        /* c ? x : y per component is select(y, x, c). */
        node *args[3] = {n->c, n->b, n->a};
        return elementwise(a, BCB_SELECT, t, t, args, 3, dst, o);
    }
    /* A scalar condition runs one arm per work-item, as C does. */
    opnd c, tmp;
    if (!lower_expr(a, n->a, -1, &c))
        return false;
    int32_t r = target(a, dst, t, false);
    uint32_t w[2] = {c.reg, 0};
    if (r < 0 || !emit(a, BCB_IF, c.ty, 1, 0, w, 2))
        return false;
    kb_release(a, c.reg);
    uint32_t pif = kb_pc(a) - 3;
    if (!lower_expr(a, n->b, r, &tmp))
        return false;
    uint32_t pelse = kb_pc(a);
    w[0] = 0;
    if (!kb_emit(a, op_variant(BCB_ELSE, TY_UINT), 1, 0, w, 1))
        return false;
    kb_patch(a, pif + 2, pelse);
    if (!lower_expr(a, n->c, r, &tmp))
        return false;
    kb_patch(a, pelse + 1, kb_pc(a));
    if (!kb_emit(a, op_variant(BCB_ENDIF, TY_UINT), 1, 0, NULL, 0))
        return false;
    return done(a, dst, r, t, o);
}

/* Scalar a && b, a || b: b runs only if a does not decide, as in C. The
 * result register r takes a's truth value, then b's where a did not
 * decide: r = a; if r (&&) / if r else (||): r = b. */
static bool lower_logic(A *a, node *n, int32_t dst, opnd *o)
{
    ty_t t = n->x.t;
    opnd tmp;
    if (!settle_type(a, n->a, t) || !settle_type(a, n->b, t))
        return false;
    int32_t r = dst >= 0 && !reads(n, dst) ? dst : kb_temp(a, t);
    if (r < 0 || !lower_expr(a, n->a, r, &tmp))
        return false;
    uint32_t w[2] = {(uint32_t)r, 0};
    if (!emit(a, BCB_IF, t, 1, 0, w, 2))
        return false;
    uint32_t pif = kb_pc(a) - 3;
    if (n->op == P_OROR) {
        uint32_t pelse = kb_pc(a);
        w[0] = 0;
        if (!kb_emit(a, op_variant(BCB_ELSE, TY_UINT), 1, 0, w, 1))
            return false;
        kb_patch(a, pif + 2, pelse);
        pif = pelse - 1;   /* ELSE's j is its word after the header */
    }
    if (!lower_expr(a, n->b, r, &tmp))
        return false;
    kb_patch(a, pif + 2, kb_pc(a));
    if (!kb_emit(a, op_variant(BCB_ENDIF, TY_UINT), 1, 0, NULL, 0))
        return false;
    return done(a, dst, r, t, o);
}

static bool lower_vec(A *a, node *n, int32_t dst, opnd *o)
{
    ty_t t = n->x.t;
    if (n->nargs == 1 && n->args[0]->x.t.n == t.n && !n->args[0]->bcast) {
        if (!lower_expr(a, n->args[0], dst, o))
            return false;
        o->ty = t;
        return true;
    }
    if (n->nargs == 1) {   /* (float4)(s): splat */
        opnd s;
        if (!lower_expr(a, n->args[0], -1, &s))
            return false;
        int32_t d = target(a, dst, t, false);
        uint32_t w[2] = {(uint32_t)d, s.reg};
        if (d < 0 || !emit(a, BCB_SPLAT, t, t.n, 0, w, 2))
            return false;
        kb_release(a, s.reg);
        return done(a, dst, d, t, o);
    }
    /* Piecewise: the constant parts in one MOV, the rest by SWW. */
    int32_t d = dst >= 0 && !reads(n, dst) ? dst : kb_temp(a, t);
    uint64_t e[16] = {0};
    bool anyc = false;
    unsigned k = 0;
    for (unsigned i = 0; i < n->nargs; i++) {
        const node *x = n->args[i];
        if (x->isconst && !x->bcast) {
            for (unsigned j = 0; j < x->x.t.n; j++)
                e[k + j] = x->vv[j];
            anyc = true;
        }
        k += x->x.t.n;
    }
    if (d < 0)
        return false;
    if (anyc) {
        int32_t c = kb_const(a, t, e);
        uint32_t w[2] = {(uint32_t)d, (uint32_t)c};
        if (c < 0 || !emit(a, BCB_MOV, t, t.n, 0, w, 2))
            return false;
    }
    k = 0;
    for (unsigned i = 0; i < n->nargs; i++) {
        node *x = n->args[i];
        unsigned cn = x->x.t.n;
        if (!(x->isconst && !x->bcast)) {
            opnd s;
            if (!lower_expr(a, x, -1, &s))
                return false;
            uint64_t z = 0;
            for (unsigned j = 0; j < cn; j++)
                z |= (uint64_t)(k + j) << 4 * j;
            uint32_t w[4] = {(uint32_t)d, s.reg, (uint32_t)z,
                             (uint32_t)(z >> 32)};
            if (!emit(a, BCB_SWW, t, cn, 0, w, 4))
                return false;
            kb_release(a, s.reg);
        }
        k += cn;
    }
    return done(a, dst, d, t, o);
}

static bool lower_swz(A *a, node *n, int32_t dst, opnd *o)
{
    ty_t t = n->x.t;
    opnd b;
    if (!lower_expr(a, n->a, -1, &b))
        return false;
    bool ident = n->nsel == b.ty.n;
    for (unsigned i = 0; i < n->nsel && ident; i++)
        ident = n->sel[i] == i;
    if (ident && dst < 0) {     /* v.xyzw of a float4: v itself */
        o->reg = b.reg, o->ty = t;
        return true;
    }
    int32_t d = target(a, dst, t, false);
    if (d == (int32_t)b.reg)    /* v = v.yx: not in place */
        d = kb_temp(a, t);
    uint64_t z = 0;
    for (unsigned i = 0; i < n->nsel; i++)
        z |= (uint64_t)n->sel[i] << 4 * i;
    uint32_t w[4] = {(uint32_t)d, b.reg, (uint32_t)z, (uint32_t)(z >> 32)};
    if (d < 0 || !emit(a, BCB_SWZ, t, t.n, 0, w, 4))
        return false;
    kb_release(a, b.reg);
    return done(a, dst, d, t, o);
}

/* A value operand in a register of its own type (a view of another
 * register's type is copied: CALL and PRINTF read registers as declared). */
static bool own_reg(A *a, node *e, uint32_t *reg)
{
    opnd v;
    if (!lower_expr(a, e, -1, &v) || !exact_src(a, &v))
        return false;
    *reg = v.reg;
    return true;
}

bool lower_args(A *a, node **args, unsigned n, const bool *ptr, uint32_t *w)
{
    for (unsigned i = 0; i < n; i++)
        if (!(ptr[i] ? lower_ptr(a, args[i], -1, &w[i])
                     : own_reg(a, args[i], &w[i])))
            return false;
    return true;
}

/* CALL or CALLV of a declared extern; o is set if it gives a value. */
static bool lower_extern_call(A *a, node *n, int32_t dst, opnd *o)
{
    const bc_extern *x = &a->ext[n->reg];
    bool ptr[BC_MAX_CALL_ARGS];
    uint32_t w[2 + BC_MAX_CALL_ARGS];
    bool has = x->ret.kind != BC_C_VOID;
    unsigned first = has ? 2 : 1;
    for (unsigned i = 0; i < n->nargs; i++)
        ptr[i] = x->params[i].kind != BC_C_VALUE;
    if (!lower_args(a, n->args, n->nargs, ptr, w + first))
        return false;
    ty_t t = n->x.t;
    int32_t d = -1;
    if (has) {
        if ((d = target(a, dst, t, true)) < 0)
            return false;
        w[0] = (uint32_t)d;
    }
    w[first - 1] = (uint32_t)n->reg;
    if (!kb_emit(a, op_variant(has ? BCB_CALL : BCB_CALLV, TY_UINT),
                 n->sel[0], n->nargs, w, first + n->nargs))
        return false;
    for (unsigned i = 0; i < n->nargs; i++)
        kb_release(a, w[first + i]);
    return !has || done(a, dst, d, t, o);
}

/* A shaped math built-in (MATHS): the gentype's element type picks the
 * variant (half: MATHS_F16), unused operands
 * repeat the first. With its pointer, a PTR/PTRI function is three
 * instructions: the pointer output's value (flag SECOND) into a
 * temporary, its store through the pointer (ST, checked as every store),
 * and the result. */
static bool emit_maths(A *a, int mf, bool second, ty_t t, unsigned m,
                       int32_t d, const uint32_t *src, unsigned nv)
{
    uint32_t w[5] = {(uint32_t)d, src[0], nv > 1 ? src[1] : src[0],
                     nv > 2 ? src[2] : src[0], (uint32_t)mf | m << 16};
    return emit(a, BCB_MATHS, t, t.n, second ? BC_F_SECOND : 0, w, 5);
}

static bool lower_maths(A *a, node *n, int32_t dst, opnd *o)
{
    int mf = asm_fns[n->op].mf & (ASM_MF_OUT - 1);
    bool second = asm_fns[n->op].mf & ASM_MF_OUT;
    const mathfn_info *m = &mathfns[mf];
    ty_t t = opty(n->args[0]);
    unsigned nv = m->nargs, mw = n->sel[0];
    mf_sig s;
    const char *why;
    opnd v[3];
    uint32_t src[3];
    if (!mathfn_sig((enum mathfn)mf, t, mw, &s, &why)) {
        asm_error_node(a, n, "internal error: %s of this type", m->name);
        return false;
    }
    for (unsigned i = 0; i < nv; i++) {
        if (!lower_expr(a, n->args[i], -1, &v[i]))
            return false;
        src[i] = v[i].reg;
    }
    if (n->nargs > nv && !second) {
        uint32_t p;
        uint64_t zero = 0;
        int32_t tmp = kb_temp(a, s.out), z = kb_const(a, TY(TY_INT, 1), &zero);
        if (tmp < 0 || z < 0 || !emit_maths(a, mf, true, t, mw, tmp, src, nv) ||
            !lower_ptr(a, n->args[nv], -1, &p))
            return false;
        uint32_t w[3] = {p, (uint32_t)z, (uint32_t)tmp};
        if (!emit(a, BCB_ST, s.out, s.out.n, 0, w, 3))
            return false;
        kb_release(a, p);
        kb_release(a, (uint32_t)tmp);
    }
    ty_t r = second ? s.out : s.res;
    int32_t d = target(a, dst, r, false);
    if (d < 0 || !emit_maths(a, mf, second, t, mw, d, src, nv))
        return false;
    for (unsigned i = 0; i < nv; i++)
        kb_release(a, src[i]);
    return done(a, dst, d, n->x.t, o);
}

/* ATOM: d the old value; operands the function does not take repeat d
 * (inc, dec) or the value (all but cmpxchg), as the verifier demands. A
 * float (atomic_xchg) moves its bits in ATOM_U32. */
static bool lower_atomic(A *a, node *n, int32_t dst, opnd *o)
{
    enum atomic_fn f = AT_ADD;
    bool atom = false;
    asm_fn_atomic(n->op, &f, &atom);
    ty_t t = n->x.t;
    uint32_t p;
    opnd v[2] = {{0}, {0}};
    if (!lower_ptr(a, n->args[0], -1, &p))
        return false;
    for (unsigned i = 1; i < n->nargs; i++)
        if (!lower_expr(a, n->args[i], -1, &v[i - 1]))
            return false;
    int32_t d = target(a, dst, t, false);
    if (d < 0)
        return false;
    uint32_t va = n->nargs > 1 ? v[0].reg : (uint32_t)d;
    uint32_t vb = n->nargs > 2 ? v[1].reg : va;
    uint32_t w[5] = {(uint32_t)d, p, va, vb, (uint32_t)f};
    enum ty_scalar s = t.s == TY_FLOAT ? TY_UINT : (enum ty_scalar)t.s;
    if (!kb_emit(a, op_variant(BCB_ATOM, s), 1, 0, w, 5))
        return false;
    kb_release(a, p);
    for (unsigned i = 1; i < n->nargs; i++)
        kb_release(a, v[i - 1].reg);
    return done(a, dst, d, t, o);
}

/* ACOPY d, dst, src, n, event; ACOPYS with the stride before the event.
 * wait_group_events is WAITEV n, events; prefetch no instruction. */
static bool lower_async(A *a, node *n, int32_t dst, opnd *o)
{
    if (n->op == F_PREFETCH)
        return true;
    uint32_t w[6];
    unsigned nw = 0;
    for (unsigned i = 0; i < n->nargs; i++) {
        opnd v;
        bool ptr = n->args[i]->x.cls == X_PTR;
        if (!(ptr ? lower_ptr(a, n->args[i], -1, &w[1 + i])
                  : lower_expr(a, n->args[i], -1, &v)))
            return false;
        if (!ptr)
            w[1 + i] = v.reg;
    }
    if (n->op == F_WAIT_GROUP_EVENTS)
        return kb_emit(a, op_variant(BCB_WAITEV, TY_UINT), 1, 0, w + 1, 2);
    int32_t d = target(a, dst, TY(TY_UINT, 1), true);
    w[0] = (uint32_t)d;
    nw = 1 + n->nargs;
    if (d < 0 || !kb_emit(a, op_variant((enum bc_base)asm_fns[n->op].base,
                                        TY_UINT), 1, 0, w, nw))
        return false;
    for (unsigned i = 1; i < nw; i++)
        kb_release(a, w[i]);
    return done(a, dst, d, TY(TY_UINT, 1), o);
}

static bool lower_call(A *a, node *n, int32_t dst, opnd *o)
{
    ty_t t = n->x.t;
    if (n->op == F_EXT)
        return lower_extern_call(a, n, dst, o);
    if (n->op == F_BI) {
        const bi_desc *bi = &n->bi;
        opnd c, off;
        uint32_t p;
        switch (bi->kind) {
        case BI_CONVERT:
            return lower_expr(a, n->args[0], -1, &c) &&
                   convert(a, dst, t, c, bi->sat, bi->has_round, bi->round, o);
        case BI_AS: {
            ty_t s = opty(n->args[0]);
            if (s.n == t.n && ty_scalar_size((enum ty_scalar)s.s) ==
                                  ty_scalar_size((enum ty_scalar)t.s)) {
                /* A view: the same storage read as t. */
                if (!lower_expr(a, n->args[0], dst, o))
                    return false;
                o->ty = t;
                return true;
            }
            if (!lower_expr(a, n->args[0], -1, &c))
                return false;
            int32_t d = target(a, dst, t, false);
            if (d == (int32_t)c.reg)
                d = kb_temp(a, t);
            uint32_t w[2] = {(uint32_t)d, c.reg};
            if (d < 0 || !kb_emit(a, op_variant(BCB_AS, TY_UINT), t.n, 0, w, 2))
                return false;
            kb_release(a, c.reg);
            return done(a, dst, d, t, o);
        }
        case BI_VLOAD:
        case BI_VLOAD_HALF:
        case BI_VLOADA_HALF: {
            bool half = bi->kind != BI_VLOAD;
            if (!lower_expr(a, n->args[0], -1, &off) ||
                !lower_ptr(a, n->args[1], -1, &p))
                return false;
            int32_t d = target(a, dst, t, half);
            uint32_t w[3] = {(uint32_t)d, off.reg, p};
            bool ok = d >= 0 &&
                (half ? kb_emit(a, op_variant(BCB_VLDH, TY_UINT), t.n,
                                bi->kind == BI_VLOADA_HALF ? BC_F_ALIGNED : 0,
                                w, 3)
                      : emit(a, BCB_VLOAD, t, t.n, 0, w, 3));
            if (!ok)
                return false;
            kb_release(a, off.reg);
            kb_release(a, p);
            return done(a, dst, d, t, o);
        }
        default:
            asm_error_node(a, n, "%.*s gives no value", (int)n->nlen, n->name);
            return false;
        }
    }
    switch (n->op) {
    case F_GET_GLOBAL_ID: case F_GET_LOCAL_ID: case F_GET_GROUP_ID:
    case F_GET_GLOBAL_SIZE: case F_GET_LOCAL_SIZE: case F_GET_NUM_GROUPS:
    case F_GET_GLOBAL_OFFSET: case F_GET_WORK_DIM: {
        int32_t d = target(a, dst, t, false);
        uint32_t w[2] = {(uint32_t)d, n->sel[0]};
        if (d < 0 || !emit(a, (enum bc_base)asm_fns[n->op].base,
                           TY(ty_scalar_size((enum ty_scalar)t.s) == 8
                              ? TY_ULONG : TY_UINT, 1), 1, 0, w,
                           n->op == F_GET_WORK_DIM ? 1 : 2))
            return false;
        return done(a, dst, d, t, o);
    }
    case F_ABS:
        return elementwise(a, BCB_ABS, n->args[0]->x.t, t, n->args, 1, dst, o);
    case F_BARRIER: case F_MEM_FENCE: case F_READ_MEM_FENCE:
    case F_WRITE_MEM_FENCE:
        asm_error_node(a, n, "%s gives no value", asm_fns[n->op].name);
        return false;
    default: {
        if (asm_fns[n->op].base == BCB_ATOM)
            return lower_atomic(a, n, dst, o);
        if (n->op == F_ASYNC_COPY || n->op == F_ASYNC_STRIDED_COPY)
            return lower_async(a, n, dst, o);
        /* mad fma min max ..., or a math built-in of stdlib/mathfn.h
         * (mf >= 0: its function id); t is the result's type */
        int mf = asm_fns[n->op].mf;
        if (asm_fns[n->op].base == BCB_MATHS)
            return lower_maths(a, n, dst, o);
        return elementwise_imm(a, (enum bc_base)asm_fns[n->op].base,
                               opty(n->args[0]), t, n->args, n->nargs, mf,
                               dst, o);
    }
    }
}

static bool lower_plain(A *a, node *n, int32_t dst, opnd *o)
{
    ty_t t = n->x.t;
    switch (n->kind) {
    case N_NAME:
        return done(a, dst, n->reg, t, o);
    case N_UNARY:
        if (n->op == P_ADD) {
            if (!lower_expr(a, n->a, dst, o))
                return false;
            o->ty = t;
            return true;
        }
        return elementwise(a, n->op == P_SUB ? BCB_NEG : n->op == P_TILDE
                                                      ? BCB_NOT : BCB_LNOT,
                           opty(n->a), t, &n->a, 1, dst, o);
    case N_BINARY: {
        node *args[2] = {n->a, n->b};
        if ((n->op == P_ANDAND || n->op == P_OROR) && t.n == 1)
            return lower_logic(a, n, dst, o);
        ty_t ot = opty(n->a);
        if (n->a->bcast)
            ot = opty(n->b);
        return elementwise(a, binop_base(n->op), ot, t, args, 2, dst, o);
    }
    case N_COND:
        return lower_cond_expr(a, n, dst, o);
    case N_CAST: {
        opnd c;
        if (n->a->x.cls == X_PTR) {   /* (ulong)p: PTOU */
            uint32_t p;
            if (!lower_ptr(a, n->a, -1, &p))
                return false;
            int32_t d = target(a, dst, t, true);
            uint32_t w[2] = {(uint32_t)d, p};
            if (d < 0 || !kb_emit(a, op_variant(BCB_PTOU, TY_UINT), 1, 0, w,
                                  2))
                return false;
            kb_release(a, p);
            return done(a, dst, d, t, o);
        }
        ty_t s = opty(n->a);
        if (n->implicit && s.n == t.n &&
            (ty_eq(s, t) || (!ty_is_float((enum ty_scalar)s.s) &&
                             !ty_is_float((enum ty_scalar)t.s) &&
                             ty_scalar_size((enum ty_scalar)s.s) ==
                                 ty_scalar_size((enum ty_scalar)t.s)))) {
            /* an implicit conversion between integers of one size keeps
             * the bits (it wraps into unsigned, or the value fits): a
             * view, as as_T is */
            if (!lower_expr(a, n->a, dst, o))
                return false;
            o->ty = t;
            return true;
        }
        return lower_expr(a, n->a, -1, &c) &&
               convert(a, dst, t, c, false, false, RND_RTE, o);
    }
    case N_VEC:
        return lower_vec(a, n, dst, o);
    case N_SWZ:
        return lower_swz(a, n, dst, o);
    case N_INDEX: {
        opnd i;
        uint32_t p;
        if (!lower_ptr(a, n->a, -1, &p) || !lower_expr(a, n->b, -1, &i))
            return false;
        int32_t d = target(a, dst, t, false);
        uint32_t w[3] = {(uint32_t)d, p, i.reg};
        if (d < 0 || !emit(a, BCB_LD, t, t.n, 0, w, 3))
            return false;
        kb_release(a, p);
        kb_release(a, i.reg);
        return done(a, dst, d, t, o);
    }
    case N_CALL:
        return lower_call(a, n, dst, o);
    default:
        asm_error_node(a, n, "internal error: cannot lower this");
        return false;
    }
}

/* n into a pointer register (dst, or a temporary if dst < 0); cast: the
 * pointee type it has, for (T *)n. */
static bool ptr_expr(A *a, node *n, int32_t dst, const ty_t *cast,
                     uint32_t *reg)
{
    if (n->x.cls != X_PTR) {
        asm_error_node(a, n, "a pointer is needed here");
        return false;
    }
    uint32_t p;
    opnd i = {0, TY(TY_INT, 1)};
    if (n->kind == N_PCAST && n->a->x.cls != X_PTR) {
        /* (SPACE T *)a of an integer: UTOP */
        bc_reg like = {0};
        like.type = cast ? *cast : n->ty, like.space = n->x.space;
        if (!lower_expr(a, n->a, -1, &i))
            return false;
        int32_t d = dst >= 0 ? dst : kb_ptemp(a, &like);
        uint32_t w[2] = {(uint32_t)d, i.reg};
        if (d < 0 || !kb_emit(a, op_variant(BCB_UTOP, TY_UINT), 1, 0, w, 2))
            return false;
        kb_release(a, i.reg);
        *reg = (uint32_t)d;
        return true;
    }
    if (n->kind == N_PCAST && !cast)
        return ptr_expr(a, n->a, dst, &n->ty, reg);
    if (n->kind == N_NAME || (cast && n->kind != N_BINARY)) {
        if (n->kind != N_NAME && !ptr_expr(a, n, -1, NULL, &p))
            return false;
        if (n->kind == N_NAME)
            p = (uint32_t)n->reg;
        if (!cast && (dst < 0 || (uint32_t)dst == p)) {
            *reg = p;
            return true;
        }
        /* q = p: PADD q, p, 0 (there is no pointer move) */
        uint64_t zero = 0;
        int32_t z = kb_const(a, TY(TY_INT, 1), &zero);
        if (z < 0)
            return false;
        i.reg = (uint32_t)z;
    } else if (n->kind == N_BINARY) {
        /* The index is negated as a long: PADD widens an unsigned index
         * with zeros, so p - 1u negated as a uint would be p + 2^32 - 1. */
        if (n->op == P_SUB && n->b->isconst && !n->b->bcast) {
            /* p - 4 is p + (-4): no NEG at run time */
            uint64_t neg, v = lit_convert(TY_LONG, (enum ty_scalar)n->b->x.t.s,
                                          n->b->vv[0]);
            lit_unop(P_SUB, TY_LONG, v, &neg);
            n->b->vv[0] = neg;
            n->b->x.t = TY(TY_LONG, 1);
            n->op = P_ADD;
        }
        if (!ptr_expr(a, n->a, -1, NULL, &p) || !lower_expr(a, n->b, -1, &i))
            return false;
        if (n->op == P_SUB && ty_scalar_size((enum ty_scalar)i.ty.s) < 8 &&
            !convert(a, -1, TY(TY_LONG, 1), i, false, false, RND_RTE, &i))
            return false;
        if (n->op == P_SUB) {
            int32_t t = kb_temp(a, i.ty);
            uint32_t w[2] = {(uint32_t)t, i.reg};
            if (t < 0 || !emit(a, BCB_NEG, i.ty, 1, 0, w, 2))
                return false;
            kb_release(a, i.reg);
            i.reg = (uint32_t)t;
        }
    } else {
        asm_error_node(a, n, "this pointer expression is not supported "
                       "(use p + i)");
        return false;
    }
    bc_reg like = *kb_regp(a, p);
    if (cast)
        like.type = *cast;
    int32_t d = dst >= 0 ? dst : kb_ptemp(a, &like);
    uint32_t w[3] = {(uint32_t)d, p, i.reg};
    if (d < 0 || !kb_emit(a, op_variant(BCB_PADD, TY_UINT), 1, 0, w, 3))
        return false;
    kb_release(a, p);
    kb_release(a, i.reg);
    *reg = (uint32_t)d;
    return true;
}

bool lower_ptr(A *a, node *n, int32_t dst, uint32_t *reg)
{
    return ptr_expr(a, n, dst, NULL, reg);
}

bool lower_is_slot(const node *n)
{
    return n->kind == N_INDEX && n->x.cls == X_VAL && n->x.t.n == 1 &&
           ty_scalar_size((enum ty_scalar)n->x.t.s) == 8 &&
           !ty_is_float((enum ty_scalar)n->x.t.s);
}

bool lower_slot(A *a, node *slot, uint32_t q, bool store)
{
    uint32_t p;
    opnd i;
    if (!lower_ptr(a, slot->a, -1, &p) || !lower_expr(a, slot->b, -1, &i))
        return false;
    uint32_t w[3] = {q, p, i.reg};
    if (store)
        w[0] = p, w[1] = i.reg, w[2] = q;
    if (!kb_emit(a, op_variant(store ? BCB_STP : BCB_LDP, TY_UINT), 1, 0, w,
                 3))
        return false;
    kb_release(a, p);
    kb_release(a, i.reg);
    return true;
}

bool lower_cond(A *a, node *n, opnd *o)
{
    return lower_expr(a, n, -1, o);
}

bool lower_store(A *a, node *lhs, node *rhs)
{
    opnd v, i;
    uint32_t p;
    if (lhs->kind == N_INDEX) {
        if (!lower_ptr(a, lhs->a, -1, &p) || !lower_expr(a, lhs->b, -1, &i) ||
            !lower_expr(a, rhs, -1, &v))
            return false;
        uint32_t w[3] = {p, i.reg, v.reg};
        if (!emit(a, BCB_ST, lhs->x.t, lhs->x.t.n, 0, w, 3))
            return false;
        kb_release(a, p);
        kb_release(a, i.reg);
        kb_release(a, v.reg);
        return true;
    }
    /* v.xz = e */
    uint32_t base = (uint32_t)lhs->a->reg;
    if (!lower_expr(a, rhs, -1, &v))
        return false;
    if (v.reg == base) {       /* v.yx = v: not in place */
        int32_t t = kb_temp(a, v.ty);
        uint32_t w[2] = {(uint32_t)t, v.reg};
        if (t < 0 || !emit(a, BCB_MOV, v.ty, v.ty.n, 0, w, 2))
            return false;
        v.reg = (uint32_t)t;
    }
    uint64_t z = 0;
    for (unsigned k = 0; k < lhs->nsel; k++)
        z |= (uint64_t)lhs->sel[k] << 4 * k;
    uint32_t w[4] = {base, v.reg, (uint32_t)z, (uint32_t)(z >> 32)};
    if (!emit(a, BCB_SWW, lhs->x.t, lhs->nsel, 0, w, 4))
        return false;
    kb_release(a, v.reg);
    return true;
}

bool lower_call_stmt(A *a, node *n)
{
    if (n->op == F_EXT) {
        opnd o;
        return lower_extern_call(a, n, -1, &o);
    }
    if (n->op == F_BARRIER || n->op == F_MEM_FENCE ||
        n->op == F_READ_MEM_FENCE || n->op == F_WRITE_MEM_FENCE) {
        uint32_t w[1] = {n->sel[0]};
        return kb_emit(a, op_variant((enum bc_base)asm_fns[n->op].base,
                                     TY_UINT), 1, 0, w, 1);
    }
    if (n->op >= F_ASYNC_COPY && n->op <= F_PREFETCH) {
        opnd o;
        if (!lower_async(a, n, -1, &o))
            return false;
        if (n->op <= F_ASYNC_STRIDED_COPY)
            kb_release(a, o.reg);
        return true;
    }
    if (n->op < F_COUNT && asm_fns[n->op].base == BCB_ATOM) {
        /* the old value unused */
        opnd o;
        if (!lower_atomic(a, n, -1, &o))
            return false;
        kb_release(a, o.reg);
        return true;
    }
    const bi_desc *bi = &n->bi;
    opnd v, off;
    uint32_t p;
    if (!lower_expr(a, n->args[0], -1, &v) || !lower_expr(a, n->args[1], -1, &off) ||
        !lower_ptr(a, n->args[2], -1, &p))
        return false;
    uint32_t w[3] = {v.reg, off.reg, p};
    bool ok;
    if (bi->kind == BI_VSTORE) {
        ok = emit(a, BCB_VSTORE, v.ty, v.ty.n, 0, w, 3);
    } else {
        unsigned fl = (bi->kind == BI_VSTOREA_HALF ? BC_F_ALIGNED : 0) |
                      (unsigned)bi->round << BC_F_RND_SHIFT;
        ok = emit(a, BCB_VSTH, v.ty, v.ty.n, fl, w, 3);
    }
    kb_release(a, v.reg);
    kb_release(a, off.reg);
    kb_release(a, p);
    return ok;
}
