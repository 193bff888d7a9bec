/* Fuzz target: bytes into the .bc reader and verifier. Whatever the bytes,
 * bc_read must not crash; what it accepts must verify, write back to bytes
 * that read as the same module (bc_write's output is canonical), and
 * disassemble. dis_module may return -1 here: register names need not be
 * unique or identifiers in a .bc (docs/bytecode.md), and dis renames those
 * it cannot print. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/bcfile.h"
#include "asm/dis.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bc_module m;
    char err[512];
    if (bc_read(data, size, &m, err, sizeof err)) {
        FUZZ_CHECK(err[0] != 0 && memchr(err, 0, sizeof err) != NULL,
                   "bc_read failed without a message");
        return 0;
    }
    FUZZ_CHECK(bc_verify(&m, err, sizeof err) == 0, "bc_read accepts, bc_verify rejects");
    for (uint32_t k = 0; k < m.nkernels; k++)
        FUZZ_CHECK(bc_verify_kernel(&m, k, NULL, err, sizeof err) == 0,
                   "bc_verify accepts, bc_verify_kernel rejects");

    uint8_t *b1, *b2;
    size_t n1, n2;
    FUZZ_CHECK(bc_write(&m, &b1, &n1) == 0, "bc_write failed");
    bc_module r;
    FUZZ_CHECK(bc_read(b1, n1, &r, err, sizeof err) == 0,
               "bc_read rejects what bc_write wrote");
    FUZZ_CHECK(bc_write(&r, &b2, &n2) == 0, "bc_write failed");
    FUZZ_CHECK(n1 == n2 && !memcmp(b1, b2, n1), "write/read/write differs");
    free(b1);
    free(b2);
    bc_free(&r);

    FILE *out = fopen("/dev/null", "w");
    FUZZ_CHECK(out != NULL, "cannot open /dev/null");
    dis_module(&m, out, DIS_VERBOSE);
    fclose(out);
    bc_free(&m);
    return 0;
}
