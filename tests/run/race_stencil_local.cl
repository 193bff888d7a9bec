// RUN: clvm run %s --global 128 --local 64 --threads 1 --check races --arg d=zeros:512 --arg out=zeros:512 --arg t=local:256
// A 3-point stencil over a tile in local memory: after the barrier every
// int of t is read by three work-items (a pair of readers per granule in
// vm/race.c). In the same interval work-item 3 writes t[4], which
// work-items 4 and 5 read: a race, in each work-group.
kernel void stencil(global const int *d, global int *out, local int *t)
{
    int l = get_local_id(0), n = get_local_size(0), i = get_global_id(0);
    t[l] = d[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = t[max(l - 1, 0)] + t[l] + t[min(l + 1, n - 1)];
    if (l == 3)
        t[4] = -1;
}
