// RUN: clvm run %s --global 3 --arg p=zeros:12 --print p
// Program-scope constant arrays: a private copy each work-item fills first.
// p[i] = tab[i] * 10 + ftab[i % 2].y: 42, 50, 62.
constant int tab[3] = {4, 5, 6};
constant float4 ftab[2] = {(float4)(1, 2, 3, 4), (float4)(0.5f)};
kernel void k(global int *p)
{
    int i = get_global_id(0);
    p[i] = tab[i] * 10 + (int)ftab[i % 2].y;
}
