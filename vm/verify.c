/* The verifier: everything the interpreter trusts, checked once on load.
 * It guards safety, not OpenCL typing: operand kinds, element sizes and
 * component counts per the TYPES letters of vm/opcodes.def, the op-specific
 * rules of the X letters, register declarations (by-value parameters:
 * vm/layout.c), and structured control flow with every jump exactly at its
 * matching instruction. After it, the interpreter checks only memory
 * bounds, alignment and barriers. docs/bytecode.md lists the rules; each
 * check has a test in tests/unit/test_verify.c that fails without it. */
#include "vm/bcfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/convert.h"
#include "stdlib/mathfn.h"
#include "vm/layout.h"
#include "vm/printf.h"
#include "vm/vsync.h"

enum { NOPC = UINT32_MAX };

typedef struct {
    const bc_module *m;
    const bc_kernel *k;   /* NULL at module level */
    uint32_t ki;          /* index of k */
    bool named;           /* k's name is a valid string */
    uint32_t pc;          /* NOPC outside the code */
    char *err;
    size_t errlen;
} vctx;

static const char *const space_names[] = {
#define X(E, n) #n,
    BC_SPACES(X)
#undef X
};
enum { NSPACE = sizeof space_names / sizeof space_names[0] };

const char *bc_space_name(unsigned s) { return s < NSPACE ? space_names[s] : "?"; }

static int verr(vctx *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int verr(vctx *v, const char *fmt, ...)
{
    if (!v->errlen)
        return -1;
    int w = 0;
    if (v->k && v->named)
        w = snprintf(v->err, v->errlen, "kernel '%s'",
                     v->m->strings + v->k->name);
    else if (v->k)
        w = snprintf(v->err, v->errlen, "kernel %u", v->ki);
    if (v->k && v->pc != NOPC && w >= 0 && (size_t)w < v->errlen)
        w += snprintf(v->err + w, v->errlen - (size_t)w, " pc %u", v->pc);
    if (v->k && w >= 0 && (size_t)w < v->errlen)
        w += snprintf(v->err + w, v->errlen - (size_t)w, ": ");
    if (w >= 0 && (size_t)w < v->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(v->err + w, v->errlen - (size_t)w, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* "float4", or "global float*" for a pointer. Only for checked types. */
static const char *desc(const bc_reg *r, char buf[40])
{
    char t[TY_NAME_MAX];
    ty_name(r->type, t);
    if (r->kind == BC_REG_PTR)
        snprintf(buf, 40, "%s %s*", bc_space_name(r->space), t);
    else
        snprintf(buf, 40, "%s", t);
    return buf;
}

/* A C identifier: [A-Za-z_][A-Za-z0-9_]*, so a name prints as what it is
 * (a name holding control bytes or spaces would print as something else). */
static bool is_ident(const char *n)
{
    bool ok = (*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') ||
              *n == '_';
    for (const char *c = n; *c && ok; c++)
        ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
             (*c >= '0' && *c <= '9') || *c == '_';
    return ok;
}

/* A name: in range and an identifier (or empty: an unnamed register).
 * owner and i name its owner ("register", 3), or owner is NULL for the
 * kernel. The message is made only when it is needed: the interpreter
 * verifies the kernel of every run. */
static int check_str(vctx *v, uint32_t off, const char *owner, uint32_t i)
{
    char what[32] = "";
    if (off < v->m->nstrings && (!v->m->strings[off] ||
                                 is_ident(v->m->strings + off)))
        return 0;
    if (owner)
        snprintf(what, sizeof what, "%s %u: ", owner, i);
    if (off < v->m->nstrings) {
        /* shown escaped: the bytes themselves may not be printable */
        char esc[64];
        size_t at = 0;
        for (const char *c = v->m->strings + off; *c && at < 40; c++)
            at += (size_t)snprintf(esc + at, sizeof esc - at,
                                   *c > ' ' && *c < 0x7f && *c != '\\'
                                       ? "%c" : "\\x%02x", (unsigned char)*c);
        return verr(v, "%sname \"%s\" is not an identifier", what, esc);
    }
    return verr(v, "%sname at string offset %u is out of range (%u "
                   "bytes of strings)", what, off, v->m->nstrings);
}

/* A C type of an extern: void only as a result, no half (not a C type). */
static int check_ctype(vctx *v, uint32_t i, int pi, bc_ctype t)
{
    char what[40];
    if (pi < 0)
        snprintf(what, sizeof what, "extern %u: result", i);
    else
        snprintf(what, sizeof what, "extern %u: parameter %d", i, pi);
    if (t.kind > BC_C_CPTR || (t.kind == BC_C_VOID && (pi >= 0 || t.s)))
        return verr(v, "%s: bad kind %u (void is a result only)", what,
                    t.kind);
    if (t.kind != BC_C_VOID && (t.s >= TY_NSCALAR || t.s == TY_HALF))
        return verr(v, "%s: bad C type %u", what, t.s);
    if (pi < 0 && t.kind > BC_C_VALUE)
        return verr(v, "%s: a pointer (host functions return values)",
                    what);
    return 0;
}

/* Extern declarations: C identifiers, declared once, C signatures. */
static int check_externs(vctx *v)
{
    const bc_module *m = v->m;
    if (m->nexterns && !m->externs)
        return verr(v, "%u externs but no extern array", m->nexterns);
    for (uint32_t i = 0; i < m->nexterns; i++) {
        const bc_extern *x = &m->externs[i];
        if (x->name >= m->nstrings)
            return verr(v, "extern %u: name at string offset %u is out of "
                           "range", i, x->name);
        const char *n = m->strings + x->name;
        if (!is_ident(n))
            return verr(v, "extern %u: name \"%.40s\" is not a C identifier",
                        i, n);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(n, m->strings + m->externs[j].name))
                return verr(v, "extern %u: '%s' is declared twice", i, n);
        if (x->nparams > BC_MAX_CALL_ARGS)
            return verr(v, "extern %u '%s': %u parameters (at most %d)", i,
                        n, x->nparams, BC_MAX_CALL_ARGS);
        if (x->nparams && !x->params)
            return verr(v, "extern %u: parameters without their array", i);
        if (check_ctype(v, i, -1, x->ret))
            return -1;
        for (uint32_t j = 0; j < x->nparams; j++)
            if (check_ctype(v, i, (int)j, x->params[j]))
                return -1;
    }
    return 0;
}

/* What every kernel relies on: strings that cannot run off their table. */
static int check_module(vctx *v)
{
    const bc_module *m = v->m;
    if (!m->nstrings || !m->strings)
        return verr(v, "string table is empty (offset 0 must hold \"\")");
    if (m->strings[0])
        return verr(v, "string table does not start with \"\"");
    if (m->strings[m->nstrings - 1])
        return verr(v, "string table does not end with a NUL");
    if (m->nkernels && !m->kernels)
        return verr(v, "%u kernels but no kernel array", m->nkernels);
    if (m->nconst && !m->consts)
        return verr(v, "constant pool of %u bytes has no data", m->nconst);
    return check_externs(v);
}

/* ---- registers and parameters ---- */

static int check_reg(vctx *v, uint32_t ri, bc_facts *f)
{
    const bc_kernel *k = v->k;
    const bc_reg *r = &k->regs[ri];
    char d[40];
    if (check_str(v, r->name, "register", ri))
        return -1;
    if (r->type.s >= TY_NSCALAR)
        return verr(v, "register %u: bad element type %u", ri, r->type.s);
    if (!ty_valid_width(r->type.n))
        return verr(v, "register %u: %u components is not a vector width "
                       "(1, 2, 3, 4, 8, 16)", ri, r->type.n);
    if (r->kind > BC_REG_PTR)
        return verr(v, "register %u: bad kind %u", ri, r->kind);
    if (r->kind == BC_REG_PTR && r->space >= NSPACE)
        return verr(v, "register %u: bad address space %u", ri, r->space);
    if (r->kind == BC_REG_VALUE && r->space)
        return verr(v, "register %u: a value register with address space "
                       "%u (must be 0)", ri, r->space);
    if (r->flags & ~(BC_REGF_TEMP | BC_REGF_CONSTPTR))
        return verr(v, "register %u: unknown flags 0x%x", ri, r->flags);
    if (r->kind == BC_REG_VALUE && (r->flags & BC_REGF_CONSTPTR))
        return verr(v, "register %u: const-data flag on a value register",
                    ri);
    switch (r->init) {
    case BC_INIT_NONE:
        if (r->arg)
            return verr(v, "register %u: no initial value, but arg %u "
                           "(must be 0)", ri, r->arg);
        return 0;
    case BC_INIT_PARAM:
        if (r->arg >= k->nparams)
            return verr(v, "register %u: initialised from param %u, the "
                           "kernel has %u", ri, r->arg, k->nparams);
        if (k->params[r->arg].reg != ri) {
            /* A copy or broadcast of a value parameter (the assembler's
             * uniform operands): its type, or a vector of its scalar. */
            const bc_reg *p = &k->regs[k->params[r->arg].reg];
            if (p->kind != BC_REG_VALUE || r->kind != BC_REG_VALUE ||
                !(ty_eq(p->type, r->type) ||
                  (p->type.n == 1 && p->type.s == r->type.s)))
                return verr(v, "register %u: initialised from param %u, "
                               "which names register %u, not a value it "
                               "can broadcast", ri, r->arg,
                            k->params[r->arg].reg);
        }
        if (r->kind == BC_REG_PTR && r->space == BC_PRIVATE)
            return verr(v, "register %u: %s parameter (private pointers "
                           "cannot be kernel arguments)", ri, desc(r, d));
        return 0;
    case BC_INIT_CONST:
        if (r->kind != BC_REG_VALUE)
            return verr(v, "register %u: %s from the constant pool (only "
                           "values can be)", ri, desc(r, d));
        if (r->arg > v->m->nconst ||
            ty_sizeof(r->type) > v->m->nconst - r->arg)
            return verr(v, "register %u: %s at pool offset %u runs past the "
                           "constant pool (%u bytes)", ri, desc(r, d), r->arg,
                        v->m->nconst);
        return 0;
    case BC_INIT_ARRAY: {
        if (r->kind != BC_REG_PTR ||
            (r->space != BC_LOCAL && r->space != BC_PRIVATE))
            return verr(v, "register %u: %s as an array (arrays are local "
                           "or private pointers)", ri, desc(r, d));
        if (!r->arg)
            return verr(v, "register %u: array of 0 elements", ri);
        /* arg < 2^32 and sizeof <= 128: no overflow in 64 bits. */
        uint64_t bytes = (uint64_t)r->arg * ty_sizeof(r->type);
        bool local = r->space == BC_LOCAL;
        uint64_t *total = local ? &f->local_bytes : &f->private_bytes;
        uint64_t max = local ? BC_MAX_LOCAL : BC_MAX_PRIVATE;
        if (bytes > max - *total)
            return verr(v, "register %u: %s arrays reach %llu bytes (at "
                           "most %llu per %s)", ri, bc_space_name(r->space),
                        (unsigned long long)(*total + bytes),
                        (unsigned long long)max,
                        local ? "work-group" : "work-item");
        *total += bytes;
        return 0;
    }
    }
    return verr(v, "register %u: bad init %u", ri, r->init);
}

static int check_decls(vctx *v, bc_facts *f)
{
    const bc_kernel *k = v->k;
    if (k->nregs > BC_MAX_REGS)
        return verr(v, "%u registers (at most %u)", k->nregs, BC_MAX_REGS);
    for (uint32_t i = 0; i < k->nparams; i++) {
        const bc_param *p = &k->params[i];
        char why[200];
        if (check_str(v, p->name, "param", i))
            return -1;
        if (p->reg >= k->nregs)
            return verr(v, "param %u: register %u out of range (%u "
                           "registers)", i, p->reg, k->nregs);
        const bc_reg *r = &k->regs[p->reg];
        if (r->init != BC_INIT_PARAM || r->arg != i)
            return verr(v, "param %u: register %u is not initialised from "
                           "param %u", i, p->reg, i);
        if (lay_check_param(v->m, p, r, why, sizeof why))
            return verr(v, "param %u: %s", i, why);
    }
    for (uint32_t i = 0; i < k->nregs; i++)
        if (check_reg(v, i, f))
            return -1;
    return 0;
}

/* ---- instructions ---- */

/* The operand being checked, for messages. */
typedef struct {
    const char *op;     /* "ADD_F32" */
    unsigned i;         /* 1-based operand position */
    uint32_t ri;
    const bc_reg *r;
} opnd;

static int bad(vctx *v, const opnd *o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(vctx *v, const opnd *o, const char *fmt, ...)
{
    char need[80], d[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(need, sizeof need, fmt, ap);
    va_end(ap);
    return verr(v, "%s operand %u: register %u is %s, needs %s", o->op, o->i,
                o->ri, desc(o->r, d), need);
}

/* Checks a register operand against a TYPES letter, plus the internal
 * letters V (value of the op's element size, any count), A (any value) and
 * Q (any pointer) that the X rules use. */
static int check_type(vctx *v, const opnd *o, char t, unsigned n,
                      unsigned esz)
{
    const bc_reg *r = o->r;
    unsigned rsz = ty_scalar_size((enum ty_scalar)r->type.s);
    switch (t) {
    case 'T': case 'M': case 'U': case 'K': case 'E': case 'C': case 'I':
    case 'V': case 'A':
        if (r->kind != BC_REG_VALUE)
            return bad(v, o, "a value");
        if (t != 'I' && t != 'A' && rsz != esz)
            return bad(v, o, "%u-byte elements", esz);
        if (strchr("TMUK", t) && r->type.n != n)
            return bad(v, o, "%u component%s", n, n == 1 ? "" : "s");
        if (strchr("ECI", t) && r->type.n != 1)
            return bad(v, o, "a scalar");
        if (t == 'I' && ty_is_float((enum ty_scalar)r->type.s))
            return bad(v, o, "an integer");
        return 0;
    case 'P': case 'H': case 'Q':
        if (r->kind != BC_REG_PTR)
            return bad(v, o, "a pointer");
        if (t == 'P' && rsz != esz)
            return bad(v, o, "a pointer to %u-byte elements", esz);
        if (t == 'H' && (r->type.s != TY_HALF || r->type.n != 1))
            return bad(v, o, "a pointer to half");
        return 0;
    }
    return 0;   /* X: the op's own rule; -: not a register */
}

/* Does n count components (else it must be 1)? */
static bool has_n(unsigned base)
{
    return strpbrk(bc_bases[base].types, "TMUK") || base == BCB_AS ||
           base == BCB_CVT || base == BCB_VLDH || base == BCB_CALL ||
           base == BCB_CALLV || base == BCB_MATHS;
}

static unsigned used_flags(const bc_opinfo *oi)
{
    const unsigned base = oi->base;
    switch (base) {
    case BCB_VLDH:  return BC_F_ALIGNED;
    case BCB_VSTH:  return BC_F_ALIGNED | BC_F_RND;
    case BCB_BRKIF: case BCB_BRKTOIF: return BC_F_NOT;
    case BCB_MATHS: return BC_F_SECOND;
    case BCB_ADD: case BCB_SUB: case BCB_MUL: case BCB_NEG:
        return ty_is_float((enum ty_scalar)oi->elem) ? 0 : BC_F_SIGNED;
    }
    return 0;
}

/* SWZ/SWW selectors: nibble k of z picks a component of the X side. */
static int check_swizzle(vctx *v, const char *op, bool write, uint64_t z,
                         unsigned n, const bc_reg *x)
{
    unsigned seen = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned s = (unsigned)(z >> 4 * k) & 15;
        if (s >= x->type.n)
            return verr(v, "%s selector %u is %u, the %s has %u components",
                        op, k, s, write ? "destination" : "source",
                        x->type.n);
        if (write && (seen >> s & 1))
            return verr(v, "%s writes component %u twice", op, s);
        seen |= 1u << s;
    }
    if (n < 16 && z >> 4 * n)
        return verr(v, "%s: unused selector bits set (0x%016llx)", op,
                    (unsigned long long)z);
    return 0;
}

static int check_cvt(vctx *v, const char *op, uint32_t t, unsigned n,
                     const bc_reg *d, const bc_reg *a)
{
    char buf[TY_NAME_MAX];
    unsigned dst = BC_CVT_DST(t), src = BC_CVT_SRC(t), rnd = BC_CVT_RND(t);
    if (t >> 20)
        return verr(v, "%s: unused conversion-word bits 0x%x", op,
                    t & ~0xfffffu);
    if (dst >= TY_NSCALAR || src >= TY_NSCALAR)
        return verr(v, "%s: bad scalar type %u in the conversion word", op,
                    dst >= TY_NSCALAR ? dst : src);
    if (dst != d->type.s)
        return verr(v, "%s: converts to %s, the destination is %s", op,
                    ty_scalar_name((enum ty_scalar)dst), ty_name(d->type, buf));
    if (src != a->type.s)
        return verr(v, "%s: converts from %s, the source is %s", op,
                    ty_scalar_name((enum ty_scalar)src), ty_name(a->type, buf));
    if (d->type.n != n || a->type.n != n)
        return verr(v, "%s: n = %u, but converts %u to %u components", op, n,
                    a->type.n, d->type.n);
    if (!cv_legal((enum ty_scalar)dst, BC_CVT_SAT(t)))
        return verr(v, "%s: _sat needs an integer destination", op);
    /* dis prints no suffix for an unspelled mode, so it must be the one
     * a name without a suffix means, or the bytes would not round-trip. */
    enum rnd def = cv_default_round((enum ty_scalar)dst);
    if (!BC_CVT_SPELLED(t) && rnd != def)
        return verr(v, "%s: rounding %s is not spelled, but a name without "
                       "one means %s", op, rnd_name((enum rnd)rnd),
                    rnd_name(def));
    return 0;
}

/* The registers of an l list, each in range. */
static int list_regs(vctx *v, const char *op, unsigned first,
                     const uint32_t *list, unsigned cnt,
                     const bc_reg *regs[BC_MAX_CALL_ARGS])
{
    if (cnt > BC_MAX_CALL_ARGS)
        return verr(v, "%s: %u arguments (at most %d)", op, cnt,
                    BC_MAX_CALL_ARGS);
    for (unsigned i = 0; i < cnt; i++) {
        if (list[i] >= v->k->nregs)
            return verr(v, "%s operand %u: register %u out of range (%u "
                           "registers)", op, first + i, list[i],
                        v->k->nregs);
        regs[i] = &v->k->regs[list[i]];
    }
    return 0;
}

/* CALL/CALLV: the extern's signature, argument by argument; a value
 * argument is a scalar or has the call's n components. No pointer to
 * const data goes where the callee may write. */
static int check_call(vctx *v, const char *op, unsigned n, const bc_reg *d,
                      uint32_t xi, const uint32_t *list, unsigned cnt)
{
    const bc_reg *regs[BC_MAX_CALL_ARGS];
    char tn[TY_NAME_MAX], buf[40];
    if (xi >= v->m->nexterns)
        return verr(v, "%s: extern %u out of range (%u externs)", op, xi,
                    v->m->nexterns);
    const bc_extern *x = &v->m->externs[xi];
    const char *name = v->m->strings + x->name;
    if ((x->ret.kind == BC_C_VOID) != !d)
        return verr(v, "%s: extern '%s' %s", op, name,
                    d ? "returns nothing (use CALLV)"
                      : "returns a value (use CALL)");
    if (d && (d->kind != BC_REG_VALUE ||
              !ty_eq(d->type, (ty_t){x->ret.s, (uint8_t)n})))
        return verr(v, "%s operand 1: register is %s, the result of '%s' "
                       "needs %s", op, desc(d, buf), name,
                    ty_name((ty_t){x->ret.s, (uint8_t)n}, tn));
    if (d && (d->init == BC_INIT_CONST || d->init == BC_INIT_ARRAY))
        return verr(v, "%s operand 1: register cannot be written", op);
    if (cnt != x->nparams)
        return verr(v, "%s: %u arguments, extern '%s' takes %u", op, cnt,
                    name, x->nparams);
    unsigned first = d ? 3 : 2;
    if (list_regs(v, op, first, list, cnt, regs))
        return -1;
    for (unsigned i = 0; i < cnt; i++) {
        const bc_reg *r = regs[i];
        bc_ctype t = x->params[i];
        bool ok;
        if (t.kind == BC_C_VALUE)
            ok = r->kind == BC_REG_VALUE && r->type.s == t.s &&
                 (r->type.n == 1 || r->type.n == n);
        else
            ok = r->kind == BC_REG_PTR && r->type.s == t.s &&
                 (t.kind == BC_C_CPTR ||
                  (r->space != BC_CONSTANT &&
                   !(r->flags & BC_REGF_CONSTPTR)));
        if (!ok)
            return verr(v, "%s operand %u: register %u is %s, parameter %u "
                           "of '%s' needs %s%s%s", op, first + i, list[i],
                        desc(r, buf), i + 1, name,
                        t.kind == BC_C_CPTR ? "const " : "",
                        ty_scalar_name((enum ty_scalar)t.s),
                        t.kind == BC_C_VALUE ? " (scalar or n components)"
                        : t.kind == BC_C_PTR ? " * (not to const data)"
                                             : " *");
    }
    return 0;
}

/* PRINTF: a checked format whose conversions match the registers. */
static int check_printf(vctx *v, const char *op, uint32_t fmt,
                        const uint32_t *list, unsigned cnt)
{
    const bc_reg *regs[BC_MAX_CALL_ARGS];
    pf_arg args[BC_MAX_CALL_ARGS];
    pf_error e;
    if (fmt >= v->m->nstrings)
        return verr(v, "%s: format at string offset %u is out of range",
                    op, fmt);
    if (list_regs(v, op, 2, list, cnt, regs))
        return -1;
    for (unsigned i = 0; i < cnt; i++)
        args[i] = (pf_arg){regs[i]->kind == BC_REG_PTR ? PF_ARG_POINTER
                                                       : PF_ARG_VALUE,
                           regs[i]->type};
    const char *f = v->m->strings + fmt;
    if (pf_check(f, strlen(f), args, cnt, &e))
        return verr(v, "%s: format at byte %u: %s", op, e.at, e.msg);
    return 0;
}

/* An instruction as its rule sees it: the words of its operands and the
 * register each register letter names; list is where an l list starts. */
typedef struct {
    const uint32_t *ins;
    const bc_opinfo *oi;
    unsigned n, fl, esz;
    const bc_reg *reg[8];
    uint32_t word[8];
    const uint32_t *list;
} vins;

/* The header and the operands of the instruction at ins (its words are
 * all present) against the TYPES letters; fills I. */
static int check_operands(vctx *v, const uint32_t *ins, vins *I)
{
    const bc_kernel *k = v->k;
    uint32_t h = ins[0];
    unsigned opc = BC_OPCODE(h), n = BC_N(h), fl = BC_FLAGS(h);
    const bc_opinfo *oi = &bc_ops[opc];
    const bc_baseinfo *bi = &bc_bases[oi->base];
    const char *op = oi->name;
    unsigned esz = ty_scalar_size((enum ty_scalar)oi->elem);
    *I = (vins){ins, oi, n, fl, esz, {NULL}, {0}, NULL};
    if (has_n(oi->base) ? !ty_valid_width(n) : n != 1)
        return verr(v, "%s: n = %u, must be %s", op, n,
                    has_n(oi->base) ? "1, 2, 3, 4, 8 or 16" : "1");
    if (!strchr(bi->operands, 'l') && (fl & ~used_flags(oi)))
        return verr(v, "%s: unused flag bits 0x%x", op,
                    fl & ~used_flags(oi));
    const bc_reg **reg = I->reg;
    uint32_t *word = I->word;
    const uint32_t *w = ins + 1;
    for (unsigned i = 0; bi->operands[i] && bi->operands[i] != 'l';
         w += bi->operands[i] == 'z' ? 2 : 1, i++) {
        char l = bi->operands[i];
        word[i] = *w;
        if (!strchr("dabcpo", l))
            continue;
        opnd o = {op, i + 1, *w, NULL};
        if (*w >= k->nregs)
            return verr(v, "%s operand %u: register %u out of range (%u "
                           "registers)", op, i + 1, *w, k->nregs);
        o.r = reg[i] = &k->regs[*w];
        if (check_type(v, &o, bi->types[i], n, esz))
            return -1;
        if (l == 'd' && (o.r->init == BC_INIT_CONST ||
                         o.r->init == BC_INIT_ARRAY))
            return verr(v, "%s operand %u: register %u is %s, it cannot be "
                           "written", op, i + 1, *w,
                        o.r->init == BC_INIT_CONST ? "a constant"
                                                   : "an array");
    }
    I->list = w;
    /* Constant data is read-only: `constant` space or const-qualified. */
    int sp = oi->base == BCB_ST || oi->base == BCB_STP ? 0
             : oi->base == BCB_VSTORE || oi->base == BCB_VSTH ? 2 : -1;
    if (sp >= 0 && (reg[sp]->space == BC_CONSTANT ||
                    (reg[sp]->flags & BC_REGF_CONSTPTR)))
        return verr(v, "%s: stores through register %u, a pointer to %s "
                       "data", op, word[sp],
                    reg[sp]->space == BC_CONSTANT ? "constant" : "const");
    return 0;
}

/* MATHS: the function's shape gives every operand's type (mathfn_sig);
 * registers must match in element size and count, unused operands repeat
 * a, and only a PTR/PTRI function has a SECOND form. */
static int check_maths(vctx *v, const vins *I)
{
    const char *op = I->oi->name;
    uint32_t imm = I->word[4], fi = imm & 0xffff, m = imm >> 16;
    const char *why;
    mf_sig s;
    if (fi >= MF_COUNT || mathfn_form((enum mathfn)fi) != MF_FORM_SHAPED)
        return verr(v, "%s: function %u is not a shaped math built-in", op,
                    fi);
    const mathfn_info *mf = &mathfns[fi];
    bool second = I->fl & BC_F_SECOND;
    if (!mathfn_sig((enum mathfn)fi, (ty_t){I->oi->elem, (uint8_t)I->n}, m,
                    &s, &why))
        return verr(v, "%s: %s does not take %s%u (%s)", op, mf->name,
                    ty_scalar_name((enum ty_scalar)I->oi->elem), I->n, why);
    if (m > 16 || (mf->shape != MFS_SHUF && m))
        return verr(v, "%s: %s: mask width %u", op, mf->name, m);
    if (second && !s.out.n)
        return verr(v, "%s: %s has no pointer output", op, mf->name);
    ty_t want[4] = {second ? s.out : s.res, s.arg[0], s.arg[1], s.arg[2]};
    for (unsigned i = 0; i < 4; i++) {
        const bc_reg *r = I->reg[i];
        ty_t t = want[i];
        if (!t.n) {
            if (I->word[i] != I->word[1])
                return verr(v, "%s operand %u: %s takes %u operand%s; "
                               "the others repeat operand 2", op, i + 1,
                            mf->name, mf->nargs, mf->nargs == 1 ? "" : "s");
            continue;
        }
        char want_name[TY_NAME_MAX];
        if (r->kind != BC_REG_VALUE || r->type.n != t.n ||
            ty_scalar_size((enum ty_scalar)r->type.s) !=
                ty_scalar_size((enum ty_scalar)t.s))
            return bad(v, &(opnd){op, i + 1, I->word[i], r}, "%s",
                       ty_name(t, want_name));
    }
    return 0;
}

/* The op's own rule (the X letters, immediates, lists), over operands
 * check_operands accepted. */
static int check_rule(vctx *v, const vins *I, bc_facts *f)
{
    const uint32_t *ins = I->ins, *w = I->list, *word = I->word;
    const bc_opinfo *oi = I->oi;
    const bc_baseinfo *bi = &bc_bases[oi->base];
    const char *op = oi->name;
    const unsigned n = I->n, fl = I->fl, esz = I->esz;
    const bc_reg *const *reg = I->reg;
#define OPND(i) (&(opnd){op, (i) + 1, word[i], reg[i]})
    switch (oi->base) {
    case BCB_SWZ:
    case BCB_SWW: {
        bool wr = oi->base == BCB_SWW;
        unsigned x = wr ? 0 : 1;
        if (check_type(v, OPND(x), 'V', n, esz))
            return -1;
        return check_swizzle(v, op, wr, ins[3] | (uint64_t)ins[4] << 32, n,
                             reg[x]);
    }
    case BCB_AS: {
        char d1[40], d2[40];
        if (check_type(v, OPND(0), 'A', n, esz) ||
            check_type(v, OPND(1), 'A', n, esz))
            return -1;
        if (ty_sizeof(reg[0]->type) != ty_sizeof(reg[1]->type))
            return verr(v, "%s: as_type between different sizes (%s is %zu "
                           "bytes, %s is %zu)", op, desc(reg[0], d1),
                        ty_sizeof(reg[0]->type), desc(reg[1], d2),
                        ty_sizeof(reg[1]->type));
        if (reg[0]->type.n != n)
            return verr(v, "%s: n = %u, the destination has %u components",
                        op, n, reg[0]->type.n);
        return 0;
    }
    case BCB_CVT:
        if (check_type(v, OPND(0), 'A', n, esz) ||
            check_type(v, OPND(1), 'A', n, esz))
            return -1;
        return check_cvt(v, op, ins[3], n, reg[0], reg[1]);
    case BCB_VLDH:
        if (reg[0]->kind != BC_REG_VALUE || reg[0]->type.s != TY_FLOAT ||
            reg[0]->type.n != n) {
            char want[TY_NAME_MAX];
            return bad(v, OPND(0), "%s",
                       ty_name((ty_t){TY_FLOAT, (uint8_t)n}, want));
        }
        return 0;
    case BCB_PADD: {
        char d1[40], d2[40];
        if (check_type(v, OPND(0), 'Q', n, esz) ||
            check_type(v, OPND(1), 'Q', n, esz))
            return -1;
        /* pointee types may differ (a cast), address spaces may not */
        if (reg[0]->space != reg[1]->space)
            return verr(v, "%s: register %u is %s, register %u is %s (the "
                           "address spaces must be equal)", op, word[0],
                        desc(reg[0], d1), word[1], desc(reg[1], d2));
        if ((reg[1]->flags & BC_REGF_CONSTPTR) &&
            !(reg[0]->flags & BC_REGF_CONSTPTR))
            return verr(v, "%s: register %u points to const data, register "
                           "%u does not", op, word[1], word[0]);
        return 0;
    }
    case BCB_LD:
    case BCB_ST: {
        unsigned pi = oi->base == BCB_LD ? 1 : 0;
        if (reg[pi]->type.n != n)
            return bad(v, OPND(pi), "a pointer to %u components", n);
        return 0;
    }
    case BCB_LDP: case BCB_STP: case BCB_PTOU: case BCB_UTOP: { /* 8 bytes */
        unsigned pi = oi->base == BCB_LDP || oi->base == BCB_UTOP;
        if (ty_sizeof(reg[pi]->type) != 8 || reg[pi]->type.n != 1 ||
            ty_is_float((enum ty_scalar)reg[pi]->type.s))
            return bad(v, OPND(pi), "%s8-byte integers",
                       reg[pi]->kind == BC_REG_PTR ? "a pointer to " : "");
        return 0;
    }
    case BCB_VLOAD:
    case BCB_VSTORE: {
        if (n == 1)
            return verr(v, "%s: n = 1, vloadN and vstoreN need 2, 3, 4, 8 "
                           "or 16", op);
        if (reg[2]->type.n != 1)
            return bad(v, OPND(2), "a pointer to scalars");
        return 0;
    }
    case BCB_GID: case BCB_LID: case BCB_GRP: case BCB_GSZ: case BCB_LSZ:
    case BCB_NGRP: case BCB_GOFF: case BCB_WDIM:
        if (oi->base != BCB_WDIM && word[1] > 2)
            return verr(v, "%s: dimension %u out of range (0, 1 or 2)", op,
                        word[1]);
        return 0;
    case BCB_CALL:
    case BCB_CALLV:
        return check_call(v, op, n, oi->base == BCB_CALL ? reg[0] : NULL,
                          word[oi->base == BCB_CALL], w, fl);
    case BCB_PRINTF:
        return check_printf(v, op, word[0], w, fl);
    case BCB_MATH1: case BCB_MATH2: case BCB_MATH3: case BCB_FTEST:
    case BCB_FTEST2: {
        /* the function id follows the register operands */
        unsigned na = (unsigned)strlen(bi->operands) - 2;
        uint32_t fi = word[na + 1];
        bool mask = oi->base == BCB_FTEST || oi->base == BCB_FTEST2;
        if (fi >= MF_COUNT)
            return verr(v, "%s: math function %u out of range (%u "
                           "functions)", op, fi, (unsigned)MF_COUNT);
        const mathfn_info *mf = &mathfns[fi];
        enum mf_form form = mathfn_form((enum mathfn)fi);
        if (mf->nargs != na || form == MF_FORM_SHAPED ||
            (form == MF_FORM_TEST) != mask)
            return verr(v, "%s: %s takes %u operand%s and gives %s", op,
                        mf->name, mf->nargs, mf->nargs == 1 ? "" : "s",
                        form == MF_FORM_TEST ? "a mask (FTEST)"
                        : form == MF_FORM_SHAPED ? "a shaped value (MATHS)"
                                                 : "a value");
        if (!mathfn_takes((enum mathfn)fi, (enum ty_scalar)oi->elem))
            return verr(v, "%s: %s does not take %s", op, mf->name,
                        ty_scalar_name((enum ty_scalar)oi->elem));
        return 0;
    }
    case BCB_MATHS:
        return check_maths(v, I);
    case BCB_BARRIER: case BCB_FENCE: case BCB_RFENCE: case BCB_WFENCE:
    case BCB_ATOM: case BCB_ACOPY: case BCB_ACOPYS: case BCB_WAITEV: {
        char why[200], *e = vm_sync_rule(oi->base, n, reg, word, why, 200);
        f->barrier |= oi->base == BCB_BARRIER;
        return e ? verr(v, "%s: %s", op, e) : 0;
    }
    default:
        return 0;
    }
#undef OPND
    return 0;
}

/* One instruction at ins (its words are all present). */
static int check_ins(vctx *v, const uint32_t *ins, bc_facts *f)
{
    vins I;
    if (check_operands(v, ins, &I))
        return -1;
    return check_rule(v, &I, f);
}

/* ---- control flow ---- */

typedef struct {
    uint32_t pc;      /* of the IF, ELSE, LOOP or BLOCK */
    uint32_t j;       /* its jump target, checked when the block closes */
    unsigned base;
} blk;

/* The opener at top jumps to j; the matching instruction is at pc. */
static int check_jump(vctx *v, const blk *top, uint32_t pc, const char *what)
{
    if (top->j == pc)
        return 0;
    v->pc = top->pc;
    return verr(v, "jump target %u is not the matching %s (pc %u)", top->j,
                what, pc);
}

/* BRKTO, BRKTOIF, CONTTO: j is the pc of an open LOOP or BLOCK (CONTTO:
 * a LOOP). */
static int check_label(vctx *v, const blk *st, uint32_t depth,
                       const uint32_t *ins, unsigned base)
{
    uint32_t j = ins[base == BCB_BRKTOIF ? 2 : 1];
    for (uint32_t i = depth; i-- > 0;)
        if (st[i].pc == j && (st[i].base == BCB_LOOP ||
                              (st[i].base == BCB_BLOCK && base != BCB_CONTTO)))
            return 0;
    return verr(v, "jump target %u is not an enclosing %s", j,
                base == BCB_CONTTO ? "LOOP" : "LOOP or BLOCK");
}

static int check_code(vctx *v, bc_facts *f)
{
    const bc_kernel *k = v->k;
    /* Every opener is at least 2 words, so at most ncode/2 are open. */
    blk *st = malloc(sizeof *st * (k->ncode / 2 + 1));
    uint32_t depth = 0, loops = 0, words = 0, last = 0;
    int rc = 0;
    if (!st)
        return verr(v, "out of memory");
    for (uint32_t pc = 0; pc < k->ncode && !rc; pc += words) {
        const uint32_t *ins = k->code + pc;
        unsigned opc = BC_OPCODE(ins[0]);
        v->pc = pc;
        if (opc >= BC_NOPS) {
            rc = verr(v, "bad opcode %u", opc);
            break;
        }
        words = bc_ins_words(ins[0]);
        if (words > k->ncode - pc) {
            rc = verr(v, "%s needs %u words, the code has %u left",
                      bc_ops[opc].name, words, k->ncode - pc);
            break;
        }
        if ((rc = check_ins(v, ins, f)))
            break;
        unsigned base = bc_ops[opc].base;
        blk *top = depth ? &st[depth - 1] : NULL;
        last = base;
        switch (base) {
        case BCB_IF:
        case BCB_LOOP:
        case BCB_BLOCK:
            st[depth++] = (blk){pc, ins[base == BCB_IF ? 2 : 1], base};
            loops += base == BCB_LOOP;
            if (depth > f->depth)
                f->depth = depth;
            if (loops > f->loop_depth)
                f->loop_depth = loops;
            break;
        case BCB_ELSE:
            if (!top || top->base != BCB_IF)
                rc = verr(v, "ELSE without a matching IF");
            else if (!(rc = check_jump(v, top, pc, "ELSE")))
                *top = (blk){pc, ins[1], BCB_ELSE};
            break;
        case BCB_ENDIF:
            if (!top || top->base == BCB_LOOP || top->base == BCB_BLOCK)
                rc = verr(v, "ENDIF without a matching IF");
            else if (!(rc = check_jump(v, top, pc, "ENDIF")))
                depth--;
            break;
        case BCB_ENDLOOP:
            if (!top || top->base != BCB_LOOP)
                rc = verr(v, "ENDLOOP without a matching LOOP");
            else if (!(rc = check_jump(v, top, pc, "ENDLOOP"))) {
                uint32_t body = top->pc + bc_ins_words(k->code[top->pc]);
                if (ins[1] != body)
                    rc = verr(v, "jump target %u is not the start of the "
                                 "loop body (pc %u)", ins[1], body);
                depth--, loops--;
            }
            break;
        case BCB_ENDBLOCK:
            if (!top || top->base != BCB_BLOCK)
                rc = verr(v, "ENDBLOCK without a matching BLOCK");
            else if (!(rc = check_jump(v, top, pc, "ENDBLOCK")))
                depth--;
            break;
        case BCB_BRKIF:
        case BCB_BREAK:
        case BCB_CONT:
            if (!loops)
                rc = verr(v, "%s outside a loop", bc_ops[opc].name);
            break;
        case BCB_BRKTO:
        case BCB_BRKTOIF:
        case BCB_CONTTO:
            rc = check_label(v, st, depth, ins, base);
            break;
        }
    }
    if (!rc && depth) {
        v->pc = st[depth - 1].pc;
        rc = verr(v, "%s is never closed", bc_bases[st[depth - 1].base].name);
    }
    free(st);
    if (rc)
        return rc;
    v->pc = NOPC;
    /* Falling off the end would run past the code: the last instruction
     * ends the work-item (and, being last, closes nothing). */
    if (!k->ncode || last != BCB_RET)
        return verr(v, "the code does not end with RET");
    return 0;
}

static int check_lines(vctx *v)
{
    const bc_kernel *k = v->k;
    uint32_t pc = 0;
    for (uint32_t i = 0; i < k->nlines; i++) {
        uint32_t lp = k->lines[i].pc;
        if (i && lp <= k->lines[i - 1].pc)
            return verr(v, "line table entry %u: pc %u does not follow pc %u "
                           "(entries are sorted by pc)", i, lp,
                        k->lines[i - 1].pc);
        if (lp >= k->ncode)
            return verr(v, "line table entry %u: pc %u is past the code (%u "
                           "words)", i, lp, k->ncode);
        while (pc < lp)
            pc += bc_ins_words(k->code[pc]);
        if (pc != lp)
            return verr(v, "line table entry %u: pc %u is inside an "
                           "instruction", i, lp);
    }
    return 0;
}

static int check_kernel(vctx *v, uint32_t ki, bc_facts *f)
{
    const bc_kernel *k = &v->m->kernels[ki];
    v->k = k, v->ki = ki, v->named = false, v->pc = NOPC;
    memset(f, 0, sizeof *f);
    if (check_str(v, k->name, NULL, 0))
        return -1;
    if (!v->m->strings[k->name])
        return verr(v, "empty kernel name");
    v->named = true;
    if ((k->nparams && !k->params) || (k->nregs && !k->regs) ||
        (k->ncode && !k->code) || (k->nlines && !k->lines))
        return verr(v, "a count without its array");
    if (check_decls(v, f) || check_code(v, f) || check_lines(v))
        return -1;
    return 0;
}

int bc_verify_kernel(const bc_module *m, uint32_t k, bc_facts *f, char *err,
                     size_t errlen)
{
    vctx v = {m, NULL, 0, false, NOPC, err, errlen};
    bc_facts tmp;
    if (check_module(&v))
        return -1;
    if (k >= m->nkernels)
        return verr(&v, "no kernel %u (the module has %u)", k, m->nkernels);
    return check_kernel(&v, k, f ? f : &tmp);
}

static int cmp_str(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    return strcmp(*x, *y);
}

int bc_verify(const bc_module *m, char *err, size_t errlen)
{
    vctx v = {m, NULL, 0, false, NOPC, err, errlen};
    bc_facts f;
    if (errlen)
        err[0] = 0;
    if (check_module(&v))
        return -1;
    if (m->source >= m->nstrings)
        return verr(&v, "source file name at string offset %u is out of "
                        "range (%u bytes of strings)", m->source,
                    m->nstrings);
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (check_kernel(&v, i, &f))
            return -1;
    /* Kernels are chosen by name, so names are unique. Sorting makes
     * this O(n log n) for files with many kernels. */
    if (m->nkernels < 2)
        return 0;
    const char **names = malloc(sizeof *names * m->nkernels);
    v.k = NULL;
    if (!names)
        return verr(&v, "out of memory");
    for (uint32_t i = 0; i < m->nkernels; i++)
        names[i] = m->strings + m->kernels[i].name;
    qsort(names, m->nkernels, sizeof *names, cmp_str);
    int rc = 0;
    for (uint32_t i = 1; i < m->nkernels && !rc; i++)
        if (!strcmp(names[i - 1], names[i]))
            rc = verr(&v, "two kernels are named '%s'", names[i]);
    free(names);
    return rc;
}
