// RUN: clvm run %s --global 8 --local 4 --arg out=zeros:32 --arg bytes=@tests/run/data/bytes.bin --arg f=1.5 --print out
// Private and __local arrays, a helper taking a private pointer (inlined),
// uchar wrap-around, vector components, abs/min/max/clamp, ?: on scalars and
// vectors, get_global_id and get_local_size with a run-time dimension (3 is
// out of range: 0 and 1). out[g] as a Python model of the kernel gives it:
// 219 91 230 308 376 408 444 476, plus get_local_size(g % 4): 4 1 1 1.
int sum3(const int *p) { return p[0] + p[1] + p[2]; }
void put(global int *o, int i, int v) { o[i] = v; }

kernel void misc(global int *out, global const uchar *bytes, float f)
{
    int g = get_global_id(0);
    int arr[4];
    local int shared[8];
    for (int i = 0; i < 4; i++)
        arr[i] = g * 10 + i;
    shared[get_local_id(0)] = g;
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = sum3(arr) + shared[(get_local_id(0) + 1) % get_local_size(0)];
    uchar b = bytes[g];
    uchar c = b + 200;
    int4 v = (int4)(g, -g, 2 * g, 7);
    v.y = abs(v.y);
    v.zw = v.wz;
    int m = max(v.x, v.z) + min(v.w, 3);
    float h = f * g;
    int sel = h > 2.5f ? 1 : -1;
    int4 vs = v > (int4)(3) ? v : -v;
    size_t d = g % 4;
    put(out, g, s + c + m + sel + vs.x + vs.y + vs.z + vs.w + (int)get_global_id(d) + clamp(g, 1, 3) +
        (int)get_local_size(d));
}
