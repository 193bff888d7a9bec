// RUN: clvm run %s --global 8 --local 4 --threads 1 --check races --arg n=zeros:4
// A barrier orders a work-group's accesses, never two groups': work-item
// 0 stores n[0], the barrier orders that before its group's atomics, but
// the atomics of group 1 (work-items 4..7) race with the store.
kernel void groups(global int *n)
{
    if (get_global_id(0) == 0)
        n[0] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    atomic_inc(n);
}
