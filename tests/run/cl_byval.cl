// RUN: clvm run %s --global 2 --arg o=zeros:24 --print o
// Structs and unions passed by value: the callee gets its own copy, so its
// writes do not reach the caller's variable (Oclgrind's
// bugs/byval_function_argument; PoCL gives the same).
typedef struct { int x; float y; char c[3]; } S;
union U { uint a; uint b; };

uint f(union U v) { uint r = v.a; v.b = 777; return r; }
int g(S s) { int r = s.x + (int)s.y + s.c[2]; s.x = -1; s.c[2] = 0; return r; }

kernel void k(global int *o)
{
    uint i = get_global_id(0);
    union U u = {42 + i};
    S s = {10, 2.5f, {1, 2, 3}};
    o[3 * i] = f(u);
    o[3 * i + 1] = u.b;              /* still 42 + i */
    o[3 * i + 2] = g(s) * 100 + s.x + s.c[2];   /* 15 * 100 + 10 + 3 */
}
