// RUN: clvm run %s --global 8 --local 8 --warp 4 --arg out=zeros:32 --print out
// A barrier inside a loop whose trip count differs between the work-items
// of a group (l + 1 rounds for work-item l): the work-items that leave the
// loop early never reach the barrier the others wait at. clvm traps at
// once, naming the line and a work-item that finished without it; OpenCL C
// leaves such a kernel undefined (PoCL's result is not compared).
kernel void div_loop(global int *out)
{
    int l = get_local_id(0);
    int s = 0;
    for (int r = 0; r <= l; r++) {
        s += r;
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    out[l] = s;
}
