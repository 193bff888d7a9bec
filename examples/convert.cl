// convert_int4_sat in the four rounding modes, and convert_char4 of shorts
// with and without _sat, in OpenCL C (examples/convert.clasm in clvm's IR).
//   clvm run examples/convert.cl --global 3 --arg rte=zeros:48 \
//     --arg rtz=zeros:48 --arg rtp=zeros:48 --arg rtn=zeros:48 --arg c=zeros:8 \
//     --print rte --print rtz --print rtp --print rtn --print c
kernel void convert(global int4 *rte, global int4 *rtz, global int4 *rtp,
                    global int4 *rtn, global char4 *c)
{
    uint i = get_global_id(0);
    float4 v = (float4)(-2.5f, -1.5f, -0.5f, 0.5f);
    if (i == 1)
        v = (float4)(1.5f, 2.5f, 2.6f, -2.6f);
    else if (i == 2)
        v = (float4)(3e9f, -INFINITY, NAN, 0x1.fffffep30f);
    rte[i] = convert_int4_sat_rte(v);   // to nearest, ties to even
    rtz[i] = convert_int4_sat_rtz(v);   // toward zero
    rtp[i] = convert_int4_sat_rtp(v);   // toward +infinity
    rtn[i] = convert_int4_sat_rtn(v);   // toward -infinity
    // integer narrowing: _sat clamps, the plain form wraps (modulo 256)
    short4 s = (short4)(-300, -129, 127, 300);
    if (i == 0) {
        c[0] = convert_char4_sat(s);
        c[1] = convert_char4(s);
    }
}
