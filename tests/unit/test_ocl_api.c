/* The OpenCL host API's corner cases the Khronos CTS (api, computeinfo)
 * checks, as a host program through the ICD loader: property values,
 * image-format counts, reqd_work_group_size, local memory accounting,
 * kernel attributes, declarations-only compiles, a library's binary,
 * argument qualifiers, a buffer's host pointer; clCompileProgram through
 * the compile cache. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/test.h"

static cl_platform_id plat;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;

/* A program of OpenCL C source, built, and its kernels named in names
 * (blank separated) in ks[0 ...]; NULL (the check failed) if not. */
static cl_program build(const char *src, const char *names, cl_kernel *ks)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    CHECK(p && e == CL_SUCCESS, "clCreateProgramWithSource: %d", e);
    if (!p)
        return NULL;
    e = clBuildProgram(p, 1, &dev, "", NULL, NULL);
    CHECK(e == CL_SUCCESS, "clBuildProgram: %d", e);
    int n = 0;
    for (const char *c = names; *c && e == CL_SUCCESS; n++) {
        char name[64];
        size_t l = strcspn(c, " ");
        snprintf(name, sizeof name, "%.*s", (int)l, c);
        c += l + (c[l] == ' ');
        ks[n] = clCreateKernel(p, name, &e);
        CHECK(ks[n] && e == CL_SUCCESS, "clCreateKernel %s: %d", name, e);
    }
    if (e == CL_SUCCESS)
        return p;
    for (int i = 0; i < n - 1; i++)
        clReleaseKernel(ks[i]);
    clReleaseProgram(p);
    return NULL;
}

/* Releases the n kernels ks and their program p. */
static void release(cl_program p, int n, const cl_kernel *ks)
{
    for (int i = 0; i < n; i++)
        clReleaseKernel(ks[i]);
    clReleaseProgram(p);
}

/* A program made of p's binary (CL_PROGRAM_BINARIES), its binary type in
 * *bt (0 if none); NULL if it cannot be made. */
static cl_program from_binary(cl_program p, cl_program_binary_type *bt)
{
    size_t len = 0;
    cl_int e;
    *bt = 0;
    clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL);
    unsigned char *bin = malloc(len ? len : 1);
    if (!bin || !len ||
        clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL)) {
        free(bin);
        return NULL;
    }
    const unsigned char *cb = bin;
    cl_program back = clCreateProgramWithBinary(ctx, 1, &dev, &len, &cb,
                                                NULL, &e);
    if (back)
        clGetProgramBuildInfo(back, dev, CL_PROGRAM_BINARY_TYPE, sizeof *bt,
                              bt, NULL);
    free(bin);
    return back;
}

/* CL_CONTEXT_INTEROP_USER_SYNC takes CL_TRUE or CL_FALSE alone. */
static void context_props(void)
{
    cl_int e;
    cl_context_properties bad[] = {CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
    /* the loader wants the platform to find the vendor */
    cl_context_properties bad2[] = {CL_CONTEXT_PLATFORM,
                                    (cl_context_properties)plat,
                                    CL_CONTEXT_INTEROP_USER_SYNC, 2, 0};
    cl_context_properties good[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
    CHECK(!clCreateContext(bad, 1, &dev, NULL, NULL, &e) &&
              e == CL_INVALID_PROPERTY, "user sync -1: %d", e);
    CHECK(!clCreateContextFromType(bad2, CL_DEVICE_TYPE_DEFAULT, NULL, NULL,
                                   &e) && e == CL_INVALID_PROPERTY,
          "from type, user sync -1: %d", e);
    cl_context c = clCreateContext(good, 1, &dev, NULL, NULL, &e);
    CHECK(c && e == CL_SUCCESS, "user sync true: %d", e);
    if (c)
        clReleaseContext(c);
}

/* A count of formats may be asked with room for some and no array. */
static void image_formats(void)
{
    cl_uint n = 9;
    CHECK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE,
                                     CL_MEM_OBJECT_IMAGE2D, 5000, NULL, &n) ==
              CL_SUCCESS && n == 0, "5000 entries, no array: %u", n);
    cl_image_format f;
    CHECK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE,
                                     CL_MEM_OBJECT_IMAGE2D, 0, &f, &n) ==
              CL_INVALID_VALUE, "0 entries and an array");
}

/* __attribute__((reqd_work_group_size)): reported, the only local size a
 * launch takes (NULL takes it), kept through the program's binary. */
static void reqd_size(void)
{
    const char *src =
        "__kernel __attribute__((reqd_work_group_size(4, 2, 1)))\n"
        "void k(__global uint *o)\n"
        "{\n"
        "    o[get_global_id(1) * 8 + get_global_id(0)] =\n"
        "        get_local_size(0) * 10 + get_local_size(1);\n"
        "}\n"
        "__kernel void free_size(__global uint *o) { o[0] = 1; }\n";
    cl_kernel ks[2];
    cl_program p = build(src, "k free_size", ks);
    if (!p)
        return;
    cl_int e;
    cl_kernel k = ks[0], f = ks[1];
    size_t s3[3] = {9, 9, 9};
    CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                   sizeof s3, s3, NULL) == CL_SUCCESS &&
              s3[0] == 4 && s3[1] == 2 && s3[2] == 1,
          "compile size %zu %zu %zu", s3[0], s3[1], s3[2]);
    CHECK(clGetKernelWorkGroupInfo(f, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                   sizeof s3, s3, NULL) == CL_SUCCESS &&
              !s3[0] && !s3[1] && !s3[2], "no compile size");
    cl_uint out[64] = {0};
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &e);
    clSetKernelArg(k, 0, sizeof b, &b);
    size_t g[2] = {8, 8}, l[2] = {2, 2}, l2[2] = {4, 2};
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL) ==
              CL_INVALID_WORK_GROUP_SIZE, "local 2x2 for a 4x2 kernel");
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, g, NULL, 0, NULL, NULL) ==
              CL_INVALID_WORK_GROUP_SIZE, "one dimension for a 4x2 kernel");
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL) ==
              CL_SUCCESS, "local NULL");
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL,
                              NULL) == CL_SUCCESS && out[0] == 42 &&
              out[63] == 42, "local NULL ran with 4x2: %u", out[0]);
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l2, 0, NULL, NULL) ==
              CL_SUCCESS, "local 4x2");
    /* the binary keeps the attribute */
    cl_program_binary_type bt;
    cl_program p2 = from_binary(p, &bt);
    CHECK(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "an executable's binary");
    CHECK(p2 && clBuildProgram(p2, 1, &dev, "", NULL, NULL) == CL_SUCCESS,
          "the binary builds");
    cl_kernel k2 = p2 ? clCreateKernel(p2, "k", &e) : NULL;
    s3[0] = 0;
    CHECK(k2 && clGetKernelWorkGroupInfo(k2, dev,
                                         CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                         sizeof s3, s3, NULL) == CL_SUCCESS &&
              s3[0] == 4 && s3[1] == 2 && s3[2] == 1,
          "the binary's compile size %zu %zu %zu", s3[0], s3[1], s3[2]);
    if (k2)
        clReleaseKernel(k2);
    if (p2)
        clReleaseProgram(p2);
    clReleaseMemObject(b);
    release(p, 2, ks);
}

/* CL_KERNEL_ATTRIBUTES: the declaration's attributes as written, blanks
 * removed, space separated; not those of a comment or another kernel; a
 * kernel a macro declares, after the preprocessor (its parameters'
 * volatile too). */
static void attributes(void)
{
    const char *src =
        "/* __attribute__((vec_type_hint(int2))) __kernel void k() */\n"
        "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n"
        "void other(void) {}\n"
        "__attribute__((vec_type_hint(uchar4)))\n"
        "__attribute__((work_group_size_hint( 1, 1, 1 )))\n"
        "__kernel void k(__global int *x) { x[0] = 1; }\n"
        "#define WG 2\n"
        "#define KERNEL(name, attrs) __kernel attrs void name(__global \\\n"
        "    volatile int *x, __global int *y)\n"
        "KERNEL(mk, __attribute__((reqd_work_group_size(WG, 1, 1)))\n"
        "       __attribute__((vec_type_hint(float2)))) { x[0] = y[0]; }\n";
    cl_kernel ks[3];
    cl_program p = build(src, "k other mk", ks);
    if (!p)
        return;
    char a[256] = "?";
    clGetKernelInfo(ks[0], CL_KERNEL_ATTRIBUTES, sizeof a, a, NULL);
    CHECK(!strcmp(a, "vec_type_hint(uchar4) work_group_size_hint(1,1,1)"),
          "k: '%s'", a);
    clGetKernelInfo(ks[1], CL_KERNEL_ATTRIBUTES, sizeof a, a, NULL);
    CHECK(!strcmp(a, "reqd_work_group_size(1,1,1)"), "other: '%s'", a);
    clGetKernelInfo(ks[2], CL_KERNEL_ATTRIBUTES, sizeof a, a, NULL);
    CHECK(!strcmp(a, "reqd_work_group_size(2,1,1) vec_type_hint(float2)"),
          "mk, a macro's: '%s'", a);
    cl_kernel_arg_type_qualifier tq[2] = {9, 9};
    for (cl_uint i = 0; i < 2; i++)
        clGetKernelArgInfo(ks[2], i, CL_KERNEL_ARG_TYPE_QUALIFIER,
                           sizeof tq[i], &tq[i], NULL);
    CHECK(tq[0] == CL_KERNEL_ARG_TYPE_VOLATILE && tq[1] == 0,
          "mk's qualifiers %x %x", (unsigned)tq[0], (unsigned)tq[1]);
    release(p, 3, ks);
}

/* clCompileProgram of OpenCL C without braces or kernels (declarations
 * alone: not clvm IR, which always has a kernel line); a library's binary
 * comes back from clCreateProgramWithBinary as a library. */
static void compile_decls(void)
{
    const char *srcs[] = {"static constant float foo = 2.78;\n",
                          "extern constant float foo;\n",
                          "int f(int x);\n"};
    cl_program objs[3];
    cl_int e;
    for (int i = 0; i < 3; i++) {
        objs[i] = clCreateProgramWithSource(ctx, 1, &srcs[i], NULL, &e);
        CHECK(clCompileProgram(objs[i], 1, &dev, "", 0, NULL, NULL, NULL,
                               NULL) == CL_SUCCESS, "compile '%s'", srcs[i]);
    }
    cl_program lib = clLinkProgram(ctx, 1, &dev, "-create-library", 1,
                                   &objs[2], NULL, NULL, &e);
    CHECK(lib && e == CL_SUCCESS, "a library: %d", e);
    cl_program_binary_type bt = 0;
    cl_program back = lib ? from_binary(lib, &bt) : NULL;
    CHECK(bt == CL_PROGRAM_BINARY_TYPE_LIBRARY, "the library's binary: %u",
          (unsigned)bt);
    if (back)
        clReleaseProgram(back);
    if (lib)
        clReleaseProgram(lib);
    for (int i = 0; i < 3; i++)
        clReleaseProgram(objs[i]);
}

/* clGetKernelArgInfo: volatile, restrict and void * as the source has
 * them; CL_MEM_HOST_PTR is the host's array with CL_MEM_USE_HOST_PTR
 * alone. */
static void arg_info(void)
{
    const char *src =
        "__kernel void k(__global volatile int *a, __global const int *"
        "restrict b,\n"
        "                __global void *c, volatile int d)\n"
        "{ a[0] = b[0] + d; }\n";
    cl_kernel k;
    cl_program p = build(src, "k", &k);
    if (!p)
        return;
    cl_int e;
    cl_kernel_arg_type_qualifier tq[4] = {9, 9, 9, 9};
    for (cl_uint i = 0; i < 4; i++)
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq[i],
                           &tq[i], NULL);
    CHECK(tq[0] == CL_KERNEL_ARG_TYPE_VOLATILE &&
              tq[1] == (CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT) &&
              tq[2] == 0 && tq[3] == 0, "qualifiers %x %x %x %x",
          (unsigned)tq[0], (unsigned)tq[1], (unsigned)tq[2], (unsigned)tq[3]);
    char tn[64] = "";
    clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_TYPE_NAME, sizeof tn, tn, NULL);
    CHECK(!strcmp(tn, "void*"), "void pointer: %s", tn);
    release(p, 1, &k);
    int host[4] = {1, 2, 3, 4};
    void *hp = host;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof host, host, &e);
    clGetMemObjectInfo(b, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
    CHECK(hp == NULL, "a copy's host pointer: %p", hp);
    clReleaseMemObject(b);
    b = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &e);
    clGetMemObjectInfo(b, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
    CHECK(hp == host, "the host's own array");
    clReleaseMemObject(b);
}

/* CL_KERNEL_LOCAL_MEM_SIZE counts __local arrays and local arguments; a
 * launch needing more than CL_DEVICE_LOCAL_MEM_SIZE is refused. */
static void local_mem(void)
{
    const char *src =
        "__kernel void k(__local float *t, __global float *o)\n"
        "{\n"
        "    __local float a[16];\n"
        "    a[get_local_id(0)] = 1; t[0] = 2;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    o[0] = a[0] + t[0];\n"
        "}\n";
    cl_kernel k;
    cl_program p = build(src, "k", &k);
    if (!p)
        return;
    cl_int e;
    cl_ulong dl = 0, kl = 0;
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof dl, &dl, NULL);
    CHECK(dl >= 32 * 1024, "device local memory %llu", (unsigned long long)dl);
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kl, &kl,
                             NULL);
    CHECK(kl == 64, "before the argument: %llu", (unsigned long long)kl);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &e);
    clSetKernelArg(k, 0, 100, NULL);
    clSetKernelArg(k, 1, sizeof b, &b);
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kl, &kl,
                             NULL);
    CHECK(kl == 164, "with 100 bytes of argument: %llu",
          (unsigned long long)kl);
    size_t one = 1;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL) ==
              CL_SUCCESS, "fits");
    clSetKernelArg(k, 0, (size_t)dl, NULL);
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL) ==
              CL_OUT_OF_RESOURCES, "the whole local memory and 64 bytes");
    clSetKernelArg(k, 0, (size_t)dl - 64, NULL);
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL) ==
              CL_SUCCESS, "the whole local memory");
    float o = 0;
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, 4, &o, 0, NULL, NULL);
    CHECK(o == 3, "ran: %g", o);
    clReleaseMemObject(b);
    release(p, 1, &k);
}

/* The scratch folder of compile_cache: clang's runs counted in runs, the
 * cache in cache/. */
static char cdir[512];

/* How many times the counting clang (llvm-link: link_runs) ran. */
static int count_runs(const char *file)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", cdir, file);
    FILE *f = fopen(path, "r");
    int n = 0;
    for (int c; f && (c = getc(f)) != EOF;)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

static int clang_runs(void) { return count_runs("runs"); }
static int link_runs(void) { return count_runs("links"); }

/* Writes text to the file cdir/name. */
static void write_file(const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", cdir, name);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0, "cannot write %s", path);
    if (f)
        fclose(f);
}

/* The int kernel k of src (compiled with options and the nh headers
 * texts[i] named names[i], then linked) writes; -1 if any step fails.
 * The compile log must hold want. */
static int compiled(const char *src, const char *options, cl_uint nh,
                    const char **names, const char **texts, const char *want)
{
    cl_int e;
    cl_program hs[4], p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    for (cl_uint i = 0; i < nh; i++)
        hs[i] = clCreateProgramWithSource(ctx, 1, &texts[i], NULL, &e);
    e = clCompileProgram(p, 1, &dev, options, nh, nh ? hs : NULL,
                         nh ? names : NULL, NULL, NULL);
    char log[4096] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    CHECK(e == CL_SUCCESS && strstr(log, want), "compile: %d, log: %s", e,
          log);
    cl_program x = e == CL_SUCCESS ? clLinkProgram(ctx, 1, &dev, "", 1, &p,
                                                   NULL, NULL, &e) : NULL;
    cl_kernel k = x ? clCreateKernel(x, "k", &e) : NULL;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &e);
    int v = -1;
    size_t one = 1;
    if (!k || clSetKernelArg(k, 0, sizeof b, &b) ||
        clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL) ||
        clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL))
        v = -1;
    if (k)
        clReleaseKernel(k);
    if (x)
        clReleaseProgram(x);
    clReleaseMemObject(b);
    for (cl_uint i = 0; i < nh; i++)
        clReleaseProgram(hs[i]);
    clReleaseProgram(p);
    return v;
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* clCompileProgram through the compile cache, clang a script that counts
 * its runs: a repeat is a hit (clang's warning in the log again); a
 * header's other text, another header beside it, another option miss; a
 * file found through -I, outside the embedded headers, is never cached. */
static void compile_cache(void)
{
    const char *tmp = getenv("TMPDIR"), *real = getenv("CLVM_CLANG"),
               *rlink = getenv("CLVM_LLVM_LINK");
    char old[4][512] = {"", "", "", ""}, wrap[600], inc[600], opt[700];
    static const char *const env[] = {"XDG_CACHE_HOME", "CLVM_CLANG",
                                      "CLVM_NO_CACHE", "CLVM_LLVM_LINK"};
    snprintf(cdir, sizeof cdir, "%s/ocl-cache.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(cdir)) {
        CHECK(0, "cannot make %s", cdir);
        return;
    }
    for (int i = 0; i < 4; i++)
        if (getenv(env[i]))
            snprintf(old[i], sizeof old[i], "%s", getenv(env[i]));
    snprintf(wrap, sizeof wrap, "#!/bin/sh\necho run >> '%s/runs'\n"
             "exec '%s' \"$@\"\n", cdir, real && *real ? real : "clang-14");
    write_file("clang", wrap);
    snprintf(wrap, sizeof wrap, "#!/bin/sh\necho run >> '%s/links'\n"
             "exec '%s' \"$@\"\n", cdir,
             rlink && *rlink ? rlink : "llvm-link-14");
    write_file("llvm-link", wrap);
    snprintf(wrap, sizeof wrap, "%s/llvm-link", cdir);
    chmod(wrap, 0700);
    setenv(env[3], wrap, 1);
    snprintf(wrap, sizeof wrap, "%s/clang", cdir);
    chmod(wrap, 0700);
    snprintf(inc, sizeof inc, "%s/cache", cdir);
    setenv(env[0], inc, 1), setenv(env[1], wrap, 1), unsetenv(env[2]);

    const char *src = "#include \"h.h\"\nkernel void k(global int *o) "
                      "{ o[0] = N; }\n";
    const char *names[] = {"h.h", "other.h"};
    const char *one[] = {"#warning from the header\n#define N 1\n", ""};
    const char *two[] = {"#define N 2\n", ""};
    CHECK(compiled(src, "", 1, names, one, "from the header") == 1 &&
              clang_runs() == 1, "first: %d runs", clang_runs());
    CHECK(compiled(src, "", 1, names, one, "from the header") == 1 &&
              clang_runs() == 1, "repeat: %d runs", clang_runs());
    CHECK(link_runs() == 1, "the repeat's link is a hit: %d links",
          link_runs());
    CHECK(compiled(src, "", 1, names, two, "") == 2 && clang_runs() == 2,
          "another header text: %d runs", clang_runs());
    CHECK(compiled(src, "", 2, names, two, "") == 2 && clang_runs() == 3,
          "another header beside it: %d runs", clang_runs());
    CHECK(compiled(src, "-DM=1", 2, names, two, "") == 2 &&
              clang_runs() == 4, "another option: %d runs", clang_runs());
    CHECK(compiled(src, "", 1, names, two, "") == 2 && clang_runs() == 4,
          "the second entry stays: %d runs", clang_runs());
    /* h.h found through -I: its text is not in the key */
    snprintf(inc, sizeof inc, "%s/inc", cdir);
    mkdir(inc, 0700);
    snprintf(opt, sizeof opt, "-I %s", inc);
    write_file("inc/h.h", "#define N 5\n");
    CHECK(compiled(src, opt, 0, NULL, NULL, "") == 5 && clang_runs() == 5,
          "through -I: %d runs", clang_runs());
    write_file("inc/h.h", "#define N 6\n");
    CHECK(compiled(src, opt, 0, NULL, NULL, "") == 6 && clang_runs() == 6,
          "through -I, changed: %d runs", clang_runs());

    /* hits: the repeat and the second entry's (their objects come from
     * the compile cache, byte for byte) */
    CHECK(link_runs() == 6, "a link per other object: %d links",
          link_runs());
    for (int i = 0; i < 4; i++)
        if (old[i][0])
            setenv(env[i], old[i], 1);
        else
            unsetenv(env[i]);
    nftw(cdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(int argc, char **argv)
{
    /* the library next to this test's folder, and nothing else */
    if (!t_icd_only(argv[0]))
        return t_summary("ocl_api");
    cl_int e = clGetPlatformIDs(1, &plat, NULL);
    if (e == CL_SUCCESS)
        e = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    if (e == CL_SUCCESS)
        ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (ctx)
        q = clCreateCommandQueue(ctx, dev, 0, &e);
    CHECK(q, "no clvm queue: %d", e);
    if (q) {
        RUN(context_props);
        RUN(image_formats);
        RUN(reqd_size);
        RUN(local_mem);
        RUN(attributes);
        RUN(compile_decls);
        RUN(arg_info);
        RUN(compile_cache);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
    return t_summary("ocl_api");
}
