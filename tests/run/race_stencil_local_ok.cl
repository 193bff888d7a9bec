// RUN: clvm run %s --global 128 --local 64 --check races --arg d=zeros:512 --arg out=zeros:512 --arg t=local:256
// race_stencil_local.cl's twin: a barrier between the stencil's reads of
// t[4] and work-item 3's write orders them, and the next barrier orders
// the write before the second stencil's reads: nothing races.
kernel void stencil(global const int *d, global int *out, local int *t)
{
    int l = get_local_id(0), n = get_local_size(0), i = get_global_id(0);
    t[l] = d[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = t[max(l - 1, 0)] + t[l] + t[min(l + 1, n - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 3)
        t[4] = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] += t[max(l - 1, 0)] + t[l] + t[min(l + 1, n - 1)];
}
