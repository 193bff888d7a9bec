// RUN: clvm run %s --global 4 --local 4 --threads 1 --profile strict --arg d=@examples/data/ramp.bin --arg s=local:16 --arg out=zeros:16
// Reading the copy's destination before wait_group_events: the strict
// profile reports the race (the copy may not have happened yet);
// --check races follows Oclgrind, whose copy is done when the group
// reaches it (race_copy_nowait_ok.cl).
kernel void early(global const float *d, local float *s, global float *out)
{
    int i = get_local_id(0);
    event_t e = async_work_group_copy(s, d, 4, 0);
    out[i] = s[i];
    wait_group_events(1, &e);
}
