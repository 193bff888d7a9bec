// RUN: clvm run %s --global 3 --arg out=zeros:12 --arg v=@tests/run/data/int4x3.bin --print out
// any, all (OpAny, OpAll of a comparison), isnan, sign; v is (0,0,0,0),
// (1,2,3,4), (-1,5,0,0): 0, then all(v > 0) + sign(1) = 2, then
// any(v < 0) * 10 + isnan(as_float(-1)) * 100 + sign(2) = 111.
kernel void k(global int *out, global const int4 *v)
{
    int g = get_global_id(0);
    out[g] = any(v[g]) * 10 + all(v[g] > 0) + isnan(as_float(v[g].x)) * 100 + sign((float)g) ;
}
