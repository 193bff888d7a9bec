/* The assembler and disassembler through their APIs: lowering of small
 * snippets against hand-written instruction sequences, constants and
 * temporaries, control flow targets, the line table, literal rounding,
 * the asm -> dis -> asm round trip over every .clasm file, the opcode
 * table of docs/ir.md, and robustness on garbage and mutated input. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "asm/asm.h"
#include "vm/bcfile.h"
#include "asm/dis.h"
#include "stdlib/half.h"
#include "asm/lit.h"
#include "asm/optab.h"
#include "tests/lib/test.h"

/* Assembles src; diagnostics go to *diag (malloc'd) when diag is given. */
static int assemble(const char *src, bc_module *m, char **diag)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int n = asm_assemble(src, strlen(src), "t.clasm", m, f);
    if (f)
        fclose(f);
    if (diag)
        *diag = buf;
    else
        free(buf);
    return n;
}

/* Checks that kernel 0's code is exactly want[0..n). */
static void expect_code(const char *src, const uint32_t *want, size_t n)
{
    bc_module m;
    char *diag;
    int e = assemble(src, &m, &diag);
    CHECK(!e, "errors: %s", diag);
    free(diag);
    if (e)
        return;
    const bc_kernel *k = &m.kernels[0];
    CHECK(k->ncode == n, "%u words, want %zu", k->ncode, n);
    for (size_t i = 0; i < n && i < k->ncode; i++)
        CHECK(k->code[i] == want[i], "word %zu: 0x%08x, want 0x%08x", i,
              k->code[i], want[i]);
    char err[256];
    CHECK(!bc_verify(&m, err, sizeof err), "verify: %s", err);
    bc_free(&m);
}

#define H(op, n, fl) BC_HDR(BC_##op, n, fl)
#define CODE(src, ...)                                                    \
    do {                                                                  \
        const uint32_t w_[] = {__VA_ARGS__};                              \
        expect_code(src, w_, sizeof w_ / sizeof w_[0]);                   \
    } while (0)

/* Registers are numbered in order: parameters, then declarations and
 * the assembler's temporaries (_t) and constants (_k) as they appear. */
static void lowering(void)
{
    /* x=0 y=1 a=2 v=3 w=4 _t1=5 */
    CODE("kernel k(global float *x, global float *y, float a)\n"
         "float4 v, w\n"
         "w = v * v + w\n"
         "end\n",
         H(MUL_F32, 4, 0), 5, 3, 3, H(ADD_F32, 4, 0), 4, 5, 4, H(RET, 1, 0));
    /* as_T is a view: no MOV. f=0 u=1 _k1=2 */
    CODE("kernel k()\nfloat4 f\nuint4 u = as_uint4(f) ^ 1\nend\n",
         H(XOR_B32, 4, 0), 1, 0, 2, H(RET, 1, 0));
    /* A vector comparison gives int4 -1/0: LT_F32 into m directly. */
    CODE("kernel k()\nfloat4 f, g\nint4 m = f < g\nend\n",
         H(LT_F32, 4, 0), 2, 0, 1, H(RET, 1, 0));
    /* The CVT word: spelled rounding and _sat, or a cast's defaults. */
    CODE("kernel k()\nfloat4 f\nint4 i = convert_int4_sat_rte(f)\nend\n",
         H(CVT, 4, 0), 1, 0, BC_CVT(TY_INT, TY_FLOAT, 1, RND_RTE, 1),
         H(RET, 1, 0));
    CODE("kernel k()\nfloat s\nint i = (int)s\nend\n",
         H(CVT, 1, 0), 1, 0, BC_CVT(TY_INT, TY_FLOAT, 0, RND_RTZ, 0),
         H(RET, 1, 0));
    CODE("kernel k()\nint4 i\nfloat4 f = convert_float4(i)\nend\n",
         H(CVT, 4, 0), 1, 0, BC_CVT(TY_FLOAT, TY_INT, 0, RND_RTE, 0),
         H(RET, 1, 0));
    /* Signed and unsigned share the _B handlers, the signed one flagged
     * (its overflow is undefined); division does not share them. */
    CODE("kernel k()\nint a, b\nuint c, d\na = a + b\nc = c + d\n"
         "a = a / b\nc = c / d\nend\n",
         H(ADD_B32, 1, BC_F_SIGNED), 0, 0, 1, H(ADD_B32, 1, 0), 2, 2, 3,
         H(DIV_I32, 1, 0), 0, 0, 1, H(DIV_U32, 1, 0), 2, 2, 3, H(RET, 1, 0));
    /* Work-item functions: the destination picks _B32 or _B64. */
    CODE("kernel k()\nuint i = get_global_id(1)\nlong j = get_local_size(2)\n"
         "int d = get_work_dim()\nend\n",
         H(GID_B32, 1, 0), 0, 1, H(LSZ_B64, 1, 0), 1, 2, H(WDIM_B32, 1, 0), 2,
         H(RET, 1, 0));
    /* v = v.yx must not swizzle in place: through _t1 (2). */
    CODE("kernel k()\nfloat2 v\nv = v.yx\nend\n",
         H(SWZ_B32, 2, 0), 1, 0, 0x01, 0, H(MOV_B32, 2, 0), 0, 1,
         H(RET, 1, 0));
    /* v.zx = w: SWW with the selectors of the destination. */
    CODE("kernel k()\nfloat4 v\nfloat2 w\nv.zx = w\nend\n",
         H(SWW_B32, 2, 0), 0, 1, 0x02, 0, H(RET, 1, 0));
    /* (float4)(s) is SPLAT; a scalar register meeting a vector too. */
    CODE("kernel k()\nfloat4 v\nfloat s\nv = (float4)(s)\nv = v * s\nend\n",
         H(SPLAT_B32, 4, 0), 0, 1, H(SPLAT_B32, 4, 0), 2, 1,
         H(MUL_F32, 4, 0), 0, 0, 2, H(RET, 1, 0));
    /* Memory: p[i] is LD/ST; vstore_half4_rtz sets the rounding bits. */
    CODE("kernel k(global float *p, global half *h)\nulong i\nfloat4 v\n"
         "p[i] = p[i]\nvstore_half4_rtz(v, i, h)\n"
         "v = vloada_half4(i, h)\nend\n",
         H(LD_B32, 1, 0), 4, 0, 2, H(ST_B32, 1, 0), 0, 2, 4,
         H(VSTH_F32, 4, RND_RTZ << BC_F_RND_SHIFT), 3, 2, 1,
         H(VLDH, 4, BC_F_ALIGNED), 3, 2, 1, H(RET, 1, 0));
    /* Promotion: char + char is int arithmetic converted back (the sum
     * may not fit: NARROW); uchar + uchar stays one ADD_B8, which is
     * OpenCL C's bits and notes. a=0 b=1 r=2 _t1..3=3..5 c=6 d=7 s=8 */
    CODE("kernel k()\nchar a, b\nchar r = a + b\nuchar c, d\n"
         "uchar s = c + d\nend\n",
         H(CVT, 1, 0), 3, 0, BC_CVT(TY_INT, TY_CHAR, 0, RND_RTZ, 0),
         H(CVT, 1, 0), 4, 1, BC_CVT(TY_INT, TY_CHAR, 0, RND_RTZ, 0),
         H(ADD_B32, 1, BC_F_SIGNED), 5, 3, 4,
         H(CVT, 1, 0), 2, 5, BC_CVT(TY_CHAR, TY_INT, 0, RND_RTZ, 0),
         H(ADD_B8, 1, 0), 8, 6, 7, H(RET, 1, 0));
    /* Scalar && short-circuits: r = a != 0; if r: r = b != 0. a=0 b=1
     * r=2 _k1=3 (0); IF's j is the ENDIF at 11. */
    CODE("kernel k()\nint a, b\nint r = a && b\nend\n",
         H(NE_I32, 1, 0), 2, 0, 3, H(IF_B32, 1, 0), 2, 11,
         H(NE_I32, 1, 0), 2, 1, 3, H(ENDIF, 1, 0), H(RET, 1, 0));
    /* Control flow: IF j is the ELSE, ELSE j the ENDIF; LOOP j the
     * ENDLOOP, whose j is the first body instruction. c=0 */
    CODE("kernel k()\nint c\nif c\nc = c\nelse\nreturn\nend\nend\n",
         H(IF_B32, 1, 0), 0, 3, H(ELSE, 1, 0), 6, H(RET, 1, 0),
         H(ENDIF, 1, 0), H(RET, 1, 0));
    CODE("kernel k()\nint c\nloop\nbreak if !c\ncontinue\nbreak if c\n"
         "break\nend\nend\n",
         H(LOOP, 1, 0), 8, H(BRKIF_B32, 1, BC_F_NOT), 0, H(CONT, 1, 0),
         H(BRKIF_B32, 1, 0), 0, H(BREAK, 1, 0), H(ENDLOOP, 1, 0), 2,
         H(RET, 1, 0));
    /* while c < 3: the test inside the loop. c=0 _k1=1 _t1=2 */
    CODE("kernel k()\nint c\nwhile c < 3\nc += 1\nend\nend\n",
         H(LOOP, 1, 0), 12, H(LT_I32, 1, 0), 2, 0, 1,
         H(BRKIF_B32, 1, BC_F_NOT), 2, H(ADD_B32, 1, BC_F_SIGNED), 0, 0, 3,
         H(ENDLOOP, 1, 0), 2, H(RET, 1, 0));
    /* A scalar ?: runs one arm per work-item (as C): IF/ELSE. */
    CODE("kernel k()\nint c, x, y\nx = c ? x : y\nend\n",
         H(IF_B32, 1, 0), 0, 3, H(ELSE, 1, 0), 8, H(MOV_B32, 1, 0), 1, 2,
         H(ENDIF, 1, 0), H(RET, 1, 0));
    /* A comparison of doubles assigned to an int converts its 1/0. */
    CODE("kernel k()\ndouble a, b\nint r = a < b\nend\n",
         H(LT_F64, 1, 0), 3, 0, 1, H(CVT, 1, 0), 2, 3,
         BC_CVT(TY_INT, TY_LONG, 0, RND_RTZ, 0), H(RET, 1, 0));
    CODE("kernel k()\nbarrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)\n"
         "end\n", H(BARRIER, 1, 0), 3, H(RET, 1, 0));
    /* Regression: a compound assignment checks its target once, so the
     * composed selection v.zyx.x stays v.z. v=0 _t1=1 _k1=2 _t2=3 */
    CODE("kernel k()\nfloat4 v\nv.zyx.x += 1.0f\nend\n",
         H(SWZ_B32, 1, 0), 1, 0, 2, 0, H(ADD_F32, 1, 0), 3, 1, 2,
         H(SWW_B32, 1, 0), 0, 3, 2, 0, H(RET, 1, 0));
}

/* Constants: folded, deduplicated, splatted against vectors; temporaries
 * reused by type across statements. */
static void constants_and_temps(void)
{
    bc_module m;
    char *diag;
    const char *src =
        "kernel k()\n"
        "float4 v, w\n"
        "uint u = 0xff & ~(1 << 31)\n"   /* folded in uint: 0xff */
        "v = v + 2.0f\n"                 /* 2.0f meets float4: splat */
        "w = w * 2.0f\n"                 /* the same _k */
        "v = (v + w) * (v - w)\n"        /* two float4 temps */
        "w = (v + w) * w\n"              /* reuses the first */
        "end\n";
    int e = assemble(src, &m, &diag);
    CHECK(!e, "%s", diag);
    free(diag);
    if (e)
        return;
    const bc_kernel *k = &m.kernels[0];
    /* v w u _k1(uint 255) _k2(float4 2.0) _t1 _t2 */
    CHECK(k->nregs == 7, "%u registers", k->nregs);
    if (k->nregs == 7) {
        const bc_reg *c1 = &k->regs[3], *c2 = &k->regs[4];
        uint32_t u32;
        float f[4];
        CHECK(c1->init == BC_INIT_CONST && c1->type.s == TY_UINT &&
                  c1->type.n == 1, "_k1");
        memcpy(&u32, m.consts + c1->arg, 4);
        CHECK(u32 == 0xff, "0xff & ~(1 << 31) = 0x%x", u32);
        CHECK(c2->init == BC_INIT_CONST && c2->type.s == TY_FLOAT &&
                  c2->type.n == 4, "_k2 is float4");
        memcpy(f, m.consts + c2->arg, 16);
        CHECK(f[0] == 2 && f[1] == 2 && f[2] == 2 && f[3] == 2, "splat");
        CHECK(!strcmp(bc_str(&m, k->regs[5].name), "_t1") &&
                  (k->regs[5].flags & BC_REGF_TEMP), "_t1");
    }
    bc_free(&m);
}

/* The line table: one entry per run of instructions from one line; the
 * kernel records its header line. */
static void line_table(void)
{
    bc_module m;
    const char *src = "// comment\n"
                      "kernel k()\n"          /* 2 */
                      "int a, b\n"
                      "\n"
                      "a = a * b + b\n"       /* 5: MUL, ADD at 0 */
                      "b = a\n"               /* 6: MOV at 8 */
                      "#line 40\n"
                      "b = b\n"               /* 40: nothing */
                      "a = b\n"               /* 41: MOV at 11 */
                      "end\n";                /* 42: RET at 14 */
    if (assemble(src, &m, NULL)) {
        CHECK(0, "does not assemble");
        return;
    }
    const bc_kernel *k = &m.kernels[0];
    static const bc_line want[] = {{0, 5}, {8, 6}, {11, 41}, {14, 42}};
    CHECK(k->line == 2, "header line %u", k->line);
    CHECK(k->nlines == 4, "%u entries", k->nlines);
    for (uint32_t i = 0; i < k->nlines && i < 4; i++)
        CHECK(k->lines[i].pc == want[i].pc && k->lines[i].line == want[i].line,
              "entry %u: pc %u line %u", i, k->lines[i].pc, k->lines[i].line);
    CHECK(bc_line_of(k, 4) == 5, "ADD on line 5");
    bc_free(&m);
}

/* Literals: rounded once, in their context type. */
static void literals(void)
{
    lit l;
    uint64_t b;
    /* The half midpoint between 1.0 and 1.0009765625 is 1.00048828125:
     * decimal -> double -> half would give 1.0 for all three. */
    static const struct { const char *text; uint16_t want; } mid[] = {
        {"1.00048828125", 0x3c00},
        {"1.000488281250000000000001", 0x3c01},
        {"1.000488281249999999999999", 0x3c00},
        {"1.00146484375", 0x3c02},            /* tie: to even (up) */
        {"65519.99", 0x7bff},
        {"5.9604644775390625e-8", 0x0001},
    };
    for (size_t i = 0; i < sizeof mid / sizeof mid[0]; i++) {
        CHECK(!lit_parse(mid[i].text, strlen(mid[i].text), &l), "%s",
              mid[i].text);
        CHECK(lit_bits(&l, TY_HALF, &b) == LIT_OK && b == mid[i].want,
              "%s -> half 0x%04x, want 0x%04x", mid[i].text, (unsigned)b,
              mid[i].want);
    }
    CHECK(!lit_parse("65520.0", 7, &l) && lit_bits(&l, TY_HALF, &b) ==
          LIT_RANGE, "65520 overflows half");
    CHECK(!lit_parse("16777217", 8, &l) && lit_bits(&l, TY_FLOAT, &b) ==
          LIT_OK && b == 0x4b800000, "integer to float rounds to even");
    CHECK(!lit_parse("0.1f", 4, &l) && lit_bits(&l, TY_HALF, &b) ==
          LIT_NARROW, "0.1f in half");
    CHECK(!lit_parse("0.1f", 4, &l) && lit_bits(&l, TY_DOUBLE, &b) ==
          LIT_OK && b == 0x3fb99999a0000000u, "0.1f widened exactly");
    CHECK(!lit_parse("0xffffffff", 10, &l) && l.nat.s == TY_UINT,
          "hex literals may be unsigned");
    CHECK(!lit_parse("4294967295", 10, &l) && l.nat.s == TY_LONG,
          "decimal literals are signed");
    CHECK(lit_parse("08", 2, &l) != NULL, "octal rejected");

    /* dis's text reads back to the same bits: checked against strtof /
     * strtod, and through the assembler's own reading for half. */
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        char t[LIT_TEXT_MAX];
        uint32_t fb = (uint32_t)x;
        if ((fb & 0x7f800000u) != 0x7f800000u) {
            lit_format(TY_FLOAT, fb, t);
            float f = strtof(t, NULL);
            uint32_t back;
            memcpy(&back, &f, 4);
            CHECK(back == fb, "float 0x%08x printed %s", fb, t);
        }
        if ((x & 0x7ff0000000000000u) != 0x7ff0000000000000u) {
            lit_format(TY_DOUBLE, x, t);
            double d = strtod(t, NULL);
            uint64_t back;
            memcpy(&back, &d, 8);
            CHECK(back == x, "double 0x%016llx printed %s",
                  (unsigned long long)x, t);
        }
    }
    for (uint32_t h = 0; h < 0x10000; h++) {
        char t[LIT_TEXT_MAX];
        if ((h & 0x7c00) == 0x7c00)
            continue;
        lit_format(TY_HALF, h, t);
        size_t n = strlen(t);
        bool neg = t[0] == '-';
        CHECK(n > 1 && t[n - 1] == 'h' && !lit_parse(t + neg, n - 1 - neg, &l),
              "half %s", t);
        l.neg = neg;
        CHECK(lit_bits(&l, TY_HALF, &b) == LIT_OK && b == h,
              "half 0x%04x printed %s", h, t);
    }
}

/* ---- files ---- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s)
        s[n] = 0, *len = (size_t)n;
    return s;
}

/* asm -> dis -> asm gives identical bytes. Returns false (and reports)
 * when it does not; *assembled tells whether src assembled at all. */
static bool round_trip(const char *src, size_t len, const char *name,
                       bool *assembled)
{
    bc_module m1, m2;
    *assembled = !asm_assemble(src, len, name, &m1, NULL);
    if (!*assembled)
        return true;
    char *text = NULL, *diag = NULL;
    size_t tlen = 0, dlen = 0;
    FILE *f = open_memstream(&text, &tlen), *g = open_memstream(&diag, &dlen);
    int rc = f ? dis_module(&m1, f, 0) : -1;
    if (f)
        fclose(f);
    bool ok = !rc && text && !asm_assemble(text, tlen, "dis.clasm", &m2, g);
    if (g)
        fclose(g);
    CHECK(ok, "%s: dis output does not assemble: %s", name, diag ? diag : "");
    if (ok) {
        uint8_t *b1 = NULL, *b2 = NULL;
        size_t l1 = 0, l2 = 0;
        CHECK(!bc_write(&m1, &b1, &l1) && !bc_write(&m2, &b2, &l2), "write");
        bool same = b1 && b2 && l1 == l2 && !memcmp(b1, b2, l1);
        CHECK(same, "%s: asm -> dis -> asm changed the bytes", name);
        ok = same;
        free(b1);
        free(b2);
        bc_free(&m2);
    }
    bc_free(&m1);
    free(text);
    free(diag);
    return ok;
}

static void walk(const char *dir, int *files, int *trips)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path, files, trips);
            continue;
        }
        size_t n = strlen(path), len;
        if (n < 6 || strcmp(path + n - 6, ".clasm"))
            continue;
        char *src = read_file(path, &len);
        bool assembled;
        if (src) {
            ++*files;
            round_trip(src, len, path, &assembled);
            *trips += assembled;
        }
        free(src);
    }
    closedir(d);
}

static void round_trip_files(void)
{
    int files = 0, trips = 0;
    walk("examples", &files, &trips);
    walk("bench", &files, &trips);
    walk("tests", &files, &trips);
    if (!files)
        t_skip("no .clasm files (run from the repository root)");
    else
        printf("round trip: %d of %d .clasm files assemble and round-trip\n",
               trips, files);
}

/* docs/ir.md's opcode table is generated from vm/opcodes.def. */
static void opcode_doc_current(void)
{
    size_t len;
    char *doc = read_file("docs/ir.md", &len);
    if (!doc) {
        t_skip("no docs/ir.md (run from the repository root)");
        return;
    }
    const char *open = "<!-- opcodes -->\n", *close = "<!-- /opcodes -->";
    char *a = strstr(doc, open), *b = a ? strstr(a, close) : NULL;
    CHECK(a && b, "docs/ir.md has no opcode markers");
    char *gen = NULL;
    size_t glen = 0;
    FILE *f = open_memstream(&gen, &glen);
    op_write_md(f);
    fclose(f);
    if (a && b) {
        a += strlen(open);
        CHECK((size_t)(b - a) == glen && !memcmp(a, gen, glen),
              "docs/ir.md's opcode table is stale: regenerate it with "
              "`clvm dis --opcodes-md`");
    }
    free(gen);
    free(doc);
}

/* Every diagnostic is "file:line:col: error: " on its own line; each
 * bad line is reported. */
static void diagnostics(void)
{
    bc_module m;
    char *diag;
    const char *src = "kernel k()\n"
                      "int a = 1.5\n"
                      "b = 2\n"
                      "int a\n"
                      "a = a + \n"
                      "end\n"
                      "end\n";
    int e = assemble(src, &m, &diag);
    CHECK(e == 5, "%d errors", e);
    static const char *const at[] = {"t.clasm:2:9: error: ",
                                     "t.clasm:3:1: error: ",
                                     "t.clasm:4:5: error: ",
                                     "t.clasm:5:9: error: ",
                                     "t.clasm:7:1: error: "};
    for (size_t i = 0; i < 5; i++)
        CHECK(diag && strstr(diag, at[i]), "no \"%s\" in:\n%s", at[i], diag);
    free(diag);
}

/* The REPL's use: a kernel fed a line at a time, expressions compiled
 * into registers of it. */
static void incremental(void)
{
    asm_ctx *a = asm_open("repl", NULL);
    uint32_t r;
    ty_t t;
    CHECK(a != NULL, "open");
    if (!a)
        return;
    static const char *const lines[] = {"kernel repl(global float *p)",
                                        "float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f)",
                                        "int i = 3"};
    for (size_t i = 0; i < 3; i++)
        asm_line(a, lines[i], strlen(lines[i]));
    CHECK(!asm_expr(a, "v * 2.0f", 8, &r, &t) && t.s == TY_FLOAT && t.n == 4,
          "float4 expression");
    CHECK(!asm_expr(a, "as_uint4(v).y", 13, &r, &t) && t.s == TY_UINT &&
              t.n == 1, "uint expression");
    /* p v _k1 i _k2 ...: i is register 3 */
    CHECK(!asm_expr(a, "i", 1, &r, &t) && r == 3 && t.s == TY_INT,
          "a register itself");
    CHECK(asm_expr(a, "v + i", 5, &r, &t) < 0, "type error reported");
    asm_line(a, "end", 3);
    bc_module m;
    CHECK(asm_finish(a, &m) == 1, "one error");
    asm_close(a);
}

/* ---- robustness ---- */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Garbage and mutations of a valid file never crash or hang; whatever
 * assembles verifies (asm_assemble checks) and round-trips. */
static void robustness(void)
{
    size_t len;
    char *base = read_file("tests/asm/features.clasm", &len);
    if (!base) {
        t_skip("no tests/asm/features.clasm");
        return;
    }
    char *buf = malloc(len * 2 + 64);
    int ok = 0;
    for (int it = 0; it < 1500 && buf; it++) {
        size_t n = len;
        memcpy(buf, base, len);
        int edits = 1 + (int)(rnd() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rnd() % n;
            switch (rnd() % 5) {
            case 0: buf[at] = (char)rnd(); break;               /* a byte */
            case 1: {
                static const char pick[] = "()[],.;=+-*/%&|^~!<>?:\"\n 0x1fu";
                buf[at] = pick[rnd() % (sizeof pick - 1)];
                break;
            }
            case 2:                                              /* delete */
                memmove(buf + at, buf + at + 1, n - at - 1), n--;
                break;
            case 3: {                                          /* duplicate */
                size_t k = 1 + rnd() % 40;
                if (at + k > n)
                    k = n - at;
                if (n + k <= len * 2 + 32) {
                    memmove(buf + at + k, buf + at, n - at);
                    n += k;
                }
                break;
            }
            default:
                buf[at] = '\n';
            }
        }
        bool assembled;
        round_trip(buf, n, "mutant", &assembled);
        ok += assembled;
    }
    /* Pure garbage, including NUL bytes. */
    for (int it = 0; it < 200 && buf; it++) {
        size_t n = rnd() % 2000;
        for (size_t i = 0; i < n; i++)
            buf[i] = (char)rnd();
        bc_module m;
        if (!asm_assemble(buf, n, "garbage", &m, NULL))
            bc_free(&m);
    }
    free(buf);
    free(base);
    printf("robustness: %d of 1500 mutants still assembled\n", ok);
}

/* Huge lines, many tokens, many registers: bounded and fast. */
static void limits(void)
{
    size_t n = 1 << 20;
    char *s = malloc(n + 4096);
    bc_module m;
    if (!s)
        return;
    /* 10000 declarations and uses: name lookup must not be quadratic. */
    size_t k = (size_t)sprintf(s, "kernel k()\n");
    for (int i = 0; i < 10000; i++)
        k += (size_t)sprintf(s + k, "int r%d = %d\n", i, i);
    k += (size_t)sprintf(s + k, "end\n");
    CHECK(!asm_assemble(s, k, "many", &m, NULL), "10000 registers");
    if (!m.nkernels)
        return;
    CHECK(m.kernels[0].nregs == 20000, "%u registers", m.kernels[0].nregs);
    bc_free(&m);
    /* A one-megabyte line of '+': an error, not a crash. */
    k = (size_t)sprintf(s, "kernel k()\nint i = 1");
    while (k < n)
        s[k++] = '+', s[k++] = '1';
    k += (size_t)sprintf(s + k, "\nend\n");
    char *diag;
    FILE *f = open_memstream(&diag, &(size_t){0});
    int e = asm_assemble(s, k, "long", &m, f);
    fclose(f);
    CHECK(e == 1, "%d errors for a long chain", e);
    CHECK(strlen(diag) < 2000, "the echoed line is cut to a window");
    free(diag);
    free(s);
}

/* dis of modules with random damage: whatever bc_verify accepts prints;
 * nothing crashes. */
static void dis_damaged(void)
{
    size_t len;
    char *src = read_file("tests/asm/features.clasm", &len);
    bc_module m;
    if (!src || asm_assemble(src, len, "f", &m, NULL)) {
        free(src);
        t_skip("features.clasm does not assemble");
        return;
    }
    uint8_t *bytes;
    size_t blen;
    CHECK(!bc_write(&m, &bytes, &blen), "write");
    bc_free(&m);
    FILE *null = fopen("/dev/null", "w");
    int accepted = 0;
    for (int it = 0; it < 3000 && null; it++) {
        uint8_t *b = malloc(blen);
        memcpy(b, bytes, blen);
        for (int e = 0; e < 1 + (int)(rnd() % 3); e++)
            b[rnd() % blen] ^= (uint8_t)(1u << (rnd() % 8));
        char err[256];
        bc_module d;
        if (!bc_read(b, blen, &d, err, sizeof err)) {
            accepted++;
            dis_module(&d, null, DIS_VERBOSE);
            bc_free(&d);
        }
        free(b);
    }
    if (null)
        fclose(null);
    free(bytes);
    free(src);
    printf("dis: %d of 3000 damaged modules passed the verifier\n", accepted);
}

int main(void)
{
    RUN(lowering);
    RUN(constants_and_temps);
    RUN(line_table);
    RUN(literals);
    RUN(diagnostics);
    RUN(incremental);
    RUN(round_trip_files);
    RUN(opcode_doc_current);
    RUN(robustness);
    RUN(limits);
    RUN(dis_damaged);
    return t_summary("asm");
}
