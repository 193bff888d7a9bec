// RUN: clvm run %s --global 32 --local 16 --warp 8 --arg g=@tests/run/data/ramp32.bin --arg out=zeros:256 --arg t=local:80 --print out
// Async copies through SPIR-V (OpGroupAsyncCopy, OpGroupWaitEvents, the
// prefetch instruction): tests/run/async.clasm in OpenCL C, with event_t
// variables. PoCL gives the same (tests/spirv/sync_pocl.py).
kernel void tiles(global const float *g, global float *out, local float *t)
{
    size_t grp = get_group_id(0), l = get_local_id(0);
    event_t e = async_work_group_copy(t, g + grp * 16, 16, 0);
    async_work_group_strided_copy(t + 16, g, 4, 3, e);
    wait_group_events(1, &e);
    prefetch(g, 16);
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] = t[l] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t back = async_work_group_strided_copy(out + grp, t, 20, 2, 0);
    wait_group_events(1, &back);
}
