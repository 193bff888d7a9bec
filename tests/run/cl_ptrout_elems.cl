// RUN: clvm run %s --global 2 --arg o=zeros:128 --arg io=zeros:64 --print o:float4 --print io:int4
// Built-ins with a pointer output through SPIR-V, beside cl_ptrout.cl: the
// output's value is stored through the pointer first (an element of a
// global buffer, a private scalar whose address is taken, an element of a
// private array), then the result, as the IR's lowering does. Only exact functions (fract, modf, frexp,
// remquo, sincos of 0, lgamma_r's sign), checked against PoCL
// (tests/pocl/clkernels.py).
kernel void ptrout(global float4 *o, global int4 *io)
{
    int g = get_global_id(0);
    float4 f = (float4)(4.25f, -1.5f, 0x1p-130f, 3.0f) * (g + 1);
    o[4 * g] = fract(f, &o[4 * g + 1]);
    float ip;
    float m = modf(f.y, &ip);
    int4 e;
    float4 fr = frexp(f, &e);
    io[2 * g] = e;
    int q[2];
    float r = remquo(f.x * 7, 2.0f, &q[1]);
    float c;
    float sn = sincos((float)g - 1.0f + 1.0f - g, &c);
    int sg;
    float lg = lgamma_r(-2.5f, &sg);
    o[4 * g + 2] = (float4)(m, ip, r, sn + c + (lg > 0));
    o[4 * g + 3] = fr;
    io[2 * g + 1] = (int4)(q[1], sg, 0, 0);
}
