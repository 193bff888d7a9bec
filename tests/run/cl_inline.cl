// RUN: clvm run %s --global 4 --arg o=zeros:16 --print o
// A plain `inline` helper, as pyopencl's random123 headers write them: C99
// makes it an inline definition only, which clang at -O0 would leave
// undefined; clvm compiles it as its definition (docs/opencl-c.md).
inline uint twice(uint x) { return 2 * x; }
static inline uint plus1(uint x) { return x + 1; }

kernel void k(global uint *o)
{
    uint i = get_global_id(0);
    o[i] = plus1(twice(i));
}
