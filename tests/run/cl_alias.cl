// RUN: clvm run %s --global 3 --arg out=zeros:96 --print out
// Where a load reads the variable's own register and where it must not:
// a copy that outlives a later store, i++ as an index, swaps, a swizzle of
// a vector into itself. out[8g..8g+7] for work-item g, as the comments
// say: 10g + 5, 2, 4, 3 + g, 9, g, 6, 12.
kernel void alias(global int *out)
{
    int g = get_global_id(0);
    global int *o = out + 8 * g;
    int b = g;
    int a = b;              // a keeps g after b changes
    b = 5;
    o[0] = a * 10 + b;
    int i = 1;
    o[i++] = 2;             // o[1] = 2 (the index is i before ++)
    int x = 3 + g, y = 4;
    x = x + y;              // swap through sums
    y = x - y;
    x = x - y;
    o[i++] = x;             // o[2] = 4
    o[i++] = y;             // o[3] = 3 + g
    int2 v = (int2)(g, 9);
    v = v.yx;
    o[i++] = v.x;           // o[4] = 9
    o[i++] = v.y;           // o[5] = g
    int t = i;
    i = i * 2;
    o[i - 6] = t;           // o[6] = 6 (i is 12)
    o[7] = i;               // 12
}
