/* The `loop` reference kernel in OpenCL C, for PoCL (bench/pocl_host.c). */
#pragma OPENCL FP_CONTRACT OFF

kernel void xorshift_loop(global const uint *seed, global uint *out,
                          uint iters)
{
    size_t i = get_global_id(0);
    uint x = seed[i], acc = 0;
    for (uint k = 0; k < iters; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        acc += x ^ k;
    }
    out[i] = acc;
}
