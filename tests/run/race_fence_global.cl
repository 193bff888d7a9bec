// RUN: clvm run %s --global 2 --local 2 --threads 4 --check races --arg d=zeros:4 --arg out=zeros:8
// Both work-items read d[0]; after a barrier that fences only local
// memory, work-item 0 writes it: the write races with work-item 1's read
// of global memory (Oclgrind's intragroup_hidden_race).
kernel void hidden(global int *d, global int *out)
{
    int l = get_local_id(0);
    out[l] = d[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        d[0] = -1;
}
