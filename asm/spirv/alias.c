/* Copies -O0 code does not need: a load of a variable whose value is used
 * only in its block before the variable is written again reads the
 * variable's register itself (alias), and a value computed only to be
 * stored into a variable, with no access to it in between, is computed
 * straight into the variable's register (into). So `i = i + 1` is one ADD
 * on i, as the text assembler writes it. Within one block at a time. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"

enum {
    NONE = UINT32_MAX - 1,   /* ublk: not used */
    MULTI = UINT32_MAX,      /* ublk: used in another block or a phi */
    MAX_BLOCK = 4096,        /* longer blocks are left as they are */
};

/* The first operand word of the instruction at `at` that may be an id:
 * after the result type and result (some later words are literals: that
 * only makes the analysis more careful); none for OpLine and debug
 * instructions. */
static uint32_t operands(spv_mod *m, uint32_t at)
{
    uint32_t op = spv_op(m, at);
    bool res = false, rtype = false;
    spv_result(op, &res, &rtype);
    if (op == SpvOpLine || (op == SpvOpExtInst && spv_wc(m, at) > 3 &&
                            spv_word(m, at, 3) < m->bound &&
                            m->extset[spv_word(m, at, 3)] == SE_SKIP))
        return spv_wc(m, at);
    return rtype ? 3 : res ? 2 : 1;
}

static bool is_chain(uint32_t op)
{
    return op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain ||
           op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain;
}

/* Instructions whose operands val.c may read later, where the result is
 * used (VK_CHAIN, VK_SPLAT). */
static bool deferred(uint32_t op)
{
    return is_chain(op) || op == SpvOpCompositeInsert;
}

/* May the result of op be computed straight into a variable (in place,
 * reading it too)? */
static bool forwardable(uint32_t op)
{
    return op != SpvOpPhi && op != SpvOpFunctionCall && op != SpvOpVariable &&
           op != SpvOpVectorShuffle && op != SpvOpCompositeInsert &&
           op != SpvOpCompositeConstruct && !is_chain(op) &&
           op != SpvOpCopyObject;
}

typedef struct {
    spv_mod *m;
    spv_frame *fr;
    uint32_t *nuse, *ublk, *last, *defp, *ats, *wr;
} AL;

static bool var(AL *l, uint32_t id)
{
    /* aux: accessed through a pointer cast too, which this does not
     * follow */
    return id < l->m->bound && l->fr->v[id].kind == VK_VAR &&
           !l->fr->v[id].aux;
}

/* Store forwarding in block b of cnt instructions at ats[]. */
static void forward(AL *l, uint32_t b, uint32_t cnt)
{
    spv_mod *m = l->m;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t at = l->ats[i];
        l->wr[i] = 0;
        if (spv_op(m, at) != SpvOpStore || spv_wc(m, at) < 3)
            continue;
        uint32_t p = m->w[at + 1], v = m->w[at + 2];
        if (!var(l, p))
            continue;
        l->wr[i] = p;
        if (v >= m->bound || !l->defp[v] || l->nuse[v] != 1 ||
            l->ublk[v] != b)
            continue;
        uint32_t d = l->defp[v] - 1, dat = l->ats[d];
        if (d >= i || spv_wc(m, dat) < 3 || m->w[dat + 2] != v)
            continue;   /* defined in another block */
        uint32_t vt = spv_word(m, dat, 1), pt = m->def[p];
        if (!forwardable(spv_op(m, dat)) || spv_wc(m, pt) < 2 ||
            spv_typ(m, pt, m->w[pt + 1])->elem != vt ||
            spv_typ(m, dat, vt)->kind == SK_PTR)
            continue;
        bool clear = true;
        for (uint32_t k = d + 1; k < i && clear; k++) {
            uint32_t o = spv_op(m, l->ats[k]), ka = l->ats[k];
            clear = !((o == SpvOpLoad && spv_wc(m, ka) > 3 &&
                       m->w[ka + 3] == p) ||
                      (o == SpvOpStore && spv_wc(m, ka) > 1 &&
                       m->w[ka + 1] == p) ||
                      l->wr[k] == p);
        }
        if (!clear)
            continue;
        l->fr->into[v] = p;
        l->wr[i] = 0, l->wr[d] = p;   /* the write happens at the def */
    }
}

/* Load aliasing in block b, after forwarding. */
static void alias(AL *l, uint32_t b, uint32_t cnt)
{
    spv_mod *m = l->m;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t at = l->ats[i];
        if (spv_op(m, at) != SpvOpLoad || spv_wc(m, at) < 4)
            continue;
        uint32_t r = m->w[at + 2], p = m->w[at + 3];
        if (!var(l, p) || r >= m->bound || l->ublk[r] != b || !l->last[r])
            continue;
        uint32_t end = l->last[r] - 1;
        bool clear = true;
        for (uint32_t k = i + 1; k < end && clear; k++)
            clear = l->wr[k] != p;
        l->fr->alias[r] = clear;
    }
}

static void one_block(AL *l, uint32_t b)
{
    spv_mod *m = l->m;
    const spv_block *bl = &l->fr->f->blocks[b];
    uint32_t cnt = 0;
    for (uint32_t at = bl->at; at <= bl->term && cnt < MAX_BLOCK;
         at += spv_wc(m, at))
        l->ats[cnt++] = at;
    if (cnt == MAX_BLOCK)
        return;
    for (uint32_t i = cnt; i-- > 0;) {
        uint32_t at = l->ats[i], from = operands(m, at), eff = i + 1;
        uint32_t op = spv_op(m, at);
        if (deferred(op) && spv_wc(m, at) > 2) {
            uint32_t r = m->w[at + 2];
            if (r < m->bound && l->ublk[r] != b)
                eff = UINT32_MAX;   /* its pointer lives on */
            else if (r < m->bound && l->last[r] > eff)
                eff = l->last[r];
        }
        for (uint32_t k = from; k < spv_wc(m, at); k++) {
            uint32_t u = m->w[at + k];
            if (u < m->bound && l->ublk[u] == b && l->last[u] < eff)
                l->last[u] = eff == UINT32_MAX ? 0 : eff;
            if (u < m->bound && eff == UINT32_MAX)
                l->ublk[u] = MULTI;
        }
    }
    for (uint32_t i = 0; i < cnt; i++) {
        bool res = false, rtype = false;
        spv_result(spv_op(m, l->ats[i]), &res, &rtype);
        if (res && rtype && spv_wc(m, l->ats[i]) > 2 &&
            m->w[l->ats[i] + 2] < m->bound)
            l->defp[m->w[l->ats[i] + 2]] = i + 1;
    }
    forward(l, b, cnt);
    alias(l, b, cnt);
}

void spv_alias(spv_mod *m, spv_frame *fr)
{
    const spv_func *f = fr->f;
    uint32_t n = m->bound, maxb = 1;
    AL l = {m, fr, NULL, NULL, NULL, NULL, NULL, NULL};
    for (uint32_t b = 0; b < f->nblocks; b++)
        if (f->blocks[b].term - f->blocks[b].at + 1 > maxb)
            maxb = f->blocks[b].term - f->blocks[b].at + 1;
    if (maxb > MAX_BLOCK)
        maxb = MAX_BLOCK;
    void **own[] = {(void **)&fr->into, (void **)&fr->alias,
                    &fr->tmp[0], &fr->tmp[1], &fr->tmp[2], &fr->tmp[3],
                    &fr->tmp[4], &fr->tmp[5]};
    size_t sizes[] = {4 * (size_t)n, n, 4 * (size_t)n, 4 * (size_t)n,
                      4 * (size_t)n, 4 * (size_t)n, 4 * (size_t)maxb,
                      4 * (size_t)maxb};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (!(*own[i] = calloc(1, sizes[i])))
            spv_fail(m, f->at, "out of memory");
    l.nuse = fr->tmp[0], l.ublk = fr->tmp[1], l.last = fr->tmp[2];
    l.defp = fr->tmp[3], l.ats = fr->tmp[4], l.wr = fr->tmp[5];
    for (uint32_t i = 0; i < n; i++)
        l.ublk[i] = NONE;
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t at = f->blocks[b].at; at <= f->blocks[b].term;
             at += spv_wc(m, at)) {
            uint32_t from = operands(m, at), phi = spv_op(m, at) == SpvOpPhi;
            /* a value stored into a variable that is its value from then
             * on (VK_ALIAS) lives on: it must keep its own register */
            bool lives = spv_op(m, at) == SpvOpStore && spv_wc(m, at) > 2 &&
                         m->w[at + 1] < n &&
                         fr->v[m->w[at + 1]].kind == VK_ALIAS;
            for (uint32_t k = from; k < spv_wc(m, at); k++) {
                uint32_t u = m->w[at + k];
                if (u >= n)
                    continue;
                l.nuse[u]++;
                l.ublk[u] = phi || lives ||
                            (l.ublk[u] != NONE && l.ublk[u] != b) ? MULTI : b;
            }
        }
    for (uint32_t b = 0; b < f->nblocks; b++)
        one_block(&l, b);
    for (int i = 1; i < 6; i++)   /* tmp[0], the use counts, stays */
        free(fr->tmp[i]), fr->tmp[i] = NULL;
}
