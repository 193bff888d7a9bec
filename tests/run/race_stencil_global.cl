// RUN: clvm run %s --global 256 --local 64 --threads 1 --check races --arg d=zeros:1024 --arg out=zeros:1024
// A 3-point stencil: every int of d is read by three work-items, so the
// check keeps its granules as a pair of readers (vm/race.c) rather than
// byte by byte. In the same interval work-item 7, the first reader of
// d[6], writes it: a race with work-item 6's read, the pair's other one.
kernel void stencil(global int *d, global int *out)
{
    int i = get_global_id(0), n = get_global_size(0);
    out[i] = d[max(i - 1, 0)] + d[i] + d[min(i + 1, n - 1)];
    if (i == 7)
        d[i - 1] = -1;
}
