/* The SPIR-V reader: checks a module's words (header, every instruction's
 * word count, ids below the bound and defined once, strings terminated
 * inside their instruction, functions made of blocks that end in one
 * terminator) and indexes them: definitions, names, decorations, entry
 * points, functions. Nothing is read before it is checked. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"

/* The one external definition of the header's inline function. */
extern inline void SpvHasResultAndType(SpvOp opcode, bool *hasResult,
                                       bool *hasResultType);

void spv_result(uint32_t op, bool *res, bool *rtype)
{
    SpvHasResultAndType((SpvOp)op, res, rtype);
}

uint32_t spv_line_before(spv_mod *m, const spv_func *f, uint32_t at)
{
    uint32_t line = 0;
    for (uint32_t i = f->at; i < at && i < m->nw; i += spv_wc(m, i))
        if (spv_op(m, i) == SpvOpLine)
            line = spv_word(m, i, 2);
    return line;
}

const char *spv_source(const spv_mod *m)
{
    size_t nl = strlen(m->name);
    if (nl > 3 && !strcmp(m->name + nl - 3, ".cl"))
        return m->name;   /* as the user named it (clang's is absolute) */
    return m->source ? m->source : m->name;
}

void spv_fail_line(spv_mod *m, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(m->diag, "%s:%u: error: ", spv_source(m), line);
    vfprintf(m->diag, fmt, ap);
    fputc('\n', m->diag);
    va_end(ap);
    m->nerr++;
    longjmp(*m->fail, 1);
}

void spv_fail(spv_mod *m, uint32_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(m->diag, "%s: word %u: error: ", m->name, at);
    vfprintf(m->diag, fmt, ap);
    fputc('\n', m->diag);
    va_end(ap);
    m->nerr++;
    longjmp(*m->fail, 1);
}

uint32_t spv_op(const spv_mod *m, uint32_t at) { return m->w[at] & 0xffffu; }
uint32_t spv_wc(const spv_mod *m, uint32_t at) { return m->w[at] >> 16; }

uint32_t spv_word(spv_mod *m, uint32_t at, uint32_t i)
{
    if (i >= spv_wc(m, at))
        spv_fail(m, at, "instruction (opcode %u) has %u words, operand word "
                 "%u is missing", spv_op(m, at), spv_wc(m, at), i);
    return m->w[at + i];
}

uint32_t spv_id(spv_mod *m, uint32_t at, uint32_t i)
{
    uint32_t id = spv_word(m, at, i);
    if (id == 0 || id >= m->bound || !m->def[id])
        spv_fail(m, at, "operand word %u: id %u is not defined", i, id);
    return id;
}

const char *spv_str(spv_mod *m, uint32_t at, uint32_t i, uint32_t *next)
{
    uint32_t wc = spv_wc(m, at);
    const char *s = (const char *)(m->w + at + i);
    size_t room = i < wc ? (size_t)(wc - i) * 4 : 0;
    const char *z = room ? memchr(s, 0, room) : NULL;
    if (!z)
        spv_fail(m, at, "string operand at word %u is not terminated inside "
                 "the instruction", i);
    if (next)
        *next = i + (uint32_t)((size_t)(z - s) / 4) + 1;
    return s;
}

const spv_func *spv_func_of(spv_mod *m, uint32_t at, uint32_t id)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].id == id)
            return &m->funcs[i];
    spv_fail(m, at, "id %u is not a function", id);
}

static void *grow(spv_mod *m, void *p, uint32_t n, size_t sz)
{
    /* Doubling at powers of two: n is the count before the new element. */
    if (n >= (1u << 26))
        spv_fail(m, 0, "more than %u functions, blocks or entry points",
                 1u << 26);
    if (n & (n - 1))
        return p;
    void *q = realloc(p, (n ? 2 * (size_t)n : 1) * sz);
    if (!q)
        spv_fail(m, 0, "out of memory");
    return q;
}

static void decorate(spv_mod *m, uint32_t at)
{
    uint32_t id = spv_word(m, at, 1), d = spv_word(m, at, 2);
    if (id >= m->bound)
        spv_fail(m, at, "decoration of id %u beyond the bound %u", id,
                 m->bound);
    spv_deco *x = &m->deco[id];
    if (d == SpvDecorationBuiltIn)
        x->builtin = (int32_t)(spv_word(m, at, 3) & 0x7fffffff);
    else if (d == SpvDecorationFPRoundingMode) {
        uint32_t r = spv_word(m, at, 3);
        if (r > 3)
            spv_fail(m, at, "FPRoundingMode %u is not one of RTE, RTZ, RTP, "
                     "RTN", r);
        x->rnd = (int8_t)r;
    } else if (d == SpvDecorationSaturatedConversion) {
        x->sat = true;
    } else if (d == SpvDecorationNoSignedWrap) {
        x->nsw = true;
    } else if (d == SpvDecorationCPacked) {
        x->packed = true;
    } else if (d == SpvDecorationAlignment) {
        uint32_t a = spv_word(m, at, 3);
        if (!a || (a & (a - 1)))
            spv_fail(m, at, "Alignment %u is not a power of two", a);
        x->align = a;
    } else if (d == SpvDecorationFuncParamAttr && spv_wc(m, at) > 3 &&
               spv_word(m, at, 3) == SpvFunctionParameterAttributeByVal) {
        x->byval = true;
    }
}

/* An instruction of the module's preamble, before the first function. */
static void preamble(spv_mod *m, uint32_t at, uint32_t op)
{
    uint32_t next;
    switch (op) {
    case SpvOpName: {
        uint32_t id = spv_word(m, at, 1);
        const char *s = spv_str(m, at, 2, NULL);
        if (id < m->bound)
            m->names[id] = s;
        break;
    }
    case SpvOpExtInstImport: {
        const char *s = spv_str(m, at, 2, NULL);
        uint32_t id = spv_word(m, at, 1);
        m->extset[id] = !strcmp(s, "OpenCL.std") ? SE_OCL
                        : !strcmp(s, "OpenCL.DebugInfo.100") ||
                          !strncmp(s, "NonSemantic.", 12) ? SE_SKIP
                        : SE_OTHER;
        break;
    }
    case SpvOpEntryPoint:
        if (spv_word(m, at, 1) == SpvExecutionModelKernel) {
            m->entries = grow(m, m->entries, m->nentries, sizeof *m->entries);
            m->entries[m->nentries++] = (spv_entry){
                spv_word(m, at, 2), spv_str(m, at, 3, &next), at, {0}};
        }
        break;
    case SpvOpExecutionMode:
        if (spv_word(m, at, 2) == SpvExecutionModeContractionOff)
            m->contract_off = true;
        if (spv_word(m, at, 2) == SpvExecutionModeLocalSize &&
            spv_wc(m, at) >= 6)
            for (uint32_t i = 0; i < m->nentries; i++)
                if (m->entries[i].func == spv_word(m, at, 1))
                    for (uint32_t d = 0; d < 3; d++)
                        m->entries[i].reqd[d] = spv_word(m, at, 3 + d);
        break;
    case SpvOpDecorate:
        decorate(m, at);
        break;
    case SpvOpMemberDecorate:   /* types.c checks the offsets */
        if (spv_word(m, at, 3) == SpvDecorationOffset &&
            spv_word(m, at, 1) < m->bound)
            m->deco[spv_word(m, at, 1)].offsets = true;
        break;
    }
}

/* The function whose OpFunction is at `at`: its parameters and blocks,
 * up to its OpFunctionEnd; returns the offset after it. */
static uint32_t function(spv_mod *m, uint32_t at)
{
    m->funcs = grow(m, m->funcs, m->nfuncs, sizeof *m->funcs);
    spv_func *f = &m->funcs[m->nfuncs++];
    memset(f, 0, sizeof *f);
    f->id = spv_word(m, at, 2);
    f->at = at;
    bool inblock = false;
    for (at += spv_wc(m, at); at < m->nw; at += spv_wc(m, at)) {
        uint32_t op = spv_op(m, at);
        if (op == SpvOpFunctionEnd) {
            if (inblock)
                spv_fail(m, at, "the last block of the function has no "
                         "terminator");
            /* a declaration (Import linkage): refused where it is
             * called, with its name and line */
            return at + spv_wc(m, at);
        }
        if (op == SpvOpFunctionParameter) {
            if (f->nblocks)
                spv_fail(m, at, "OpFunctionParameter after the first block");
            f->params = grow(m, f->params, f->nparams, sizeof *f->params);
            f->params[f->nparams++] = spv_word(m, at, 2);
        } else if (op == SpvOpLabel) {
            if (inblock)
                spv_fail(m, at, "OpLabel inside a block (the previous block "
                         "has no terminator)");
            f->blocks = grow(m, f->blocks, f->nblocks, sizeof *f->blocks);
            f->blocks[f->nblocks++] = (spv_block){spv_word(m, at, 1),
                                                  at + spv_wc(m, at), 0};
            inblock = true;
        } else if (op >= SpvOpBranch && op <= SpvOpUnreachable) {
            if (!inblock)
                spv_fail(m, at, "a terminator outside a block");
            f->blocks[f->nblocks - 1].term = at;
            inblock = false;
        } else if (!inblock && op != SpvOpLine && op != SpvOpNoLine) {
            spv_fail(m, at, "instruction (opcode %u) outside a block", op);
        }
    }
    spv_fail(m, at, "function %u has no OpFunctionEnd", f->id);
}

/* Records the id that the instruction at `at` defines, if any. */
static void define(spv_mod *m, uint32_t at, uint32_t op)
{
    bool res = false, rtype = false;
    SpvHasResultAndType((SpvOp)op, &res, &rtype);
    if (!res)
        return;
    uint32_t id = spv_word(m, at, rtype ? 2 : 1);
    if (id == 0 || id >= m->bound)
        spv_fail(m, at, "result id %u is outside 1..%u", id, m->bound - 1);
    if (m->def[id])
        spv_fail(m, at, "id %u is defined twice (first at word %u)", id,
                 m->def[id]);
    if (rtype && spv_word(m, at, 1) >= m->bound)
        spv_fail(m, at, "result type id %u is outside the bound",
                 spv_word(m, at, 1));
    m->def[id] = at;
}

static void *table(spv_mod *m, size_t n, size_t sz)
{
    void *p = calloc(n, sz);
    if (!p)
        spv_fail(m, 0, "out of memory");
    return p;
}

void spv_read(spv_mod *m)
{
    if (m->nw < 5 || m->w[0] != SPV_MAGIC)
        spv_fail(m, 0, "not a SPIR-V module (no magic number 0x07230203)");
    m->bound = m->w[3];
    /* Every id is defined by an instruction of at least two words: a
     * bound far beyond the module's size only costs memory. */
    if (m->bound < 1 || m->bound > SPV_MAX_BOUND ||
        m->bound > m->nw + 1024)
        spv_fail(m, 3, "id bound %u is outside 1..%u", m->bound,
                 m->nw + 1024 < SPV_MAX_BOUND ? m->nw + 1024 : SPV_MAX_BOUND);
    m->def = table(m, m->bound, sizeof *m->def);
    m->names = table(m, m->bound, sizeof *m->names);
    m->deco = table(m, m->bound, sizeof *m->deco);
    m->types = table(m, m->bound, sizeof *m->types);
    m->cidx = table(m, m->bound, sizeof *m->cidx);
    m->extset = table(m, m->bound, 1);
    for (uint32_t i = 0; i < m->bound; i++)
        m->deco[i] = (spv_deco){.builtin = -1, .rnd = -1}, m->cidx[i] = -1;
    /* Every instruction's extent and definitions first: decorations and
     * names may name ids defined later. */
    for (uint32_t at = 5; at < m->nw; at += spv_wc(m, at)) {
        uint32_t wc = spv_wc(m, at);
        if (wc == 0 || wc > m->nw - at)
            spv_fail(m, at, "instruction word count %u runs past the end of "
                     "the module (%u words)", wc, m->nw);
        define(m, at, spv_op(m, at));
    }
    uint32_t at = 5;
    for (; at < m->nw && spv_op(m, at) != SpvOpFunction; at += spv_wc(m, at))
        preamble(m, at, spv_op(m, at));
    m->globals_end = at;
    while (at < m->nw) {
        if (spv_op(m, at) != SpvOpFunction)
            spv_fail(m, at, "instruction (opcode %u) between functions",
                     spv_op(m, at));
        at = function(m, at);
    }
    for (uint32_t i = 0; i < m->nentries; i++)
        spv_func_of(m, m->entries[i].at, m->entries[i].func);
}

const char *spv_argtypes(spv_mod *m, const char *name, bool qual)
{
    const char *pre = qual ? "kernel_arg_type_qual." : "kernel_arg_type.";
    size_t pl = strlen(pre), nl = strlen(name);
    for (uint32_t at = 5; at < m->globals_end; at += spv_wc(m, at)) {
        if (spv_op(m, at) != SpvOpString)
            continue;
        const char *s = spv_str(m, at, 2, NULL);
        if (!strncmp(s, pre, pl) && !strncmp(s + pl, name, nl) &&
            s[pl + nl] == '.')
            return s + pl + nl + 1;
    }
    return "";
}

void spv_mod_free(spv_mod *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        free(m->funcs[i].params), free(m->funcs[i].blocks);
    free(m->funcs), free(m->entries), free(m->def), free(m->names);
    free(m->deco), free(m->types), free(m->cidx), free(m->consts);
    free(m->extset), free(m->fpc);
    memset(m, 0, sizeof *m);
}
