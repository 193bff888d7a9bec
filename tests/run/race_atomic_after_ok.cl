// RUN: clvm run %s --global 8 --local 8 --warp 4 --threads 4 --check races --arg n=zeros:4 --arg out=zeros:4 --print out
// race_atomic_after.cl's race-free twin: a barrier that fences global
// memory orders the atomics before the read, which sees 8.
kernel void after(global int *n, global int *out)
{
    atomic_inc(n);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_global_id(0) == 7)
        out[0] = n[0];
}
