/* Buffers and sub-buffers, and the commands that read, write, copy, fill
 * and map them. A buffer's bytes are host memory (USE_HOST_PTR: the
 * host's own), which kernels get as they are. */
#include "tools/ocl/ocl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const cl_mem_flags access_flags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags host_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
static const cl_mem_flags hostacc_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

/* A buffer's own bytes, zeroed and aligned to the device's
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN, as a host program that maps it may count
 * on (calloc gave 16 bytes). From this size on they come from mmap: pages
 * aligned, zero and faulted in as touched, as calloc's big blocks were. */
enum { BUF_MMAP = 1 << 20 };
static uint8_t *buf_alloc(size_t n)
{
    if (n >= BUF_MMAP) {
        void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    size_t r = (n + OCL_BASE_ALIGN - 1) & ~(size_t)(OCL_BASE_ALIGN - 1);
    uint8_t *p = aligned_alloc(OCL_BASE_ALIGN, r);
    if (p)
        memset(p, 0, r);
    return p;
}

static void buf_free(uint8_t *p, size_t n)
{
    if (n >= BUF_MMAP)
        munmap(p, n);
    else
        free(p);
}

static bool one_of(cl_mem_flags f, cl_mem_flags group)
{
    cl_mem_flags g = f & group;
    return !(g & (g - 1));   /* at most one bit */
}

static bool flags_ok(cl_mem_flags f)
{
    const cl_mem_flags all = access_flags | host_flags | hostacc_flags;
    return !(f & ~all) && one_of(f, access_flags) && one_of(f, hostacc_flags) &&
           !((f & CL_MEM_USE_HOST_PTR) &&
             (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags,
                                  size_t size, void *host, cl_int *err)
{
    cl_int e = CL_SUCCESS;
    cl_mem m = NULL;
    cl_ulong max = 0;
    clGetDeviceInfo(&ocl_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max,
                    &max, NULL);
    if (!flags)
        flags = CL_MEM_READ_WRITE;
    if (!ocl_is(ctx, OCL_CONTEXT))
        e = CL_INVALID_CONTEXT;
    else if (!flags_ok(flags))
        e = CL_INVALID_VALUE;
    else if (!size || size > max)
        e = CL_INVALID_BUFFER_SIZE;
    else if (!host != !(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        e = CL_INVALID_HOST_PTR;
    else if (!(m = calloc(1, sizeof *m)))
        e = CL_OUT_OF_HOST_MEMORY;
    if (m && (flags & CL_MEM_USE_HOST_PTR)) {
        m->data = host;
    } else if (m) {
        m->owned = true;
        if (!(m->data = buf_alloc(size)))
            free(m), m = NULL, e = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        else if (flags & CL_MEM_COPY_HOST_PTR)
            memcpy(m->data, host, size);
    }
    if (m) {
        ocl_obj_init(&m->h, OCL_MEM);
        m->ctx = ctx, m->flags = flags, m->size = size, m->host_ptr = host;
        clRetainContext(ctx);
    }
    if (err)
        *err = e;
    return m;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem b, cl_mem_flags flags,
                                     cl_buffer_create_type type,
                                     const void *info, cl_int *err)
{
    cl_int e = CL_SUCCESS;
    cl_mem m = NULL;
    const cl_buffer_region *r = info;
    if (!ocl_is(b, OCL_MEM) || b->parent)
        e = CL_INVALID_MEM_OBJECT;
    else if (type != CL_BUFFER_CREATE_TYPE_REGION || !r ||
             (flags & host_flags) || !flags_ok(flags))
        e = CL_INVALID_VALUE;
    else if (!r->size || r->origin > b->size || r->size > b->size - r->origin)
        e = r->size ? CL_INVALID_VALUE : CL_INVALID_BUFFER_SIZE;
    else if (r->origin % OCL_BASE_ALIGN)
        e = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    else if (((b->flags & CL_MEM_WRITE_ONLY) && (flags & CL_MEM_READ_ONLY)) ||
             ((b->flags & CL_MEM_READ_ONLY) && (flags & CL_MEM_WRITE_ONLY)) ||
             ((b->flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) &&
              (flags & CL_MEM_READ_WRITE)))
        e = CL_INVALID_VALUE;
    else if (!(m = calloc(1, sizeof *m)))
        e = CL_OUT_OF_HOST_MEMORY;
    if (m) {
        ocl_obj_init(&m->h, OCL_MEM);
        /* unspecified access and host flags come from the parent */
        if (!(flags & access_flags))
            flags |= b->flags & access_flags;
        if (!(flags & hostacc_flags))
            flags |= b->flags & hostacc_flags;
        m->ctx = b->ctx, m->flags = flags | (b->flags & host_flags);
        m->size = r->size, m->data = b->data + r->origin;
        m->parent = b, m->origin = r->origin;
        m->host_ptr = b->flags & CL_MEM_USE_HOST_PTR
                          ? (uint8_t *)b->host_ptr + r->origin : NULL;
        clRetainMemObject(b);
        clRetainContext(b->ctx);
    }
    if (err)
        *err = e;
    return m;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem m)
{
    return ocl_retain_obj(m, OCL_MEM, CL_INVALID_MEM_OBJECT);
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem m)
{
    int last = ocl_release_obj(m, OCL_MEM);
    if (last <= 0)
        return last < 0 ? CL_INVALID_MEM_OBJECT : CL_SUCCESS;
    /* destructor callbacks in reverse order of registration: the list
     * is kept newest first */
    for (ocl_destructor *d = m->dtors, *n; d; d = n) {
        n = d->next;
        d->fn(m, d->data);
        free(d);
    }
    if (m->owned)
        buf_free(m->data, m->size);
    if (m->parent)
        clReleaseMemObject(m->parent);
    clReleaseContext(m->ctx);
    free(m);
    return CL_SUCCESS;
}

cl_int CL_API_CALL
clSetMemObjectDestructorCallback(cl_mem m,
                                 void (CL_CALLBACK *fn)(cl_mem, void *),
                                 void *data)
{
    if (!ocl_is(m, OCL_MEM))
        return CL_INVALID_MEM_OBJECT;
    if (!fn)
        return CL_INVALID_VALUE;
    ocl_destructor *d = malloc(sizeof *d);
    if (!d)
        return CL_OUT_OF_HOST_MEMORY;
    d->fn = fn, d->data = data, d->next = m->dtors, m->dtors = d;
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info what, size_t size,
                                      void *value, size_t *ret)
{
    if (!ocl_is(m, OCL_MEM))
        return CL_INVALID_MEM_OBJECT;
    cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
    cl_uint u;
    switch (what) {
    case CL_MEM_TYPE: return ocl_info(size, value, ret, &type, sizeof type);
    case CL_MEM_FLAGS: return ocl_info(size, value, ret, &m->flags, sizeof m->flags);
    case CL_MEM_SIZE: return ocl_info(size, value, ret, &m->size, sizeof m->size);
    case CL_MEM_HOST_PTR: {   /* the host's array: CL_MEM_USE_HOST_PTR alone */
        void *h = m->flags & CL_MEM_USE_HOST_PTR ? m->host_ptr : NULL;
        return ocl_info(size, value, ret, &h, sizeof h);
    }
    case CL_MEM_MAP_COUNT:
        u = m->maps;
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_MEM_REFERENCE_COUNT:
        u = ocl_refcount(&m->h.ref);
        return ocl_info(size, value, ret, &u, sizeof u);
    case CL_MEM_CONTEXT: return ocl_info(size, value, ret, &m->ctx, sizeof m->ctx);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        return ocl_info(size, value, ret, &m->parent, sizeof m->parent);
    case CL_MEM_OFFSET:
        return ocl_info(size, value, ret, &m->origin, sizeof m->origin);
    default: return CL_INVALID_VALUE;
    }
}

/* ---- commands ---- */

typedef struct {
    uint8_t *dst;
    const uint8_t *src;
    size_t n;
    const void *pattern;   /* fill: the pattern, psize bytes, repeated */
    size_t psize;
    uint8_t pbuf[128];
} copy_args;

/* n bytes at dst (a multiple of psize) as copies of the pattern p: one
 * memset where its bytes are all alike, else the pattern doubled up to a
 * block of 4 KiB at the start, which is then copied on (from the cache);
 * a memcpy per copy of a 4-byte pattern was 70% of the CTS
 * thread_dimensions suite, which fills 512 MB before each launch. */
static void fill(uint8_t *dst, size_t n, const uint8_t *p, size_t psize)
{
    size_t same = 1, done = psize < n ? psize : n;
    while (same < psize && p[same] == p[0])
        same++;
    if (same == psize) {
        memset(dst, p[0], n);
        return;
    }
    memcpy(dst, p, done);
    for (; done < n && done < 4096; done *= 2)
        memcpy(dst + done, dst, done < n - done ? done : n - done);
    for (size_t k; done < n; done += k) {
        k = done < n - done ? done : n - done;
        k = k < 4096 ? k : 4096 - 4096 % psize;
        memcpy(dst + done, dst, k);
    }
}

static cl_int run_copy(ocl_cmd *c)
{
    copy_args *a = c->arg;
    if (a->pattern)
        fill(a->dst, a->n, a->pbuf, a->psize);
    else
        memmove(a->dst, a->src, a->n);
    return CL_SUCCESS;
}

static void fini_free(ocl_cmd *c) { free(c->arg); }

/* The checks every buffer command shares: queue, buffer in its context,
 * the range inside the buffer, the wait list. */
static cl_int check(cl_command_queue q, cl_mem m, size_t off, size_t n,
                    cl_uint nwait, const cl_event *wait)
{
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!ocl_is(m, OCL_MEM))
        return CL_INVALID_MEM_OBJECT;
    if (m->ctx != q->ctx)
        return CL_INVALID_CONTEXT;
    if (off > m->size || n > m->size - off)
        return CL_INVALID_VALUE;
    return ocl_check_waitlist(q->ctx, nwait, wait);
}

static cl_int copy_cmd(cl_command_queue q, cl_command_type type, void *dst,
                       const void *src, size_t n, cl_uint nwait,
                       const cl_event *wait, cl_event *ev, bool blocking)
{
    copy_args *a = calloc(1, sizeof *a);
    if (!a)
        return CL_OUT_OF_HOST_MEMORY;
    a->dst = dst, a->src = src, a->n = n;
    return ocl_enqueue(q, type, run_copy, fini_free, a, nwait, wait, ev,
                       blocking);
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m,
                                       cl_bool blocking, size_t off, size_t n,
                                       void *ptr, cl_uint nwait,
                                       const cl_event *wait, cl_event *ev)
{
    cl_int e = check(q, m, off, n, nwait, wait);
    if (e != CL_SUCCESS)
        return e;
    if (!ptr || !n)
        return CL_INVALID_VALUE;
    if (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
        return CL_INVALID_OPERATION;
    return copy_cmd(q, CL_COMMAND_READ_BUFFER, ptr, m->data + off, n, nwait,
                    wait, ev, blocking);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m,
                                        cl_bool blocking, size_t off,
                                        size_t n, const void *ptr,
                                        cl_uint nwait, const cl_event *wait,
                                        cl_event *ev)
{
    cl_int e = check(q, m, off, n, nwait, wait);
    if (e != CL_SUCCESS)
        return e;
    if (!ptr || !n)
        return CL_INVALID_VALUE;
    if (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
        return CL_INVALID_OPERATION;
    return copy_cmd(q, CL_COMMAND_WRITE_BUFFER, m->data + off, ptr, n, nwait,
                    wait, ev, blocking);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem s, cl_mem d,
                                       size_t soff, size_t doff, size_t n,
                                       cl_uint nwait, const cl_event *wait,
                                       cl_event *ev)
{
    cl_int e = check(q, s, soff, n, nwait, wait);
    if (e == CL_SUCCESS)
        e = check(q, d, doff, n, 0, NULL);
    if (e != CL_SUCCESS)
        return e;
    if (!n)
        return CL_INVALID_VALUE;
    /* the same bytes read and written: a copy overlap */
    const uint8_t *sb = s->data + soff, *db = d->data + doff;
    if (sb < db + n && db < sb + n)
        return CL_MEM_COPY_OVERLAP;
    return copy_cmd(q, CL_COMMAND_COPY_BUFFER, d->data + doff, sb, n, nwait,
                    wait, ev, false);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m,
                                       const void *pattern, size_t psize,
                                       size_t off, size_t n, cl_uint nwait,
                                       const cl_event *wait, cl_event *ev)
{
    cl_int e = check(q, m, off, n, nwait, wait);
    if (e != CL_SUCCESS)
        return e;
    if (!pattern || !psize || psize > 128 || (psize & (psize - 1)) ||
        off % psize || n % psize)
        return CL_INVALID_VALUE;
    copy_args *a = calloc(1, sizeof *a);
    if (!a)
        return CL_OUT_OF_HOST_MEMORY;
    a->dst = m->data + off, a->n = n, a->pattern = a->pbuf, a->psize = psize;
    memcpy(a->pbuf, pattern, psize);   /* the caller may reuse it at once */
    return ocl_enqueue(q, CL_COMMAND_FILL_BUFFER, run_copy, fini_free, a,
                       nwait, wait, ev, false);
}

/* Mapping: the buffer's own bytes are host memory, so a map is a pointer
 * into them and an unmap has nothing to copy. */
void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m,
                                     cl_bool blocking, cl_map_flags flags,
                                     size_t off, size_t n, cl_uint nwait,
                                     const cl_event *wait, cl_event *ev,
                                     cl_int *err)
{
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE |
                               CL_MAP_WRITE_INVALIDATE_REGION;
    cl_int e = check(q, m, off, n, nwait, wait);
    if (e == CL_SUCCESS && (!n || (flags & ~known) ||
                            ((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                             (flags & (CL_MAP_READ | CL_MAP_WRITE)))))
        e = CL_INVALID_VALUE;
    if (e == CL_SUCCESS &&
        (((flags & CL_MAP_READ) &&
          (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
         ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
          (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))))
        e = CL_INVALID_OPERATION;
    if (e == CL_SUCCESS)
        e = ocl_enqueue(q, CL_COMMAND_MAP_BUFFER, NULL, NULL, NULL, nwait,
                        wait, ev, blocking);
    if (err)
        *err = e;
    if (e != CL_SUCCESS)
        return NULL;
    __atomic_add_fetch(&m->maps, 1, __ATOMIC_RELAXED);
    return m->data + off;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m,
                                           void *ptr, cl_uint nwait,
                                           const cl_event *wait, cl_event *ev)
{
    cl_int e = check(q, m, 0, 0, nwait, wait);
    if (e != CL_SUCCESS)
        return e;
    uint8_t *p = ptr;
    if (!p || p < m->data || p > m->data + m->size || !m->maps)
        return CL_INVALID_VALUE;
    __atomic_sub_fetch(&m->maps, 1, __ATOMIC_RELAXED);
    return ocl_enqueue(q, CL_COMMAND_UNMAP_MEM_OBJECT, NULL, NULL, NULL,
                       nwait, wait, ev, false);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n,
                                              const cl_mem *mems,
                                              cl_mem_migration_flags flags,
                                              cl_uint nwait,
                                              const cl_event *wait,
                                              cl_event *ev)
{
    const cl_mem_migration_flags known =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    if (!ocl_is(q, OCL_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (!n || !mems || (flags & ~known))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_is(mems[i], OCL_MEM))
            return CL_INVALID_MEM_OBJECT;
        if (mems[i]->ctx != q->ctx)
            return CL_INVALID_CONTEXT;
    }
    cl_int e = ocl_check_waitlist(q->ctx, nwait, wait);
    if (e != CL_SUCCESS)
        return e;
    /* one memory for host and device: nothing moves */
    return ocl_enqueue(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, NULL, NULL, NULL,
                       nwait, wait, ev, false);
}
