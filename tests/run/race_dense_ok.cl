// RUN: clvm run %s --global 256 --local 128 --threads 2 --check races --arg d=zeros:256 --arg c=zeros:256
// Dense stores of chars (each work-item its byte, 64 to a block) and a
// read of the neighbour's byte after a barrier: no race; byte stores of
// different work-items to one 4-byte word never race.
kernel void bytes(global uchar *d, global uchar *c)
{
    int i = get_global_id(0);
    d[i] = (uchar)i;
    barrier(CLK_GLOBAL_MEM_FENCE);
    int j = get_local_id(0) < 127 ? i + 1 : i;
    c[i] = d[j];
}
