// RUN: clvm run %s --global 1 --arg o=zeros:4
// A struct passed by value to a kernel is not supported yet: refused with
// the parameter's name and the kernel's line.
typedef struct { int a; float b; } S;
kernel void k(S s, global float *o)
{
    o[0] = s.a + s.b;
}
