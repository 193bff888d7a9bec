// A half sum stalls at 2048 while the float sum goes on, in OpenCL C with
// cl_khr_fp16 (examples/half_accum.clasm in clvm's IR).
//   clvm run examples/half_accum.cl --global 1 --arg h=zeros:2 \
//     --arg f=zeros:4 --arg third=zeros:8 --print h --print h:ushort:hex \
//     --print f --print third:half4
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_accum(global half *h, global float *f, global half4 *third)
{
    half hs = 0;
    float fs = 0;
    for (uint i = 0; i < 3000; i++) {
        hs = hs + (half)1;    // 2048 + 1 is a tie: rounds to the even 2048
        fs = fs + 1;
    }
    h[0] = hs;
    f[0] = fs;
    half t = (half)1 / (half)3;   // 1/3 rounded once to half
    third[0] = (half4)(t, t * (half)3, fma(t, (half)3, (half)-1),
                       convert_half(fs / 3));
}
