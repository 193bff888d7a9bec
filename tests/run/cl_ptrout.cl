// RUN: clvm run %s --global 4 --local 4 --arg x=@examples/data/ramp.bin --arg e=zeros:16 --arg ip=zeros:16 --arg lp=local:16 --print x --print e --print ip
// The built-ins with a pointer output through SPIR-V (checked against
// PoCL 3.1): frexp, modf, fract, remquo, sincos and lgamma_r storing into
// private variables, a private vector, global and local memory.
kernel void k(global float *x, global int *e, global float *ip, local float *lp)
{
    int i = get_global_id(0);
    float v = x[i] + 0.25f;
    int ex;
    float4 w;
    float m = frexp(v * 100, &ex);
    float4 f4 = modf((float4)(v, -v, 2.5f, -0.0f), &w);
    float c;
    float s = sincos(v, &c);
    int q;
    float r = remquo(v * 7, 0.75f, &q);
    float fr = fract(-v * 3, ip + i);
    int sg;
    float lg = lgamma_r(-v - 0.5f, &sg);
    float fr2 = fract(v * 3, lp + i);
    e[i] = ex + q * 100 + sg * 1000;
    x[i] = m + f4.y + w.x + w.y + s + c + r + fr + lg + fr2 + lp[i];
}
