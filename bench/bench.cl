/* The `bench` reference kernel in OpenCL C, for PoCL (bench/pocl_host.c).
 * No contraction: a * b + c must round twice, as in bench.clasm. */
#pragma OPENCL FP_CONTRACT OFF

kernel void bench(global const float *in, global float *out, float scale,
                  float bias, uint key, uint mask)
{
    size_t i = get_global_id(0);
    float4 v = vload4(i, in);
    float4 a = v * scale + bias;
    float4 b = a * 0.25f + v;
    int4 q = convert_int4_sat_rte(b);
    uint4 u = as_uint4(q);
    u = (u ^ (uint4)key) & (uint4)mask;
    float4 r = convert_float4(u);
    vstore4(r, i, out);
}
