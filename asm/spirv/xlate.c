/* Kernels from SPIR-V: each entry point becomes a clvm kernel whose
 * parameters carry the OpenCL C types (kernel_arg_type strings), whose
 * Function variables become registers named as in the source, whose calls
 * are inlined, and whose structured tree (cfg.c) becomes IF/LOOP/BLOCK
 * code with OpPhi copies on the edges; OpLine gives the line table. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"
#include "asm/optab.h"
#include "stdlib/bytes.h"
#include "vm/bcfile.h"
#include "vm/vm.h"

int spv_is(const uint8_t *buf, size_t len)
{
    return len >= 4 && ((buf[0] == 0x03 && buf[1] == 0x02 && buf[2] == 0x23 &&
                         buf[3] == 0x07) ||
                        (buf[0] == 0x07 && buf[1] == 0x23 && buf[2] == 0x02 &&
                         buf[3] == 0x03));
}

static void *zalloc(SX *x, size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p)
        spv_fail(&x->m, x->at, "out of memory");
    return p;
}

/* ---- the block stack (asm/flow.c reads it for labelled jumps) ---- */

static uint32_t open_block(SX *x, enum blk_kind k, uint32_t pc)
{
    A *a = x->a;
    if (a->nblocks == a->capblocks) {
        uint32_t cap = a->capblocks ? a->capblocks * 2 : 16;
        block *nb = realloc(a->blocks, cap * sizeof *nb);
        if (!nb)
            spv_fail(&x->m, x->at, "out of memory");
        a->blocks = nb, a->capblocks = cap;
    }
    a->blocks[a->nblocks] = (block){(uint8_t)k, "", false, pc, a->line, 0,
                                    NULL};
    return a->nblocks++;
}

static void emit0(SX *x, enum bc_base b, uint32_t j, unsigned nw)
{
    uint32_t w[1] = {j};
    sx_emit(x, b, TY_UINT, 1, 0, w, nw);
}

/* ---- conditions ---- */

/* The condition of block b's terminator: its OpBranchConditional operand,
 * or for case sw of an OpSwitch, whether the selector is one of the
 * case's literals. */
static uint32_t condition(SX *x, uint32_t b, int32_t sw)
{
    spv_mod *m = &x->m;
    x->at = x->fr->f->blocks[b].term;
    if (sw < 0)
        return sx_reg(x, 1);
    uint32_t sel = sx_reg(x, 1);
    ty_t st = sx_r(x, sel)->type;
    uint32_t lw = ty_scalar_size((enum ty_scalar)st.s) == 8 ? 2 : 1;
    uint32_t tw = 3 + (uint32_t)(sw - 1) * (lw + 1) + lw;
    uint32_t target = spv_word(m, x->at, tw), acc = UINT32_MAX;
    ty_t mt = TY(lw == 2 ? TY_LONG : TY_INT, 1);
    for (uint32_t i = 3; i + lw < spv_wc(m, x->at); i += lw + 1) {
        if (spv_word(m, x->at, i + lw) != target)
            continue;
        uint64_t v = spv_word(m, x->at, i);
        if (lw == 2)
            v |= (uint64_t)spv_word(m, x->at, i + 1) << 32;
        uint32_t w[3] = {sx_temp(x, mt), sel, sx_const(x, st, v)};
        sx_emit(x, BCB_EQ, (enum ty_scalar)st.s, 1, 0, w, 3);
        if (acc != UINT32_MAX) {
            uint32_t o[3] = {w[0], w[0], acc};
            sx_emit(x, BCB_OR, (enum ty_scalar)mt.s, 1, 0, o, 3);
        }
        acc = w[0];
    }
    return acc;
}

/* ---- edges: OpPhi copies ---- */

static void edge(SX *x, uint32_t from, uint32_t to)
{
    spv_mod *m = &x->m;
    const spv_block *tb = &x->fr->f->blocks[to];
    uint32_t label = x->fr->f->blocks[from].label;
    uint32_t src[64], dst[64], n = 0;
    for (uint32_t at = tb->at; at < tb->term; at += spv_wc(m, at)) {
        if (spv_op(m, at) != SpvOpPhi)
            continue;
        x->at = at;
        uint32_t i = 3;
        while (i + 1 < spv_wc(m, at) && spv_word(m, at, i + 1) != label)
            i += 2;
        if (i + 1 >= spv_wc(m, at))
            spv_fail(m, at, "OpPhi has no value for its predecessor %u",
                     label);
        if (n == 64)
            sx_refuse(x, "more than 64 OpPhi in one block");
        dst[n] = (uint32_t)x->fr->v[spv_word(m, at, 2)].reg;
        src[n] = sx_reg(x, i);
        /* A bool is a mask as wide as what was compared (a long's for
         * a[0] != 0): to the phi's width, sign and all. */
        ty_t st = sx_r(x, src[n])->type, dt = sx_r(x, dst[n])->type;
        if (ty_scalar_size((enum ty_scalar)st.s) !=
            ty_scalar_size((enum ty_scalar)dt.s) && !ty_is_float(st.s) &&
            !ty_is_float(dt.s)) {
            st.s = (uint8_t)ty_signed_of((enum ty_scalar)st.s);
            dt.s = (uint8_t)ty_signed_of((enum ty_scalar)dt.s);
            src[n] = sx_as(x, sx_as(x, src[n], st), dt);
        }
        n++;
    }
    /* A copy reads the others' old values: through temporaries then. */
    bool clash = false;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < n; k++)
            clash |= src[i] == dst[k] && i != k;
    for (int pass = clash ? 0 : 1; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            const bc_reg *r = sx_r(x, dst[i]);
            int32_t d = pass ? (int32_t)dst[i]
                        : r->kind == BC_REG_PTR ? kb_ptemp(x->a, r)
                        : (int32_t)sx_temp(x, r->type);
            if (d < 0)
                sx_refuse(x, "too many registers");
            sx_move(x, (uint32_t)d, src[i]);
            if (!pass)
                src[i] = (uint32_t)d;
        }
}

/* ---- the structured tree ---- */

static void function(SX *x, const spv_func *f, spv_frame *fr);
static void code(SX *x, uint32_t b);

static void jump(SX *x, const snode *s)
{
    opnd o, *c = NULL;
    if (s->cond) {
        o.reg = condition(x, s->b, s->sw);
        o.ty = sx_r(x, o.reg)->type;
        c = &o;
    }
    if (!flow_jump(x->a, x->fr->open[s->label], s->kind == S_BREAK, c,
                   s->neg))
        spv_fail(&x->m, x->at, "internal error: a jump without a target");
}

static void ret(SX *x, const snode *s)
{
    spv_frame *fr = x->fr;
    x->at = fr->f->blocks[s->b].term;
    if (spv_op(&x->m, x->at) == SpvOpReturnValue && fr->ret >= 0) {
        uint32_t v = sx_reg(x, 1);
        ty_t t = sx_r(x, (uint32_t)fr->ret)->type;
        uint32_t w[2] = {(uint32_t)fr->ret, v};
        sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w, 2);
    }
    if (s->tail)
        return;
    if (fr->retblk == UINT32_MAX)
        emit0(x, BCB_RET, 0, 0);
    else if (!flow_jump(x->a, fr->retblk, true, NULL, false))
        spv_fail(&x->m, x->at, "internal error: return without a block");
}

static void list(SX *x, const snode *s);

static void stmt_if(SX *x, const snode *s)
{
    uint32_t c = condition(x, s->b, s->sw), pc = kb_pc(x->a);
    uint32_t w[2] = {c, 0};
    sx_emit(x, BCB_IF, ty_unsigned_of((enum ty_scalar)sx_r(x, c)->type.s), 1,
            0, w, 2);
    open_block(x, B_IF, pc);
    list(x, s->body);
    if (s->els) {
        uint32_t epc = kb_pc(x->a);
        emit0(x, BCB_ELSE, 0, 1);
        kb_patch(x->a, pc + 2, epc);
        list(x, s->els);
        kb_patch(x->a, epc + 1, kb_pc(x->a));
    } else {
        kb_patch(x->a, pc + 2, kb_pc(x->a));
    }
    emit0(x, BCB_ENDIF, 0, 0);
    x->a->nblocks--;
}

static void stmt_loop(SX *x, const snode *s, bool loop)
{
    uint32_t pc = kb_pc(x->a);
    emit0(x, loop ? BCB_LOOP : BCB_BLOCK, 0, 1);
    x->fr->open[s->label] = open_block(x, loop ? B_LOOP : B_BLOCK, pc);
    list(x, s->body);
    kb_patch(x->a, pc + 1, kb_pc(x->a));
    if (loop)
        emit0(x, BCB_ENDLOOP, pc + 2, 1);
    else
        emit0(x, BCB_ENDBLOCK, 0, 0);
    x->a->nblocks--;
}

static void list(SX *x, const snode *s)
{
    for (; s; s = s->next) {
        switch (s->kind) {
        case S_CODE: code(x, s->b); break;
        case S_IF: stmt_if(x, s); break;
        case S_LOOP: stmt_loop(x, s, true); break;
        case S_BLOCK: stmt_loop(x, s, false); break;
        case S_BREAK: case S_CONT: jump(x, s); break;
        case S_RET: ret(x, s); break;
        case S_EDGE: edge(x, s->b, s->to); break;
        }
    }
}

/* ---- calls, inlined ---- */

static void frame_free(spv_frame *fr)
{
    free(fr->v), free(fr->open), free(fr->scratch), free(fr->hint);
    free(fr->into), free(fr->alias);
    for (int i = 0; i < 6; i++)
        free(fr->tmp[i]);
    spv_tree_free(&fr->t);
    free(fr);
}

/* A frame for function f, owned by x->spare until it is current (freed
 * after an error too); its caller stays current. */
static spv_frame *frame_new(SX *x, const spv_func *f)
{
    spv_frame *fr = x->spare = zalloc(x, 1, sizeof *fr);
    fr->up = x->fr;
    fr->v = zalloc(x, x->m.bound, sizeof *fr->v);
    fr->f = f;
    fr->ret = -1;
    fr->retblk = UINT32_MAX;
    return fr;
}

static void call(SX *x)
{
    spv_mod *m = &x->m;
    const spv_func *f = spv_func_of(m, x->at, spv_word(m, x->at, 3));
    if (!f->nblocks)
        sx_refuse(x, "a call to '%s', which is declared but not defined "
                  "(OpenCL C needs every function it calls defined in the "
                  "program)", m->names[f->id] ? m->names[f->id] : "?");
    if (spv_wc(m, x->at) != 4 + f->nparams)
        spv_fail(m, x->at, "a call with %u arguments to a function of %u",
                 spv_wc(m, x->at) - 4, f->nparams);
    if (x->depth >= SPV_MAX_INLINE)
        sx_refuse(x, "calls nested more than %d deep (recursion is not "
                  "OpenCL C)", SPV_MAX_INLINE);
    if (kb_pc(x->a) > SPV_MAX_CODE || ++x->calls > SPV_MAX_CODE / 16)
        sx_refuse(x, "the kernel is too large with its calls inlined");
    spv_frame *fr = frame_new(x, f), *caller = x->fr;
    for (uint32_t i = 0; i < f->nparams; i++) {
        spv_val *v = sx_val(x, 4 + i);
        if (m->deco[f->params[i]].byval) {   /* a struct or union by value */
            const spv_type *pt = spv_typ(m, x->at, spv_type_of(m, x->at,
                                                               spv_id(m, x->at, 4 + i)));
            uint32_t si, sp = sx_addr(x, v, 4 + i, &si);
            fr->v[f->params[i]] = sv((int32_t)sx_byval(x, sp, si, pt->elem),
                                     VK_REG, 0);
        } else if (v->kind == VK_NONE || v->kind == VK_CHAIN)
            fr->v[f->params[i]] = sv((int32_t)sx_reg(x, 4 + i),
                                             VK_REG, 0);
        else
            fr->v[f->params[i]] = *v;
    }
    const spv_type *rt = spv_typ(m, x->at, spv_word(m, x->at, 1));
    if (rt->kind != SK_VOID)
        fr->ret = (int32_t)sx_def(x, sx_vty(x, spv_word(m, x->at, 1)));
    x->fr = fr, x->spare = NULL;
    x->depth++;
    function(x, f, fr);
    x->depth--;
    x->fr = caller;
    frame_free(fr);
}

static void code(SX *x, uint32_t b)
{
    spv_mod *m = &x->m;
    const spv_block *bl = &x->fr->f->blocks[b];
    for (uint32_t at = bl->at; at < bl->term; at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at);
        x->at = at;
        if (op == SpvOpLine) {
            x->a->line = spv_word(m, at, 2);
            if (!m->source) {
                uint32_t s = spv_id(m, at, 1);
                if (spv_op(m, m->def[s]) == SpvOpString)
                    m->source = spv_str(m, m->def[s], 2, NULL);
            }
        } else if (op == SpvOpFunctionCall) {
            call(x);
        } else if (op != SpvOpPhi && op != SpvOpVariable && op != SpvOpName) {
            sx_ins(x, op);
        }
    }
}

/* ---- a function's variables ---- */


/* How a function uses its variables: whether the address escapes (used
 * other than as the pointer of a load or store), how often it is stored,
 * and whether its one store is in the entry block before any load (then
 * the variable is the stored value, for good: x.addr = x). */
typedef struct {
    uint8_t esc, once;
    uint8_t viewed;       /* loaded or stored through a pointer cast */
    uint32_t stores;
    uint32_t value;       /* the value of the (last) store */
    uint32_t castof;      /* a pointer cast: the id it casts, or 0 */
    uint32_t loadof;      /* a value: the variable it was loaded from */
    uint32_t storeto;     /* a value: a variable it is stored to */
    int32_t sign;         /* a variable: signed uses less unsigned ones */
} varuse;

/* The variable a pointer (cast) is, for the use counts. */
static uint32_t root(const varuse *u, uint32_t p)
{
    return u[p].castof ? u[p].castof : p;
}

static void uses(SX *x, const spv_func *f, uint32_t b, varuse *u)
{
    spv_mod *m = &x->m;
    for (uint32_t at = f->blocks[b].at; at <= f->blocks[b].term;
         at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at), from = 1;
        if (op == SpvOpLoad) {
            uint32_t p = spv_word(m, at, 3);
            if (p < m->bound && spv_word(m, at, 2) < m->bound)
                u[spv_word(m, at, 2)].loadof = root(u, p);
            if (p < m->bound && !u[root(u, p)].stores)
                u[root(u, p)].once = 2;   /* read before written */
            continue;                     /* the rest are literals */
        }
        if (op == SpvOpStore) {
            uint32_t p = spv_word(m, at, 1), v = spv_word(m, at, 2);
            if (p < m->bound && u[p].castof)   /* a view: no aliasing */
                u[root(u, p)].once = 2;
            if (p < m->bound && u[p].once != 2)
                u[p].once = b == 0 && v < m->bound && m->def[v] &&
                            spv_op(m, m->def[v]) != SpvOpPhi;
            if (p < m->bound)
                u[root(u, p)].stores++, u[p].value = v;
            if (p < m->bound && v < m->bound)
                u[v].storeto = root(u, p);
            if (v < m->bound)   /* a stored pointer escapes; the memory */
                u[v].esc = u[root(u, v)].esc = 1;   /* operands are literals */
            continue;
        }
        if (op == SpvOpBitcast && spv_wc(m, at) == 4 &&
            spv_word(m, at, 2) < m->bound && spv_word(m, at, 3) < m->bound &&
            spv_typ(m, at, spv_word(m, at, 1))->kind == SK_PTR) {
            uint32_t r = spv_word(m, at, 2), p = spv_word(m, at, 3);
            u[r].castof = root(u, p);
            u[root(u, p)].viewed = 1;
            continue;
        }
        if (op == SpvOpLine || op == SpvOpVariable ||
            (op == SpvOpExtInst && spv_wc(m, at) > 3 &&
             spv_word(m, at, 3) < m->bound &&
             m->extset[spv_word(m, at, 3)] == SE_SKIP))
            continue;
        if (op == SpvOpExtInst)
            from = 5;   /* after the set and the instruction's number */
        /* Literal operands are no ids either (a shuffle's component 17
         * is not variable %17). */
        uint32_t end = op == SpvOpVectorShuffle || op == SpvOpCompositeInsert
                           ? 5 : op == SpvOpCompositeExtract ? 4
                           : op == SpvOpSwitch ? 2 : spv_wc(m, at);
        for (uint32_t i = from; i < end && i < spv_wc(m, at); i++)
            if (m->w[at + i] < m->bound)
                u[m->w[at + i]].esc = u[root(u, m->w[at + i])].esc = 1;
    }
}

static void variable(SX *x, uint32_t at, const varuse *u)
{
    spv_mod *m = &x->m;
    uint32_t id = spv_word(m, at, 2);
    const spv_type *pt = spv_typ(m, at, spv_word(m, at, 1));
    if (pt->kind != SK_PTR || spv_word(m, at, 3) != SpvStorageClassFunction)
        spv_fail(m, at, "a variable in a function must have Function "
                 "storage");
    if (spv_wc(m, at) > 4)
        sx_refuse(x, "an initialised function variable ('%s')",
                  m->names[id] ? m->names[id] : "?");
    const spv_type *t = spv_typ(m, at, pt->elem);
    bc_reg r = {0};
    if (spv_is_agg(m, pt->elem)) {
        /* structs, arrays (of arrays, of structs): private memory */
        int32_t reg = sx_agg_var(x, pt->elem, BC_PRIVATE, m->names[id],
                                 "private_array");
        x->fr->v[id] = sv(reg, VK_REG, 0);
        return;
    }
    if (!u[id].esc && u[id].stores == 1 && u[id].once == 1) {
        x->fr->v[id] = sv(-1, VK_ALIAS, 0);
        /* the value's register takes the variable's name (i = call) */
        uint32_t v = u[id].value, d = v < m->bound ? m->def[v] : 0;
        if (m->names[id] && d > m->globals_end &&
            spv_op(m, d) != SpvOpFunctionParameter && !x->fr->hint[v])
            x->fr->hint[v] = m->names[id];
        return;
    }
    if (u[id].esc) {   /* a pointer's: an 8-byte slot (LDP, STP) */
        int32_t reg = sx_agg_var(x, pt->elem, BC_PRIVATE, m->names[id],
                                 "private_array");
        x->fr->v[id] = sv(reg, VK_REG, 0);
        return;
    }
    if (t->kind == SK_PTR) {
        uint32_t reg = sx_defptr(x, id, spv_memty(m, at, t->elem),
                                 sx_space(x, t->space), false,
                                 m->names[id]);
        x->fr->v[id] = sv((int32_t)reg, VK_VAR, 0);
        return;
    }
    r.type = sx_vty(x, pt->elem), r.kind = BC_REG_VALUE;
    if (u[id].sign < 0 && !ty_is_float((enum ty_scalar)r.type.s))
        r.type = ty_unsigned(r.type);   /* used as OpenCL C's uint */
    int32_t reg = sx_named(x, m->names[id], r);
    if (reg < 0)
        reg = (int32_t)sx_temp(x, r.type);
    x->fr->v[id] = sv(reg, VK_VAR, u[id].viewed);   /* alias.c: aux 0 */
}

/* How the instruction at `at` reads its operands and makes its result:
 * +1 signed, -1 unsigned, 0 either way. */
static void signs(spv_mod *m, uint32_t at, int *in, int *out)
{
    uint32_t op = spv_op(m, at);
    *in = *out = 0;
    switch (op) {
    case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod: case SpvOpSLessThan:
    case SpvOpSLessThanEqual: case SpvOpSGreaterThan:
    case SpvOpSGreaterThanEqual: case SpvOpShiftRightArithmetic:
        *in = *out = 1;
        break;
    case SpvOpUDiv: case SpvOpUMod: case SpvOpULessThan:
    case SpvOpULessThanEqual: case SpvOpUGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpShiftRightLogical:
        *in = *out = -1;
        break;
    case SpvOpConvertSToF: *in = 1; break;
    case SpvOpConvertUToF: *in = -1; break;
    case SpvOpConvertFToS: *out = 1; break;
    case SpvOpConvertFToU: *out = -1; break;
    case SpvOpSatConvertSToU: *in = 1, *out = -1; break;
    case SpvOpSatConvertUToS: *in = -1, *out = 1; break;
    case SpvOpSConvert: case SpvOpUConvert: {
        const spv_type *r = spv_typ(m, at, spv_word(m, at, 1));
        const spv_type *a = spv_typ(m, at, spv_type_of(m, at,
                                                        spv_id(m, at, 3)));
        if (ty_scalar_size((enum ty_scalar)r->ty.s) >
            ty_scalar_size((enum ty_scalar)a->ty.s))   /* widening */
            *in = *out = op == SpvOpSConvert ? 1 : -1;
        break;
    }
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpSNegate:
        /* clang marks signed + - * NoSignedWrap, never unsigned ones */
        *in = *out = m->deco[spv_word(m, at, 2)].nsw ? 1 : -1;
        break;
    }
}

/* Votes for each variable's sign from how its values are used. */
static void vote(SX *x, const spv_func *f, varuse *u)
{
    spv_mod *m = &x->m;
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t at = f->blocks[b].at; at < f->blocks[b].term;
             at += spv_wc(m, at)) {
            int in, out;
            bool res = false, rtype = false;
            spv_result(spv_op(m, at), &res, &rtype);
            if (!rtype || spv_wc(m, at) < 4)
                continue;
            x->at = at;
            signs(m, at, &in, &out);
            for (uint32_t i = 3; in && i < spv_wc(m, at); i++) {
                uint32_t id = m->w[at + i];
                if (id < m->bound && u[id].loadof)
                    u[u[id].loadof].sign += in;
            }
            uint32_t r = spv_word(m, at, 2);
            if (out && u[r].storeto)
                u[u[r].storeto].sign += out;
        }
}

/* Registers for the function's variables and OpPhi results. */
static void declare(SX *x, const spv_func *f)
{
    spv_mod *m = &x->m;
    varuse *u = zalloc(x, m->bound, sizeof *u);
    x->fr->scratch = u;
    x->fr->hint = zalloc(x, m->bound, sizeof *x->fr->hint);
    for (uint32_t b = 0; b < f->nblocks; b++)
        uses(x, f, b, u);
    vote(x, f, u);
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t at = f->blocks[b].at; at < f->blocks[b].term;
             at += spv_wc(m, at)) {
            x->at = at;
            if (spv_op(m, at) == SpvOpVariable) {
                variable(x, at, u);
            } else if (spv_op(m, at) == SpvOpPhi) {
                const spv_type *pt = spv_typ(m, at, spv_word(m, at, 1));
                uint32_t id = spv_word(m, at, 2);
                if (pt->kind == SK_PTR)   /* a choice between pointers */
                    sx_defptr(x, id, spv_memty(m, at, pt->elem),
                              sx_space(x, pt->space), false, m->names[id]);
                else
                    sx_def(x, sx_vty(x, spv_word(m, at, 1)));
            }
        }
    x->fr->scratch = NULL;
    free(u);
    spv_alias(m, x->fr);
}

static bool early_return(const snode *s)
{
    for (; s; s = s->next)
        if ((s->kind == S_RET && !s->tail) || early_return(s->body) ||
            early_return(s->els))
            return true;
    return false;
}

static void function(SX *x, const spv_func *f, spv_frame *fr)
{
    spv_structure(&x->m, f, &fr->t);
    fr->open = zalloc(x, fr->t.nlabels + 1, sizeof *fr->open);
    declare(x, f);
    uint32_t pc = kb_pc(x->a);
    bool blk = fr->up && early_return(fr->t.root);
    if (blk) {
        emit0(x, BCB_BLOCK, 0, 1);
        fr->retblk = open_block(x, B_BLOCK, pc);
    }
    list(x, fr->t.root);
    if (blk) {
        kb_patch(x->a, pc + 1, kb_pc(x->a));
        emit0(x, BCB_ENDBLOCK, 0, 0);
        x->a->nblocks--;
    }
}

/* ---- kernels ---- */

/* The kernel's source line: its DebugFunction's, else its first OpLine. */
static uint32_t header_line(SX *x, const spv_func *entry, const char *name)
{
    spv_mod *m = &x->m;
    const spv_func *f = entry;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->names[m->funcs[i].id] && !strcmp(m->names[m->funcs[i].id],
                                                name))
            f = &m->funcs[i];
    for (uint32_t at = 5; at < m->globals_end; at += spv_wc(m, at))
        if (spv_op(m, at) == SpvOpExtInst && spv_wc(m, at) > 14 &&
            spv_word(m, at, 3) < m->bound &&
            m->extset[spv_word(m, at, 3)] == SE_SKIP &&
            spv_word(m, at, 4) == 20 /* DebugFunction */ &&
            spv_word(m, at, 14) == f->id)
            return spv_word(m, at, 8);
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t at = f->blocks[b].at; at < f->blocks[b].term;
             at += spv_wc(m, at))
            if (spv_op(m, at) == SpvOpLine)
                return spv_word(m, at, 2);
    return 1;
}

/* Item i of a comma-separated list, into buf, without a trailing '*'. */
static void item(const char *s, uint32_t i, char *buf, size_t len)
{
    while (i && *s)
        i -= *s++ == ',';
    size_t n = 0;
    while (s[n] && s[n] != ',')
        n++;
    while (n && (s[n - 1] == '*' || s[n - 1] == ' '))
        n--;
    if (n >= len)
        n = len - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
}

/* The OpenCL C type a kernel_arg_type names, if clvm has it and it has
 * t's size and count (it gives integers their sign); else t. */
static ty_t declared(const char *name, ty_t t)
{
    static const char *const c[][2] = {
        {"unsigned char", "uchar"}, {"unsigned short", "ushort"},
        {"unsigned int", "uint"}, {"unsigned long", "ulong"},
        {"unsigned", "uint"}, {"signed char", "char"}, {"size_t", "ulong"},
        {"ptrdiff_t", "long"}, {"intptr_t", "long"}, {"uintptr_t", "ulong"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (!strcmp(name, c[i][0]))
            name = c[i][1];
    ty_t d;
    if (ty_parse(name, strlen(name), &d) && d.n == t.n &&
        ty_scalar_size((enum ty_scalar)d.s) ==
            ty_scalar_size((enum ty_scalar)t.s) &&
        ty_is_float((enum ty_scalar)d.s) == ty_is_float((enum ty_scalar)t.s))
        return d;
    return t;
}

/* Does function f use id other than as an argument of a call? */
static bool used_here(spv_mod *m, const spv_func *f, uint32_t id)
{
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t at = f->blocks[b].at; at <= f->blocks[b].term;
             at += spv_wc(m, at)) {
            uint32_t op = spv_op(m, at), wc = spv_wc(m, at);
            for (uint32_t i = 1; i < wc && op != SpvOpFunctionCall; i++)
                if (spv_word(m, at, i) == id && op != SpvOpLine &&
                    op != SpvOpExtInst)
                    return true;
        }
    return false;
}

/* Kernel parameter i (id), a struct or union of type t passed by value
 * (clang's byval pointer): a `constant` pointer to the argument's bytes,
 * with its size, alignment, declared type name tn and member layout in
 * the module (bc_byval); copied into private memory first where the
 * kernel itself uses it (the calls it is passed to copy it anyway). */
static void byval_param(SX *x, uint32_t i, uint32_t id, uint32_t t,
                        const char *tn)
{
    spv_mod *m = &x->m;
    spv_lay l = spv_layout(m, x->at, t);
    if (l.size > BC_MAX_BYVAL)
        sx_refuse(x, "kernel parameter %u ('%s'): a struct of %llu bytes "
                  "by value (at most %d)", i + 1, m->names[id] ? m->names[id]
                  : "?", (unsigned long long)l.size, BC_MAX_BYVAL);
    bc_reg r = {0};
    r.init = BC_INIT_PARAM, r.arg = i, r.kind = BC_REG_PTR;
    r.space = BC_CONSTANT, r.type = spv_memty(m, x->at, t);
    r.flags = BC_REGF_CONSTPTR;
    int32_t reg = sx_named(x, m->names[id], r);
    if (reg < 0) {
        char pn[32];
        snprintf(pn, sizeof pn, "arg%u", i + 1);
        reg = sx_named(x, pn, r);
    }
    char *lt = spv_layout_text(m, x->at, t);
    if (reg < 0 || !lt || !kb_param(x->a, (uint32_t)reg)) {
        free(lt);
        spv_fail(m, x->at, "out of memory");
    }
    char nm[64];   /* without kernel arg info: OpName's "struct.foo" */
    snprintf(nm, sizeof nm, "%s", *tn ? tn : m->names[t] ? m->names[t] : "");
    if (!*tn && strchr(nm, '.'))
        *strchr(nm, '.') = ' ';
    for (char *c = nm; *c; c++)   /* printable in `clvm dis`'s quotes */
        if (*c < ' ' || *c > '~' || *c == '"' || *c == '\\')
            *c = '_';
    bc_byval b = {(uint32_t)l.size, (uint32_t)l.align,
                  kb_str(x->a, nm, strlen(nm)), kb_str(x->a, lt, strlen(lt))};
    free(lt);
    kb_byval(x->a, b);
    x->fr->v[id] = sv(reg, VK_REG, 0);
    if (used_here(m, x->fr->f, id))
        x->fr->v[id] = sv((int32_t)sx_byval(x, (uint32_t)reg,
                                            sx_const(x, TY(TY_INT, 1), 0), t),
                          VK_REG, 0);
}

static void params(SX *x, const spv_entry *e, const spv_func *f)
{
    spv_mod *m = &x->m;
    const char *types = spv_argtypes(m, e->name, false);
    const char *quals = spv_argtypes(m, e->name, true);
    for (uint32_t i = 0; i < f->nparams; i++) {
        uint32_t id = f->params[i];
        x->at = m->def[id];
        const spv_type *t = spv_typ(m, x->at, spv_word(m, x->at, 1));
        char tn[64], qn[64], pn[32];
        item(types, i, tn, sizeof tn);
        item(quals, i, qn, sizeof qn);
        bc_reg r = {0};
        r.init = BC_INIT_PARAM, r.arg = i;
        if (t->kind == SK_PTR && t->space == SPV_SC_FUNCTION &&
            m->deco[id].byval) {
            byval_param(x, i, id, t->elem, tn);
            continue;
        }
        if (t->kind == SK_PTR) {
            if (t->space > BC_LOCAL)
                sx_refuse(x, "kernel parameter %u: a pointer to private or "
                          "generic memory", i + 1);
            r.kind = BC_REG_PTR, r.space = t->space;
            r.type = declared(tn, spv_memty(m, x->at, t->elem));
            r.flags = strstr(qn, "const") ? BC_REGF_CONSTPTR : 0;
        } else {
            r.kind = BC_REG_VALUE;
            r.type = declared(tn, sx_vty(x, spv_word(m, x->at, 1)));
        }
        int32_t reg = sx_named(x, m->names[id], r);
        if (reg < 0) {
            snprintf(pn, sizeof pn, "arg%u", i + 1);
            reg = sx_named(x, pn, r);
        }
        if (!kb_param(x->a, (uint32_t)reg))
            spv_fail(m, x->at, "out of memory");
        x->fr->v[id] = sv(reg, VK_REG, 0);
    }
}

static void kernel(SX *x, const spv_entry *e)
{
    spv_mod *m = &x->m;
    const spv_func *f = spv_func_of(m, e->at, e->func);
    if (!f->nblocks)
        spv_fail(m, e->at, "kernel '%s' has no body", e->name);
    uint32_t line = header_line(x, f, e->name);
    x->gv = zalloc(x, m->bound, sizeof *x->gv);
    x->calls = 0;
    x->fr = frame_new(x, f);
    x->spare = NULL;
    x->a->line = line;
    for (uint32_t i = 0; i < x->a->nkernels; i++)
        if (!strcmp(kb_strat(x->a, x->a->kernels[i].name), e->name))
            spv_fail(m, e->at, "two kernels named '%s'", e->name);
    if (!*e->name)
        spv_fail(m, e->at, "a kernel without a name");
    kb_kernel_begin(x->a, e->name, strlen(e->name), line);
    params(x, e, f);
    sx_globals(x, e);
    function(x, f, x->fr);
    emit0(x, BCB_RET, 0, 0);
    if (!kb_kernel_end(x->a))
        spv_fail(m, e->at, "out of memory");
    if (!bc_groupsize_ok(e->reqd))
        spv_fail_line(m, line, "kernel '%s': reqd_work_group_size(%u, %u, "
                      "%u): a work-group holds 1 to %u work-items", e->name,
                      e->reqd[0], e->reqd[1], e->reqd[2], VM_MAX_GROUP);
    memcpy(x->a->kernels[x->a->nkernels - 1].reqd, e->reqd, sizeof e->reqd);
    frame_free(x->fr);
    x->fr = NULL;
    free(x->gv);
    x->gv = NULL;
}

/* The module's words in host order (a big-endian module is swapped). */
static uint32_t *words(const uint8_t *buf, size_t len)
{
    uint32_t *w = malloc(len / 4 * 4 + 4);
    bool swap = len >= 4 && buf[0] == 0x07;
    for (size_t i = 0; w && i + 4 <= len; i += 4) {
        uint32_t v = (uint32_t)le_load(buf + i, 4);
        w[i / 4] = swap ? v << 24 | (v & 0xff00) << 8 | (v >> 8 & 0xff00) |
                          v >> 24 : v;
    }
    return w;
}

static void module(SX *x, size_t len, bc_module *out)
{
    if (len % 4)
        spv_fail(&x->m, (uint32_t)(len / 4), "the module is not a whole "
                 "number of 32-bit words (%zu bytes)", len);
    if (len / 4 > UINT32_MAX / 2)
        spv_fail(&x->m, 0, "the module is too large");
    spv_read(&x->m);
    spv_types(&x->m);
    if (!x->m.nentries)
        spv_fail(&x->m, 5, "the module has no kernel (no OpEntryPoint "
                 "Kernel)");
    for (uint32_t i = 0; i < x->m.nentries; i++)
        kernel(x, &x->m.entries[i]);
    x->a->source = strdup(spv_source(&x->m));
    if (!x->a->source)
        spv_fail(&x->m, 0, "out of memory");
    if (!kb_module_take(x->a, out))
        spv_fail(&x->m, 0, "the module could not be built");
    char err[256];
    if (bc_verify(out, err, sizeof err)) {
        bc_free(out);
        memset(out, 0, sizeof *out);
        spv_fail(&x->m, 0, "internal error: the translated module does not "
                 "verify: %s", err);
    }
}

int spv_translate(const uint8_t *buf, size_t len, const char *name,
                  bc_module *out, FILE *diag)
{
    memset(out, 0, sizeof *out);
    SX *x = calloc(1, sizeof *x);
    uint32_t *w = words(buf, len);
    asm_ctx *a = asm_open(name, diag);
    jmp_buf jb;
    if (!x || !w || !a) {
        fprintf(diag, "%s: error: out of memory\n", name);
        free(x), free(w), asm_close(a);
        return 1;
    }
    x->a = a;
    x->m.w = w, x->m.nw = (uint32_t)(len / 4 > UINT32_MAX / 2 ? 0 : len / 4);
    x->m.name = name, x->m.diag = diag, x->m.fail = &jb;
    if (!setjmp(jb)) {
        module(x, len, out);
    } else {
        if (x->spare)
            frame_free(x->spare);
        while (x->fr) {
            spv_frame *up = x->fr->up;
            frame_free(x->fr);
            x->fr = up;
        }
        free(x->gv);
    }
    int nerr = x->m.nerr;
    spv_mod_free(&x->m);
    asm_close(a);
    free(w), free(x);
    return nerr;
}
