// RUN: clvm run %s --global 8 --local 8 --arg out=zeros:32 --print out
// A barrier that only some work-items of the group reach: clvm's barrier
// trap names the kernel, the .cl line and the work-items.
kernel void divergent(global int *out)
{
    int l = get_local_id(0);
    out[l] = l;
    if (l < 3)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[l] += 1;
}
