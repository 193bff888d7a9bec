/* The structuriser: a function's control-flow graph becomes a tree of
 * if / loop / block / break / continue, a stackifier in the manner of
 * Ramsey's "Beyond Relooper": blocks in reverse postorder, the dominator
 * tree, natural loops; a node with two or more forward in-edges (a merge
 * node) follows a labelled block that its predecessors break out of, and a
 * node a loop exits to follows the loop (so the lanes that leave it
 * reconverge there before going on, as a barrier after a loop needs). A
 * retreating edge to a node that does not dominate its source makes the
 * graph irreducible: an error with the source line. Then the tree is
 * tidied: jumps to where control goes anyway vanish, blocks nobody breaks
 * out of are opened up, and `if c` around a lone break becomes `break if`.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"

enum { MAX_DEPTH = 400 };    /* nesting of the tree being built */

typedef struct {
    spv_mod *m;
    const spv_func *f;
    spv_tree *t;
    uint32_t n;
    int32_t *bidx;        /* by label id: block index, -1 */
    uint32_t **succ;      /* successors per block */
    uint32_t *nsucc;
    uint32_t *pred0;      /* reachable predecessors of b: preds[pred0[b]
                             .. pred0[b + 1]) */
    uint32_t *preds, npred;
    uint32_t *rpo;        /* block -> reverse postorder number; n: dead */
    uint32_t *order;      /* rpo number -> block */
    uint32_t *idom, *parent;
    uint32_t *nfwd;       /* forward in-edges */
    bool *header;
    uint32_t *loopof;     /* innermost loop header containing, or n */
    uint32_t *lparent;    /* of a header: the loop around its loop, or n */
    uint32_t *kid0, *kids, *nfol;   /* children placed in blocks (CSR),
                                       nfol of them followers */
    /* the context of the node being placed: a stack of the enclosing
     * loops (follows: n) and blocks (follows: the node after them) */
    struct ctxe { uint32_t label, follows, header; } *ctx;
    uint32_t nctx;
    unsigned depth;
} G;

/* Memory the tree owns: freed by spv_tree_free, after an error too. */
static void *own(G *g, void *p)
{
    spv_tree *t = g->t;
    if (p && t->nall == t->capall) {
        uint32_t cap = t->capall ? 2 * t->capall : 64;
        void **na = realloc(t->all, cap * sizeof *na);
        if (!na)
            free(p), p = NULL;
        else
            t->all = na, t->capall = cap;
    }
    if (!p)
        spv_fail(g->m, g->f->at, "out of memory");
    t->all[t->nall++] = p;
    return p;
}

static void *alloc(G *g, size_t n, size_t sz)
{
    return own(g, calloc(n ? n : 1, sz));
}

static snode *snew(G *g, enum snode_kind k, uint32_t b)
{
    snode *s = alloc(g, 1, sizeof *s);
    s->kind = (uint8_t)k, s->b = b, s->sw = -1;
    return s;
}

static uint32_t block_of(G *g, uint32_t at, uint32_t label)
{
    if (label >= g->m->bound || g->bidx[label] < 0)
        spv_fail(g->m, at, "branch target %u is not a block of this "
                 "function", label);
    return (uint32_t)g->bidx[label];
}

/* The successors of each block, from its terminator. */
static void successors(G *g)
{
    spv_mod *m = g->m;
    for (uint32_t b = 0; b < g->n; b++) {
        uint32_t at = g->f->blocks[b].term, op = spv_op(m, at), k = 0;
        uint32_t wc = spv_wc(m, at);
        g->succ[b] = alloc(g, wc, sizeof **g->succ);
        if (op == SpvOpBranch) {
            g->succ[b][k++] = block_of(g, at, spv_word(m, at, 1));
        } else if (op == SpvOpBranchConditional) {
            g->succ[b][k++] = block_of(g, at, spv_word(m, at, 2));
            g->succ[b][k++] = block_of(g, at, spv_word(m, at, 3));
        } else if (op == SpvOpSwitch) {
            const spv_type *st = spv_typ(m, at, spv_type_of(m, at,
                                          spv_id(m, at, 1)));
            if (st->kind != SK_INT)
                spv_fail(m, at, "OpSwitch on a non-integer selector");
            uint32_t lw = ty_scalar_size((enum ty_scalar)st->ty.s) == 8 ? 2 : 1;
            g->succ[b][k++] = block_of(g, at, spv_word(m, at, 2));
            if ((wc - 3) % (lw + 1))
                spv_fail(m, at, "OpSwitch has a case without a target");
            for (uint32_t i = 3; i + lw < wc; i += lw + 1)
                g->succ[b][k++] = block_of(g, at, spv_word(m, at, i + lw));
        }
        g->nsucc[b] = k;
    }
}

/* Reverse postorder of the blocks reachable from the entry, iteratively;
 * retreating edges are checked after the dominators are known. */
static void number(G *g)
{
    uint32_t *stack = alloc(g, g->n, sizeof *stack);
    uint32_t *next = alloc(g, g->n, sizeof *next);
    bool *seen = alloc(g, g->n, sizeof *seen);
    uint32_t sp = 0, post = g->n;
    for (uint32_t b = 0; b < g->n; b++)
        g->rpo[b] = g->n;
    stack[sp++] = 0, seen[0] = true;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (next[b] < g->nsucc[b]) {
            uint32_t s = g->succ[b][next[b]++];
            if (!seen[s])
                seen[s] = true, stack[sp++] = s;
        } else {
            g->rpo[b] = --post;
            sp--;
        }
    }
    /* Unreachable blocks were never numbered: shift the numbers to 0. */
    uint32_t live = g->n - post;
    for (uint32_t b = 0; b < g->n; b++)
        if (g->rpo[b] < g->n) {
            g->rpo[b] -= post;
            g->order[g->rpo[b]] = b;
        }
    for (uint32_t i = live; i < g->n; i++)
        g->order[i] = g->n;
}

/* Predecessor lists of the reachable blocks (compressed rows). */
static void predecessors(G *g)
{
    g->pred0 = alloc(g, g->n + 1, sizeof *g->pred0);
    for (uint32_t b = 0; b < g->n; b++)
        for (uint32_t k = 0; g->rpo[b] < g->n && k < g->nsucc[b]; k++)
            g->pred0[g->succ[b][k] + 1]++;
    for (uint32_t b = 0; b < g->n; b++)
        g->pred0[b + 1] += g->pred0[b];
    g->npred = g->pred0[g->n];
    g->preds = alloc(g, g->npred, sizeof *g->preds);
    uint32_t *fill = alloc(g, g->n, sizeof *fill);
    for (uint32_t b = 0; b < g->n; b++)
        for (uint32_t k = 0; g->rpo[b] < g->n && k < g->nsucc[b]; k++) {
            uint32_t s = g->succ[b][k];
            g->preds[g->pred0[s] + fill[s]++] = b;
        }
}

static uint32_t intersect(G *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->rpo[a] > g->rpo[b])
            a = g->idom[a];
        while (g->rpo[b] > g->rpo[a])
            b = g->idom[b];
    }
    return a;
}

/* Cooper, Harvey and Kennedy's iteration over reverse postorder. */
static void dominators(G *g)
{
    for (uint32_t b = 0; b < g->n; b++)
        g->idom[b] = g->n;
    g->idom[0] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 1; i < g->n && g->order[i] < g->n; i++) {
            uint32_t b = g->order[i], d = g->n;
            for (uint32_t k = g->pred0[b]; k < g->pred0[b + 1]; k++) {
                uint32_t p = g->preds[k];
                if (g->idom[p] != g->n)
                    d = d == g->n ? p : intersect(g, p, d);
            }
            if (d != g->idom[b])
                g->idom[b] = d, changed = true;
        }
    }
}

static bool dominates(G *g, uint32_t a, uint32_t b)
{
    for (;;) {
        if (a == b)
            return true;
        if (b == 0)
            return false;
        b = g->idom[b];
    }
}

static bool in_loop(G *g, uint32_t b, uint32_t h)
{
    for (uint32_t l = g->loopof[b]; l < g->n; l = g->lparent[l])
        if (l == h)
            return true;
    return false;
}

/* Back edges and natural loops; an irreducible graph is refused. Headers
 * in reverse postorder, so an inner loop (whose header the outer one
 * dominates) claims its nodes after the outer one: loopof ends innermost. */
static void loops(G *g)
{
    /* each push is an edge into a node of the loop, or a back edge */
    uint32_t *work = alloc(g, 2 * (size_t)g->npred + g->n, sizeof *work);
    uint32_t *mark = alloc(g, g->n, sizeof *mark);
    for (uint32_t b = 0; b < g->n; b++)
        g->loopof[b] = g->lparent[b] = mark[b] = g->n;
    for (uint32_t i = 0; i < g->n && g->order[i] < g->n; i++) {
        uint32_t h = g->order[i], nw = 0;
        for (uint32_t k = g->pred0[h]; k < g->pred0[h + 1]; k++) {
            uint32_t p = g->preds[k];
            if (g->rpo[p] < g->rpo[h]) {
                g->nfwd[h]++;
            } else if (!dominates(g, h, p)) {
                uint32_t at = g->f->blocks[p].term;
                uint32_t line = spv_line_before(g->m, g->f, at);
                const char *msg = "irreducible control flow: this jump goes "
                                  "back into a loop that is also entered "
                                  "other than at its start (a goto into "
                                  "it?); clvm runs structured control flow "
                                  "only";
                if (line)
                    spv_fail_line(g->m, line, "%s", msg);
                spv_fail(g->m, at, "%s", msg);
            } else {
                work[nw++] = p, g->header[h] = true;
            }
        }
        if (!g->header[h])
            continue;
        g->lparent[h] = g->loopof[h];
        g->loopof[h] = mark[h] = h;
        while (nw) {
            uint32_t b = work[--nw];
            if (mark[b] == h)
                continue;
            mark[b] = h, g->loopof[b] = h;
            for (uint32_t k = g->pred0[b]; k < g->pred0[b + 1]; k++)
                if (mark[g->preds[k]] != h)
                    work[nw++] = g->preds[k];
        }
    }
}

/* The placement tree: the dominator tree, except that a node outside a
 * loop whose dominator is inside it hangs from the loop's header (so it
 * is placed after the loop). */
static void place(G *g)
{
    for (uint32_t b = 0; b < g->n; b++) {
        g->parent[b] = g->idom[b];
        if (g->rpo[b] == g->n || b == 0)
            continue;
        uint32_t d = g->idom[b], out = g->n;
        for (uint32_t l = g->loopof[d]; l < g->n; l = g->lparent[l])
            if (!in_loop(g, b, l))
                out = l;
        if (out < g->n)
            g->parent[b] = out;
    }
}

static snode *tree(G *g, uint32_t b);

static void push(G *g, uint32_t label, uint32_t follows, uint32_t header)
{
    g->ctx[g->nctx++] = (struct ctxe){label, follows, header};
}

static snode *append(snode *list, snode *tail)
{
    if (!list)
        return tail;
    snode *s = list;
    while (s->next)
        s = s->next;
    s->next = tail;
    return list;
}

static bool has_phi(G *g, uint32_t b)
{
    uint32_t at = g->f->blocks[b].at;
    for (; at < g->f->blocks[b].term; at += spv_wc(g->m, at))
        if (spv_op(g->m, at) == SpvOpPhi)
            return true;
    return false;
}

/* The edge from -> to: its phi copies, then the jump or the target's
 * tree, placed here. */
static snode *branch(G *g, uint32_t from, uint32_t to)
{
    snode *e = NULL, *j;
    if (has_phi(g, to))
        e = snew(g, S_EDGE, from), e->to = to;
    for (uint32_t i = g->nctx; i-- > 0;) {
        struct ctxe *c = &g->ctx[i];
        if ((c->header == to && g->rpo[to] <= g->rpo[from]) ||
            c->follows == to) {
            j = snew(g, c->header == to ? S_CONT : S_BREAK, from);
            j->label = c->label;
            return append(e, j);
        }
    }
    if (g->parent[to] != from)
        spv_fail(g->m, g->f->blocks[from].term, "internal error: block %u "
                 "has no place in the structured form", g->f->blocks[to].label);
    return append(e, tree(g, to));
}

static snode *terminator(G *g, uint32_t b)
{
    spv_mod *m = g->m;
    uint32_t at = g->f->blocks[b].term, op = spv_op(m, at);
    uint32_t *s = g->succ[b];
    if (op == SpvOpBranch)
        return branch(g, b, s[0]);
    if (op == SpvOpBranchConditional) {
        if (s[0] == s[1])
            return branch(g, b, s[0]);
        snode *i = snew(g, S_IF, b);
        i->body = branch(g, b, s[0]);
        i->els = branch(g, b, s[1]);
        return i;
    }
    if (op == SpvOpSwitch) {
        /* one `if` per distinct case target, in order; else the default */
        snode *first = NULL, **at_els = &first;
        for (uint32_t k = 1; k < g->nsucc[b]; k++) {
            bool dup = s[k] == s[0];
            for (uint32_t q = 1; q < k; q++)
                dup |= s[q] == s[k];
            if (dup)
                continue;
            snode *i = snew(g, S_IF, b);
            i->sw = (int32_t)k;
            i->body = branch(g, b, s[k]);
            *at_els = i;
            at_els = &i->els;
        }
        *at_els = branch(g, b, s[0]);
        return first;
    }
    return snew(g, S_RET, b);
}

/* Node b's code and terminator, inside blocks for the merge nodes ys
 * (descending reverse postorder: the outermost block is left last). */
static void deeper(G *g, uint32_t b)
{
    if (++g->depth > MAX_DEPTH)
        spv_fail(g->m, g->f->blocks[b].at, "control flow nested more than "
                 "%u deep", MAX_DEPTH);
}

/* Does block b hold nothing to translate (lines, phis, merges)? */
static bool empty(G *g, uint32_t b)
{
    spv_mod *m = g->m;
    for (uint32_t at = g->f->blocks[b].at; at < g->f->blocks[b].term;
         at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at);
        if (op == SpvOpExtInst && spv_wc(m, at) > 3 &&
            spv_word(m, at, 3) < m->bound &&
            m->extset[spv_word(m, at, 3)] == SE_SKIP)
            continue;
        if (op != SpvOpLine && op != SpvOpNoLine && op != SpvOpPhi &&
            op != SpvOpSelectionMerge && op != SpvOpLoopMerge &&
            op != SpvOpLifetimeStart && op != SpvOpLifetimeStop)
            return false;
    }
    return true;
}

static snode *within(G *g, uint32_t b, const uint32_t *ys, uint32_t ny)
{
    if (!ny)
        return append(empty(g, b) ? NULL : snew(g, S_CODE, b),
                      terminator(g, b));
    snode *blk = snew(g, S_BLOCK, b);
    blk->label = ++g->t->nlabels;
    push(g, blk->label, ys[0], g->n);
    deeper(g, b);
    blk->body = within(g, b, ys + 1, ny - 1);
    g->nctx--, g->depth--;
    return append(blk, tree(g, ys[0]));
}

/* b's loop inside blocks for the nodes that follow it (fs descending). */
static snode *followers(G *g, uint32_t b, const uint32_t *fs, uint32_t nf,
                        const uint32_t *ys, uint32_t ny)
{
    if (!nf) {
        snode *l = snew(g, S_LOOP, b);
        l->label = ++g->t->nlabels;
        push(g, l->label, g->n, b);
        l->body = within(g, b, ys, ny);
        g->nctx--;
        return l;
    }
    snode *blk = snew(g, S_BLOCK, b);
    blk->label = ++g->t->nlabels;
    push(g, blk->label, fs[0], g->n);
    deeper(g, b);
    blk->body = followers(g, b, fs + 1, nf - 1, ys, ny);
    g->nctx--, g->depth--;
    return append(blk, tree(g, fs[0]));
}

static snode *tree(G *g, uint32_t b)
{
    deeper(g, b);
    const uint32_t *fs = g->kids + g->kid0[b];
    uint32_t nf = g->nfol[b], ny = g->kid0[b + 1] - g->kid0[b] - nf;
    snode *s = g->header[b] ? followers(g, b, fs, nf, fs + nf, ny)
                            : within(g, b, fs, ny);
    g->depth--;
    return s;
}

/* Each node's children that blocks are placed for, in descending reverse
 * postorder: first the nodes after its loop (headers), then merge nodes. */
static void children(G *g)
{
    g->kid0 = alloc(g, g->n + 1, sizeof *g->kid0);
    g->nfol = alloc(g, g->n, sizeof *g->nfol);
    g->kids = alloc(g, g->n, sizeof *g->kids);
    uint32_t *fill = alloc(g, g->n, sizeof *fill);
    for (int pass = 0; pass < 3; pass++) {
        for (uint32_t i = g->n; i-- > 1;) {
            uint32_t c = g->order[i], b;
            if (c >= g->n)
                continue;
            b = g->parent[c];
            bool fol = g->header[b] && !in_loop(g, c, b);
            if (!fol && g->nfwd[c] < 2)
                continue;
            if (pass == 0)
                g->kid0[b + 1]++, g->nfol[b] += fol;
            else if (pass == 2 - fol)   /* followers (pass 1) first */
                g->kids[g->kid0[b] + fill[b]++] = c;
        }
        for (uint32_t b = 0; pass == 0 && b < g->n; b++)
            g->kid0[b + 1] += g->kid0[b];
    }
}

/* ---- tidying ---- */

/* Where falling off the end of a statement list goes, as the jumps that
 * go there too. */
typedef struct fall {
    uint8_t kind;
    uint32_t label;
    const struct fall *up;
} fall;

static bool falls(const fall *f, uint8_t kind, uint32_t label)
{
    for (; f; f = f->up)
        if (f->kind == kind && f->label == label)
            return true;
    return false;
}

/* Breaks to block `from` inside list l become the jump that follows the
 * block (kind, to); a conditional break can only stay a break. */
static bool thread(snode *l, uint32_t from, uint8_t kind, uint32_t to)
{
    bool changed = false;
    for (; l; l = l->next) {
        if (l->kind == S_BREAK && l->label == from &&
            !(l->cond && kind != S_BREAK))
            l->kind = kind, l->label = to, changed = true;
        changed |= thread(l->body, from, kind, to);
        changed |= thread(l->els, from, kind, to);
    }
    return changed;
}

/* An `if` around a lone break becomes a conditional break. */
static bool to_break_if(snode *s)
{
    snode *j = NULL;
    bool neg = s->neg;
    if (s->body && !s->body->next && s->body->kind == S_BREAK &&
        !s->body->cond)
        j = s->body, s->body = s->els;
    else if (s->els && !s->els->next && s->els->kind == S_BREAK &&
             !s->els->cond)
        j = s->els, neg = !neg;
    else
        return false;
    uint32_t label = j->label;
    snode *rest = s->body, *next = s->next;
    s->kind = S_BREAK, s->cond = true, s->neg = neg, s->label = label;
    s->body = s->els = NULL;
    s->next = append(rest, next);
    return true;
}

static bool tidy(snode **list, const fall *f)
{
    bool changed = false;
    for (snode **p = list; *p;) {
        snode *s = *p;
        const fall *here = s->next ? NULL : f;
        if (s->kind == S_IF) {
            changed |= tidy(&s->body, here);
            changed |= tidy(&s->els, here);
            if (!s->body && !s->els) {
                *p = s->next;
                changed = true;
                continue;
            }
            changed |= to_break_if(s);
        } else if (s->kind == S_BLOCK) {
            fall fb = {S_BREAK, s->label, here};
            changed |= tidy(&s->body, &fb);
            snode *j = s->next;
            if (j && (j->kind == S_BREAK || j->kind == S_CONT) && !j->cond)
                changed |= thread(s->body, s->label, j->kind, j->label);
        } else if (s->kind == S_LOOP) {
            fall fl = {S_CONT, s->label, NULL};
            changed |= tidy(&s->body, &fl);
        } else if ((s->kind == S_BREAK || s->kind == S_CONT) && !s->next &&
                   falls(f, s->kind, s->label)) {
            *p = s->next;
            changed = true;
            continue;
        } else if (s->kind == S_RET && !s->next && falls(f, S_RET, 0)) {
            s->tail = true;
        }
        p = &s->next;
    }
    return changed;
}

/* Breaks to block `from` inside list l go to `to` instead. */
static bool retarget(snode *l, uint32_t from, uint32_t to)
{
    bool changed = false;
    for (; l; l = l->next) {
        if (l->kind == S_BREAK && l->label == from)
            l->label = to, changed = true;
        changed |= retarget(l->body, from, to);
        changed |= retarget(l->els, from, to);
    }
    return changed;
}

static void count(const snode *l, uint32_t *refs)
{
    for (; l; l = l->next) {
        if (l->kind == S_BREAK || l->kind == S_CONT)
            refs[l->label]++;
        count(l->body, refs);
        count(l->els, refs);
    }
}

/* A block whose last statement is a loop: breaking out of it from inside
 * the loop is breaking out of the loop. Blocks nobody leaves open up. */
static bool unwrap(snode **list, const uint32_t *refs)
{
    bool changed = false;
    for (snode **p = list; *p;) {
        snode *s = *p;
        if (s->kind == S_BLOCK) {
            snode *last = s->body;
            while (last && last->next)
                last = last->next;
            if (last && last->kind == S_LOOP)
                changed |= retarget(last->body, s->label, last->label);
        }
        changed |= unwrap(&s->body, refs);
        changed |= unwrap(&s->els, refs);
        if (s->kind == S_BLOCK && !refs[s->label]) {
            *p = append(s->body, s->next);
            changed = true;
            continue;
        }
        p = &s->next;
    }
    return changed;
}

void spv_structure(spv_mod *m, const spv_func *f, spv_tree *t)
{
    G g;
    memset(&g, 0, sizeof g);
    g.m = m, g.f = f, g.t = t, g.n = f->nblocks;
    g.bidx = alloc(&g, m->bound, sizeof *g.bidx);
    memset(g.bidx, 0xff, (size_t)m->bound * sizeof *g.bidx);
    for (uint32_t b = 0; b < g.n; b++) {
        if (g.bidx[f->blocks[b].label] >= 0)
            spv_fail(m, f->blocks[b].at, "label %u opens two blocks",
                     f->blocks[b].label);
        g.bidx[f->blocks[b].label] = (int32_t)b;
    }
    g.succ = alloc(&g, g.n, sizeof *g.succ);
    g.nsucc = alloc(&g, g.n, sizeof *g.nsucc);
    g.rpo = alloc(&g, g.n, sizeof *g.rpo);
    g.order = alloc(&g, g.n, sizeof *g.order);
    g.idom = alloc(&g, g.n, sizeof *g.idom);
    g.parent = alloc(&g, g.n, sizeof *g.parent);
    g.nfwd = alloc(&g, g.n, sizeof *g.nfwd);
    g.header = alloc(&g, g.n, sizeof *g.header);
    g.loopof = alloc(&g, g.n, sizeof *g.loopof);
    g.lparent = alloc(&g, g.n, sizeof *g.lparent);
    g.ctx = alloc(&g, 2 * MAX_DEPTH + 4, sizeof *g.ctx);
    successors(&g);
    number(&g);
    predecessors(&g);
    dominators(&g);
    loops(&g);
    place(&g);
    children(&g);
    t->root = tree(&g, 0);
    fall top = {S_RET, 0, NULL};
    uint32_t *refs = alloc(&g, t->nlabels + 1, sizeof *refs);
    for (bool changed = true; changed;) {
        changed = tidy(&t->root, &top);
        memset(refs, 0, (t->nlabels + 1) * sizeof *refs);
        count(t->root, refs);
        changed |= unwrap(&t->root, refs);
    }
}

void spv_tree_free(spv_tree *t)
{
    for (uint32_t i = 0; i < t->nall; i++)
        free(t->all[i]);
    free(t->all);
    memset(t, 0, sizeof *t);
}
