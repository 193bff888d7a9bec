/* Events: status, profiling times, callbacks, user events and waiting.
 * One lock and one condition variable serve the whole device; callbacks
 * run after the lock is let go, so that they may call the API. */
#include "tools/ocl/ocl.h"

#include <stdlib.h>
#include <time.h>

/* Recursive: a command's end releases events, which takes it again. */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static int depth;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

/* Callbacks due, with their event and status: fired by ocl_unlock. */
typedef struct due {
    ocl_callback cb;
    cl_event ev;
    cl_int status;
    struct due *next;
} due;
static due *due_head, **due_tail = &due_head;

void ocl_lock(void)
{
    pthread_mutex_lock(&lock);
    depth++;
}

void ocl_unlock(void)
{
    if (--depth > 0) {
        pthread_mutex_unlock(&lock);
        return;
    }
    due *d = due_head;
    due_head = NULL, due_tail = &due_head;
    pthread_mutex_unlock(&lock);
    while (d) {
        due *n = d->next;
        d->cb.fn(d->ev, d->status, d->cb.data);
        clReleaseEvent(d->ev);
        free(d);
        d = n;
    }
}

cl_ulong ocl_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (cl_ulong)t.tv_sec * 1000000000u + (cl_ulong)t.tv_nsec;
}

cl_event ocl_event_new(cl_context ctx, cl_command_queue q,
                       cl_command_type type)
{
    cl_event e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    ocl_obj_init(&e->h, OCL_EVENT);
    e->ctx = ctx, e->queue = q, e->type = type;
    e->status = q ? CL_QUEUED : CL_SUBMITTED;
    e->profiled = q && (q->props & CL_QUEUE_PROFILING_ENABLE);
    clRetainContext(ctx);
    if (q)
        ocl_retain(&q->h.ref);
    return e;
}

void ocl_event_free(cl_event e)
{
    ocl_callback *c = e->callbacks;
    while (c) {
        ocl_callback *n = c->next;
        free(c);
        c = n;
    }
    if (e->queue)
        ocl_queue_unref(e->queue);
    clReleaseContext(e->ctx);
    free(e);
}

/* Queue the callbacks that status has made due (a negative status counts
 * as complete), keeping the others. */
static void fire(cl_event e, cl_int status)
{
    ocl_callback **p = &e->callbacks;
    while (*p) {
        ocl_callback *c = *p;
        due *d;
        if (status > c->when || !(d = malloc(sizeof *d))) {
            p = &c->next;
            continue;
        }
        *p = c->next;
        d->cb = *c, d->ev = e, d->status = status, d->next = NULL;
        ocl_retain(&e->h.ref);
        *due_tail = d, due_tail = &d->next;
        free(c);
    }
}

void ocl_event_status(cl_event e, cl_int status)
{
    static const int slot[] = {3, 2, 1, 0};   /* COMPLETE..QUEUED */
    if (e->profiled && status >= CL_COMPLETE && status <= CL_QUEUED)
        e->times[slot[status]] = ocl_now();
    e->status = status;
    fire(e, status);
    pthread_cond_broadcast(&changed);
}

void ocl_wait_until(bool (*done)(void *), void *arg)
{
    for (;;) {
        ocl_progress();
        if (done(arg))
            return;
        int d = depth;   /* the wait lets go of the lock: others may take it */
        depth = 0;
        pthread_cond_wait(&changed, &lock);
        depth = d;
    }
}

/* ---- the API ---- */

cl_int CL_API_CALL clRetainEvent(cl_event e)
{
    return ocl_retain_obj(e, OCL_EVENT, CL_INVALID_EVENT);
}

cl_int CL_API_CALL clReleaseEvent(cl_event e)
{
    if (!ocl_is(e, OCL_EVENT))
        return CL_INVALID_EVENT;
    ocl_lock();
    if (ocl_release(&e->h.ref))
        ocl_event_free(e);
    ocl_unlock();
    return CL_SUCCESS;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context ctx, cl_int *err)
{
    cl_event e = NULL;
    cl_int r = CL_SUCCESS;
    if (!ocl_is(ctx, OCL_CONTEXT))
        r = CL_INVALID_CONTEXT;
    else if (!(e = ocl_event_new(ctx, NULL, CL_COMMAND_USER)))
        r = CL_OUT_OF_HOST_MEMORY;
    if (err)
        *err = r;
    return e;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int status)
{
    if (!ocl_is(e, OCL_EVENT) || e->queue)
        return CL_INVALID_EVENT;
    if (status > CL_COMPLETE)
        return CL_INVALID_VALUE;
    ocl_lock();
    cl_int r = CL_SUCCESS;
    if (e->status <= CL_COMPLETE) {
        r = CL_INVALID_OPERATION;   /* set once only */
    } else {
        ocl_event_status(e, status);
        ocl_progress();
    }
    ocl_unlock();
    return r;
}

cl_int CL_API_CALL
clSetEventCallback(cl_event e, cl_int when,
                   void (CL_CALLBACK *fn)(cl_event, cl_int, void *),
                   void *data)
{
    if (!ocl_is(e, OCL_EVENT))
        return CL_INVALID_EVENT;
    if (!fn || (when != CL_COMPLETE && when != CL_SUBMITTED &&
                when != CL_RUNNING))
        return CL_INVALID_VALUE;
    ocl_callback *c = malloc(sizeof *c);
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    c->fn = fn, c->data = data, c->when = when;
    ocl_lock();
    c->next = e->callbacks, e->callbacks = c;
    fire(e, e->status);   /* already past `when`: due now */
    ocl_unlock();
    return CL_SUCCESS;
}

typedef struct {
    cl_uint n;
    const cl_event *list;
} waitset;

static bool all_done(void *arg)
{
    const waitset *w = arg;
    for (cl_uint i = 0; i < w->n; i++)
        if (w->list[i]->status > CL_COMPLETE)
            return false;
    return true;
}

cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list)
{
    if (!n || !list)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_is(list[i], OCL_EVENT))
            return CL_INVALID_EVENT;
        if (list[i]->ctx != list[0]->ctx)
            return CL_INVALID_CONTEXT;
    }
    waitset w = {n, list};
    cl_int r = CL_SUCCESS;
    ocl_lock();
    ocl_wait_until(all_done, &w);
    for (cl_uint i = 0; i < n; i++)
        if (list[i]->status < 0)
            r = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    ocl_unlock();
    return r;
}

cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info what,
                                  size_t size, void *value, size_t *ret)
{
    if (!ocl_is(e, OCL_EVENT))
        return CL_INVALID_EVENT;
    cl_uint u;
    cl_int st;
    switch (what) {
    case CL_EVENT_COMMAND_QUEUE:
        return ocl_info(size, value, ret, &e->queue, sizeof e->queue);
    case CL_EVENT_CONTEXT:
        return ocl_info(size, value, ret, &e->ctx, sizeof e->ctx);
    case CL_EVENT_COMMAND_TYPE:
        return ocl_info(size, value, ret, &e->type, sizeof e->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
        ocl_lock();
        ocl_progress();
        st = e->status;
        ocl_unlock();
        return ocl_info(size, value, ret, &st, sizeof st);
    case CL_EVENT_REFERENCE_COUNT:
        u = ocl_refcount(&e->h.ref);
        return ocl_info(size, value, ret, &u, sizeof u);
    default:
        return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e, cl_profiling_info what,
                                           size_t size, void *value,
                                           size_t *ret)
{
    if (!ocl_is(e, OCL_EVENT))
        return CL_INVALID_EVENT;
    if (!e->profiled || e->status != CL_COMPLETE)
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    if (what < CL_PROFILING_COMMAND_QUEUED || what > CL_PROFILING_COMMAND_END)
        return CL_INVALID_VALUE;
    cl_ulong t = e->times[what - CL_PROFILING_COMMAND_QUEUED];
    return ocl_info(size, value, ret, &t, sizeof t);
}

/* ---- the order commands run in ---- */

static cl_command_queue queues;   /* every live queue */

void ocl_queue_add(cl_command_queue q)
{
    q->next_queue = queues, queues = q;
}

void ocl_queue_unref(cl_command_queue q)
{
    if (!ocl_release(&q->h.ref))
        return;
    for (cl_command_queue *p = &queues; *p; p = &(*p)->next_queue)
        if (*p == q) {
            *p = q->next_queue;
            break;
        }
    clReleaseContext(q->ctx);
    free(q);
}

static void cmd_free(ocl_cmd *c)
{
    if (c->fini)
        c->fini(c);
    for (cl_uint i = 0; i < c->nwait; i++)
        clReleaseEvent(c->wait[i]);
    free(c->wait);
    clReleaseEvent(c->ev);
    free(c);
}

/* The head of q runs when its wait list is complete; a failed event in
 * the list fails it without running. */
static bool run_head(cl_command_queue q)
{
    ocl_cmd *c = q->head;
    cl_int failed = 0;
    for (cl_uint i = 0; i < c->nwait; i++) {
        if (c->wait[i]->status > CL_COMPLETE)
            return false;
        if (c->wait[i]->status < 0)
            failed = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    q->head = c->next;
    if (!q->head)
        q->tail = NULL;
    ocl_event_status(c->ev, CL_SUBMITTED);
    ocl_event_status(c->ev, CL_RUNNING);
    cl_int r = failed ? failed : c->run ? c->run(c) : CL_SUCCESS;
    ocl_event_status(c->ev, r < 0 ? r : CL_COMPLETE);
    cmd_free(c);
    return true;
}

void ocl_progress(void)
{
    bool again = true;
    while (again) {
        again = false;
        for (cl_command_queue q = queues; q; q = q->next_queue)
            while (q->head && run_head(q))
                again = true;
    }
}

static bool event_done(void *arg)
{
    return ((cl_event)arg)->status <= CL_COMPLETE;
}

cl_int ocl_check_waitlist(cl_context ctx, cl_uint n, const cl_event *list)
{
    if ((n > 0) != (list != NULL))
        return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_is(list[i], OCL_EVENT))
            return CL_INVALID_EVENT_WAIT_LIST;
        else if (list[i]->ctx != ctx)
            return CL_INVALID_CONTEXT;
    return CL_SUCCESS;
}

cl_int ocl_enqueue(cl_command_queue q, cl_command_type type,
                   cl_int (*run)(ocl_cmd *), void (*fini)(ocl_cmd *),
                   void *arg, cl_uint nwait, const cl_event *wait,
                   cl_event *event, bool blocking)
{
    ocl_cmd *c = calloc(1, sizeof *c);
    cl_int r = CL_SUCCESS;
    if (!c || (nwait && !(c->wait = malloc(nwait * sizeof *wait)))) {
        free(c);
        if (fini) {
            ocl_cmd tmp = {.arg = arg};
            fini(&tmp);
        }
        return CL_OUT_OF_HOST_MEMORY;
    }
    c->run = run, c->fini = fini, c->arg = arg, c->nwait = nwait;
    for (cl_uint i = 0; i < nwait; i++) {
        c->wait[i] = wait[i];
        clRetainEvent(wait[i]);
    }
    ocl_lock();
    if (!(c->ev = ocl_event_new(q->ctx, q, type))) {
        ocl_unlock();
        c->ev = NULL;
        for (cl_uint i = 0; i < nwait; i++)
            clReleaseEvent(c->wait[i]);
        free(c->wait);
        if (fini)
            fini(c);
        free(c);
        return CL_OUT_OF_HOST_MEMORY;
    }
    cl_event ev = c->ev;
    ocl_event_status(ev, CL_QUEUED);
    ocl_retain(&ev->h.ref);          /* ours until we are done with it */
    if (q->tail)
        q->tail->next = c;
    else
        q->head = c;
    q->tail = c;
    if (blocking) {
        ocl_wait_until(event_done, ev);
        if (ev->status < 0)
            r = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    } else {
        ocl_progress();
    }
    if (event)
        *event = ev;
    else
        clReleaseEvent(ev);
    ocl_unlock();
    return r;
}
