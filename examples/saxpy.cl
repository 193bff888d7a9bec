// y = a * x + y, four floats per work-item
kernel void saxpy(global const float *x, global float *y, float a)
{
    size_t i = get_global_id(0);
    float4 vx = vload4(i, x);
    float4 vy = vload4(i, y);
    vy = mad(vx, a, vy);
    vstore4(vy, i, y);
}
