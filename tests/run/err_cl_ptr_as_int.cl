// RUN: clvm run %s --global 1 --arg r=zeros:8
// A pointer's address as a number is refused, naming the line: clvm
// takes only the difference of two addresses in one variable (offsetof).
kernel void k(global ulong *r)
{
    r[0] = (ulong)r;
}
