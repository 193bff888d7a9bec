/* Types and constants of a SPIR-V module: each type id becomes a clvm
 * type (scalars, vectors of 2, 3, 4, 8, 16), a pointer (storage class and
 * pointee) or a kind clvm refuses where it is used; each constant its
 * element bits. A type or constant may only use ids defined before it. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"

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
