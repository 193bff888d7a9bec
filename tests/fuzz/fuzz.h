/* Shared by the libFuzzer targets in tests/fuzz (see fuzz.mk).
 *
 * A target that runs kernels takes its first FUZZ_CTL bytes as the control
 * block fuzz_run_module reads (kernel, NDRange, warp, step limit, argument
 * sizes and contents); the rest is the module, as bytes or as IR text. */
#ifndef CLVM_FUZZ_H
#define CLVM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "vm/bytecode.h"

enum { FUZZ_CTL = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Dies (abort, so libFuzzer saves the input) with msg when !ok. */
#define FUZZ_CHECK(ok, msg) fuzz_check((ok), (msg), __FILE__, __LINE__)
void fuzz_check(int ok, const char *msg, const char *file, int line);

/* Runs one kernel of the verified module m with arguments and an NDRange
 * chosen by ctl[0..nctl): small buffers allocated to their exact size (so
 * ASan sees any access past them), at most 256 work-items and a small step
 * limit. Any trap is fine; a crash or sanitizer report is the bug. */
void fuzz_run_module(const bc_module *m, const uint8_t *ctl, size_t nctl);

#endif
