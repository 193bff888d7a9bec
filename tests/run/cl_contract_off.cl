// RUN: clvm run %s --profile nvidia --global 1 --arg o=zeros:12 --arg a=0x1.001p0 --arg b=0x1.001p0 --arg c=-0x1.002p0 --print o:hex
// Under FP_CONTRACT OFF nothing is contracted, not even by the nvidia
// profile: a * b + c and p + c round twice (0); mad() is still the
// device's (fused on NVIDIA: 0x1p-24).
#pragma OPENCL FP_CONTRACT OFF

kernel void k(global float *o, float a, float b, float c)
{
    o[0] = a * b + c;
    o[1] = mad(a, b, c);
    float p = a * b;
    o[2] = p + c;
}
