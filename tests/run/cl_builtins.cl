// RUN: clvm run %s --global 1 --arg o=zeros:16 --arg io=zeros:16 --arg a=(float4)(1,2,3,4) --arg b=(float4)(1,1,1,1) --print o --print io
// Built-ins of other shapes through SPIR-V (MATHS, FTEST2): distance and
// length are sqrt(14) and sqrt(30) rounded once; isequal of scalars is 1,
// hadd(7, 10) 8, upsample(1, 2) 0x00010002, any 1 (dot: cl_dot).
__kernel void k(__global float *o, __global int *io, float4 a, float4 b)
{
    o[0] = distance(a, b);
    o[1] = length(a);
    io[0] = isequal(a.x, b.x);
    io[1] = hadd(7, 10);
    io[2] = (int)upsample((short)1, (ushort)2);
    io[3] = any((int4)(0, 0, -1, 0));
    o[2] = copysign(2.0f, -1.0f);
    o[3] = erf(0.5f);
}
