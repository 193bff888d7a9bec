/* Contraction sites: which OpFMul + OpFAdd pairs are a contractible
 * a * b + c (CMAD) and which add a product an earlier statement stored in
 * a variable (XMAD), so that each profile rounds them as its device does
 * (docs/opencl-c.md, "Contraction"). */
#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"

/* The instruction after `at`, past OpLine, OpNoLine and debug ones. */
static uint32_t next_ins(spv_mod *m, uint32_t at)
{
    for (at += spv_wc(m, at); at < m->nw; at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at);
        if (op != SpvOpLine && op != SpvOpNoLine &&
            !(op == SpvOpExtInst && spv_wc(m, at) > 3 &&
              spv_word(m, at, 3) < m->bound &&
              m->extset[spv_word(m, at, 3)] == SE_SKIP))
            return at;
    }
    return 0;
}

static uint32_t uses(SX *x, uint32_t id)
{
    return id < x->m.bound ? ((const uint32_t *)x->fr->tmp[0])[id] : 0;
}

/* The OpFMul that the OpFAdd at `add` contracts, or 0. llvm-spirv writes
 * clang's llvm.fmuladd (a contractible a * b + c) as an OpFMul straight
 * before the OpFAdd that takes it first; uncontracted code evaluates the
 * addend in between, unless it is a constant. */
static uint32_t contracted(SX *x, uint32_t add)
{
    spv_mod *m = &x->m;
    if (spv_op(m, add) != SpvOpFAdd || spv_wc(m, add) < 5)
        return 0;
    uint32_t id = spv_word(m, add, 3), def = id < m->bound ? m->def[id] : 0;
    if (!def || spv_op(m, def) != SpvOpFMul || spv_wc(m, def) < 5 ||
        uses(x, id) != 1 || next_ins(m, def) != add)
        return 0;
    uint32_t c = spv_word(m, add, 4);
    if (c < m->bound && spv_const_of(m, c) &&
        spv_contract_off(m, x->fr->f, add))
        return 0;
    return def;
}

bool sx_fused_mul(SX *x)
{
    uint32_t n = next_ins(&x->m, x->at);
    return n && contracted(x, n) == x->at;
}

/* The registers of the OpFMul at `mul`'s operands. */
static void mul_operands(SX *x, uint32_t mul, uint32_t w[4])
{
    uint32_t at = x->at;
    x->at = mul;
    w[1] = sx_reg(x, 3), w[2] = sx_reg(x, 4);
    x->at = at;
}

/* Is the variable of the OpLoad defining id (in the block [from, to))
 * last stored, in that block, from an OpFMul whose product is what the
 * variable holds at `to`, its operands unchanged since? Its offset, or 0. */
static uint32_t stored_mul(SX *x, uint32_t id, uint32_t from, uint32_t to)
{
    spv_mod *m = &x->m;
    uint32_t ld = id < m->bound ? m->def[id] : 0;
    if (!ld || spv_op(m, ld) != SpvOpLoad || spv_wc(m, ld) < 4)
        return 0;
    uint32_t var = spv_word(m, ld, 3);
    if (var >= m->bound || (x->fr->v[var].kind != VK_VAR &&
                            x->fr->v[var].kind != VK_ALIAS) || ld < from ||
        ld > to)
        return 0;
    uint32_t mul = 0, st = 0;
    for (uint32_t at = from; at < to; at += spv_wc(m, at))
        if (spv_op(m, at) == SpvOpStore && spv_wc(m, at) > 2 &&
            spv_word(m, at, 1) == var) {
            uint32_t v = spv_word(m, at, 2), d = v < m->bound ? m->def[v] : 0;
            bool fm = d >= from && d < at && spv_op(m, d) == SpvOpFMul;
            mul = fm ? d : 0, st = fm ? at : 0;
        }
    /* from the product on, nothing else writes a variable */
    for (uint32_t at = mul; mul && at < to; at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at);
        bool res = false, rtype = false;
        spv_result(op, &res, &rtype);
        uint32_t r = rtype && spv_wc(m, at) > 2 ? spv_word(m, at, 2) : 0;
        if ((op == SpvOpStore && at != st) || op == SpvOpFunctionCall ||
            (r && r < m->bound && x->fr->into[r] && at != mul))
            mul = 0;
    }
    if (!mul || ld < st)
        return 0;
    for (uint32_t i = 3; i < 5; i++) {   /* p = p * b changes p */
        uint32_t o = spv_word(m, mul, i), od = o < m->bound ? m->def[o] : 0;
        if (od && spv_op(m, od) == SpvOpLoad && spv_wc(m, od) > 3 &&
            spv_word(m, od, 3) == var)
            return 0;
    }
    return mul;
}

/* The block of the current function that holds `at`. */
static const spv_block *block_of(SX *x, uint32_t at)
{
    const spv_func *f = x->fr->f;
    for (uint32_t b = 0; b < f->nblocks; b++)
        if (f->blocks[b].at <= at && at <= f->blocks[b].term)
            return &f->blocks[b];
    return NULL;
}

bool sx_muladd(SX *x)
{
    spv_mod *m = &x->m;
    uint32_t w[4], mul = contracted(x, x->at), base = BCB_CMAD, other = 4;
    if (!mul) {
        const spv_block *bl = block_of(x, x->at);
        for (uint32_t i = 3; bl && !mul && i < 5; i++)
            if ((mul = stored_mul(x, spv_word(m, x->at, i), bl->at, x->at)))
                other = 7 - i;
        if (mul && spv_contract_off(m, x->fr->f, x->at))
            mul = 0;
        base = BCB_XMAD;
    }
    if (!mul)
        return false;
    mul_operands(x, mul, w);
    w[3] = sx_reg(x, other);
    ty_t t = sx_vty(x, spv_word(m, x->at, 1));
    w[0] = sx_def(x, t);
    sx_emit(x, (enum bc_base)base, (enum ty_scalar)t.s, t.n, 0, w, 4);
    return true;
}
