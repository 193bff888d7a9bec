/* The interpreter's entry: the choice of a dispatch loop for this host
 * (vm/loop_*.c, one per instruction-set level) and running a warp on the
 * one a program was decoded for. */
#include "vm/loop.h"

#include <stdlib.h>
#include <string.h>

/* AMD family 19h (Zen 3, Zen 4) runs 512-bit instructions as two 256-bit
 * halves; on a Zen 4 (EPYC, 2 cores) the AVX2 loop measured faster than
 * the AVX-512 one: bench 14% and loop 4% less time (min of 11 alternating
 * runs each, bench/README.md), so it is the default there. */
#ifdef VM_HAVE_AVX2
static bool avx2_preferred(void)
{
    return __builtin_cpu_is("amd") && __builtin_cpu_is("amdfam19h");
}
#endif

/* The best the host has: AVX2 over the baseline, AVX-512 over AVX2
 * except where AVX2 measured faster (avx2_preferred). The environment
 * variable CLVM_ISA=base or CLVM_ISA=avx2 caps it, CLVM_ISA=avx512 asks
 * for AVX-512 wherever the host has it. */
vm_runfn vm_interp_pick(const void *const **tab)
{
    vm_runfn run = interp_base;
#ifdef VM_HAVE_AVX2
    const char *isa = getenv("CLVM_ISA");
    const bool base = isa && !strcmp(isa, "base"),
               avx2 = isa && !strcmp(isa, "avx2"),
               avx512 = isa && !strcmp(isa, "avx512");
    if (__builtin_cpu_supports("avx2") && !base)
        run = interp_avx2;
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && !base && !avx2 &&
        (avx512 || !avx2_preferred()))
        run = interp_avx512;
#endif
    *tab = NULL;
#ifndef CLVM_SWITCH_DISPATCH
    run(NULL, 0, tab);
#endif
    return run;
}

enum vm_stop vm_warp_run(vm_warp *w, uint64_t budget)
{
    return w->P->run(w, budget, NULL);
}
