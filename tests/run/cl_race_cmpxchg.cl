// RUN: clvm run %s --global 8 --local 8 --warp 4 --check races --arg o=zeros:36 --arg s=local:4 --print o
// Each work-item takes a ticket with atomic_cmpxchg, retrying until its
// comparison succeeds. A cmpxchg whose comparison fails writes nothing, so
// the plain read of s[0] by the winner in the same interval is no race
// (an atomic read against a read); --check races must stay silent and
// every ticket 1..8 is taken once.
kernel void tickets(global int *o, local int *s)
{
    int l = get_local_id(0);
    if (l == 0)
        s[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    bool done = false;
    int ticket = 0;
    for (int i = 0; i < 8; i++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        int before = s[0];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!done && atomic_cmpxchg(s, before, before + 1) == before) {
            done = true;
            ticket = s[0];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        o[0] = s[0];
    o[l + 1] = ticket;
}
