// RUN: clvm run %s --global 8 --local 4 --check races --arg in=zeros:36 --arg out=zeros:32 --print out
// A stencil over a buffer that nothing writes: no race (its reads are
// not even recorded: vm/ptrflow.c), and the sums as without the check.
kernel void stencil(global const int *in, global int *out)
{
    int i = get_global_id(0);
    out[i] = in[i] + in[i + 1] + in[(i + 7) % 8] + i;
}
