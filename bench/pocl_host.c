/* Runs a reference benchmark on an OpenCL implementation (PoCL here), the
 * baseline clvm's speed is measured against.
 *
 *   pocl_host FILE.cl bench N          kernel `bench`, N work-items
 *   pocl_host FILE.cl loop N ITERS     kernel `xorshift_loop`
 *
 * Builds the inputs as bench.h does for every implementation, launches
 * once to warm up (PoCL compiles on the first launch), then times one
 * launch with the queue's profiling events: kernel execution only. Prints
 * "hash: H" (FNV-1a-64 of the output bytes) on stdout and
 * "time: kernel=SECONDS" on stderr. One thread unless the environment sets
 * POCL_MAX_PTHREAD_COUNT. Exit status 3: no OpenCL device to run on. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

static void die(int status, const char *what, cl_int err)
{
    fprintf(stderr, "pocl_host: %s failed (OpenCL error %d)\n", what, (int)err);
    exit(status);
}

#define CHECK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) die(1, #call, e_); } while (0)

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap)
            s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (!s) {
        fprintf(stderr, "pocl_host: out of memory\n");
        exit(2);
    }
    s[n] = 0;
    return s;
}

static int usage(void)
{
    fprintf(stderr, "usage: pocl_host FILE.cl bench N | pocl_host FILE.cl loop N ITERS"
                    " | pocl_host FILE.cl math N OUT\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return usage();
    int is_bench = !strcmp(argv[2], "bench"), is_math = !strcmp(argv[2], "math");
    if (is_bench ? argc != 4
                 : is_math ? argc != 5 : strcmp(argv[2], "loop") || argc != 5)
        return usage();
    size_t n = strtoull(argv[3], NULL, 0);
    cl_uint iters = is_bench || is_math ? 0 : (cl_uint)strtoul(argv[4], NULL, 0);
    if (n == 0)
        return usage();
    setenv("POCL_MAX_PTHREAD_COUNT", "1", 0);

    cl_int err;
    cl_platform_id plat;
    cl_device_id dev;
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0 ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "pocl_host: no OpenCL platform or device\n");
        return 3;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx)
        die(3, "clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q)
        die(1, "clCreateCommandQueue", err);

    const char *src = read_text(argv[1]);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (!prog)
        die(1, "clCreateProgramWithSource", err);
    if ((err = clBuildProgram(prog, 1, &dev, "", NULL, NULL)) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "%s\n", log);
        die(1, "clBuildProgram", err);
    }
    cl_kernel kern = clCreateKernel(prog, is_bench  ? "bench"
                                          : is_math ? "mathk"
                                                    : "xorshift_loop",
                                    &err);
    if (!kern)
        die(1, "clCreateKernel", err);

    size_t in_bytes = (is_bench ? 4 * n : n) * 4, out_bytes = in_bytes;
    void *host_in = malloc(in_bytes), *host_out = malloc(out_bytes);
    if (!host_in || !host_out) {
        fprintf(stderr, "pocl_host: out of memory\n");
        return 2;
    }
    if (is_bench)
        for (size_t k = 0; k < 4 * n; k++)
            ((float *)host_in)[k] = bench_input((uint32_t)k);
    else if (is_math)
        for (size_t i = 0; i < n; i++)
            ((float *)host_in)[i] = math_input((uint32_t)i);
    else
        for (size_t i = 0; i < n; i++)
            ((uint32_t *)host_in)[i] = loop_seed((uint32_t)i);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_bytes, host_in, &err);
    if (!in)
        die(1, "clCreateBuffer", err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, out_bytes, NULL, &err);
    if (!out)
        die(1, "clCreateBuffer", err);

    CHECK(clSetKernelArg(kern, 0, sizeof in, &in));
    CHECK(clSetKernelArg(kern, 1, sizeof out, &out));
    if (is_bench) {
        cl_float scale = BENCH_SCALE, bias = BENCH_BIAS;
        cl_uint key = BENCH_KEY, mask = BENCH_MASK;
        CHECK(clSetKernelArg(kern, 2, sizeof scale, &scale));
        CHECK(clSetKernelArg(kern, 3, sizeof bias, &bias));
        CHECK(clSetKernelArg(kern, 4, sizeof key, &key));
        CHECK(clSetKernelArg(kern, 5, sizeof mask, &mask));
    } else if (!is_math) {
        CHECK(clSetKernelArg(kern, 2, sizeof iters, &iters));
    }

    cl_event ev;
    double t0 = 0, t1 = 0;
    for (int run = 0; run < 2; run++) { /* run 0 warms up */
        t0 = now_sec();
        CHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &n, NULL, 0, NULL, &ev));
        CHECK(clFinish(q));
        t1 = now_sec();
        if (run == 0)
            clReleaseEvent(ev);
    }
    double secs = t1 - t0;
    cl_ulong start, end;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS &&
        end > start)
        secs = (double)(end - start) * 1e-9;
    clReleaseEvent(ev);
    CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, out_bytes, host_out, 0, NULL, NULL));

    printf("hash: %016" PRIx64 "\n", fnv1a64(FNV_BASIS, host_out, out_bytes));
    if (is_math) { /* the output itself, for bench/gen close */
        FILE *f = fopen(argv[4], "wb");
        if (!f || fwrite(host_out, 1, out_bytes, f) != out_bytes || fclose(f)) {
            perror(argv[4]);
            return 2;
        }
    }
    fprintf(stderr, "time: kernel=%.9f wall=%.9f\n", secs, t1 - t0);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(kern);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(host_in);
    free(host_out);
    free((void *)src);
    return 0;
}
