// RUN: clvm run %s --global 64 --local 16 --arg g=zeros:16 --arg out=zeros:32 --print g:hex --print out:hex
// Found by the difftest's sync statements and the CTS printf suite, each
// once wrong or refused by the front end: atomic_min/atomic_max on a uint
// array (SPIR-V's integers have no sign, so the array reaches the
// translator as int: OpAtomicUMin through an int pointer compares
// unsigned), printf of "" (an OpConstantNull string), of nan(0u) (the bits
// printed as an integer, 2143289344.000000) and with an argument past the
// format (ignored, C99 7.19.6.1). PoCL agrees (tests/pocl/clkernels.py).
#pragma clang diagnostic ignored "-Wformat-extra-args"

kernel void k(global uint *g, global uint *out)
{
    local uint l[2];
    uint i = get_global_id(0), li = get_local_id(0);
    if (li == 0) {
        l[0] = 0x80000000u;
        l[1] = 5u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_min(l, i * 0x04000001u);   /* unsigned: the top bit makes it big */
    atomic_max(l + 1, i * 0x04000001u);
    atomic_max(g, 0xfffffff0u - i);
    atomic_or(g + 1, 1u << (i & 31));
    atom_max(g + 2, i << 26);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li == 0) {
        out[get_group_id(0) * 2] = l[0];
        out[get_group_id(0) * 2 + 1] = l[1];
    }
    if (i == 0) {
        printf("[%s] [%-3s] [%f] [%e] [%a]\n", "", "", nan(0u), nan(0ul), nan(1u));
        printf("extra: %d\n", 7, 8, "nine");
    }
}
