// RUN: clvm run %s --global 4 --local 4 --threads 2 --check races --arg t=local:16 --arg out=zeros:4
// A barrier orders only the memory its flags fence: this one fences
// global memory, so work-item 0's reads of t[1..3] race with the other
// work-items' writes of local memory before it (race_fence_local_ok.cl
// fences local memory).
kernel void sum(local int *t, global int *out)
{
    int l = get_local_id(0);
    t[l] = l;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (l == 0)
        out[0] = t[0] + t[1] + t[2] + t[3];
}
