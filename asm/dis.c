/* The disassembler. Each instruction is printed as the one statement that
 * the assembler lowers to exactly that instruction (see lower.c): the
 * outermost operation of a statement is computed straight into its
 * destination, a view as_T(r) costs nothing, (T)(s) is SPLAT, v.xy = e is
 * SWW, and so on. Which form an opcode takes is data: the PRINT column of
 * vm/opcodes.def. */
#include "asm/dis.h"

#include <stdlib.h>
#include <string.h>

#include "asm/asmint.h"
#include "vm/bcfile.h"
#include "stdlib/builtin.h"
#include "asm/lit.h"
#include "asm/optab.h"

typedef struct {
    const bc_module *m;
    const bc_kernel *k;
    FILE *out;
    unsigned flags;
    uint32_t vline;       /* the line the next printed line will have */
    char **names;         /* printable register names */
    int bad;
    uint32_t *labels;     /* by pc: the label number of a LOOP or BLOCK
                             that a labelled jump names (0: none) */
} D;

static const char *const spaces[] = {
#define X(E, n) #n,
    BC_SPACES(X)
#undef X
};

static const char *space_name(unsigned s) { return s < 4 ? spaces[s] : "?"; }

/* ---- lines ---- */

static void line_for(D *d, uint32_t line)
{
    if (line != d->vline) {
        fprintf(d->out, "#line %u\n", line);
        d->vline = line;
    }
}

static void newline(D *d)
{
    fputc('\n', d->out);
    d->vline++;
}

/* ---- names ---- */

static bool ident_ok(const char *s)
{
    if (!*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                 *s == '_'))
        return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return false;
    return !parse_is_reserved(s, strlen(s));
}

typedef struct {
    char **names;
} nctx;

static bool dname_eq(const void *ctx, uint32_t id, const void *key)
{
    const nctx *c = ctx;
    return !strcmp(c->names[id], key);
}

/* Register names as they can be printed: a name that is no identifier,
 * is reserved or repeats an earlier one becomes _rN. */
static bool make_names(D *d)
{
    const bc_kernel *k = d->k;
    d->names = calloc(k->nregs ? k->nregs : 1, sizeof *d->names);
    if (!d->names)
        return false;
    idmap seen = {0};
    nctx c = {d->names};
    bool ok = true;
    for (uint32_t i = 0; i < k->nregs && ok; i++) {
        const char *s = bc_str(d->m, k->regs[i].name);
        uint32_t h = kb_hash(s, strlen(s), 2166136261u);
        if (!ident_ok(s) || kb_map_find(&seen, h, dname_eq, &c, s) >= 0) {
            char buf[24];
            snprintf(buf, sizeof buf, "_r%u", i);
            d->names[i] = strdup(buf);
            d->bad = -1;
        } else {
            d->names[i] = strdup(s);
            ok = kb_map_add(&seen, h, i);
        }
        ok = ok && d->names[i];
    }
    kb_map_clear(&seen);
    return ok;
}

static const char *rn(D *d, uint32_t r)
{
    static char buf[4][24];
    static int k;
    if (r < d->k->nregs)
        return d->names[r];
    d->bad = -1;
    k = (k + 1) & 3;
    snprintf(buf[k], sizeof buf[k], "_bad%u", r);
    return buf[k];
}

static const bc_reg *reg(D *d, uint32_t r)
{
    static const bc_reg none = {0, {TY_UINT, 1}, 0, 0, 0, 0, 0};
    return r < d->k->nregs ? &d->k->regs[r] : &none;
}

/* Register r read as type t: its name, or as_T(name) when its own type
 * differs (the verifier already checked that the sizes agree). */
static void operand(D *d, uint32_t r, ty_t t)
{
    char b[TY_NAME_MAX];
    if (ty_eq(reg(d, r)->type, t) && reg(d, r)->kind == BC_REG_VALUE)
        fputs(rn(d, r), d->out);
    else
        fprintf(d->out, "as_%s(%s)", ty_name(t, b), rn(d, r));
}

/* "d = " or "d = as_D(" when the value's type t is not d's own. Returns
 * whether a ')' must follow. */
static bool dest(D *d, uint32_t r, ty_t t)
{
    char b[TY_NAME_MAX];
    fprintf(d->out, "%s = ", rn(d, r));
    if (ty_eq(reg(d, r)->type, t))
        return false;
    fprintf(d->out, "as_%s(", ty_name(reg(d, r)->type, b));
    return true;
}

/* Bases whose _B variants move any type's bits (floats included). */
static bool moves_bits(unsigned base)
{
    switch (base) {
    case BCB_MOV: case BCB_SPLAT: case BCB_SWZ: case BCB_SWW:
    case BCB_SELECT: case BCB_LD: case BCB_ST: case BCB_VLOAD:
    case BCB_VSTORE:
        return true;
    }
    return false;
}

/* The OpenCL type an instruction operates in: exact for typed variants;
 * for the _B variants, the first candidate register whose element type
 * the operation accepts, else the unsigned type. */
static ty_t op_type(D *d, unsigned op, unsigned n, const uint32_t *cand,
                    unsigned ncand)
{
    enum ty_scalar e = (enum ty_scalar)bc_ops[op].elem;
    if (!op_is_bits((enum bc_op)op))
        return TY(e, n);
    for (unsigned i = 0; i < ncand; i++) {
        const bc_reg *r = reg(d, cand[i]);
        ty_t t = r->type;
        if (r->kind == BC_REG_VALUE && t.n == n &&
            ty_scalar_size((enum ty_scalar)t.s) == ty_scalar_size(e) &&
            (moves_bits(bc_ops[op].base) || !ty_is_float((enum ty_scalar)t.s)))
            return t;
    }
    return TY(e, n);
}

/* op_type for an instruction with flags fl: integer ADD/SUB/MUL/NEG
 * operate in the signedness BC_F_SIGNED says, so that the statement
 * assembles to the same flag. */
static ty_t arith_type(D *d, unsigned op, unsigned fl, unsigned n,
                       const uint32_t *cand, unsigned ncand)
{
    ty_t t = op_type(d, op, n, cand, ncand);
    unsigned base = bc_ops[op].base;
    bool sg = fl & BC_F_SIGNED;
    if ((base != BCB_ADD && base != BCB_SUB && base != BCB_MUL &&
         base != BCB_NEG) || ty_is_float((enum ty_scalar)t.s) ||
        ty_is_signed((enum ty_scalar)t.s) == sg)
        return t;
    for (unsigned i = 0; i < ncand; i++) {
        const bc_reg *r = reg(d, cand[i]);
        if (r->kind == BC_REG_VALUE && r->type.n == n &&
            ty_scalar_size((enum ty_scalar)r->type.s) ==
                ty_scalar_size((enum ty_scalar)t.s) &&
            !ty_is_float((enum ty_scalar)r->type.s) &&
            ty_is_signed((enum ty_scalar)r->type.s) == sg)
            return r->type;
    }
    return sg ? ty_signed(t) : ty_unsigned(t);
}

static void selector(D *d, uint64_t z, unsigned n, unsigned vn)
{
    bool xyzw = vn <= 4;
    for (unsigned k = 0; k < n; k++)
        xyzw &= ((z >> 4 * k) & 15) < 4;
    fputc(xyzw ? '.' : '.', d->out);
    if (!xyzw)
        fputc('s', d->out);
    for (unsigned k = 0; k < n; k++) {
        unsigned s = (unsigned)(z >> 4 * k) & 15;
        fputc(xyzw ? "xyzw"[s] : "0123456789abcdef"[s], d->out);
    }
}

static void indent(D *d, unsigned depth)
{
    for (unsigned i = 0; i < depth + 1; i++)
        fputs("    ", d->out);
}

static void quoted(FILE *f, const char *s);

/* Registers of an l list, as the arguments of a call. */
static void arg_list(D *d, const uint32_t *list, unsigned cnt, bool comma)
{
    for (unsigned i = 0; i < cnt; i++) {
        fputs(i || comma ? ", " : "", d->out);
        if (reg(d, list[i])->kind == BC_REG_PTR)
            fputs(rn(d, list[i]), d->out);
        else
            operand(d, list[i], reg(d, list[i])->type);
    }
}

/* ---- instructions, by the PRINT column of vm/opcodes.def ---- */

/* The instruction being printed. */
typedef struct {
    unsigned op, base, n, fl;
    const uint32_t *w;    /* its operand words */
    char form;            /* the PRINT column's form letter ... */
    const char *sp;       /* ... and spelling */
    bool last;            /* the RET that ends the kernel */
    const char *ops;      /* its OPERANDS and TYPES letters */
    const char *types;
} ins;

/* Prints one form; returns whether a ')' must follow (dest's as_T). */
typedef bool printer(D *d, const ins *in);

/* The word of the first operand with letter c (there is one). */
static uint32_t word(const ins *in, char c)
{
    const uint32_t *w = in->w;
    for (const char *p = in->ops; *p && *p != c; p++)
        w += *p == 'z' ? 2 : 1;
    return *w;
}

/* The registers whose types suggest the operation's type (op_type): the
 * sources a and b, then d. */
static unsigned candidates(const ins *in, uint32_t cand[3])
{
    unsigned k = 0;
    for (const char *c = "abd"; *c; c++)
        if (strchr(in->ops, *c))
            cand[k++] = word(in, *c);
    return k;
}

/* The type d is written in for an operation of type t, by d's TYPES
 * letter: U unsigned; M a vector's signed mask, or a scalar truth value,
 * which any integer register of its size takes. */
static ty_t result_type(D *d, const ins *in, ty_t t)
{
    const bc_reg *r = reg(d, in->w[0]);
    switch (in->types[0]) {
    case 'U':
        return ty_unsigned(t);
    case 'M':
        if (in->n > 1)
            return ty_signed(t);
        if (r->type.n != 1 || ty_is_float((enum ty_scalar)r->type.s))
            d->bad = -1;
        return r->type;
    }
    return t;
}

/* The source operands as call arguments of type t; a K operand (select's
 * condition) in its register's own integer type. */
static void call_args(D *d, const ins *in, unsigned na, ty_t t)
{
    for (unsigned i = 0; i < na; i++) {
        ty_t ti = t;
        if (in->types[1 + i] == 'K') {
            ti = reg(d, in->w[1 + i])->type;
            if (ty_is_float((enum ty_scalar)ti.s))
                ti = ty_signed(t);
        }
        fputs(i ? ", " : "", d->out);
        operand(d, in->w[1 + i], ti);
    }
    fputc(')', d->out);
}

static bool p_binary(D *d, const ins *in)
{
    uint32_t c[3];
    ty_t t = arith_type(d, in->op, in->fl, in->n, c, candidates(in, c));
    bool close = dest(d, in->w[0], result_type(d, in, t));
    operand(d, in->w[1], t);
    fprintf(d->out, " %s ", in->sp);
    operand(d, in->w[2], t);
    return close;
}

/* -a, ~a, !a: !a is written in the signed type even as a scalar. */
static bool p_unary(D *d, const ins *in)
{
    uint32_t c[3];
    ty_t t = arith_type(d, in->op, in->fl, in->n, c, candidates(in, c));
    bool close = dest(d, in->w[0], in->types[0] == 'M' ? ty_signed(t) : t);
    fputs(in->sp, d->out);
    operand(d, in->w[1], t);
    return close;
}

static bool p_call(D *d, const ins *in)
{
    uint32_t c[3];
    ty_t t = op_type(d, in->op, in->n, c, candidates(in, c));
    bool close = dest(d, in->w[0], result_type(d, in, t));
    fprintf(d->out, "%s(", in->sp);
    call_args(d, in, (unsigned)strlen(in->ops) - 1, t);
    return close;
}

/* A math built-in: the function id follows the register operands. */
static bool p_math(D *d, const ins *in)
{
    unsigned na = (unsigned)strlen(in->ops) - 2;
    uint32_t fi = in->w[na + 1];
    ty_t t = TY(bc_ops[in->op].elem, in->n);
    if (fi >= MF_COUNT)
        d->bad = -1, fi = 0;
    bool close = dest(d, in->w[0], result_type(d, in, t));
    fprintf(d->out, "%s(", mathfns[fi].name);
    call_args(d, in, na, t);
    return close;
}

/* A shaped math built-in: stdlib's mathfn_sig gives each operand's type;
 * the SECOND form is NAME_out(...). */
static bool p_maths(D *d, const ins *in)
{
    uint32_t imm = in->w[4], fi = imm & 0xffff, m = imm >> 16 & 0xff;
    ty_t t = TY(bc_ops[in->op].elem, in->n);
    mf_sig s;
    const char *why;
    bool second = in->fl & BC_F_SECOND;
    if (fi >= MF_COUNT || !mathfn_sig((enum mathfn)fi, t, m, &s, &why) ||
        (second && !s.out.n)) {
        d->bad = -1;
        fprintf(d->out, "%s = ?", rn(d, in->w[0]));
        return false;
    }
    bool close = dest(d, in->w[0], second ? s.out : s.res);
    fprintf(d->out, "%s%s(", mathfns[fi].name, second ? "_out" : "");
    for (unsigned i = 0; i < mathfns[fi].nargs; i++) {
        fputs(i ? ", " : "", d->out);
        operand(d, in->w[1 + i], s.arg[i]);
    }
    fputc(')', d->out);
    return close;
}

/* A work-item function: its immediates are its arguments. */
static bool p_workitem(D *d, const ins *in)
{
    const char *sep = "";
    fprintf(d->out, "%s = %s(", rn(d, in->w[0]), in->sp);
    for (unsigned i = 1; in->ops[i]; i++)
        if (in->ops[i] == 'i')
            fprintf(d->out, "%s%u", sep, in->w[i]), sep = ", ";
    fputc(')', d->out);
    return false;
}

static bool p_keyword(D *d, const ins *in)
{
    fputs(in->last ? "end" : in->sp, d->out);
    return false;
}

/* if c, break if c, break if !c: a condition reads as an unsigned scalar
 * unless its register is an integer scalar. */
static bool p_cond(D *d, const ins *in)
{
    ty_t t = reg(d, in->w[0])->type;
    if (ty_is_float((enum ty_scalar)t.s) || t.n != 1)
        t = ty_unsigned(TY(t.s, 1));
    fprintf(d->out, "%s %s", in->sp,
            in->form == '!' && (in->fl & BC_F_NOT) ? "!" : "");
    operand(d, in->w[0], t);
    return false;
}

static bool p_move(D *d, const ins *in)
{
    fprintf(d->out, "%s = ", rn(d, in->w[0]));
    operand(d, in->w[1], reg(d, in->w[0])->type);
    return false;
}

static bool p_splat(D *d, const ins *in)
{
    char b[TY_NAME_MAX];
    ty_t t = reg(d, in->w[0])->type;
    fprintf(d->out, "%s = (%s)(", rn(d, in->w[0]), ty_name(t, b));
    operand(d, in->w[1], TY(t.s, 1));
    fputc(')', d->out);
    return false;
}

static uint64_t z_of(const ins *in)
{
    return in->w[2] | (uint64_t)in->w[3] << 32;
}

static bool p_swizzle(D *d, const ins *in)
{
    ty_t at = reg(d, in->w[1])->type;
    bool close = dest(d, in->w[0], TY(at.s, in->n));
    fputs(rn(d, in->w[1]), d->out);
    selector(d, z_of(in), in->n, at.n);
    return close;
}

static bool p_swizzle_store(D *d, const ins *in)
{
    ty_t dt = reg(d, in->w[0])->type;
    fputs(rn(d, in->w[0]), d->out);
    selector(d, z_of(in), in->n, dt.n);
    fputs(" = ", d->out);
    operand(d, in->w[1], TY(dt.s, in->n));
    return false;
}

static bool p_as(D *d, const ins *in)
{
    char b[TY_NAME_MAX];
    fprintf(d->out, "%s = as_%s(%s)", rn(d, in->w[0]),
            ty_name(reg(d, in->w[0])->type, b), rn(d, in->w[1]));
    return false;
}

static bool p_convert(D *d, const ins *in)
{
    char bn[BI_NAME_MAX];
    uint32_t cw = in->w[2];
    bi_desc bi = {0};
    bi.kind = BI_CONVERT;
    bi.type = TY(BC_CVT_DST(cw) < TY_NSCALAR ? BC_CVT_DST(cw) : 0, in->n);
    bi.n = in->n, bi.sat = BC_CVT_SAT(cw);
    bi.has_round = BC_CVT_SPELLED(cw);
    bi.round = (enum rnd)BC_CVT_RND(cw);
    fprintf(d->out, "%s = %s(%s)", rn(d, in->w[0]), bi_format(&bi, bn),
            rn(d, in->w[1]));
    return false;
}

static bool p_load(D *d, const ins *in)
{
    if (reg(d, in->w[0])->kind == BC_REG_PTR) {   /* LDP */
        fprintf(d->out, "%s = %s[%s]", rn(d, in->w[0]), rn(d, in->w[1]),
                rn(d, in->w[2]));
        return false;
    }
    bool close = dest(d, in->w[0], reg(d, in->w[1])->type);
    fprintf(d->out, "%s[%s]", rn(d, in->w[1]), rn(d, in->w[2]));
    return close;
}

static bool p_store(D *d, const ins *in)
{
    fprintf(d->out, "%s[%s] = ", rn(d, in->w[0]), rn(d, in->w[1]));
    if (reg(d, in->w[2])->kind == BC_REG_PTR) {   /* STP */
        fputs(rn(d, in->w[2]), d->out);
        return false;
    }
    operand(d, in->w[2], reg(d, in->w[0])->type);
    return false;
}

static bool p_vload(D *d, const ins *in)
{
    bool close = dest(d, in->w[0], TY(reg(d, in->w[2])->type.s, in->n));
    fprintf(d->out, "%s%u(%s, %s)", in->sp, in->n, rn(d, in->w[1]),
            rn(d, in->w[2]));
    return close;
}

static bool p_vstore(D *d, const ins *in)
{
    fprintf(d->out, "%s%u(", in->sp, in->n);
    operand(d, in->w[0], TY(reg(d, in->w[2])->type.s, in->n));
    fprintf(d->out, ", %s, %s)", rn(d, in->w[1]), rn(d, in->w[2]));
    return false;
}

/* vload(a)_halfn or vstore(a)_halfn_rtX, by the instruction's flags. */
static bi_desc half_desc(const ins *in, bool store)
{
    bool al = in->fl & BC_F_ALIGNED;
    bi_desc bi = {0};
    bi.kind = store ? (al ? BI_VSTOREA_HALF : BI_VSTORE_HALF)
                    : (al ? BI_VLOADA_HALF : BI_VLOAD_HALF);
    bi.n = in->n;
    if (store) {
        bi.round = (enum rnd)((in->fl & BC_F_RND) >> BC_F_RND_SHIFT);
        bi.has_round = bi.round != RND_RTE;
    }
    return bi;
}

static bool p_vload_half(D *d, const ins *in)
{
    char bn[BI_NAME_MAX];
    bi_desc bi = half_desc(in, false);
    fprintf(d->out, "%s = %s(%s, %s)", rn(d, in->w[0]), bi_format(&bi, bn),
            rn(d, in->w[1]), rn(d, in->w[2]));
    return false;
}

static bool p_vstore_half(D *d, const ins *in)
{
    char bn[BI_NAME_MAX];
    bi_desc bi = half_desc(in, true);
    fprintf(d->out, "%s(", bi_format(&bi, bn));
    operand(d, in->w[0], TY(bc_ops[in->op].elem, in->n));
    fprintf(d->out, ", %s, %s)", rn(d, in->w[1]), rn(d, in->w[2]));
    return false;
}

/* d = p + o, or d = (T *)(p + o) where d points to another type */
static bool p_padd(D *d, const ins *in)
{
    ty_t dt = reg(d, in->w[0])->type;
    char tb[TY_NAME_MAX];
    if (ty_eq(dt, reg(d, in->w[1])->type))
        fprintf(d->out, "%s = %s + %s", rn(d, in->w[0]), rn(d, in->w[1]),
                rn(d, in->w[2]));
    else
        fprintf(d->out, "%s = (%s *)(%s + %s)", rn(d, in->w[0]),
                ty_name(dt, tb), rn(d, in->w[1]), rn(d, in->w[2]));
    return false;
}

/* d = (ulong)(p), p's address; d = (SPACE T *)(a), the pointer at
 * address a. */
static bool p_ptou(D *d, const ins *in)
{
    char tb[TY_NAME_MAX];
    fprintf(d->out, "%s = (%s)(%s)", rn(d, in->w[0]),
            ty_name(reg(d, in->w[0])->type, tb), rn(d, in->w[1]));
    return false;
}

static bool p_utop(D *d, const ins *in)
{
    const bc_reg *r = reg(d, in->w[0]);
    char tb[TY_NAME_MAX];
    fprintf(d->out, "%s = (%s %s *)(%s)", rn(d, in->w[0]),
            space_name(r->space), ty_name(r->type, tb), rn(d, in->w[1]));
    return false;
}

static bool p_barrier(D *d, const ins *in)
{
    uint32_t f = in->w[0];
    fprintf(d->out, "%s(", in->sp);
    if (!f)
        fputc('0', d->out);
    else
        fprintf(d->out, "%s%s%s",
                f & BC_FENCE_LOCAL ? "CLK_LOCAL_MEM_FENCE" : "",
                f == (BC_FENCE_LOCAL | BC_FENCE_GLOBAL) ? " | " : "",
                f & BC_FENCE_GLOBAL ? "CLK_GLOBAL_MEM_FENCE" : "");
    fputc(')', d->out);
    return false;
}

/* d = atomic_NAME(p, a[, b]): atom_NAME for 64-bit elements, the
 * operands the function takes, each in the pointee's type (as_T views
 * where a register has the other sign). */
static bool p_atomic(D *d, const ins *in)
{
    uint32_t f = in->w[4];
    const atomic_info *ai = f < AT_COUNT ? &atomic_fns[f] : NULL;
    ty_t pt = TY(reg(d, in->w[1])->type.s, 1);
    bool close = dest(d, in->w[0], pt);
    fprintf(d->out, "%s%s(%s",
            ty_scalar_size((enum ty_scalar)bc_ops[in->op].elem) == 8
                ? "atom_" : "atomic_",
            ai ? ai->name : "?", rn(d, in->w[1]));
    for (unsigned i = 0; ai && i < ai->nvals; i++) {
        fputs(", ", d->out);
        operand(d, in->w[2 + i], pt);
    }
    fputc(')', d->out);
    return close;
}

/* d = FN(a, b, c[, o], p) (the async copies), FN(a, b) (WAITEV): the
 * operands in order. */
static bool p_async(D *d, const ins *in)
{
    unsigned k = 0;
    if (in->ops[0] == 'd')
        fprintf(d->out, "%s = ", rn(d, in->w[k++]));
    fprintf(d->out, "%s(", in->sp);
    for (const char *l = in->ops + k; *l; l++, k++)
        fprintf(d->out, "%s%s", k > (in->ops[0] == 'd') ? ", " : "",
                rn(d, in->w[k]));
    fputc(')', d->out);
    return false;
}

/* A call of an extern: d = NAME(l...) (CALL), NAME(l...) (CALLV). */
static bool p_extern(D *d, const ins *in)
{
    bool val = in->ops[0] == 'd', close = false;
    uint32_t x = in->w[val];
    if (val)
        close = dest(d, in->w[0], reg(d, in->w[0])->type);
    fprintf(d->out, "%s(", x < d->m->nexterns
                               ? bc_str(d->m, d->m->externs[x].name) : "?");
    arg_list(d, in->w + 1 + val, in->fl, false);
    fputc(')', d->out);
    return close;
}

static bool p_printf(D *d, const ins *in)
{
    fprintf(d->out, "%s(", in->sp);
    quoted(d->out, bc_str(d->m, in->w[0]));
    arg_list(d, in->w + 1, in->fl, true);
    fputc(')', d->out);
    return false;
}

/* Labels: every BLOCK, and each LOOP that a labelled jump names, gets
 * L1, L2, ... in pc order. The bytecode keeps no label names. */
static bool make_labels(D *d)
{
    const bc_kernel *k = d->k;
    d->labels = calloc(k->ncode + 1, sizeof *d->labels);
    if (!d->labels)
        return false;
    for (uint32_t pc = 0, w; pc < k->ncode; pc += w) {
        uint32_t h = k->code[pc];
        unsigned base = bc_ops[BC_OPCODE(h)].base;
        if (!(w = bc_ins_words(h)) || w > k->ncode - pc)
            break;
        if (base == BCB_BLOCK) {
            d->labels[pc] = 1;
        } else if (base == BCB_BRKTO || base == BCB_BRKTOIF ||
                   base == BCB_CONTTO) {
            uint32_t j = k->code[pc + (base == BCB_BRKTOIF ? 2 : 1)];
            if (j < k->ncode)
                d->labels[j] = 1;
        }
    }
    for (uint32_t pc = 0, n = 0; pc < k->ncode; pc++)
        if (d->labels[pc])
            d->labels[pc] = ++n;
    return true;
}

/* block L1 / loop L1 */
static bool p_block(D *d, const ins *in)
{
    uint32_t pc = (uint32_t)(in->w - 1 - d->k->code);
    fprintf(d->out, "%s L%u", in->sp, d->labels[pc]);
    return false;
}

/* break L1, break L1 if c, continue L1 */
static bool p_jump(D *d, const ins *in)
{
    uint32_t j = word(in, 'j');
    fprintf(d->out, "%s L%u", in->sp, j < d->k->ncode ? d->labels[j] : 0);
    if (in->base == BCB_BRKTOIF) {
        fputc(' ', d->out);
        ins c = *in;
        c.sp = "if", c.form = '!';
        p_cond(d, &c);
    }
    return false;
}

/* The printer of each form letter (vm/opcodes.def: PRINT). */
static printer *const printers[128] = {
    ['o'] = p_binary, ['u'] = p_unary, ['f'] = p_call, ['w'] = p_workitem,
    ['m'] = p_math, ['M'] = p_maths, ['k'] = p_keyword, ['c'] = p_cond, ['!'] = p_cond,
    ['v'] = p_move, ['s'] = p_splat, ['r'] = p_swizzle,
    ['R'] = p_swizzle_store, ['a'] = p_as, ['t'] = p_convert,
    ['l'] = p_load, ['L'] = p_store, ['n'] = p_vload, ['N'] = p_vstore,
    ['h'] = p_vload_half, ['H'] = p_vstore_half, ['p'] = p_padd,
    ['b'] = p_barrier, ['e'] = p_extern, ['q'] = p_printf,
    ['B'] = p_block, ['T'] = p_jump, ['x'] = p_atomic,
    ['y'] = p_async, ['z'] = p_async, ['P'] = p_ptou, ['U'] = p_utop,
};

/* One instruction as a statement (without indentation or newline). */
static void statement(D *d, const uint32_t *code, bool last)
{
    unsigned op = BC_OPCODE(code[0]), base = bc_ops[op].base;
    const char *pf = op_print((enum bc_base)base);
    unsigned char form = (unsigned char)pf[0];
    printer *p = form < 128 ? printers[form] : NULL;
    if (base == BCB_LOOP && d->labels[code - d->k->code])
        p = p_block;
    ins in = {op, base, BC_N(code[0]), BC_FLAGS(code[0]), code + 1,
              (char)form, pf[0] && pf[1] == ' ' ? pf + 2 : "", last,
              bc_bases[base].operands, bc_bases[base].types};
    if (!p) {
        fprintf(d->out, "// %s (no IR form)", bc_ops[op].name);
        d->bad = -1;
    } else if (p(d, &in)) {
        fputc(')', d->out);
    }
}

/* ---- declarations ---- */

static void const_value(D *d, const bc_reg *r)
{
    char b1[TY_NAME_MAX], lt[LIT_TEXT_MAX];
    ty_t t = r->type;
    unsigned es = ty_scalar_size((enum ty_scalar)t.s);
    if ((uint64_t)r->arg + ty_sizeof(t) > d->m->nconst) {
        fputs("0 ; bad constant pool offset", d->out);
        d->bad = -1;
        return;
    }
    const uint8_t *p = d->m->consts + r->arg;
    unsigned n = t.n;
    if (t.n > 1) {
        fprintf(d->out, "(%s)(", ty_name(t, b1));
        /* (float4)(1.0f) when every component is the same */
        n = 1;
        for (unsigned i = 1; i < t.n && n == 1; i++)
            n = memcmp(p, p + i * es, es) ? t.n : 1;
    }
    for (unsigned i = 0; i < n; i++)
        fprintf(d->out, "%s%s", i ? ", " : "",
                lit_format((enum ty_scalar)t.s, lit_load(p + i * es,
                                                         (enum ty_scalar)t.s),
                           lt));
    if (t.n > 1)
        fputc(')', d->out);
}

static bool is_param_reg(const bc_kernel *k, uint32_t r)
{
    const bc_reg *g = &k->regs[r];
    return g->init == BC_INIT_PARAM && g->arg < k->nparams &&
           k->params[g->arg].reg == r;
}

static void declarations(D *d)
{
    const bc_kernel *k = d->k;
    char b1[TY_NAME_MAX];
    for (uint32_t i = 0; i < k->nregs; i++) {
        const bc_reg *r = &k->regs[i];
        if (is_param_reg(k, i))
            continue;
        indent(d, 0);
        ty_name(r->type, b1);
        if (r->kind == BC_REG_PTR) {
            if (r->init == BC_INIT_ARRAY)
                fprintf(d->out, "%s%s %s[%u]",
                        r->space == BC_LOCAL ? "local " : "",
                        b1, rn(d, i), r->arg);
            else
                fprintf(d->out, "%s %s%s *%s", space_name(r->space),
                        r->flags & BC_REGF_CONSTPTR ? "const " : "", b1,
                        rn(d, i));
            if (r->init != BC_INIT_NONE && r->init != BC_INIT_ARRAY) {
                fputs(" ; bad initialisation", d->out);
                d->bad = -1;
            }
        } else if (r->init == BC_INIT_CONST) {
            fprintf(d->out, "const %s %s = ", b1, rn(d, i));
            const_value(d, r);
        } else if (r->init == BC_INIT_PARAM) {
            fprintf(d->out, "const %s %s = %s", b1, rn(d, i),
                    r->arg < k->nparams ? rn(d, k->params[r->arg].reg)
                                        : "?");
        } else {
            /* Consecutive plain registers of one type share a line. */
            fprintf(d->out, "%s %s", b1, rn(d, i));
            while (i + 1 < k->nregs && !is_param_reg(k, i + 1) &&
                   k->regs[i + 1].kind == BC_REG_VALUE &&
                   k->regs[i + 1].init == BC_INIT_NONE &&
                   ty_eq(k->regs[i + 1].type, r->type))
                fprintf(d->out, ", %s", rn(d, ++i));
        }
        newline(d);
    }
}

static void header(D *d)
{
    const bc_kernel *k = d->k;
    char b1[TY_NAME_MAX];
    line_for(d, k->line);
    fprintf(d->out, "kernel %s(", bc_str(d->m, k->name));
    for (uint32_t i = 0; i < k->nparams; i++) {
        uint32_t ri = k->params[i].reg;
        const bc_reg *r = reg(d, ri);
        if (i)
            fputs(", ", d->out);
        const bc_byval *b = &k->params[i].byval;
        if (r->kind == BC_REG_PTR)
            fprintf(d->out, "%s %s%s *%s", space_name(r->space),
                    r->flags & BC_REGF_CONSTPTR ? "const " : "",
                    ty_name(r->type, b1), rn(d, ri));
        else
            fprintf(d->out, "%s %s", ty_name(r->type, b1), rn(d, ri));
        if (b->size)
            fprintf(d->out, " byval(%u, %u, \"%s\", \"%s\")", b->size,
                    b->align, bc_str(d->m, b->type), bc_str(d->m, b->layout));
    }
    fputc(')', d->out);
    if (k->reqd[0])
        fprintf(d->out, " reqd_work_group_size(%u, %u, %u)", k->reqd[0],
                k->reqd[1], k->reqd[2]);
    newline(d);
}

static void code(D *d)
{
    const bc_kernel *k = d->k;
    unsigned depth = 0;
    for (uint32_t pc = 0; pc < k->ncode;) {
        uint32_t h = k->code[pc];
        unsigned words = bc_ins_words(h);
        if (!words || words > k->ncode - pc) {
            fprintf(d->out, "// pc %u: %s\n", pc,
                    words ? "truncated instruction" : "bad opcode");
            d->vline++;
            d->bad = -1;
            return;
        }
        unsigned base = bc_ops[BC_OPCODE(h)].base;
        bool last = pc + words == k->ncode && base == BCB_RET;
        if (base == BCB_ELSE || base == BCB_ENDIF || base == BCB_ENDLOOP ||
            base == BCB_ENDBLOCK)
            depth = depth ? depth - 1 : 0;
        line_for(d, bc_line_of(k, pc));
        /* Verbose: the statement goes to a string first, so that the
         * comments line up. */
        FILE *out = d->out;
        char *text = NULL;
        size_t tlen = 0;
        if (d->flags & DIS_VERBOSE)
            d->out = open_memstream(&text, &tlen);
        if (!d->out)
            d->out = out;
        if (!last)
            indent(d, depth);
        statement(d, k->code + pc, last);
        if (d->out != out) {
            fclose(d->out);
            d->out = out;
            fputs(text ? text : "", out);
            free(text);
        }
        if (d->flags & DIS_VERBOSE)
            fprintf(out, "%*s// %-4u %-11s %s", tlen < 40 ? (int)(40 - tlen) : 2,
                    "", pc, bc_ops[BC_OPCODE(h)].name, bc_bases[base].synopsis);
        newline(d);
        if (base == BCB_IF || base == BCB_ELSE || base == BCB_LOOP ||
            base == BCB_BLOCK)
            depth++;
        pc += words;
    }
}

static void quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) { /* the escapes a reader knows, else octal */
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fprintf(f, "\\%03o", c);
            else
                fputc(c, f);
        }
    }
    fputc('"', f);
}

int dis_module(const bc_module *m, FILE *out, unsigned flags)
{
    D d = {m, NULL, out, flags, 1, NULL, 0, NULL};
    /* Extern declarations have no lines: before the first #line. */
    for (uint32_t i = 0; i < m->nexterns; i++) {
        const bc_extern *x = &m->externs[i];
        fprintf(out, "extern %s %s(", x->ret.kind == BC_C_VOID ? "void"
                     : ty_scalar_name((enum ty_scalar)x->ret.s),
                bc_str(m, x->name));
        for (uint32_t j = 0; j < x->nparams; j++)
            fprintf(out, "%s%s%s%s", j ? ", " : "",
                    x->params[j].kind == BC_C_CPTR ? "const " : "",
                    ty_scalar_name((enum ty_scalar)x->params[j].s),
                    x->params[j].kind == BC_C_VALUE ? "" : " *");
        fputs(x->nparams ? ")\n" : "void)\n", out);
    }
    /* The source name first: the module records it, so it must read
     * back; the first kernel's header line follows it. */
    fprintf(out, "#line %u ", m->nkernels ? m->kernels[0].line : 1);
    quoted(out, bc_str(m, m->source));
    fputc('\n', out);
    d.vline = m->nkernels ? m->kernels[0].line : 1;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        d.k = &m->kernels[i];
        if (i)
            newline(&d);
        if (!make_names(&d) || !make_labels(&d)) {
            fprintf(out, "// out of memory\n");
            d.bad = -1;
        } else {
            header(&d);
            declarations(&d);
            code(&d);
        }
        for (uint32_t r = 0; d.names && r < d.k->nregs; r++)
            free(d.names[r]);
        free(d.names);
        free(d.labels);
        d.names = NULL, d.labels = NULL;
    }
    return d.bad;
}
