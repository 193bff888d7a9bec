/* The SPIR-V reader on modules built word by word (no clang needed): a
 * valid kernel translates and verifies; every truncation and many
 * single-word corruptions are refused with a message or translated into a
 * module that verifies, never a crash; the messages name the word; a
 * big-endian module reads the same; an irreducible graph is refused. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/dis.h"
#include "asm/spirv/spirv.h"
#include "vm/bcfile.h"
#include "tests/lib/test.h"

static uint32_t w[256];
static unsigned nw;

static void ins(uint32_t op, unsigned n, ...)
{
    va_list ap;
    va_start(ap, n);
    w[nw++] = op | (n + 1) << 16;
    for (unsigned i = 0; i < n; i++)
        w[nw++] = va_arg(ap, uint32_t);
    va_end(ap);
}

static void header(uint32_t bound)
{
    nw = 0;
    w[nw++] = SpvMagicNumber, w[nw++] = 0x00010100, w[nw++] = 0;
    w[nw++] = bound, w[nw++] = 0;
    ins(SpvOpCapability, 1, SpvCapabilityAddresses);
    ins(SpvOpCapability, 1, SpvCapabilityKernel);
    ins(SpvOpMemoryModel, 2, SpvAddressingModelPhysical64,
        SpvMemoryModelOpenCL);
    ins(SpvOpEntryPoint, 3, SpvExecutionModelKernel, 6, 'k');
    ins(SpvOpName, 2, 7, 'p');
}

/* void (1), uint (2), global uint * (3), void (global uint *) (4) */
static void types(void)
{
    ins(SpvOpTypeVoid, 1, 1);
    ins(SpvOpTypeInt, 3, 2, 32, 0);
    ins(SpvOpTypePointer, 3, 3, SpvStorageClassCrossWorkgroup, 2);
    ins(SpvOpTypeFunction, 3, 4, 1, 3);
}

/* kernel void k(global uint *p) { p[0] = 7; } */
static void kernel_store(void)
{
    header(9);
    types();
    ins(SpvOpConstant, 3, 2, 5, 7);
    ins(SpvOpFunction, 4, 1, 6, 0, 4);
    ins(SpvOpFunctionParameter, 2, 3, 7);
    ins(SpvOpLabel, 1, 8);
    ins(SpvOpStore, 2, 7, 5);
    ins(SpvOpReturn, 0);
    ins(SpvOpFunctionEnd, 0);
}

/* Translates n bytes of buf; returns the error count, the messages in
 * msg (malloc'd). An accepted module must verify and disassemble. */
static int translate(const uint8_t *buf, size_t n, char **msg)
{
    size_t len = 0;
    FILE *f = open_memstream(msg, &len);
    bc_module m;
    int ne = spv_translate(buf, n, "t.spv", &m, f);
    fclose(f);
    if (!ne) {
        char err[256];
        CHECK(bc_verify(&m, err, sizeof err) == 0, "accepted but: %s", err);
        FILE *o = fopen("/dev/null", "w");
        dis_module(&m, o, 0);
        fclose(o);
        bc_free(&m);
    } else {
        CHECK(len > 0, "refused without a message");
    }
    return ne;
}

static void valid_kernel(void)
{
    char *msg;
    kernel_store();
    CHECK(translate((const uint8_t *)w, 4 * nw, &msg) == 0, "%s", msg);
    free(msg);
    bc_module m;
    FILE *f = fopen("/dev/null", "w");
    CHECK(spv_translate((const uint8_t *)w, 4 * nw, "t.spv", &m, f) == 0,
          "refused");
    fclose(f);
    CHECK(m.nkernels == 1 && !strcmp(bc_str(&m, m.kernels[0].name), "k") &&
              m.kernels[0].nparams == 1 &&
              !strcmp(bc_str(&m, m.kernels[0].params[0].name), "p"),
          "kernel k(p)");
    bc_free(&m);
}

static void truncations(void)
{
    kernel_store();
    for (size_t n = 0; n < 4 * nw; n++) {
        char *msg;
        CHECK(translate((const uint8_t *)w, n, &msg) != 0,
              "%zu of %u bytes accepted", n, 4 * nw);
        free(msg);
    }
}

static void corruptions(void)
{
    kernel_store();
    uint32_t orig[256];
    unsigned n = nw;
    memcpy(orig, w, sizeof orig);
    static const uint32_t vals[] = {0, 1, 2, 3, 8, 9, 0xffff, 0x10000,
                                    0x20001, 0x7fffffff, 0xffffffff};
    for (unsigned i = 0; i < n; i++)
        for (size_t v = 0; v < sizeof vals / sizeof vals[0] + 2; v++) {
            memcpy(w, orig, sizeof orig);
            w[i] = v < sizeof vals / sizeof vals[0] ? vals[v]
                   : v == sizeof vals / sizeof vals[0] ? orig[i] + 1
                   : orig[i] ^ 0x00010000;   /* word count + or - 1 */
            char *msg = NULL;
            translate((const uint8_t *)w, 4 * n, &msg);
            free(msg);
        }
}

static void messages(void)
{
    char *msg;
    kernel_store();
    w[0] = 0x12345678;
    CHECK(translate((const uint8_t *)w, 4 * nw, &msg) &&
              strstr(msg, "t.spv: word 0: error: not a SPIR-V module"),
          "%s", msg);
    free(msg);
    kernel_store();
    w[3] = 0;
    CHECK(translate((const uint8_t *)w, 4 * nw, &msg) &&
              strstr(msg, "word 3: error: id bound 0"), "%s", msg);
    free(msg);
    kernel_store();
    w[nw - 4] = 99;   /* OpStore's pointer */
    CHECK(translate((const uint8_t *)w, 4 * nw, &msg) &&
              strstr(msg, "id 99 is not defined"), "%s", msg);
    free(msg);
    kernel_store();
    w[5] = SpvOpCapability | 60u << 16;
    CHECK(translate((const uint8_t *)w, 4 * nw, &msg) &&
              strstr(msg, "word 5: error: instruction word count 60 runs "
                          "past the end"), "%s", msg);
    free(msg);
}

static void big_endian(void)
{
    kernel_store();
    uint8_t be[1024];
    for (unsigned i = 0; i < nw; i++)
        for (unsigned b = 0; b < 4; b++)
            be[4 * i + b] = (uint8_t)(w[i] >> (24 - 8 * b));
    char *msg;
    CHECK(spv_is(be, 4 * nw), "magic");
    CHECK(translate(be, 4 * nw, &msg) == 0, "%s", msg);
    free(msg);
}

/* entry -> a or b; a -> b; b -> a: a loop entered at both a and b. */
static void irreducible(void)
{
    header(14);
    types();
    ins(SpvOpTypeBool, 1, 5);
    ins(SpvOpConstantTrue, 2, 5, 9);
    ins(SpvOpFunction, 4, 1, 6, 0, 4);
    ins(SpvOpFunctionParameter, 2, 3, 7);
    ins(SpvOpLabel, 1, 8);
    ins(SpvOpBranchConditional, 3, 9, 10, 11);
    ins(SpvOpLabel, 1, 10);
    ins(SpvOpBranch, 1, 11);
    ins(SpvOpLabel, 1, 11);
    ins(SpvOpBranchConditional, 3, 9, 10, 12);
    ins(SpvOpLabel, 1, 12);
    ins(SpvOpReturn, 0);
    ins(SpvOpFunctionEnd, 0);
    char *msg;
    CHECK(translate((const uint8_t *)w, 4 * nw, &msg) &&
              strstr(msg, "irreducible control flow"), "%s", msg);
    free(msg);
}

int main(void)
{
    RUN(valid_kernel);
    RUN(truncations);
    RUN(corruptions);
    RUN(messages);
    RUN(big_endian);
    RUN(irreducible);
    return t_summary("spirv");
}
