// RUN: clvm run %s --global 4 --arg o=zeros:32 --arg a=@tests/run/data/ints.bin --arg b=@tests/run/data/int4x3.bin --print o
// && and || between comparisons of different widths (long, int, short,
// char): SPIR-V's bool is one type, clvm's is a mask as wide as what was
// compared, so the value that reaches the OpPhi of && and || is converted
// to the phi's width (found by make difftest through the front end;
// checked against PoCL by tests/pocl/clkernels.py). a = 5, -1, 2, 3;
// b's first 4 ints 0, 0, 0, 0 then 1, 2, 3, 4, read as 2 longs.
kernel void logic(global long *o, global const int *a, global const long *b)
{
    int g = get_global_id(0);
    long l = b[g % 2] + g;
    short s = (short)(a[g] * 3);
    char c = (char)(g - 2);
    o[g] = (a[g] > 0 && l < 5) + 10 * (l < 3 || a[g] < 0) +
           100 * (a[g] ? l != 0 : a[g] == 2) + 1000 * (s > 6 || c < 0) +
           10000 * (c && l);
}
