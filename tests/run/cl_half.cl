// RUN: clvm run %s --global 1 --arg o=zeros:32 --arg m=zeros:16 --arg c=zeros:32 --print o:half4 --print m:short4 --print c:int4
// Half arithmetic through the OpenCL C front end (cl_khr_fp16): the same
// rounding as the IR's (tests/run/half_arith.clasm), math built-ins at
// half, comparisons, select, conversions with _sat and a mode.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half4 *o, global short4 *m, global int4 *c)
{
    half4 a = (half4)(2048.0h, 65504.0h, 0x1p-14h, 1.0h);
    half4 b = (half4)(1.0h, 16.0h, 0x1p-3h, 3.0h);
    o[0] = a + b;
    o[1] = (half4)(a.s2 * b.s2, a.s3 / b.s3, -a.s0, a.s1 - (half)32);
    half t = a.s3 / b.s3;
    o[2] = (half4)(fma(t, b.s3, -a.s3), sqrt(b.s3), exp(a.s3), rsqrt(b.s3));
    o[3] = (half4)(sin(t), pow(b.s3, t), hypot(b.s3, t), fmin(t, b.s2));
    half4 n = (half4)(as_half((ushort)0x7e00), 1.0h, -0.0h, b.s0 / 0.0h);
    m[0] = n < (half4)(0.0h);
    m[1] = select((short4)(1, 2, 3, 4), (short4)(5), isnan(n) | isinf(n));
    c[0] = convert_int4_rtn(a / b.s3);
    c[1] = convert_int4_sat((half4)(-1.5h, 1.5h, 65504.0h, n.s0) * (half)2);
}
