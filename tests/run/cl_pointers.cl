// RUN: clvm run %s --global 4 --arg p=@examples/data/ramp.bin --arg q=@examples/data/ramp.bin --arg o=zeros:16 --print p:int --print q:int --print o:hex
// Pointers stored in memory (checked against PoCL 3.1): a private array of
// pointers indexed at run time, structs holding a pointer (initialised,
// copied whole, written member by member), a pointer to a pointer, and the
// null pointer. Each pointer is an 8-byte slot (LDP, STP in the IR).
typedef struct { global int *p; int n; } H;
kernel void k(global int *p, global int *q, global int *o)
{
    int i = get_global_id(0);
    global int *ps[2] = {p, q};
    ps[i & 1][i + 8] = 10 + i;
    H h = {p, 3};
    H hs[2];
    hs[0] = h;
    hs[1].p = q + 1;
    hs[1].n = 2;
    global int **pp = &ps[1];
    global int *nul = 0;
    if (i > 100)
        o[0] = nul[0];   /* never runs: it would trap */
    o[i] = h.p[h.n] + hs[i & 1].p[hs[i & 1].n] + (*pp)[0];
}
