/* clCompileProgram and clLinkProgram: OpenCL C compiles by clang alone to
 * an object (LLVM bitcode, embedded headers in a folder of their own) and
 * links with llvm-link before llvm-spirv and the translator; clvm IR is
 * checked by the assembler and links as the sources put together. */
#include "tools/ocl/ocl.h"

#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "tools/cc.h"

/* The checks every clCompileProgram and clLinkProgram make of the device
 * list and the callback. */
static cl_int check_devs(cl_uint n, const cl_device_id *devs,
                         void (CL_CALLBACK *notify)(cl_program, void *),
                         void *data)
{
    if ((n > 0) != (devs != NULL) || (!notify && data))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_is(devs[i], OCL_DEVICE))
            return CL_INVALID_DEVICE;
    return CL_SUCCESS;
}

static cl_int check_headers(cl_program p, cl_uint nh,
                            const cl_program *headers, const char **names)
{
    if ((nh > 0) != (headers != NULL) || (nh > 0) != (names != NULL))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < nh; i++)
        if (!ocl_is(headers[i], OCL_PROGRAM) || !headers[i]->source)
            return CL_INVALID_PROGRAM;
        else if (headers[i]->ctx != p->ctx)
            return CL_INVALID_CONTEXT;
        else if (!names[i])
            return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

/* OpenCL C: an object; IR: assembled to check it, its source kept. */
static int compile(cl_program p, cl_uint nh, const cl_program *headers,
                   const char **names, FILE *diag)
{
    bc_free(&p->mod);
    free(p->object), free(p->binary);
    p->object = NULL, p->binary = NULL, p->object_len = p->binary_len = 0;
    if (cc_program_is_opencl_c(p->source, p->source_len))
        return ocl_compile_c(p, nh, headers, (const char *const *)names,
                             CC_OBJECT, &p->object, &p->object_len, diag);
    int errs = asm_assemble(p->source, p->source_len, "program", &p->mod,
                            diag);
    bc_free(&p->mod);
    return errs;
}

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
    cl_int e = check_devs(n, devs, notify, data);
    if (e == CL_SUCCESS)
        e = check_headers(p, nh, headers, names);
    if (e != CL_SUCCESS)
        return e;
    if (!p->source || p->kernels)
        return CL_INVALID_OPERATION;
    ocl_log l;
    free(p->options);
    if (!(p->options = strdup(options ? options : "")) || ocl_log_begin(&l))
        return CL_OUT_OF_HOST_MEMORY;
    int errs = compile(p, nh, headers, names, l.f);
    ocl_log_end(p, &l);
    p->built = false;
    p->bintype = errs ? CL_PROGRAM_BINARY_TYPE_NONE
                      : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    p->status = errs ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
    if (notify)
        notify(p, data);
    return errs ? CL_COMPILE_PROGRAM_FAILURE : CL_SUCCESS;
}

/* The linker options: -create-library (*library set) and those a link
 * may carry (the math options, -enable-link-options), no others. */
static bool link_options(const char *options, bool *library)
{
    static const char *const ok[] = {
        "-enable-link-options", "-cl-denorms-are-zero",
        "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
        "-cl-finite-math-only", "-cl-fast-relaxed-math",
        "-cl-no-subgroup-ifp"};
    *library = false;
    for (const char *c = options ? options : ""; *c;) {
        size_t l = strcspn(c, " \t\n"), k = 0;
        if (l == strlen("-create-library") &&
            !strncmp(c, "-create-library", l))
            *library = true;
        else
            for (k = 0; l && k < sizeof ok / sizeof *ok; k++)
                if (strlen(ok[k]) == l && !strncmp(c, ok[k], l))
                    break;
        if (l && k == sizeof ok / sizeof *ok)
            return false;
        c += l;
        c += strspn(c, " \t\n");
    }
    return true;
}

/* The inputs: all OpenCL C objects (*c true) or all compiled IR. */
static cl_int check_inputs(cl_context ctx, cl_uint np, const cl_program *ps,
                           bool *c)
{
    for (cl_uint i = 0; i < np; i++) {
        if (!ocl_is(ps[i], OCL_PROGRAM))
            return CL_INVALID_PROGRAM;
        if (ps[i]->ctx != ctx)
            return CL_INVALID_CONTEXT;
        if (ps[i]->bintype != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
            ps[i]->bintype != CL_PROGRAM_BINARY_TYPE_LIBRARY)
            return CL_INVALID_OPERATION;
        if (i == 0)
            *c = ps[0]->object != NULL;
        else if (*c != (ps[i]->object != NULL))
            return CL_INVALID_OPERATION;   /* OpenCL C beside IR */
    }
    return CL_SUCCESS;
}

/* IR: the sources one after another, assembled as p's (to check them, for
 * a library). */
static int link_ir(cl_program p, cl_uint np, const cl_program *ps,
                   bool library, FILE *diag)
{
    size_t total = 1;
    for (cl_uint i = 0; i < np; i++)
        total += ps[i]->source_len + 1;
    if (!(p->source = malloc(total))) {
        fprintf(diag, "error: out of memory\n");
        return 1;
    }
    for (cl_uint i = 0; i < np; i++) {
        memcpy(p->source + p->source_len, ps[i]->source, ps[i]->source_len);
        p->source_len += ps[i]->source_len;
        p->source[p->source_len++] = '\n';
    }
    p->source[p->source_len] = 0;
    int errs = asm_assemble(p->source, p->source_len, "program", &p->mod,
                            diag);
    if (!errs && !library)
        errs = ocl_keep_binary(p, diag);
    if (library)
        bc_free(&p->mod);
    return errs;
}

static int link_c(cl_program p, cl_uint np, const cl_program *ps,
                  bool library, FILE *diag)
{
    const uint8_t **objs = calloc(np, sizeof *objs);
    size_t *lens = calloc(np, sizeof *lens);
    int errs = 1;
    if (!objs || !lens || np > 100000)
        fprintf(diag, "error: out of memory\n");
    else {
        for (cl_uint i = 0; i < np; i++)
            objs[i] = ps[i]->object, lens[i] = ps[i]->object_len;
        errs = ocl_link_objects(p, objs, lens, (int)np, library, diag);
    }
    /* the parts' sources tell the kernels' attributes and qualifiers
     * (attrs.c); without them those queries answer "none" */
    if (!errs && (p->parts = malloc(np * sizeof *p->parts)))
        for (cl_uint i = 0; i < np; i++)
            clRetainProgram(p->parts[p->nparts++] = ps[i]);
    free(objs);
    free(lens);
    return errs;
}

cl_program CL_API_CALL clLinkProgram(cl_context ctx, cl_uint n,
                                     const cl_device_id *devs,
                                     const char *options, cl_uint np,
                                     const cl_program *ps,
                                     void (CL_CALLBACK *notify)(cl_program,
                                                                void *),
                                     void *data, cl_int *err)
{
    bool c = false, library = false;
    cl_int e = CL_SUCCESS;
    if (!ocl_is(ctx, OCL_CONTEXT))
        e = CL_INVALID_CONTEXT;
    else if (!np || !ps)
        e = CL_INVALID_VALUE;
    else if ((e = check_devs(n, devs, notify, data)) == CL_SUCCESS &&
             (e = check_inputs(ctx, np, ps, &c)) == CL_SUCCESS &&
             !link_options(options, &library))
        e = CL_INVALID_LINKER_OPTIONS;
    ocl_log l;
    cl_program p = e == CL_SUCCESS ? ocl_program_new(ctx, &e) : NULL;
    if (p && (!(p->options = strdup(options ? options : "")) ||
              ocl_log_begin(&l))) {
        clReleaseProgram(p);
        p = NULL, e = CL_OUT_OF_HOST_MEMORY;
    }
    if (p) {
        int errs = c ? link_c(p, np, ps, library, l.f)
                     : link_ir(p, np, ps, library, l.f);
        ocl_log_end(p, &l);
        p->built = !errs && !library;
        p->bintype = errs      ? CL_PROGRAM_BINARY_TYPE_NONE
                     : library ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                               : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
        p->status = errs ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
        e = errs ? CL_LINK_PROGRAM_FAILURE : CL_SUCCESS;
        if (notify)
            notify(p, data);
    }
    if (err)
        *err = e;
    return p;
}
