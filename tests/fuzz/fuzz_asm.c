/* Fuzz target: IR text into the assembler. Whatever the text, asm_assemble
 * must not crash; when it succeeds the module must verify, survive
 * bc_write/bc_read unchanged, and disassemble into IR that assembles back
 * to the same bytes (asm/dis.h promises that). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "vm/bcfile.h"
#include "asm/dis.h"
#include "tests/fuzz/fuzz.h"

static const char *const FILENAME = "fuzz.clasm";

static int same_bytes(const bc_module *m, const uint8_t *b, size_t n)
{
    uint8_t *b2;
    size_t n2;
    FUZZ_CHECK(bc_write(m, &b2, &n2) == 0, "bc_write failed");
    int same = n2 == n && !memcmp(b, b2, n);
    free(b2);
    return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bc_module m;
    if (asm_assemble((const char *)data, size, FILENAME, &m, NULL))
        return 0;
    char err[512];
    FUZZ_CHECK(bc_verify(&m, err, sizeof err) == 0, "assembled but fails verify");

    uint8_t *bytes;
    size_t n;
    FUZZ_CHECK(bc_write(&m, &bytes, &n) == 0, "bc_write failed");
    bc_module r;
    FUZZ_CHECK(bc_read(bytes, n, &r, err, sizeof err) == 0,
               "bc_read rejects what bc_write wrote");
    FUZZ_CHECK(same_bytes(&r, bytes, n), "bc_read/bc_write changed the module");
    bc_free(&r);

    char *text;
    size_t tlen;
    FILE *out = open_memstream(&text, &tlen);
    FUZZ_CHECK(out != NULL, "open_memstream failed");
    int drc = dis_module(&m, out, 0);
    fclose(out);
    FUZZ_CHECK(drc == 0, "dis_module failed on a verified module");
    bc_module d;
    if (asm_assemble(text, tlen, FILENAME, &d, NULL)) {
        fprintf(stderr, "--- disassembly that does not assemble:\n%.*s",
                (int)tlen, text);
        asm_assemble(text, tlen, FILENAME, &d, stderr);
        FUZZ_CHECK(0, "disassembly does not assemble");
    }
    if (!same_bytes(&d, bytes, n)) {
        fprintf(stderr, "--- disassembly:\n%.*s", (int)tlen, text);
        FUZZ_CHECK(0, "disassembly assembles to different bytes");
    }
    bc_free(&d);
    free(text);
    free(bytes);
    bc_free(&m);
    return 0;
}
