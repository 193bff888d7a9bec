// RUN: clvm run %s --global 16 --warp 4 --arg out=zeros:64 --print out
// More shapes, checked against the same file compiled as C: do-while with
// continue, a switch inside a loop whose cases continue and break, while(1)
// left from a switch by a flag, a for whose condition has && and ||, and
// early returns from a helper inside a loop.
int classify(int v)
{
    if (v < 0)
        return -1;
    for (int k = 2; k * k <= v; k++)
        if (v % k == 0)
            return k;
    return 0;
}

kernel void shapes(global int *out)
{
    int g = get_global_id(0);
    int s = 0, i = 0;
    do {
        i++;
        if (i % 3 == g % 3)
            continue;
        s += i;
    } while (i < 10);
    for (int j = 0; j < 12; j++) {
        switch ((j + g) % 5) {
        case 0:
            continue;
        case 1:
            s += 2;
        case 2:
            s *= 2;
            break;
        case 3:
            if (s > 1000)
                break;
            s -= 7;
            break;
        default:
            s ^= j;
        }
        if (s < -50)
            break;
    }
    int n = g;
    int done = 0;
    while (1) {
        switch (n & 3) {
        case 0: n = n / 2 + 1; break;
        case 1: n = n * 3; break;
        default: done = 1;
        }
        if (done || n > 100)
            break;
    }
    for (int k = 0; (k < 20 && s != 0) || k < 3; k++)
        s += classify(k * g - 7);
    out[g] = s * 1000 + n;
}
