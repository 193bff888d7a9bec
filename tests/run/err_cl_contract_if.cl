// RUN: clvm run %s --global 1 --arg o=zeros:4 --arg a=2 --arg b=3
// An FP_CONTRACT pragma clvm cannot place exactly (here under #if, which
// clvm does not evaluate) refuses a contraction site whose meaning it
// decides, naming both lines, rather than guess.
#if defined(NO_CONTRACT)
#pragma OPENCL FP_CONTRACT OFF
#endif

kernel void k(global float *o, float a, float b)
{
    o[0] = a * b + 1.0f;
}
