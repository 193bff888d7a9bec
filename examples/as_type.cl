// The specification's as_type examples in OpenCL C (examples/as_type.clasm
// in clvm's IR): as_uint(1.0f) is 0x3f800000, as_int4 of (1, 2, 3, 4), the
// mask trick f < g ? f : 0 without a branch, as_float3 of a float4.
//   clvm run examples/as_type.cl --global 1 \
//     --arg 'f=(float4)(1, 2, 3, 4)' --arg 'g=(float4)(2.5)' \
//     --arg u=zeros:4 --arg i=zeros:16 --arg sel=zeros:16 --arg f3=zeros:16 \
//     --print u:hex --print i:hex --print sel --print f3
kernel void as_type(float4 f, float4 g, global uint *u, global int4 *i,
                    global float4 *sel, global float3 *f3)
{
    float one = 1.0f;
    u[0] = as_uint(one);
    i[0] = as_int4(f);
    int4 is_less = f < g;
    float4 h = as_float4(as_int4(f) & is_less);
    sel[0] = h;
    f3[0] = as_float3(f);
}
