// RUN: clvm run %s --profile nvidia --global 1 --arg o=zeros:16 --arg a=0x1.001p0 --arg b=0x1.001p0 --arg c=-0x1.002p0 --print o:hex
// Where clvm cannot fuse a product across statements with the operands it
// was made of, it rounds twice (0) rather than fuse other values: a
// changed after p = a * b (fusing a = 0 would give c, 0xbf801000), p
// made from itself, p set in another block. NVIDIA's compiler, which
// keeps the old values, would fuse all three (docs/opencl-c.md). o[3]:
// a contractible a * b + c inside an if is fused (0x33800000).
kernel void k(global float *o, float a, float b, float c)
{
    float p = a * b;
    float a0 = a;
    a = 0.0f;
    o[0] = p + c;
    float q = a0;
    q = q * b;
    o[1] = q + c;
    float r = a0 * b;
    if (c < 0.0f)
        o[2] = r + c;
    if (c < 0.0f)
        o[3] = a0 * b + c;
}
