// RUN: clvm run %s --global 64 --local 64 --warp 16 --threads 2 --check races --arg d=zeros:4 --arg out=zeros:256
// Every work-item reads d[0]; later in the same interval work-item 0
// writes it: a race with the reads of the other 63, whichever the check
// kept (it keeps two readers per byte: one is not work-item 0).
kernel void readers(global int *d, global int *out)
{
    int l = get_local_id(0);
    out[l] = d[0];
    if (l == 0)
        d[0] = 1;
}
