// RUN: clvm run %s --global 16 --warp 4 --arg out=zeros:64 --print out
// Checked against the same file compiled as C (a shim for get_global_id):
// out[g] for g = 0..15 is what gcc gives, with warps of 4 lanes diverging.
// Nested loops with break and continue inside ifs, a for with continue,
// a do-while, and a labelled-style exit from two loops with a flag.
kernel void loops(global int *out)
{
    int g = get_global_id(0);
    int s = 0;
    for (int i = 0; i < 10; i++) {
        if (i == g % 5)
            continue;
        for (int j = 0; j < 8; j++) {
            if (j > i)
                break;
            if ((i + j) % 3 == 0)
                continue;
            s += i * j;
            if (s > 100 + g * 10)
                goto done;
        }
        if (s % 7 == g % 7)
            break;
    }
done:
    do {
        s += 3;
    } while (s % 4 != g % 4);
    int k = g;
    while (k > 0) {
        k -= 3;
        if (k == 1)
            continue;
        s ^= k;
    }
    out[g] = s;
}
