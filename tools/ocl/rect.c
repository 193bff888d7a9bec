/* Rectangular buffer commands (clEnqueue{Read,Write,Copy}BufferRect): a
 * box of region[0] bytes x region[1] rows x region[2] slices, each side
 * with its own origin and pitches. */
#include "tools/ocl/ocl.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t row, slice;   /* pitches in bytes */
} pitch;

typedef struct {
    uint8_t *dst;
    const uint8_t *src;
    pitch dp, sp;
    size_t region[3];
} rect_args;

static cl_int run_rect(ocl_cmd *c)
{
    const rect_args *a = c->arg;
    for (size_t z = 0; z < a->region[2]; z++)
        for (size_t y = 0; y < a->region[1]; y++)
            memmove(a->dst + z * a->dp.slice + y * a->dp.row,
                    a->src + z * a->sp.slice + y * a->sp.row, a->region[0]);
    return CL_SUCCESS;
}

static void fini_rect(ocl_cmd *c) { free(c->arg); }

/* The pitches as given (0: tight), checked against the region; the byte
 * offset of origin; and the extent (offset of the box's last byte + 1). */
static bool layout(const size_t *origin, const size_t *region, size_t row,
                   size_t slice, pitch *p, size_t *off, size_t *end)
{
    p->row = row ? row : region[0];
    p->slice = slice ? slice : region[1] * p->row;
    if (p->row < region[0] || p->slice < region[1] * p->row ||
        (slice && p->slice % p->row))
        return false;
    *off = origin[2] * p->slice + origin[1] * p->row + origin[0];
    *end = *off + (region[2] - 1) * p->slice + (region[1] - 1) * p->row +
           region[0];
    return true;
}

static cl_int check_mem(cl_command_queue q, cl_mem m)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_is(m, OCL_MEM))
        return CL_INVALID_MEM_OBJECT;
    return m->ctx == q->ctx ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

static cl_int enqueue_rect(cl_command_queue q, cl_command_type type,
                           rect_args *a, cl_uint n, const cl_event *wait,
                           cl_event *ev, bool blocking)
{
    rect_args *h = malloc(sizeof *h);
    if (!h)
        return CL_OUT_OF_HOST_MEMORY;
    *h = *a;
    return ocl_enqueue(q, type, run_rect, fini_rect, h, n, wait, ev,
                       blocking);
}

/* Read (to_host) or write one box between m and the host's ptr. */
static cl_int host_rect(cl_command_queue q, cl_mem m, bool to_host,
                        cl_bool blocking, const size_t *bo, const size_t *ho,
                        const size_t *region, size_t brp, size_t bsp,
                        size_t hrp, size_t hsp, uint8_t *ptr, cl_uint n,
                        const cl_event *wait, cl_event *ev)
{
    cl_int e = check_mem(q, m);
    if (e != CL_SUCCESS)
        return e;
    if (!bo || !ho || !region || !ptr || !region[0] || !region[1] ||
        !region[2])
        return CL_INVALID_VALUE;
    rect_args a = {.region = {region[0], region[1], region[2]}};
    pitch bp, hp;
    size_t boff, bend, hoff, hend;
    if (!layout(bo, region, brp, bsp, &bp, &boff, &bend) ||
        !layout(ho, region, hrp, hsp, &hp, &hoff, &hend) || bend > m->size)
        return CL_INVALID_VALUE;
    cl_mem_flags no = to_host ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                              : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    if (m->flags & no)
        return CL_INVALID_OPERATION;
    if ((e = ocl_check_waitlist(q->ctx, n, wait)) != CL_SUCCESS)
        return e;
    if (to_host)
        a.dst = ptr + hoff, a.dp = hp, a.src = m->data + boff, a.sp = bp;
    else
        a.dst = m->data + boff, a.dp = bp, a.src = ptr + hoff, a.sp = hp;
    return enqueue_rect(q, to_host ? CL_COMMAND_READ_BUFFER_RECT
                                   : CL_COMMAND_WRITE_BUFFER_RECT,
                        &a, n, wait, ev, blocking);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *bo,
    const size_t *ho, const size_t *region, size_t brp, size_t bsp,
    size_t hrp, size_t hsp, void *ptr, cl_uint n, const cl_event *wait,
    cl_event *ev)
{
    return host_rect(q, m, true, blocking, bo, ho, region, brp, bsp, hrp, hsp,
                     ptr, n, wait, ev);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *bo,
    const size_t *ho, const size_t *region, size_t brp, size_t bsp,
    size_t hrp, size_t hsp, const void *ptr, cl_uint n, const cl_event *wait,
    cl_event *ev)
{
    /* the command only reads ptr: the cast drops a const it keeps */
    return host_rect(q, m, false, blocking, bo, ho, region, brp, bsp, hrp,
                     hsp, (uint8_t *)(uintptr_t)ptr, n, wait, ev);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue q, cl_mem s, cl_mem d, const size_t *so,
    const size_t *dor, const size_t *region, size_t srp, size_t ssp,
    size_t drp, size_t dsp, cl_uint n, const cl_event *wait, cl_event *ev)
{
    cl_int e = check_mem(q, s);
    if (e == CL_SUCCESS)
        e = check_mem(q, d);
    if (e != CL_SUCCESS)
        return e;
    if (!so || !dor || !region || !region[0] || !region[1] || !region[2])
        return CL_INVALID_VALUE;
    rect_args a = {.region = {region[0], region[1], region[2]}};
    size_t soff, send, doff, dend;
    if (!layout(so, region, srp, ssp, &a.sp, &soff, &send) ||
        !layout(dor, region, drp, dsp, &a.dp, &doff, &dend) ||
        send > s->size || dend > d->size)
        return CL_INVALID_VALUE;
    const uint8_t *sb = s->data + soff, *db = d->data + doff;
    /* the spans the two boxes cover: overlapping spans of one buffer are
     * refused, as the spec asks of an overlapping copy */
    if (s->data - s->origin == d->data - d->origin &&
        sb < d->data + dend && db < s->data + send)
        return CL_MEM_COPY_OVERLAP;
    if ((e = ocl_check_waitlist(q->ctx, n, wait)) != CL_SUCCESS)
        return e;
    a.src = sb, a.dst = d->data + doff;
    return enqueue_rect(q, CL_COMMAND_COPY_BUFFER_RECT, &a, n, wait, ev,
                        false);
}
