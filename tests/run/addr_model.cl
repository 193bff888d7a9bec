// RUN: clvm run %s --global 2 --arg x=zeros:16 --arg y=zeros:8 --arg r=zeros:96 --print r:hex --print x
// clvm's address model (docs/semantics.md, "Addresses"): byte o of buffer
// number b (the kernel's pointer parameters and arrays in the order of
// its registers, `clvm dis`, from 1) is at b * 2^40 + o, the same on every
// run; each work-item's private arrays and each group's local arrays are
// at the same addresses. x is buffer 1, y 2, r 3, pv 4, lt 5. A pointer made
// from an address in no buffer of its space is kept as a number, and an
// access through it traps (the last statement, work-item 0).
kernel void k(global uint *x, global uint *y, global ulong *r)
{
    size_t i = get_global_id(0);
    local uint lt[4];
    uint pv[2];
    lt[i] = 0;
    pv[i] = 0;
    global ulong *o = r + 6 * i;
    o[0] = (ulong)(x + i);
    o[1] = (ulong)y;
    o[2] = (ulong)&lt[1];
    o[3] = (ulong)&pv[i];
    o[4] = (ulong)y - (ulong)x;
    o[5] = (ulong)(global uint *)((ulong)lt + 4);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 0)
        *(global uint *)((ulong)lt + 4) = 1;
}
