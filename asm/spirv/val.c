/* SPIR-V ids as clvm registers: the value of an id in the function being
 * inlined (a register, a promoted variable, a built-in, a pointer not yet
 * offset), constants from the module's pool, result registers named after
 * the OpenCL C variables (OpName), and the emitter every translated
 * instruction goes through. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"
#include "asm/optab.h"
#include "stdlib/convert.h"
#include "vm/bcfile.h"

void sx_refuse(SX *x, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->a->line)
        spv_fail_line(&x->m, x->a->line, "%s", msg);
    spv_fail(&x->m, x->at, "%s", msg);
}

void sx_emit(SX *x, enum bc_base base, enum ty_scalar s, unsigned n,
             unsigned flags, const uint32_t *w, unsigned nw)
{
    if (base == BCB_MOV && w[0] == w[1])
        return;   /* r = r: nothing (and the IR would not write it) */
    int op = op_variant(base, s);
    if (op < 0)
        sx_refuse(x, "internal error: %s has no %s variant",
                  bc_bases[base].name, ty_scalar_name(s));
    if (!kb_emit(x->a, op, n, flags, w, nw) || x->a->nerr)
        spv_fail(&x->m, x->at, "out of memory");
}

const bc_reg *sx_r(SX *x, uint32_t reg) { return kb_regp(x->a, reg); }

/* Why clvm has no value of opaque type id t, in OpenCL C's words (NULL:
 * not such a type). */
static const char *opaque_why(SX *x, uint32_t t)
{
    switch (x->m.w[x->m.def[t]] & 0xffff) {
    case SpvOpTypeImage:
    case SpvOpTypeSampledImage:
        return "images are not supported: clvm's device has none "
               "(CL_DEVICE_IMAGE_SUPPORT is false)";
    case SpvOpTypeSampler:
        return "samplers are not supported: clvm's device has no images "
               "(CL_DEVICE_IMAGE_SUPPORT is false)";
    case SpvOpTypePipe:
    case SpvOpTypeQueue:
    case SpvOpTypeDeviceEvent:
    case SpvOpTypeReserveId:
        return "pipes, device queues and their events are OpenCL C 2.0; "
               "clvm is OpenCL C 1.2";
    default: return NULL;
    }
}

ty_t sx_vty(SX *x, uint32_t t)
{
    const spv_type *ty = spv_typ(&x->m, x->at, t);
    const char *why = ty->kind == SK_OTHER ? opaque_why(x, t) : NULL;
    if (why)
        sx_refuse(x, "%s", why);
    if (ty->kind != SK_INT && ty->kind != SK_FLOAT && ty->kind != SK_BOOL &&
        ty->kind != SK_VEC)
        sx_refuse(x, "a value of a type clvm has no register for (type id "
                  "%u: arrays, structs and pointers to pointers are not "
                  "supported yet)", t);
    return ty->ty;
}

/* A module-scope OpVariable as this kernel sees it: a built-in (Input),
 * or a local array (Workgroup) declared when the kernel first uses it. */
static spv_val *global(SX *x, uint32_t id)
{
    static const struct { uint32_t bi, k; } bis[] = {
        {SpvBuiltInGlobalInvocationId, 0}, {SpvBuiltInLocalInvocationId, 1},
        {SpvBuiltInWorkgroupId, 2}, {SpvBuiltInGlobalSize, 3},
        {SpvBuiltInWorkgroupSize, 4}, {SpvBuiltInEnqueuedWorkgroupSize, 4},
        {SpvBuiltInNumWorkgroups, 5}, {SpvBuiltInGlobalOffset, 6},
        {SpvBuiltInWorkDim, 7},
    };
    spv_val *g = &x->gv[id];
    uint32_t d = x->m.def[id];
    if (g->kind != VK_NONE || !d || d >= x->m.globals_end ||
        spv_op(&x->m, d) != SpvOpVariable)
        return g;
    const spv_type *pt = spv_typ(&x->m, d, spv_word(&x->m, d, 1));
    uint32_t sc = spv_word(&x->m, d, 3);
    if (sc == SpvStorageClassInput) {
        int32_t bi = x->m.deco[id].builtin;
        for (size_t i = 0; i < sizeof bis / sizeof bis[0]; i++)
            if ((int32_t)bis[i].bi == bi) {
                *g = sv(-1, VK_BUILTIN, bis[i].k);
                return g;
            }
        sx_refuse(x, "built-in variable %d is not supported", bi);
    }
    const spv_type *at = spv_typ(&x->m, d, pt->elem);
    const char *nm = x->m.names[id] ? x->m.names[id] : "?";
    if ((sc == SpvStorageClassUniformConstant ||
         sc == SpvStorageClassFunction) && spv_wc(&x->m, d) > 4) {
        /* not in memory (mem.c declared the others): clang's
         * initialiser of a variable ('constinit', a private one where
         * the initialiser holds a pointer elsewhere), or a string */
        *g = sv(-1, VK_CINIT, id);
        return g;
    }
    /* a __local scalar or vector: an array of one */
    bool one = at->kind == SK_INT || at->kind == SK_FLOAT ||
               at->kind == SK_VEC;
    if (sc != SpvStorageClassWorkgroup || (at->kind != SK_ARRAY && !one) ||
        spv_wc(&x->m, d) > 4 || (!one && (spv_typ(&x->m, d, at->elem)->kind ==
        SK_ARRAY || spv_typ(&x->m, d, at->elem)->kind == SK_STRUCT)))
        sx_refuse(x, "program-scope variables other than __local and "
                  "constant ones are not supported ('%s')", nm);
    ty_t et = sx_vty(x, one ? pt->elem : at->elem);
    uint32_t count = one ? 1 : at->count;
    bc_reg r = {0};
    r.type = et, r.kind = BC_REG_PTR, r.space = BC_LOCAL;
    r.init = BC_INIT_ARRAY, r.arg = count;
    if (!count || (uint64_t)count * ty_sizeof(et) > BC_MAX_LOCAL)
        sx_refuse(x, "a __local array of %u elements", count);
    const char *dot = x->m.names[id] ? strrchr(nm, '.') : NULL;
    int32_t reg = sx_named(x, dot ? dot + 1 : nm, r);
    if (reg < 0)
        reg = sx_named(x, "local_array", r);
    *g = sv(reg, VK_REG, 0);
    return g;
}

spv_val *sx_val(SX *x, uint32_t i)
{
    uint32_t id = spv_id(&x->m, x->at, i);
    spv_val *v = &x->fr->v[id];
    return v->kind != VK_NONE ? v : global(x, id);
}

/* A name the IR can read back: [A-Za-z_][A-Za-z0-9_]*, not reserved, not
 * taken; dots (x.addr, splat.splat) become underscores. */
int32_t sx_named(SX *x, const char *name, bc_reg r)
{
    char buf[48];
    size_t n = 0;
    if (!name || !*name)
        return -1;
    for (const char *p = name; *p && n < 40; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '_';
        buf[n++] = ok ? c : '_';
    }
    buf[n] = 0;
    if (buf[0] >= '0' && buf[0] <= '9')
        return -1;
    if (buf[0] == '_')          /* the assembler's names: temporaries */
        return -1;
    if (parse_is_reserved(buf, n))
        buf[n++] = '_', buf[n] = 0;
    char uniq[64];
    snprintf(uniq, sizeof uniq, "%s", buf);
    for (unsigned k = 2; kb_find(x->a, uniq, strlen(uniq)) >= 0; k++)
        snprintf(uniq, sizeof uniq, "%s_%u", buf, k);
    int32_t reg = kb_reg(x->a, uniq, strlen(uniq), r);
    if (reg < 0)
        sx_refuse(x, "too many registers");
    return reg;
}

uint32_t sx_temp(SX *x, ty_t t)
{
    int32_t r = kb_temp(x->a, t);
    if (r < 0)
        sx_refuse(x, "too many registers");
    return (uint32_t)r;
}

uint32_t sx_const(SX *x, ty_t t, uint64_t v)
{
    uint64_t e[16];
    for (unsigned i = 0; i < 16; i++)
        e[i] = v;
    int32_t r = kb_const(x->a, t, e);
    if (r < 0)
        sx_refuse(x, "too many registers");
    return (uint32_t)r;
}

static uint32_t constant(SX *x, uint32_t id)
{
    const spv_const *c = spv_const_of(&x->m, id);
    ty_t t = sx_vty(x, c->type);
    int32_t r = kb_const(x->a, t, c->v);
    if (r < 0)
        sx_refuse(x, "too many registers");
    return (uint32_t)r;
}

uint32_t sx_defptr(SX *x, uint32_t id, ty_t pointee, uint8_t space,
                   bool cptr, const char *name)
{
    bc_reg r = {0};
    r.type = pointee, r.kind = BC_REG_PTR, r.space = space;
    r.flags = cptr ? BC_REGF_CONSTPTR : 0;
    int32_t reg = sx_named(x, name, r);
    if (reg < 0 && (reg = kb_ptemp(x->a, &r)) < 0)
        sx_refuse(x, "too many registers");
    x->fr->v[id] = sv(reg, VK_REG, 0);
    return (uint32_t)reg;
}

uint8_t sx_space(SX *x, uint8_t sp)
{
    if (sp == SPV_SC_FUNCTION)
        return BC_PRIVATE;
    if (sp > BC_PRIVATE)
        sx_refuse(x, "a pointer to generic or input memory");
    return sp;
}

bool sx_same_bits(ty_t a, ty_t b)
{
    return a.n == b.n && ty_scalar_size((enum ty_scalar)a.s) ==
                         ty_scalar_size((enum ty_scalar)b.s);
}

uint32_t sx_ptr_at(SX *x, uint32_t base, uint32_t idx, ty_t to)
{
    const bc_reg *b = sx_r(x, base);
    bc_reg r = *b;
    r.type = to, r.init = BC_INIT_NONE, r.arg = 0;
    r.flags &= BC_REGF_CONSTPTR;
    int32_t d = kb_ptemp(x->a, &r);
    if (d < 0)
        sx_refuse(x, "too many registers");
    uint32_t w[3] = {(uint32_t)d, base, idx};
    sx_emit(x, BCB_PADD, TY_UINT, 1, 0, w, 3);
    return (uint32_t)d;
}

uint32_t sx_val_reg(SX *x, spv_val *v, uint32_t id)
{
    if (v->view && (v->kind == VK_REG || v->kind == VK_CHAIN)) {
        /* a pointer cast used as a pointer: a register of its type */
        ty_t vt = spv_memty(&x->m, x->at, v->view);
        const bc_reg *b = sx_r(x, (uint32_t)v->reg);
        /* (of another type even where the bits are the same: a half *
         * seen as a ushort * goes to vstore_half, which needs half *) */
        if (!ty_eq(vt, b->type) || v->kind == VK_CHAIN)
            return sx_ptr_at(x, (uint32_t)v->reg, v->kind == VK_CHAIN
                             ? v->aux : sx_const(x, TY(TY_INT, 1), 0), vt);
    }
    switch (v->kind) {
    case VK_REG:
        return (uint32_t)v->reg;
    case VK_CHAIN: {
        /* the pointer is needed as a value after all: computed here for
         * this use, the id left a chain (a use on another path, which does
         * not pass here, computes it again) */
        const bc_reg *b = sx_r(x, (uint32_t)v->reg);
        uint32_t w[3] = {0, (uint32_t)v->reg, v->aux};
        spv_val chain = x->fr->v[id];
        w[0] = sx_defptr(x, id, b->type, b->space,
                         b->flags & BC_REGF_CONSTPTR,
                         x->fr->hint ? x->fr->hint[id] : NULL);
        x->fr->v[id] = chain;
        sx_emit(x, BCB_PADD, TY_UINT, 1, 0, w, 3);
        return w[0];
    }
    case VK_SPLAT: {
        /* the insertion is needed as a value after all */
        ty_t t = sx_vty(x, spv_type_of(&x->m, x->at, id));
        uint32_t w[4] = {0, sx_const(x, t, 0), 0, 0};
        int32_t obj = v->reg;
        uint32_t k = v->aux;
        w[0] = sx_def_id(x, id, t);
        sx_emit(x, BCB_MOV, ty_unsigned_of((enum ty_scalar)t.s), t.n, 0, w,
                2);
        w[1] = (uint32_t)obj, w[2] = k, w[3] = 0;
        sx_emit(x, BCB_SWW, ty_unsigned_of((enum ty_scalar)t.s), 1, 0, w, 4);
        return w[0];
    }
    case VK_CINIT:
        sx_refuse(x, "'%s', a constant initialiser, used other than to "
                  "initialise a variable",
                  x->m.names[v->aux] ? x->m.names[v->aux] : "?");
    case VK_NONE:
        if (spv_const_of(&x->m, id))
            return constant(x, id);
        if (x->m.def[id] && (spv_op(&x->m, x->m.def[id]) == SpvOpUndef ||
                             spv_op(&x->m, x->m.def[id]) ==
                             SpvOpConstantNull) &&
            spv_typ(&x->m, x->at, spv_type_of(&x->m, x->at, id))->kind ==
            SK_PTR) {
            /* the null pointer: a register nothing assigns (no buffer) */
            const spv_type *pt = spv_typ(&x->m, x->at,
                                         spv_type_of(&x->m, x->at, id));
            bc_reg r = {0};
            r.type = spv_memty(&x->m, x->at, pt->elem), r.kind = BC_REG_PTR;
            r.space = sx_space(x, pt->space);
            int32_t reg = kb_ptemp(x->a, &r);
            if (reg < 0)
                sx_refuse(x, "too many registers");
            return (uint32_t)reg;
        }
        if (x->m.def[id] && (spv_op(&x->m, x->m.def[id]) == SpvOpUndef ||
                             spv_op(&x->m, x->m.def[id]) ==
                             SpvOpConstantNull))
            return sx_const(x, sx_vty(x, spv_type_of(&x->m, x->at, id)), 0);
        break;
    }
    sx_refuse(x, "id %u is not a value clvm can use here (opcode %u defines "
              "it)", id, spv_op(&x->m, x->m.def[id]));
}

uint32_t sx_reg(SX *x, uint32_t i)
{
    uint32_t id = spv_id(&x->m, x->at, i);
    return sx_val_reg(x, sx_val(x, i), id);
}

uint32_t sx_def(SX *x, ty_t t)
{
    return sx_def_id(x, spv_word(&x->m, x->at, 2), t);
}

uint32_t sx_def_id(SX *x, uint32_t id, ty_t t)
{
    bc_reg r = {0};
    r.type = t, r.kind = BC_REG_VALUE;
    const char *hint = x->fr->hint ? x->fr->hint[id] : NULL;
    uint32_t var = x->fr->into && id < x->m.bound ? x->fr->into[id] : 0;
    if (var && x->fr->v[var].kind == VK_VAR) {
        /* computed straight into the variable it is stored to */
        const bc_reg *vr = sx_r(x, (uint32_t)x->fr->v[var].reg);
        if (vr->type.n == t.n && ty_scalar_size((enum ty_scalar)vr->type.s)
                                     == ty_scalar_size((enum ty_scalar)t.s)) {
            x->fr->v[id] = x->fr->v[var];
            x->fr->v[id].kind = VK_REG;
            return (uint32_t)x->fr->v[var].reg;
        }
    }
    int32_t reg = sx_named(x, hint ? hint : x->m.names[id], r);
    if (reg < 0)
        reg = (int32_t)sx_temp(x, t);
    x->fr->v[id] = sv(reg, VK_REG, 0);
    return (uint32_t)reg;
}

uint32_t sx_as(SX *x, uint32_t reg, ty_t want)
{
    const bc_reg *r = sx_r(x, reg);
    if (r->kind != BC_REG_VALUE || r->type.n != want.n)
        sx_refuse(x, "internal error: operand shape");
    if (ty_eq(r->type, want))
        return reg;
    enum ty_scalar from = (enum ty_scalar)r->type.s;
    uint32_t w[3] = {sx_temp(x, want), reg, 0};
    if (ty_scalar_size(from) == ty_scalar_size((enum ty_scalar)want.s)) {
        sx_emit(x, BCB_MOV, (enum ty_scalar)want.s, want.n, 0, w, 2);
    } else {
        enum ty_scalar to = (enum ty_scalar)want.s;
        if (ty_is_float(from) || ty_is_float(to))
            sx_refuse(x, "internal error: a floating operand of another "
                      "size");
        w[2] = BC_CVT(to, from, 0, cv_default_round(to), 0);
        sx_emit(x, BCB_CVT, TY_UINT, want.n, 0, w, 3);
    }
    return w[0];
}
