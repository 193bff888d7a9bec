// RUN: clvm run %s --global 4 --local 4 --threads 2 --check races --arg d=@examples/data/ramp.bin --arg s=local:16 --arg out=zeros:16 --print out
// race_copy_local.cl with a barrier between the stores and the copy: no
// race; out is s reversed, 3, 2, 1, 0.
kernel void copy_in(global const float *d, local float *s, global float *out)
{
    int i = get_local_id(0);
    s[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_copy(s, d, 4, 0);
    wait_group_events(1, &e);
    out[i] = s[3 - i];
}
