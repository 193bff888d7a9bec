// RUN: clvm run %s --global 4 --arg out=zeros:128 --arg dout=zeros:32 --arg a={-3,2.5,(int2)(7,-8),(float3)(1,2,3),0.125} --arg b={100,0x01020304,-2,1e300} --arg c={5,{{1.5,-1.5},{2,4}},{1,2,3}} --arg u={0x3fc00000} --arg e={9,1,2,3} --print out --print dout --print a --print b --print c --print u --print e
// Structs and unions passed to a kernel by value (checked against PoCL
// 3.1 with the same bytes, tests/pocl/clkernels.py): members at their
// aligned offsets with padding (Padded: a char, a float at 4, an int2 at 8,
// a float3 at 16, a double at 32: 48 bytes), a packed struct with members
// below their alignment (15 bytes), nested structs and an array of them,
// an array of uchar, a union, and a struct the kernel gets with brace
// elision ({9,1,2,3}). The kernel's writes to its copy (a.f, c.n) are its
// own: every work-item starts from the argument, and --print shows the
// argument as given.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef struct { char c; float f; int2 v; float3 w; double d; } Padded;
typedef struct __attribute__((packed)) { char c; int i; short s; double d; } Packed;
typedef struct { int n; struct { float x, y; } pt[2]; uchar tag[3]; } Nested;
typedef union { uint u; float f; } U;
struct Elided { short k; short arr[3]; };

float norm(Nested c) { c.n = 0; return c.pt[0].x * c.pt[1].y + c.pt[1].x; }

kernel void k(global float *out, global double *dout, Padded a, Packed b,
              Nested c, U u, struct Elided e)
{
    int i = get_global_id(0);
    a.f += i;
    c.n *= i;
    out[8 * i] = a.c + a.f;
    out[8 * i + 1] = a.v.x * a.v.y + a.w.z;
    out[8 * i + 2] = b.c + b.s + (float)(b.i >> 8);
    out[8 * i + 3] = norm(c) + c.n;
    out[8 * i + 4] = c.tag[i % 3] + c.pt[i & 1].y;
    out[8 * i + 5] = u.f;
    out[8 * i + 6] = e.k + e.arr[i % 3];
    out[8 * i + 7] = sizeof(Padded) + sizeof(Packed) * 100;
    dout[i] = i == 0 ? a.d : i == 1 ? b.d : a.d * b.d;
}
