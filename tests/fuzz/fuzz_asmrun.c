/* Fuzz target: a control block (fuzz.h) and then IR text. Text that
 * assembles runs under a step limit. It reaches deeper into the
 * interpreter than fuzz_run, since mutated text stays well-typed more
 * often than mutated bytes stay verifiable. */
#include "asm/asm.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FUZZ_CTL)
        return 0;
    bc_module m;
    if (asm_assemble((const char *)data + FUZZ_CTL, size - FUZZ_CTL,
                     "fuzz.clasm", &m, NULL))
        return 0;
    fuzz_run_module(&m, data, FUZZ_CTL);
    bc_free(&m);
    return 0;
}
