// RUN: clvm run %s --global 10 --warp 4 --arg out=zeros:40 --arg in=@tests/run/data/ints.bin --print out
// Checked against the same file compiled as C: out[g] for g = 0..9
// (in = 5, -1, 2, 3).
// return inside loops, && and || guarding loads, ?: chains, a helper
// function with an early return (inlined).
int pick(int a, int b)
{
    if (a > b)
        return a - b;
    for (int i = 0; i < a; i++)
        if (i * i > b)
            return i;
    return -1;
}

kernel void ret(global int *out, global const int *in)
{
    int g = get_global_id(0);
    out[g] = -7;
    for (int i = 0; i < 6; i++) {
        if (g == 9 && i == 2)
            return;
        if (i == g) {
            out[g] = pick(g, i + 3);
            return;
        }
    }
    int n = 4;
    int v = (g < n && in[g] > 2) || (g >= 8 && in[g - 8] < 0) ? 1 : 0;
    int c = g < 7 ? (g < 3 ? 10 : 20) : g == 8 ? 30 : 40;
    out[g] = v + c + pick(g, 20);
}
