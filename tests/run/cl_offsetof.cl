// RUN: clvm run %s --global 1 --arg r=zeros:24 --print r
// offsetof as pyopencl computes it (match_dtype_to_c_struct): the
// difference of two addresses in one variable at constant offsets is a
// constant. S has c at 0, d at 8, s at 16 (s[2] at 20), i at 24: r is 8,
// 20, 24.
typedef struct { char c; double d; short s[3]; int i; } S;
kernel void k(global ulong *r)
{
    local S d;
    S p;
    r[0] = (ulong)((local char *)&d.d - (local char *)&d);
    r[1] = (ulong)((char *)&p.s[2] - (char *)&p);
    r[2] = (ulong)((local char *)&d.i - (local char *)&d.c);
}
