// RUN: clvm run %s --global 6 --arg out=zeros:96 --print out:int4
// v[i] read and written with a run-time i (OpVectorExtractDynamic,
// OpVectorInsertDynamic): out[g] is (10, 20, 30, 40) with component g % 4
// set to g and, read back through g % 4, plus 100 in component 0.
kernel void dyn(global int4 *out)
{
    int g = get_global_id(0);
    int4 v = (int4)(10, 20, 30, 40);
    v[g % 4] = g;
    v.x += 100 * (v[g % 4] == g);
    out[g] = v;
}
