/* The verifier, one test per rule: each builds a module the verifier must
 * accept, breaks exactly one thing, and checks the rejection and its
 * message. Every rejected module is also written and read back, so bc_read
 * must reject it with the same message. */
#include <stdarg.h>
#include <string.h>

#include "stdlib/atomic.h"
#include "vm/bcfile.h"
#include "stdlib/round.h"
#include "tests/lib/test.h"

/* ---- a tiny module builder ---- */

static bc_module m;

static void *grow(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static uint32_t str(const char *s)
{
    uint32_t off = m.nstrings, len = (uint32_t)strlen(s) + 1;
    m.strings = grow(m.strings, m.nstrings + len);
    memcpy(m.strings + off, s, len);
    m.nstrings += len;
    return off;
}

static bc_kernel *K(void) { return &m.kernels[m.nkernels - 1]; }
static uint32_t *code(void) { return K()->code; }

static void kernel(const char *name)
{
    uint32_t nm = str(name);
    m.kernels = grow(m.kernels, (m.nkernels + 1) * sizeof *m.kernels);
    m.kernels[m.nkernels] = (bc_kernel){.name = nm};
    m.nkernels++;
}

static void begin(void)
{
    bc_free(&m);
    str("");
    m.source = str("test.cl");
    kernel("k");
}

static ty_t ty(const char *s)
{
    ty_t t;
    if (!ty_parse(s, strlen(s), &t))
        abort();
    return t;
}

static uint32_t reg(const char *type, int kind, int space, int init,
                    uint32_t arg, int flags)
{
    bc_kernel *k = K();
    char name[16];
    snprintf(name, sizeof name, "r%u", k->nregs);
    uint32_t nm = str(name);
    k->regs = grow(k->regs, (k->nregs + 1) * sizeof *k->regs);
    k->regs[k->nregs] = (bc_reg){nm, ty(type), (uint8_t)kind, (uint8_t)space,
                                 (uint8_t)init, (uint8_t)flags, arg};
    return k->nregs++;
}

static uint32_t val(const char *type)
{
    return reg(type, BC_REG_VALUE, 0, BC_INIT_NONE, 0, 0);
}

static uint32_t ptr(int space, const char *type)
{
    return reg(type, BC_REG_PTR, space, BC_INIT_NONE, 0, 0);
}

/* Makes register r the kernel's next parameter. */
static uint32_t param(uint32_t r)
{
    bc_kernel *k = K();
    uint32_t nm = str("p");
    k->params = grow(k->params, (k->nparams + 1) * sizeof *k->params);
    k->params[k->nparams] = (bc_param){nm, r, {0, 0, 0, 0}};
    k->regs[r].init = BC_INIT_PARAM;
    k->regs[r].arg = k->nparams;
    return k->nparams++;
}

/* A register initialised from nbytes of fresh (zero) pool bytes. */
static uint32_t konst(const char *type, uint32_t nbytes)
{
    uint32_t off = m.nconst;
    m.consts = grow(m.consts, m.nconst + nbytes);
    memset(m.consts + off, 0, nbytes);
    m.nconst += nbytes;
    return reg(type, BC_REG_VALUE, 0, BC_INIT_CONST, off, 0);
}

static uint32_t array(int space, const char *type, uint32_t count)
{
    return reg(type, BC_REG_PTR, space, BC_INIT_ARRAY, count, 0);
}

/* Emits an instruction; its operand words follow flags. Returns its pc. */
static uint32_t emit(unsigned op, unsigned n, unsigned flags, ...)
{
    bc_kernel *k = K();
    uint32_t h = BC_HDR(op, n, flags), pc = k->ncode;
    unsigned words = bc_ins_words(h);
    va_list ap;
    k->code = grow(k->code, (k->ncode + words) * sizeof *k->code);
    k->code[k->ncode++] = h;
    va_start(ap, flags);
    for (unsigned i = 1; i < words; i++)
        k->code[k->ncode++] = va_arg(ap, unsigned);
    va_end(ap);
    return pc;
}

static void ret(void) { emit(BC_RET, 1, 0); }

static void line(uint32_t pc, uint32_t ln)
{
    bc_kernel *k = K();
    k->lines = grow(k->lines, (k->nlines + 1) * sizeof *k->lines);
    k->lines[k->nlines++] = (bc_line){pc, ln};
}

/* Structured code from words: if else end loop endloop break cont brkif
 * ret nop. The jumps are set by this test's own reckoning; pcs[i] is the
 * pc of the i-th word. Condition registers: the first int register. */
static uint32_t pcs[64];

/* Points the jump of the opener at o to pc. */
static void patch(uint32_t o, uint32_t pc)
{
    code()[o + (BC_OPCODE(code()[o]) == BC_IF_B32 ? 2 : 1)] = pc;
}

static void flow(const char *prog)
{
    uint32_t c = val("int"), x = val("int"), open[32];
    unsigned depth = 0, i = 0;
    char word[16];
    for (const char *p = prog; sscanf(p, "%15s", word) == 1; i++) {
        p = strstr(p, word) + strlen(word);
        uint32_t pc = K()->ncode;
        pcs[i] = pc;
        if (!strcmp(word, "if")) {
            emit(BC_IF_B32, 1, 0, c, 0);
            open[depth++] = pc;
        } else if (!strcmp(word, "else")) {
            if (depth)
                patch(open[depth - 1], pc);
            emit(BC_ELSE, 1, 0, 0);
            if (depth)
                open[depth - 1] = pc;
        } else if (!strcmp(word, "end")) {
            if (depth)
                patch(open[--depth], pc);
            emit(BC_ENDIF, 1, 0);
        } else if (!strcmp(word, "loop")) {
            emit(BC_LOOP, 1, 0, 0);
            open[depth++] = pc;
        } else if (!strcmp(word, "endloop")) {
            bool in = depth > 0;
            uint32_t o = in ? open[--depth] : 0;
            if (in)
                patch(o, pc);
            emit(BC_ENDLOOP, 1, 0, o + 2);
        } else if (!strcmp(word, "break")) {
            emit(BC_BREAK, 1, 0);
        } else if (!strcmp(word, "cont")) {
            emit(BC_CONT, 1, 0);
        } else if (!strcmp(word, "brkif")) {
            emit(BC_BRKIF_B32, 1, 0, c);
        } else if (!strcmp(word, "block")) {
            emit(BC_BLOCK, 1, 0, 0);
            open[depth++] = pc;
        } else if (!strcmp(word, "endblock")) {
            if (depth)
                patch(open[--depth], pc);
            emit(BC_ENDBLOCK, 1, 0);
        } else if (!strncmp(word, "brkto", 5) || !strncmp(word, "contto", 6)) {
            /* brktoK, brktoifK, conttoK: to the opener open[K] */
            unsigned k = (unsigned)(word[strlen(word) - 1] - '0');
            uint32_t j = k < depth ? open[k] : 0;
            if (!strncmp(word, "brktoif", 7))
                emit(BC_BRKTOIF_B32, 1, 0, c, j);
            else
                emit(word[0] == 'b' ? BC_BRKTO : BC_CONTTO, 1, 0, j);
        } else if (!strcmp(word, "ret")) {
            ret();
        } else if (!strcmp(word, "nop")) {
            emit(BC_ADD_B32, 1, 0, x, x, x);
        } else {
            abort();
        }
    }
}

/* ---- checking ---- */

static char err[512];

/* bc_read of the written module must agree with bc_verify. */
static int reread(char *e, size_t elen)
{
    uint8_t *buf;
    size_t len;
    bc_module r;
    if (bc_write(&m, &buf, &len))
        return 2;
    int rc = bc_read(buf, len, &r, e, elen);
    free(buf);
    bc_free(&r);
    return rc ? 1 : 0;
}

#define OK()                                                               \
    do {                                                                   \
        int rc_ = bc_verify(&m, err, sizeof err);                          \
        CHECK(rc_ == 0, "rejected: %s", err);                              \
        CHECK(reread(err, sizeof err) == 0, "bc_read rejected: %s", err);  \
    } while (0)

#define BAD(want)                                                          \
    do {                                                                   \
        int rc_ = bc_verify(&m, err, sizeof err);                          \
        CHECK(rc_ != 0 && strstr(err, want), "want \"%s\", got %s \"%s\"", \
              want, rc_ ? "rejection" : "acceptance", rc_ ? err : "");     \
        char e2_[512];                                                     \
        int rr_ = reread(e2_, sizeof e2_);                                 \
        CHECK(rr_ == 2 || (rr_ == 1 && !strcmp(e2_, err)),                 \
              "bc_read says \"%s\"", rr_ ? e2_ : "(accepted)");            \
    } while (0)

/* ---- module ---- */

static void full_message(void)
{
    begin();
    m.kernels[0].name = str("saxpy");
    uint32_t x = val("float4");
    for (int i = 0; i < 6; i++)
        val("float4");
    uint32_t y = val("float2");                       /* register 7 */
    emit(BC_ADD_F32, 4, 0, x, x, x);                  /* pc 0 */
    for (int i = 0; i < 2; i++)
        emit(BC_MUL_F32, 4, 0, x, x, x);              /* pc 4, 8 */
    uint32_t pc = emit(BC_ADD_F32, 4, 0, x, x, x);    /* pc 12 */
    ret();
    OK();
    code()[pc + 2] = y;
    BAD("kernel 'saxpy' pc 12: ADD_F32 operand 2: register 7 is float2, "
        "needs 4 components");
    CHECK(!strcmp(err, "kernel 'saxpy' pc 12: ADD_F32 operand 2: register 7 "
                       "is float2, needs 4 components"), "%s", err);
}

static void string_table(void)
{
    begin();
    ret();
    OK();
    m.strings[0] = 'x';
    BAD("string table does not start with \"\"");
    m.strings[0] = 0;
    m.strings[m.nstrings - 1] = 'x';
    BAD("string table does not end with a NUL");
    m.strings[m.nstrings - 1] = 0;
    uint32_t n = m.nstrings;
    m.nstrings = 0;
    BAD("string table is empty");
    m.nstrings = n;
    OK();
}

static void module_arrays(void)
{
    begin();
    ret();
    bc_kernel *ks = m.kernels;
    m.kernels = NULL;
    BAD("1 kernels but no kernel array");
    m.kernels = ks;
    m.nconst = 4;
    BAD("constant pool of 4 bytes has no data");
    m.nconst = 0;
    OK();
}

static void source_name(void)
{
    begin();
    ret();
    m.source = m.nstrings - 1;
    OK();
    m.source = m.nstrings;
    BAD("source file name at string offset");
}

static void duplicate_kernels(void)
{
    begin();
    ret();
    kernel("a");
    ret();
    kernel("b");
    ret();
    OK();
    m.kernels[2].name = m.kernels[0].name;
    BAD("two kernels are named 'k'");
}

static void verify_kernel_api(void)
{
    bc_facts f;
    begin();
    ret();
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0, "%s", err);
    CHECK(bc_verify_kernel(&m, 0, NULL, err, sizeof err) == 0, "%s", err);
    CHECK(bc_verify_kernel(&m, 1, &f, err, sizeof err) != 0 &&
              strstr(err, "no kernel 1"), "%s", err);
    m.strings[0] = 'x';
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) != 0 &&
              strstr(err, "string table"), "%s", err);
    m.strings[0] = 0;
    /* A tiny error buffer is never overrun (ASan would see it). */
    char small[8];
    code()[0] = 0xffff;
    CHECK(bc_verify(&m, small, sizeof small) != 0 && strlen(small) == 7,
          "%s", small);
    CHECK(bc_verify(&m, small, 1) != 0 && small[0] == 0, "len 1");
    CHECK(bc_verify(&m, NULL, 0) != 0, "no buffer");
}

/* ---- kernel ---- */

static void kernel_name(void)
{
    begin();
    ret();
    m.kernels[0].name = m.nstrings + 5;
    BAD("kernel 0: name at string offset");
    m.kernels[0].name = 0;
    BAD("kernel 0: empty kernel name");
}

static void kernel_arrays(void)
{
    begin();
    val("int");
    ret();
    line(0, 1);
    OK();
    bc_reg *r = K()->regs;
    K()->regs = NULL;
    BAD("a count without its array");
    K()->regs = r;
    uint32_t *c = K()->code;
    K()->code = NULL;
    BAD("a count without its array");
    K()->code = c;
    bc_line *l = K()->lines;
    K()->lines = NULL;
    BAD("a count without its array");
    K()->lines = l;
    K()->nparams = 1;
    BAD("a count without its array");
    K()->nparams = 0;
    OK();
}

static void register_limit(void)
{
    begin();
    K()->regs = calloc(BC_MAX_REGS + 1, sizeof *K()->regs);
    for (uint32_t i = 0; i <= BC_MAX_REGS; i++)
        K()->regs[i] = (bc_reg){0, {TY_INT, 1}, 0, 0, 0, 0, 0};
    K()->nregs = BC_MAX_REGS;
    ret();
    OK();
    K()->nregs = BC_MAX_REGS + 1;
    BAD("65537 registers (at most 65536)");
}

/* ---- parameters ---- */

static void param_name(void)
{
    begin();
    param(val("int"));
    ret();
    OK();
    K()->params[0].name = m.nstrings;
    BAD("param 0: name at string offset");
}

static void param_register(void)
{
    begin();
    param(val("int"));
    ret();
    K()->params[0].reg = 9;
    BAD("param 0: register 9 out of range (1 registers)");
    /* Naming a register that does not come from a parameter. */
    begin();
    uint32_t a = val("int");
    param(a);
    K()->regs[a].init = BC_INIT_NONE;
    K()->regs[a].arg = 0;
    ret();
    BAD("param 0: register 0 is not initialised from param 0");
    /* Two params swapped. */
    begin();
    uint32_t x = val("int"), y = val("int");
    param(x);
    param(y);
    ret();
    OK();
    K()->regs[x].arg = 1;
    K()->regs[y].arg = 0;
    BAD("param 0: register 0 is not initialised from param 0");
}

/* A struct by value: a constant pointer with its size, alignment, type
 * name and member layout; each rule refuses its own breach. */
static void byval_param(void)
{
    begin();
    uint32_t s = ptr(BC_CONSTANT, "uchar");
    param(s);
    ret();
    bc_byval good = {8, 4, str("struct S"), str("{0:int,{4:short,6:short}}")};
    bc_byval *b = &K()->params[0].byval;
    *b = good;
    OK();
    b->size = 0;   /* in memory only: the file has no record then */
    CHECK(bc_verify(&m, err, sizeof err) && strstr(err, "param 0: by-value "
          "fields without a size"), "%s", err);
    *b = good, K()->regs[s].space = BC_GLOBAL;
    BAD("param 0: passed by value, but not a constant pointer");
    K()->regs[s].space = BC_CONSTANT, b->size = BC_MAX_BYVAL + 4;
    BAD("passed by value: 65540 bytes (at most 65536)");
    *b = good, b->align = 3;
    BAD("passed by value: alignment 3 for 8 bytes");
    b->align = 16;
    BAD("passed by value: alignment 16 for 8 bytes");
    *b = good, b->type = 1u << 30;
    BAD("type or layout string out of range");
    *b = good, b->type = str("a \"b");
    BAD("a type name of other than printable characters");
    *b = good, b->layout = str("{0:int,6:int}");
    BAD("a int at byte 6 is past the 8 bytes");
    b->layout = str("{0:int");
    BAD("unclosed '{'");
    b->layout = str("{0:quux}");
    BAD("'quux' is no type");
    b->layout = str("{}");
    BAD("expected an item");
    b->layout = str("{0:int}x");
    BAD("text after the layout");
    b->layout = str("{0:int 4:int}");
    BAD("unexpected ' '");
    b->layout = str("");
    OK();
}

/* ---- registers ---- */

static void register_name(void)
{
    begin();
    val("int");
    ret();
    K()->regs[0].name = m.nstrings;
    BAD("register 0: name at string offset");
}

static void register_type(void)
{
    begin();
    val("int");
    ret();
    K()->regs[0].type.s = TY_NSCALAR;
    BAD("register 0: bad element type 11");
    K()->regs[0].type.s = TY_DOUBLE;
    OK();
    static const unsigned badn[] = {0, 5, 6, 7, 9, 15, 17, 32, 255};
    for (unsigned i = 0; i < sizeof badn / sizeof badn[0]; i++) {
        K()->regs[0].type.n = (uint8_t)badn[i];
        BAD("is not a vector width");
    }
    K()->regs[0].type.n = 16;
    OK();
}

static void register_kind_space(void)
{
    begin();
    ptr(BC_PRIVATE, "int");
    ret();
    OK();
    K()->regs[0].kind = 2;
    BAD("register 0: bad kind 2");
    K()->regs[0].kind = BC_REG_PTR;
    K()->regs[0].space = 4;
    BAD("register 0: bad address space 4");
    K()->regs[0].kind = BC_REG_VALUE;
    K()->regs[0].space = 1;
    BAD("a value register with address space 1");
    K()->regs[0].space = 0;
    OK();
}

static void register_flags(void)
{
    begin();
    uint32_t p = ptr(BC_GLOBAL, "int"), v = val("int");
    ret();
    K()->regs[p].flags = BC_REGF_CONSTPTR | BC_REGF_TEMP;
    K()->regs[v].flags = BC_REGF_TEMP;
    OK();
    K()->regs[v].flags = 4;
    BAD("register 1: unknown flags 0x4");
    K()->regs[v].flags = BC_REGF_CONSTPTR;
    BAD("register 1: const-data flag on a value register");
}

static void register_init(void)
{
    begin();
    val("int");
    ret();
    K()->regs[0].init = 4;
    BAD("register 0: bad init 4");
    K()->regs[0].init = BC_INIT_NONE;
    K()->regs[0].arg = 3;
    BAD("register 0: no initial value, but arg 3");
}

static void register_param_init(void)
{
    begin();
    uint32_t a = val("int");
    param(a);
    ret();
    OK();
    uint32_t b = val("int");
    K()->regs[b].init = BC_INIT_PARAM;
    K()->regs[b].arg = 1;
    BAD("register 1: initialised from param 1, the kernel has 1");
    /* A second register from param 0: a copy or a broadcast of the
     * scalar is fine (the assembler's uniform operands), another type is
     * not. */
    K()->regs[b].arg = 0;
    OK();
    K()->regs[b].type.n = 4;
    OK();
    K()->regs[b].type.s = TY_FLOAT;
    BAD("register 1: initialised from param 0, which names register 0, "
        "not a value it can broadcast");
    /* Pointer parameters: global, constant and local, never private. */
    begin();
    uint32_t p = ptr(BC_GLOBAL, "float4");
    param(p);
    ret();
    static const int ok_spaces[] = {BC_GLOBAL, BC_CONSTANT, BC_LOCAL};
    for (int i = 0; i < 3; i++) {
        K()->regs[p].space = (uint8_t)ok_spaces[i];
        OK();
    }
    K()->regs[p].space = BC_PRIVATE;
    BAD("register 0: private float4* parameter");
}

static void register_const(void)
{
    begin();
    uint32_t a = konst("float4", 16), b = konst("char", 1);
    ret();
    OK();
    /* The last byte in range, then one past. */
    K()->regs[b].arg = 16;
    OK();
    K()->regs[b].arg = 17;
    BAD("register 1: char at pool offset 17 runs past the constant pool "
        "(17 bytes)");
    K()->regs[b].arg = 0;
    K()->regs[a].arg = 2;
    BAD("register 0: float4 at pool offset 2 runs past");
    /* No wrap-around in offset + size. */
    K()->regs[a].arg = UINT32_MAX - 8;
    BAD("runs past the constant pool");
    K()->regs[a].arg = 0;
    K()->regs[a].kind = BC_REG_PTR;
    K()->regs[a].space = BC_GLOBAL;
    BAD("register 0: global float4* from the constant pool");
}

static void register_array(void)
{
    begin();
    uint32_t a = array(BC_LOCAL, "float", 16);
    array(BC_PRIVATE, "int2", 3);
    ret();
    OK();
    K()->regs[a].arg = 0;
    BAD("register 0: array of 0 elements");
    K()->regs[a].arg = 1;
    K()->regs[a].space = BC_GLOBAL;
    BAD("register 0: global float* as an array");
    K()->regs[a].space = BC_CONSTANT;
    BAD("register 0: constant float* as an array");
    K()->regs[a].space = BC_LOCAL;
    K()->regs[a].kind = BC_REG_VALUE;
    K()->regs[a].space = 0;
    BAD("register 0: float as an array");
}

static void array_limits(void)
{
    bc_facts f;
    begin();
    /* Two local arrays exactly at the limit, then one byte more. */
    uint32_t a = array(BC_LOCAL, "uint4", BC_MAX_LOCAL / 32);
    uint32_t b = array(BC_LOCAL, "uchar", BC_MAX_LOCAL / 2);
    uint32_t c = array(BC_PRIVATE, "double16", BC_MAX_PRIVATE / 128);
    ret();
    OK();
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0 &&
              f.local_bytes == BC_MAX_LOCAL &&
              f.private_bytes == BC_MAX_PRIVATE, "facts %llu %llu",
          (unsigned long long)f.local_bytes,
          (unsigned long long)f.private_bytes);
    K()->regs[b].arg++;
    BAD("register 1: local arrays reach 67108865 bytes (at most 67108864 "
        "per work-group)");
    K()->regs[b].arg--;
    K()->regs[c].arg++;
    BAD("register 2: private arrays reach 1048704 bytes (at most 1048576 "
        "per work-item)");
    /* The largest count: 2^32-1 elements of 128 bytes, no overflow. */
    K()->regs[c].arg = UINT32_MAX;
    BAD("private arrays reach 549755813760 bytes");
    (void)a;
}

/* ---- instructions: encoding ---- */

static void bad_opcode(void)
{
    begin();
    ret();
    code()[0] = BC_HDR(BC_NOPS, 1, 0);
    BAD("kernel 'k' pc 0: bad opcode");
}

static void runs_past_end(void)
{
    begin();
    uint32_t a = val("int");
    emit(BC_ADD_B32, 1, 0, a, a, a);
    ret();
    OK();
    K()->ncode = 3;
    BAD("pc 0: ADD_B32 needs 4 words, the code has 3 left");
    /* A wide operand (z) also counts. */
    begin();
    uint32_t v = val("int4");
    emit(BC_SWZ_B32, 4, 0, v, v, 0x3210u, 0u);
    ret();
    OK();
    K()->ncode = 4;
    BAD("SWZ_B32 needs 5 words, the code has 4 left");
}

static void component_count(void)
{
    begin();
    uint32_t a = val("float3"), i = val("uint");
    uint32_t pc = emit(BC_ADD_F32, 3, 0, a, a, a);
    uint32_t pc2 = emit(BC_GID_B32, 1, 0, i, 0);
    ret();
    OK();
    static const unsigned badn[] = {0, 5, 7, 17, 255};
    for (unsigned k = 0; k < 5; k++) {
        code()[pc] = BC_HDR(BC_ADD_F32, badn[k], 0);
        BAD("ADD_F32: n = ");
        CHECK(strstr(err, "must be 1, 2, 3, 4, 8 or 16"), "%s", err);
    }
    code()[pc] = BC_HDR(BC_ADD_F32, 3, 0);
    code()[pc2] = BC_HDR(BC_GID_B32, 3, 0);
    BAD("GID_B32: n = 3, must be 1");
    code()[pc2] = BC_HDR(BC_GID_B32, 0, 0);
    BAD("GID_B32: n = 0, must be 1");
    code()[pc2] = BC_HDR(BC_GID_B32, 1, 0);
    code()[pc2 + 3] = BC_HDR(BC_RET, 2, 0);
    BAD("RET: n = 2, must be 1");
}

static void flags_used(void)
{
    begin();
    uint32_t a = val("int"), c = val("int"), f4 = val("float4");
    uint32_t ph = ptr(BC_GLOBAL, "half");
    uint32_t p0 = emit(BC_ADD_B32, 1, 0, a, a, a);
    uint32_t p1 = emit(BC_LOOP, 1, 0, 0);
    uint32_t p2 = emit(BC_BRKIF_B32, 1, BC_F_NOT, c);
    uint32_t p3 = emit(BC_ENDLOOP, 1, 0, 0);
    uint32_t p4 = emit(BC_VSTH_F32, 4, BC_F_ALIGNED | BC_F_RND, f4, a, ph);
    uint32_t p5 = emit(BC_VLDH, 4, BC_F_ALIGNED, f4, a, ph);
    ret();
    code()[p1 + 1] = p3;
    code()[p3 + 1] = p2;
    OK();
    code()[p0] = BC_HDR(BC_ADD_B32, 1, 1);
    BAD("ADD_B32: unused flag bits 0x1");
    code()[p0] = BC_HDR(BC_ADD_B32, 1, 0x80);
    BAD("ADD_B32: unused flag bits 0x80");
    code()[p0] = BC_HDR(BC_ADD_B32, 1, BC_F_SIGNED);  /* signed: its own */
    OK();
    code()[p0] = BC_HDR(BC_ADD_B32, 1, 0);
    code()[p2] = BC_HDR(BC_BRKIF_B32, 1, BC_F_NOT | BC_F_ALIGNED);
    BAD("BRKIF_B32: unused flag bits 0x1");
    code()[p2] = BC_HDR(BC_BRKIF_B32, 1, 0);
    code()[p4] = BC_HDR(BC_VSTH_F32, 4, 0x10 | BC_F_ALIGNED);
    BAD("VSTH_F32: unused flag bits 0x10");
    code()[p4] = BC_HDR(BC_VSTH_F32, 4, 0);
    code()[p5] = BC_HDR(BC_VLDH, 4, BC_F_RND);
    BAD("VLDH: unused flag bits 0xc");
    code()[p5] = BC_HDR(BC_VLDH, 4, 0);
    OK();
}

/* ---- instructions: operand types ---- */

static void register_range(void)
{
    begin();
    uint32_t a = val("int");
    uint32_t pc = emit(BC_ADD_B32, 1, 0, a, a, a);
    ret();
    code()[pc + 3] = 1;
    BAD("ADD_B32 operand 3: register 1 out of range (1 registers)");
    code()[pc + 3] = UINT32_MAX;
    BAD("register 4294967295 out of range");
}

/* T (and M, U, K): value, element size, count. */
static void letter_t(void)
{
    begin();
    uint32_t f4 = val("float4"), i4 = val("int4"), d4 = val("double4");
    uint32_t p = ptr(BC_GLOBAL, "float4"), f3 = val("float3");
    uint32_t pc = emit(BC_ADD_F32, 4, 0, f4, i4, f4);   /* sizes only */
    uint32_t pe = emit(BC_EQ_F32, 4, 0, i4, f4, f4);    /* M */
    uint32_t ps = emit(BC_SELECT_B32, 4, 0, f4, f4, f4, i4);  /* K */
    uint32_t pa = emit(BC_ABS_I32, 4, 0, i4, i4);       /* U */
    ret();
    OK();
    code()[pc + 2] = p;
    BAD("ADD_F32 operand 2: register 3 is global float4*, needs a value");
    code()[pc + 2] = d4;
    BAD("ADD_F32 operand 2: register 2 is double4, needs 4-byte elements");
    code()[pc + 2] = f3;
    BAD("ADD_F32 operand 2: register 4 is float3, needs 4 components");
    code()[pc + 2] = i4;
    code()[pe + 1] = f3;
    BAD("EQ_F32 operand 1: register 4 is float3, needs 4 components");
    code()[pe + 1] = i4;
    code()[ps + 4] = d4;
    BAD("SELECT_B32 operand 4: register 2 is double4, needs 4-byte elements");
    code()[ps + 4] = i4;
    code()[pa + 1] = f3;
    BAD("ABS_I32 operand 1: register 4 is float3, needs 4 components");
    code()[pa + 1] = i4;
    /* n = 1 means scalar registers. */
    begin();
    uint32_t s = val("float"), v2 = val("float2");
    pc = emit(BC_MUL_F32, 1, 0, s, s, s);
    ret();
    OK();
    code()[pc + 1] = v2;
    BAD("register 1 is float2, needs 1 component");
}

/* E and C: scalar of the op's element size. */
static void letter_e_c(void)
{
    begin();
    uint32_t v = val("uint4"), s = val("uint"), s2 = val("uint2");
    uint32_t l = val("ulong");
    uint32_t pc = emit(BC_SPLAT_B32, 4, 0, v, s);
    uint32_t pi = emit(BC_IF_B32, 1, 0, s, 0);
    uint32_t pe = emit(BC_ENDIF, 1, 0);
    ret();
    code()[pi + 2] = pe;
    OK();
    code()[pc + 2] = s2;
    BAD("SPLAT_B32 operand 2: register 2 is uint2, needs a scalar");
    code()[pc + 2] = l;
    BAD("SPLAT_B32 operand 2: register 3 is ulong, needs 4-byte elements");
    code()[pc + 2] = s;
    code()[pi + 1] = s2;
    BAD("IF_B32 operand 1: register 2 is uint2, needs a scalar");
    code()[pi + 1] = l;
    BAD("IF_B32 operand 1: register 3 is ulong, needs 4-byte elements");
    code()[pi] = BC_HDR(BC_IF_B64, 1, 0);
    OK();
}

/* I: scalar integer of any size. */
static void letter_i(void)
{
    begin();
    uint32_t d = val("float"), p = ptr(BC_GLOBAL, "float");
    uint32_t i8 = val("char"), i64 = val("ulong"), f = val("float");
    uint32_t h = val("half"), v = val("int2");
    uint32_t pc = emit(BC_LD_B32, 1, 0, d, p, i8);
    ret();
    OK();
    code()[pc + 3] = i64;
    OK();
    code()[pc + 3] = f;
    BAD("LD_B32 operand 3: register 4 is float, needs an integer");
    code()[pc + 3] = h;
    BAD("register 5 is half, needs an integer");
    code()[pc + 3] = v;
    BAD("register 6 is int2, needs a scalar");
    code()[pc + 3] = p;
    BAD("register 1 is global float*, needs a value");
}

/* P: a pointer to the op's element size; H: a pointer to half. */
static void letter_p_h(void)
{
    begin();
    uint32_t d = val("float"), p = ptr(BC_GLOBAL, "float"), i = val("int");
    uint32_t pd = ptr(BC_GLOBAL, "double"), f4 = val("float4");
    uint32_t ph = ptr(BC_GLOBAL, "half"), ph2 = ptr(BC_GLOBAL, "half2");
    uint32_t pi = ptr(BC_GLOBAL, "int");
    uint32_t pc = emit(BC_LD_B32, 1, 0, d, p, i);
    uint32_t pv = emit(BC_VLDH, 4, 0, f4, i, ph);
    ret();
    OK();
    code()[pc + 2] = pi;      /* any type of the element size */
    OK();
    code()[pc + 2] = i;
    BAD("LD_B32 operand 2: register 2 is int, needs a pointer");
    code()[pc + 2] = pd;
    BAD("register 3 is global double*, needs a pointer to 4-byte elements");
    code()[pc + 2] = p;
    code()[pv + 3] = p;
    BAD("VLDH operand 3: register 1 is global float*, needs a pointer to half");
    code()[pv + 3] = ph2;
    BAD("register 6 is global half2*, needs a pointer to half");
    code()[pv + 3] = f4;
    BAD("register 4 is float4, needs a pointer");
}

static void read_only_registers(void)
{
    begin();
    uint32_t k = konst("int", 4), a = val("int"), pa = param(val("int"));
    uint32_t arr = array(BC_LOCAL, "int", 4), p = ptr(BC_LOCAL, "int");
    uint32_t pc = emit(BC_ADD_B32, 1, 0, a, k, a);
    uint32_t pp = emit(BC_PADD, 1, 0, p, arr, a);
    emit(BC_ADD_B32, 1, 0, K()->params[pa].reg, a, a);  /* params: fine */
    ret();
    OK();
    code()[pc + 1] = k;
    BAD("ADD_B32 operand 1: register 0 is a constant, it cannot be written");
    code()[pc + 1] = a;
    code()[pp + 1] = arr;
    BAD("PADD operand 1: register 3 is an array, it cannot be written");
}

static void stores_to_constant(void)
{
    begin();
    uint32_t v = val("float4"), i = val("int");
    uint32_t p4 = ptr(BC_GLOBAL, "float4"), p = ptr(BC_GLOBAL, "float");
    uint32_t ph = ptr(BC_GLOBAL, "half");
    uint32_t s1 = emit(BC_ST_B32, 4, 0, p4, i, v);
    uint32_t s2 = emit(BC_VSTORE_B32, 4, 0, v, i, p);
    uint32_t s3 = emit(BC_VSTH_F32, 4, 0, v, i, ph);
    emit(BC_LD_B32, 4, 0, v, p4, i);
    ret();
    OK();
    uint32_t regs[3] = {p4, p, ph}, pcs3[3] = {s1, s2, s3};
    const char *names[3] = {"ST_B32", "VSTORE_B32", "VSTH_F32"};
    char want[96];
    for (int j = 0; j < 3; j++) {
        bc_reg *r = &K()->regs[regs[j]];
        r->space = BC_CONSTANT;
        snprintf(want, sizeof want, "pc %u: %s: stores through register %u, "
                 "a pointer to constant data", pcs3[j], names[j], regs[j]);
        BAD(want);
        r->space = BC_GLOBAL;
        r->flags = BC_REGF_CONSTPTR;
        snprintf(want, sizeof want, "%s: stores through register %u, a "
                 "pointer to const data", names[j], regs[j]);
        BAD(want);
        r->flags = 0;
    }
    /* Loads through constant pointers are fine. */
    K()->regs[p4].space = BC_CONSTANT;
    K()->regs[p4].flags = BC_REGF_CONSTPTR;
    code()[s1] = BC_HDR(BC_LD_B32, 4, 0);
    code()[s1 + 1] = v, code()[s1 + 2] = p4, code()[s1 + 3] = i;
    OK();
}

/* ---- instructions: op-specific rules ---- */

static void swizzle_read(void)
{
    begin();
    uint32_t d = val("uint2"), a = val("uint4"), a3 = val("uint3");
    uint32_t f = val("double4");
    uint32_t pc = emit(BC_SWZ_B32, 2, 0, d, a, 0x03u, 0u);   /* .wx */
    ret();
    OK();
    code()[pc + 2] = a3;
    BAD("SWZ_B32 selector 0 is 3, the source has 3 components");
    code()[pc + 3] = 0x12;
    OK();
    code()[pc + 3] = 0x112;
    BAD("SWZ_B32: unused selector bits set (0x0000000000000112)");
    code()[pc + 3] = 0x12;
    code()[pc + 4] = 1;
    BAD("unused selector bits set (0x0000000100000012)");
    code()[pc + 4] = 0;
    code()[pc + 2] = f;
    BAD("SWZ_B32 operand 2: register 3 is double4, needs 4-byte elements");
    code()[pc + 2] = d;
    code()[pc + 3] = 0x01;
    OK();
    /* 16 components: every nibble used, the top ones in the second word. */
    begin();
    uint32_t w = val("uchar16");
    pc = emit(BC_SWZ_B8, 16, 0, w, w, 0x76543210u, 0xfedcba98u);
    ret();
    OK();
    code()[pc + 2] = val("uchar8");
    BAD("SWZ_B8 selector 8 is 8, the source has 8 components");
}

static void swizzle_write(void)
{
    begin();
    uint32_t d = val("short4"), a = val("short2"), d2 = val("short2");
    uint32_t p = ptr(BC_GLOBAL, "short4");
    uint32_t pc = emit(BC_SWW_B16, 2, 0, d, a, 0x13u, 0u);  /* .wy = a */
    ret();
    OK();
    code()[pc + 3] = 0x11;
    BAD("SWW_B16 writes component 1 twice");
    code()[pc + 3] = 0x213;
    BAD("SWW_B16: unused selector bits set (0x0000000000000213)");
    code()[pc + 3] = 0x13;
    code()[pc + 1] = d2;
    BAD("SWW_B16 selector 0 is 3, the destination has 2 components");
    code()[pc + 3] = 0x01;     /* d2.yx = a: a full permutation */
    OK();
    code()[pc + 1] = p;
    BAD("SWW_B16 operand 1: register 3 is global short4*, needs a value");
    code()[pc + 1] = d;
    code()[pc + 2] = d;
    BAD("SWW_B16 operand 2: register 0 is short4, needs 2 components");
}

static void as_type(void)
{
    begin();
    uint32_t f4 = val("float4"), f3 = val("float3"), u2 = val("ulong2");
    uint32_t d = val("double"), p = ptr(BC_GLOBAL, "float4");
    uint32_t pc = emit(BC_AS, 4, 0, f4, u2);      /* as_float4(ulong2) */
    ret();
    OK();
    code()[pc + 2] = f3;                          /* as_float4(float3) */
    OK();
    code()[pc + 2] = d;
    BAD("AS: as_type between different sizes (float4 is 16 bytes, double "
        "is 8)");
    code()[pc + 2] = u2;
    code()[pc] = BC_HDR(BC_AS, 2, 0);
    BAD("AS: n = 2, the destination has 4 components");
    code()[pc] = BC_HDR(BC_AS, 4, 0);
    code()[pc + 2] = p;
    BAD("AS operand 2: register 4 is global float4*, needs a value");
    code()[pc + 2] = u2;
    code()[pc + 1] = p;
    BAD("AS operand 1: register 4 is global float4*, needs a value");
}

static void convert(void)
{
    begin();
    uint32_t c4 = val("char4"), f4 = val("float4"), f2 = val("float2");
    uint32_t u4 = val("uint4"), p = ptr(BC_GLOBAL, "float4");
    /* convert_char4_sat_rte(f4) */
    uint32_t t = BC_CVT(TY_CHAR, TY_FLOAT, 1, RND_RTE, 1);
    uint32_t pc = emit(BC_CVT, 4, 0, c4, f4, t);
    ret();
    OK();
    code()[pc + 3] = BC_CVT(TY_CHAR, TY_FLOAT, 0, RND_RTZ, 0);
    OK();
    code()[pc + 3] = t | 1u << 20;
    BAD("CVT: unused conversion-word bits 0x100000");
    code()[pc + 3] = t | 1u << 31;
    BAD("CVT: unused conversion-word bits 0x80000000");
    code()[pc + 3] = BC_CVT(TY_NSCALAR, TY_FLOAT, 1, RND_RTE, 1);
    BAD("CVT: bad scalar type 11 in the conversion word");
    code()[pc + 3] = BC_CVT(TY_CHAR, 200, 1, RND_RTE, 1);
    BAD("CVT: bad scalar type 200 in the conversion word");
    code()[pc + 3] = BC_CVT(TY_UCHAR, TY_FLOAT, 1, RND_RTE, 1);
    BAD("CVT: converts to uchar, the destination is char4");
    code()[pc + 3] = BC_CVT(TY_CHAR, TY_UINT, 1, RND_RTE, 1);
    BAD("CVT: converts from uint, the source is float4");
    code()[pc + 3] = t;
    code()[pc + 2] = f2;
    code()[pc + 3] = t;
    BAD("CVT: n = 4, but converts 2 to 4 components");
    code()[pc + 2] = f4;
    code()[pc] = BC_HDR(BC_CVT, 2, 0);
    BAD("CVT: n = 2, but converts 4 to 4 components");
    code()[pc] = BC_HDR(BC_CVT, 4, 0);
    /* convert_float4_sat(uint4) does not exist. */
    code()[pc + 1] = f4, code()[pc + 2] = u4;
    code()[pc + 3] = BC_CVT(TY_FLOAT, TY_UINT, 1, RND_RTE, 0);
    BAD("CVT: _sat needs an integer destination");
    code()[pc + 3] = BC_CVT(TY_FLOAT, TY_UINT, 0, RND_RTE, 0);
    OK();
    /* No suffix means rte into floats and rtz into integers. */
    code()[pc + 3] = BC_CVT(TY_FLOAT, TY_UINT, 0, RND_RTZ, 0);
    BAD("CVT: rounding rtz is not spelled, but a name without one means rte");
    code()[pc + 3] = BC_CVT(TY_FLOAT, TY_UINT, 0, RND_RTZ, 1);
    OK();
    code()[pc + 1] = u4, code()[pc + 2] = f4;
    code()[pc + 3] = BC_CVT(TY_UINT, TY_FLOAT, 0, RND_RTP, 0);
    BAD("CVT: rounding rtp is not spelled, but a name without one means rtz");
    code()[pc + 3] = BC_CVT(TY_UINT, TY_FLOAT, 0, RND_RTZ, 0);
    OK();
    code()[pc + 2] = p;
    BAD("CVT operand 2: register 4 is global float4*, needs a value");
    code()[pc + 2] = f4;
    code()[pc + 1] = p;
    BAD("CVT operand 1: register 4 is global float4*, needs a value");
}

static void vload_half(void)
{
    begin();
    uint32_t f4 = val("float4"), i = val("int"), ph = ptr(BC_GLOBAL, "half");
    uint32_t d4 = val("double4"), f2 = val("float2");
    uint32_t p = ptr(BC_GLOBAL, "float");
    uint32_t pc = emit(BC_VLDH, 4, BC_F_ALIGNED, f4, i, ph);
    emit(BC_VSTH_F64, 4, 2 << BC_F_RND_SHIFT, d4, i, ph);
    ret();
    OK();
    code()[pc + 1] = d4;
    BAD("VLDH operand 1: register 3 is double4, needs float4");
    code()[pc + 1] = f2;
    BAD("VLDH operand 1: register 4 is float2, needs float4");
    code()[pc + 1] = p;
    BAD("VLDH operand 1: register 5 is global float*, needs float4");
}

static void pointer_add(void)
{
    begin();
    uint32_t p = ptr(BC_GLOBAL, "float4"), q = ptr(BC_GLOBAL, "float4");
    uint32_t i = val("long"), l = ptr(BC_LOCAL, "float4");
    uint32_t g = ptr(BC_GLOBAL, "int4"), f = val("float");
    uint32_t pc = emit(BC_PADD, 1, 0, q, p, i);
    ret();
    OK();
    code()[pc + 2] = g;   /* another pointee type: a pointer cast */
    OK();
    code()[pc + 2] = l;
    BAD("register 3 is local float4* (the address spaces must be equal)");
    code()[pc + 2] = p;
    K()->regs[p].flags = BC_REGF_CONSTPTR;
    BAD("PADD: register 0 points to const data, register 1 does not");
    K()->regs[q].flags = BC_REGF_CONSTPTR;
    OK();
    K()->regs[p].flags = 0;          /* adding const is fine */
    OK();
    code()[pc + 2] = f;
    BAD("PADD operand 2: register 5 is float, needs a pointer");
    code()[pc + 2] = p;
    code()[pc + 1] = f;
    BAD("PADD operand 1: register 5 is float, needs a pointer");
    code()[pc + 1] = q;
    code()[pc + 3] = f;
    BAD("PADD operand 3: register 5 is float, needs an integer");
}

/* LDP, STP: a pointer register from or to an 8-byte integer slot. */
static void pointer_slots(void)
{
    begin();
    uint32_t s = ptr(BC_PRIVATE, "ulong"), q = ptr(BC_GLOBAL, "float");
    uint32_t i = val("int"), f = ptr(BC_PRIVATE, "double");
    uint32_t u = ptr(BC_PRIVATE, "uint"), v = val("ulong");
    uint32_t pl = emit(BC_LDP, 1, 0, q, s, i);
    uint32_t ps = emit(BC_STP, 1, 0, s, i, q);
    ret();
    OK();
    code()[pl + 2] = f;
    BAD("LDP operand 2: register 3 is private double*, needs a pointer to "
        "8-byte integers");
    code()[pl + 2] = u;
    BAD("LDP operand 2: register 4 is private uint*, needs a pointer to "
        "8-byte integers");
    code()[pl + 2] = s;
    code()[pl + 1] = v;
    BAD("LDP operand 1: register 5 is ulong, needs a pointer");
    code()[pl + 1] = q;
    code()[ps + 3] = v;
    BAD("STP operand 3: register 5 is ulong, needs a pointer");
    code()[ps + 3] = q;
    K()->regs[s].flags = BC_REGF_CONSTPTR;
    BAD("STP: stores through register 0, a pointer to const data");
}

/* PTOU, UTOP: a pointer's address, an 8-byte integer, and back. */
static void pointer_ints(void)
{
    begin();
    uint32_t q = ptr(BC_GLOBAL, "float"), a = val("ulong");
    uint32_t w = val("uint"), l = val("long"), f = val("double");
    uint32_t pt = emit(BC_PTOU, 1, 0, a, q);
    uint32_t pu = emit(BC_UTOP, 1, 0, q, a);
    ret();
    OK();
    code()[pt + 1] = l;   /* either sign */
    OK();
    code()[pt + 1] = w;
    BAD("PTOU operand 1: register 2 is uint, needs 8-byte integers");
    code()[pt + 1] = f;
    BAD("PTOU operand 1: register 4 is double, needs an integer");
    code()[pt + 1] = a;
    code()[pt + 2] = a;
    BAD("PTOU operand 2: register 1 is ulong, needs a pointer");
    code()[pt + 2] = q;
    code()[pu + 2] = w;
    BAD("UTOP operand 2: register 2 is uint, needs 8-byte integers");
    code()[pu + 2] = a;
    code()[pu + 1] = a;
    BAD("UTOP operand 1: register 1 is ulong, needs a pointer");
}

static void load_store_count(void)
{
    begin();
    uint32_t v = val("int3"), p = ptr(BC_GLOBAL, "int3"), i = val("int");
    uint32_t p4 = ptr(BC_GLOBAL, "int4");
    uint32_t pl = emit(BC_LD_B32, 3, 0, v, p, i);
    uint32_t ps = emit(BC_ST_B32, 3, 0, p, i, v);
    ret();
    OK();
    code()[pl + 2] = p4;
    BAD("LD_B32 operand 2: register 3 is global int4*, needs a pointer to 3 "
        "components");
    code()[pl + 2] = p;
    code()[ps + 1] = p4;
    BAD("ST_B32 operand 1: register 3 is global int4*, needs a pointer to 3 "
        "components");
}

static void vload_vstore(void)
{
    begin();
    uint32_t v = val("double3"), p = ptr(BC_GLOBAL, "double");
    uint32_t i = val("uint"), s = val("double"), p3 = ptr(BC_GLOBAL, "ulong3");
    uint32_t pl = emit(BC_VLOAD_B64, 3, 0, v, i, p);
    uint32_t ps = emit(BC_VSTORE_B64, 3, 0, v, i, p);
    ret();
    OK();
    code()[pl + 3] = p3;
    BAD("VLOAD_B64 operand 3: register 4 is global ulong3*, needs a pointer "
        "to scalars");
    code()[pl + 3] = p;
    code()[ps + 3] = p3;
    BAD("VSTORE_B64 operand 3: register 4 is global ulong3*, needs a pointer "
        "to scalars");
    code()[ps + 3] = p;
    code()[pl] = BC_HDR(BC_VLOAD_B64, 1, 0);
    code()[pl + 1] = s;
    BAD("VLOAD_B64: n = 1, vloadN and vstoreN need 2, 3, 4, 8 or 16");
    code()[pl] = BC_HDR(BC_LD_B64, 1, 0);      /* the scalar access */
    code()[pl + 2] = p, code()[pl + 3] = i;
    OK();
    code()[ps] = BC_HDR(BC_VSTORE_B64, 1, 0);
    code()[ps + 1] = s;
    BAD("VSTORE_B64: n = 1, vloadN and vstoreN need");
}

static void work_item(void)
{
    /* Only 32- and 64-bit forms exist: a size_t never fits in less. */
    static const unsigned ops[][3] = {
        {0, BC_GID_B32, BC_GID_B64},
        {0, BC_LID_B32, BC_LID_B64},
        {0, BC_GRP_B32, BC_GRP_B64},
        {0, BC_GSZ_B32, BC_GSZ_B64},
        {0, BC_LSZ_B32, BC_LSZ_B64},
        {0, BC_NGRP_B32, BC_NGRP_B64},
        {0, BC_GOFF_B32, BC_GOFF_B64},
    };
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        begin();
        uint32_t c = val("uchar"), u = val("uint"), l = val("long");
        uint32_t p32 = emit(ops[o][1], 1, 0, u, 2);
        emit(ops[o][2], 1, 0, l, 0);
        ret();
        OK();
        code()[p32 + 2] = 3;
        BAD("dimension 3 out of range (0, 1 or 2)");
        code()[p32 + 2] = UINT32_MAX;
        BAD("dimension 4294967295 out of range");
        /* A char destination is no 32-bit register. */
        code()[p32 + 2] = 1;
        code()[p32 + 1] = c;
        BAD("register");
    }
    begin();
    uint32_t s = val("short"), u = val("uint");
    uint32_t pc = emit(BC_WDIM_B32, 1, 0, u);
    ret();
    OK();
    code()[pc + 1] = s;
    BAD("register");
}

static void barrier(void)
{
    bc_facts f;
    begin();
    uint32_t pc = emit(BC_BARRIER, 1, 0, BC_FENCE_LOCAL | BC_FENCE_GLOBAL);
    ret();
    OK();
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0 && f.barrier,
          "barrier fact");
    code()[pc + 1] = 0;
    OK();
    code()[pc + 1] = 4 | BC_FENCE_LOCAL;
    BAD("BARRIER: unknown fence flags 0x4");
    code()[pc] = BC_HDR(BC_RET, 1, 0);
    code()[pc + 1] = BC_HDR(BC_RET, 1, 0);
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0 && !f.barrier,
          "no barrier fact");
}

/* ATOM: a function of stdlib/atomic.h on a writable scalar, with the
 * operands it does not take repeating d or a; fences take barrier's
 * flags and are no barrier. */
static void atomics(void)
{
    bc_facts f;
    begin();
    uint32_t p = ptr(BC_GLOBAL, "int"), d = val("int"), a = val("int"),
             b = val("int"), c = ptr(BC_CONSTANT, "int");
    param(p), param(c);
    uint32_t pc = emit(BC_ATOM_I32, 1, 0, d, p, a, b, AT_CMPXCHG);
    uint32_t fc = emit(BC_FENCE, 1, 0, BC_FENCE_GLOBAL);
    ret();
    OK();
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0 && !f.barrier,
          "a fence is no barrier");
    code()[pc + 5] = AT_COUNT;
    BAD("ATOM_I32: not function 11 of stdlib/atomic.h on a writable scalar");
    code()[pc + 5] = AT_ADD;     /* one value: b must repeat a */
    BAD("not function 0");
    code()[pc + 4] = a;
    OK();
    code()[pc + 5] = AT_INC;     /* none: a and b repeat d */
    BAD("not function 3");
    code()[pc + 3] = code()[pc + 4] = d;
    OK();
    code()[pc + 2] = c;          /* constant data */
    BAD("not function 3");
    code()[pc + 2] = p;
    code()[fc + 1] = 4;
    BAD("FENCE: unknown fence flags 0x4");
}

/* ---- control flow ---- */

static void if_else(void)
{
    begin();
    flow("if nop else nop end ret");
    OK();
    code()[pcs[0] + 2] = pcs[4];     /* IF skips its ELSE */
    BAD("pc 0: jump target 13 is not the matching ELSE (pc 7)");
    code()[pcs[0] + 2] = pcs[2];
    code()[pcs[2] + 1] = pcs[4] + 1;
    BAD("pc 7: jump target 14 is not the matching ENDIF (pc 13)");
    /* Without ELSE, IF jumps to ENDIF. */
    begin();
    flow("if nop end ret");
    OK();
    code()[pcs[0] + 2] = pcs[1];
    BAD("pc 0: jump target 3 is not the matching ENDIF (pc 7)");
    code()[pcs[0] + 2] = UINT32_MAX;
    BAD("pc 0: jump target 4294967295 is not the matching ENDIF (pc 7)");
    /* Nesting: each jump to its own partner. */
    begin();
    flow("if if nop else end else if end end ret");
    OK();
    code()[pcs[0] + 2] = pcs[3];     /* the inner ELSE */
    BAD("pc 0: jump target 10 is not the matching ELSE (pc 13)");
}

static void misplaced_blocks(void)
{
    begin();
    flow("else ret");
    BAD("pc 0: ELSE without a matching IF");
    begin();
    flow("if else else end ret");
    BAD("pc 5: ELSE without a matching IF");
    begin();
    flow("if loop else endloop end ret");
    BAD("pc 5: ELSE without a matching IF");
    begin();
    flow("end ret");
    BAD("pc 0: ENDIF without a matching IF");
    begin();
    flow("loop end ret");
    BAD("pc 2: ENDIF without a matching IF");
    begin();
    flow("endloop ret");
    BAD("pc 0: ENDLOOP without a matching LOOP");
    begin();
    flow("loop if endloop ret");
    BAD("pc 5: ENDLOOP without a matching LOOP");
    begin();
    flow("if nop ret");
    BAD("pc 0: IF is never closed");
    begin();
    flow("loop if end nop ret");
    BAD("pc 0: LOOP is never closed");
    begin();
    flow("if else nop ret");
    BAD("pc 3: ELSE is never closed");
}

static void loops(void)
{
    begin();
    flow("loop nop brkif if break else cont end endloop ret");
    OK();
    code()[pcs[0] + 1] = pcs[7];
    BAD("pc 0: jump target 15 is not the matching ENDLOOP (pc 16)");
    code()[pcs[0] + 1] = pcs[8];
    code()[pcs[8] + 1] = pcs[0];
    BAD("pc 16: jump target 0 is not the start of the loop body (pc 2)");
    code()[pcs[8] + 1] = pcs[1] + 4;
    BAD("jump target 6 is not the start of the loop body (pc 2)");
    code()[pcs[8] + 1] = pcs[1];
    OK();
    /* Nested loops: the inner ENDLOOP returns to its own body. */
    begin();
    flow("loop loop break endloop brkif endloop ret");
    OK();
    code()[pcs[3] + 1] = pcs[1];
    BAD("pc 5: jump target 2 is not the start of the loop body (pc 4)");
}

static void break_outside_loop(void)
{
    static const char *progs[][2] = {
        {"break ret", "pc 0: BREAK outside a loop"},
        {"cont ret", "pc 0: CONT outside a loop"},
        {"brkif ret", "pc 0: BRKIF_B32 outside a loop"},
        {"if break end ret", "pc 3: BREAK outside a loop"},
        {"loop endloop cont ret", "pc 4: CONT outside a loop"},
    };
    for (unsigned i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        begin();
        flow(progs[i][0]);
        BAD(progs[i][1]);
    }
    begin();
    flow("loop if if cont end end endloop ret");
    OK();
}

/* block/endblock and the labelled jumps (docs/ir.md: break NAME). */
static void labelled(void)
{
    static const char *ok[] = {
        "block loop brkto0 endloop endblock ret",
        "loop block contto0 endblock endloop ret",
        "block if brktoif0 end endblock ret",
        "loop loop if brkto0 else contto0 end endloop endloop ret",
        "block nop brkto0 nop endblock ret",
    };
    for (unsigned i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        begin();
        flow(ok[i]);
        OK();
    }
    static const char *bad[][2] = {
        {"block contto0 endblock ret",
         "pc 2: jump target 0 is not an enclosing LOOP"},
        {"brkto0 ret", "pc 0: jump target 0 is not an enclosing LOOP or "
                       "BLOCK"},
        {"loop endloop brkto0 ret", "pc 4: jump target 0 is not an "
                                    "enclosing LOOP or BLOCK"},
        {"block end ret", "pc 2: ENDIF without a matching IF"},
        {"block endloop ret", "pc 2: ENDLOOP without a matching LOOP"},
        {"loop endblock ret", "pc 2: ENDBLOCK without a matching BLOCK"},
        {"block nop ret", "pc 0: BLOCK is never closed"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        begin();
        flow(bad[i][0]);
        BAD(bad[i][1]);
    }
    /* a jump to an if is no labelled jump */
    begin();
    flow("if brkto0 end ret");
    BAD("pc 3: jump target 0 is not an enclosing LOOP or BLOCK");
    bc_facts f;
    begin();
    flow("block loop block endblock endloop endblock ret");
    OK();
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0, "%s", err);
    CHECK(f.depth == 3 && f.loop_depth == 1, "depth %u loops %u", f.depth,
          f.loop_depth);
}

static void ends_with_ret(void)
{
    begin();
    BAD("kernel 'k': the code does not end with RET");
    begin();
    flow("nop");
    BAD("kernel 'k': the code does not end with RET");
    begin();
    flow("if ret end");
    BAD("the code does not end with RET");
    begin();
    flow("ret nop ret");
    OK();
    begin();
    flow("if ret else ret end ret");
    OK();
}

static void depth_facts(void)
{
    bc_facts f;
    begin();
    flow("loop if loop brkif endloop else if end end endloop "
         "if end ret");
    OK();
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0, "%s", err);
    CHECK(f.depth == 3 && f.loop_depth == 2, "depth %u loops %u", f.depth,
          f.loop_depth);
    begin();
    flow("ret");
    CHECK(bc_verify_kernel(&m, 0, &f, err, sizeof err) == 0 &&
              f.depth == 0 && f.loop_depth == 0, "empty");
}

/* ---- line table ---- */

static void line_table(void)
{
    begin();
    flow("nop if nop end ret");   /* pcs 0, 4, 7, 11, 12 */
    line(0, 10);
    line(4, 11);
    line(12, 13);
    OK();
    K()->lines[1].pc = 0;
    BAD("line table entry 1: pc 0 does not follow pc 0");
    K()->lines[1].pc = 12;
    BAD("line table entry 2: pc 12 does not follow pc 12");
    K()->lines[1].pc = 5;
    BAD("line table entry 1: pc 5 is inside an instruction");
    K()->lines[1].pc = 4;
    K()->lines[2].pc = 13;
    BAD("line table entry 2: pc 13 is past the code (13 words)");
    K()->lines[2].pc = UINT32_MAX;
    BAD("line table entry 2: pc 4294967295 is past the code");
    K()->lines[2].pc = 11;
    OK();
}

int main(void)
{
    RUN(full_message);
    RUN(string_table);
    RUN(module_arrays);
    RUN(source_name);
    RUN(duplicate_kernels);
    RUN(verify_kernel_api);
    RUN(kernel_name);
    RUN(kernel_arrays);
    RUN(register_limit);
    RUN(param_name);
    RUN(param_register);
    RUN(byval_param);
    RUN(register_name);
    RUN(register_type);
    RUN(register_kind_space);
    RUN(register_flags);
    RUN(register_init);
    RUN(register_param_init);
    RUN(register_const);
    RUN(register_array);
    RUN(array_limits);
    RUN(bad_opcode);
    RUN(runs_past_end);
    RUN(component_count);
    RUN(flags_used);
    RUN(register_range);
    RUN(letter_t);
    RUN(letter_e_c);
    RUN(letter_i);
    RUN(letter_p_h);
    RUN(read_only_registers);
    RUN(stores_to_constant);
    RUN(swizzle_read);
    RUN(swizzle_write);
    RUN(as_type);
    RUN(convert);
    RUN(vload_half);
    RUN(pointer_add);
    RUN(pointer_slots);
    RUN(pointer_ints);
    RUN(load_store_count);
    RUN(vload_vstore);
    RUN(work_item);
    RUN(barrier);
    RUN(atomics);
    RUN(if_else);
    RUN(misplaced_blocks);
    RUN(loops);
    RUN(break_outside_loop);
    RUN(labelled);
    RUN(ends_with_ret);
    RUN(depth_facts);
    RUN(line_table);
    bc_free(&m);
    return t_summary("verify");
}
