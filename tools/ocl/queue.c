/* Command queues: creation, queries, flush and finish, markers and
 * barriers. Commands of a queue run in the order enqueued (an out-of-order
 * queue is accepted and runs in order too, which the spec allows). */
#include "tools/ocl/ocl.h"

#include <stdlib.h>

cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context ctx, cl_device_id d,
                     cl_command_queue_properties props, cl_int *err)
{
    const cl_command_queue_properties known =
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
    cl_int e = CL_SUCCESS;
    cl_command_queue q = NULL;
    if (!ocl_is(ctx, OCL_CONTEXT))
        e = CL_INVALID_CONTEXT;
    else if (!ocl_is(d, OCL_DEVICE))
        e = CL_INVALID_DEVICE;
    else if (props & ~known)
        e = CL_INVALID_VALUE;
    else if (!(q = calloc(1, sizeof *q)))
        e = CL_OUT_OF_HOST_MEMORY;
    if (q) {
        ocl_obj_init(&q->h, OCL_QUEUE);
        q->ctx = ctx, q->props = props;
        clRetainContext(ctx);
        ocl_lock();
        ocl_queue_add(q);
        ocl_unlock();
    }
    if (err)
        *err = e;
    return q;
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q)
{
    return ocl_retain_obj(q, OCL_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

static bool empty(void *arg)
{
    return !((cl_command_queue)arg)->head;
}

cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    ocl_lock();
    ocl_wait_until(empty, q);
    ocl_unlock();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clFlush(cl_command_queue q)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    ocl_lock();
    ocl_progress();
    ocl_unlock();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    ocl_lock();
    if (ocl_refcount(&q->h.ref) == 1)   /* the last: its commands finish */
        ocl_wait_until(empty, q);
    ocl_queue_unref(q);
    ocl_unlock();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q,
                                         cl_command_queue_info what,
                                         size_t size, void *value,
                                         size_t *ret)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    cl_device_id d = &ocl_device;
    cl_uint u;
    switch (what) {
    case CL_QUEUE_CONTEXT:
        return ocl_info(size, value, ret, &q->ctx, sizeof q->ctx);
    case CL_QUEUE_DEVICE:
        return ocl_info(size, value, ret, &d, sizeof d);
    case CL_QUEUE_REFERENCE_COUNT:
        u = ocl_refcount(&q->h.ref);
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_QUEUE_PROPERTIES:
        return ocl_info(size, value, ret, &q->props, sizeof q->props);
    default:
        return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue q,
                                             cl_command_queue_properties p,
                                             cl_bool enable,
                                             cl_command_queue_properties *old)
{
    /* OpenCL 1.0 only; 1.1 removed it */
    return ocl_is(q, OCL_QUEUE) ? CL_INVALID_OPERATION
                                : CL_INVALID_COMMAND_QUEUE;
}

/* A marker or barrier: nothing to run; an in-order queue already makes it
 * wait for every command before it. */
static cl_int sync_point(cl_command_queue q, cl_command_type type,
                         cl_uint n, const cl_event *wait, cl_event *ev)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    cl_int e = ocl_check_waitlist(q->ctx, n, wait);
    if (e != CL_SUCCESS)
        return e;
    return ocl_enqueue(q, type, NULL, NULL, NULL, n, wait, ev, false);
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n,
                                               const cl_event *wait,
                                               cl_event *ev)
{
    return sync_point(q, CL_COMMAND_MARKER, n, wait, ev);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n,
                                                const cl_event *wait,
                                                cl_event *ev)
{
    return sync_point(q, CL_COMMAND_BARRIER, n, wait, ev);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *ev)
{
    if (!ev)
        return CL_INVALID_VALUE;
    return sync_point(q, CL_COMMAND_MARKER, 0, NULL, ev);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q)
{
    return sync_point(q, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n,
                                          const cl_event *list)
{
    if (!n || !list)
        return ocl_is(q, OCL_QUEUE) ? CL_INVALID_VALUE
                                    : CL_INVALID_COMMAND_QUEUE;
    return sync_point(q, CL_COMMAND_BARRIER, n, list, NULL);
}
