// RUN: clvm run %s --global 65536 --local 64 --threads 4 --check races --arg a=zeros:262144 --arg b=zeros:262144 --arg sum=zeros:4 --print sum
// The race check on several threads (tests/race/threads.sh runs this at
// 1, 2 and 4): 1024 work-groups share the shadow of a and b, b's
// neighbours read across the groups' edges (pairs of reads), and no
// race: each work-item writes and reads back its own a[i]. b counts as
// written (the store's pointer may be b), so its reads are checked too.
kernel void spread(global uint *a, global uint *b, global uint *sum)
{
    uint i = get_global_id(0), n = get_global_size(0);
    global uint *p = i < n ? a : b;
    p[i] = i;
    uint s = p[i] + b[(i + n - 1) % n] + b[i] + b[(i + 1) % n];
    atomic_add(sum, s);
}
