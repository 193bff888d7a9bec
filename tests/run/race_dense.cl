// RUN: clvm run %s --global 256 --local 128 --threads 1 --check races --arg d=zeros:1024
// Whole warps storing consecutive ints are checked a block at a time;
// then each work-item stores to its neighbour's int, in the same
// interval: work-item 0's d[1] races with work-item 1's d[1].
kernel void shifted(global int *d)
{
    int i = get_global_id(0);
    d[i] = i;
    if (i < 255)
        d[i + 1] = -i;
}
