/* The module and the kernel under construction: the string table, the
 * constant pool, the extern table, registers (named, temporary, constant),
 * the code, its line table and its printf formats. Everything is
 * deduplicated deterministically, so a module printed by dis assembles back
 * to the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "asm/asmint.h"
#include "vm/bcfile.h"
#include "asm/optab.h"

/* Growable arrays: *p holds *cap elements of size sz; makes room for
 * need. */
static bool grow(A *a, void *pp, uint32_t *cap, uint64_t need, size_t sz)
{
    void **p = pp;
    if (need <= *cap)
        return true;
    uint64_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *np = nc > UINT32_MAX ? NULL : realloc(*p, (size_t)nc * sz);
    if (!np) {
        asm_oom(a);
        return false;
    }
    *p = np, *cap = (uint32_t)nc;
    return true;
}

/* ---- id maps: open addressing over (id + 1, hash) pairs ---- */

uint32_t kb_hash(const void *p, size_t n, uint32_t h)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

int64_t kb_map_find(const idmap *m, uint32_t hash, idmap_eq eq,
                   const void *ctx, const void *key)
{
    if (!m->cap)
        return -1;
    for (uint32_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        uint32_t id1 = m->slot[2 * i];
        if (!id1)
            return -1;
        if (m->slot[2 * i + 1] == hash && eq(ctx, id1 - 1, key))
            return id1 - 1;
    }
}

static void put(uint32_t *slot, uint32_t cap, uint32_t hash, uint32_t id1)
{
    uint32_t i = hash & (cap - 1);
    while (slot[2 * i])
        i = (i + 1) & (cap - 1);
    slot[2 * i] = id1, slot[2 * i + 1] = hash;
}

bool kb_map_add(idmap *m, uint32_t hash, uint32_t id)
{
    if (2 * (m->n + 1) > m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 64;
        uint32_t *s = calloc((size_t)cap * 2, sizeof *s);
        if (!s || cap < m->cap) {
            free(s);
            return false;
        }
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->slot[2 * i])
                put(s, cap, m->slot[2 * i + 1], m->slot[2 * i]);
        free(m->slot);
        m->slot = s, m->cap = cap;
    }
    put(m->slot, m->cap, hash, id + 1);
    m->n++;
    return true;
}

void kb_map_clear(idmap *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

/* ---- strings ---- */

typedef struct {
    const char *s;
    size_t len;
} skey;

static bool str_eq(const void *ctx, uint32_t off, const void *key)
{
    const A *a = ctx;
    const skey *k = key;
    return strlen(a->str + off) == k->len && !memcmp(a->str + off, k->s, k->len);
}

uint32_t kb_str(A *a, const char *s, size_t len)
{
    skey k = {s, len};
    uint32_t h = kb_hash(s, len, 2166136261u);
    int64_t off = kb_map_find(&a->strmap, h, str_eq, a, &k);
    if (off >= 0)
        return (uint32_t)off;
    if (memchr(s, 0, len) || len >= UINT32_MAX / 2 ||
        !grow(a, &a->str, &a->capstr, (uint64_t)a->nstr + len + 1, 1))
        return 0;
    uint32_t at = a->nstr;
    memcpy(a->str + at, s, len);
    a->str[at + len] = 0;
    a->nstr += (uint32_t)len + 1;
    if (!kb_map_add(&a->strmap, h, at))
        asm_oom(a);
    return at;
}

const char *kb_strat(const A *a, uint32_t off)
{
    return off < a->nstr ? a->str + off : "";
}

bool kb_module_init(A *a)
{
    if (!grow(a, &a->str, &a->capstr, 1, 1))
        return false;
    a->str[0] = 0, a->nstr = 1;
    return true;
}

/* ---- the constant pool ---- */

typedef struct {
    const uint8_t *b;
    uint32_t size, align;
} pkey;

static bool pool_eq(const void *ctx, uint32_t id, const void *key)
{
    const A *a = ctx;
    const pkey *k = key;
    const uint32_t *e = &a->pent[3 * id];
    return e[1] == k->size && e[0] % k->align == 0 &&
           !memcmp(a->pool + e[0], k->b, k->size);
}

uint32_t kb_pool(A *a, ty_t t, const uint8_t *bytes)
{
    /* Each entry is aligned to its element size. */
    pkey k = {bytes, (uint32_t)ty_sizeof(t), ty_scalar_size(t.s)};
    uint32_t h = kb_hash(bytes, k.size, 2166136261u);
    int64_t id = kb_map_find(&a->poolmap, h, pool_eq, a, &k);
    if (id >= 0)
        return a->pent[3 * id];
    uint32_t at = (a->npool + k.align - 1) / k.align * k.align;
    if (!grow(a, &a->pool, &a->cappool, (uint64_t)at + k.size, 1) ||
        !grow(a, &a->pent, &a->cappent, 3 * ((uint64_t)a->npent + 1), 4))
        return UINT32_MAX;
    memset(a->pool + a->npool, 0, at - a->npool);
    memcpy(a->pool + at, bytes, k.size);
    a->npool = at + k.size;
    uint32_t *e = &a->pent[3 * a->npent];
    e[0] = at, e[1] = k.size, e[2] = k.align;
    if (!kb_map_add(&a->poolmap, h, a->npent++))
        asm_oom(a);
    return at;
}

/* ---- registers ---- */

typedef struct {
    const char *s;
    size_t len;
} nkey;

static bool name_eq(const void *ctx, uint32_t reg, const void *key)
{
    const A *a = ctx;
    const nkey *k = key;
    const char *n = a->str + a->k.regs[reg].name;
    return strlen(n) == k->len && !memcmp(n, k->s, k->len);
}

int32_t kb_find(A *a, const char *name, size_t len)
{
    nkey k = {name, len};
    int64_t r = kb_map_find(&a->names, kb_hash(name, len, 2166136261u),
                           name_eq, a, &k);
    return (int32_t)r;
}

const bc_reg *kb_regp(const A *a, uint32_t reg) { return &a->k.regs[reg]; }

const char *kb_regname(const A *a, uint32_t reg)
{
    return kb_strat(a, a->k.regs[reg].name);
}

int32_t kb_reg(A *a, const char *name, size_t len, bc_reg r)
{
    if (a->k.nregs >= BC_MAX_REGS) {
        asm_error(a, 0, 0, "too many registers in kernel '%s' (at most %u)",
                  kb_strat(a, a->k.name), BC_MAX_REGS);
        return -1;
    }
    if (!grow(a, &a->k.regs, &a->capregs, (uint64_t)a->k.nregs + 1,
              sizeof *a->k.regs) ||
        !grow(a, &a->rx, &a->caprx, (uint64_t)a->k.nregs + 1, sizeof *a->rx))
        return -1;
    r.name = kb_str(a, name, len);
    /* Names beginning with '_' belong to the assembler: its temporaries,
     * constants and broadcasts, or dis's printing of them. */
    if (len && name[0] == '_')
        r.flags |= BC_REGF_TEMP;
    uint32_t i = a->k.nregs++;
    a->k.regs[i] = r;
    a->rx[i] = (regx){a->line, false, false};
    if (len && !kb_map_add(&a->names, kb_hash(name, len, 2166136261u), i))
        asm_oom(a);
    return (int32_t)i;
}

bool kb_param(A *a, uint32_t reg)
{
    if (!grow(a, &a->k.params, &a->capparams, (uint64_t)a->k.nparams + 1,
              sizeof *a->k.params))
        return false;
    a->k.params[a->k.nparams++] = (bc_param){a->k.regs[reg].name, reg,
                                             {0, 0, 0, 0}};
    return true;
}

void kb_byval(A *a, bc_byval b)
{
    if (a->k.nparams)
        a->k.params[a->k.nparams - 1].byval = b;
}

/* A fresh name PREFIX<n> not taken in this kernel. */
static int32_t fresh(A *a, const char *prefix, uint32_t *counter, bc_reg r)
{
    char name[24];
    do
        snprintf(name, sizeof name, "%s%u", prefix, ++*counter);
    while (kb_find(a, name, strlen(name)) >= 0);
    return kb_reg(a, name, strlen(name), r);
}

static int32_t temp_like(A *a, const bc_reg *like)
{
    for (uint32_t i = 0; i < a->ntl; i++) {
        uint32_t t = a->tlist[i];
        const bc_reg *r = &a->k.regs[t];
        if (!a->rx[t].busy && ty_eq(r->type, like->type) &&
            r->kind == like->kind && r->space == like->space &&
            (r->flags & BC_REGF_CONSTPTR) == (like->flags & BC_REGF_CONSTPTR)) {
            a->rx[t].busy = true;
            return (int32_t)t;
        }
    }
    int32_t t = fresh(a, "_t", &a->ntemp, *like);
    if (t < 0 || !grow(a, &a->tlist, &a->captl, (uint64_t)a->ntl + 1, 4))
        return -1;
    a->tlist[a->ntl++] = (uint32_t)t;
    a->rx[t].temp = a->rx[t].busy = true;
    return t;
}

int32_t kb_temp(A *a, ty_t t)
{
    bc_reg r = {0};
    r.type = t, r.kind = BC_REG_VALUE;
    return temp_like(a, &r);
}

int32_t kb_ptemp(A *a, const bc_reg *like)
{
    bc_reg r = {0};
    r.type = like->type, r.kind = BC_REG_PTR, r.space = like->space;
    r.flags = like->flags & BC_REGF_CONSTPTR;
    return temp_like(a, &r);
}

void kb_release(A *a, uint32_t reg)
{
    if (reg < a->k.nregs && a->rx[reg].temp)
        a->rx[reg].busy = false;
}

void kb_release_all(A *a)
{
    for (uint32_t i = 0; i < a->ntl; i++)
        a->rx[a->tlist[i]].busy = false;
}

typedef struct {
    ty_t t;
    uint32_t off;
} ckey;

static bool const_eq(const void *ctx, uint32_t reg, const void *key)
{
    const A *a = ctx;
    const ckey *k = key;
    const bc_reg *r = &a->k.regs[reg];
    return ty_eq(r->type, k->t) && r->arg == k->off;
}

/* Registers a constant register (any name) for reuse by kb_const. */
void kb_note_const(A *a, uint32_t reg)
{
    ckey k = {a->k.regs[reg].type, a->k.regs[reg].arg};
    uint32_t h = kb_hash(&k.off, 4, kb_hash(&k.t, sizeof k.t,
                                                  2166136261u));
    if (kb_map_find(&a->consts, h, const_eq, a, &k) < 0 &&
        !kb_map_add(&a->consts, h, reg))
        asm_oom(a);
}

int32_t kb_const(A *a, ty_t t, const uint64_t *elems)
{
    uint8_t bytes[128] = {0};
    unsigned es = ty_scalar_size(t.s);
    for (unsigned i = 0; i < t.n; i++)
        lit_store(bytes + i * es, (enum ty_scalar)t.s, elems[i]);
    uint32_t off = kb_pool(a, t, bytes);
    if (off == UINT32_MAX)
        return -1;
    ckey k = {t, off};
    uint32_t h = kb_hash(&k.off, 4, kb_hash(&k.t, sizeof k.t,
                                                  2166136261u));
    int64_t r = kb_map_find(&a->consts, h, const_eq, a, &k);
    if (r >= 0)
        return (int32_t)r;
    bc_reg reg = {0};
    reg.type = t, reg.kind = BC_REG_VALUE, reg.init = BC_INIT_CONST;
    reg.arg = off;
    int32_t n = fresh(a, "_k", &a->nconst, reg);
    if (n >= 0)
        kb_note_const(a, (uint32_t)n);
    return n;
}

int32_t kb_bcast(A *a, uint32_t param, ty_t t)
{
    for (uint32_t i = 0; i < a->nbl; i++) {
        const bc_reg *r = &a->k.regs[a->blist[i]];
        if (r->arg == param && ty_eq(r->type, t))
            return (int32_t)a->blist[i];
    }
    bc_reg reg = {0};
    reg.type = t, reg.kind = BC_REG_VALUE, reg.init = BC_INIT_PARAM;
    reg.arg = param;
    int32_t n = fresh(a, "_p", &a->nbcast, reg);
    if (n < 0 || !grow(a, &a->blist, &a->capbl, (uint64_t)a->nbl + 1, 4))
        return -1;
    a->blist[a->nbl++] = (uint32_t)n;
    return n;
}

/* ---- poisoned names: reported unknown once per kernel ---- */

static bool poison_eq(const void *ctx, uint32_t off, const void *key)
{
    return str_eq(ctx, off, key);
}

bool kb_poisoned(A *a, const char *name, size_t len)
{
    skey k = {name, len};
    uint32_t h = kb_hash(name, len, 2166136261u);
    if (kb_map_find(&a->poisoned, h, poison_eq, a, &k) >= 0)
        return true;
    if (!kb_map_add(&a->poisoned, h, kb_str(a, name, len)))
        asm_oom(a);
    return false;
}

/* A name no register has: the nearest that one has, or how to declare
 * it; once per kernel (the rest only fail). */
void kb_unknown(A *a, const node *n)
{
    if (kb_poisoned(a, n->name, n->nlen)) {
        a->failed = true;
        return;
    }
    const char **cand = malloc(sizeof *cand * (a->k.nregs ? a->k.nregs : 1));
    size_t nc = 0;
    for (uint32_t i = 0; cand && i < a->k.nregs && i < 4096; i++)
        if (!(a->k.regs[i].flags & BC_REGF_TEMP))
            cand[nc++] = kb_regname(a, i);
    const char *near = nc ? diag_nearest(n->name, n->nlen, cand, nc) : NULL;
    if (near)
        asm_error_node(a, n, "unknown register '%.*s'; did you mean '%s'?",
                       (int)n->nlen, n->name, near);
    else
        asm_error_node(a, n, "unknown register '%.*s' (declare it first: "
                       "TYPE %.*s)", (int)n->nlen, n->name, (int)n->nlen,
                       n->name);
    free(cand);
}

/* ---- code ---- */

uint32_t kb_pc(const A *a) { return a->k.ncode; }

void kb_patch(A *a, uint32_t at, uint32_t v)
{
    if (at < a->k.ncode)
        a->k.code[at] = v;
}

bool kb_emit(A *a, int op, unsigned n, unsigned flags, const uint32_t *w,
             unsigned nw)
{
    if (op < 0) {
        asm_error(a, 0, 0, "internal error: no opcode for this operation");
        return false;
    }
    bc_kernel *k = &a->k;
    if (!grow(a, &k->code, &a->capcode, (uint64_t)k->ncode + nw + 1, 4) ||
        !grow(a, &k->lines, &a->caplines, (uint64_t)k->nlines + 1,
              sizeof *k->lines))
        return false;
    /* One line entry per run of instructions from the same line. */
    if (!k->nlines || k->lines[k->nlines - 1].line != a->line)
        k->lines[k->nlines++] = (bc_line){k->ncode, a->line};
    k->code[k->ncode++] = BC_HDR(op, n, flags);
    for (unsigned i = 0; i < nw; i++)
        k->code[k->ncode++] = w[i];
    return true;
}

/* ---- externs and printf formats ---- */

int32_t kb_extern_find(const A *a, const char *s, size_t len)
{
    for (uint32_t i = 0; i < a->next; i++)
        if (strlen(a->extn[i]) == len && !memcmp(a->extn[i], s, len))
            return (int32_t)i;
    return -1;
}

bool kb_extern_add(A *a, const char *name, size_t len, bc_ctype ret,
                   unsigned np, const bc_ctype *params)
{
    if (a->next == a->capext) {
        uint32_t cap = a->capext ? a->capext * 2 : 8;
        bc_extern *nx = realloc(a->ext, cap * sizeof *nx);
        if (nx)
            a->ext = nx;
        char **nn = realloc(a->extn, cap * sizeof *nn);
        if (nn)
            a->extn = nn;
        if (!nx || !nn) {
            asm_oom(a);
            return false;
        }
        a->capext = cap;
    }
    bc_extern *x = &a->ext[a->next];
    *x = (bc_extern){0, ret, np, NULL};
    char *nm = strndup(name, len);
    if (!nm || (np && !(x->params = malloc(np * sizeof *x->params)))) {
        free(nm);
        asm_oom(a);
        return false;
    }
    if (np)
        memcpy(x->params, params, np * sizeof *params);
    a->extn[a->next++] = nm;
    return true;
}

void kb_format_add(A *a, uint32_t at, char *s, size_t len)
{
    if (a->nfmts == a->capfmts) {
        uint32_t cap = a->capfmts ? a->capfmts * 2 : 8;
        struct asm_fmt *nf = realloc(a->fmts, cap * sizeof *nf);
        if (!nf) {
            free(s);
            asm_oom(a);
            return;
        }
        a->fmts = nf, a->capfmts = cap;
    }
    a->fmts[a->nfmts++] = (struct asm_fmt){at, s, len};
}

/* The kernel's printf formats: interned and patched in (keep), or
 * dropped. */
static void formats_end(A *a, bool keep)
{
    for (uint32_t i = 0; i < a->nfmts; i++) {
        struct asm_fmt *f = &a->fmts[i];
        if (keep)
            kb_patch(a, f->at, f->len ? kb_str(a, f->s, f->len) : 0);
        free(f->s);
    }
    a->nfmts = 0;
}

static void externs_free(A *a)
{
    for (uint32_t i = 0; i < a->next; i++) {
        free(a->extn[i]);
        if (a->ext)
            free(a->ext[i].params);
    }
    free(a->ext), free(a->extn);
    a->ext = NULL, a->extn = NULL, a->next = a->capext = 0;
    formats_end(a, false);
    free(a->fmts), a->fmts = NULL, a->capfmts = 0;
}

/* The externs, named, into out. */
static void externs_take(A *a, bc_module *out)
{
    for (uint32_t i = 0; i < a->next; i++)
        a->ext[i].name = kb_str(a, a->extn[i], strlen(a->extn[i]));
    out->nexterns = a->next, out->externs = a->ext;
    a->ext = NULL;
    externs_free(a);
}

/* ---- kernels ---- */

static void kernel_reset(A *a)
{
    memset(&a->k, 0, sizeof a->k);
    a->capparams = a->capregs = a->capcode = a->caplines = 0;
    free(a->rx), a->rx = NULL, a->caprx = 0;
    kb_map_clear(&a->names);
    kb_map_clear(&a->consts);
    kb_map_clear(&a->poisoned);
    a->ntemp = a->nconst = a->nbcast = 0;
    free(a->tlist), a->tlist = NULL, a->ntl = a->captl = 0;
    free(a->blist), a->blist = NULL, a->nbl = a->capbl = 0;
    for (uint32_t i = 0; i < a->nblocks; i++)
        free(a->blocks[i].text);
    a->nblocks = 0;
    free(a->ktext), a->ktext = NULL;
    a->in_kernel = false;
}

bool kb_kernel_begin(A *a, const char *name, size_t len, uint32_t line)
{
    kernel_reset(a);
    a->in_kernel = true;
    a->k.name = kb_str(a, name, len);
    a->k.line = a->kline = line;
    return true;
}

void kb_kernel_drop(A *a)
{
    formats_end(a, false);
    free(a->k.params);
    free(a->k.regs);
    free(a->k.code);
    free(a->k.lines);
    kernel_reset(a);
}

bool kb_kernel_end(A *a)
{
    formats_end(a, true);
    if (!grow(a, &a->kernels, &a->capkernels, (uint64_t)a->nkernels + 1,
              sizeof *a->kernels)) {
        kb_kernel_drop(a);
        return false;
    }
    a->kernels[a->nkernels++] = a->k;
    kernel_reset(a);
    return true;
}

void kb_module_free(A *a)
{
    if (a->in_kernel)
        kb_kernel_drop(a);
    kernel_reset(a);
    for (uint32_t i = 0; i < a->nkernels; i++) {
        bc_kernel *k = &a->kernels[i];
        free(k->params), free(k->regs), free(k->code), free(k->lines);
    }
    free(a->kernels), a->kernels = NULL, a->nkernels = a->capkernels = 0;
    externs_free(a);
    free(a->str), a->str = NULL, a->nstr = a->capstr = 0;
    free(a->pool), a->pool = NULL, a->npool = a->cappool = 0;
    free(a->pent), a->pent = NULL, a->npent = a->cappent = 0;
    kb_map_clear(&a->strmap);
    kb_map_clear(&a->poolmap);
    free(a->blocks), a->blocks = NULL, a->capblocks = 0;
}

bool kb_module_take(A *a, bc_module *out)
{
    const char *src = a->source ? a->source : a->filename;
    memset(out, 0, sizeof *out);
    out->source = kb_str(a, src, strlen(src));
    if (a->nerr)
        return false;
    externs_take(a, out);   /* interns their names: first */
    out->nkernels = a->nkernels, out->kernels = a->kernels;
    out->nconst = a->npool, out->consts = a->pool;
    out->nstrings = a->nstr, out->strings = a->str;
    a->kernels = NULL, a->nkernels = a->capkernels = 0;
    a->pool = NULL, a->npool = a->cappool = 0;
    a->str = NULL, a->nstr = a->capstr = 0;
    return true;
}
