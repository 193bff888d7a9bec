/* Host calls and printf: vm/native.c's binding rules, the externs section
 * and the verifier's CALL/PRINTF checks, printf's output order. Needs
 * tests/native/libclvmtest.so (the Makefile builds it); run from the
 * repository root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/asm.h"
#include "vm/bcfile.h"
#include "vm/native.h"
#include "tests/lib/test.h"
#include "vm/vm.h"

static const char *const LIB = "tests/native/libclvmtest.so";

static int assemble(const char *src, bc_module *m)
{
    return asm_assemble(src, strlen(src), "t.clasm", m, stderr);
}

static bool have_lib(void)
{
    if (access(LIB, R_OK) == 0)
        return true;
    t_skip("%s not built", LIB);
    return false;
}

static void binding(void)
{
    if (!have_lib())
        return;
    char err[256];
    bc_module m;
    vm_natives *n = vm_natives_new();
    CHECK(n != NULL, "new");
    CHECK(vm_natives_open(n, "tests/native/none.so", err, sizeof err) == -1 &&
          strstr(err, "none.so"), "a missing library: %s", err);
    static const struct {
        const char *decl;
        bool ok;
    } cases[] = {
        {"extern int clvmtest_add(int a, int b)", true},
        {"extern int system(const char *c)", false},   /* libc's */
        {"extern int clvmtest_data()", false},         /* not a function */
        {"extern int clvmtest_nothing()", false},
        {"extern void *malloc(ulong n)", false},       /* no pointer result */
    };
    CHECK(vm_natives_open(n, LIB, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[256];
        snprintf(src, sizeof src, "%s\nkernel k()\nend\n", cases[i].decl);
        if (asm_assemble(src, strlen(src), "t.clasm", &m, NULL)) {
            CHECK(!cases[i].ok, "%s: does not assemble", cases[i].decl);
            continue;
        }
        int r = vm_natives_bind(n, &m, err, sizeof err);
        CHECK((r == 0) == cases[i].ok, "%s: bind %d (%s)", cases[i].decl, r,
              err);
        if (!cases[i].ok)
            CHECK(strstr(err, "no --native library defines it") != NULL,
                  "%s: %s", cases[i].decl, err);
        bc_free(&m);
    }
    vm_natives_free(n);
    vm_natives_free(NULL);
}

/* A module with externs runs only when bound to them. */
static void unbound(void)
{
    if (!have_lib())
        return;
    bc_module m;
    vm_trap t;
    char err[256];
    const char *src = "extern int clvmtest_add(int a, int b)\n"
                      "kernel k(global int *y)\n"
                      "    int i = get_global_id(0)\n"
                      "    y[i] = clvmtest_add(i, 40)\n"
                      "end\n";
    int32_t y[3] = {0};
    vm_arg args[1] = {{(uint8_t *)y, sizeof y}};
    vm_ndrange nd = {.dims = 1, .global = {3}};
    CHECK(assemble(src, &m) == 0, "assembles");
    CHECK(vm_run(&m, 0, args, &nd, &t) == VM_TRAP_ARGS &&
          strstr(t.msg, "clvmtest_add"), "unbound: %s", t.msg);
    vm_natives *n = vm_natives_new();
    CHECK(vm_natives_bind(n, &m, err, sizeof err) == -1, "no library");
    CHECK(vm_natives_open(n, LIB, err, sizeof err) == 0, "%s", err);
    CHECK(vm_natives_bind(n, &m, err, sizeof err) == 0, "%s", err);
    nd.natives = n;
    CHECK(vm_run(&m, 0, args, &nd, &t) == 0, "%s", t.msg);
    CHECK(y[0] == 40 && y[1] == 41 && y[2] == 42, "%d %d %d", y[0], y[1],
          y[2]);
    vm_natives_free(n);
    bc_free(&m);
}

/* The externs section survives bc_write/bc_read; the verifier checks
 * CALL against the signature and PRINTF's format against its registers. */
static void module_rules(void)
{
    bc_module m, r;
    char err[256];
    const char *src = "extern float clvmtest_scale(float x, float k)\n"
                      "extern void clvmtest_fill(float *p, int n, float v)\n"
                      "kernel k(global float *y)\n"
                      "    float4 v = 2.0f\n"
                      "    v = clvmtest_scale(v, 3.0f)\n"
                      "    clvmtest_fill(y, 4, v.x)\n"
                      "    printf(\"%v4hlf %s\\n\", v, \"ok\")\n"
                      "end\n";
    CHECK(assemble(src, &m) == 0, "assembles");
    uint8_t *buf;
    size_t len;
    CHECK(bc_write(&m, &buf, &len) == 0, "writes");
    CHECK(bc_read(buf, len, &r, err, sizeof err) == 0, "%s", err);
    CHECK(r.nexterns == 2 && r.externs[1].nparams == 3 &&
          r.externs[1].params[0].kind == BC_C_PTR &&
          r.externs[0].ret.s == TY_FLOAT, "externs read back");
    free(buf);
    bc_free(&r);
    /* Find CALL, CALLV and PRINTF and break each in turn. */
    bc_kernel *k = &m.kernels[0];
    uint32_t at[BCB_COUNT] = {0};
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc]))
        at[bc_ops[BC_OPCODE(k->code[pc])].base] = pc + 1;
    CHECK(at[BCB_CALL] && at[BCB_CALLV] && at[BCB_PRINTF], "all three ops");
    if (!at[BCB_CALL] || !at[BCB_CALLV] || !at[BCB_PRINTF]) {
        bc_free(&m);
        return;
    }
    CHECK(bc_verify(&m, err, sizeof err) == 0, "%s", err);
    struct {
        uint32_t *word;
        uint32_t value;
        const char *msg;
    } breaks[] = {
        {&k->code[at[BCB_CALL] + 1], 7, "extern 7 out of range"},
        {&k->code[at[BCB_CALL] + 1], 1, "returns nothing"},
        {&k->code[at[BCB_CALLV]], 0, "returns a value"},
        {&k->code[at[BCB_CALLV] - 1],
         k->code[at[BCB_CALLV] - 1] & ~0xff000000u, "0 arguments"},
        {&k->code[at[BCB_PRINTF]], m.kernels[0].name, "format"},
        {&k->code[at[BCB_CALLV] + 1], k->code[at[BCB_CALLV] + 3],
         "parameter 1"},
    };
    for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++) {
        uint32_t keep = *breaks[i].word;
        *breaks[i].word = breaks[i].value;
        CHECK(bc_verify(&m, err, sizeof err) == -1 &&
              strstr(err, breaks[i].msg), "break %zu: %s", i, err);
        *breaks[i].word = keep;
    }
    /* a format the assembler never writes: %n, %s (no string registers) */
    static const char *const bad[] = {"%n", "%s", "%d"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint32_t keep = k->code[at[BCB_PRINTF]];
        size_t n = strlen(bad[i]);
        char *nstr = realloc(m.strings, m.nstrings + n + 1);
        CHECK(nstr != NULL, "memory");
        if (!nstr)
            break;
        m.strings = nstr;
        memcpy(m.strings + m.nstrings, bad[i], n + 1);
        k->code[at[BCB_PRINTF]] = m.nstrings;
        m.nstrings += (uint32_t)n + 1;
        CHECK(bc_verify(&m, err, sizeof err) == -1 && strstr(err, "PRINTF"),
              "format %s: %s", bad[i], err);
        k->code[at[BCB_PRINTF]] = keep;
    }
    bc_free(&m);
}

/* Each work-item's output is one unit; units come in work-group order,
 * then local id order, whatever the thread count and warp width. */
static void printf_order(void)
{
    bc_module m;
    vm_trap t;
    const char *src = "kernel k()\n"
                      "    uint i = get_global_id(0)\n"
                      "    printf(\"<%u\", i)\n"
                      "    if (i & 1) == 0\n"
                      "        printf(\" even\")\n"
                      "    end\n"
                      "    printf(\">\\n\")\n"
                      "end\n";
    CHECK(assemble(src, &m) == 0, "assembles");
    char *want = NULL;
    size_t wlen = 0;
    FILE *w = open_memstream(&want, &wlen);
    for (uint32_t i = 0; i < 300; i++)
        fprintf(w, "<%u%s>\n", i, i % 2 ? "" : " even");
    fclose(w);
    static const unsigned cfg[][3] = {{1, 0, 64}, {4, 10, 8}, {3, 30, 1},
                                      {2, 300, 64}};
    for (size_t c = 0; c < sizeof cfg / sizeof *cfg; c++) {
        char *got = NULL;
        size_t glen = 0;
        FILE *f = open_memstream(&got, &glen);
        vm_ndrange nd = {.dims = 1, .global = {300}, .local = {cfg[c][1]},
                         .threads = cfg[c][0], .warp = cfg[c][2], .out = f};
        CHECK(vm_run(&m, 0, NULL, &nd, &t) == 0, "%s", t.msg);
        fclose(f);
        CHECK(glen == wlen && !memcmp(got, want, wlen),
              "threads %u local %u warp %u: output differs", cfg[c][0],
              cfg[c][1], cfg[c][2]);
        free(got);
    }
    free(want);
    bc_free(&m);
}

/* A trap: the output of the groups before the trapping one, and its own
 * up to the trap; nothing after it. */
static void printf_trap(void)
{
    bc_module m;
    vm_trap t;
    const char *src = "kernel k(global int *y)\n"
                      "    int i = get_global_id(0)\n"
                      "    printf(\"%d\\n\", i)\n"
                      "    if i == 5\n"
                      "        y[100] = 1\n"
                      "    end\n"
                      "end\n";
    CHECK(assemble(src, &m) == 0, "assembles");
    int32_t y[1];
    vm_arg args[1] = {{(uint8_t *)y, sizeof y}};
    for (unsigned th = 1; th <= 4; th += 3) {
        char *got = NULL;
        size_t glen = 0;
        FILE *f = open_memstream(&got, &glen);
        vm_ndrange nd = {.dims = 1, .global = {12}, .local = {2},
                         .threads = th, .out = f};
        CHECK(vm_run(&m, 0, args, &nd, &t) == VM_TRAP_BOUNDS, "%s", t.msg);
        fclose(f);
        CHECK(got && !strcmp(got, "0\n1\n2\n3\n4\n5\n"), "threads %u: '%s'",
              th, got ? got : "");
        free(got);
    }
    bc_free(&m);
}

int main(void)
{
    RUN(binding);
    RUN(unbound);
    RUN(module_rules);
    RUN(printf_order);
    RUN(printf_trap);
    return t_summary("native");
}
