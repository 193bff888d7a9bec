// RUN: clvm run %s --global 4 --local 4 --threads 2 --check races --arg t=local:16 --arg out=zeros:4 --print out
// race_fence_local.cl with a barrier that fences local memory: no race,
// the sum is 6.
kernel void sum(local int *t, global int *out)
{
    int l = get_local_id(0);
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        out[0] = t[0] + t[1] + t[2] + t[3];
}
