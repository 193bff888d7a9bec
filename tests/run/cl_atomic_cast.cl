// RUN: clvm run %s --global 4 --local 4 --arg p=zeros:16 --print p:hex
// atomic_min and atomic_max through a pointer cast to the other
// signedness: SPIR-V's integers have no sign, so the instruction's sign
// (OpAtomicUMin, OpAtomicSMax) is the one they compare in, whatever the
// pointer's type (it once was refused). Unsigned, -1 is the largest.
kernel void k(global int *p)
{
    uint i = get_local_id(0);
    if (i == 0) {
        p[0] = -1;
        p[1] = -1;
        p[2] = 7;
        p[3] = 7;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    atomic_min((global uint *)p, 5u + i);         /* unsigned: 5 */
    atomic_min(p + 1, 5 + (int)i);                /* signed: -1 */
    atomic_max((global int *)(global uint *)(p + 2), -3 - (int)i); /* 7 */
    atomic_max((global uint *)(p + 3), 0xfffffff0u + i);  /* 0xfffffff3 */
}
