// RUN: clvm run %s --global 4 --local 4 --threads 1 --check races --arg d=zeros:16 --arg s=local:16 --print d
// race_copy_global.cl with a barrier fencing global memory between the
// stores and the copy: no race; d holds 0, 1, 2, 3.
kernel void copy_out(global int *d, local int *s)
{
    int i = get_local_id(0);
    s[i] = i;
    d[i] = 5;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    event_t e = async_work_group_copy(d, s, 4, 0);
    wait_group_events(1, &e);
}
