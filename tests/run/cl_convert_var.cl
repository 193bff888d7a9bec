// RUN: clvm run %s --global 2 --arg o=zeros:32 --arg s=(short4)(1,-2,3,-4) --arg d=(double4)(6e207,1e-31,-0.5,4294967294.5) --print o
// A conversion from a floating type computed straight into a variable
// whose register has another sign (v is int4 from its first store, a
// short conversion): the conversion must keep its own destination type
// and rounding mode, then move the bits (it was done as double -> int
// with the default rounding, 0x7fffffff and 0 for the first two). Found by
// make difftest (seed 1, t812) through the front end; checked against PoCL
// (tests/pocl/clkernels.py). o[g] is 4294967295, 1, 0, 4294967295.
kernel void cv(global uint4 *o, short4 s, double4 d)
{
    uint4 v = convert_uint4_rte(s);
    if (get_global_id(0) < 8)
        v = convert_uint4_rtp(fmin(fmax(d, 0.0), 0x1.fffffffep+31));
    o[get_global_id(0)] = v;
}
