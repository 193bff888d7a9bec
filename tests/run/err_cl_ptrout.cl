// RUN: clvm run %s --global 1 --arg o=zeros:32
// A built-in with a pointer output through a pointer cast to another type
// (fract of a float4 into a float buffer seen as float4) is refused with
// its source line (cl_ptrout.cl and cl_ptrout_elems.cl have the forms that
// are taken).
kernel void ptrout(global float *o)
{
    float4 f = (float4)(4.25f);
    vstore4(fract(f, (global float4 *)o), 1, o);
}
