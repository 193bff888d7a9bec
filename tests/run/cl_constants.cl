// RUN: clvm run %s --global 4 --local 4 --arg out=zeros:16 --arg io=zeros:32 --print out --print io
// Program-scope constants with nested initialisers (arrays of structs of
// arrays, checked against PoCL 3.1): each a private copy the work-item
// fills first, read directly and through a `constant` pointer; kernel-scope
// __local variables of any type (a scalar, an array of structs, an array
// of arrays) shared across a barrier; a choice between global pointers.
typedef struct { int a; short b[3]; float2 c; } In;
typedef struct { In in[2]; char tag; double d; } Outer;
constant Outer co[2] = {
    {{{1, {2, 3, 4}, (float2)(5, 6)}, {7, {8, 9, 10}, (float2)(11, 12)}}, 'x', 1.5},
    {{{13, {14, 15, 16}, (float2)(17, 18)}, {19, {20, 21, 22}, (float2)(23, 24)}}, 'y', 2.5},
};
constant float4 cv[3] = {(float4)(1, 2, 3, 4), (float4)(5), (float4)(0.5f)};
typedef struct { float x, y; } P2;
P2 mk(float a, float b) { P2 p = {a, b}; return p; }
float len2(P2 p) { return p.x * p.x + p.y * p.y; }
kernel void k(global float *out, global int *io)
{
    local P2 lp[4];
    local int cnt;
    local float grid[2][4];
    int i = get_global_id(0);
    if (i == 0)
        cnt = 40;
    lp[i] = mk(i, i + 1);
    grid[i & 1][i] = i * 2;
    grid[(i + 1) & 1][i] = -i;
    barrier(CLK_LOCAL_MEM_FENCE);
    P2 q = lp[3 - i];
    global int *pc = (i & 1) ? io + 4 : io;
    pc[i] = i + cnt;
    constant Outer *o = &co[i & 1];
    out[i] = len2(q) + co[i & 1].in[1].b[2] + o->d + o->in[0].c.y +
             cv[i % 3].w + grid[(i + 1) & 1][i ^ 1] + o->tag;
}
