// RUN: clvm run %s --global 2 --local 2 --threads 4 --check races --arg d=zeros:4 --arg out=zeros:8 --print d
// race_fence_global.cl with CLK_GLOBAL_MEM_FENCE: the barrier orders the
// reads before the write; no race, d[0] is -1.
kernel void hidden(global int *d, global int *out)
{
    int l = get_local_id(0);
    out[l] = d[0];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (l == 0)
        d[0] = -1;
}
