// uchar4 pixels to float4 colours, c / 255 versus c * (1 / 255.0f), in
// OpenCL C (examples/pixel.clasm in clvm's IR).
//   clvm run examples/pixel.cl --global 6 --arg px=@examples/data/pixels.bin \
//     --arg div=zeros:96 --arg mul=zeros:96 --print div --print mul
kernel void pixel(global const uchar4 *px, global float4 *div,
                  global float4 *mul)
{
    uint i = get_global_id(0);
    float4 c = convert_float4(px[i]);
    div[i] = c / 255.0f;
    mul[i] = c * (1.0f / 255.0f);
}
