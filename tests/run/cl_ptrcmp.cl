// RUN: clvm run %s --global 4 --arg out=zeros:16 --arg q=@examples/data/ramp.bin --print out:hex
// Pointer comparisons (checked against PoCL 3.1): with the null pointer
// (p == 0, p != NULL, if (p), !p, p ? a : b), between pointers into one
// buffer (<, <=, >, ==), a choice between a pointer and NULL, NULL passed
// to a function that tests it, and pointers to different buffers. Each
// sets one bit of out[i].
int pick(global float *p) { return p ? (int)*p : -1; }
kernel void k(global int *out, global float *q)
{
    int i = get_global_id(0);
    global float *z = 0;
    global float *a = q + i, *b = q + 2;
    int r = 0;
    if (q == z) r |= 1;
    if (q != 0) r |= 2;
    if (a > b) r |= 4;
    if (a <= b) r |= 8;
    if (a == b) r |= 16;
    if (!z) r |= 32;
    if (a >= b && a != b) r |= 64;
    global float *s = (i & 1) ? a : 0;
    if (s) r |= 128;
    r |= pick(0) == -1 ? 256 : 0;
    r |= pick(q + 3) == 3 ? 512 : 0;
    if ((global void *)q != (global void *)out) r |= 1024;
    if (a - 1 < a) r |= 2048;
    out[i] = r;
}
