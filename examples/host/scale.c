/* A C host program on clvm's OpenCL platform: y = a * x + y over 8 floats,
 * with the kernel in clvm IR. Build and run it (from the repository root):
 *   make build/examples/host_scale
 *   build/clvm exec build/examples/host_scale
 * Any OpenCL host program runs on clvm the same way. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

static const char *src =
    "kernel saxpy(global const float *x, global float *y, float a)\n"
    "    uint i = get_global_id(0)\n"
    "    y[i] = a * x[i] + y[i]\n"
    "end\n";

#define TRY(call)                                                   \
    do {                                                            \
        cl_int e_ = (call);                                         \
        if (e_ != CL_SUCCESS) {                                     \
            fprintf(stderr, "%s: error %d\n", #call, e_);           \
            return 1;                                               \
        }                                                           \
    } while (0)

int main(void)
{
    cl_platform_id plat;
    cl_device_id dev;
    cl_int e;
    char name[64];
    TRY(clGetPlatformIDs(1, &plat, NULL));
    TRY(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    TRY(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name, name, NULL));
    printf("platform: %s\n", name);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    TRY(e);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
    TRY(e);
    float x[8], y[8], a = 0.1f;
    for (int i = 0; i < 8; i++)
        x[i] = (float)i, y[i] = 1.0f;
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               sizeof x, x, &e);
    TRY(e);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof y, y, &e);
    TRY(e);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    TRY(e);
    TRY(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "saxpy", &e);
    TRY(e);
    TRY(clSetKernelArg(k, 0, sizeof bx, &bx));
    TRY(clSetKernelArg(k, 1, sizeof by, &by));
    TRY(clSetKernelArg(k, 2, sizeof a, &a));
    size_t n = 8;
    TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    TRY(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    /* %a: the exact bits a * x + y rounded to, twice (no contraction) */
    for (int i = 0; i < 8; i++)
        printf("y[%d] = %.9g (%a)\n", i, y[i], y[i]);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
