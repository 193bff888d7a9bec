/* The dispatch loop for AVX2: its handler loops are twice as wide as the
 * baseline's (vm_interp_pick in vm/interp.c takes it where the host has
 * AVX2 and AVX-512 measured slower). Built only where GCC's target
 * attributes are (x86-64, not CLVM_NO_AVX2). */
#if defined(__clang__)
/* as in vm/loop_base.c: set before any include */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "vm/loop.h"

#ifdef VM_HAVE_AVX2
#define INTERP_LOOP interp_avx2
#define VM_STREAM vm_stream32
#define INTERP_TARGET __attribute__((target("avx2")))
#include "vm/dispatch.inc"
#endif
