// RUN: clvm run %s --global 16 --local 8 --warp 4 --arg out=zeros:64 --arg tmp=local:32 --print out
// Barriers every work-item of the group reaches, inside loops whose trip
// count is the same for the whole group (checked against PoCL,
// tests/pocl/clkernels.py): each round rotates the group's values through
// local memory by one place and adds the round number, and a second loop
// with a break taken by the whole group at once. cl_barrier_div.cl is the
// divergent version, which traps.
kernel void rounds(global int *out, local int *tmp)
{
    int l = get_local_id(0), n = get_local_size(0);
    int v = get_global_id(0) * 3;
    for (int r = 0; r < 5; r++) {
        tmp[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = tmp[(l + 1) % n] + r;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int r = 0;
    while (1) {
        tmp[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v += tmp[n - 1 - l];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (++r == 3 + get_group_id(0))
            break;
    }
    out[get_global_id(0)] = v;
}
