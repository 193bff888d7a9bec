// RUN: clvm run %s --global 256 --local 64 --check races --arg d=zeros:1024 --arg out=zeros:1024
// race_stencil_global.cl's twin: a barrier that fences global memory
// orders the three reads of d[6] (all of work-group 0) before work-item
// 7's write, so nothing races; the stencil's pairs of readers are
// replaced by later intervals' accesses as their bytes would be.
kernel void stencil(global int *d, global int *out)
{
    int i = get_global_id(0), n = get_global_size(0);
    out[i] = d[max(i - 1, 0)] + d[i] + d[min(i + 1, n - 1)];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 7)
        d[i - 1] = -1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] += d[max(i - 1, 0)] + d[i] + d[min(i + 1, n - 1)];
}
