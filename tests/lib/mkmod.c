#include "tests/lib/mkmod.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MK_MAXNEST = 64 };

struct mk_mod {
    bc_module m;
    uint32_t cap_k, cap_c, cap_s;
    uint32_t cap_r, cap_p, cap_code, cap_l; /* of the current kernel */
    uint32_t line;
    uint32_t open[MK_MAXNEST], nopen;       /* pcs of open IF/ELSE/LOOP */
};

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return p;
    uint32_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    p = realloc(p, (size_t)c * size);
    if (!p) {
        fprintf(stderr, "mkmod: out of memory\n");
        abort();
    }
    *cap = c;
    return p;
}

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "mkmod: %s%s\n", what, arg ? arg : "");
    abort();
}

static uint32_t str(mk_mod *b, const char *s)
{
    uint32_t at = b->m.nstrings, len = (uint32_t)strlen(s) + 1;
    if (!*s && at)
        return 0;
    b->m.strings = grow(b->m.strings, &b->cap_s, at + len, 1);
    memcpy(b->m.strings + at, s, len);
    b->m.nstrings += len;
    return at;
}

ty_t mk_type(const char *name)
{
    ty_t t;
    if (!ty_parse(name, strlen(name), &t))
        die("bad type ", name);
    return t;
}

mk_mod *mk_new(const char *source)
{
    mk_mod *b = calloc(1, sizeof *b);
    if (!b)
        die("out of memory", NULL);
    str(b, "");
    b->m.source = str(b, source);
    return b;
}

static bc_kernel *cur(mk_mod *b)
{
    if (!b->m.nkernels)
        die("no kernel", NULL);
    return &b->m.kernels[b->m.nkernels - 1];
}

/* Kernels end with RET, as the verifier demands. */
static void end_kernel(mk_mod *b)
{
    if (b->m.nkernels)
        mk_ins(b, BC_RET, 1, 0, NULL, 0);
}

void mk_kernel(mk_mod *b, const char *name)
{
    end_kernel(b);
    b->m.kernels = grow(b->m.kernels, &b->cap_k, b->m.nkernels + 1,
                        sizeof *b->m.kernels);
    bc_kernel *k = &b->m.kernels[b->m.nkernels++];
    memset(k, 0, sizeof *k);
    k->name = str(b, name);
    k->line = b->line;
    b->cap_r = b->cap_p = b->cap_code = b->cap_l = 0;
    b->nopen = 0;
}

static uint32_t reg(mk_mod *b, const char *name, ty_t t, int kind, int space,
                    int init, uint32_t arg)
{
    bc_kernel *k = cur(b);
    k->regs = grow(k->regs, &b->cap_r, k->nregs + 1, sizeof *k->regs);
    k->regs[k->nregs] = (bc_reg){str(b, name), t, (uint8_t)kind,
                                 (uint8_t)space, (uint8_t)init, 0, arg};
    return k->nregs++;
}

uint32_t mk_val(mk_mod *b, const char *name, const char *type)
{
    return reg(b, name, mk_type(type), BC_REG_VALUE, 0, BC_INIT_NONE, 0);
}

uint32_t mk_ptr(mk_mod *b, const char *name, enum bc_space sp,
                const char *pointee)
{
    return reg(b, name, mk_type(pointee), BC_REG_PTR, sp, BC_INIT_NONE, 0);
}

static uint32_t param(mk_mod *b, const char *name, ty_t t, int kind, int sp)
{
    bc_kernel *k = cur(b);
    uint32_t x = reg(b, name, t, kind, sp, BC_INIT_PARAM, k->nparams);
    k = cur(b);
    k->params = grow(k->params, &b->cap_p, k->nparams + 1, sizeof *k->params);
    k->params[k->nparams++] = (bc_param){k->regs[x].name, x, {0, 0, 0, 0}};
    return x;
}

uint32_t mk_param(mk_mod *b, const char *name, const char *type)
{
    return param(b, name, mk_type(type), BC_REG_VALUE, 0);
}

uint32_t mk_pparam(mk_mod *b, const char *name, enum bc_space sp,
                   const char *pointee)
{
    return param(b, name, mk_type(pointee), BC_REG_PTR, sp);
}

uint32_t mk_array(mk_mod *b, const char *name, enum bc_space sp,
                  const char *type, uint32_t count)
{
    return reg(b, name, mk_type(type), BC_REG_PTR, sp, BC_INIT_ARRAY, count);
}

uint32_t mk_kbytes(mk_mod *b, const char *type, const void *bytes)
{
    ty_t t = mk_type(type);
    unsigned es = ty_scalar_size((enum ty_scalar)t.s);
    uint32_t size = (uint32_t)ty_sizeof(t), at = b->m.nconst;
    b->m.consts = grow(b->m.consts, &b->cap_c, at + size, 1);
    for (uint32_t e = 0; e < size; e += es) {
        uint64_t x = ty_get_bits((const uint8_t *)bytes + e, es);
        for (unsigned k = 0; k < es; k++) /* the pool is little-endian */
            b->m.consts[at + e + k] = (uint8_t)(x >> 8 * k);
    }
    b->m.nconst += size;
    char name[24];
    snprintf(name, sizeof name, "_k%u", cur(b)->nregs);
    return reg(b, name, t, BC_REG_VALUE, 0, BC_INIT_CONST, at);
}

uint32_t mk_ki(mk_mod *b, const char *type, int64_t v)
{
    ty_t t = mk_type(type);
    unsigned es = ty_scalar_size((enum ty_scalar)t.s), n = ty_lanes(t);
    uint8_t buf[128];
    for (unsigned i = 0; i < n; i++) {
        uint8_t u8 = (uint8_t)v;
        uint16_t u16 = (uint16_t)v;
        uint32_t u32 = (uint32_t)v;
        uint64_t u64 = (uint64_t)v;
        switch (es) {
        case 1: memcpy(buf + i, &u8, 1); break;
        case 2: memcpy(buf + 2 * i, &u16, 2); break;
        case 4: memcpy(buf + 4 * i, &u32, 4); break;
        default: memcpy(buf + 8 * i, &u64, 8); break;
        }
    }
    return mk_kbytes(b, type, buf);
}

uint32_t mk_kf(mk_mod *b, const char *type, double f)
{
    ty_t t = mk_type(type);
    unsigned n = ty_lanes(t);
    uint8_t buf[128];
    for (unsigned i = 0; i < n; i++) {
        if (t.s == TY_FLOAT) {
            float x = (float)f;
            memcpy(buf + 4 * i, &x, 4);
        } else if (t.s == TY_DOUBLE) {
            memcpy(buf + 8 * i, &f, 8);
        } else {
            die("mk_kf needs float or double: ", type);
        }
    }
    return mk_kbytes(b, type, buf);
}

void mk_line(mk_mod *b, uint32_t line) { b->line = line; }

uint32_t mk_pc(const mk_mod *b)
{
    return b->m.nkernels ? b->m.kernels[b->m.nkernels - 1].ncode : 0;
}

static void word(mk_mod *b, uint32_t w)
{
    bc_kernel *k = cur(b);
    k->code = grow(k->code, &b->cap_code, k->ncode + 1, sizeof *k->code);
    k->code[k->ncode++] = w;
}

void mk_ins(mk_mod *b, enum bc_op op, unsigned n, unsigned flags,
            const uint64_t *ops, unsigned nops)
{
    bc_kernel *k = cur(b);
    const char *l = bc_bases[bc_ops[op].base].operands;
    if (strlen(l) != nops)
        die("wrong operand count for ", bc_ops[op].name);
    if (b->line && (!k->nlines || k->lines[k->nlines - 1].line != b->line)) {
        k->lines = grow(k->lines, &b->cap_l, k->nlines + 1, sizeof *k->lines);
        k->lines[k->nlines++] = (bc_line){k->ncode, b->line};
    }
    word(b, BC_HDR(op, n, flags));
    for (unsigned i = 0; i < nops; i++) {
        word(b, (uint32_t)ops[i]);
        if (l[i] == 'z')
            word(b, (uint32_t)(ops[i] >> 32));
    }
}

static void patch_j(mk_mod *b, uint32_t pc, uint32_t target)
{
    bc_kernel *k = cur(b);
    const char *l = bc_bases[bc_ops[BC_OPCODE(k->code[pc])].base].operands;
    uint32_t q = pc + 1;
    for (; *l != 'j'; l++)
        q += *l == 'z' ? 2 : 1;
    k->code[q] = target;
}

void mk_if(mk_mod *b, enum bc_op ifop, uint32_t c)
{
    if (b->nopen == MK_MAXNEST)
        die("nesting too deep", NULL);
    b->open[b->nopen++] = mk_pc(b);
    MK(b, ifop, 1, c, 0);
}

void mk_else(mk_mod *b)
{
    uint32_t pc = mk_pc(b);
    patch_j(b, b->open[b->nopen - 1], pc);
    b->open[b->nopen - 1] = pc;
    MK(b, BC_ELSE, 1, 0);
}

void mk_endif(mk_mod *b)
{
    patch_j(b, b->open[--b->nopen], mk_pc(b));
    MK0(b, BC_ENDIF);
}

void mk_loop(mk_mod *b)
{
    if (b->nopen == MK_MAXNEST)
        die("nesting too deep", NULL);
    b->open[b->nopen++] = mk_pc(b);
    MK(b, BC_LOOP, 1, 0);
}

void mk_endloop(mk_mod *b)
{
    uint32_t lp = b->open[--b->nopen];
    patch_j(b, lp, mk_pc(b));
    MK(b, BC_ENDLOOP, 1, lp + 2);
}

void mk_brkif(mk_mod *b, enum bc_op brkop, uint32_t c, int negate)
{
    MKF(b, brkop, 1, negate ? BC_F_NOT : 0, c);
}

bc_module *mk_finish(mk_mod *b)
{
    end_kernel(b);
    bc_module *m = malloc(sizeof *m);
    if (!m)
        die("out of memory", NULL);
    *m = b->m;
    free(b);
    return m;
}
