// RUN: clvm run %s --global 2 --arg o=zeros:128 --arg m=@tests/run/data/int4x3.bin --arg f=@examples/data/ramp.bin --print o:int4
// shuffle and shuffle2 through SPIR-V (OpenCL.std shuffle, shuffle2): run-
// time masks of another width than the operand (uint4 from int4, float8,
// a ushort8 mask on a short2), checked against PoCL
// (tests/pocl/clkernels.py). m[g] is (0, 0, 0, 0) then (1, 2, 3, 4); f is
// 0 .. 15 as two float8s.
kernel void shuf(global int4 *o, global const uint4 *m, global const float8 *f)
{
    int g = get_global_id(0);
    int4 a = (int4)(10, 20, 30, 40) + g;
    int4 b = (int4)(50, 60, 70, 80);
    short2 s = (short2)(-1, 7 + g);
    ushort8 sm = convert_ushort8((uint8)(m[g], m[g].wzyx));
    o[4 * g] = shuffle(a, m[g]);
    o[4 * g + 1] = shuffle2(a, b, m[g] + (uint4)(g));
    o[4 * g + 2] = convert_int4(shuffle(f[g], m[g] * 2u));
    o[4 * g + 3] = convert_int4(shuffle(s, sm).s0246 + shuffle2(s, s.yx, sm).s1357);
}
