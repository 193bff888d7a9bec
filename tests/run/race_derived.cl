// RUN: clvm run %s --global 128 --local 64 --threads 1 --check races --arg in=zeros:1024 --arg out=zeros:512
// A buffer that the kernel writes only through a pointer derived from
// its parameter: reads of it stay checked (reads of a buffer nothing
// writes need not be). Work-item 1 reads in[1], which work-item 0
// writes through q = in + 1, in one barrier interval.
kernel void derived(global int *in, global int *out)
{
    int i = get_global_id(0);
    global int *q = in + 1;
    out[i] = in[i];
    q[i] = i;
}
