// RUN: clvm run %s --global 1 --arg p=zeros:4
// A construct the translator does not take: a function declared but not
// defined (clang accepts it). One line naming it and the source line.
int helper(int x);

kernel void undefined_call(global int *p)
{
    p[0] = helper(1);
}
