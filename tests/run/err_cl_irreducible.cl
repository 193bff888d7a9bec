// RUN: clvm run %s --global 1 --arg out=zeros:4 --arg n=5
// A goto into a loop makes the control flow irreducible: refused with the
// line of the jump.
kernel void irr(global int *out, int n)
{
    int i = 0;
    if (n > 3)
        goto inside;
    while (i < n) {
        i += 2;
inside:
        i += 1;
    }
    out[0] = i;
}
