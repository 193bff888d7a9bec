// vload3/vstore3 move exactly 3 floats, vload4 from any float offset,
// vload8/vstore8, in OpenCL C (examples/vload.clasm in clvm's IR).
//   clvm run examples/vload.cl --global 4 --arg x=@examples/data/ramp.bin \
//     --arg out3=zeros:48 --arg out4=zeros:64 --arg out8=zeros:32 \
//     --print out3 --print out4 --print out8:float8
kernel void vload(global const float *x, global float *out3,
                  global float4 *out4, global float *out8)
{
    uint i = get_global_id(0);
    float3 v = vload3(i, x);
    vstore3(v.zyx, i, out3);
    out4[i] = vload4(0, x + i);
    if (i == 0) {
        float8 w = vload8(1, x);
        vstore8(w.s45670123, 0, out8);
    }
}
