// RUN: clvm run %s --global 1 --arg o=zeros:16 --print o -D N=4 -DM=3 -cl-std=CL1.1 -cl-fast-relaxed-math
// clang's options on clvm run (docs/opencl-c.md): -D with and without a
// space, -cl-std (OpenCL C 1.1: __OPENCL_C_VERSION__ is 110), and
// -cl-fast-relaxed-math, which defines __FAST_RELAXED_MATH__ but changes
// nothing in clvm's arithmetic: 1.0f / 3.0f is still correctly rounded
// (0x3eaaaaab).
#ifndef N   /* tests/spirv/roundtrip.sh compiles it without options */
#define N 0
#define M 1
#endif

kernel void k(global uint *o)
{
    o[0] = N * 10 + M;
    o[1] = __OPENCL_C_VERSION__;
#ifdef __FAST_RELAXED_MATH__
    o[2] = 1;
#endif
    float third = 1.0f / (float)M;
    o[3] = as_uint(third);
}
