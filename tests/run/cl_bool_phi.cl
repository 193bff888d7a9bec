// RUN: clvm run %s --global 4 --arg in=zeros:4 --arg o=zeros:16 --print o
// A bool made by comparing chars meets one made by comparing ints (the
// `||` of pyopencl's any() reduction): clvm's comparison gives a bool the
// width of its operands, and the copy on the edge widens it. o is 0, 1,
// 1, 1: byte i of in is i % 2, and i == 2 counts too.
kernel void k(global uchar *in, global int *o)
{
    uint i = get_global_id(0);
    in[i] = (uchar)(i % 2);
    char acc = i == 2;
    acc = acc || (bool)in[i];
    o[i] = acc;
}
