// RUN: clvm run %s --global 6 --arg o=zeros:192 --print o:int8
// popcount and the relational functions that are SPIR-V instructions of
// their own (OpBitCount, OpIsNormal, OpOrdered, OpUnordered), on scalars
// and vectors of float, double and integers; checked against PoCL
// (tests/pocl/clkernels.py). Row g: popcount of the bits and of its char,
// short2 and ulong halves, isnormal of f (1 or 0), of (f, 1e-40f) as a
// float2 (-1 or 0 each, summed), isordered(f, g), isunordered(d, d) as a
// double2 (-1 or 0 each, summed), isnormal of the double.
constant uint bits[6] = {0x3f800000u, 0x00000001u, 0x7fc00000u,
                         0xff800000u, 0x80000000u, 0x0ff0f0f1u};
kernel void bits_(global int8 *o)
{
    int g = get_global_id(0);
    uint b = bits[g];
    float f = as_float(b);
    double d = (double)f * 1e-300;
    short2 s = as_short2(b);
    ulong2 l = (ulong2)(b, (ulong)b << 33 | 7);
    int2 nv = isnormal((float2)(f, 1e-40f));
    long2 uv = isunordered((double2)(d, 1.0), (double2)(d, d));
    o[g] = (int8)(popcount(b), popcount((char)b), popcount(s).x + popcount(s).y,
                  (int)(popcount(l).x + popcount(l).y), isnormal(f),
                  nv.x + nv.y, isordered(f, (float)g) + 10 * isunordered(f, f),
                  (int)(uv.x + uv.y) + 10 * isnormal(d));
}
