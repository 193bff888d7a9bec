/* The dispatch loop for AVX-512 (F, BW, DQ, VL; 512-bit vectors): twice
 * as wide again as AVX2's, a 64-lane row of ints is 4 instructions.
 * Built only where GCC's target attributes are (x86-64, not
 * CLVM_NO_AVX2); vm_interp_pick (vm/interp.c) says where it runs. */
#if defined(__clang__)
/* as in vm/loop_base.c: set before any include */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "vm/loop.h"

#ifdef VM_HAVE_AVX2
#define INTERP_LOOP interp_avx512
#define VM_STREAM vm_stream32
#ifdef __clang__   /* clang's word for GCC's prefer-vector-width */
#define INTERP_TARGET                                                       \
    __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"),           \
                   min_vector_width(512)))
#else
#define INTERP_TARGET                                                       \
    __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,"            \
                          "prefer-vector-width=512")))
#endif
#include "vm/dispatch.inc"
#endif
