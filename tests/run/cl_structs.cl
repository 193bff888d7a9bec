// RUN: clvm run %s --global 4 --arg in=@examples/data/ramp.bin --arg recs=zeros:128 --arg out=zeros:16 --arg packed=zeros:52 --print recs:uint:hex --print out --print packed:uchar:hex
// Structs as OpenCL C lays them out (checked against PoCL 3.1 with the
// same arguments): members at their aligned offsets with padding (a char,
// then a float at 4, an int2 at 8, a float3 at 16: 32 bytes a Rec), a
// struct read from and written to global memory through a struct pointer,
// kernel-local structs and arrays of them, copied whole (clang's memcpy)
// and passed to and returned from inlined functions, nested structs with
// arrays, and a packed struct (no padding) whose int and float2 members
// are unaligned: moved as bytes, never a misaligned trap.
typedef struct { char c; float f; int2 v; float3 w; } Rec;
typedef struct { Rec r[2]; short tag[3]; } Pair;
typedef struct __attribute__((packed)) { char c; int i; float2 f; } Packed;

Rec make(int i, float f)
{
    Rec r;
    r.c = (char)(i - 2);
    r.f = f;
    r.v = (int2)(i, -i);
    r.w = (float3)(f, 2 * f, 3 * f);
    return r;
}

float weigh(Rec r, const Rec *s) { return r.f * s->w.z + r.v.y + s->c; }

kernel void k(global const float *in, global Rec *recs, global float *out,
              global Packed *packed)
{
    int i = get_global_id(0);
    Rec a = make(i, in[i] + 0.5f);
    Pair p;
    p.r[0] = a;
    p.r[1] = make(i + 1, in[15 - i]);
    p.tag[i % 3] = (short)(100 * i);
    p.tag[(i + 1) % 3] = 7;
    p.tag[(i + 2) % 3] = 8;
    recs[i] = p.r[i & 1];
    ((global float *)&recs[i].w)[3] = 0;   /* a float3's 4th lane is undefined */
    Rec local_copy = recs[i];
    Rec arr[3];
    for (int k = 0; k < 3; k++)
        arr[k] = make(k, k * 0.25f);
    arr[i % 3].w.y += 100;
    out[i] = weigh(local_copy, &arr[i % 3]) + p.tag[0] + p.tag[1] * 2 +
             arr[i % 3].w.y;
    packed[i].c = (char)(0x40 + i);
    packed[i].i = 0x01020304 * (i + 1);
    packed[i].f = (float2)(in[i], -in[i]);
    if (i == 3)
        out[3] += packed[1].i + packed[2].f.y;
}
