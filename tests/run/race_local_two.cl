// RUN: clvm run %s --global 32 --local 16 --threads 1 --check races --arg out=zeros:128 --arg a=local:1024 --print out
// Two local buffers, the argument and the kernel's own array after it,
// each with its own shadow: the barrier-separated uses of a pass, the
// race in b (work-item l reads b[l + 1], written by l + 1 in the same
// interval) is named at b's bytes. The shadow of a local buffer once
// started at the wrong place (and past its end when the first was big).
kernel void k(global int *out, local int *a)
{
    local int b[16];
    int l = get_local_id(0);
    a[l * 16] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    b[l] = a[((l + 1) % 16) * 16];
    out[get_global_id(0)] = b[(l + 1) % 16];
}
