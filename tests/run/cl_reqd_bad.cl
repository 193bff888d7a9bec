// RUN: clvm run %s --global 8,2 --local 2,2 --arg o=zeros:64 --print o
// A kernel with reqd_work_group_size(4, 2, 1) launched with another local
// size: refused, naming the size it requires.
__kernel __attribute__((reqd_work_group_size(4, 2, 1)))
void k(__global uint *o)
{
    o[get_global_id(1) * 8 + get_global_id(0)] = 1;
}
