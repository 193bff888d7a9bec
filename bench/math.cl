/* The `math` benchmark kernel in OpenCL C, for PoCL (bench/pocl_host.c):
 * the same 16 math built-ins per work-item as bench/math.clasm. */
#pragma OPENCL FP_CONTRACT OFF

kernel void mathk(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    float a = exp(x);
    float b = log(a + x);
    float c = sin(b);
    float d = cos(x);
    float e = pow(a, d);
    float f = sqrt(e + c);
    float g = erf(f - 1.0f);
    float h = tanh(g + x);
    float k = atan(h * a);
    float l = exp2(k);
    float m = log2(l + f);
    float n = cbrt(m - x);
    float o = erfc(n);
    float p = hypot(o, d);
    float q = tan(p * 0.5f);
    out[i] = log1p(q);
}
