/* What every part of the OpenCL platform shares: reference counts, the
 * clGet*Info copy rule and wait-list checks. */
#include "tools/ocl/ocl.h"

#include <string.h>

const struct _cl_icd_dispatch *ocl_table;

void ocl_ref_init(ocl_ref *r) { __atomic_store_n(&r->n, 1, __ATOMIC_RELAXED); }

void ocl_retain(ocl_ref *r) { __atomic_add_fetch(&r->n, 1, __ATOMIC_RELAXED); }

bool ocl_release(ocl_ref *r)
{
    return __atomic_sub_fetch(&r->n, 1, __ATOMIC_ACQ_REL) == 0;
}

cl_uint ocl_refcount(const ocl_ref *r)
{
    return (cl_uint)__atomic_load_n(&r->n, __ATOMIC_RELAXED);
}

cl_int ocl_info(size_t size, void *value, size_t *ret, const void *src,
                size_t n)
{
    if (value) {
        if (size < n)
            return CL_INVALID_VALUE;
        memcpy(value, src, n);
    }
    if (ret)
        *ret = n;
    return CL_SUCCESS;
}

cl_int ocl_info_str(size_t size, void *value, size_t *ret, const char *s)
{
    return ocl_info(size, value, ret, s, strlen(s) + 1);
}

void ocl_obj_init(ocl_obj *h, enum ocl_kind k)
{
    h->dispatch = ocl_table;
    h->kind = k;
    ocl_ref_init(&h->ref);
}

bool ocl_is(const void *p, enum ocl_kind k)
{
    const ocl_obj *h = p;
    return h && h->dispatch == ocl_table && h->kind == k &&
           ocl_refcount(&h->ref) > 0;
}

cl_int ocl_retain_obj(void *p, enum ocl_kind k, cl_int bad)
{
    if (!ocl_is(p, k))
        return bad;
    ocl_retain(&((ocl_obj *)p)->ref);
    return CL_SUCCESS;
}

int ocl_release_obj(void *p, enum ocl_kind k)
{
    if (!ocl_is(p, k))
        return -1;
    return ocl_release(&((ocl_obj *)p)->ref);
}
