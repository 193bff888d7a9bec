// RUN: clvm run %s --global 8 --local 4 --arg p=@examples/data/ramp.bin --arg f=zeros:32 --arg g=zeros:128 --print f --print g
// A variable's Alignment decoration is honoured: a __local uchar array
// declared aligned(32), written as int8 through a cast (clang marks the
// store Aligned 1, knowing only the uchar index), is one 32-byte store,
// as the CTS half tests do it; so is a private one aligned(16) read as
// float4. f[i] = p[(i % 2) * 8 + 1]; g[i] = vload4(i % 4, p) * 2.
kernel void k(global const float *p, global float *f, global float4 *g)
{
    local uchar data[4 * sizeof(int8)] __attribute__((aligned(32)));
    uchar priv[32] __attribute__((aligned(16)));
    size_t i = get_global_id(0), lid = get_local_id(0);
    global const int8 *ip = (global const int8 *)p;
    for (int k = 0; k < 1; k++)
        *(local int8 *)&data[(lid + k) * sizeof(int8)] = ip[lid & 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    f[i] = ((local float *)data)[lid * 8 + 1];
    for (int k = 0; k < 32; k++)
        priv[k] = 0;
    *(float4 *)&priv[(i & 1) * 16] = vload4(i & 3, p) * 2;
    g[i] = *(float4 *)&priv[(i & 1) * 16];
}
