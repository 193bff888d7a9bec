/* Times the OpenCL platform's overhead for a tiny kernel: work-item 0
 * adding 1 to one int, launched N times through the ICD loader, on
 * whichever platform OCL_ICD_VENDORS gives (bench/run.sh: clvm, then PoCL).
 *
 *   enqueue_host PLATFORM N [GLOBAL]
 *
 * GLOBAL (1) is the global size, the local size left to the platform
 * (for clvm 256 a group: 1024 work-items are 4 groups over the cores).
 * PLATFORM must be a prefix of the first platform's name (so that a run
 * meant for PoCL never measures clvm, or the other way round). After a
 * warm-up, prints on stderr
 *   time: kernel=SECONDS throughput=SECONDS latency=SECONDS
 * each the seconds per launch: `throughput` N clEnqueueNDRangeKernel with
 * one clFinish at the end, `latency` N of enqueue then clFinish each;
 * `kernel` is the latency too (run.sh's timeof reads it). The int must
 * come back as the number of launches: "hash: H" on stdout is its
 * FNV-1a-64. Exit status 3: no OpenCL platform or device. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

static void die(int status, const char *what, cl_int err)
{
    fprintf(stderr, "enqueue_host: %s failed (OpenCL error %d)\n", what,
            (int)err);
    exit(status);
}

#define CHECK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) die(1, #call, e_); } while (0)

static const char *src =
    "kernel void tiny(global int *p)\n"
    "{\n"
    "    if (get_global_id(0) == 0)\n"
    "        p[0] += 1;\n"
    "}\n";

/* Seconds per launch of n launches, with one clFinish at the end (each
 * false) or after each launch (each true). */
static double launches(cl_command_queue q, cl_kernel k, long n, size_t global,
                       bool each)
{
    double t0 = now_sec();
    for (long i = 0; i < n; i++) {
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL,
                                     NULL));
        if (each)
            CHECK(clFinish(q));
    }
    CHECK(clFinish(q));
    return (now_sec() - t0) / (double)n;
}

int main(int argc, char **argv)
{
    char *end;
    long n = argc >= 3 ? strtol(argv[2], &end, 10) : 0;
    bool bad = argc < 3 || argc > 4 || *end || n <= 0 || n > 100000000;
    long global = argc == 4 && !bad ? strtol(argv[3], &end, 10) : 1;
    if (bad || *end || global <= 0 || global > (1 << 24)) {
        fprintf(stderr, "usage: enqueue_host PLATFORM N [GLOBAL]\n");
        return 2;
    }
    cl_int err;
    cl_platform_id plat;
    cl_device_id dev;
    cl_uint np = 0;
    char name[256] = "";
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0 ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "enqueue_host: no OpenCL platform or device\n");
        return 3;
    }
    CHECK(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name - 1, name, NULL));
    if (strncmp(name, argv[1], strlen(argv[1]))) {
        fprintf(stderr, "enqueue_host: the platform is '%s', not '%s'\n", name,
                argv[1]);
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx)
        die(3, "clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (!q)
        die(1, "clCreateCommandQueue", err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (!prog)
        die(1, "clCreateProgramWithSource", err);
    CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "tiny", &err);
    if (!k)
        die(1, "clCreateKernel", err);
    cl_int zero = 0, got = -1;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                sizeof zero, &zero, &err);
    if (!buf)
        die(1, "clCreateBuffer", err);
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));

    long warm = n / 10 + 1;
    /* PoCL compiles on the first launch */
    launches(q, k, warm, (size_t)global, true);
    double thr = launches(q, k, n, (size_t)global, false);
    double lat = launches(q, k, n, (size_t)global, true);
    CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, &got, 0, NULL,
                              NULL));
    if (got != (cl_int)(warm + 2 * n)) {
        fprintf(stderr, "enqueue_host: %ld launches left %d, not %ld\n",
                warm + 2 * n, (int)got, warm + 2 * n);
        return 1;
    }
    printf("hash: %016" PRIx64 "\n", fnv1a64(FNV_BASIS, &got, sizeof got));
    fprintf(stderr, "time: kernel=%.9f throughput=%.9f latency=%.9f\n", lat,
            thr, lat);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
