// RUN: clvm run %s --global 256 --local 64 --threads 1 --check races --arg d=zeros:1024 --arg out=zeros:1024
// A 3-point stencil read across work-group edges: d[63] is read by
// work-items 62 and 63 of group 0 and 64 of group 1. A barrier orders
// nothing between groups, so work-item 64's write of d[63] after it races
// with group 0's reads, which the pair of readers of d[63] still names.
kernel void stencil(global int *d, global int *out)
{
    int i = get_global_id(0), n = get_global_size(0);
    out[i] = d[max(i - 1, 0)] + d[i] + d[min(i + 1, n - 1)];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 64)
        d[i - 1] = -1;
}
