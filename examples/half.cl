// vstore_half4 in every rounding mode and vload_half4 back, in OpenCL C
// (examples/half.clasm in clvm's IR).
//   clvm run examples/half.cl --global 2 --arg rte=zeros:16 \
//     --arg rtz=zeros:16 --arg rtp=zeros:16 --arg rtn=zeros:16 --arg back=zeros:32 \
//     --print rte:half4 --print rtz:half4 --print rtp:half4 --print rtn:half4 \
//     --print rtp:ushort4:hex --print back
// NAN is the float 0x7fffffff (clang's, and clvm's IR's): its half keeps
// the payload's top bits, 0x7fff.
kernel void half_modes(global half *rte, global half *rtz, global half *rtp,
                       global half *rtn, global float4 *back)
{
    uint i = get_global_id(0);
    float4 v = (float4)(0.1f, -0.1f, 1.0f / 3.0f, 65519.0f);
    if (i == 1)
        v = (float4)(65520.0f, -65520.0f, 1e-8f, NAN);
    vstore_half4(v, i, rte);          // to nearest even
    vstore_half4_rtz(v, i, rtz);      // toward zero
    vstore_half4_rtp(v, i, rtp);      // toward +infinity
    vstore_half4_rtn(v, i, rtn);      // toward -infinity
    back[i] = vload_half4(i, rte);    // exact: every half is a float
}
