/* Programs: built from OpenCL C (the front end: clang-14, llvm-spirv-14,
 * asm/spirv/) or clvm IR text (the assembler), or loaded from clvm
 * bytecode or an OpenCL C object (CL_PROGRAM_BINARIES gives either back);
 * the build log holds the messages. */
#include "tools/ocl/ocl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "tools/cc.h"
#include "vm/bcfile.h"


cl_program ocl_program_new(cl_context ctx, cl_int *err)
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
    cl_program p = e == CL_SUCCESS ? ocl_program_new(ctx, &e) : NULL;
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

/* A library's binary is its bitcode after this tag, so that
 * clCreateProgramWithBinary gives a library back, not an object. */
static const unsigned char lib_tag[8] = "CLVMLIB";

static size_t tag_len(cl_program p)
{
    return p->bintype == CL_PROGRAM_BINARY_TYPE_LIBRARY ? sizeof lib_tag : 0;
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
    cl_program p = e == CL_SUCCESS ? ocl_program_new(ctx, &e) : NULL;
    size_t skip = p && lengths[0] > sizeof lib_tag &&
                  !memcmp(bins[0], lib_tag, sizeof lib_tag) ? sizeof lib_tag
                                                             : 0;
    if (p && cc_is_bitcode(bins[0] + skip, lengths[0] - skip)) {
        /* a compiled object or library (CL_PROGRAM_BINARIES gave it) */
        if (!(p->object = malloc(lengths[0] - skip))) {
            clReleaseProgram(p);
            p = NULL, e = CL_OUT_OF_HOST_MEMORY;
        } else {
            memcpy(p->object, bins[0] + skip, lengths[0] - skip);
            p->object_len = lengths[0] - skip;
            p->bintype = skip ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                              : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
        }
    } else if (p) {
        char why[256];
        if (bc_read(bins[0], lengths[0], &p->mod, why, sizeof why) ||
            !(p->binary = malloc(lengths[0]))) {
            clReleaseProgram(p);
            p = NULL, e = CL_INVALID_BINARY;
        } else {
            memcpy(p->binary, bins[0], lengths[0]);
            p->binary_len = lengths[0];
            p->bintype = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
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
    free(p->object);
    for (cl_uint i = 0; i < p->nparts; i++)
        clReleaseProgram(p->parts[i]);
    free(p->parts);
    clReleaseContext(p->ctx);
    free(p);
    return CL_SUCCESS;
}

cl_int ocl_log_begin(ocl_log *l)
{
    l->buf = NULL, l->len = 0;
    l->f = open_memstream(&l->buf, &l->len);
    return l->f ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

void ocl_log_end(cl_program p, ocl_log *l)
{
    fclose(l->f);
    free(p->log);
    p->log = l->buf;
}

/* The options split at blanks into argv[*n ..] (up to max entries in
 * all, pointing into the malloc'd copy it returns, NULL when out of
 * memory), *n advanced. */
static char *split_opts(const char *options, char **argv, int *n, int max)
{
    char *opts = strdup(options ? options : "");
    for (char *t = opts ? strtok(opts, " \t\n") : NULL; t && *n < max;
         t = strtok(NULL, " \t\n"))
        argv[(*n)++] = t;
    return opts;
}

int ocl_compile_c(cl_program p, cl_uint nh, const cl_program *headers,
                  const char *const *names, cc_what what, uint8_t **out,
                  size_t *olen, FILE *diag)
{
    ocl_unit u = {.dir = ""};
    char why[256] = "", *argv[64];
    int n = 0, r = 1;
    ccc_header *hs = calloc(nh ? nh : 1, sizeof *hs);
    char *opts = split_opts(p->options, argv, &n, 64);
    if (!opts || !hs)
        fprintf(diag, "error: out of memory\n");
    else if (ocl_unit_open(&u, p, nh, headers, names, diag))
        r = 1;
    else if (what == CC_MODULE)
        r = cc_load_as(u.path, "program.cl", argv, n, &p->mod, diag, why,
                       sizeof why);
    else {
        for (cl_uint i = 0; i < nh; i++)
            hs[i] = (ccc_header){names[i], headers[i]->source,
                                 headers[i]->source_len};
        cc_unit cu = {u.path, "program.cl", nh ? u.hdir : NULL, hs,
                      (int)nh, argv, n};
        r = cc_make(&cu, what, out, olen, diag, why, sizeof why);
    }
    if (r && *why)
        fprintf(diag, "%s\n", why);
    ocl_unit_close(&u);
    free(hs);
    free(opts);
    return r ? 1 : 0;
}

int ocl_keep_binary(cl_program p, FILE *diag)
{
    free(p->binary);
    p->binary = NULL;
    if (!bc_write(&p->mod, &p->binary, &p->binary_len))
        return 0;
    fprintf(diag, "error: out of memory\n");
    return 1;
}

int ocl_link_objects(cl_program p, const uint8_t *const *objs,
                     const size_t *lens, int n, bool library, FILE *diag)
{
    char why[256] = "", *msgs = NULL;
    uint8_t *out = NULL;
    size_t len = 0, ml = 0;
    int r = cc_link(objs, lens, n, library, &out, &len, &msgs, &ml, why,
                    sizeof why);
    fwrite(msgs ? msgs : "", 1, ml, diag);
    if (!r && library) {
        free(p->object);
        p->object = out, p->object_len = len, out = NULL;
    } else if (!r) {
        bc_free(&p->mod);
        r = cc_translate(out, len, "program", &p->mod, diag, why,
                         sizeof why) ||
            ocl_keep_binary(p, diag);
    }
    if (r && *why)
        fprintf(diag, "%s\n", why);
    free(out);
    free(msgs);
    return r ? 1 : 0;
}

/* The source or object into p->mod, messages into the log. */
static cl_int build(cl_program p)
{
    ocl_log l;
    if (ocl_log_begin(&l))
        return CL_OUT_OF_HOST_MEMORY;
    bc_free(&p->mod);
    int errs;
    if (!p->source) {
        const uint8_t *o = p->object;
        errs = ocl_link_objects(p, &o, &p->object_len, 1, false, l.f);
    } else if (cc_program_is_opencl_c(p->source, p->source_len)) {
        errs = ocl_compile_c(p, 0, NULL, NULL, CC_MODULE, NULL, NULL, l.f) ||
               ocl_keep_binary(p, l.f);
    } else {
        errs = asm_assemble(p->source, p->source_len, "program", &p->mod,
                            l.f) ||
               ocl_keep_binary(p, l.f);
    }
    ocl_log_end(p, &l);
    return errs ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS;
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
    if (!(p->options = strdup(options ? options : "")))
        return CL_OUT_OF_HOST_MEMORY;
    cl_int e = CL_SUCCESS;
    if (p->source || p->object) {
        e = build(p);
        free(p->object);
        p->object = NULL, p->object_len = 0;
    } else if (!p->log) {
        p->log = strdup("");
    }
    p->built = e == CL_SUCCESS;
    p->bintype = p->built ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                          : CL_PROGRAM_BINARY_TYPE_NONE;
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
        z = p->object ? tag_len(p) + p->object_len
            : p->binary ? p->binary_len : 0;
        return ocl_info(size, value, ret, &z, sizeof z);
    case CL_PROGRAM_BINARIES: {
        unsigned char *const *dst = value;
        if (dst && size < sizeof *dst)
            return CL_INVALID_VALUE;
        if (dst && dst[0] && p->object) {
            memcpy(dst[0], lib_tag, tag_len(p));
            memcpy(dst[0] + tag_len(p), p->object, p->object_len);
        }
        else if (dst && dst[0] && p->binary)
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
    switch (what) {
    case CL_PROGRAM_BUILD_STATUS:
        return ocl_info(size, value, ret, &p->status, sizeof p->status);
    case CL_PROGRAM_BUILD_OPTIONS:
        return ocl_info_str(size, value, ret, p->options ? p->options : "");
    case CL_PROGRAM_BUILD_LOG:
        return ocl_info_str(size, value, ret, p->log ? p->log : "");
    case CL_PROGRAM_BINARY_TYPE:
        return ocl_info(size, value, ret, &p->bintype, sizeof p->bintype);
    default:
        return CL_INVALID_VALUE;
    }
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
