// RUN: clvm run %s --global 4 --local 4 --threads 4 --check races --arg d=zeros:4
// Stores of different values to one int race under --check races too:
// work-item 1's 1 against work-item 0's 0, in one warp (lane order).
kernel void differ(global int *d)
{
    d[0] = get_local_id(0);
}
