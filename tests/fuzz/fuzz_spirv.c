/* Fuzz target: bytes into the SPIR-V reader and translator (asm/spirv/).
 * Whatever the bytes, spv_translate must not crash, hang or leak, and must
 * say why it refuses a module; a module it accepts must pass bc_verify,
 * disassemble, and run (a few work-items, a small step limit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/dis.h"
#include "asm/spirv/spirv.h"
#include "vm/bcfile.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *diag = fopen("/dev/null", "w");
    FUZZ_CHECK(diag != NULL, "cannot open /dev/null");
    char *msg = NULL;
    size_t mlen = 0;
    FILE *mem = open_memstream(&msg, &mlen);
    FUZZ_CHECK(mem != NULL, "open_memstream failed");
    bc_module m;
    int ne = spv_translate(data, size, "fuzz.spv", &m, mem);
    fclose(mem);
    if (ne) {
        FUZZ_CHECK(mlen > 0, "spv_translate refused without a message");
        free(msg);
        fclose(diag);
        return 0;
    }
    free(msg);
    char err[512];
    FUZZ_CHECK(bc_verify(&m, err, sizeof err) == 0,
               "spv_translate made a module bc_verify rejects");
    dis_module(&m, diag, DIS_VERBOSE);
    fclose(diag);
    /* The first bytes of the module as the control block: the run is
     * as varied as the input. */
    if (m.nkernels)
        fuzz_run_module(&m, data, size < FUZZ_CTL ? size : FUZZ_CTL);
    bc_free(&m);
    return 0;
}
