// RUN: clvm run %s --global 2 --arg o=zeros:256 --arg p=(int3)(-1,-2,-3) --print o:int16
// Assignments to some components of a vector: clang writes them as a
// shuffle of the old vector with the new components, which takes 5, 6,
// 12, 13 or 14 components from one side; clvm moves those through
// temporaries of its widths (4 + 1, 8 + 4 + 1, ...). Checked against PoCL
// (tests/pocl/clkernels.py). o[2g] is v, o[2g + 1] is e, f and
// v.s0123 + g, with v = 0..15 + 100g to begin with. Before the fix, the
// shuffle's component numbers were taken for variables (o.addr escaped).
kernel void swizzle(global int16 *o, int3 p)
{
    int g = get_global_id(0);
    int16 v = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) + 100 * g;
    int8 e = v.s89abcdef;
    e.s305 = p;                 /* 5 components kept */
    v.s0af = p * 10;            /* 13 kept */
    v.s76 = (int2)(g, -g);      /* 14 kept */
    int4 f = e.s0123;
    f.s31 = (int2)(7, 8);       /* 2 kept */
    o[2 * g] = v;
    o[2 * g + 1] = (int16)(e, f, v.s0123 + (int4)(g));
}
