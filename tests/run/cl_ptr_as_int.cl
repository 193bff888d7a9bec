// RUN: clvm run %s --global 4 --local 4 --arg x=zeros:64 --arg r=zeros:256 --arg l=local:64 --print r --print x
// Pointers converted to integers and back (OpConvertPtrToU,
// OpConvertUToPtr; docs/semantics.md, "Addresses"), printing only what
// every implementation gives: alignment checks, differences of addresses
// in one buffer, a round trip. Per work-item i, r[8i..8i+7]: 1, 16i, 1, 12,
// 1, 12, 16, 0; x[i].w = i + 1, stored through the address.
kernel void k(global uint4 *x, global ulong *r, local float *l)
{
    size_t i = get_global_id(0);
    private int pv[4];
    local uchar lb[128] __attribute__((aligned(64)));
    pv[i & 3] = 1;
    lb[i] = 1;
    global ulong *o = r + 8 * i;
    o[0] = ((size_t)(x + i) & 15) == 0;
    o[1] = (ulong)(x + i) - (ulong)x;
    o[2] = ((ulong)&pv[i & 3] & 3) == 0;
    o[3] = (ulong)&pv[3] - (ulong)&pv[0];
    o[4] = ((ulong)lb & 63) == 0;
    o[5] = (uint)(ulong)(l + 3) - (uint)(ulong)l;
    global uint4 *q = (global uint4 *)((ulong)x + 16 * i);
    q->w = i + 1;
    o[6] = (ulong)(global uint4 *)((ulong)x + 16) - (ulong)x;
    o[7] = (ulong)(global int *)0;
}
