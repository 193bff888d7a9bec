/* Types and constants of a SPIR-V module: each type id becomes a clvm
 * type (scalars, vectors of 2, 3, 4, 8, 16), a pointer (storage class and
 * pointee) or a kind clvm refuses where it is used; each constant its
 * element bits. A type or constant may only use ids defined before it. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"
#include "vm/layout.h"

static enum ty_scalar int_scalar(spv_mod *m, uint32_t at, uint32_t bits)
{
    switch (bits) {
    case 8: return TY_CHAR;
    case 16: return TY_SHORT;
    case 32: return TY_INT;
    case 64: return TY_LONG;
    }
    spv_fail(m, at, "%u-bit integers are not OpenCL C types", bits);
}

static uint8_t space(spv_mod *m, uint32_t at, uint32_t sc)
{
    switch (sc) {
    case SpvStorageClassCrossWorkgroup: return BC_GLOBAL;
    case SpvStorageClassUniformConstant: return BC_CONSTANT;
    case SpvStorageClassWorkgroup: return BC_LOCAL;
    case SpvStorageClassPrivate: return BC_PRIVATE;
    case SpvStorageClassFunction: return SPV_SC_FUNCTION;
    case SpvStorageClassInput: return SPV_SC_INPUT;
    case SpvStorageClassGeneric: return SPV_SC_NONE;
    }
    spv_fail(m, at, "storage class %u is not one of OpenCL C's", sc);
}

/* A type id defined before `at`. */
static const spv_type *before(spv_mod *m, uint32_t at, uint32_t i)
{
    uint32_t id = spv_id(m, at, i);
    if (m->def[id] >= at || !m->types[id].kind)
        spv_fail(m, at, "operand word %u: id %u is not a type defined "
                 "before", i, id);
    return &m->types[id];
}

static void type(spv_mod *m, uint32_t at, uint32_t op)
{
    spv_type *t = &m->types[spv_word(m, at, 1)];
    switch (op) {
    case SpvOpTypeVoid:
        t->kind = SK_VOID;
        break;
    case SpvOpTypeBool:
        t->kind = SK_BOOL, t->ty = (ty_t){TY_INT, 1};
        break;
    case SpvOpTypeInt:
        t->kind = SK_INT;
        t->ty = (ty_t){(uint8_t)int_scalar(m, at, spv_word(m, at, 2)), 1};
        break;
    case SpvOpTypeFloat: {
        uint32_t b = spv_word(m, at, 2);
        if (b != 16 && b != 32 && b != 64)
            spv_fail(m, at, "%u-bit floats are not OpenCL C types", b);
        t->kind = SK_FLOAT;
        t->ty = (ty_t){b == 16 ? TY_HALF : b == 32 ? TY_FLOAT : TY_DOUBLE, 1};
        break;
    }
    case SpvOpTypeVector: {
        const spv_type *e = before(m, at, 2);
        uint32_t n = spv_word(m, at, 3);
        if (e->kind != SK_INT && e->kind != SK_FLOAT && e->kind != SK_BOOL)
            spv_fail(m, at, "a vector of a non-scalar type");
        if (!ty_valid_width(n))
            spv_fail(m, at, "%u-component vectors are not OpenCL C types", n);
        t->kind = SK_VEC, t->elem = spv_word(m, at, 2), t->count = n;
        t->ty = (ty_t){e->ty.s, (uint8_t)n};
        break;
    }
    case SpvOpTypePointer:
        t->kind = SK_PTR, t->space = space(m, at, spv_word(m, at, 2));
        /* The pointee may be a forward reference (OpTypeForwardPointer). */
        t->elem = spv_word(m, at, 3);
        if (t->elem >= m->bound)
            spv_fail(m, at, "pointee type id %u beyond the bound", t->elem);
        break;
    case SpvOpTypeArray: {
        before(m, at, 2);
        const spv_const *c = spv_const_of(m, spv_id(m, at, 3));
        if (!c)
            spv_fail(m, at, "array length is not a constant");
        t->kind = SK_ARRAY, t->elem = spv_word(m, at, 2);
        t->count = c->v[0] > UINT32_MAX ? UINT32_MAX : (uint32_t)c->v[0];
        break;
    }
    case SpvOpTypeFunction:
        t->kind = SK_FUNC;
        break;
    case SpvOpTypeStruct:
        for (uint32_t i = 2; i < spv_wc(m, at); i++)
            before(m, at, i);   /* members: types defined before */
        t->kind = SK_STRUCT;
        break;
    case SpvOpTypeEvent:   /* an async copy's event: uint (docs/ir.md) */
        t->kind = SK_INT, t->ty = (ty_t){TY_UINT, 1};
        break;
    default:
        t->kind = SK_OTHER;
    }
}

static spv_const *new_const(spv_mod *m, uint32_t at, uint32_t id)
{
    if ((m->nconsts & (m->nconsts - 1)) == 0) {
        size_t cap = m->nconsts ? 2 * (size_t)m->nconsts : 1;
        spv_const *c = realloc(m->consts, cap * sizeof *c);
        if (!c)
            spv_fail(m, at, "out of memory");
        m->consts = c;
    }
    m->cidx[id] = (int32_t)m->nconsts;
    spv_const *c = &m->consts[m->nconsts++];
    memset(c, 0, sizeof *c);
    c->type = spv_word(m, at, 1);
    return c;
}

/* Element bits of a scalar constant of type t from words i... */
static uint64_t scalar_bits(spv_mod *m, uint32_t at, const spv_type *t,
                            uint32_t i)
{
    unsigned size = ty_scalar_size((enum ty_scalar)t->ty.s);
    uint64_t v = spv_word(m, at, i);
    if (size == 8)
        v |= (uint64_t)spv_word(m, at, i + 1) << 32;
    else if (size < 4)
        v &= (1u << 8 * size) - 1;
    return v;
}

static void constant(spv_mod *m, uint32_t at, uint32_t op)
{
    uint32_t id = spv_word(m, at, 2);
    const spv_type *t = before(m, at, 1);
    spv_const *c = new_const(m, at, id);
    bool vec = t->kind == SK_VEC;
    switch (op) {
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
        if (t->kind != SK_BOOL)
            spv_fail(m, at, "a boolean constant of a non-boolean type");
        c->v[0] = op == SpvOpConstantTrue;
        break;
    case SpvOpConstant:
        if (t->kind != SK_INT && t->kind != SK_FLOAT)
            spv_fail(m, at, "OpConstant of a non-scalar type");
        c->v[0] = scalar_bits(m, at, t, 3);
        break;
    case SpvOpConstantNull:
    case SpvOpUndef:
        if (t->kind == SK_ARRAY || t->kind == SK_STRUCT || t->kind == SK_PTR)
            m->cidx[id] = -1, m->nconsts--;   /* a zero register instead */
        break;
    case SpvOpConstantComposite:
        if (!vec) {   /* arrays (strings), structs: read where used */
            m->cidx[id] = -1, m->nconsts--;
            break;
        }
        if (spv_wc(m, at) != 3 + t->count)
            spv_fail(m, at, "a %u-component vector constant with %u "
                     "components", t->count, spv_wc(m, at) - 3);
        for (uint32_t k = 0; k < t->count; k++) {
            const spv_const *e = spv_const_of(m, spv_id(m, at, 3 + k));
            if (!e || e->type != t->elem)
                spv_fail(m, at, "component %u is not a constant of the "
                         "element type", k);
            c = &m->consts[m->cidx[id]];  /* consts may have moved */
            c->v[k] = m->types[t->elem].kind == SK_BOOL ? -(uint64_t)e->v[0]
                                                        : e->v[0];
        }
        break;
    }
}

void spv_types(spv_mod *m)
{
    for (uint32_t at = 5; at < m->globals_end; at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at);
        if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer &&
            op != SpvOpTypeForwardPointer)
            type(m, at, op);
        else if (op == SpvOpTypePipeStorage || op == SpvOpTypeNamedBarrier)
            type(m, at, op);
        else if (op == SpvOpConstantTrue || op == SpvOpConstantFalse ||
                 op == SpvOpConstant || op == SpvOpConstantComposite ||
                 op == SpvOpConstantNull || op == SpvOpUndef)
            constant(m, at, op);
    }
}

const spv_type *spv_typ(spv_mod *m, uint32_t at, uint32_t id)
{
    if (id == 0 || id >= m->bound || !m->types[id].kind)
        spv_fail(m, at, "id %u is not a type", id);
    return &m->types[id];
}

uint32_t spv_type_of(spv_mod *m, uint32_t at, uint32_t id)
{
    bool res = false, rtype = false;
    uint32_t d = id < m->bound ? m->def[id] : 0;
    if (d)
        spv_result(spv_op(m, d), &res, &rtype);
    if (!rtype)
        spv_fail(m, at, "id %u has no type", id);
    return m->w[d + 1];
}

const spv_const *spv_const_of(const spv_mod *m, uint32_t id)
{
    return id < m->bound && m->cidx[id] >= 0 ? &m->consts[m->cidx[id]] : NULL;
}

/* ---- layout ---- */

enum { MAX_NEST = 64, MAX_SIZE = (uint64_t)1 << 40 };

static spv_lay lay(spv_mod *m, uint32_t at, uint32_t t, unsigned depth);

/* An Offset decoration of member k of struct t must say what OpenCL C's
 * layout says (off): clvm lays structs out itself. */
static void check_offset(spv_mod *m, uint32_t t, uint32_t k, uint64_t off)
{
    for (uint32_t at = 5; at < m->globals_end; at += spv_wc(m, at))
        if (spv_op(m, at) == SpvOpMemberDecorate && spv_wc(m, at) > 4 &&
            spv_word(m, at, 1) == t && spv_word(m, at, 2) == k &&
            spv_word(m, at, 3) == SpvDecorationOffset &&
            spv_word(m, at, 4) != off)
            spv_fail(m, at, "member %u of struct %u at offset %u, where "
                     "OpenCL C lays it at %llu: other layouts are not "
                     "supported", k, t, spv_word(m, at, 4),
                     (unsigned long long)off);
}

/* The members of struct t laid out up to member k (all: UINT32_MAX):
 * member k's offset, and the struct's size and alignment. */
static uint64_t members(spv_mod *m, uint32_t at, uint32_t t, uint32_t k,
                        unsigned depth, spv_lay *whole)
{
    uint32_t d = m->def[t], n = spv_wc(m, d) - 2;
    bool packed = m->deco[t].packed;
    uint64_t off = 0, align = 1;
    for (uint32_t i = 0; i < n; i++) {
        spv_lay l = lay(m, at, spv_word(m, d, 2 + i), depth + 1);
        if (packed)
            l.align = 1;
        off = (off + l.align - 1) / l.align * l.align;
        if (m->deco[t].offsets && k == UINT32_MAX)
            check_offset(m, t, i, off);
        if (i == k)
            return off;
        off += l.size;
        if (l.align > align)
            align = l.align;
        if (off > MAX_SIZE)
            spv_fail(m, at, "a struct of more than 2^40 bytes");
    }
    m->deco[t].offsets = false;   /* checked: once is enough */
    whole->align = align;
    whole->size = (off + align - 1) / align * align;
    return off;
}

static spv_lay lay(spv_mod *m, uint32_t at, uint32_t t, unsigned depth)
{
    const spv_type *ty = spv_typ(m, at, t);
    spv_lay l = {0, 1};
    if (depth > MAX_NEST)
        spv_fail(m, at, "types nested more than %d deep", MAX_NEST);
    switch (ty->kind) {
    case SK_INT: case SK_FLOAT: case SK_VEC:
        l.size = l.align = ty_sizeof(ty->ty);
        return l;
    case SK_PTR:
        l.size = l.align = 8;
        return l;
    case SK_ARRAY:
        l = lay(m, at, ty->elem, depth + 1);
        if (ty->count && l.size > MAX_SIZE / ty->count)
            spv_fail(m, at, "an array of more than 2^40 bytes");
        l.size *= ty->count;
        return l;
    case SK_STRUCT:
        members(m, at, t, UINT32_MAX, depth, &l);
        return l;
    }
    spv_fail(m, at, "type %u has no size in memory", t);
}

spv_lay spv_layout(spv_mod *m, uint32_t at, uint32_t t)
{
    return lay(m, at, t, 0);
}

uint64_t spv_member(spv_mod *m, uint32_t at, uint32_t t, uint32_t k)
{
    spv_lay l;
    uint32_t n = spv_wc(m, m->def[t]) - 2;
    if (k >= n)
        spv_fail(m, at, "member %u of a struct of %u members", k, n);
    return members(m, at, t, k, 0, &l);
}

bool spv_is_agg(const spv_mod *m, uint32_t t)
{
    return t < m->bound && (m->types[t].kind == SK_ARRAY ||
                            m->types[t].kind == SK_STRUCT);
}

ty_t spv_memty(spv_mod *m, uint32_t at, uint32_t t)
{
    const spv_type *ty = spv_typ(m, at, t);
    for (unsigned d = 0; ty->kind == SK_ARRAY && d < MAX_NEST; d++)
        ty = spv_typ(m, at, ty->elem);
    if (ty->kind == SK_INT || ty->kind == SK_FLOAT || ty->kind == SK_VEC)
        return ty->ty;
    if (ty->kind == SK_PTR)   /* a pointer's 8-byte slot (LDP, STP) */
        return (ty_t){TY_ULONG, 1};
    return (ty_t){TY_UCHAR, 1};
}

/* ---- the layout string of a by-value kernel parameter ---- */

typedef struct {
    char *s;
    size_t n, cap;
    unsigned items;
    bool over, nomem;
} lbuf;

static void lput(lbuf *b, const char *s)
{
    size_t k = strlen(s);
    if (b->over || b->nomem)
        return;
    if (b->n + k + 1 > b->cap) {
        size_t cap = (b->n + k + 1) * 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->nomem = true;
            return;
        }
        b->s = p, b->cap = cap;
    }
    memcpy(b->s + b->n, s, k + 1);
    b->n += k;
}

/* Is member j of struct t a uchar array clang added as padding: the
 * struct laid out without it has every other member where it is, and
 * its size? (A member the source declared so is taken for padding too.) */
static bool padding(spv_mod *m, uint32_t at, uint32_t t, uint32_t j)
{
    uint32_t d = m->def[t], n = spv_wc(m, d) - 2;
    const spv_type *mt = spv_typ(m, at, m->w[d + 2 + j]);
    if (mt->kind != SK_ARRAY || spv_typ(m, at, mt->elem)->kind != SK_INT ||
        ty_scalar_size((enum ty_scalar)spv_typ(m, at, mt->elem)->ty.s) != 1)
        return false;
    uint64_t off = 0, align = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (i == j)
            continue;
        spv_lay l = spv_layout(m, at, m->w[d + 2 + i]);
        if (m->deco[t].packed)
            l.align = 1;
        off = (off + l.align - 1) / l.align * l.align;
        if (off != spv_member(m, at, t, i))
            return false;
        off += l.size;
        align = l.align > align ? l.align : align;
    }
    return (off + align - 1) / align * align == spv_layout(m, at, t).size;
}

static void ltext(spv_mod *m, uint32_t at, uint32_t t, uint64_t off,
                  lbuf *b)
{
    const spv_type *ty = spv_typ(m, at, t);
    if (b->over || ++b->items >= LAY_MAX_ITEMS) {
        b->over = true;
        return;
    }
    if (ty->kind == SK_ARRAY || ty->kind == SK_STRUCT) {
        bool arr = ty->kind == SK_ARRAY;
        uint64_t n = arr ? ty->count : spv_wc(m, m->def[t]) - 2;
        uint64_t es = arr ? spv_layout(m, at, ty->elem).size : 0;
        lput(b, "{");
        bool first = true;
        for (uint64_t i = 0; i < n && !b->over; i++) {
            if (!arr && padding(m, at, t, (uint32_t)i))
                continue;
            if (!first)
                lput(b, ",");
            first = false;
            uint32_t et = arr ? ty->elem : m->w[m->def[t] + 2 + i];
            ltext(m, at, et, off + (arr ? i * es
                                        : spv_member(m, at, t, (uint32_t)i)),
                  b);
        }
        lput(b, "}");
        b->items++;
        return;
    }
    /* a leaf: integers signed as C's are by default (a literal of either
     * sign's range is taken); a pointer, which OpenCL C does not allow in
     * a kernel argument, its 8 bytes */
    ty_t lt = ty->kind == SK_PTR ? (ty_t){TY_ULONG, 1} : ty->ty;
    if (ty->kind != SK_PTR && !ty_is_float((enum ty_scalar)lt.s))
        lt.s = ty_signed_of((enum ty_scalar)lt.s);
    char item[48], tn[TY_NAME_MAX];
    snprintf(item, sizeof item, "%llu:%s", (unsigned long long)off,
             ty_name(lt, tn));
    lput(b, item);
}

char *spv_layout_text(spv_mod *m, uint32_t at, uint32_t t)
{
    lbuf b = {0};
    ltext(m, at, t, 0, &b);
    if (b.nomem || b.over || !b.s) {
        free(b.s);
        return b.nomem ? NULL : strdup("");
    }
    return b.s;
}
