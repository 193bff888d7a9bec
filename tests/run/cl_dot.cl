// RUN: clvm run %s --global 1 --arg o=zeros:4 --arg a=(float4)(1,2,3,4)
// OpDot (dot of two vectors is a core SPIR-V instruction, not OpenCL.std)
// is not translated yet: refused, naming the instruction and the line.
__kernel void k(__global float *o, float4 a)
{
    o[0] = dot(a, a);
}
