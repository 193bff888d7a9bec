// RUN: clvm run %s --global 4 --local 4 --threads 2 --check races --arg d=@examples/data/ramp.bin --arg s=local:16 --arg out=zeros:16
// The copy into local memory races with the work-items' stores to it in
// the same interval (s[1] = 0 against the copied 1.0f); reading s after
// wait_group_events is ordered after the copy.
kernel void copy_in(global const float *d, local float *s, global float *out)
{
    int i = get_local_id(0);
    s[i] = 0;
    event_t e = async_work_group_copy(s, d, 4, 0);
    wait_group_events(1, &e);
    out[i] = s[3 - i];
}
