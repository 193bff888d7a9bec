// RUN: clvm run %s --profile pocl --global 1 --arg o=zeros:28 --arg a=0x1.001p0 --arg b=0x1.001p0 --print o:hex
// FP_CONTRACT followed by position (docs/opencl-c.md, "Contraction"): a
// pragma at file scope holds until the next one, one in a compound
// statement until its closing brace. With a = b = 1 + 2^-12, a * b -
// (1 + 2^-11) is 2^-24 (0x33800000) fused, 0 rounded twice; the pocl
// profile fuses a contractible one, as PoCL does (checked by hand against
// PoCL 3.1): o = 0, 0x33800000, 0, 0x33800000, 0, 0, 0x33800000.
#pragma OPENCL FP_CONTRACT OFF
float off_fn(float a, float b) { return a * b + -0x1.002p0f; }
#pragma OPENCL FP_CONTRACT ON
float on_fn(float a, float b) { return a * b + -0x1.002p0f; }
#pragma OPENCL FP_CONTRACT OFF

kernel void k(global float *o, float a, float b)
{
    o[0] = off_fn(a, b);
    o[1] = on_fn(a, b);
    o[2] = a * b + -0x1.002p0f;
    {
#pragma OPENCL FP_CONTRACT ON
        o[3] = a * b + -0x1.002p0f;
    }
    o[4] = a * b + -0x1.002p0f;
    float p = a * b;
    o[5] = p + -0x1.002p0f;
    {
#pragma OPENCL FP_CONTRACT DEFAULT
        o[6] = a * b + -0x1.002p0f;
    }
}
