// RUN: clvm run %s --global 8 --local 8 --warp 4 --threads 2 --check races --arg n=zeros:4 --arg out=zeros:4
// Atomics race with no atomic, but a plain read of the counter in the
// same barrier interval races with every other work-item's atomic_inc:
// work-item 7 reads n after all eight incremented it, its own last. The
// check keeps two atomic writers per byte, so the read still meets
// another's (the one-record-per-kind check of old let it pass).
kernel void after(global int *n, global int *out)
{
    atomic_inc(n);
    if (get_global_id(0) == 7)
        out[0] = n[0];
}
