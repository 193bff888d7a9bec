// RUN: clvm run %s --global 2 --arg out=zeros:8 --print out
// Reading through the null pointer (passed to a function, as a choice
// between a buffer and NULL) is a trap naming the line, the work-item
// and "no buffer".
int get(global int *p) { return *p; }
kernel void k(global int *out)
{
    int i = get_global_id(0);
    global int *p = i ? 0 : out;
    out[i] = get(p);
}
