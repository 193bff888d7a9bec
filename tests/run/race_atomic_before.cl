// RUN: clvm run %s --global 4 --local 4 --threads 1 --check races --arg n=zeros:4
// A plain write, then atomics on the same int by the other work-items in
// the same interval: work-item 1's atomic_dec races with work-item 0's
// store, which work-item 0's own atomic must not hide.
kernel void before(global int *n)
{
    if (get_global_id(0) == 0)
        n[0] = 0;
    atomic_dec(n);
}
