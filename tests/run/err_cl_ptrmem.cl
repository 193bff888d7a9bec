// RUN: clvm run %s --global 1 --arg p=zeros:8 --arg q=zeros:8
// Pointers stored in memory (here a private array of pointers) are not
// supported yet: refused with the line.
kernel void k(global int *p, global int *q)
{
    global int *ps[2] = {p, q};
    ps[get_global_id(0) & 1][0] = 1;
}
