/* Programs: built from OpenCL C (the front end: clang-14, llvm-spirv-14,
 * asm/spirv/) or clvm IR text (the assembler), or loaded from clvm
 * bytecode (CL_PROGRAM_BINARIES gives it back); the build log holds the
 * messages. */
#include "tools/ocl/ocl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "tools/cc.h"
#include "vm/bcfile.h"

#include <unistd.h>

static cl_program make(cl_context ctx, cl_int *err)
{
    cl_program p = calloc(1, sizeof *p);
    if (!p) {
        if (err)
            *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    ocl_obj_init(&p->h, OCL_PROGRAM);
    p->ctx = ctx, p->status = CL_BUILD_NONE;
    clRetainContext(ctx);
    if (err)
        *err = CL_SUCCESS;
    return p;
}

cl_program CL_API_CALL clCreateProgramWithSource(cl_context ctx, cl_uint n,
                                                 const char **strings,
                                                 const size_t *lengths,
                                                 cl_int *err)
{
    cl_int e = CL_SUCCESS;
    size_t total = 0;
    if (!ocl_is(ctx, OCL_CONTEXT))
        e = CL_INVALID_CONTEXT;
    else if (!n || !strings)
        e = CL_INVALID_VALUE;
    for (cl_uint i = 0; e == CL_SUCCESS && i < n; i++)
        if (!strings[i])
            e = CL_INVALID_VALUE;
        else
            total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    cl_program p = e == CL_SUCCESS ? make(ctx, &e) : NULL;
    if (p && !(p->source = malloc(total + 1))) {
        clReleaseProgram(p);
        p = NULL, e = CL_OUT_OF_HOST_MEMORY;
    }
    if (p) {
        size_t at = 0;
        for (cl_uint i = 0; i < n; i++) {
            size_t l = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
            memcpy(p->source + at, strings[i], l);
            at += l;
        }
        p->source[total] = 0, p->source_len = total;
    }
    if (err)
        *err = e;
    return p;
}

cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context ctx, cl_uint n, const cl_device_id *devs,
                          const size_t *lengths, const unsigned char **bins,
                          cl_int *status, cl_int *err)
{
    cl_int e = CL_SUCCESS;
    if (!ocl_is(ctx, OCL_CONTEXT))
        e = CL_INVALID_CONTEXT;
    else if (n != 1 || !devs || !lengths || !bins)
        e = devs && n > 1 && !ocl_is(devs[0], OCL_DEVICE) ? CL_INVALID_DEVICE
                                                          : CL_INVALID_VALUE;
    else if (!ocl_is(devs[0], OCL_DEVICE))
        e = CL_INVALID_DEVICE;
    else if (!bins[0] || !lengths[0])
        e = CL_INVALID_VALUE;
    cl_program p = e == CL_SUCCESS ? make(ctx, &e) : NULL;
    if (p) {
        char why[256];
        if (bc_read(bins[0], lengths[0], &p->mod, why, sizeof why) ||
            !(p->binary = malloc(lengths[0]))) {
            clReleaseProgram(p);
            p = NULL, e = CL_INVALID_BINARY;
        } else {
            memcpy(p->binary, bins[0], lengths[0]);
            p->binary_len = lengths[0];
        }
    }
    if (status)
        *status = e == CL_SUCCESS ? CL_SUCCESS : CL_INVALID_BINARY;
    if (err)
        *err = e;
    return p;
}

cl_int CL_API_CALL clRetainProgram(cl_program p)
{
    return ocl_retain_obj(p, OCL_PROGRAM, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clReleaseProgram(cl_program p)
{
    int last = ocl_release_obj(p, OCL_PROGRAM);
    if (last <= 0)
        return last < 0 ? CL_INVALID_PROGRAM : CL_SUCCESS;
    bc_free(&p->mod);
    free(p->source), free(p->binary), free(p->options), free(p->log);
    clReleaseContext(p->ctx);
    free(p);
    return CL_SUCCESS;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* OpenCL C: the source into a temporary .cl file for clang, the build
 * options split at blanks passed on. */
static int build_opencl_c(cl_program p, FILE *diag)
{
    char why[256] = "", buf[4096];
    const char *tmpdir = getenv("TMPDIR");
    int fd = -1;
    if (snprintf(buf, sizeof buf, "%s/clvm-program-XXXXXX.cl",
                 tmpdir && *tmpdir ? tmpdir : "/tmp") < (int)sizeof buf)
        fd = mkstemps(buf, 3);
    if (fd < 0) {
        fprintf(diag, "error: cannot write a temporary file for clang\n");
        return 1;
    }
    FILE *f = fdopen(fd, "w");
    bool wrote = f && fwrite(p->source, 1, p->source_len, f) == p->source_len;
    if (f ? fclose(f) : close(fd))
        wrote = false;
    char *opts = dup_str(p->options ? p->options : ""), *argv[64];
    int n = 0;
    for (char *t = opts ? strtok(opts, " \t\n") : NULL; t && n < 64;
         t = strtok(NULL, " \t\n"))
        argv[n++] = t;
    int r = 1;
    if (!wrote)
        fprintf(diag, "error: cannot write a temporary file for clang\n");
    else if ((r = cc_load_nocache(buf, argv, n, &p->mod, diag, why,
                                    sizeof why)) &&
             *why)
        fprintf(diag, "%s\n", why);
    unlink(buf);
    free(opts);
    return r ? 1 : 0;
}

/* The source into p->mod, messages into the log. */
static cl_int build_source(cl_program p)
{
    char *log = NULL;
    size_t loglen = 0;
    FILE *diag = open_memstream(&log, &loglen);
    if (!diag)
        return CL_OUT_OF_HOST_MEMORY;
    int errs;
    if (cc_is_opencl_c("program", p->source, p->source_len)) {
        errs = build_opencl_c(p, diag);
    } else {
        errs = asm_assemble(p->source, p->source_len, "program", &p->mod,
                            diag);
    }
    fclose(diag);
    free(p->log);
    p->log = log;
    if (errs)
        return CL_BUILD_PROGRAM_FAILURE;
    free(p->binary);
    p->binary = NULL;
    if (bc_write(&p->mod, &p->binary, &p->binary_len))
        return CL_OUT_OF_HOST_MEMORY;
    return CL_SUCCESS;
}

cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint n,
                                  const cl_device_id *devs,
                                  const char *options,
                                  void (CL_CALLBACK *notify)(cl_program,
                                                             void *),
                                  void *data)
{
    if (!ocl_is(p, OCL_PROGRAM))
        return CL_INVALID_PROGRAM;
    if ((n > 0) != (devs != NULL) || (!notify && data))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_is(devs[i], OCL_DEVICE))
            return CL_INVALID_DEVICE;
    if (p->kernels)
        return CL_INVALID_OPERATION;
    free(p->options);
    if (!(p->options = dup_str(options ? options : "")))
        return CL_OUT_OF_HOST_MEMORY;
    cl_int e = CL_SUCCESS;
    if (p->source) {
        bc_free(&p->mod);
        e = build_source(p);
    } else if (!p->log) {
        p->log = dup_str("");
    }
    p->built = e == CL_SUCCESS;
    p->status = p->built ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (notify)
        notify(p, data);
    return e;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id pl)
{
    return pl == &ocl_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

/* "k1;k2": the kernels' names */
static char *kernel_names(const bc_module *m)
{
    size_t n = 1;
    for (uint32_t i = 0; i < m->nkernels; i++)
        n += strlen(bc_str(m, m->kernels[i].name)) + 1;
    char *s = malloc(n);
    if (!s)
        return NULL;
    s[0] = 0;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        if (i)
            strcat(s, ";");
        strcat(s, bc_str(m, m->kernels[i].name));
    }
    return s;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info what,
                                    size_t size, void *value, size_t *ret)
{
    if (!ocl_is(p, OCL_PROGRAM))
        return CL_INVALID_PROGRAM;
    cl_device_id d = &ocl_device;
    cl_uint u;
    size_t z;
    switch (what) {
    case CL_PROGRAM_REFERENCE_COUNT:
        u = ocl_refcount(&p->h.ref);
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_PROGRAM_CONTEXT:
        return ocl_info(size, value, ret, &p->ctx, sizeof p->ctx);
    case CL_PROGRAM_NUM_DEVICES:
        u = 1;
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_PROGRAM_DEVICES:
        return ocl_info(size, value, ret, &d, sizeof d);
    case CL_PROGRAM_SOURCE:
        return ocl_info_str(size, value, ret, p->source ? p->source : "");
    case CL_PROGRAM_BINARY_SIZES:
        z = p->binary ? p->binary_len : 0;
        return ocl_info(size, value, ret, &z, sizeof z);
    case CL_PROGRAM_BINARIES: {
        unsigned char *const *dst = value;
        if (dst && size < sizeof *dst)
            return CL_INVALID_VALUE;
        if (dst && dst[0] && p->binary)
            memcpy(dst[0], p->binary, p->binary_len);
        if (ret)
            *ret = sizeof *dst;
        return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
        if (!p->built)
            return CL_INVALID_PROGRAM_EXECUTABLE;
        z = p->mod.nkernels;
        return ocl_info(size, value, ret, &z, sizeof z);
    case CL_PROGRAM_KERNEL_NAMES: {
        if (!p->built)
            return CL_INVALID_PROGRAM_EXECUTABLE;
        char *s = kernel_names(&p->mod);
        if (!s)
            return CL_OUT_OF_HOST_MEMORY;
        cl_int e = ocl_info_str(size, value, ret, s);
        free(s);
        return e;
    }
    default:
        return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id d,
                                         cl_program_build_info what,
                                         size_t size, void *value,
                                         size_t *ret)
{
    if (!ocl_is(p, OCL_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (!ocl_is(d, OCL_DEVICE))
        return CL_INVALID_DEVICE;
    cl_program_binary_type bt =
        p->compiled ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
        : p->built  ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                    : CL_PROGRAM_BINARY_TYPE_NONE;
    switch (what) {
    case CL_PROGRAM_BUILD_STATUS:
        return ocl_info(size, value, ret, &p->status, sizeof p->status);
    case CL_PROGRAM_BUILD_OPTIONS:
        return ocl_info_str(size, value, ret, p->options ? p->options : "");
    case CL_PROGRAM_BUILD_LOG:
        return ocl_info_str(size, value, ret, p->log ? p->log : "");
    case CL_PROGRAM_BINARY_TYPE:
        return ocl_info(size, value, ret, &bt, sizeof bt);
    default:
        return CL_INVALID_VALUE;
    }
}

/* clCompileProgram: the source is assembled to check it (the log says
 * what is wrong); linking assembles the sources of its inputs as one. */
cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint n,
                                    const cl_device_id *devs,
                                    const char *options, cl_uint nh,
                                    const cl_program *headers,
                                    const char **names,
                                    void (CL_CALLBACK *notify)(cl_program,
                                                               void *),
                                    void *data)
{
    if (!ocl_is(p, OCL_PROGRAM))
        return CL_INVALID_PROGRAM;
    if ((nh > 0) != (headers != NULL) || (nh > 0) != (names != NULL))
        return CL_INVALID_VALUE;
    if (!p->source)
        return CL_INVALID_OPERATION;
    cl_int e = clBuildProgram(p, n, devs, options, NULL, NULL);
    if (e == CL_BUILD_PROGRAM_FAILURE)
        e = CL_COMPILE_PROGRAM_FAILURE;
    p->compiled = e == CL_SUCCESS;
    if (notify)
        notify(p, data);
    return e;
}

cl_program CL_API_CALL clLinkProgram(cl_context ctx, cl_uint n,
                                     const cl_device_id *devs,
                                     const char *options, cl_uint np,
                                     const cl_program *ps,
                                     void (CL_CALLBACK *notify)(cl_program,
                                                                void *),
                                     void *data, cl_int *err)
{
    cl_int e = CL_SUCCESS;
    size_t total = 0;
    if (!ocl_is(ctx, OCL_CONTEXT))
        e = CL_INVALID_CONTEXT;
    else if (!np || !ps || (n > 0) != (devs != NULL) || (!notify && data))
        e = CL_INVALID_VALUE;
    for (cl_uint i = 0; e == CL_SUCCESS && i < np; i++)
        if (!ocl_is(ps[i], OCL_PROGRAM))
            e = CL_INVALID_PROGRAM;
        else if (!ps[i]->compiled || !ps[i]->source)
            e = CL_INVALID_OPERATION;   /* only compiled IR sources link */
        else
            total += ps[i]->source_len + 1;
    cl_program p = NULL;
    char *src = e == CL_SUCCESS ? malloc(total + 1) : NULL;
    if (e == CL_SUCCESS && !src)
        e = CL_OUT_OF_HOST_MEMORY;
    if (src) {
        size_t at = 0;
        for (cl_uint i = 0; i < np; i++) {
            memcpy(src + at, ps[i]->source, ps[i]->source_len);
            at += ps[i]->source_len;
            src[at++] = '\n';
        }
        src[at] = 0;
        const char *one = src;
        p = clCreateProgramWithSource(ctx, 1, &one, &at, &e);
        free(src);
    }
    if (p) {
        e = clBuildProgram(p, n, devs, options, NULL, NULL);
        if (e == CL_BUILD_PROGRAM_FAILURE)
            e = CL_LINK_PROGRAM_FAILURE;
        if (notify)
            notify(p, data);
    }
    if (err)
        *err = e;
    return p;
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context ctx, cl_uint n, const cl_device_id *devs, const char *names,
    cl_int *err)
{
    /* CL_DEVICE_BUILT_IN_KERNELS is empty: no name can be one */
    if (err)
        *err = ocl_is(ctx, OCL_CONTEXT) ? CL_INVALID_VALUE
                                        : CL_INVALID_CONTEXT;
    return NULL;
}
