// RUN: clvm run %s --global 16 --warp 4 --arg out=zeros:256 --arg in=@tests/run/data/ints.bin --print out:int4
// Control-flow shapes beside cl_loops, cl_shapes, cl_switch and cl_return,
// checked against PoCL (tests/pocl/clkernels.py): out[g] is four ints per
// work-item, with warps of 4 lanes diverging (in = 5, -1, 2, 3).
// x: a return from two loops deep, else the sum the loops reach;
// y: a for with continue whose increment does work of its own, and
//    && / || whose right-hand sides have side effects (or are skipped);
// z: a switch with default first, fall-through out of default, a case
//    that returns from a helper, on a loaded value;
// w: ?: chains and && guarding loads past the end of in (4 ints), a while
//    whose condition loads, a do-while nested in a while left by break.
int sel(int v)
{
    int r = 0;
    switch (v) {
    default:
        r += 100;
    case 1:
        r += 10;
        break;
    case 2:
        return -2;
    case 3:
    case 5:
        r -= 1;
    }
    return r;
}

kernel void flow(global int4 *out, global const int *in)
{
    int g = get_global_id(0);
    int4 o = (int4)(0);

    int s = 0;
    for (int i = 0; i < 6; i++) {
        for (int j = i; j < 6; j++) {
            if (j == 4 && i == g % 5) {
                if (g > 9) {
                    out[g] = (int4)(-1000 - s, i, j, g);
                    return;
                }
                continue;
            }
            s += i ^ j;
        }
    }
    o.x = s;

    int t = 0, a = g, b = 0, c = 0;
    for (int i = 0; i < 20; i += 1 + (t & 1), t++) {
        if (i % 3 == g % 3)
            continue;
        if ((a++ > 4) && (b++ > 2))
            t += 2;
        if ((c++ < 3) || (b++ < 5))
            t += 5;
    }
    o.y = t * 10000 + a * 100 + b * 10 + c;

    o.z = sel(in[g % 4]) + sel(g % 7);

    int w = g < 4 ? in[g] : g < 8 ? in[g - 4] * 2 : g < 12 ? -in[g - 8] : 77;
    if (g < 4 && in[g] > 0)
        w += 1000;
    if (g >= 4 || in[g] < 0)
        w += 10000;
    int k = 0;
    while (k < 4 && in[k] != g)
        k++;
    w += 100000 * k;
    int n = g, steps = 0;
    while (1) {
        do {
            n = n & 1 ? 3 * n + 1 : n / 2;
            steps++;
        } while (n > 20);
        if (n <= 1 || steps > 30)
            break;
    }
    o.w = w + 1000000 * steps;
    out[g] = o;
}
