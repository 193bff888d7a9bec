/* The decoder: a kernel turned, once per run, into the instructions, the
 * register layout and the template register file the dispatch loop runs.
 *
 * The verifier (bc_verify_kernel, run first) is the one judge of the
 * bytecode: decoding trusts it and checks nothing (asserts at most). */
#include "vm/decode.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/bytes.h"
#include "stdlib/loadstore.h"
#include "stdlib/note.h"
#include "stdlib/profile.h"
#include "stdlib/reinterpret.h"
#include "vm/bcfile.h"
#include "vm/interp.h"
#include "vm/operands.h"
#include "vm/ptrflow.h"
#include "vm/trap.h"

static uint64_t reg_bytes(const bc_reg *x, uint32_t W)
{
    if (x->kind == BC_REG_PTR)
        return 12ull * W;
    return (uint64_t)ty_sizeof(x->type) * W;
}

static bool check_args(const vm_prog *p, vm_trap *t)
{
    const bc_kernel *k = p->k;
    if (k->nparams && !p->args) {
        vm_trap_set(t, VM_TRAP_ARGS, "kernel '%s' takes %u arguments, none "
                    "given", bc_str(p->m, k->name), k->nparams);
        return false;
    }
    for (uint32_t i = 0; i < k->nparams; i++) {
        const bc_reg *g = &k->regs[k->params[i].reg];
        const vm_arg *a = &p->args[i];
        const char *name = bc_str(p->m, k->params[i].name);
        char tn[TY_NAME_MAX];
        if (g->kind == BC_REG_VALUE &&
            (!a->data || a->size != ty_sizeof(g->type))) {
            vm_trap_set(t, VM_TRAP_ARGS, "argument %u '%s': %s needs %zu "
                        "bytes, %llu given", i, name, ty_name(g->type, tn),
                        ty_sizeof(g->type),
                        a->data ? (unsigned long long)a->size : 0ull);
            return false;
        }
        if (g->kind == BC_REG_PTR && g->space != BC_LOCAL && a->size &&
            !a->data) {
            vm_trap_set(t, VM_TRAP_ARGS, "argument %u '%s': a buffer of "
                        "%llu bytes without data", i, name,
                        (unsigned long long)a->size);
            return false;
        }
    }
    return true;
}

/* A limit on what one work-group or warp may allocate, so that a huge
 * local argument fails cleanly instead of thrashing. */
#define MAX_BLOCK (1ull << 30)

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* Buffers, register offsets (the registers to reset first, then the other
 * written ones, so a warp start resets one prefix) and the template
 * register file. */
static bool layout(vm_prog *p, const uint8_t *written, const uint8_t *reset,
                   vm_trap *t)
{
    const bc_kernel *k = p->k;
    const uint32_t W = p->r.warp;
    uint32_t nb = 1;
    for (uint32_t x = 0; x < k->nregs; x++)
        nb += k->regs[x].kind == BC_REG_PTR &&
              (k->regs[x].init == BC_INIT_PARAM ||
               k->regs[x].init == BC_INIT_ARRAY);
    p->bufs = calloc(nb, sizeof *p->bufs);
    p->regoff = calloc(k->nregs + 1, sizeof *p->regoff);
    uint32_t *bufof = calloc(k->nregs + 1, sizeof *bufof);
    if (!p->bufs || !p->regoff || !bufof) {
        free(bufof);
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    p->bufs[0] = (vm_bufinfo){0, -1, BC_GLOBAL, 0, 0};
    p->nbufs = 1;
    uint64_t local = 0, priv = 0;
    for (uint32_t x = 0; x < k->nregs; x++) {
        const bc_reg *g = &k->regs[x];
        if (g->kind != BC_REG_PTR || (g->init != BC_INIT_PARAM &&
                                      g->init != BC_INIT_ARRAY))
            continue;
        vm_bufinfo *b = &p->bufs[p->nbufs];
        *b = (vm_bufinfo){x, -1, g->space, 0, 0};
        if (g->init == BC_INIT_PARAM) {
            b->param = (int)g->arg;
            b->size = p->args[g->arg].size;
        } else {
            b->size = (uint64_t)g->arg * ty_sizeof(g->type);
        }
        if (b->space == BC_LOCAL) {
            b->off = local = align_up(local, LS_BASE_ALIGN);
            local += b->size;
        } else if (b->space == BC_PRIVATE) {
            b->off = priv = align_up(priv, 16);
            priv += b->size;
        }
        if (local > MAX_BLOCK || priv * W > MAX_BLOCK) {
            free(bufof);
            vm_trap_set(t, VM_TRAP_NOMEM, "kernel '%s' needs %llu bytes of "
                        "local and %llu of private memory per work-group",
                        bc_str(p->m, k->name), (unsigned long long)local,
                        (unsigned long long)(priv * p->r.group_size));
            return false;
        }
        bufof[x] = p->nbufs++;
    }
    p->local_bytes = local;
    p->private_bytes = align_up(priv, 16);

    uint64_t off = 0;
    for (int pass = 2; pass >= 0; pass--) {
        for (uint32_t x = 0; x < k->nregs; x++) {
            if (written[x] + reset[x] != pass)
                continue;
            p->regoff[x] = (uint32_t)off;
            off += align_up(reg_bytes(&k->regs[x], W), 64);
            if (off > (1u << 31)) {
                free(bufof);
                vm_trap_set(t, VM_TRAP_NOMEM, "kernel '%s': registers too "
                            "big", bc_str(p->m, k->name));
                return false;
            }
        }
        if (pass == 2)
            p->resetsize = off;
        else if (pass == 1)
            p->writtensize = off;
    }
    p->filesize = off ? off : 64;
    p->tmpl = aligned_alloc(64, p->filesize);
    if (!p->tmpl) {
        free(bufof);
        vm_trap_set(t, VM_TRAP_NOMEM, "registers of kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    memset(p->tmpl, 0, p->filesize);
    for (uint32_t x = 0; x < k->nregs; x++) {
        const bc_reg *g = &k->regs[x];
        uint8_t *d = p->tmpl + p->regoff[x];
        if (g->kind == BC_REG_PTR) {
            /* offsets 0; the buffer id, 0 (null) for an unset pointer and
             * for a global or constant parameter given no buffer at all
             * (no data, no bytes: OpenCL's NULL argument) */
            uint32_t id = g->init == BC_INIT_PARAM && g->space != BC_LOCAL &&
                          !p->args[g->arg].data && !p->args[g->arg].size
                          ? 0 : bufof[x];
            for (uint32_t l = 0; l < W; l++)
                memcpy(d + 8 * W + 4 * l, &id, 4);
            continue;
        }
        unsigned es = ty_scalar_size(g->type.s), rows = ty_lanes(g->type);
        for (unsigned r = 0; r < rows; r++) {
            uint64_t v;
            if (g->init == BC_INIT_PARAM) {
                /* host order already: the parameter's own bytes. A wider
                 * register of a scalar parameter (the assembler's uniform
                 * broadcast) repeats its one element in every row. */
                const bc_reg *pr = &k->regs[k->params[g->arg].reg];
                unsigned src = pr->type.n == 1 ? 0 : r;
                uint8_t e[8];
                memcpy(e, p->args[g->arg].data + src * es, es);
                for (uint32_t l = 0; l < W; l++)
                    memcpy(d + ((size_t)r * W + l) * es, e, es);
                continue;
            } else if (g->init == BC_INIT_CONST) {
                v = le_load(p->m->consts + g->arg + r * es, es);
            } else {
                continue;
            }
            for (uint32_t l = 0; l < W; l++)
                ty_put_bits(d + ((size_t)r * W + l) * es, es, v);
        }
    }
    free(bufof);
    return true;
}

/* Finds the instructions and marks the registers the code writes. */
static bool scan(vm_prog *p, uint8_t *written, vm_trap *t)
{
    const bc_kernel *k = p->k;
    p->pcins = malloc(((size_t)k->ncode + 1) * sizeof *p->pcins);
    if (!p->pcins) {
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    memset(p->pcins, 0xff, ((size_t)k->ncode + 1) * sizeof *p->pcins);
    uint32_t n = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc])) {
        p->pcins[pc] = n++;
        const char *l = bc_bases[bc_ops[BC_OPCODE(k->code[pc])].base].operands;
        for (uint32_t q = pc + 1; *l; l++, q++) {
            if (*l == 'd')
                written[k->code[q]] = 1;
            q += *l == 'z';
        }
    }
    p->pcins[k->ncode] = n;
    p->nins = n + 1;
    return true;
}

/* Bytes of register d an instruction writes in every lane it runs, or 0
 * if it may leave some of them (SWW, AS, vectors of 3 loaded with 3 rows,
 * stores, control flow). */
static uint64_t full_write(const vm_prog *p, const uint32_t *code,
                           const operands *o)
{
    const bc_kernel *k = p->k;
    const uint32_t W = p->r.warp, op = BC_OPCODE(code[0]), nn = BC_N(code[0]);
    const unsigned base = bc_ops[op].base;
    const enum ty_scalar el = (enum ty_scalar)bc_ops[op].elem;
    const uint64_t es = ty_scalar_size(el);
    const uint64_t rows = ty_lanes((ty_t){el, (uint8_t)nn});
    switch (base) {
    case BCB_SWW: case BCB_AS: case BCB_ST: case BCB_VSTORE: case BCB_VSTH:
    case BCB_CALL: case BCB_CALLV: case BCB_PRINTF: case BCB_MATHS:
        return 0;
    case BCB_CVT:
        return rows * W * ty_scalar_size(BC_CVT_DST(o->t));
    case BCB_SWZ:
        return nn * W * es;
    case BCB_GID: case BCB_LID: case BCB_GRP: case BCB_GSZ: case BCB_LSZ:
    case BCB_NGRP: case BCB_GOFF: case BCB_WDIM:
        return W * es;
    case BCB_LD: {
        const bc_reg *pr = &k->regs[o->p];
        return (uint64_t)pr->type.n * W * es;
    }
    case BCB_VLOAD:
        return nn * W * es;
    case BCB_VLDH:
        return nn * W * 4;
    case BCB_PADD: case BCB_LDP: case BCB_UTOP:
        return 12ull * W;
    case BCB_PTOU:
        return 8ull * W;
    default:
        /* the elementwise ops: rows * W elements of the op's size */
        return strchr(bc_bases[base].operands, 'd') ? rows * W * es : 0;
    }
}

/* Which written registers a warp start must reset: those some instruction
 * may read before the warp writes them. A register is defined once an
 * instruction outside every IF and LOOP (so run by every lane still
 * running, in pc order) writes all of its bytes; a read of a register not
 * yet defined, at any depth, marks it. Lanes that returned earlier keep
 * stale values, but they never run again. */
static void need_reset(const vm_prog *p, const uint8_t *written,
                       uint8_t *reset)
{
    const bc_kernel *k = p->k;
    uint8_t *defined = calloc(k->nregs + 1, 1);
    if (!defined) {
        memcpy(reset, written, k->nregs);
        return;
    }
    uint32_t depth = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc])) {
        const uint32_t *code = k->code + pc;
        const char *l;
        operands o;
        const unsigned base = read_ins(code, &l, &o);
        const uint32_t reads[5] = {o.a, o.b, o.c, o.p, o.o};
        for (unsigned q = 0; q < 5; q++)
            if (strchr(l, "abcpo"[q]) && !defined[reads[q]])
                reset[reads[q]] = 1;
        if (strchr(l, 'l')) {   /* the list is last: after 'd' and 'i' */
            const uint32_t *list = code + strlen(l);
            for (uint32_t e = 0; e < BC_FLAGS(code[0]); e++)
                if (!defined[list[e]])
                    reset[list[e]] = 1;
        }
        if (strchr(l, 'd')) {
            uint64_t all = reg_bytes(&k->regs[o.d], p->r.warp);
            if (depth == 0 && full_write(p, code, &o) == all)
                defined[o.d] = 1;
            else if (!defined[o.d])
                reset[o.d] = 1; /* SWW reads d; the rest keep bytes */
        }
        depth += base == BCB_IF || base == BCB_LOOP || base == BCB_BLOCK;
        depth -= depth && (base == BCB_ENDIF || base == BCB_ENDLOOP ||
                           base == BCB_ENDBLOCK);
    }
    for (uint32_t x = 0; x < k->nregs; x++)
        reset[x] &= written[x];
    free(defined);
}

/* The VM_UNI_* bits of the source registers a, b, c (those the op has)
 * that nothing writes: each row of such a register holds one value in
 * every lane, the template's (layout: a constant's or parameter's
 * component, or 0), for the whole run, so a handler may read it once per
 * row. Pointers are left out (the memory ops mark their own, decode_mem). */
static uint8_t row_uniform(const vm_prog *p, const uint8_t *written,
                           const char *letters, const operands *o)
{
    const uint32_t reg[3] = {o->a, o->b, o->c};
    uint8_t bits = 0;
    for (unsigned q = 0; q < 3; q++)
        if (strchr(letters, "abc"[q]) && !written[reg[q]] &&
            p->k->regs[reg[q]].kind != BC_REG_PTR)
            bits |= (uint8_t)(VM_UNI_A << q);
    return bits;
}

/* Memory ops and PADD: the registers (d the value, a the pointer, b the
 * index), the index loader, and how many bytes each lane moves. */
static void decode_mem(const vm_prog *p, vm_ins *I, unsigned base,
                       const operands *o, const uint8_t *written)
{
    const bc_kernel *k = p->k;
    const bc_reg *pr = &k->regs[o->p], *ir = &k->regs[o->o];
    const uint32_t nn = I->n, es = I->es;
    uint32_t val = strchr(bc_bases[base].operands, 'd') ? o->d : o->a;
    I->d = p->regoff[val];
    I->a = p->regoff[o->p];
    I->b = p->regoff[o->o];
    I->widen = vm_widen_for((enum ty_scalar)ir->type.s);
    assert(I->widen && pr->kind == BC_REG_PTR);
    /* never written: every lane holds the template's one value */
    I->uni = written[o->p] ? 0 : VM_UNI_A;
    ty_t pt = pr->type;
    unsigned pes = ty_scalar_size(pt.s);
    if (base == BCB_PADD) {
        I->stride = ty_sizeof(pt);
        return;
    }
    if (base == BCB_LD || base == BCB_ST || base == BCB_LDP ||
        base == BCB_STP) {
        I->rows = pt.n;
        I->stride = I->align = (uint32_t)ty_sizeof(pt);
    } else if (base == BCB_VLOAD || base == BCB_VSTORE) {
        I->rows = nn;
        I->stride = nn * es;
        I->align = es;
    } else { /* VLDH, VSTH */
        bool al = I->flags & BC_F_ALIGNED;
        uint32_t lanes = al && nn == 3 ? 4 : nn;
        I->rows = nn;
        I->stride = 2 * lanes;
        I->align = al ? 2 * lanes : 2;
    }
    I->len = I->rows * (uint32_t)pes;
}

/* CVT: stdlib's conversion, or one of the loops the handler runs inline
 * ((float)x of a 32-bit integer rounds to nearest, as stdlib; integers
 * without _sat: vm/cvtint.h). */
static void decode_cvt(vm_ins *I, uint32_t t)
{
    enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(t),
                   ss = (enum ty_scalar)BC_CVT_SRC(t);
    bool rte = BC_CVT_RND(t) == RND_RTE;
    I->cv = cv_lookup(ds, ss, BC_CVT_SAT(t), (enum rnd)BC_CVT_RND(t));
    assert(I->cv);
    I->es = (uint8_t)ty_scalar_size(ds);
    if (!ty_is_float(ds) && !ty_is_float(ss) && !BC_CVT_SAT(t)) {
        I->imm = vm_cvt_int_code(I->es, ty_scalar_size(ss), ty_is_signed(ss));
        return;
    }
    I->imm = ds == TY_INT && ss == TY_FLOAT && BC_CVT_SAT(t) && rte
                 ? VM_CVT_I32_F32_SAT_RTE
             : ds == TY_FLOAT && ss == TY_UINT && rte ? VM_CVT_F32_U32
             : ds == TY_FLOAT && ss == TY_INT && rte ? VM_CVT_F32_I32
                                                     : VM_CVT_CALL;
}

/* The element size of register x. */
static size_t reg_size(const bc_kernel *k, uint32_t x)
{
    return ty_scalar_size((enum ty_scalar)k->regs[x].type.s);
}

/* Everything the handler of the instruction at code needs, resolved. */
static void decode_one(vm_prog *p, vm_ins *I, const uint32_t *code,
                       const uint8_t *written)
{
    const bc_kernel *k = p->k;
    const uint32_t W = p->r.warp, h = code[0];
    const uint32_t op = BC_OPCODE(h), nn = BC_N(h);
    const unsigned base = bc_ops[op].base;
    const enum ty_scalar el = (enum ty_scalar)bc_ops[op].elem;
    const uint64_t es = ty_scalar_size(el);
    operands o;
    read_operands(code + 1, bc_bases[base].operands, &o);
    I->op = (uint16_t)op;
    I->n = (uint8_t)nn;
    I->flags = (uint8_t)BC_FLAGS(h);
    I->es = (uint8_t)es;
    I->cnt = (uint32_t)(ty_lanes((ty_t){el, (uint8_t)nn}) * W);
    I->d = p->regoff[o.d];
    I->a = p->regoff[o.a];
    I->b = p->regoff[o.b];
    I->c = p->regoff[o.c];
    I->j = o.j;
    I->uni = row_uniform(p, written, bc_bases[base].operands, &o);
    switch (base) {
    case BCB_EQ: case BCB_NE: case BCB_LT: case BCB_LE: case BCB_GT:
    case BCB_GE: case BCB_LAND: case BCB_LOR: case BCB_LNOT:
        I->imm = nn == 1 ? 1 : UINT64_MAX;
        break;
    case BCB_SELECT:
        I->imm = nn == 1 ? UINT64_MAX : 1ull << (8 * es - 1);
        break;
    case BCB_SWZ: case BCB_SWW:
        I->imm = o.z;
        I->rows = nn;
        break;
    case BCB_AS: {
        ty_t dt = k->regs[o.d].type, st = k->regs[o.a].type;
        I->imm = dt.s | dt.n << 8 | (uint64_t)st.s << 16 |
                 (uint64_t)st.n << 24;
        break;
    }
    case BCB_CVT:
        decode_cvt(I, o.t);
        break;
    case BCB_GID: case BCB_LID: case BCB_GRP: case BCB_GSZ: case BCB_LSZ:
    case BCB_NGRP: case BCB_GOFF: case BCB_WDIM:
        I->imm = base == BCB_WDIM ? 0 : o.i;
        break;
    case BCB_LD: case BCB_ST: case BCB_VLOAD: case BCB_VSTORE:
    case BCB_VLDH: case BCB_VSTH: case BCB_PADD: case BCB_LDP: case BCB_STP:
        decode_mem(p, I, base, &o, written);
        break;
    case BCB_PTOU:
        I->a = p->regoff[o.p];
        break;
    case BCB_UTOP:
        I->imm = k->regs[o.d].space;
        break;
    case BCB_MATH1: case BCB_MATH2: case BCB_MATH3: case BCB_FTEST:
    case BCB_FTEST2: case BCB_MATHS:
        I->imm = o.i;
        break;
    case BCB_ATOM:   /* a the pointer, b and c the values */
        I->a = p->regoff[o.p];
        I->b = p->regoff[o.a];
        I->c = p->regoff[o.b];
        I->imm = o.i;
        I->len = I->align = (uint32_t)es;
        break;
    case BCB_ACOPY: case BCB_ACOPYS:   /* the layout vm/async.c reads */
        I->rows = (uint32_t)reg_size(k, o.c);
        I->j = base == BCB_ACOPYS ? p->regoff[o.o] : UINT32_MAX;
        I->align = base == BCB_ACOPYS ? (uint32_t)reg_size(k, o.o) : 0;
        I->imm = p->regoff[o.p];
        I->len = (uint32_t)ty_sizeof(k->regs[o.a].type);
        break;
    case BCB_WAITEV:
        I->rows = (uint32_t)reg_size(k, o.a);
        break;
    case BCB_BARRIER:   /* the fences: race.c's intervals */
        I->imm = o.i;
        break;
    case BCB_CALL: case BCB_CALLV: case BCB_PRINTF: {
        /* the verifier checked the registers against the signature or
         * format; the handlers read them by their types */
        const unsigned fixed = base == BCB_CALL ? 2 : 1;
        I->a = o.i;
        I->b = BC_FLAGS(h);
        I->imm = (uint64_t)(code + 1 + fixed - k->code);
        p->printf |= base == BCB_PRINTF;
        break;
    }
    }
}

/* Decodes I as XOP_NOTE when it may hit a case (enum note) that the
 * profile gives another value for, or that strict or warn_impl must see.
 * Elsewhere, and for every other instruction, the fast handler stays. */
static void watch(vm_prog *p, vm_ins *I)
{
    const unsigned base = bc_ops[I->op].base;
    const enum ty_scalar el = (enum ty_scalar)bc_ops[I->op].elem;
    unsigned can = 0;
    uint64_t imm = I->imm;
    if (base == BCB_CVT) {
        operands o;
        read_operands(p->k->code + I->pc + 1, bc_bases[base].operands, &o);
        enum ty_scalar ds = (enum ty_scalar)BC_CVT_DST(o.t),
                       ss = (enum ty_scalar)BC_CVT_SRC(o.t);
        bool sat = BC_CVT_SAT(o.t);
        imm = o.t;
        if (ty_is_float(ss) && !ty_is_float(ds))
            can = sat ? NOTE_SAT_NAN : NOTE_FLT_RANGE | NOTE_FLT_NAN;
        else if (!ty_is_float(ss) && ty_is_signed(ds) && !sat &&
                 (ty_scalar_size(ds) < ty_scalar_size(ss) ||
                  (ds != ss && !ty_is_signed(ss) &&
                   ty_scalar_size(ds) == ty_scalar_size(ss))))
            can = NOTE_NARROW;
    } else if (base == BCB_AS) {
        ty_t dt = {(uint8_t)imm, (uint8_t)(imm >> 8)};
        ty_t st = {(uint8_t)(imm >> 16), (uint8_t)(imm >> 24)};
        enum as_check c = as_classify(dt, st);
        can = c == AS_COUNT ? NOTE_AS_COUNT : c == AS_4TO3 ? NOTE_AS_W
              : c == AS_3TO4 ? NOTE_AS_3TO4 : 0;
    } else if ((base == BCB_DIV || base == BCB_REM) && !ty_is_float(el)) {
        can = NOTE_DIV_ZERO | (ty_is_signed(el) ? NOTE_DIV_MIN : 0);
    } else if (I->flags & BC_F_SIGNED) { /* ADD, SUB, MUL, NEG (verify) */
        can = NOTE_OVERFLOW;
    }
    bool all = p->profile == PROF_STRICT || p->r.warn_impl;
    if (base == BCB_MAD || base == BCB_CMAD || base == BCB_XMAD)
        can = p->r.warn_impl || (base != BCB_MAD && all) ||
              prof_fuses((enum prof_id)p->profile, vm_fuse_shape(base))
              ? NOTE_CONTRACT : 0;
    if (!(can & (all ? ~0u : prof_differs((enum prof_id)p->profile))))
        return;
    I->note_op = I->op;
    I->op = XOP_NOTE;
    if (base == BCB_CVT)
        I->j = (uint32_t)imm;   /* imm keeps the handler's inline choice */
    else
        I->imm = imm;
}

/* A scalar comparison whose result the next instruction, an IF, BRKIF or
 * BRKTOIF, branches on: the comparison counts its true lanes (VM_TALLY),
 * the branch reads the count (VM_TALLIED) instead of scanning c. Nothing
 * jumps to the branch (jumps land on a control-flow instruction or just
 * past one), so the count it reads is its comparison's. W = 64 only. */
static void tally(vm_prog *p)
{
    if (p->r.warp != VM_MAXW)
        return;
    for (uint32_t i = 0; i + 2 < p->nins; i++) {
        vm_ins *c = &p->ins[i], *br = &p->ins[i + 1];
        const bc_baseinfo *cb = &bc_bases[bc_ops[c->op].base];
        const unsigned bb = bc_ops[br->op].base;
        if (!strcmp(cb->operands, "dab") && cb->types[0] == 'M' &&
            c->n == 1 && br->c == c->d &&
            (bb == BCB_IF || bb == BCB_BRKIF || bb == BCB_BRKTOIF) &&
            ty_scalar_size((enum ty_scalar)bc_ops[c->op].elem) ==
                ty_scalar_size((enum ty_scalar)bc_ops[br->op].elem)) {
            c->uni |= VM_TALLY;
            br->uni |= VM_TALLIED;
        }
    }
}

/* Whether an instruction may read t, the first op's d of the fused pair at
 * ins[i], before writing all of it. Not if the pair's two ops are the only
 * ones that touch t (use[t] == 2: the second reads, only ever just after
 * the first wrote the lanes it reads). Else looked for in the instructions
 * that follow the pair while each writes a register (so no control flow,
 * store or barrier comes between, and every one runs on the lanes the
 * pair ran on); past them, t may be read. */
static bool fuse_keep(const vm_prog *p, uint32_t i, const uint32_t *use)
{
    const bc_kernel *k = p->k;
    operands o;
    read_operands(k->code + p->ins[i].pc + 1, "dab", &o);
    const uint32_t t = o.d;
    const uint64_t all = reg_bytes(&k->regs[t], p->r.warp);
    if (use[t] == 2)
        return false;
    for (uint32_t j = i + 2; j + 1 < p->nins; j++) {
        const uint32_t *code = k->code + p->ins[j].pc;
        const char *l = bc_bases[bc_ops[BC_OPCODE(code[0])].base].operands;
        if (!strchr(l, 'd'))
            return true;
        read_operands(code + 1, l, &o);
        const uint32_t reads[5] = {o.a, o.b, o.c, o.p, o.o};
        for (unsigned q = 0; q < 5; q++)
            if (strchr(l, "abcpo"[q]) && reads[q] == t)
                return true;
        if (strchr(l, 'l'))   /* the list is last: after 'd' and 'i' */
            for (uint32_t e = 0; e < BC_FLAGS(code[0]); e++)
                if (code[strlen(l) + e] == t)
                    return true;
        if (o.d == t)
            return full_write(p, code, &o) != all;
    }
    return true;
}

/* Runs neighbouring pairs t = a OP1 b; d = t OP2 c (vm/fuse.h) as one
 * instruction: the first becomes XOP_FUSE + k, with the second's other
 * operand in c; the second stays as it was, for the times the pair runs
 * apart (handlers.h, H_FUSED). Nothing jumps to the second (jumps land on
 * control flow or just past it). W = 64 only; never under the REPL, whose
 * steps show each instruction's result. */
static void fuse(vm_prog *p)
{
    static const struct {
        uint16_t op1, op2;
    } pairs[VM_NFUSE] = {
#define X(N1, S1, N2, S2) {BC_##N1##S1, BC_##N2##S2},
        FUSE_PAIRS(X)
#undef X
    };
    const bc_kernel *k = p->k;
    if (p->r.warp != VM_MAXW || p->r.debug)
        return;
    /* use[x]: the instructions that read or write register x, an
     * instruction that reads it twice counting twice */
    uint32_t *use = calloc(k->nregs + 1, sizeof *use);
    if (!use)
        return;   /* (the pairs run apart) */
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc])) {
        const uint32_t *code = k->code + pc;
        const char *l = bc_bases[bc_ops[BC_OPCODE(code[0])].base].operands;
        for (uint32_t q = 1; *l; l++, q++) {
            if (strchr("dabcpo", *l))
                use[code[q]]++;
            else if (*l == 'l')
                for (uint32_t e = 0; e < BC_FLAGS(code[0]); e++)
                    use[code[q + e]]++;
            q += *l == 'z';
        }
    }
    for (uint32_t i = 0; i + 2 < p->nins; i++) {
        vm_ins *I = &p->ins[i], *J = I + 1;
        unsigned f = 0;
        while (f < VM_NFUSE && (pairs[f].op1 != I->op || pairs[f].op2 != J->op))
            f++;
        if (f == VM_NFUSE || I->n != J->n)
            continue;
        /* integer OP2s commute bit for bit; a float one takes t first */
        const bool commutes = !ty_is_float((enum ty_scalar)bc_ops[J->op].elem);
        uint8_t other;
        if (J->a == I->d && J->b != I->d) {
            I->c = J->b;
            other = J->uni & VM_UNI_B;
        } else if (commutes && J->b == I->d && J->a != I->d) {
            I->c = J->a;
            other = J->uni & VM_UNI_A;
        } else {
            continue;
        }
        const bool keep = J->d != I->d && fuse_keep(p, i, use);
        I->uni = (uint8_t)((I->uni & VM_UNI_B) | (other ? VM_UNI_C : 0) |
                           (keep ? VM_KEEP : 0));
        I->note_op = I->op;
        I->op = (uint16_t)(XOP_FUSE + f);
        i++;
    }
    free(use);
}

/* --check races: a load or store is decoded as XOP_RACE, which checks
 * its access (vm_race_mem) and then runs it; without the check the
 * handlers do nothing for it. A load whose pointer may point only into
 * buffers that no instruction writes (mask, writable: vm_ptrflow; NULL:
 * unknown) is not watched: no write, no race. */
static void race_watch(vm_prog *p, vm_ins *I, const uint64_t *mask,
                       uint64_t writable)
{
    if (!p->r.races || I->op >= BC_NOPS)   /* (XOP_NOTE: no memory op) */
        return;
    switch (bc_ops[I->op].base) {
    case BCB_LD: case BCB_VLOAD: case BCB_VLDH: case BCB_LDP: {
        /* a read of buffers that nothing writes cannot race */
        const char *l;
        operands o;
        read_ins(p->k->code + I->pc, &l, &o);
        if (mask && !(mask[o.p] & writable))
            return;
    }   /* fall through */
    case BCB_ST: case BCB_VSTORE: case BCB_VSTH: case BCB_STP:
        I->note_op = I->op;
        I->op = XOP_RACE;
        break;
    }
}

/* Decodes every instruction, resolves jumps to instruction indices and
 * marks each IF that has an ELSE (the blocks nest: the verifier says so). */
static bool decode(vm_prog *p, const void *const *tab,
                   const uint8_t *written, vm_trap *t)
{
    const bc_kernel *k = p->k;
    /* open: the innermost blocks' instructions (an IF's replaced by its
     * ELSE), opc: their openers' pcs, which labelled jumps name */
    uint32_t *open = malloc((p->depth + 1) * sizeof *open), sp = 0;
    uint32_t *opc = malloc((p->depth + 1) * sizeof *opc);
    p->ins = calloc(p->nins, sizeof *p->ins);
    if (!open || !opc || !p->ins) {
        free(open);
        free(opc);
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel '%s'",
                    bc_str(p->m, k->name));
        return false;
    }
    uint32_t n = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc])) {
        vm_ins *I = &p->ins[n];
        I->pc = pc;
        decode_one(p, I, k->code + pc, written);
        switch (bc_ops[I->op].base) {
        case BCB_IF: case BCB_LOOP: case BCB_BLOCK:
            assert(sp < p->depth);
            opc[sp] = pc;
            open[sp++] = n;
            break;
        case BCB_BRKTO: case BCB_BRKTOIF: case BCB_CONTTO:
            /* the target's frame: the mask stack's depth mirrors the
             * nesting (the verifier found j among the open blocks) */
            for (uint32_t i = sp; i-- > 0;)
                if (opc[i] == I->j)
                    I->imm = i;
            break;
        case BCB_ELSE:
            p->ins[open[sp - 1]].imm = 1;   /* the IF: j is this ELSE */
            open[sp - 1] = n;
            break;
        case BCB_ENDIF: case BCB_ENDLOOP: case BCB_ENDBLOCK:
            sp--;
            break;
        }
        n++;
    }
    assert(sp == 0 && n + 1 == p->nins);
    free(open);
    free(opc);
    for (uint32_t i = 0; i + 1 < p->nins; i++) {
        vm_ins *I = &p->ins[i];
        unsigned base = bc_ops[I->op].base;
        if (base == BCB_IF || base == BCB_ELSE || base == BCB_LOOP ||
            base == BCB_ENDLOOP || base == BCB_BLOCK)
            I->j = p->pcins[I->j];
    }
    p->ins[p->nins - 1] = (vm_ins){.op = XOP_END, .pc = k->ncode};
    tally(p);
    uint64_t *mask = p->r.races ? calloc(k->nregs + 1, sizeof *mask) : NULL,
             writable = 0;
    if (mask && !vm_ptrflow(p, mask, &writable)) {
        free(mask);   /* then every access is watched */
        mask = NULL;
    }
    for (uint32_t i = 0; i + 1 < p->nins; i++) {
        watch(p, &p->ins[i]);
        race_watch(p, &p->ins[i], mask, writable);
    }
    free(mask);
    fuse(p);
    for (uint32_t i = 0; i < p->nins; i++)
        p->ins[i].label = tab ? tab[p->ins[i].op] : NULL;
    return true;
}

vm_prog *vm_prog_new(const bc_module *m, uint32_t kidx, vm_arg *args,
                     const vm_range *r, vm_trap *t)
{
    const void *const *tab;
    vm_runfn run = vm_interp_pick(&tab);
    if (kidx >= m->nkernels) {
        vm_trap_set(t, VM_TRAP_ARGS, "no kernel %u (the module has %u)",
                    kidx, m->nkernels);
        return NULL;
    }
    vm_prog *p = calloc(1, sizeof *p);
    uint8_t *written = calloc(2 * (m->kernels[kidx].nregs + 1), 1);
    if (!p || !written) {
        free(p);
        free(written);
        vm_trap_set(t, VM_TRAP_NOMEM, "decoding kernel %u", kidx);
        return NULL;
    }
    p->run = run;
    p->m = m;
    p->k = &m->kernels[kidx];
    p->kidx = kidx;
    p->r = *r;
    p->args = args;
    p->profile = r->profile < PROF_COUNT ? r->profile : PROF_CLVM;
    if (m->nexterns && !vm_natives_bound(r->natives, m)) {
        vm_trap_set(t, VM_TRAP_ARGS, "the module calls host functions "
                    "(extern '%s' ...): bind them to --native libraries "
                    "first", bc_str(m, m->externs[0].name));
        free(p);
        free(written);
        return NULL;
    }
    /* A module from bc_read or the assembler passed bc_verify already;
     * one built by hand is judged here, by the same rules and words. */
    char err[300];
    bc_facts f;
    bool ok = true;
    if (bc_verify_kernel(m, kidx, &f, err, sizeof err)) {
        vm_trap_set(t, VM_TRAP_CODE, "%s", err);
        ok = false;
    } else {
        p->depth = f.depth;
        p->barrier = f.barrier;
    }
    uint8_t *reset = written + m->kernels[kidx].nregs + 1;
    ok = ok && check_args(p, t) && scan(p, written, t);
    if (ok)
        need_reset(p, written, reset);
    ok = ok && layout(p, written, reset, t) && decode(p, tab, written, t);
    free(written);
    if (!ok) {
        vm_prog_free(p);
        return NULL;
    }
    return p;
}

void vm_prog_free(vm_prog *p)
{
    if (!p)
        return;
    free(p->ins);
    free(p->regoff);
    free(p->pcins);
    free(p->tmpl);
    free(p->bufs);
    free(p);
}
