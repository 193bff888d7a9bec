/* Fuzz target: a control block (fuzz.h) and then .bc bytes. A module that
 * reads and verifies runs under a step limit; bc_verify's promise is that
 * nothing it accepts can crash the interpreter. */
#include "vm/bcfile.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FUZZ_CTL)
        return 0;
    bc_module m;
    char err[512];
    if (bc_read(data + FUZZ_CTL, size - FUZZ_CTL, &m, err, sizeof err))
        return 0;
    fuzz_run_module(&m, data, FUZZ_CTL);
    bc_free(&m);
    return 0;
}
