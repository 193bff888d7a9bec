// RUN: clvm run %s --global 1 --warn-impl --arg o=zeros:24 --arg a=0x1.001p0 --arg b=0x1.001p0 --arg c=-0x1.002p0 --print o:hex
// Contraction (docs/opencl-c.md): a = b = 1 + 2^-12, c = -(1 + 2^-11), so
// a * b + c is exactly 2^-24 (0x33800000) fused, 0 rounded twice. clvm
// rounds every shape twice and --warn-impl names each line where fusing
// would differ; cl_contract_pocl and cl_contract_nvidia run this file
// under the device profiles. o[3] and o[4] are a * b - c and c - a * b
// (contracted too, 2 + 2^-11 either way: no warning).
kernel void k(global float *o, float a, float b, float c)
{
    o[0] = a * b + c;           // contractible
    o[1] = mad(a, b, c);        // mad: the device's precision
    float p = a * b;
    o[2] = p + c;               // across statements
    o[3] = a * b - c;
    o[4] = c - a * b;
    o[5] = c + a * b;           // contractible
}
