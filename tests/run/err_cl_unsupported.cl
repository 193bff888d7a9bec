// RUN: clvm run %s --global 1 --arg p=zeros:4
// A construct the translator does not take yet: one line naming it and the
// source line.
kernel void atom(global int *p)
{
    atomic_add(p, 1);
}
