// RUN: clvm run %s --global 12 --warp 4 --arg out=zeros:48 --print out
// Checked against the same file compiled as C: out[g] for g = 0..11.
// switch with fall-through, default in the middle, cases sharing a body.
kernel void sw(global int *out)
{
    int g = get_global_id(0);
    int r = 0;
    switch (g % 8) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r += 100;
    default:
        r += 1000;
        break;
    case 6:
        r -= 5;
    case 7:
        r *= 2;
    }
    switch (g) {
    case 11: r += 7; break;
    }
    out[g] = r;
}
