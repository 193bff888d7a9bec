/* Contexts: the one device, its properties and the error callback. */
#include "tools/ocl/ocl.h"

#include <stdlib.h>
#include <string.h>

/* The property list: CL_CONTEXT_PLATFORM (ours) and
 * CL_CONTEXT_INTEROP_USER_SYNC (CL_TRUE or CL_FALSE), each at most once. */
static cl_int read_props(cl_context c, const cl_context_properties *p)
{
    size_t n = 0;
    bool seen_platform = false, seen_sync = false;
    for (; p && p[n]; n += 2) {
        if (n + 3 > sizeof c->props / sizeof c->props[0])
            return CL_INVALID_PROPERTY;
        if (p[n] == CL_CONTEXT_PLATFORM && !seen_platform) {
            if ((cl_platform_id)p[n + 1] != &ocl_platform)
                return CL_INVALID_PLATFORM;
            seen_platform = true;
        } else if (p[n] == CL_CONTEXT_INTEROP_USER_SYNC && !seen_sync) {
            if (p[n + 1] != CL_TRUE && p[n + 1] != CL_FALSE)
                return CL_INVALID_PROPERTY;
            seen_sync = true;
        } else {
            return CL_INVALID_PROPERTY;
        }
        c->props[n] = p[n], c->props[n + 1] = p[n + 1];
    }
    c->nprops = p ? n + 1 : 0;
    return CL_SUCCESS;
}

static cl_context make(const cl_context_properties *props,
                       void (CL_CALLBACK *notify)(const char *, const void *,
                                                  size_t, void *),
                       void *data, cl_int *err)
{
    cl_int e = CL_SUCCESS;
    cl_context c = NULL;
    if (!notify && data)
        e = CL_INVALID_VALUE;
    else if (!(c = calloc(1, sizeof *c)))
        e = CL_OUT_OF_HOST_MEMORY;
    else if ((e = read_props(c, props)) != CL_SUCCESS)
        free(c), c = NULL;
    if (c) {
        ocl_obj_init(&c->h, OCL_CONTEXT);
        c->notify = notify, c->notify_data = data;
    }
    if (err)
        *err = e;
    return c;
}

cl_context CL_API_CALL
clCreateContext(const cl_context_properties *props, cl_uint n,
                const cl_device_id *devs,
                void (CL_CALLBACK *notify)(const char *, const void *, size_t,
                                           void *),
                void *data, cl_int *err)
{
    if (!devs || !n) {
        if (err)
            *err = CL_INVALID_VALUE;
        return NULL;
    }
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_is(devs[i], OCL_DEVICE)) {
            if (err)
                *err = CL_INVALID_DEVICE;
            return NULL;
        }
    return make(props, notify, data, err);
}

cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *props,
                        cl_device_type type,
                        void (CL_CALLBACK *notify)(const char *, const void *,
                                                   size_t, void *),
                        void *data, cl_int *err)
{
    cl_device_id d;
    cl_int e = clGetDeviceIDs(NULL, type, 1, &d, NULL);
    if (e != CL_SUCCESS) {
        if (err)
            *err = e;
        return NULL;
    }
    return make(props, notify, data, err);
}

cl_int CL_API_CALL clRetainContext(cl_context c)
{
    return ocl_retain_obj(c, OCL_CONTEXT, CL_INVALID_CONTEXT);
}

cl_int CL_API_CALL clReleaseContext(cl_context c)
{
    int last = ocl_release_obj(c, OCL_CONTEXT);
    if (last > 0)
        free(c);
    return last < 0 ? CL_INVALID_CONTEXT : CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info what,
                                    size_t size, void *value, size_t *ret)
{
    cl_device_id d = &ocl_device;
    cl_uint u;
    if (!ocl_is(c, OCL_CONTEXT))
        return CL_INVALID_CONTEXT;
    switch (what) {
    case CL_CONTEXT_REFERENCE_COUNT:
        u = ocl_refcount(&c->h.ref);
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_CONTEXT_NUM_DEVICES:
        u = 1;
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_CONTEXT_DEVICES:
        return ocl_info(size, value, ret, &d, sizeof d);
    case CL_CONTEXT_PROPERTIES:
        return ocl_info(size, value, ret, c->props,
                        c->nprops * sizeof c->props[0]);
    default:
        return CL_INVALID_VALUE;
    }
}
