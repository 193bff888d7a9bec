// printf in OpenCL C (examples/printf.clasm in clvm IR): each work-item's
// output is one unit, in work-item order, whatever --threads.
//   clvm run examples/printf.cl --global 4
kernel void hello(void)
{
    int gid = get_global_id(0);
    float4 v = (float4)(0.5f, 1.0f, 2.0f, 4.0f) * (float)gid;
    printf("hello from %d\n", gid);
    printf("%v4hlf\n", v);
}
