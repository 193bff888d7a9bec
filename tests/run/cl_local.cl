// RUN: clvm run %s --global 8 --local 4 --arg out=zeros:32 --print out
// __local scalars and vectors declared in a kernel (module-scope Workgroup
// variables that are not arrays: arrays of one element in clvm), written by
// one work-item of the group and read by all after a barrier; checked
// against PoCL (tests/pocl/clkernels.py). out[g] = 40 + 10 * group + local
// id + 4.
kernel void scalars(global int *out)
{
    local int x;
    local float4 v;
    int l = get_local_id(0);
    if (l == 0) {
        x = 40 + 10 * get_group_id(0);
        v = (float4)(1, 2, 3, 4);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = x + l + (int)v.w;
}
