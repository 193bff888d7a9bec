// RUN: clvm run %s --global 4 --local 4 --threads 1 --check races --arg d=@examples/data/ramp.bin --arg s=local:16 --arg out=zeros:16 --print out
// race_copy_nowait.cl under --check races: the read after the copy, before
// the wait, passes (as in Oclgrind); out is 0, 1, 2, 3.
kernel void early(global const float *d, local float *s, global float *out)
{
    int i = get_local_id(0);
    event_t e = async_work_group_copy(s, d, 4, 0);
    out[i] = s[i];
    wait_group_events(1, &e);
}
