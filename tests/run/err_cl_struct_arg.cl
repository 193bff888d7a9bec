// RUN: clvm run %s --global 1 --arg o=zeros:4
// A struct passed by value to a kernel may have at most 65536 bytes
// (BC_MAX_BYVAL): a larger one is refused with the parameter's name and
// the kernel's line.
typedef struct { int a; float b[20000]; } S;
kernel void k(S s, global float *o)
{
    o[0] = s.a + s.b[0];
}
