// RUN: clvm run %s --global 1 --arg o=zeros:12 --arg a=(float4)(1,2,3,4) --print o
// OpDot (dot is a core SPIR-V instruction, not OpenCL.std) goes to the
// same dot as the IR's: 1 + 4 + 9 + 16 = 30, a float3's 14, and the
// scalar dot, a product: 2.
__kernel void k(__global float *o, float4 a)
{
    o[0] = dot(a, a);
    o[1] = dot(a.xyz, a.xyz);
    o[2] = dot(a.x, a.y);
}
