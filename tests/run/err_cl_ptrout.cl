// RUN: clvm run %s --global 1 --arg o=zeros:32
// A built-in with a pointer output through a pointer cast (a view, which
// the translator does not follow for these yet) is refused by name with its
// source line (cl_ptrout.cl has the forms that are taken).
kernel void ptrout(global float *o)
{
    float4 f = (float4)(4.25f);
    vstore4(fract(f, (global float4 *)o), 1, o);
}
