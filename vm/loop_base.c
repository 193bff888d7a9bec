/* The dispatch loop for the baseline instruction set (x86-64: SSE2), the
 * one every host runs and the only one off x86-64. vm/loop.h says why
 * each level is a file of its own. */
#if defined(__clang__)
/* IVDEP's assume_safety also asks for vectorisation, which clang reports
 * it could not do when instrumenting (sanitizers). Set before any include:
 * clang maps such late diagnostics back to the first inclusion of
 * opcodes.def. */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "vm/loop.h"

#define INTERP_LOOP interp_base
#define VM_STREAM vm_stream16
#define INTERP_TARGET
#include "vm/dispatch.inc"
