// RUN: clvm run %s --global 1 --arg out=zeros:40 --print out
// The OpenCL C twin of tests/run/sizeof_array.clasm: the same output.
kernel void k(global ulong *out)
{
    local float4 l[8];
    int b[3];
    b[0] = 1;
    l[0] = (float4)(0.0f);
    out[0] = sizeof(l);
    out[1] = sizeof(b);
    out[2] = sizeof(out);
    out[3] = sizeof(l[1]);
    out[4] = sizeof(b) / sizeof(b[0]);
}
