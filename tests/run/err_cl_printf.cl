// RUN: clvm run %s --global 1 --arg p=zeros:16
// OpenCL C 1.2, 6.12.13.2: a vector specifier without a length modifier
// (%v4f for a float4: it must be %v4hlf) is undefined; clvm refuses it
// with the .cl line rather than print something (clang only warns).
#pragma clang diagnostic ignored "-Wformat"
kernel void k(global float *p)
{
    float4 v = vload4(0, p);
    printf("%v4f\n", v);
}
