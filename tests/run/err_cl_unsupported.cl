// RUN: clvm run %s --global 1 --arg p=zeros:4 --arg q=zeros:4 --arg c=1
// A construct the translator does not take yet (a choice between
// pointers): one line naming it and the source line.
kernel void choose(global int *p, global int *q, int c)
{
    global int *r = c ? p : q;
    r[0] = 1;
}
