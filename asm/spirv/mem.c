/* Aggregates in memory: structs and arrays (of arrays) as arrays of their
 * element or of bytes, access chains as offsets in those elements, copies
 * (OpCopyMemory[Sized]), constant initialisers stored into memory, and
 * the module-scope variables of a kernel (constant tables, __local
 * aggregates). Every access stays the VM's checked LD/ST. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"
#include "stdlib/bytes.h"
#include "stdlib/convert.h"
#include "vm/bcfile.h"

enum {
    MAX_TERMS = 16,       /* run-time indices of one access chain */
    UNROLL = 32,          /* copies of more units are a loop */
    MAX_INIT = 1 << 16,   /* bytes of one constant initialiser */
};

/* An index constant: an int where it fits, else a long. */
static uint32_t index_const(SX *x, int64_t v)
{
    bool small = v >= INT32_MIN && v <= INT32_MAX;
    return sx_const(x, TY(small ? TY_INT : TY_LONG, 1), (uint64_t)v);
}

static ty_t uint_of(unsigned size)
{
    return TY(size == 1 ? TY_UCHAR : size == 2 ? TY_USHORT
              : size == 4 ? TY_UINT : TY_ULONG, 1);
}

uint32_t sx_addr(SX *x, const spv_val *p, uint32_t i, uint32_t *idx)
{
    if (p->kind == VK_CHAIN) {
        *idx = p->aux;
        return (uint32_t)p->reg;
    }
    *idx = sx_const(x, TY(TY_INT, 1), 0);
    if (p->kind == VK_REG)
        return (uint32_t)p->reg;
    if (p->kind == VK_CINIT)
        sx_refuse(x, "'%s', a constant initialiser, used other than to "
                  "initialise a variable",
                  x->m.names[p->aux] ? x->m.names[p->aux] : "?");
    return sx_reg(x, i);
}

/* ---- access chains ---- */

typedef struct {
    uint32_t reg[MAX_TERMS];
    uint64_t stride[MAX_TERMS];   /* bytes per step of reg */
    uint32_t n;
    uint64_t c;                   /* constant bytes (wrapping) */
} offset;

static void term(SX *x, offset *o, uint32_t id, uint64_t stride)
{
    const spv_const *k = spv_const_of(&x->m, id);
    if (k) {
        o->c += k->v[0] * stride;
        return;
    }
    if (o->n == MAX_TERMS)
        sx_refuse(x, "an access chain of more than %d run-time indices",
                  MAX_TERMS);
    uint32_t r = sx_val_reg(x, &x->fr->v[id], id);
    const bc_reg *rr = sx_r(x, r);
    if (rr->kind != BC_REG_VALUE || rr->type.n != 1 ||
        ty_is_float((enum ty_scalar)rr->type.s))
        sx_refuse(x, "an access chain index that is not a scalar integer");
    o->reg[o->n] = r, o->stride[o->n++] = stride;
}

/* sum(reg * stride / u) + c / u as a register: the index in elements of
 * u bytes (every stride and c divisible by u). */
static uint32_t index_reg(SX *x, const offset *o, uint64_t u)
{
    ty_t lt = TY(TY_LONG, 1);
    if (!o->n)
        return index_const(x, (int64_t)o->c / (int64_t)u);
    if (o->n == 1 && o->stride[0] == u && !o->c)
        return o->reg[0];
    uint32_t acc = 0;
    for (uint32_t k = 0; k < o->n; k++) {
        uint32_t r = sx_as(x, o->reg[k], TY(ty_is_signed((enum ty_scalar)
                     sx_r(x, o->reg[k])->type.s) ? TY_LONG : TY_ULONG, 1));
        if (o->stride[k] != u) {
            uint32_t w[3] = {sx_temp(x, lt), r,
                             sx_const(x, lt, o->stride[k] / u)};
            sx_emit(x, BCB_MUL, TY_ULONG, 1, 0, w, 3);
            r = w[0];
        }
        if (k) {
            uint32_t w[3] = {sx_temp(x, lt), acc, r};
            sx_emit(x, BCB_ADD, TY_ULONG, 1, 0, w, 3);
            r = w[0];
        }
        acc = r;
    }
    if (o->c) {
        uint32_t w[3] = {sx_temp(x, lt), acc,
                         sx_const(x, lt, (uint64_t)((int64_t)o->c /
                                                    (int64_t)u))};
        sx_emit(x, BCB_ADD, TY_ULONG, 1, 0, w, 3);
        acc = w[0];
    }
    return acc;
}

/* Walks the indices from word `from` through type t, adding to o; the
 * type reached. */
static uint32_t walk(SX *x, offset *o, uint32_t t, uint32_t from)
{
    spv_mod *m = &x->m;
    for (uint32_t i = from; i < spv_wc(m, x->at); i++) {
        const spv_type *ty = spv_typ(m, x->at, t);
        uint32_t id = spv_id(m, x->at, i);
        if (ty->kind == SK_ARRAY || ty->kind == SK_VEC) {
            term(x, o, id, ty->kind == SK_ARRAY
                 ? spv_layout(m, x->at, ty->elem).size
                 : ty_scalar_size((enum ty_scalar)ty->ty.s));
            t = ty->elem;
        } else if (ty->kind == SK_STRUCT) {
            const spv_const *k = spv_const_of(m, id);
            if (!k)
                spv_fail(m, x->at, "a struct member index that is not a "
                         "constant");
            o->c += spv_member(m, x->at, t, (uint32_t)k->v[0]);
            t = m->w[m->def[t] + 2 + k->v[0]];
        } else {
            spv_fail(m, x->at, "an access chain index into a scalar");
        }
    }
    return t;
}

/* ---- known alignment ---- */

/* Trailing zero bits that integer id is known to have (at most 40). */
static unsigned known_tz(spv_mod *m, uint32_t id, unsigned depth)
{
    const spv_const *k = spv_const_of(m, id);
    if (k)
        return k->v[0] ? (unsigned)__builtin_ctzll(k->v[0]) : 40;
    if (depth > 16 || id >= m->bound || !m->def[id])
        return 0;
    uint32_t at = m->def[id], op = spv_op(m, at), wc = spv_wc(m, at), r;
    unsigned a = wc > 3 ? known_tz(m, spv_word(m, at, 3), depth + 1) : 0;
    unsigned b = wc > 4 ? known_tz(m, spv_word(m, at, 4), depth + 1) : 0;
    switch (op) {
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast:
        return a;
    case SpvOpIMul:
        r = a + b;
        return r > 40 ? 40 : r;
    case SpvOpShiftLeftLogical:
        k = wc > 4 ? spv_const_of(m, spv_word(m, at, 4)) : NULL;
        return !k ? 0 : k->v[0] >= 40 ? 40 : a + (unsigned)k->v[0] > 40
               ? 40 : a + (unsigned)k->v[0];
    case SpvOpIAdd: case SpvOpISub:
        return a < b ? a : b;
    case SpvOpBitwiseAnd:
        return a > b ? a : b;
    }
    return 0;
}

static uint64_t low_bit(uint64_t v) { return v & (~v + 1); }

/* The alignment an access chain at `at` keeps of its base's, a. */
static uint64_t chain_align(SX *x, uint32_t at, uint64_t a, unsigned depth)
{
    spv_mod *m = &x->m;
    bool pc = spv_op(m, at) == SpvOpPtrAccessChain ||
              spv_op(m, at) == SpvOpInBoundsPtrAccessChain;
    uint32_t t = spv_typ(m, at, spv_type_of(m, at, spv_id(m, at, 3)))->elem;
    for (uint32_t i = 4; i < spv_wc(m, at) && a > 1; i++) {
        uint32_t id = spv_id(m, at, i);
        const spv_type *ty = spv_typ(m, at, t);
        uint64_t stride;
        if (i == 4 && pc) {
            stride = spv_layout(m, at, t).size;
        } else if (ty->kind == SK_ARRAY || ty->kind == SK_VEC) {
            stride = ty->kind == SK_ARRAY ? spv_layout(m, at, ty->elem).size
                     : ty_scalar_size((enum ty_scalar)ty->ty.s);
            t = ty->elem;
        } else if (ty->kind == SK_STRUCT && spv_const_of(m, id)) {
            uint32_t k = (uint32_t)spv_const_of(m, id)->v[0];
            uint64_t off = spv_member(m, at, t, k);
            a = off ? (low_bit(off) < a ? low_bit(off) : a) : a;
            t = m->w[m->def[t] + 2 + k];
            continue;
        } else {
            return 1;
        }
        unsigned tz = known_tz(m, id, depth + 1);
        uint64_t g = stride ? low_bit(stride) : a;
        g = tz >= 40 || g << tz > a ? a : g << tz;
        a = g < a ? g : a;
    }
    return a;
}

uint64_t sx_known_align(SX *x, uint32_t ptr, unsigned depth)
{
    spv_mod *m = &x->m;
    if (depth > 16 || ptr >= m->bound || !m->def[ptr])
        return 1;
    uint32_t at = m->def[ptr], op = spv_op(m, at);
    if (op == SpvOpVariable)
        return m->deco[ptr].align ? m->deco[ptr].align
               : spv_layout(m, at, spv_typ(m, at,
                                           spv_word(m, at, 1))->elem).align;
    if (op == SpvOpBitcast)
        return sx_known_align(x, spv_id(m, at, 3), depth + 1);
    if (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ||
        op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain)
        return chain_align(x, at, sx_known_align(x, spv_id(m, at, 3),
                                                 depth + 1), depth);
    return 1;
}

/* ---- addresses as integers: offsetof ---- */

/* Pointer ptr as a byte offset *off into the variable *var: through
 * access chains of constant indices and pointer casts; false if it is not
 * one. */
static bool const_addr(SX *x, uint32_t ptr, uint32_t *var, uint64_t *off)
{
    spv_mod *m = &x->m;
    uint32_t at0 = x->at;
    bool ok = false;
    *off = 0;
    for (unsigned depth = 0; depth < 64; depth++) {
        uint32_t at = m->def[ptr], op = spv_op(m, at);
        if (op == SpvOpVariable) {
            *var = ptr, ok = true;
            break;
        }
        if (op == SpvOpBitcast) {
            ptr = spv_id(m, at, 3);
            continue;
        }
        bool pc = op == SpvOpPtrAccessChain ||
                  op == SpvOpInBoundsPtrAccessChain;
        bool constant = pc || op == SpvOpAccessChain ||
                        op == SpvOpInBoundsAccessChain;
        for (uint32_t i = 4; constant && i < spv_wc(m, at); i++)
            constant = spv_const_of(m, spv_id(m, at, i)) != NULL;
        if (!constant)
            break;
        /* constant indices: term and walk add to o.c and emit nothing */
        x->at = at;
        uint32_t bid = spv_id(m, at, 3);
        const spv_type *bt = spv_typ(m, at, spv_type_of(m, at, bid));
        if (bt->kind != SK_PTR)
            break;
        offset o = {{0}, {0}, 0, 0};
        if (pc)
            term(x, &o, spv_id(m, at, 4), spv_layout(m, at, bt->elem).size);
        walk(x, &o, bt->elem, pc ? 5 : 4);
        *off += o.c;
        ptr = bid;
    }
    x->at = at0;
    return ok;
}

/* Is id the result of an OpConvertPtrToU? */
static bool ptrtou(spv_mod *m, uint32_t id)
{
    return id < m->bound && m->def[id] &&
           spv_op(m, m->def[id]) == SpvOpConvertPtrToU;
}

/* Is the instruction at `at` an OpISub of two OpConvertPtrToU of
 * addresses in one variable at constant offsets (offsetof)? Their
 * difference, *diff, is then a constant. */
static bool folded_diff(SX *x, uint32_t at, uint64_t *diff)
{
    spv_mod *m = &x->m;
    uint32_t va, vb;
    uint64_t oa, ob;
    if (spv_op(m, at) != SpvOpISub || spv_wc(m, at) != 5 ||
        !ptrtou(m, spv_word(m, at, 3)) || !ptrtou(m, spv_word(m, at, 4)))
        return false;
    uint32_t a = spv_word(m, at, 3), b = spv_word(m, at, 4);
    if (!const_addr(x, spv_id(m, m->def[a], 3), &va, &oa) ||
        !const_addr(x, spv_id(m, m->def[b], 3), &vb, &ob) || va != vb)
        return false;
    *diff = oa - ob;
    return true;
}

/* Does ok hold for every use of id (word i of the instruction at `at`)
 * in the current function? */
typedef bool use_fn(SX *x, uint32_t at, uint32_t i);
static bool all_uses(SX *x, uint32_t id, use_fn *ok)
{
    spv_mod *m = &x->m;
    const spv_func *f = x->fr->f;
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t at = f->blocks[b].at; at <= f->blocks[b].term;
             at += spv_wc(m, at)) {
            uint32_t op = spv_op(m, at), wc = spv_wc(m, at);
            bool res = false, rtype = false;
            spv_result(op, &res, &rtype);
            if (op == SpvOpLine ||
                (op == SpvOpExtInst && wc > 3 &&
                 spv_word(m, at, 3) < m->bound &&
                 m->extset[spv_word(m, at, 3)] == SE_SKIP))
                continue;   /* debug information */
            for (uint32_t i = rtype ? 3 : res ? 2 : 1; i < wc; i++)
                if (spv_word(m, at, i) == id && !ok(x, at, i))
                    return false;
        }
    return true;
}

static bool folded_use(SX *x, uint32_t at, uint32_t i)
{
    uint64_t diff;
    (void)i;
    return folded_diff(x, at, &diff);
}

void sx_ptrtou(SX *x)
{
    spv_mod *m = &x->m;
    if (all_uses(x, spv_word(m, x->at, 2), folded_use))
        return;   /* offsetof: sx_ptrdiff gives the constant */
    ty_t t = sx_vty(x, spv_word(m, x->at, 1));
    uint32_t p = sx_reg(x, 3);
    if (sx_r(x, p)->kind != BC_REG_PTR || t.n != 1 ||
        ty_is_float((enum ty_scalar)t.s))
        spv_fail(m, x->at, "OpConvertPtrToU of a non-pointer or to a "
                 "non-integer");
    bool wide = ty_scalar_size((enum ty_scalar)t.s) == 8;
    uint32_t w[3] = {wide ? sx_def(x, t) : sx_temp(x, TY(TY_ULONG, 1)), p};
    sx_emit(x, BCB_PTOU, TY_UINT, 1, 0, w, 2);
    if (!wide) {   /* (uint)p: the address's low bits */
        uint32_t c[3] = {0, w[0], 0};
        c[0] = sx_def(x, t);
        c[2] = BC_CVT((enum ty_scalar)t.s, TY_ULONG, 0,
                      cv_default_round((enum ty_scalar)t.s), 0);
        sx_emit(x, BCB_CVT, TY_UINT, 1, 0, c, 3);
    }
}

void sx_utop(SX *x)
{
    spv_mod *m = &x->m;
    uint32_t id = spv_word(m, x->at, 2), a = sx_reg(x, 3);
    const spv_type *rt = spv_typ(m, x->at, spv_word(m, x->at, 1));
    const bc_reg *ar = sx_r(x, a);
    if (rt->kind != SK_PTR || ar->kind != BC_REG_VALUE || ar->type.n != 1 ||
        ty_is_float((enum ty_scalar)ar->type.s))
        spv_fail(m, x->at, "OpConvertUToPtr of a non-integer or to a "
                 "non-pointer");
    /* the operand is unsigned: a narrower one is zero-extended */
    unsigned size = (unsigned)ty_scalar_size((enum ty_scalar)ar->type.s);
    a = sx_as(x, sx_as(x, a, uint_of(size)), TY(TY_ULONG, 1));
    uint32_t w[2] = {sx_defptr(x, id, spv_memty(m, x->at, rt->elem),
                               sx_space(x, rt->space), false,
                               x->fr->hint ? x->fr->hint[id] : NULL), a};
    sx_emit(x, BCB_UTOP, TY_UINT, 1, 0, w, 2);
}

bool sx_ptrdiff(SX *x)
{
    spv_mod *m = &x->m;
    uint64_t diff;
    if (!folded_diff(x, x->at, &diff))
        return false;
    ty_t t = sx_vty(x, spv_word(m, x->at, 1));
    if (t.n != 1 || ty_is_float((enum ty_scalar)t.s))
        spv_fail(m, x->at, "OpISub of pointers to a non-integer type");
    uint32_t w[2] = {sx_def(x, t), sx_const(x, t, diff)};
    sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)t.s), 1, 0, w, 2);
    return true;
}

/* Is the use (word i at `at`) the source of a copy? */
static bool copy_src(SX *x, uint32_t at, uint32_t i)
{
    uint32_t op = spv_op(&x->m, at);
    return (op == SpvOpCopyMemory || op == SpvOpCopyMemorySized) && i == 2;
}

/* ---- the bounds of arrays inside a variable ---- */

static bool is_chain(uint32_t op)
{
    return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ||
           op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
}

enum { CHASE_MAX = 1000 };   /* casts and chains of casts and chains */

/* Is the use (word i at `at`) of a pointer an access through it: a load,
 * a store or a copy, or a cast or access chain whose every use is one? */
static bool access_use(SX *x, uint32_t at, uint32_t i)
{
    spv_mod *m = &x->m;
    uint32_t op = spv_op(m, at);
    if ((op == SpvOpLoad && i == 3) || (op == SpvOpStore && i == 1) ||
        ((op == SpvOpCopyMemory || op == SpvOpCopyMemorySized) && i < 3))
        return true;
    if (!(is_chain(op) || op == SpvOpBitcast) || i != 3)
        return false;
    /* only an OpPhi may come before what it uses: a cast of a later cast
     * could be followed round for ever */
    uint32_t id = spv_word(m, at, i);
    if (id >= m->bound || at <= m->def[id])
        spv_fail(m, at, "id %u used before its definition", id);
    if (x->chase >= CHASE_MAX)
        spv_fail(m, at, "pointer casts and access chains nested more than "
                 "%d deep", CHASE_MAX);
    x->chase++;
    bool ok = all_uses(x, spv_word(m, at, 2), access_use);
    x->chase--;
    return ok;
}

/* A name for the array that pointer id ptr's chain indexes: clang's
 * for the member (`s.b` is a chain named b, or b6 where clang numbered a
 * second one: b if some value is named that), through the chains named
 * arrayidx* (`m[i][j]`: m's); into buf. */
static const char *array_name(spv_mod *m, uint32_t ptr, char *buf,
                              size_t len)
{
    for (unsigned depth = 0; depth < 8 && ptr < m->bound; depth++) {
        const char *nm = m->names[ptr];
        if (nm && strncmp(nm, "arrayidx", 8) && strncmp(nm, "arraydecay", 10)) {
            snprintf(buf, len, "%s", nm);
            for (size_t n = strlen(buf); n > 1 && buf[n - 1] >= '0' &&
                                         buf[n - 1] <= '9'; n--)
                for (uint32_t id = 0; id < m->bound; id++)
                    if (m->names[id] && strlen(m->names[id]) == n - 1 &&
                        !strncmp(m->names[id], buf, n - 1)) {
                        buf[n - 1] = 0;
                        return buf;
                    }
            return buf;
        }
        if (!m->def[ptr] || !is_chain(spv_op(m, m->def[ptr])))
            break;
        ptr = spv_word(m, m->def[ptr], 3);
    }
    return NULL;
}

/* Index idx into array type t, inside a variable where only the
 * variable's bounds are checked: a load of the same index from a private
 * array of t's length (made once per kernel and array type, kept in
 * x->gv[t], named after the struct member) traps as out of bounds,
 * naming it, where the index is past t's length. */
static void probe(SX *x, uint32_t t, uint32_t idx, const char *name)
{
    spv_mod *m = &x->m;
    const spv_type *ty = spv_typ(m, x->at, t);
    const spv_type *et = spv_typ(m, x->at, ty->elem);
    const spv_const *k = spv_const_of(m, idx);
    if (k && k->v[0] < ty->count)
        return;
    ty_t pt = TY(TY_UCHAR, 1);
    if (et->kind == SK_INT || et->kind == SK_FLOAT || et->kind == SK_VEC)
        pt = spv_memty(m, x->at, ty->elem);
    if ((uint64_t)ty->count * ty_sizeof(pt) > BC_MAX_PRIVATE / 16)
        return;   /* too large to mirror: the variable's bounds only */
    if (x->gv[t].kind != VK_REG) {
        bc_reg r = {0};
        r.type = pt, r.kind = BC_REG_PTR, r.space = BC_PRIVATE;
        r.init = BC_INIT_ARRAY, r.arg = ty->count;
        int32_t reg = sx_named(x, name, r);
        if (reg < 0)
            reg = sx_named(x, "array", r);
        x->gv[t] = sv(reg, VK_REG, 0);
    }
    uint32_t w[3] = {sx_temp(x, pt), (uint32_t)x->gv[t].reg,
                     k ? index_const(x, (int64_t)k->v[0])
                       : sx_val_reg(x, &x->fr->v[idx], idx)};
    sx_emit(x, BCB_LD, ty_unsigned_of((enum ty_scalar)pt.s), pt.n, 0, w, 3);
}

/* The indices of the access chain at x->at into arrays (of type t on)
 * whose bounds the VM does not see: all but an index into the variable
 * itself. Only where the chain is accessed through, so that a pointer
 * one past an array's end may be formed. */
static void probes(SX *x, uint32_t t, bool ptr)
{
    spv_mod *m = &x->m;
    uint32_t bid = spv_id(m, x->at, 3);
    const spv_const *k = ptr ? spv_const_of(m, spv_id(m, x->at, 4)) : NULL;
    bool whole = spv_op(m, m->def[bid]) == SpvOpVariable &&
                 (!ptr || (k && !k->v[0]));
    char name[48];
    if (!all_uses(x, spv_word(m, x->at, 2), access_use))
        return;
    for (uint32_t i = ptr ? 5 : 4; i < spv_wc(m, x->at); i++) {
        const spv_type *ty = spv_typ(m, x->at, t);
        uint32_t idx = spv_id(m, x->at, i);
        if (ty->kind == SK_STRUCT) {   /* walk checked the member */
            t = m->w[m->def[t] + 2 + spv_const_of(m, idx)->v[0]];
        } else {
            if (ty->kind == SK_ARRAY && !whole)
                probe(x, t, idx, array_name(m, bid, name, sizeof name));
            t = ty->elem;
        }
        whole = false;
    }
}

void sx_chain(SX *x, bool ptr)
{
    spv_mod *m = &x->m;
    uint32_t id = spv_word(m, x->at, 2), bid = spv_id(m, x->at, 3);
    uint32_t bd = m->def[bid];
    if (bd < m->globals_end && spv_op(m, bd) == SpvOpVariable &&
        spv_word(m, bd, 3) == SpvStorageClassUniformConstant &&
        (x->gv[bid].kind == VK_NONE || x->gv[bid].kind == VK_CINIT)) {
        /* a string literal: printf reads it (ext.c); the first byte of
         * an initialiser: a copy from it stores the constant */
        offset o = {{0}, {0}, 0, 0};
        bool first = sx_val(x, 3)->kind == VK_CINIT;
        for (uint32_t i = 4; first && i < spv_wc(m, x->at); i++)
            first = spv_const_of(m, spv_id(m, x->at, i)) != NULL;
        if (first && const_addr(x, id, &bd, &o.c) && !o.c &&
            all_uses(x, id, copy_src))
            x->fr->v[id] = *sx_val(x, 3);
        return;
    }
    const spv_type *bt = spv_typ(m, x->at, spv_type_of(m, x->at, bid));
    const spv_type *rt = spv_typ(m, x->at, spv_word(m, x->at, 1));
    if (bt->kind != SK_PTR || rt->kind != SK_PTR)
        spv_fail(m, x->at, "an access chain on a non-pointer");
    spv_val bv = *sx_val(x, 3);
    offset o = {{0}, {0}, 0, 0};
    if (ptr)
        term(x, &o, spv_id(m, x->at, 4), spv_layout(m, x->at, bt->elem).size);
    uint32_t leaf = walk(x, &o, bt->elem, ptr ? 5 : 4);
    if (leaf != rt->elem && !(spv_is_agg(m, leaf) &&
                              spv_is_agg(m, rt->elem)))
        spv_fail(m, x->at, "the access chain's type is not its result's");
    probes(x, bt->elem, ptr);
    /* the base address: a register, or a chain not yet computed, which
     * a constant offset joins (a run-time one computes it first) */
    uint32_t base;
    if (bv.kind == VK_CHAIN && !o.n) {
        base = (uint32_t)bv.reg;
        o.reg[0] = bv.aux, o.stride[0] = ty_sizeof(sx_r(x, base)->type);
        o.n = 1;
    } else {
        bv.view = 0;
        base = sx_val_reg(x, &bv, bid);
    }
    const bc_reg *b = sx_r(x, base);
    if (b->kind != BC_REG_PTR)
        sx_refuse(x, "internal error: access chain on a value");
    /* In elements of the base where every step is a whole number of
     * them, else in bytes through a uchar view of the base. */
    ty_t lt = spv_memty(m, x->at, rt->elem), btyp = b->type;
    uint64_t g = ty_sizeof(btyp), u = g;
    for (uint32_t k = 0; k < o.n; k++)
        u = o.stride[k] % g ? 1 : u;
    if ((int64_t)o.c % (int64_t)g)
        u = 1;
    if (u != g) {
        base = sx_ptr_at(x, base, sx_const(x, TY(TY_INT, 1), 0),
                         TY(TY_UCHAR, 1));
        btyp = TY(TY_UCHAR, 1);
    }
    uint32_t idx = index_reg(x, &o, u);
    if (sx_same_bits(lt, btyp))
        x->fr->v[id] = sv((int32_t)base, VK_CHAIN, idx);
    else
        x->fr->v[id] = sv((int32_t)sx_ptr_at(x, base, idx, lt), VK_REG, 0);
}

/* ---- constant data ---- */

/* The bytes of constant cid, of type t, into buf (size bytes). */
static void bytes_of(SX *x, uint32_t cid, uint32_t t, uint8_t *buf,
                     uint64_t size, unsigned depth)
{
    spv_mod *m = &x->m;
    uint32_t d = cid < m->bound ? m->def[cid] : 0, op = d ? spv_op(m, d) : 0;
    const spv_type *ty = spv_typ(m, x->at, t);
    const spv_const *k = spv_const_of(m, cid);
    if (depth > 64)
        sx_refuse(x, "a constant nested too deeply");
    if (op == SpvOpConstantNull || op == SpvOpUndef)
        return;   /* buf is zero */
    if (k && (ty->kind == SK_INT || ty->kind == SK_FLOAT ||
              ty->kind == SK_VEC)) {
        unsigned es = ty_scalar_size((enum ty_scalar)ty->ty.s);
        for (unsigned c = 0; c < ty->ty.n && (c + 1) * es <= size; c++)
            le_store(buf + c * es, es, k->v[c]);
        return;
    }
    if (ty->kind == SK_PTR || op == SpvOpSpecConstantOp)
        sx_refuse(x, "a program-scope initialiser holding a pointer is not "
                  "supported");
    if (op != SpvOpConstantComposite || m->w[d + 1] != t ||
        (ty->kind != SK_ARRAY && ty->kind != SK_STRUCT))
        sx_refuse(x, "a constant initialiser of this form (opcode %u) is "
                  "not supported", op);
    for (uint32_t i = 3; i < spv_wc(m, d); i++) {
        uint32_t et = ty->kind == SK_ARRAY ? ty->elem : m->w[m->def[t] + i - 1];
        uint64_t off = ty->kind == SK_ARRAY
                       ? (i - 3) * spv_layout(m, x->at, et).size
                       : spv_member(m, x->at, t, i - 3);
        uint64_t es = spv_layout(m, x->at, et).size;
        if (off + es > size)
            sx_refuse(x, "a constant initialiser larger than its type");
        bytes_of(x, spv_id(m, d, i), et, buf + off, es, depth + 1);
    }
}

/* Unit of the memory at (base, idx) holding `size` bytes aligned to
 * `align`: the base's own element type where that fits, else unsigned
 * integers as wide as the alignment allows (at most 8 bytes). */
static ty_t unit_for(SX *x, uint32_t base, uint64_t size, uint64_t align)
{
    ty_t bt = sx_r(x, base)->type;
    uint64_t bs = ty_sizeof(bt);
    if (bs > 1 && size % bs == 0 && align % ty_scalar_size(
            (enum ty_scalar)bt.s) == 0)
        return bt;
    unsigned u = 8;
    while (u > 1 && (align % u || size % u))
        u /= 2;
    return uint_of(u);
}

/* A pointer to unit type ut at (base, idx). */
static uint32_t unit_ptr(SX *x, uint32_t base, uint32_t idx, ty_t ut)
{
    const bc_reg *ir = sx_r(x, idx);
    bool zero = ir->init == BC_INIT_CONST && x->a->pool &&
                ir->arg + ty_sizeof(ir->type) <= x->a->npool &&
                !le_load(x->a->pool + ir->arg,
                         (unsigned)ty_scalar_size((enum ty_scalar)ir->type.s));
    if (zero && sx_same_bits(sx_r(x, base)->type, ut))
        return base;
    return sx_ptr_at(x, base, idx, ut);
}

/* Stores the `size` bytes of buf at (base, idx). */
static void store_bytes(SX *x, uint32_t base, uint32_t idx,
                        const uint8_t *buf, uint64_t size, uint64_t align)
{
    ty_t ut = unit_for(x, base, size, align);
    uint64_t us = ty_sizeof(ut);
    unsigned es = ty_scalar_size((enum ty_scalar)ut.s);
    uint32_t p = unit_ptr(x, base, idx, ut);
    for (uint64_t k = 0; k < size / us; k++) {
        uint64_t e[16] = {0};
        for (unsigned c = 0; c < ut.n; c++)
            e[c] = le_load(buf + k * us + c * es, es);
        int32_t v = kb_const(x->a, ut, e);
        if (v < 0)
            sx_refuse(x, "too many registers");
        uint32_t w[3] = {p, index_const(x, (int64_t)k), (uint32_t)v};
        sx_emit(x, BCB_ST, ty_unsigned_of((enum ty_scalar)ut.s), ut.n, 0, w,
                3);
    }
}

void sx_store_const(SX *x, uint32_t base, uint32_t idx, uint32_t cid,
                    uint32_t t, uint64_t align)
{
    spv_lay l = spv_layout(&x->m, x->at, t);
    if (l.size > MAX_INIT)
        sx_refuse(x, "a constant initialiser of %llu bytes (at most %d)",
                  (unsigned long long)l.size, MAX_INIT);
    uint8_t *buf = calloc(1, l.size ? l.size : 1);
    if (!buf)
        spv_fail(&x->m, x->at, "out of memory");
    x->fr->scratch = buf;   /* freed with the frame after an error */
    bytes_of(x, cid, t, buf, l.size, 0);
    store_bytes(x, base, idx, buf, l.size, align > l.align ? align : l.align);
    x->fr->scratch = NULL;
    free(buf);
}

/* ---- copies ---- */

static void copy_bytes(SX *x, uint32_t dp, uint32_t di, uint32_t sp,
                       uint32_t si, uint64_t size, uint64_t align)
{
    ty_t ut = unit_for(x, dp, size, align), us = unit_for(x, sp, size, align);
    if (!ty_eq(ut, us))
        ut = uint_of(ty_sizeof(ut) < ty_sizeof(us) ? (unsigned)ty_sizeof(ut)
                                                    : (unsigned)ty_sizeof(us));
    if (ut.n != 1 || ty_sizeof(ut) > 8)
        ut = uint_of(ty_scalar_size((enum ty_scalar)ut.s));
    uint64_t n = size / ty_sizeof(ut);
    uint32_t d = unit_ptr(x, dp, di, ut), s = unit_ptr(x, sp, si, ut);
    enum ty_scalar es = ty_unsigned_of((enum ty_scalar)ut.s);
    uint32_t t = sx_temp(x, ut);
    if (n <= UNROLL) {
        for (uint64_t k = 0; k < n; k++) {
            uint32_t i = index_const(x, (int64_t)k);
            uint32_t l[3] = {t, s, i}, st[3] = {d, i, t};
            sx_emit(x, BCB_LD, es, 1, 0, l, 3);
            sx_emit(x, BCB_ST, es, 1, 0, st, 3);
        }
        return;
    }
    /* i = 0; loop; break if i >= n; d[i] = s[i]; i += 1; end */
    ty_t lt = TY(TY_ULONG, 1);
    uint32_t i = sx_temp(x, lt), c = sx_temp(x, TY(TY_LONG, 1));
    uint32_t mv[2] = {i, sx_const(x, lt, 0)};
    sx_emit(x, BCB_MOV, TY_ULONG, 1, 0, mv, 2);
    uint32_t pc = kb_pc(x->a), j[1] = {0};
    sx_emit(x, BCB_LOOP, TY_UINT, 1, 0, j, 1);
    uint32_t ge[3] = {c, i, sx_const(x, lt, n)}, br[1] = {c};
    sx_emit(x, BCB_GE, TY_ULONG, 1, 0, ge, 3);
    sx_emit(x, BCB_BRKIF, TY_ULONG, 1, 0, br, 1);
    uint32_t l[3] = {t, s, i}, st[3] = {d, i, t};
    sx_emit(x, BCB_LD, es, 1, 0, l, 3);
    sx_emit(x, BCB_ST, es, 1, 0, st, 3);
    uint32_t add[3] = {i, i, sx_const(x, lt, 1)};
    sx_emit(x, BCB_ADD, TY_ULONG, 1, 0, add, 3);
    kb_patch(x->a, pc + 1, kb_pc(x->a));
    j[0] = pc + 2;
    sx_emit(x, BCB_ENDLOOP, TY_UINT, 1, 0, j, 1);
}

uint64_t sx_aligned(SX *x, uint32_t i)
{
    spv_mod *m = &x->m;
    if (spv_wc(m, x->at) <= i + 1 ||
        !(spv_word(m, x->at, i) & SpvMemoryAccessAlignedMask))
        return 0;
    uint32_t a = spv_word(m, x->at, i + 1);
    return a && !(a & (a - 1)) ? a : 1;
}

void sx_unaligned(SX *x, uint32_t v, uint32_t base, uint32_t idx, bool st)
{
    ty_t t = sx_r(x, v)->type;
    uint64_t size = ty_sizeof(t);
    if (size != 2 && size != 4 && size != 8 && size != 16)
        sx_refuse(x, "an access of %llu bytes below its alignment",
                  (unsigned long long)size);
    ty_t bt = TY(TY_UCHAR, size);
    uint32_t q = sx_ptr_at(x, base, idx, TY(TY_UCHAR, 1));
    uint32_t b = sx_temp(x, bt), zero = sx_const(x, TY(TY_INT, 1), 0);
    uint32_t as[2] = {st ? b : v, st ? v : b};
    uint32_t w[3] = {b, zero, q};
    if (st)
        sx_emit(x, BCB_AS, TY_UINT, bt.n, 0, as, 2);
    sx_emit(x, st ? BCB_VSTORE : BCB_VLOAD, TY_UCHAR, bt.n, 0, w, 3);
    if (!st)
        sx_emit(x, BCB_AS, TY_UINT, t.n, 0, as, 2);
}

void sx_copy(SX *x, bool sized)
{
    spv_mod *m = &x->m;
    spv_val *dv = sx_val(x, 1), *sv_ = sx_val(x, 2);
    uint64_t size;
    uint32_t tid = spv_typ(m, x->at, spv_type_of(m, x->at,
                                                 spv_id(m, x->at, 1)))->elem;
    if (sized) {
        const spv_const *k = spv_const_of(m, spv_id(m, x->at, 3));
        if (!k)
            sx_refuse(x, "a copy of a run-time number of bytes");
        size = k->v[0];
    } else {
        size = spv_layout(m, x->at, tid).size;
    }
    uint64_t al = sx_aligned(x, sized ? 4 : 3);
    al = al ? al : 1;
    if (dv->kind == VK_VAR || sv_->kind == VK_VAR)
        sx_refuse(x, "internal error: a copy into or out of a register");
    uint32_t di, dp = sx_addr(x, dv, 1, &di);
    if (sv_->kind == VK_CINIT) {
        uint32_t var = sv_->aux, vd = m->def[var];
        uint32_t vt = spv_typ(m, vd, spv_word(m, vd, 1))->elem;
        if (spv_layout(m, vd, vt).size != size)
            sx_refuse(x, "a copy of part of a constant initialiser");
        sx_store_const(x, dp, di, spv_id(m, vd, 4), vt, al);
        return;
    }
    uint32_t si, sp = sx_addr(x, sv_, 2, &si);
    if (size > ((uint64_t)1 << 32))
        sx_refuse(x, "a copy of %llu bytes", (unsigned long long)size);
    if (size)
        copy_bytes(x, dp, di, sp, si, size, al);
}

uint32_t sx_byval(SX *x, uint32_t sp, uint32_t si, uint32_t t)
{
    uint64_t size = spv_layout(&x->m, x->at, t).size;
    int32_t reg = sx_agg_var(x, t, BC_PRIVATE, NULL, "byval");
    if (reg < 0)
        sx_refuse(x, "too many registers");
    if (size)
        copy_bytes(x, (uint32_t)reg, index_const(x, 0), sp, si, size,
                   spv_layout(&x->m, x->at, t).align);
    return (uint32_t)reg;
}

/* ---- variables ---- */

int32_t sx_agg_var(SX *x, uint32_t t, uint8_t space, const char *name,
                   const char *fallback)
{
    spv_lay l = spv_layout(&x->m, x->at, t);
    ty_t et = spv_memty(&x->m, x->at, t);
    uint64_t es = ty_sizeof(et), max = space == BC_LOCAL ? BC_MAX_LOCAL
                                                         : BC_MAX_PRIVATE;
    uint64_t n = (l.size + es - 1) / es;
    if (!n || l.size > max)
        sx_refuse(x, "'%s': %s memory of %llu bytes (at most %llu)",
                  name ? name : fallback, space == BC_LOCAL ? "__local"
                  : "private", (unsigned long long)l.size,
                  (unsigned long long)max);
    bc_reg r = {0};
    r.type = et, r.kind = BC_REG_PTR, r.space = space;
    r.init = BC_INIT_ARRAY, r.arg = (uint32_t)n;
    const char *dot = name ? strrchr(name, '.') : NULL;
    int32_t reg = sx_named(x, dot ? dot + 1 : name, r);
    if (reg < 0)
        reg = sx_named(x, fallback, r);
    return reg;
}

/* Is t an array of scalars or vectors (what the lazy path of val.c
 * declares)? */
static bool simple_array(spv_mod *m, uint32_t t)
{
    const spv_type *ty = &m->types[t];
    return ty->kind == SK_ARRAY && ty->elem < m->bound &&
           (m->types[ty->elem].kind == SK_INT ||
            m->types[ty->elem].kind == SK_FLOAT ||
            m->types[ty->elem].kind == SK_VEC);
}

/* Whether a pointer into a string literal goes anywhere but into an
 * extended instruction (printf's format or %s argument, which read the
 * literal itself): `constant char *f = "abc"` makes it memory of its own.
 * Any word equal to the pointer's id counts as a use, which can only say
 * yes too often (the string is then copied, as a named constant array
 * is). */
static bool str_escapes(spv_mod *m, uint32_t id)
{
    for (uint32_t at = m->globals_end; at < m->nw; at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at);
        if ((op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain &&
             op != SpvOpPtrAccessChain && op != SpvOpInBoundsPtrAccessChain) ||
            spv_word(m, at, 3) != id)
            continue;
        uint32_t r = spv_word(m, at, 2);
        for (uint32_t u = m->globals_end; u < m->nw; u += spv_wc(m, u))
            if (spv_op(m, u) != SpvOpExtInst && spv_op(m, u) != SpvOpLine)
                for (uint32_t i = 1; i < spv_wc(m, u); i++)
                    if (spv_word(m, u, i) == r && u != at)
                        return true;
    }
    return false;
}

/* One module-scope variable the kernel uses: a __local aggregate, or a
 * program-scope constant copied into a private array when the kernel
 * starts (read-only, so each work-item's copy gives the same values). */
static void one_global(SX *x, uint32_t id)
{
    spv_mod *m = &x->m;
    uint32_t at = m->def[id];
    if (!at || at >= m->globals_end || spv_op(m, at) != SpvOpVariable ||
        x->gv[id].kind != VK_NONE)
        return;
    x->at = at;
    uint32_t sc = spv_word(m, at, 3), t = spv_typ(m, at,
                                                  spv_word(m, at, 1))->elem;
    const char *nm = m->names[id];
    if (sc == SpvStorageClassWorkgroup && !simple_array(m, t)) {
        int32_t reg = sx_agg_var(x, t, BC_LOCAL, nm, "local_var");
        x->gv[id] = sv(reg, VK_REG, 0);
        return;
    }
    const spv_type *ty = spv_typ(m, at, t);
    bool str = (nm && !strncmp(nm, ".str", 4)) ||
               (!nm && ty->kind == SK_ARRAY &&
                spv_typ(m, at, ty->elem)->kind == SK_INT &&
                ty_scalar_size((enum ty_scalar)spv_typ(m, at,
                                                       ty->elem)->ty.s) == 1);
    if (sc != SpvStorageClassUniformConstant || spv_wc(m, at) < 5 ||
        (nm && !strncmp(nm, "__const.", 8)) || (str && !str_escapes(m, id)))
        return;   /* clang's initialisers, and string literals that only
                     printf reads: copied or read where they are used */
    int32_t reg = sx_agg_var(x, t, BC_PRIVATE, nm, "constant_array");
    x->gv[id] = sv(reg, VK_REG, 0);
    sx_store_const(x, (uint32_t)reg, sx_const(x, TY(TY_INT, 1), 0),
                   spv_id(m, at, 4), t, 1);
}

void sx_globals(SX *x, const spv_entry *e)
{
    spv_mod *m = &x->m;
    uint32_t next;
    spv_str(m, e->at, 3, &next);
    if (m->w[1] < 0x00010400) {
        /* before SPIR-V 1.4 the entry point lists only its Input and
         * Output variables: every module-scope variable then */
        for (uint32_t at = 5; at < m->globals_end; at += spv_wc(m, at))
            if (spv_op(m, at) == SpvOpVariable && spv_wc(m, at) > 2)
                one_global(x, spv_word(m, at, 2));
        return;
    }
    for (uint32_t i = next; i < spv_wc(m, e->at); i++) {
        uint32_t id = spv_word(m, e->at, i);
        if (id < m->bound)
            one_global(x, id);
    }
}

/* ---- pointers as values ---- */

void sx_move(SX *x, uint32_t d, uint32_t s)
{
    const bc_reg *dr = sx_r(x, d), *sr = sx_r(x, s);
    if (dr->kind != sr->kind)
        sx_refuse(x, "internal error: a copy between a pointer and a value");
    if (dr->kind == BC_REG_VALUE) {
        uint32_t w[2] = {d, s};
        sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)dr->type.s),
                dr->type.n, 0, w, 2);
        return;
    }
    if (d == s)
        return;
    if (dr->space == BC_CONSTANT && sr->space == BC_PRIVATE &&
        dr->init == BC_INIT_NONE)
        /* a program-scope constant is a private array (sx_globals), the
         * only private memory a `constant T *` can be given: it points
         * to private memory */
        x->a->k.regs[d].space = BC_PRIVATE;
    if (dr->space != sr->space)
        sx_refuse(x, "a choice between pointers to different address "
                  "spaces");
    if ((sr->flags & BC_REGF_CONSTPTR) && !(dr->flags & BC_REGF_CONSTPTR))
        x->a->k.regs[d].flags |= BC_REGF_CONSTPTR;
    uint32_t w[3] = {d, s, sx_const(x, TY(TY_INT, 1), 0)};
    sx_emit(x, BCB_PADD, TY_UINT, 1, 0, w, 3);
}

void sx_select_ptr(SX *x, uint32_t c, uint32_t a, uint32_t b)
{
    uint32_t id = spv_word(&x->m, x->at, 2);
    const spv_type *rt = spv_typ(&x->m, x->at, spv_word(&x->m, x->at, 1));
    const bc_reg *ra = sx_r(x, a), *rb = sx_r(x, b);
    if (ra->kind != BC_REG_PTR || rb->kind != BC_REG_PTR ||
        sx_r(x, c)->type.n != 1)
        sx_refuse(x, "a choice between a pointer and a value");
    uint32_t d = sx_defptr(x, id, spv_memty(&x->m, x->at, rt->elem),
                           ra->space, (ra->flags | rb->flags) &
                           BC_REGF_CONSTPTR, x->fr->hint ? x->fr->hint[id]
                           : NULL);
    /* if c: d = a, else: d = b (per work-item) */
    uint32_t pc = kb_pc(x->a), w[2] = {c, 0};
    sx_emit(x, BCB_IF, ty_unsigned_of((enum ty_scalar)sx_r(x, c)->type.s), 1,
            0, w, 2);
    sx_move(x, d, a);
    uint32_t epc = kb_pc(x->a), j[1] = {0};
    sx_emit(x, BCB_ELSE, TY_UINT, 1, 0, j, 1);
    kb_patch(x->a, pc + 2, epc);
    sx_move(x, d, b);
    kb_patch(x->a, epc + 1, kb_pc(x->a));
    sx_emit(x, BCB_ENDIF, TY_UINT, 1, 0, j, 0);
}
