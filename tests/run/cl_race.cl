// RUN: clvm run %s --global 16 --local 16 --profile strict --arg out=zeros:64 --arg t=local:64
// The strict profile checks for data races too (--check races): a
// reduction step that forgot its barrier reads what another work-item
// writes in the same barrier interval; the trap names both .cl lines.
kernel void sum(global int *out, local int *t)
{
    int l = get_local_id(0);
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 8)
        t[l] += t[l + 8];
    if (l < 4)                        // no barrier before this step
        t[l] += t[l + 4];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = t[l];
}
