/* The .bc reader and writer: round trips, the byte-level golden form, and
 * a reader that rejects every malformed file cleanly (run this one under
 * the sanitizers too: every prefix and every byte flip of a valid file
 * goes through bc_read in a buffer of exactly its size). */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "vm/bcfile.h"
#include "stdlib/round.h"
#include "tests/lib/test.h"

/* ---- a tiny module builder ---- */

static void *grow(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static uint32_t str(bc_module *m, const char *s)
{
    uint32_t off = m->nstrings, len = (uint32_t)strlen(s) + 1;
    m->strings = grow(m->strings, m->nstrings + len);
    memcpy(m->strings + off, s, len);
    m->nstrings += len;
    return off;
}

static bc_kernel *kernel(bc_module *m, const char *name, uint32_t line)
{
    uint32_t nm = str(m, name);
    m->kernels = grow(m->kernels, (m->nkernels + 1) * sizeof *m->kernels);
    m->kernels[m->nkernels] = (bc_kernel){.name = nm, .line = line};
    return &m->kernels[m->nkernels++];
}

static uint32_t reg(bc_module *m, bc_kernel *k, const char *name, uint8_t s,
                    uint8_t n, int kind, int space, int init, uint32_t arg)
{
    uint32_t nm = str(m, name);
    k->regs = grow(k->regs, (k->nregs + 1) * sizeof *k->regs);
    k->regs[k->nregs] = (bc_reg){nm, {s, n}, (uint8_t)kind, (uint8_t)space,
                                 (uint8_t)init, 0, arg};
    if (init == BC_INIT_PARAM) {
        k->params = grow(k->params, (k->nparams + 1) * sizeof *k->params);
        k->params[k->nparams++] = (bc_param){nm, k->nregs, {0, 0, 0, 0}};
    }
    return k->nregs++;
}

static uint32_t emit(bc_kernel *k, unsigned op, unsigned n, unsigned flags,
                     ...)
{
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

static void line(bc_kernel *k, uint32_t pc, uint32_t ln)
{
    k->lines = grow(k->lines, (k->nlines + 1) * sizeof *k->lines);
    k->lines[k->nlines++] = (bc_line){pc, ln};
}

/* Two kernels using most of what a module holds: parameters of each kind,
 * pool constants, arrays, control flow, lines. */
static void sample(bc_module *m)
{
    memset(m, 0, sizeof *m);
    str(m, "");
    m->source = str(m, "sample.clasm");
    m->consts = grow(NULL, 12);
    m->nconst = 12;
    for (int i = 0; i < 12; i++)
        m->consts[i] = (uint8_t)(0xa0 + i);

    bc_kernel *k = kernel(m, "saxpy", 3);
    uint32_t x = reg(m, k, "x", TY_FLOAT, 1, BC_REG_PTR, BC_GLOBAL,
                     BC_INIT_PARAM, 0);
    k->regs[x].flags = BC_REGF_CONSTPTR;
    uint32_t y = reg(m, k, "y", TY_FLOAT, 1, BC_REG_PTR, BC_GLOBAL,
                     BC_INIT_PARAM, 1);
    uint32_t a = reg(m, k, "a", TY_FLOAT, 1, BC_REG_VALUE, 0, BC_INIT_PARAM,
                     2);
    uint32_t i = reg(m, k, "i", TY_ULONG, 1, BC_REG_VALUE, 0, BC_INIT_NONE,
                     0);
    uint32_t vx = reg(m, k, "vx", TY_FLOAT, 4, BC_REG_VALUE, 0, BC_INIT_NONE,
                      0);
    uint32_t vy = reg(m, k, "vy", TY_FLOAT, 4, BC_REG_VALUE, 0, BC_INIT_NONE,
                      0);
    uint32_t va = reg(m, k, "_t1", TY_FLOAT, 4, BC_REG_VALUE, 0,
                      BC_INIT_NONE, 0);
    k->regs[va].flags = BC_REGF_TEMP;
    line(k, emit(k, BC_GID_B64, 1, 0, i, 0), 4);
    line(k, emit(k, BC_VLOAD_B32, 4, 0, vx, i, x), 5);
    emit(k, BC_VLOAD_B32, 4, 0, vy, i, y);
    line(k, emit(k, BC_SPLAT_B32, 4, 0, va, a), 7);
    emit(k, BC_MAD_F32, 4, 0, vy, vx, va, vy);
    line(k, emit(k, BC_VSTORE_B32, 4, 0, vy, i, y), 8);
    emit(k, BC_RET, 1, 0);

    k = kernel(m, "loops", 11);
    uint32_t n = reg(m, k, "n", TY_INT, 1, BC_REG_VALUE, 0, BC_INIT_PARAM, 0);
    uint32_t tile = reg(m, k, "tile", TY_SHORT, 3, BC_REG_PTR, BC_LOCAL,
                        BC_INIT_ARRAY, 64);
    uint32_t c8 = reg(m, k, "_k1", TY_UINT, 2, BC_REG_VALUE, 0,
                      BC_INIT_CONST, 4);
    uint32_t u = reg(m, k, "u", TY_UINT, 2, BC_REG_VALUE, 0, BC_INIT_NONE, 0);
    uint32_t c = reg(m, k, "c", TY_INT, 1, BC_REG_VALUE, 0, BC_INIT_NONE, 0);
    uint32_t h = reg(m, k, "h", TY_HALF, 1, BC_REG_PTR, BC_PRIVATE,
                     BC_INIT_ARRAY, 8);
    uint32_t f2 = reg(m, k, "f2", TY_FLOAT, 2, BC_REG_VALUE, 0, BC_INIT_NONE,
                      0);
    (void)tile;
    uint32_t lp = emit(k, BC_LOOP, 1, 0, 0);
    emit(k, BC_BRKIF_B32, 1, BC_F_NOT, n);
    uint32_t ifp = emit(k, BC_IF_B32, 1, 0, c, 0);
    emit(k, BC_ADD_B32, 2, 0, u, u, c8);
    uint32_t el = emit(k, BC_ELSE, 1, 0, 0);
    emit(k, BC_SWZ_B32, 2, 0, u, u, 0x01u, 0u);
    emit(k, BC_CONT, 1, 0);
    uint32_t en = emit(k, BC_ENDIF, 1, 0);
    emit(k, BC_VSTH_F32, 2, BC_F_ALIGNED | (RND_RTN << BC_F_RND_SHIFT), f2,
         c, h);
    emit(k, BC_BARRIER, 1, 0, BC_FENCE_LOCAL);
    uint32_t el2 = emit(k, BC_ENDLOOP, 1, 0, lp + 2);
    emit(k, BC_RET, 1, 0);
    k->code[lp + 1] = el2;
    k->code[ifp + 2] = el;
    k->code[el + 1] = en;
    line(k, 0, 12);
    line(k, ifp, 13);
    line(k, el2, 20);
}

static bool module_eq(const bc_module *a, const bc_module *b)
{
    if (a->nkernels != b->nkernels || a->nconst != b->nconst ||
        a->nstrings != b->nstrings || a->source != b->source ||
        (a->nconst && memcmp(a->consts, b->consts, a->nconst)) ||
        memcmp(a->strings, b->strings, a->nstrings))
        return false;
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const bc_kernel *x = &a->kernels[i], *y = &b->kernels[i];
        if (x->name != y->name || x->line != y->line ||
            x->nparams != y->nparams || x->nregs != y->nregs ||
            x->ncode != y->ncode || x->nlines != y->nlines)
            return false;
        for (uint32_t j = 0; j < x->nparams; j++)
            if (x->params[j].name != y->params[j].name ||
                x->params[j].reg != y->params[j].reg ||
                memcmp(&x->params[j].byval, &y->params[j].byval,
                       sizeof x->params[j].byval))
                return false;
        for (uint32_t j = 0; j < x->nregs; j++) {
            const bc_reg *r = &x->regs[j], *s = &y->regs[j];
            if (r->name != s->name || r->type.s != s->type.s ||
                r->type.n != s->type.n || r->kind != s->kind ||
                r->space != s->space || r->init != s->init ||
                r->flags != s->flags || r->arg != s->arg)
                return false;
        }
        for (uint32_t j = 0; j < x->ncode; j++)
            if (x->code[j] != y->code[j])
                return false;
        for (uint32_t j = 0; j < x->nlines; j++)
            if (x->lines[j].pc != y->lines[j].pc ||
                x->lines[j].line != y->lines[j].line)
                return false;
    }
    return true;
}

/* ---- reading with exact-size buffers ---- */

static char err[512];

/* bc_read of a copy in a buffer of exactly len bytes, so the sanitizers
 * see any read past the end. */
static int rd(const uint8_t *buf, size_t len, bc_module *m)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        abort();
    memcpy(copy, buf, len);
    int rc = bc_read(copy, len, m, err, sizeof err);
    free(copy);
    return rc;
}

static void expect_reject(const uint8_t *buf, size_t len, const char *want,
                          int line_no)
{
    bc_module m;
    int rc = rd(buf, len, &m);
    if (rc == 0)
        bc_free(&m);
    CHECK(rc != 0 && strstr(err, want), "line %d: want \"%s\", got %s",
          line_no, want, rc ? err : "acceptance");
    CHECK(rc == 0 || (m.nkernels == 0 && !m.kernels && !m.strings),
          "line %d: module not emptied", line_no);
}
#define REJECT(buf, len, want) expect_reject(buf, len, want, __LINE__)

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

/* ---- an independent file maker, for layouts bc_write never makes ---- */

typedef struct {
    uint32_t id;
    const uint8_t *data;
    uint32_t size;
} sec;

/* Header, table in the given order, data after it in reverse order (so
 * table order and file order differ) with gap bytes before each. */
static size_t mkfile(uint8_t *out, const sec *s, int n, uint32_t gap)
{
    memcpy(out, "CLVMBC\0\0\1\0\0\0", 12);
    put32(out + 12, (uint32_t)n);
    size_t pos = 16 + 12 * (size_t)n;
    for (int i = n - 1; i >= 0; i--) {
        memset(out + pos, 0xee, gap);
        pos += gap;
        put32(out + 16 + 12 * i, s[i].id);
        put32(out + 20 + 12 * i, (uint32_t)pos);
        put32(out + 24 + 12 * i, s[i].size);
        if (s[i].size)
            memcpy(out + pos, s[i].data, s[i].size);
        pos += s[i].size;
    }
    return pos;
}

/* The five sections of a file bc_write made, by this test's reading. */
static void split(const uint8_t *buf, sec s[5])
{
    for (int i = 0; i < 5; i++) {
        const uint8_t *e = buf + 16 + 12 * i;
        s[i] = (sec){get32(e), buf + get32(e + 4), get32(e + 8)};
    }
}

static uint8_t *sample_file(size_t *len)
{
    bc_module m;
    uint8_t *buf;
    sample(&m);
    if (bc_write(&m, &buf, len))
        abort();
    bc_free(&m);
    return buf;
}

/* ---- tests ---- */

/* A struct by value (parameter x made one): written in section 'byval'
 * (no 'externs': the module has none), read back the same; each reader
 * check. */
static void byval_section(void)
{
    bc_module m, r;
    uint8_t *buf;
    size_t len;
    sample(&m);
    m.kernels[0].regs[0].space = BC_CONSTANT;
    m.kernels[0].params[0].byval = (bc_byval){16, 4, str(&m, "struct S"),
                                              str(&m, "{0:float4}")};
    CHECK(bc_write(&m, &buf, &len) == 0, "write");
    if (get32(buf + 12) != 6 || get32(buf + 16 + 12 * 5) != 7) {
        CHECK(false, "6 sections, the last 'byval'");
        bc_free(&m);
        free(buf);
        return;
    }
    CHECK(rd(buf, len, &r) == 0, "read: %s", err);
    CHECK(module_eq(&m, &r) && r.kernels[0].params[0].byval.size == 16,
          "read module differs");
    uint8_t *rec = buf + get32(buf + 16 + 12 * 5 + 4) + 4;
    put32(rec + 4, 9);
    REJECT(buf, len, "no parameter 9 of kernel 0");
    put32(rec + 4, 0), put32(rec + 8, 0);
    REJECT(buf, len, "size 0");
    put32(rec + 8, 16), put32(rec + 4, 1);
    REJECT(buf, len, "passed by value, but not a constant pointer");
    put32(rec + 4, 0), put32(rec - 4, 2);
    REJECT(buf, len, "records need 48 bytes, it has 24");
    bc_free(&r);
    bc_free(&m);
    free(buf);
}

static void round_trip(void)
{
    bc_module m, r;
    uint8_t *buf, *buf2;
    size_t len, len2;
    sample(&m);
    CHECK(bc_verify(&m, err, sizeof err) == 0, "sample: %s", err);
    CHECK(bc_write(&m, &buf, &len) == 0, "write");
    CHECK(rd(buf, len, &r) == 0, "read: %s", err);
    CHECK(module_eq(&m, &r), "read module differs");
    CHECK(bc_write(&r, &buf2, &len2) == 0 && len2 == len &&
              memcmp(buf, buf2, len) == 0, "rewrite differs");
    /* The layout this version writes: 5 sections, 4-aligned, in id order,
     * the file ending with the last one. */
    sec s[5];
    split(buf, s);
    for (int i = 0; i < 5; i++)
        CHECK(s[i].id == (uint32_t)i + 1 && (s[i].data - buf) % 4 == 0,
              "section %d", i);
    CHECK((size_t)(s[4].data - buf) + s[4].size == len, "file end");
    free(buf);
    free(buf2);
    bc_free(&r);
    bc_free(&m);
}

static void golden(void)
{
    /* kernel k() with one pool constant register c (uint 7), code RET,
     * one line entry; source "t.cl". */
    static const char *hex =
        "434c564d42430000 0100 0000 05000000"      /* header */
        "01000000 4c000000 0a000000"               /* strings */
        "02000000 58000000 04000000"               /* consts */
        "03000000 5c000000 30000000"               /* kernels */
        "04000000 8c000000 04000000"               /* code */
        "05000000 90000000 08000000"               /* lines */
        "006b00742e636c00 6300 0000"               /* "", k, t.cl, c + pad */
        "07000000"                                 /* pool */
        "03000000 01000000"                        /* source, 1 kernel */
        "01000000 01000000 00000000 01000000 01000000 01000000"
        "08000000 05 01 00 00 02 00 0000 00000000" /* register c */
        "RRRRRRRR"                                 /* RET */
        "00000000 02000000";                       /* pc 0: line 2 */
    uint8_t want[256];
    size_t n = 0;
    for (const char *p = hex; *p; p++) {
        if (*p == ' ')
            continue;
        unsigned v;
        if (*p == 'R') {   /* the opcode number comes from opcodes.def */
            put32(want + n, BC_HDR(BC_RET, 1, 0));
            n += 4, p += 7;
            continue;
        }
        sscanf(p, "%2x", &v);
        want[n++] = (uint8_t)v;
        p++;
    }
    bc_module m = {0};
    str(&m, "");
    bc_kernel *k = kernel(&m, "k", 1);
    m.source = str(&m, "t.cl");
    m.consts = grow(NULL, 4);
    memcpy(m.consts, "\7\0\0\0", 4);
    m.nconst = 4;
    reg(&m, k, "c", TY_UINT, 1, BC_REG_VALUE, 0, BC_INIT_CONST, 0);
    emit(k, BC_RET, 1, 0);
    line(k, 0, 2);
    uint8_t *buf;
    size_t len;
    CHECK(bc_write(&m, &buf, &len) == 0, "write");
    CHECK(len == n && n == 152, "length %zu, want %zu", len, n);
    for (size_t i = 0; i < len && i < n; i++)
        CHECK(buf[i] == want[i], "byte 0x%zx: %02x, want %02x", i, buf[i],
              want[i]);
    bc_module r;
    CHECK(rd(want, n, &r) == 0 && module_eq(&m, &r), "golden reads: %s",
          err);
    bc_free(&r);
    free(buf);
    bc_free(&m);
}

static void header_fields(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len), *b = malloc(len + 64);
    for (int i = 0; i < 8; i++) {
        memcpy(b, buf, len);
        b[i] ^= 0x20;
        REJECT(b, len, "bad magic");
    }
    static const uint16_t versions[] = {0, 2, 0x100, 0xffff};
    for (int i = 0; i < 4; i++) {
        memcpy(b, buf, len);
        b[8] = (uint8_t)versions[i], b[9] = (uint8_t)(versions[i] >> 8);
        REJECT(b, len, "unsupported format version");
    }
    memcpy(b, buf, len);
    b[8] = 2;
    REJECT(b, len, "unsupported format version 2 (this clvm reads 1)");
    memcpy(b, buf, len);
    b[10] = 1;
    REJECT(b, len, "unknown header flags 0x1");
    memcpy(b, buf, len);
    b[11] = 0x80;
    REJECT(b, len, "unknown header flags 0x8000");
    /* Section counts. */
    memcpy(b, buf, len);
    put32(b + 12, 65);
    REJECT(b, len, "65 sections (at most 64)");
    put32(b + 12, UINT32_MAX);
    REJECT(b, len, "4294967295 sections");
    put32(b + 12, 64);
    REJECT(b, len, "section table runs past end of file");
    put32(b + 12, 6);   /* the table now covers the strings */
    REJECT(b, len, "section 'strings' at 0x4c overlaps the section table "
                   "(which ends at 0x58)");
    put32(b + 12, 4);   /* the lines become stray bytes */
    REJECT(b, len, "bytes after the last section");
    put32(b + 12, 0);
    REJECT(b, len, "bytes after the last section (at 0x10)");
    REJECT(b, 16, "string table is empty");
    /* Too short for a header. */
    REJECT(buf, 15, "file too short for a header (15 bytes, need 16)");
    REJECT(buf, 0, "file too short");
    free(b);
    free(buf);
}

static void section_table(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len), *b = malloc(len);
    char want[160];
    for (int i = 0; i < 5; i++) {
        uint8_t *e = b + 16 + 12 * i;
        const char *name = bc_section_name((uint32_t)i + 1);
        memcpy(b, buf, len);
        uint32_t off = get32(e + 4), size = get32(e + 8);
        /* Size one too big; offset at the end; 32-bit wrap-around. */
        put32(e + 8, (uint32_t)(len - off + 1));
        snprintf(want, sizeof want, "section '%s' runs past end of file "
                 "(offset 0x%x, size %zu, file %zu bytes)", name, off,
                 len - off + 1, len);
        REJECT(b, len, want);
        put32(e + 4, (uint32_t)len), put32(e + 8, 1);
        REJECT(b, len, "runs past end of file");
        put32(e + 4, 0xfffffff0u), put32(e + 8, 0x20);
        REJECT(b, len, "runs past end of file (offset 0xfffffff0, size 32");
        /* Into the header or table. */
        put32(e + 4, 8), put32(e + 8, size);
        snprintf(want, sizeof want, "section '%s' at 0x8 overlaps the section "
                 "table (which ends at 0x4c)", name);
        REJECT(b, len, want);
        /* Id changes: unknown required, and a duplicate. */
        memcpy(b, buf, len);
        put32(e, 0x7fu);
        REJECT(b, len, "unknown section id 0x7f (required");
        put32(e, i == 0 ? 2 : 1);
        REJECT(b, len, "appears twice");
    }
    /* Overlapping sections: strings grown over the consts. */
    memcpy(b, buf, len);
    put32(b + 16 + 8, get32(b + 16 + 8) + 4);
    REJECT(b, len, "section 'consts' (0x");
    CHECK(strstr(err, "overlaps section 'strings' (0x4c, "), "%s", err);
    free(b);
    free(buf);
}

static void other_layouts(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len), *b = malloc(len + 4096);
    bc_module ref, m;
    sec s[6];
    CHECK(rd(buf, len, &ref) == 0, "%s", err);
    split(buf, s);
    /* Reversed data order with gaps: same module. */
    size_t n = mkfile(b, s, 5, 3);
    CHECK(rd(b, n, &m) == 0 && module_eq(&ref, &m), "reordered: %s", err);
    bc_free(&m);
    /* An unknown optional section is skipped, wherever it is. */
    static const uint8_t junk[] = "future debug info";
    s[5] = (sec){BC_SEC_OPTIONAL | 0x1234, junk, sizeof junk};
    n = mkfile(b, s, 6, 0);
    CHECK(rd(b, n, &m) == 0 && module_eq(&ref, &m), "optional: %s", err);
    bc_free(&m);
    /* ... and more than one of them. */
    sec s2[7];
    memcpy(s2, s, sizeof s);
    s2[6] = s[5];
    n = mkfile(b, s2, 7, 1);
    CHECK(rd(b, n, &m) == 0 && module_eq(&ref, &m), "optional 2: %s", err);
    bc_free(&m);
    /* An unknown required one is not. */
    s[5].id = 9;
    n = mkfile(b, s, 6, 0);
    REJECT(b, n, "unknown section id 0x9");
    /* Absent sections read as empty: a module without consts and lines. */
    bc_module e = {0};
    str(&e, "");
    kernel(&e, "k", 0);
    emit(&e.kernels[0], BC_RET, 1, 0);
    uint8_t *eb;
    size_t el;
    CHECK(bc_write(&e, &eb, &el) == 0, "write");
    sec es[5], keep[3];
    split(eb, es);
    keep[0] = es[0], keep[1] = es[2], keep[2] = es[3];
    n = mkfile(b, keep, 3, 0);
    CHECK(rd(b, n, &m) == 0 && module_eq(&e, &m), "absent: %s", err);
    bc_free(&m);
    /* No kernels section: no kernels, source "". */
    n = mkfile(b, keep, 1, 0);
    CHECK(rd(b, n, &m) == 0 && m.nkernels == 0 && m.source == 0, "%s", err);
    bc_free(&m);
    /* No strings at all. */
    n = mkfile(b, keep + 1, 2, 0);
    REJECT(b, n, "string table is empty");
    /* Code without kernels is stray. */
    keep[1] = es[3];
    n = mkfile(b, keep, 2, 0);
    REJECT(b, n, "section 'code': 4 bytes at 0x");
    free(eb);
    bc_free(&e);
    bc_free(&ref);
    free(b);
    free(buf);
}

static void truncation(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len);
    bc_module m;
    int accepted = 0;
    for (size_t n = 0; n < len; n++)
        if (rd(buf, n, &m) == 0)
            accepted++, bc_free(&m);
        else
            CHECK(err[0], "no message at length %zu", n);
    CHECK(!accepted, "%d truncated files accepted", accepted);
    CHECK(rd(buf, len, &m) == 0, "whole: %s", err);
    bc_free(&m);
    /* One byte more is stray too. */
    uint8_t *b = malloc(len + 1);
    memcpy(b, buf, len);
    b[len] = 0;
    REJECT(b, len + 1, "1 bytes after the last section");
    free(b);
    free(buf);
}

/* A file of just a kernels section (and strings) with chosen counts. */
static size_t kfile(uint8_t *out, uint32_t nk, const uint32_t counts[4],
                    uint32_t ksize)
{
    static uint8_t kd[64];
    static const uint8_t strs[] = "\0k";
    memset(kd, 0, sizeof kd);
    put32(kd + 4, nk);
    put32(kd + 8, 1);
    for (int i = 0; i < 4; i++)
        put32(kd + 16 + 4 * i, counts[i]);
    sec s[2] = {{BC_SEC_STRINGS, strs, 3}, {BC_SEC_KERNELS, kd, ksize}};
    return mkfile(out, s, 2, 0);
}

static void huge_counts(void)
{
    uint8_t b[256];
    uint32_t none[4] = {0, 0, 0, 0};
    /* The well-formed base: one kernel, no code (so only the verifier
     * objects). */
    size_t n = kfile(b, 1, none, 32);
    REJECT(b, n, "kernel 'k': the code does not end with RET");
    n = kfile(b, UINT32_MAX, none, 32);
    REJECT(b, n, "4294967295 kernels need at least 103079215080 bytes, 24 "
                 "left");
    n = kfile(b, 2, none, 32);
    REJECT(b, n, "2 kernels need at least 48 bytes");
    uint32_t c[4] = {0, UINT32_MAX, 0, 0};   /* 2^32-1 registers */
    n = kfile(b, 1, c, 32);
    CHECK(n < 100, "small file");
    REJECT(b, n, "kernel 0 at 0x");
    CHECK(strstr(err, "0 params and 4294967295 registers need 68719476720 "
                      "bytes, section 'kernels' has 0 left"), "%s", err);
    c[0] = UINT32_MAX, c[1] = 0;
    n = kfile(b, 1, c, 32);
    REJECT(b, n, "4294967295 params and 0 registers need 34359738360 bytes");
    c[0] = 0, c[2] = UINT32_MAX;
    n = kfile(b, 1, c, 32);
    REJECT(b, n, "4294967295 code words need 17179869180 bytes, section "
                 "'code' has 0 left");
    c[2] = 0, c[3] = 0x80000000u;
    n = kfile(b, 1, c, 32);
    REJECT(b, n, "2147483648 line entries need 17179869184 bytes, section "
                 "'lines' has 0 left");
    /* Records that do not fit. */
    n = kfile(b, 1, none, 4);
    REJECT(b, n, "section 'kernels' at 0x");
    CHECK(strstr(err, "is too short (4 bytes, need 8)"), "%s", err);
    c[3] = 0;
    n = kfile(b, 1, none, 31);
    REJECT(b, n, "1 kernels need at least 24 bytes, 23 left");
    /* The second record, after the first one's register, does not fit. */
    uint32_t one[4] = {0, 1, 0, 0};
    n = kfile(b, 2, one, 56);
    REJECT(b, n, "kernel 1 at 0x58: record runs past the end of section "
                 "'kernels'");
    /* Bytes left over in the kernels section. */
    n = kfile(b, 1, none, 36);
    REJECT(b, n, "section 'kernels': 4 bytes at 0x");
}

static void record_fields(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len), *b = malloc(len);
    sec s[5];
    split(buf, s);
    size_t k0 = (size_t)(s[2].data - buf) + 8;   /* first kernel record */
    size_t r0 = k0 + 24 + 3 * 8;                 /* its first register */
    memcpy(b, buf, len);
    b[r0 + 10] = 1;
    REJECT(b, len, "kernel 0 register 0 at 0x");
    CHECK(strstr(err, "reserved bytes are not zero"), "%s", err);
    memcpy(b, buf, len);
    b[r0 + 11] = 0x80;
    REJECT(b, len, "reserved bytes are not zero");
    /* Counts that disagree with the sections' sizes. */
    memcpy(b, buf, len);
    put32(b + k0 + 16, get32(b + k0 + 16) - 1);    /* one code word less */
    REJECT(b, len, "section 'code': 4 bytes at 0x");
    memcpy(b, buf, len);
    put32(b + k0 + 20, get32(b + k0 + 20) - 1);    /* one line less */
    REJECT(b, len, "section 'lines': 8 bytes at 0x");
    memcpy(b, buf, len);
    put32(b + k0 + 8, get32(b + k0 + 8) - 1);      /* one param less */
    REJECT(b, len, "");
    /* Bad string offsets get to the verifier. */
    memcpy(b, buf, len);
    put32(b + k0, 1000);
    REJECT(b, len, "kernel 0: name at string offset 1000 is out of range");
    memcpy(b, buf, len);
    put32(b + r0, s[0].size);
    REJECT(b, len, "kernel 'saxpy': register 0: name at string offset");
    memcpy(b, buf, len);
    put32(s[2].data - buf + b, s[0].size);
    REJECT(b, len, "source file name at string offset");
    free(b);
    free(buf);
}

/* Every single-byte change must be handled; accepted ones must be
 * consistent modules that write and read back the same. */
static void byte_flips(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len), *b = malloc(len);
    static const uint8_t masks[] = {0x01, 0x02, 0x10, 0x80, 0xff};
    int accepted = 0, bad = 0;
    for (size_t i = 0; i < len; i++)
        for (size_t j = 0; j < sizeof masks; j++) {
            memcpy(b, buf, len);
            b[i] ^= masks[j];
            bc_module m, r;
            if (rd(b, len, &m))
                continue;
            accepted++;
            uint8_t *w = NULL;
            size_t wl;
            if (bc_write(&m, &w, &wl) || rd(w, wl, &r)) {
                bad++;
            } else {
                bad += !module_eq(&m, &r);
                bc_free(&r);
            }
            free(w);
            bc_free(&m);
        }
    CHECK(!bad, "%d accepted mutants do not round-trip", bad);
    /* Flips in names, constants, lines, some codes are meaningful, so
     * some are accepted; most structure flips are not. */
    CHECK(accepted > 0 && accepted < (int)(len * sizeof masks) / 2,
          "%d of %zu accepted", accepted, len * sizeof masks);
    free(b);
    free(buf);
}

/* Random multi-byte damage, including to counts and offsets. */
static void random_damage(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len), *b = malloc(len);
    uint64_t x = 0x9e3779b97f4a7c15u;
    int accepted = 0;
    for (int it = 0; it < 20000; it++) {
        memcpy(b, buf, len);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int k = 1 + (int)(x % 4);
        for (int i = 0; i < k; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            b[(x >> 8) % len] = (uint8_t)(x >> 40);
        }
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t n = x % 8 == 0 ? (size_t)(x >> 20) % (len + 1) : len;
        bc_module m;
        if (rd(b, n, &m) == 0)
            accepted++, bc_free(&m);
    }
    CHECK(accepted < 20000, "all accepted");
    free(b);
    free(buf);
}

static void files(void)
{
    char path[] = "/tmp/clvm_test_bcXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    bc_module m, r;
    sample(&m);
    CHECK(bc_save_file(path, &m, err, sizeof err) == 0, "%s", err);
    CHECK(bc_load_file(path, &r, err, sizeof err) == 0 && module_eq(&m, &r),
          "%s", err);
    bc_free(&r);
    /* A damaged file names itself. */
    FILE *f = fopen(path, "r+b");
    CHECK(f, "reopen");
    if (f) {
        fputc('X', f);
        fclose(f);
    }
    CHECK(bc_load_file(path, &r, err, sizeof err) != 0 &&
              !strncmp(err, path, strlen(path)) && strstr(err, ": bad magic"),
          "%s", err);
    remove(path);
    CHECK(bc_load_file(path, &r, err, sizeof err) != 0 &&
              strstr(err, "No such file"), "%s", err);
    CHECK(bc_save_file("/nonexistent/dir/x.bc", &m, err, sizeof err) != 0 &&
              strstr(err, "/nonexistent/dir/x.bc: "), "%s", err);
    m.kernels[0].regs = grow(m.kernels[0].regs, 1);
    bc_reg *keep = m.kernels[0].regs;
    m.kernels[0].regs = NULL;
    CHECK(bc_save_file(path, &m, err, sizeof err) != 0 &&
              strstr(err, "cannot serialise"), "%s", err);
    m.kernels[0].regs = keep;
    bc_free(&m);
}

static void write_rejects_inconsistent(void)
{
    bc_module m;
    uint8_t *buf;
    size_t len;
    sample(&m);
    uint32_t *code = m.kernels[1].code;
    m.kernels[1].code = NULL;
    CHECK(bc_write(&m, &buf, &len) != 0, "code count without code");
    m.kernels[1].code = code;
    char *s = m.strings;
    m.strings = NULL;
    CHECK(bc_write(&m, &buf, &len) != 0, "strings");
    m.strings = s;
    bc_free(&m);
}

static void small_error_buffers(void)
{
    size_t len;
    uint8_t *buf = sample_file(&len);
    bc_module m;
    char e[4] = "abc";
    buf[0] = 'x';
    CHECK(bc_read(buf, len, &m, e, 1) != 0 && e[0] == 0, "len 1");
    CHECK(bc_read(buf, len, &m, NULL, 0) != 0, "no buffer");
    CHECK(bc_read(buf, len, &m, e, sizeof e) != 0 && !strcmp(e, "bad"), "%s",
          e);
    free(buf);
}

/* Section 'groupsize' (7): written only when a kernel has a required
 * work-group size, read back; sizes that are partly 0 or too many
 * work-items are refused, 4096 x 1 x 1 (VM_MAX_GROUP) is not. */
static void group_sizes(void)
{
    bc_module m, r;
    uint8_t *buf;
    size_t len;
    sample(&m);
    m.kernels[1].reqd[0] = 4, m.kernels[1].reqd[1] = 2,
    m.kernels[1].reqd[2] = 1;
    CHECK(bc_write(&m, &buf, &len) == 0, "write");
    CHECK(get32(buf + 12) == 6 && get32(buf + 16 + 5 * 12) == 8,
          "the sixth section is 'groupsize'");
    CHECK(rd(buf, len, &r) == 0 && r.kernels[1].reqd[0] == 4 &&
              r.kernels[1].reqd[1] == 2 && r.kernels[1].reqd[2] == 1 &&
              !r.kernels[0].reqd[0], "read back: %s", err);
    if (!err[0])
        bc_free(&r);
    uint8_t *g = buf + get32(buf + 16 + 5 * 12 + 4);
    put32(g + 12, 0);   /* kernel 1: 0 x 2 x 1 */
    REJECT(buf, len, "kernel 1 requires 0 x 2 x 1");
    put32(g + 12, 4097);
    REJECT(buf, len, "kernel 1 requires 4097 x 2 x 1");
    put32(g + 12, 4096), put32(g + 16, 1);   /* the most there may be */
    CHECK(rd(buf, len, &r) == 0 && r.kernels[1].reqd[0] == 4096,
          "4096 x 1 x 1: %s", err);
    if (!err[0])
        bc_free(&r);
    put32(g + 16, 2);
    REJECT(buf, len, "kernel 1 requires 4096 x 2 x 1");
    put32(g + 12, 4);
    put32(buf + 16 + 5 * 12 + 8, 12);   /* one kernel's worth, the last */
    REJECT(buf, len - 12, "12 bytes for 2 kernels");
    free(buf);
    bc_free(&m);
}

static void names(void)
{
    CHECK(!strcmp(bc_section_name(BC_SEC_CODE), "code"), "code");
    CHECK(!strcmp(bc_section_name(BC_SEC_LINES), "lines"), "lines");
    CHECK(bc_section_name(0) == NULL && bc_section_name(9) == NULL, "none");
    CHECK(!strcmp(bc_space_name(BC_CONSTANT), "constant") &&
              !strcmp(bc_space_name(BC_PRIVATE), "private") &&
              !strcmp(bc_space_name(4), "?"), "spaces");
    CHECK(sizeof BC_MAGIC == 8, "magic is 8 bytes");
}

int main(void)
{
    RUN(round_trip);
    RUN(byval_section);
    RUN(golden);
    RUN(header_fields);
    RUN(section_table);
    RUN(other_layouts);
    RUN(truncation);
    RUN(huge_counts);
    RUN(record_fields);
    RUN(byte_flips);
    RUN(random_damage);
    RUN(files);
    RUN(write_rejects_inconsistent);
    RUN(small_error_buffers);
    RUN(names);
    RUN(group_sizes);
    return t_summary("bcfile");
}
