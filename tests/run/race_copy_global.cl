// RUN: clvm run %s --global 4 --local 4 --threads 1 --check races --arg d=zeros:16 --arg s=local:16
// An async copy is an access of its whole work-group at the copy: its
// writes of d race with the work-items' stores to d earlier in the same
// barrier interval (d[1] = 0 against the copied 1: d[0] gets the 0 it
// holds, which --check races lets pass as Oclgrind does).
kernel void copy_out(global int *d, local int *s)
{
    int i = get_local_id(0);
    s[i] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    d[i] = 0;
    event_t e = async_work_group_copy(d, s, 4, 0);
    wait_group_events(1, &e);
}
