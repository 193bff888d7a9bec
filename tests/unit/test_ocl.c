/* clvm as an OpenCL platform, driven as a host program drives it: through
 * the Khronos ICD loader, with build/libclvm-icd.so as the only vendor.
 * Covers discovery, buffers, a program of clvm IR, launches, events,
 * error codes of bad calls, traps failing the event, and CLVM_PROFILE. */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/test.h"

static cl_platform_id plat;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;

static const char *ir =
    "kernel scale(global float *x, float k)\n"
    "    uint i = get_global_id(0)\n"
    "    x[i] = x[i] * k\n"
    "end\n"
    "kernel oob(global int *x)\n"
    "    x[get_global_id(0) + 4] = 1\n"
    "end\n"
    "kernel shift(global int *a, global int *b, uint k)\n"
    "    uint i = get_global_id(0)\n"
    "    b[i] = a[i + k] + 1\n"
    "end\n"
    "kernel div(global int *x, int d)\n"
    "    x[0] = 5 / d\n"
    "end\n"
    "kernel sum(global int *x, local int *t)\n"
    "    uint l = get_local_id(0)\n"
    "    t[l] = x[get_global_id(0)]\n"
    "    barrier(CLK_LOCAL_MEM_FENCE)\n"
    "    if l == 0\n"
    "        x[get_global_id(0)] = t[0] + t[1] + t[2] + t[3]\n"
    "    end\n"
    "end\n";

/* Every OpenCL 1.2 entry point of CL/cl.h: none may be missing from the
 * dispatch table, where the loader would call a null pointer. */
#define CL12_ENTRY_POINTS(X) \
    X(clGetPlatformIDs) \
    X(clGetPlatformInfo) \
    X(clGetDeviceIDs) \
    X(clGetDeviceInfo) \
    X(clCreateSubDevices) \
    X(clRetainDevice) \
    X(clReleaseDevice) \
    X(clCreateContext) \
    X(clCreateContextFromType) \
    X(clRetainContext) \
    X(clReleaseContext) \
    X(clGetContextInfo) \
    X(clRetainCommandQueue) \
    X(clReleaseCommandQueue) \
    X(clGetCommandQueueInfo) \
    X(clCreateBuffer) \
    X(clCreateSubBuffer) \
    X(clCreateImage) \
    X(clRetainMemObject) \
    X(clReleaseMemObject) \
    X(clGetSupportedImageFormats) \
    X(clGetMemObjectInfo) \
    X(clGetImageInfo) \
    X(clSetMemObjectDestructorCallback) \
    X(clRetainSampler) \
    X(clReleaseSampler) \
    X(clGetSamplerInfo) \
    X(clCreateProgramWithSource) \
    X(clCreateProgramWithBinary) \
    X(clCreateProgramWithBuiltInKernels) \
    X(clRetainProgram) \
    X(clReleaseProgram) \
    X(clBuildProgram) \
    X(clCompileProgram) \
    X(clLinkProgram) \
    X(clUnloadPlatformCompiler) \
    X(clGetProgramInfo) \
    X(clGetProgramBuildInfo) \
    X(clCreateKernel) \
    X(clCreateKernelsInProgram) \
    X(clRetainKernel) \
    X(clReleaseKernel) \
    X(clSetKernelArg) \
    X(clGetKernelInfo) \
    X(clGetKernelArgInfo) \
    X(clGetKernelWorkGroupInfo) \
    X(clWaitForEvents) \
    X(clGetEventInfo) \
    X(clCreateUserEvent) \
    X(clRetainEvent) \
    X(clReleaseEvent) \
    X(clSetUserEventStatus) \
    X(clSetEventCallback) \
    X(clGetEventProfilingInfo) \
    X(clFlush) \
    X(clFinish) \
    X(clEnqueueReadBuffer) \
    X(clEnqueueReadBufferRect) \
    X(clEnqueueWriteBuffer) \
    X(clEnqueueWriteBufferRect) \
    X(clEnqueueFillBuffer) \
    X(clEnqueueCopyBuffer) \
    X(clEnqueueCopyBufferRect) \
    X(clEnqueueReadImage) \
    X(clEnqueueWriteImage) \
    X(clEnqueueFillImage) \
    X(clEnqueueCopyImage) \
    X(clEnqueueCopyImageToBuffer) \
    X(clEnqueueCopyBufferToImage) \
    X(clEnqueueMapBuffer) \
    X(clEnqueueMapImage) \
    X(clEnqueueUnmapMemObject) \
    X(clEnqueueMigrateMemObjects) \
    X(clEnqueueNDRangeKernel) \
    X(clEnqueueNativeKernel) \
    X(clEnqueueMarkerWithWaitList) \
    X(clEnqueueBarrierWithWaitList) \
    X(clGetExtensionFunctionAddressForPlatform) \
    X(clCreateImage2D) \
    X(clCreateImage3D) \
    X(clEnqueueMarker) \
    X(clEnqueueWaitForEvents) \
    X(clEnqueueBarrier) \
    X(clUnloadCompiler) \
    X(clGetExtensionFunctionAddress) \
    X(clCreateCommandQueue) \
    X(clCreateSampler) \
    X(clEnqueueTask) \

static void dispatch_table(void)
{
    const struct _cl_icd_dispatch *t = *(const struct _cl_icd_dispatch **)plat;
#define X(f) CHECK(t->f, "no " #f " in the dispatch table");
    CL12_ENTRY_POINTS(X)
#undef X
}

static cl_program build(const char *src, cl_int *err)
{
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, err);
    if (*err == CL_SUCCESS)
        *err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
    return p;
}

static void discovery(void)
{
    cl_uint n = 0;
    char name[64] = "";
    CHECK(clGetPlatformIDs(1, &plat, &n) == CL_SUCCESS && n == 1,
          "one platform");
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name, name, NULL);
    CHECK(!strcmp(name, "clvm"), "platform name %s", name);
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL) ==
              CL_DEVICE_NOT_FOUND, "no GPU");
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, &n) ==
              CL_SUCCESS && n == 1, "one device");
    cl_device_type t = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    CHECK(t == CL_DEVICE_TYPE_CPU, "a CPU device");
    cl_bool img = CL_TRUE;
    clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    CHECK(!img, "no images");
    char small[2];
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof small, small, NULL) ==
              CL_INVALID_VALUE, "too small a buffer");
    CHECK(clGetDeviceInfo(dev, 0x7fff, 0, NULL, NULL) == CL_INVALID_VALUE,
          "unknown query");
    CHECK(clGetDeviceInfo((cl_device_id)plat, CL_DEVICE_NAME, 0, NULL,
                          NULL) == CL_INVALID_DEVICE, "a platform is no device");
    cl_int e;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CHECK(e == CL_SUCCESS, "context: %d", e);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    CHECK(e == CL_SUCCESS, "queue: %d", e);
    CHECK(!clCreateCommandQueue(ctx, dev, 1u << 20, &e) &&
              e == CL_INVALID_VALUE, "bad queue property");
}

static void run_scale(void)
{
    cl_int e;
    float x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, k = 2.5f;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
    CHECK(e == CL_SUCCESS, "buffer %d", e);
    cl_program p = build(ir, &e);
    CHECK(e == CL_SUCCESS, "build %d", e);
    cl_kernel kn = clCreateKernel(p, "scale", &e);
    CHECK(e == CL_SUCCESS, "kernel %d", e);
    CHECK(clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){8}, NULL, 0,
                                 NULL, NULL) == CL_INVALID_KERNEL_ARGS,
          "arguments not set");
    clSetKernelArg(kn, 0, sizeof b, &b);
    CHECK(clSetKernelArg(kn, 1, sizeof(double), &k) == CL_INVALID_ARG_SIZE,
          "a double for a float");
    CHECK(clSetKernelArg(kn, 2, sizeof k, &k) == CL_INVALID_ARG_INDEX,
          "no third argument");
    clSetKernelArg(kn, 1, sizeof k, &k);
    cl_event ev;
    e = clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){8}, (size_t[]){3},
                               0, NULL, NULL);
    CHECK(e == CL_INVALID_WORK_GROUP_SIZE, "8 %% 3: %d", e);
    e = clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){8}, (size_t[]){4},
                               0, NULL, &ev);
    CHECK(e == CL_SUCCESS, "launch %d", e);
    float y[8];
    e = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof y, y, 1, &ev, NULL);
    CHECK(e == CL_SUCCESS, "read %d", e);
    for (int i = 0; i < 8; i++)
        CHECK(y[i] == 2.5f * (float)i, "y[%d] = %g", i, y[i]);
    cl_int st = 1;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st,
                   NULL);
    CHECK(st == CL_COMPLETE, "event complete: %d", st);
    cl_ulong t0 = 0, t1 = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0,
                            NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1,
                            NULL);
    CHECK(t0 && t1 >= t0, "profiling times %llu %llu",
          (unsigned long long)t0, (unsigned long long)t1);
    clReleaseEvent(ev);
    clReleaseKernel(kn);
    clReleaseProgram(p);
    clReleaseMemObject(b);
}

static void local_memory(void)
{
    cl_int e, x[8] = {1, 2, 3, 4, 10, 20, 30, 40};
    cl_mem b = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof x, x, &e);
    cl_program p = build(ir, &e);
    cl_kernel kn = clCreateKernel(p, "sum", &e);
    clSetKernelArg(kn, 0, sizeof b, &b);
    CHECK(clSetKernelArg(kn, 1, 16, &b) == CL_INVALID_ARG_VALUE,
          "a local argument takes no value");
    clSetKernelArg(kn, 1, 4 * sizeof(cl_int), NULL);
    e = clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){8}, (size_t[]){4},
                               0, NULL, NULL);
    CHECK(e == CL_SUCCESS, "launch %d", e);
    clFinish(q);
    /* USE_HOST_PTR: the host's own array holds the result */
    CHECK(x[0] == 10 && x[4] == 100, "sums %d %d", x[0], x[4]);
    /* the device's local memory, and no more: 64 KiB (the CTS sizes its
     * async-copy work-groups by it) */
    cl_ulong lm = 0;
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
    CHECK(lm == 65536, "local memory %llu", (unsigned long long)lm);
    clSetKernelArg(kn, 1, (size_t)lm + 4, NULL);
    e = clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){8}, (size_t[]){4},
                               0, NULL, NULL);
    CHECK(e == CL_OUT_OF_RESOURCES, "a local argument past it: %d", e);
    clSetKernelArg(kn, 1, (size_t)lm, NULL);
    e = clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){8}, (size_t[]){4},
                               0, NULL, NULL);
    CHECK(e == CL_SUCCESS, "all of it: %d", e);
    clFinish(q);
    clReleaseKernel(kn);
    clReleaseProgram(p);
    clReleaseMemObject(b);
}

static void buffers(void)
{
    cl_int e;
    CHECK(!clCreateBuffer(ctx, 0, 0, NULL, &e) && e == CL_INVALID_BUFFER_SIZE,
          "zero size");
    CHECK(!clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &e) &&
              e == CL_INVALID_HOST_PTR, "USE_HOST_PTR without a pointer");
    CHECK(!clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16,
                          NULL, &e) && e == CL_INVALID_VALUE, "two accesses");
    cl_mem b = clCreateBuffer(ctx, 0, 512, NULL, &e);
    cl_uint pat = 0xdeadbeef, got[128];
    e = clEnqueueFillBuffer(q, b, &pat, sizeof pat, 0, 512, 0, NULL, NULL);
    CHECK(e == CL_SUCCESS, "fill %d", e);
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, 512, got, 0, NULL, NULL);
    CHECK(got[0] == pat && got[127] == pat, "filled");
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 400, 200, got, 0, NULL, NULL) ==
              CL_INVALID_VALUE, "read past the end");
    /* sub-buffers start at multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN */
    cl_uint align = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align,
                    NULL);
    CHECK(align == 2048, "base address alignment %u bits", align);
    cl_buffer_region r = {256, 64};
    cl_mem s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    CHECK(e == CL_SUCCESS, "sub-buffer %d", e);
    cl_uint z = 7;
    clEnqueueWriteBuffer(q, s, CL_TRUE, 0, 4, &z, 0, NULL, NULL);
    clEnqueueReadBuffer(q, b, CL_TRUE, 256, 4, got, 0, NULL, NULL);
    CHECK(got[0] == 7, "sub-buffer writes its parent: %u", got[0]);
    for (size_t bad = 0; bad < 2; bad++) {
        r.origin = bad ? 128 : 3;
        CHECK(!clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e) &&
                  e == CL_MISALIGNED_SUB_BUFFER_OFFSET,
              "misaligned sub-buffer at %zu", r.origin);
    }
    cl_uint *m = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 256, 64, 0,
                                    NULL, NULL, &e);
    CHECK(e == CL_SUCCESS && m && m[0] == 7, "map");
    CHECK(clEnqueueUnmapMemObject(q, b, m, 0, NULL, NULL) == CL_SUCCESS,
          "unmap");
    clReleaseMemObject(s);
    clReleaseMemObject(b);
    /* a buffer's own bytes start there too, and are zero: a small one
     * and one that comes from mmap */
    for (size_t big = 0; big < 2; big++) {
        size_t n = big ? (size_t)3 << 20 : 100;
        cl_mem c = clCreateBuffer(ctx, 0, n, NULL, &e);
        uint8_t *p = clEnqueueMapBuffer(q, c, CL_TRUE, CL_MAP_READ, 0, n, 0,
                                        NULL, NULL, &e);
        CHECK(e == CL_SUCCESS && p && (uintptr_t)p % (align / 8) == 0,
              "%zu-byte buffer at %p", n, (void *)p);
        size_t nz = 0;
        for (size_t i = 0; p && i < n; i++)
            nz += p[i] != 0;
        CHECK(nz == 0, "%zu-byte buffer: %zu bytes not zero", n, nz);
        clEnqueueUnmapMemObject(q, c, p, 0, NULL, NULL);
        clReleaseMemObject(c);
    }
}

/* A user event holds a command back until it is set. */
/* Fills past the 4 KiB block the pattern is doubled to, at an offset,
 * with a pattern of unlike bytes and one of like bytes (a memset). */
static void fills(void)
{
    enum { N = 3 * 4096 + 48, OFF = 16 };
    static uint8_t got[N + 2 * OFF];
    uint8_t pat[16], like[8];
    cl_int e;
    for (int i = 0; i < 16; i++)
        pat[i] = (uint8_t)(i * 17 + 3);
    memset(like, 0x5a, sizeof like);
    cl_mem b = clCreateBuffer(ctx, 0, sizeof got, NULL, &e);
    for (int k = 0; k < 2; k++) {
        const uint8_t *p = k ? like : pat;
        size_t ps = k ? sizeof like : sizeof pat;
        memset(got, 0xee, sizeof got);
        clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        e = clEnqueueFillBuffer(q, b, p, ps, OFF, N, 0, NULL, NULL);
        CHECK(e == CL_SUCCESS, "fill %d", e);
        clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        size_t bad = 0;
        for (size_t i = 0; i < sizeof got; i++)
            bad += got[i] != (i < OFF || i >= OFF + N ? 0xee : p[(i - OFF) % ps]);
        CHECK(bad == 0, "pattern %d: %zu bytes wrong", k, bad);
    }
    clReleaseMemObject(b);
}

static void user_events(void)
{
    cl_int e, v = 5;
    cl_event u = clCreateUserEvent(ctx, &e), w;
    cl_mem b = clCreateBuffer(ctx, 0, 4, NULL, &e);
    e = clEnqueueWriteBuffer(q, b, CL_FALSE, 0, 4, &v, 1, &u, &w);
    CHECK(e == CL_SUCCESS, "write %d", e);
    cl_int st = 0;
    clGetEventInfo(w, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    CHECK(st == CL_QUEUED, "held back: %d", st);
    clSetUserEventStatus(u, CL_COMPLETE);
    CHECK(clWaitForEvents(1, &w) == CL_SUCCESS, "then it runs");
    CHECK(clSetUserEventStatus(u, CL_COMPLETE) == CL_INVALID_OPERATION,
          "set once only");
    clReleaseEvent(u);
    clReleaseEvent(w);
    clReleaseMemObject(b);
}

/* A trap fails the command's event; no memory is corrupted. */
static void traps(void)
{
    cl_int e, x[4] = {0};
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
    cl_program p = build(ir, &e);
    cl_kernel kn = clCreateKernel(p, "oob", &e);
    clSetKernelArg(kn, 0, sizeof b, &b);
    cl_event ev;
    fprintf(stderr, "(the next trap message is expected)\n");
    e = clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){4}, NULL, 0, NULL,
                               &ev);
    CHECK(e == CL_SUCCESS, "enqueued %d", e);
    CHECK(clWaitForEvents(1, &ev) ==
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "wait fails");
    cl_int st = 0;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    CHECK(st < 0, "negative status %d", st);
    clReleaseEvent(ev);
    clReleaseKernel(kn);
    clReleaseProgram(p);
    clReleaseMemObject(b);
}

/* CLVM_PROFILE decides implementation-defined results: 5 / 0. */
static void profiles(void)
{
    static const struct { const char *prof; cl_int want; } c[] = {
        {"clvm", 0}, {"pocl", 5}};
    for (unsigned i = 0; i < 2; i++) {
        cl_int e, x = -1, d = 0;
        setenv("CLVM_PROFILE", c[i].prof, 1);
        cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 4, &x, &e);
        cl_program p = build(ir, &e);
        cl_kernel kn = clCreateKernel(p, "div", &e);
        clSetKernelArg(kn, 0, sizeof b, &b);
        clSetKernelArg(kn, 1, sizeof d, &d);
        clEnqueueTask(q, kn, 0, NULL, NULL);
        clEnqueueReadBuffer(q, b, CL_TRUE, 0, 4, &x, 0, NULL, NULL);
        CHECK(x == c[i].want, "%s: 5 / 0 = %d", c[i].prof, x);
        clReleaseKernel(kn);
        clReleaseProgram(p);
        clReleaseMemObject(b);
    }
    unsetenv("CLVM_PROFILE");
}

/* A sub-buffer and its parent passed to one kernel under the strict
 * profile are one memory to its race check: b[i] = a[i + k] with b 64
 * ints into a is no race for k = 64 (each work-item reads what it
 * writes), a race for k = 65 (work-item i reads what i + 1 writes). */
static void sub_buffer_races(void)
{
    setenv("CLVM_PROFILE", "strict", 1);
    for (cl_uint k = 64; k <= 65; k++) {
        cl_int e, x[128];
        for (int i = 0; i < 128; i++)
            x[i] = i;
        cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
        cl_buffer_region r = {256, 256};
        cl_mem b = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r,
                                     &e);
        cl_program p = build(ir, &e);
        cl_kernel kn = clCreateKernel(p, "shift", &e);
        clSetKernelArg(kn, 0, sizeof a, &a);
        clSetKernelArg(kn, 1, sizeof b, &b);
        clSetKernelArg(kn, 2, sizeof k, &k);
        cl_event ev;
        if (k == 65)
            fprintf(stderr, "(the next data race message is expected)\n");
        e = clEnqueueNDRangeKernel(q, kn, 1, NULL, (size_t[]){63},
                                   (size_t[]){63}, 0, NULL, &ev);
        CHECK(e == CL_SUCCESS, "k = %u: enqueued %d", k, e);
        e = clWaitForEvents(1, &ev);
        clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL);
        if (k == 64)
            CHECK(e == CL_SUCCESS && x[64] == 65 && x[126] == 127 &&
                      x[127] == 127, "k = 64: %d, x[64] %d", e, x[64]);
        else
            CHECK(e == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                  "k = 65: the race must fail the launch (%d)", e);
        clReleaseEvent(ev);
        clReleaseKernel(kn);
        clReleaseProgram(p);
        clReleaseMemObject(b);
        clReleaseMemObject(a);
    }
    unsetenv("CLVM_PROFILE");
}

/* CLVM_MAX_STEPS: a launch past it traps and fails its event; a value
 * that is no positive number fails the enqueue. */
static void max_steps(void)
{
    cl_int e, x[4] = {1, 2, 3, 4};
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
    cl_program p = build(ir, &e);
    cl_kernel kn = clCreateKernel(p, "scale", &e);
    float k = 2;
    clSetKernelArg(kn, 0, sizeof b, &b);
    clSetKernelArg(kn, 1, sizeof k, &k);
    setenv("CLVM_MAX_STEPS", "2", 1);
    cl_event ev = NULL;
    fprintf(stderr, "(the next trap message is expected)\n");
    CHECK(clEnqueueTask(q, kn, 0, NULL, &ev) == CL_SUCCESS, "enqueue");
    CHECK(clWaitForEvents(1, &ev) ==
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
          "two steps are not enough");
    clReleaseEvent(ev);
    setenv("CLVM_MAX_STEPS", "-5", 1);
    CHECK(clEnqueueTask(q, kn, 0, NULL, NULL) == CL_INVALID_OPERATION,
          "CLVM_MAX_STEPS=-5");
    setenv("CLVM_MAX_STEPS", "100", 1);
    CHECK(clEnqueueTask(q, kn, 0, NULL, NULL) == CL_SUCCESS &&
              clFinish(q) == CL_SUCCESS, "a hundred are");
    unsetenv("CLVM_MAX_STEPS");
    clReleaseKernel(kn);
    clReleaseProgram(p);
    clReleaseMemObject(b);
}

static void bad_programs(void)
{
    cl_int e;
    cl_program p = build("kernel k(global int *x)\n    x[0] = y\nend\n", &e);
    CHECK(e == CL_BUILD_PROGRAM_FAILURE, "build fails: %d", e);
    char log[512] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    CHECK(strstr(log, "program:2:"), "the log names the line: %s", log);
    CHECK(!clCreateKernel(p, "k", &e) && e == CL_INVALID_PROGRAM_EXECUTABLE,
          "no kernel from a failed build");
    clReleaseProgram(p);
    const unsigned char junk[] = "not bytecode";
    size_t len = sizeof junk;
    const unsigned char *bins[] = {junk};
    CHECK(!clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL, &e) &&
              e == CL_INVALID_BINARY, "a binary that is not clvm's");
}

/* A program's binary builds again into the same kernels. */
static void binaries(void)
{
    cl_int e;
    cl_program p = build(ir, &e);
    size_t len = 0;
    clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL);
    unsigned char *bin = malloc(len);
    clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    const unsigned char *bins[] = {bin};
    cl_program p2 = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL,
                                              &e);
    CHECK(e == CL_SUCCESS, "from binary %d", e);
    CHECK(clBuildProgram(p2, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS,
          "build binary");
    char names[64] = "";
    clGetProgramInfo(p2, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
    CHECK(!strcmp(names, "scale;oob;shift;div;sum"), "kernels %s", names);
    free(bin);
    clReleaseProgram(p2);
    clReleaseProgram(p);
}

/* A 2x3 box out of a 4x4 byte matrix, written back one row lower. */
static void rects(void)
{
    cl_int e;
    unsigned char m[16], out[6];
    for (int i = 0; i < 16; i++)
        m[i] = (unsigned char)i;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 16, m, &e);
    size_t bo[3] = {1, 1, 0}, ho[3] = {0, 0, 0}, region[3] = {2, 3, 1};
    e = clEnqueueReadBufferRect(q, b, CL_TRUE, bo, ho, region, 4, 0, 2, 0,
                                out, 0, NULL, NULL);
    CHECK(e == CL_SUCCESS, "read rect %d", e);
    CHECK(out[0] == 5 && out[1] == 6 && out[2] == 9 && out[5] == 14,
          "box %u %u %u %u", out[0], out[1], out[2], out[5]);
    size_t so[3] = {0, 0, 0}, dor[3] = {2, 0, 0}, r2[3] = {2, 4, 1};
    e = clEnqueueCopyBufferRect(q, b, b, so, dor, r2, 4, 0, 4, 0, 0, NULL,
                                NULL);
    CHECK(e == CL_MEM_COPY_OVERLAP, "overlapping copy in one buffer: %d", e);
    region[0] = 5;
    CHECK(clEnqueueReadBufferRect(q, b, CL_TRUE, bo, ho, region, 4, 0, 0, 0,
                                  out, 0, NULL, NULL) == CL_INVALID_VALUE,
          "a row wider than its pitch");
    clReleaseMemObject(b);
}

/* Compile two IR programs apart, link them into one. */
static void compile_link(void)
{
    cl_int e;
    const char *a = "kernel one(global int *x)\n    x[0] = 1\nend\n";
    const char *b = "kernel two(global int *x)\n    x[0] = 2\nend\n";
    cl_program pa = clCreateProgramWithSource(ctx, 1, &a, NULL, &e);
    cl_program pb = clCreateProgramWithSource(ctx, 1, &b, NULL, &e);
    CHECK(clCompileProgram(pa, 0, NULL, "", 0, NULL, NULL, NULL, NULL) ==
              CL_SUCCESS, "compile a");
    CHECK(clCompileProgram(pb, 0, NULL, "", 0, NULL, NULL, NULL, NULL) ==
              CL_SUCCESS, "compile b");
    cl_program ps[] = {pa, pb};
    cl_program l = clLinkProgram(ctx, 0, NULL, "", 2, ps, NULL, NULL, &e);
    CHECK(e == CL_SUCCESS, "link %d", e);
    char names[32] = "";
    clGetProgramInfo(l, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
    CHECK(!strcmp(names, "one;two"), "linked kernels %s", names);
    cl_kernel k = clCreateKernel(l, "two", &e);
    char an[16] = "", tn[16] = "";
    cl_kernel_arg_address_qualifier aq = 0;
    clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof an, an, NULL);
    clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tn, tn, NULL);
    clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq,
                       NULL);
    CHECK(!strcmp(an, "x") && !strcmp(tn, "int*") &&
              aq == CL_KERNEL_ARG_ADDRESS_GLOBAL, "arg info %s %s", an, tn);
    clReleaseKernel(k);
    clReleaseProgram(l);
    clReleaseProgram(pa);
    clReleaseProgram(pb);
}

/* The build log of p, malloc'd. */
static char *build_log(cl_program p)
{
    size_t n = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *s = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, s, NULL);
    return s;
}

/* Runs kernel name of p on one work-item over x[4]; x[0] afterwards. */
static cl_int run_first(cl_program p, const char *name)
{
    cl_int e, x[4] = {0};
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
    cl_kernel k = clCreateKernel(p, name, &e);
    CHECK(e == CL_SUCCESS, "kernel %s: %d", name, e);
    clSetKernelArg(k, 0, sizeof b, &b);
    clEnqueueTask(q, k, 0, NULL, NULL);
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL);
    clReleaseKernel(k);
    clReleaseMemObject(b);
    return x[0];
}

/* OpenCL C compiled apart, one unit with an embedded header (in a folder
 * of its include name), and linked; a compiled object's binary is an
 * object again; -create-library; a function nobody defines fails the
 * link, with the log saying which. */
static void compile_link_c(void)
{
    cl_int e;
    const char *h1 = "#define SEVEN 7\n";
    const char *h2 = "int seven(void) { return SEVEN; }\n";
    const char *a = "int twice(int x) { return 2 * x; }\n";
    const char *b = "#include \"inc/defs.h\"\n#include <seven.h>\n"
                    "int twice(int x);\n"
                    "__kernel void k(__global int *x) "
                    "{ x[0] = twice(seven()) + SEVEN + EXTRA; }\n";
    cl_program ph = clCreateProgramWithSource(ctx, 1, &h1, NULL, &e);
    cl_program ph2 = clCreateProgramWithSource(ctx, 1, &h2, NULL, &e);
    cl_program pa = clCreateProgramWithSource(ctx, 1, &a, NULL, &e);
    cl_program pb = clCreateProgramWithSource(ctx, 1, &b, NULL, &e);
    const char *names[] = {"inc/defs.h", "seven.h"};
    cl_program hs[] = {ph, ph2};
    CHECK(clCompileProgram(pa, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL) ==
              CL_SUCCESS, "compile a");
    CHECK(clCompileProgram(pb, 0, NULL, "-DEXTRA=1", 0, NULL, NULL, NULL,
                           NULL) == CL_COMPILE_PROGRAM_FAILURE,
          "a unit without its header does not compile");
    CHECK(clCompileProgram(pb, 0, NULL, "-DEXTRA=1", 1, hs, NULL, NULL,
                           NULL) == CL_INVALID_VALUE, "headers, no names");
    e = clCompileProgram(pb, 0, NULL, "-DEXTRA=1", 2, hs, names, NULL, NULL);
    char *log = build_log(pb);
    CHECK(e == CL_SUCCESS, "compile b with its headers: %d: %s", e, log);
    free(log);
    cl_program_binary_type bt = 0;
    clGetProgramBuildInfo(pb, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt,
                          NULL);
    CHECK(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "binary type %lu",
          (unsigned long)bt);
    CHECK(!clCreateKernel(pb, "k", &e) && e == CL_INVALID_PROGRAM_EXECUTABLE,
          "no kernel from an object");
    /* b's object through CL_PROGRAM_BINARIES and back */
    size_t len = 0;
    clGetProgramInfo(pb, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL);
    unsigned char *bin = malloc(len ? len : 1);
    clGetProgramInfo(pb, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    const unsigned char *bins[] = {bin};
    cl_program pb2 = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins,
                                               NULL, &e);
    free(bin);
    CHECK(e == CL_SUCCESS, "an object's binary: %d", e);
    cl_program ps[] = {pa, pb2};
    cl_program l = clLinkProgram(ctx, 0, NULL, NULL, 2, ps, NULL, NULL, &e);
    log = build_log(l);
    CHECK(e == CL_SUCCESS, "link: %d: %s", e, log);
    free(log);
    CHECK(run_first(l, "k") == 2 * 7 + 7 + 1, "2 * seven() + SEVEN + 1");
    clReleaseProgram(l);
    CHECK(!clLinkProgram(ctx, 0, NULL, "-no-such-option", 2, ps, NULL, NULL,
                         &e) && e == CL_INVALID_LINKER_OPTIONS,
          "a bad link option: %d", e);
    /* a as a library, linked with b */
    cl_program lib = clLinkProgram(ctx, 0, NULL, "-create-library", 1, ps,
                                   NULL, NULL, &e);
    clGetProgramBuildInfo(lib, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt,
                          NULL);
    CHECK(e == CL_SUCCESS && bt == CL_PROGRAM_BINARY_TYPE_LIBRARY,
          "a library: %d, type %lu", e, (unsigned long)bt);
    cl_program ps2[] = {pb2, lib};
    l = clLinkProgram(ctx, 0, NULL, "", 2, ps2, NULL, NULL, &e);
    CHECK(e == CL_SUCCESS && run_first(l, "k") == 22, "with the library %d",
          e);
    clReleaseProgram(l);
    clReleaseProgram(lib);
    /* a linked kernel's attributes and qualifiers come from its part's
     * source, which the link keeps after the caller lets go of it */
    const char *c = "int twice(int x);\n"
                    "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n"
                    "void k2(__global volatile int *x) { x[0] = twice(4); }\n";
    cl_program pc = clCreateProgramWithSource(ctx, 1, &c, NULL, &e);
    CHECK(clCompileProgram(pc, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL) ==
              CL_SUCCESS, "compile c");
    cl_program ps3[] = {pa, pc};
    l = clLinkProgram(ctx, 0, NULL, NULL, 2, ps3, NULL, NULL, &e);
    clReleaseProgram(pc);
    cl_kernel k2 = clCreateKernel(l, "k2", &e);
    char attrs[256] = "";
    clGetKernelInfo(k2, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL);
    CHECK(!strcmp(attrs, "reqd_work_group_size(1,1,1)"),
          "a linked kernel's attributes: '%s'", attrs);
    cl_kernel_arg_type_qualifier tq = 0;
    clGetKernelArgInfo(k2, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq,
                       NULL);
    CHECK(tq & CL_KERNEL_ARG_TYPE_VOLATILE, "its argument's volatile: %lu",
          (unsigned long)tq);
    clReleaseKernel(k2);
    clReleaseProgram(l);
    /* b alone: twice is nobody's */
    l = clLinkProgram(ctx, 0, NULL, NULL, 1, &pb, NULL, NULL, &e);
    log = build_log(l);
    cl_build_status st = 0;
    clGetProgramBuildInfo(l, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st,
                          NULL);
    CHECK(l && e == CL_LINK_PROGRAM_FAILURE && st == CL_BUILD_ERROR,
          "an undefined function fails the link: %d", e);
    CHECK(strstr(log, "'twice'"), "the log names it: %s", log);
    free(log);
    clReleaseProgram(l);
    /* a compiled object builds alone when it needs nothing else */
    CHECK(clBuildProgram(pa, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS,
          "build a compiled program");
    cl_program mixed[] = {pb2, pa};
    CHECK(!clLinkProgram(ctx, 0, NULL, NULL, 2, mixed, NULL, NULL, &e) &&
              e == CL_INVALID_OPERATION, "an executable does not link");
    clReleaseProgram(pa);
    clReleaseProgram(pb);
    clReleaseProgram(pb2);
    clReleaseProgram(ph);
    clReleaseProgram(ph2);
}

/* OpenCL C source goes through the front end; its errors reach the log. */
static void opencl_c(void)
{
    cl_int e, x[4] = {1, 2, 3, 4};
    const char *src = "__kernel void twice(__global int *x)\n"
                      "{ x[get_global_id(0)] *= 2 * K; }\n";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    e = clBuildProgram(p, 1, &dev, "-DK=3", NULL, NULL);
    CHECK(e == CL_SUCCESS, "build OpenCL C with -D: %d", e);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
    cl_kernel k = clCreateKernel(p, "twice", &e);
    clSetKernelArg(k, 0, sizeof b, &b);
    clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){4}, NULL, 0, NULL, NULL);
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL);
    CHECK(x[0] == 6 && x[3] == 24, "x = %d .. %d", x[0], x[3]);
    clReleaseKernel(k);
    clReleaseMemObject(b);
    clReleaseProgram(p);
    const char *bad = "__kernel void k(__global int *x) { x[0] = y; }\n";
    p = clCreateProgramWithSource(ctx, 1, &bad, NULL, &e);
    fprintf(stderr, "(clang's error below is expected)\n");
    CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL) ==
              CL_BUILD_PROGRAM_FAILURE, "an undeclared name fails the build");
    clReleaseProgram(p);
}

/* cl_khr_fp16 is reported, and half arithmetic rounds once per operation:
 * a half sum of ones stalls at 2048. */
static void half_arith(void)
{
    char ext[1024] = "";
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_HALF_FP_CONFIG, sizeof fp, &fp, NULL);
    CHECK(strstr(ext, "cl_khr_fp16") && (fp & CL_FP_ROUND_TO_NEAREST) && (fp & CL_FP_FMA),
          "cl_khr_fp16 and its fp config: '%s' %#llx", ext, (unsigned long long)fp);
    cl_int e;
    float o = 0;
    const char *src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                      "__kernel void acc(__global float *o)\n"
                      "{ half s = 0; for (int i = 0; i < 3000; i++) s += (half)1; o[0] = s; }\n";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    e = clBuildProgram(p, 1, &dev, "", NULL, NULL);
    CHECK(e == CL_SUCCESS, "build a half kernel: %d", e);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof o, &o, &e);
    cl_kernel k = clCreateKernel(p, "acc", &e);
    clSetKernelArg(k, 0, sizeof b, &b);
    clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){1}, NULL, 0, NULL, NULL);
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof o, &o, 0, NULL, NULL);
    CHECK(o == 2048.0f, "a half sum of 3000 ones is %g, not 2048", o);
    clReleaseKernel(k);
    clReleaseMemObject(b);
    clReleaseProgram(p);
}

/* A struct passed by value (its exact size, else CL_INVALID_ARG_SIZE; the
 * bytes as set at enqueue), its type name, and NULL buffer arguments as
 * null pointers. */
static void struct_args(void)
{
    typedef struct { cl_char c; cl_float f; cl_int v[2]; cl_double d; } S;
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "typedef struct { char c; float f; int2 v; double d; } S;\n"
        "kernel void k(S s, global float *o, global int *n)\n"
        "{ o[0] = s.c + s.f + s.v.y + (float)s.d; o[1] = n == 0;\n"
        "  s.f = 0; o[2] = s.f; }\n";
    cl_int e;
    char tn[32] = "";
    cl_kernel_arg_address_qualifier aq = 0;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    e = clBuildProgram(p, 1, &dev, "-cl-kernel-arg-info", NULL, NULL);
    CHECK(e == CL_SUCCESS, "build a kernel with a struct argument: %d", e);
    cl_kernel k = clCreateKernel(p, "k", &e);
    CHECK(e == CL_SUCCESS, "kernel %d", e);
    S s = {-2, 1.5f, {7, 30}, 0.25}, s2 = {1, 2, {3, 4}, 5};
    float o[3] = {0};
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof o, o, &e);
    CHECK(clSetKernelArg(k, 0, sizeof s - 8, &s) == CL_INVALID_ARG_SIZE,
          "a struct argument of the wrong size");
    CHECK(clSetKernelArg(k, 0, sizeof s, NULL) == CL_INVALID_ARG_VALUE,
          "a struct argument without a value");
    CHECK(clSetKernelArg(k, 0, sizeof s, &s) == CL_SUCCESS &&
          clSetKernelArg(k, 1, sizeof b, &b) == CL_SUCCESS &&
          clSetKernelArg(k, 2, sizeof(cl_mem), NULL) == CL_SUCCESS,
          "set the arguments");
    clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tn, tn, NULL);
    clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq,
                       NULL);
    CHECK(!strcmp(tn, "S") && aq == CL_KERNEL_ARG_ADDRESS_PRIVATE,
          "struct argument info: '%s' %#x", tn, aq);
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){1}, NULL, 0, NULL,
                               NULL);
    clSetKernelArg(k, 0, sizeof s2, &s2);   /* the launch keeps s */
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL);
    CHECK(e == CL_SUCCESS && o[0] == 29.75f && o[1] == 1 && o[2] == 0,
          "struct argument: %g %g %g", o[0], o[1], o[2]);
    clEnqueueNDRangeKernel(q, k, 1, NULL, (size_t[]){1}, NULL, 0, NULL, NULL);
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL);
    CHECK(o[0] == 12, "the struct set again: %g", o[0]);
    clReleaseKernel(k);
    clReleaseMemObject(b);
    clReleaseProgram(p);
}

/* No image support: no formats, no images, no samplers. */
static void no_images(void)
{
    cl_uint n = 9;
    cl_int e;
    CHECK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY,
                                     CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n) ==
              CL_SUCCESS && n == 0, "no formats");
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    CHECK(!clCreateImage2D(ctx, 0, &f, 4, 4, 0, NULL, &e) &&
              e == CL_INVALID_OPERATION, "no image");
    CHECK(!clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST,
                           &e) && e == CL_INVALID_OPERATION, "no sampler");
}

int main(int argc, char **argv)
{
    /* the library next to this test's folder, and nothing else */
    if (!t_icd_only(argv[0]))
        return t_summary("ocl");
    RUN(discovery);
    if (ctx) {
        RUN(dispatch_table);
        RUN(run_scale);
        RUN(local_memory);
        RUN(buffers);
        RUN(fills);
        RUN(user_events);
        RUN(traps);
        RUN(profiles);
        RUN(sub_buffer_races);
        RUN(max_steps);
        RUN(bad_programs);
        RUN(binaries);
        RUN(rects);
        RUN(compile_link);
        RUN(compile_link_c);
        RUN(half_arith);
        RUN(no_images);
        RUN(struct_args);
        RUN(opencl_c);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
    return t_summary("ocl");
}
