// RUN: clvm run %s --global 1 --arg o=zeros:32
// A built-in with a pointer output (fract, modf, frexp, sincos, remquo,
// lgamma_r) is refused by name with its source line, not as an OpenCL.std
// instruction with too many operands.
kernel void ptrout(global float4 *o)
{
    float4 f = (float4)(4.25f);
    o[1] = fract(f, o);
}
