/* Kernels: made from a built program, their arguments (checked against
 * the parameter's kind, space and type), queries, and NDRange launches
 * through vm_run. A trap is printed and fails the command's event. */
#include "tools/ocl/ocl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/profile.h"
#include "stdlib/types.h"
#include "tools/repl_host.h"
#include "vm/bcfile.h"
#include "vm/vm.h"

static const bc_reg *param_reg(cl_kernel k, cl_uint i)
{
    const bc_kernel *bk = &k->prog->mod.kernels[k->index];
    return &bk->regs[bk->params[i].reg];
}

/* The local memory a launch with these arguments uses: the kernel's
 * __local arrays and its local arguments. */
static cl_ulong local_use(cl_kernel k, const ocl_arg *args)
{
    cl_ulong n = k->local_bytes;
    for (cl_uint i = 0; i < k->nargs; i++)
        if (args[i].set && args[i].local)
            n += args[i].local;
    return n;
}

static cl_kernel make(cl_program p, uint32_t index, cl_int *e)
{
    cl_kernel k = calloc(1, sizeof *k);
    const bc_kernel *bk = &p->mod.kernels[index];
    if (!k || !(k->args = calloc(bk->nparams ? bk->nparams : 1,
                                 sizeof *k->args))) {
        free(k);
        *e = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    bc_facts f;
    char why[8];
    if (bc_verify_kernel(&p->mod, index, &f, why, sizeof why))
        f.local_bytes = f.private_bytes = 0;   /* verified when built */
    ocl_obj_init(&k->h, OCL_KERNEL);
    k->prog = p, k->index = index, k->nargs = bk->nparams;
    k->local_bytes = f.local_bytes, k->private_bytes = f.private_bytes;
    clRetainProgram(p);
    __atomic_add_fetch(&p->kernels, 1, __ATOMIC_RELAXED);
    *e = CL_SUCCESS;
    return k;
}

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name,
                                     cl_int *err)
{
    cl_int e = CL_INVALID_KERNEL_NAME;
    cl_kernel k = NULL;
    if (!ocl_is(p, OCL_PROGRAM))
        e = CL_INVALID_PROGRAM;
    else if (!p->built)
        e = CL_INVALID_PROGRAM_EXECUTABLE;
    else if (!name)
        e = CL_INVALID_VALUE;
    else
        for (uint32_t i = 0; i < p->mod.nkernels; i++)
            if (!strcmp(bc_str(&p->mod, p->mod.kernels[i].name), name)) {
                k = make(p, i, &e);
                break;
            }
    if (err)
        *err = e;
    return k;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint n,
                                            cl_kernel *ks, cl_uint *count)
{
    if (!ocl_is(p, OCL_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (!p->built)
        return CL_INVALID_PROGRAM_EXECUTABLE;
    if (ks && n < p->mod.nkernels)
        return CL_INVALID_VALUE;
    for (uint32_t i = 0; ks && i < p->mod.nkernels; i++) {
        cl_int e;
        if (!(ks[i] = make(p, i, &e))) {
            while (i--)
                clReleaseKernel(ks[i]);
            return e;
        }
    }
    if (count)
        *count = p->mod.nkernels;
    return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel k)
{
    return ocl_retain_obj(k, OCL_KERNEL, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel k)
{
    int last = ocl_release_obj(k, OCL_KERNEL);
    if (last <= 0)
        return last < 0 ? CL_INVALID_KERNEL : CL_SUCCESS;
    __atomic_sub_fetch(&k->prog->kernels, 1, __ATOMIC_RELAXED);
    for (cl_uint i = 0; i < k->nargs; i++)
        free(k->args[i].byval);
    clReleaseProgram(k->prog);
    free(k->args);
    free(k);
    return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint i, size_t size,
                                  const void *value)
{
    if (!ocl_is(k, OCL_KERNEL))
        return CL_INVALID_KERNEL;
    if (i >= k->nargs)
        return CL_INVALID_ARG_INDEX;
    const bc_reg *r = param_reg(k, i);
    const bc_byval *bv = &k->prog->mod.kernels[k->index].params[i].byval;
    ocl_arg a = {.set = true};
    if (bv->size) {   /* a struct or union by value: its bytes */
        if (size != bv->size)
            return CL_INVALID_ARG_SIZE;
        if (!value)
            return CL_INVALID_ARG_VALUE;
        if (!(a.byval = malloc(size)))
            return CL_OUT_OF_HOST_MEMORY;
        memcpy(a.byval, value, size);
    } else if (r->kind == BC_REG_PTR && r->space == BC_LOCAL) {
        if (value)
            return CL_INVALID_ARG_VALUE;
        if (!size)
            return CL_INVALID_ARG_SIZE;
        a.local = size;
    } else if (r->kind == BC_REG_PTR) {
        if (size != sizeof(cl_mem))
            return CL_INVALID_ARG_SIZE;
        cl_mem m = value ? *(const cl_mem *)value : NULL;
        if (m && (!ocl_is(m, OCL_MEM) || m->ctx != k->prog->ctx))
            return CL_INVALID_MEM_OBJECT;
        a.mem = m;
    } else {
        if (size != ty_sizeof(r->type) || size > sizeof a.value)
            return CL_INVALID_ARG_SIZE;
        if (!value)
            return CL_INVALID_ARG_VALUE;
        memcpy(a.value, value, size);
    }
    free(k->args[i].byval);
    k->args[i] = a;
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info what,
                                   size_t size, void *value, size_t *ret)
{
    if (!ocl_is(k, OCL_KERNEL))
        return CL_INVALID_KERNEL;
    const bc_module *m = &k->prog->mod;
    cl_uint u;
    switch (what) {
    case CL_KERNEL_FUNCTION_NAME:
        return ocl_info_str(size, value, ret,
                            bc_str(m, m->kernels[k->index].name));
    case CL_KERNEL_NUM_ARGS:
        return ocl_info(size, value, ret, &k->nargs, sizeof k->nargs);
    case CL_KERNEL_REFERENCE_COUNT:
        u = ocl_refcount(&k->h.ref);
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_KERNEL_CONTEXT:
        return ocl_info(size, value, ret, &k->prog->ctx, sizeof k->prog->ctx);
    case CL_KERNEL_PROGRAM:
        return ocl_info(size, value, ret, &k->prog, sizeof k->prog);
    case CL_KERNEL_ATTRIBUTES: {
        char *a = ocl_kernel_attrs(k->prog,
                                   bc_str(m, m->kernels[k->index].name));
        cl_int e = a ? ocl_info_str(size, value, ret, a)
                     : CL_OUT_OF_HOST_MEMORY;
        free(a);
        return e;
    }
    default:
        return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d,
                                            cl_kernel_work_group_info what,
                                            size_t size, void *value,
                                            size_t *ret)
{
    if (!ocl_is(k, OCL_KERNEL))
        return CL_INVALID_KERNEL;
    if (d && !ocl_is(d, OCL_DEVICE))
        return CL_INVALID_DEVICE;
    size_t s3[3] = {0, 0, 0}, z;
    cl_ulong l = 0;
    switch (what) {
    case CL_KERNEL_WORK_GROUP_SIZE:
        z = VM_MAX_GROUP;
        return ocl_info(size, value, ret, &z, sizeof z);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        for (int i = 0; i < 3; i++)
            s3[i] = k->prog->mod.kernels[k->index].reqd[i];
        return ocl_info(size, value, ret, s3, sizeof s3);
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        z = 1;
        return ocl_info(size, value, ret, &z, sizeof z);
    case CL_KERNEL_LOCAL_MEM_SIZE:
        l = local_use(k, k->args);
        return ocl_info(size, value, ret, &l, sizeof l);
    case CL_KERNEL_PRIVATE_MEM_SIZE:
        return ocl_info(size, value, ret, &k->private_bytes,
                        sizeof k->private_bytes);
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        return CL_INVALID_VALUE;   /* built-in kernels only */
    default:
        return CL_INVALID_VALUE;
    }
}

/* ---- launching ---- */

typedef struct {
    cl_kernel k;
    cl_uint nargs;
    ocl_arg *args;        /* a snapshot: later clSetKernelArg don't count */
    vm_ndrange nd;
} launch;

static void launch_free(ocl_cmd *c)
{
    launch *l = c->arg;
    for (cl_uint i = 0; i < l->nargs; i++) {
        if (l->args[i].mem)
            clReleaseMemObject(l->args[i].mem);
        free(l->args[i].byval);
    }
    clReleaseKernel(l->k);
    free(l->args);
    free(l);
}

/* clvm exec --break KERNEL (CLVM_BREAK=KERNEL): the first launch of that
 * kernel opens the REPL on it before it runs. */
static bool break_here(cl_kernel k)
{
    static bool done;
    const char *want = getenv("CLVM_BREAK");
    const bc_module *m = &k->prog->mod;
    return want && !strcmp(want, bc_str(m, m->kernels[k->index].name)) &&
           !__atomic_exchange_n(&done, true, __ATOMIC_RELAXED);
}

static cl_int launch_run(ocl_cmd *c)
{
    launch *l = c->arg;
    vm_arg *va = calloc(l->nargs ? l->nargs : 1, sizeof *va);
    vm_trap trap;
    if (!va)
        return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < l->nargs; i++) {
        const ocl_arg *a = &l->args[i];
        const bc_reg *r = param_reg(l->k, i);
        const bc_param *p = &l->k->prog->mod.kernels[l->k->index].params[i];
        if (p->byval.size)
            va[i] = (vm_arg){a->byval, p->byval.size};
        else if (r->kind == BC_REG_PTR && r->space == BC_LOCAL)
            va[i] = (vm_arg){NULL, a->local};
        else if (r->kind == BC_REG_PTR)   /* a NULL buffer: no bytes */
            va[i] = a->mem ? (vm_arg){a->mem->data, a->mem->size}
                           : (vm_arg){NULL, 0};
        else
            va[i] = (vm_arg){(uint8_t *)a->value, ty_sizeof(r->type)};
    }
    if (break_here(l->k))
        repl_host(&l->k->prog->mod, l->k->index, l->k->prog->source, va,
                  &l->nd);
    int r = vm_run(&l->k->prog->mod, l->k->index, va, &l->nd, &trap);
    free(va);
    if (!r)
        return CL_SUCCESS;
    fprintf(stderr, "clvm: %s\n", trap.msg);
    return CL_OUT_OF_RESOURCES;
}

/* The instructions a warp may run before the launch traps: CLVM_MAX_STEPS,
 * else 100 times `clvm run`'s default (host programs run whole workloads:
 * pyopencl's scans on a CPU device run in one work-item). False, with a
 * message, for a value that is no positive number. */
static bool max_steps(uint64_t *n)
{
    const char *e = getenv("CLVM_MAX_STEPS");
    char *end;
    *n = 100 * (uint64_t)VM_DEFAULT_MAX_STEPS;
    if (!e || !*e)
        return true;
    errno = 0;
    *n = strtoull(e, &end, 10);
    if (!errno && !*end && *n && *e != '-')
        return true;
    fprintf(stderr, "clvm: CLVM_MAX_STEPS=%s: not a positive number of "
                    "instructions\n", e);
    return false;
}

/* The NDRange k is launched over; a kernel with reqd_work_group_size
 * runs with that local size alone (the local size NULL takes it). */
static cl_int check_range(cl_kernel k, cl_uint dims, const size_t *gsize,
                          const size_t *lsize)
{
    size_t items = 1;
    const uint32_t *reqd = k->prog->mod.kernels[k->index].reqd;
    if (dims < 1 || dims > 3)
        return CL_INVALID_WORK_DIMENSION;
    if (!gsize)
        return CL_INVALID_VALUE;
    for (cl_uint d = 0; d < 3 && (reqd[0] | reqd[1] | reqd[2]); d++)
        if (d < dims ? (lsize ? lsize[d] : reqd[d]) != reqd[d] ||
                           gsize[d] % reqd[d]
                     : reqd[d] != 1)
            return CL_INVALID_WORK_GROUP_SIZE;
    for (cl_uint d = 0; d < dims; d++) {
        if (!gsize[d])
            return CL_INVALID_GLOBAL_WORK_SIZE;
        if (!lsize)
            continue;
        if (!lsize[d] || lsize[d] > VM_MAX_GROUP)
            return CL_INVALID_WORK_ITEM_SIZE;
        if (gsize[d] % lsize[d])
            return CL_INVALID_WORK_GROUP_SIZE;
        items *= lsize[d];
        if (items > VM_MAX_GROUP)
            return CL_INVALID_WORK_GROUP_SIZE;
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k,
                                          cl_uint dims, const size_t *offset,
                                          const size_t *gsize,
                                          const size_t *lsize, cl_uint nwait,
                                          const cl_event *wait, cl_event *ev)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_is(k, OCL_KERNEL))
        return CL_INVALID_KERNEL;
    if (k->prog->ctx != q->ctx)
        return CL_INVALID_CONTEXT;
    for (cl_uint i = 0; i < k->nargs; i++)
        if (!k->args[i].set)
            return CL_INVALID_KERNEL_ARGS;
    cl_int e = check_range(k, dims, gsize, lsize);
    if (e == CL_SUCCESS && local_use(k, k->args) > OCL_LOCAL_MEM)
        e = CL_OUT_OF_RESOURCES;
    if (e == CL_SUCCESS)
        e = ocl_check_waitlist(q->ctx, nwait, wait);
    if (e != CL_SUCCESS)
        return e;
    const char *prof = getenv("CLVM_PROFILE");
    int p = prof && *prof ? prof_parse(prof) : 0;
    if (p < 0) {
        fprintf(stderr, "clvm: CLVM_PROFILE=%s: no such profile (clvm, "
                        "strict, nvidia, pocl)\n", prof);
        return CL_INVALID_OPERATION;
    }
    uint64_t steps;
    if (!max_steps(&steps))
        return CL_INVALID_OPERATION;
    launch *l = calloc(1, sizeof *l);
    if (!l || !(l->args = malloc((k->nargs ? k->nargs : 1) * sizeof *l->args))) {
        free(l);
        return CL_OUT_OF_HOST_MEMORY;
    }
    l->k = k, l->nargs = k->nargs;
    memcpy(l->args, k->args, k->nargs * sizeof *k->args);
    for (cl_uint i = 0; i < l->nargs; i++) {
        const bc_byval *bv = &k->prog->mod.kernels[k->index].params[i].byval;
        l->args[i].byval = bv->size ? malloc(bv->size) : NULL;
        if (bv->size && !l->args[i].byval) {
            while (i--)
                free(l->args[i].byval);
            free(l->args), free(l);
            return CL_OUT_OF_HOST_MEMORY;
        }
        if (bv->size)
            memcpy(l->args[i].byval, k->args[i].byval, bv->size);
    }
    clRetainKernel(k);
    for (cl_uint i = 0; i < l->nargs; i++)
        if (l->args[i].mem)
            clRetainMemObject(l->args[i].mem);
    l->nd.dims = dims;
    for (cl_uint d = 0; d < dims; d++) {
        l->nd.global[d] = gsize[d];
        l->nd.local[d] = lsize ? lsize[d] : 0;
        l->nd.offset[d] = offset ? offset[d] : 0;
    }
    l->nd.profile = (uint8_t)p;
    l->nd.max_steps = steps;
    return ocl_enqueue(q, CL_COMMAND_NDRANGE_KERNEL, launch_run, launch_free,
                       l, nwait, wait, ev, false);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k,
                                 cl_uint nwait, const cl_event *wait,
                                 cl_event *ev)
{
    size_t one = 1;
    return clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, nwait, wait, ev);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint i,
                                      cl_kernel_arg_info what, size_t size,
                                      void *value, size_t *ret)
{
    if (!ocl_is(k, OCL_KERNEL))
        return CL_INVALID_KERNEL;
    if (i >= k->nargs)
        return CL_INVALID_ARG_INDEX;
    const bc_module *m = &k->prog->mod;
    const bc_kernel *bk = &m->kernels[k->index];
    const bc_reg *r = param_reg(k, i);
    static const cl_kernel_arg_address_qualifier aq[] = {
        [BC_GLOBAL] = CL_KERNEL_ARG_ADDRESS_GLOBAL,
        [BC_CONSTANT] = CL_KERNEL_ARG_ADDRESS_CONSTANT,
        [BC_LOCAL] = CL_KERNEL_ARG_ADDRESS_LOCAL,
        [BC_PRIVATE] = CL_KERNEL_ARG_ADDRESS_PRIVATE};
    const bc_byval *bv = &bk->params[i].byval;
    cl_kernel_arg_address_qualifier a =
        r->kind == BC_REG_PTR && !bv->size ? aq[r->space]
                                           : CL_KERNEL_ARG_ADDRESS_PRIVATE;
    cl_kernel_arg_access_qualifier acc = CL_KERNEL_ARG_ACCESS_NONE;
    cl_kernel_arg_type_qualifier tq =
        r->kind == BC_REG_PTR && !bv->size &&
        ((r->flags & BC_REGF_CONSTPTR) || r->space == BC_CONSTANT)
            ? CL_KERNEL_ARG_TYPE_CONST : CL_KERNEL_ARG_TYPE_NONE;
    char tn[TY_NAME_MAX + 2];
    /* volatile, restrict and void * are the source's alone */
    cl_kernel_arg_type_qualifier *stq = calloc(k->nargs, sizeof *stq);
    bool *svoid = calloc(k->nargs, sizeof *svoid), isvoid = false;
    if (stq && svoid &&
        ocl_kernel_params(k->prog, bc_str(m, bk->name), k->nargs,
                          stq, svoid))
        tq |= stq[i], isvoid = svoid[i];
    free(stq), free(svoid);
    switch (what) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        return ocl_info(size, value, ret, &a, sizeof a);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        return ocl_info(size, value, ret, &acc, sizeof acc);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        return ocl_info(size, value, ret, &tq, sizeof tq);
    case CL_KERNEL_ARG_TYPE_NAME:
        if (bv->size)
            return ocl_info_str(size, value, ret, bc_str(m, bv->type));
        ty_name(r->type, tn);
        if (isvoid)
            strcpy(tn, "void");
        if (r->kind == BC_REG_PTR)
            strcat(tn, "*");
        return ocl_info_str(size, value, ret, tn);
    case CL_KERNEL_ARG_NAME:
        return ocl_info_str(size, value, ret, bc_str(m, bk->params[i].name));
    default:
        return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue q,
                                         void (CL_CALLBACK *fn)(void *),
                                         void *args, size_t cb,
                                         cl_uint nmem, const cl_mem *mems,
                                         const void **locs, cl_uint n,
                                         const cl_event *wait, cl_event *ev)
{
    /* CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL */
    return ocl_is(q, OCL_QUEUE) ? CL_INVALID_OPERATION
                                : CL_INVALID_COMMAND_QUEUE;
}
