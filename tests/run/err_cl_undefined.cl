// RUN: clvm run %s --global 1 --arg p=zeros:8
// A function declared but not defined: clang accepts the call, llvm-spirv
// makes it an import; refused with its name and the line of the call.
float helper(float x);

kernel void k(global float *p)
{
    p[0] = helper(p[1]);
}
