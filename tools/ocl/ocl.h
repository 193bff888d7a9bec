/* clvm as an OpenCL platform (the ICD library): the objects behind the
 * OpenCL handles and what the files of tools/ocl/ share.
 *
 * Every object starts with the ICD loader's dispatch pointer, as the
 * Khronos ICD specification requires. The files, in call order:
 *   info.c      clGet*Info answers, argument checks shared by all
 *   platform.c  the one platform and its one CPU device
 *   context.c   contexts
 *   event.c     events, user events, callbacks, waiting
 *   queue.c     command queues: commands run in order, each when its
 *               wait list has completed
 *   mem.c       buffers, sub-buffers and their enqueued copies
 *   unit.c      the temporary folder clang compiles a unit in, headers too
 *   program.c   programs: clvm bytecode, IR text, OpenCL C (front end)
 *   link.c      clCompileProgram and clLinkProgram
 *   attrs.c     a kernel's __attribute__s and parameter qualifiers, from
 *               the source (or after the preprocessor)
 *   kernel.c    kernels, their arguments and NDRange launches (the first
 *               of CLVM_BREAK's kernel under the REPL: tools/repl_host.c)
 *   icd.c       the dispatch table and the two exported entry points */
#ifndef CLVM_OCL_H
#define CLVM_OCL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/cc.h"
#include "vm/bytecode.h"

/* The dispatch table every object points to: icd.c, at the top, sets it
 * when the library is loaded (so that no file below calls upward). */
extern const struct _cl_icd_dispatch *ocl_table;

/* The library exports only what the ICD loader looks up by name:
 * clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress[ForPlatform] and
 * clGetPlatformInfo (ocl-icd asks it for the platform's suffix). */
#define OCL_EXPORT __attribute__((visibility("default")))

/* Reference counts: atomic, so that objects may be retained and released
 * from several host threads. */
typedef struct {
    unsigned long n;
} ocl_ref;

void ocl_ref_init(ocl_ref *r);
void ocl_retain(ocl_ref *r);
bool ocl_release(ocl_ref *r);   /* true when it reached zero */
cl_uint ocl_refcount(const ocl_ref *r);

/* The head of every object: the loader's dispatch table first, then what
 * kind of object it is, so that a handle of the wrong kind is refused. */
enum ocl_kind {
    OCL_PLATFORM = 0x706c6174, OCL_DEVICE, OCL_CONTEXT, OCL_QUEUE, OCL_MEM,
    OCL_PROGRAM, OCL_KERNEL, OCL_EVENT
};
typedef struct {
    const struct _cl_icd_dispatch *dispatch;
    uint32_t kind;                       /* enum ocl_kind */
    ocl_ref ref;
} ocl_obj;

/* p is a live object of kind k */
bool ocl_is(const void *p, enum ocl_kind k);
/* clRetain*: bad unless p is a live object of kind k */
cl_int ocl_retain_obj(void *p, enum ocl_kind k, cl_int bad);
/* clRelease*: 1 when that was the last reference (the caller frees), 0
 * when not, -1 when p is no live object of kind k */
int ocl_release_obj(void *p, enum ocl_kind k);
void ocl_obj_init(ocl_obj *h, enum ocl_kind k);

/* CL_DEVICE_LOCAL_MEM_SIZE: the local memory a launch may use, its
 * kernel's __local arrays and local arguments together. A work-group's
 * local memory is cleared when it starts, so the limit is a GPU's, well
 * below what the VM could give (BC_MAX_LOCAL): a host program that sizes
 * its launch by it (one work-item a group, each with the whole of it)
 * stays quick. */
#define OCL_LOCAL_MEM (64u << 10)

/* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: where a sub-buffer may start.
 * The spec's least is the largest type, 128 bytes (double16); 256 is the
 * race check's block (docs/semantics.md, "Data races"), so that a kernel
 * given a sub-buffer and its parent is checked, never refused. */
#define OCL_BASE_ALIGN 256u

struct _cl_platform_id { ocl_obj h; };
struct _cl_device_id { ocl_obj h; };

extern struct _cl_platform_id ocl_platform;
extern struct _cl_device_id ocl_device;

struct _cl_context {
    ocl_obj h;
    cl_context_properties props[8];
    size_t nprops;                       /* entries including the 0 */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
};

enum ocl_memkind { OCL_BUFFER, OCL_SUBBUFFER };

typedef struct ocl_destructor {
    void (CL_CALLBACK *fn)(cl_mem, void *);
    void *data;
    struct ocl_destructor *next;
} ocl_destructor;

struct _cl_mem {
    ocl_obj h;
    cl_context ctx;
    cl_mem_flags flags;
    size_t size;
    uint8_t *data;                       /* the bytes kernels see */
    bool owned;                          /* data is ours to free */
    void *host_ptr;                      /* as passed at creation */
    cl_mem parent;                       /* sub-buffer: its buffer */
    size_t origin;
    cl_uint maps;                        /* mappings not yet unmapped */
    ocl_destructor *dtors;
};

/* An event: a command's, or a user event (queue NULL). status is
 * CL_QUEUED .. CL_COMPLETE, or negative after an error. */
typedef struct ocl_callback {
    void (CL_CALLBACK *fn)(cl_event, cl_int, void *);
    void *data;
    cl_int when;                         /* CL_SUBMITTED, _RUNNING, _COMPLETE */
    struct ocl_callback *next;
} ocl_callback;

struct _cl_event {
    ocl_obj h;
    cl_context ctx;
    cl_command_queue queue;
    cl_command_type type;
    cl_int status;
    bool profiled;
    cl_ulong times[4];                   /* queued, submit, start, end */
    ocl_callback *callbacks;
};

/* An enqueued command: runs when every event of its wait list is
 * complete, in the queue's order. */
typedef struct ocl_cmd {
    struct ocl_cmd *next;
    cl_event ev;
    cl_uint nwait;
    cl_event *wait;
    cl_int (*run)(struct ocl_cmd *);     /* CL_SUCCESS or a negative status */
    void (*fini)(struct ocl_cmd *);      /* frees what run needed; may be NULL */
    void *arg;
} ocl_cmd;

struct _cl_command_queue {
    ocl_obj h;
    cl_context ctx;
    cl_command_queue_properties props;
    ocl_cmd *head, *tail;
    struct _cl_command_queue *next_queue; /* every queue, for progress */
};

struct _cl_program {
    ocl_obj h;
    cl_context ctx;
    char *source;                        /* NULL for a binary */
    size_t source_len;
    uint8_t *binary;                     /* clvm bytecode, as given/built */
    size_t binary_len;
    uint8_t *object;                     /* OpenCL C compiled object or */
    size_t object_len;                   /* library: LLVM bitcode */
    bc_module mod;                       /* built: the verified module */
    bool built;
    cl_program_binary_type bintype;      /* COMPILED_OBJECT, LIBRARY: linkable */
    cl_build_status status;
    char *options;
    char *log;
    cl_uint kernels;                     /* live kernels made from it */
    cl_program *parts;                   /* linked OpenCL C: the programs */
    cl_uint nparts;                      /* it came from (retained), whose
                                            sources declare its kernels */
};

/* The private folder an OpenCL C unit is compiled in (unit.c): path is
 * the source, hdir the folder of embedded headers, searched first. */
typedef struct {
    char dir[512], path[600], hdir[600];
} ocl_unit;

/* Writes p's source and the nh headers (programs of source) at their
 * include names into a new folder; 1 with the message in diag on
 * failure. ocl_unit_close removes the folder whatever happened. */
int ocl_unit_open(ocl_unit *u, cl_program p, cl_uint nh,
                  const cl_program *headers, const char *const *names,
                  FILE *diag);
void ocl_unit_close(ocl_unit *u);

/* program.c, for link.c: a new program of ctx (reference count 1); the
 * build log collected through a stream (ocl_log_end gives it to p) */
cl_program ocl_program_new(cl_context ctx, cl_int *err);
typedef struct {
    char *buf;
    size_t len;
    FILE *f;
} ocl_log;
cl_int ocl_log_begin(ocl_log *l);
void ocl_log_end(cl_program p, ocl_log *l);
/* clang on p's OpenCL C source with p->options and nh embedded headers:
 * translated into p->mod (what CC_MODULE), or into *out (malloc'd) LLVM
 * bitcode (CC_OBJECT) or the preprocessed text (CC_TEXT); 1 on failure,
 * the messages in diag. */
int ocl_compile_c(cl_program p, cl_uint nh, const cl_program *headers,
                  const char *const *names, cc_what what, uint8_t **out,
                  size_t *olen, FILE *diag);
/* p->mod, just built, as p's binary too; 1 (said in diag) when out of
 * memory */
int ocl_keep_binary(cl_program p, FILE *diag);
/* Links n objects: a library into p->object, or an executable into
 * p->mod and p->binary; 1 on failure, the messages in diag. */
int ocl_link_objects(cl_program p, const uint8_t *const *objs,
                     const size_t *lens, int n, bool library, FILE *diag);

/* CL_KERNEL_ATTRIBUTES of kernel name in p's OpenCL C source (none
 * without one): each __attribute__((X)) of its declaration, as written or,
 * where a macro writes it, after the preprocessor, as X without blanks,
 * space separated; malloc'd (NULL when out of memory). */
char *ocl_kernel_attrs(cl_program p, const char *name);
/* The n parameters of kernel name in p's source as written (or after the
 * preprocessor, as ocl_kernel_attrs): per parameter its
 * CL_KERNEL_ARG_TYPE_VOLATILE and _RESTRICT (of a pointer) in tq[i] and
 * whether it points to void in voidp[i]; false when the source does not
 * show n parameters (no source, IR). */
bool ocl_kernel_params(cl_program p, const char *name, cl_uint n,
                       cl_kernel_arg_type_qualifier *tq, bool *voidp);

/* A kernel argument as set: a buffer (or NULL), a local size, a value, a
 * struct by value (bytes, malloc'd: byval of its size). */
typedef struct {
    bool set;
    cl_mem mem;
    size_t local;
    uint8_t value[128];
    uint8_t *byval;
} ocl_arg;

struct _cl_kernel {
    ocl_obj h;
    cl_program prog;
    uint32_t index;                      /* in prog->mod */
    cl_uint nargs;
    ocl_arg *args;
    cl_ulong local_bytes;                /* its __local arrays */
    cl_ulong private_bytes;              /* its private arrays, a work-item */
};

/* One lock guards every queue and event: the device is one interpreter.
 * ocl_unlock runs the callbacks that became due while it was held. */
void ocl_lock(void);
void ocl_unlock(void);
cl_ulong ocl_now(void);                  /* nanoseconds, monotonic */

/* With the lock held: a new event (reference count 1) and status changes,
 * which queue the due callbacks and wake waiters. */
cl_event ocl_event_new(cl_context ctx, cl_command_queue q,
                       cl_command_type type);
void ocl_event_status(cl_event e, cl_int status);
void ocl_event_free(cl_event e);         /* the last reference went */
/* Runs what can run on every queue (the lock held). */
void ocl_progress(void);
/* A new queue joins the list progress walks; the last reference to one
 * leaves it (the lock held for both). */
void ocl_queue_add(cl_command_queue q);
void ocl_queue_unref(cl_command_queue q);
/* Waits, the lock held, until done(arg) (rechecked after progress). */
void ocl_wait_until(bool (*done)(void *), void *arg);

/* Enqueues a command on q: checks the wait list, makes its event (stored
 * in *event if not NULL), runs what can run, and with blocking waits for
 * it. Takes the lock itself. Returns the enqueue's error code, or for a
 * blocking command a failed run's CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
cl_int ocl_enqueue(cl_command_queue q, cl_command_type type,
                   cl_int (*run)(ocl_cmd *), void (*fini)(ocl_cmd *),
                   void *arg, cl_uint nwait, const cl_event *wait,
                   cl_event *event, bool blocking);


/* clGet*Info: copies n bytes of src to value (if not NULL; then size must
 * be at least n) and n to *ret (if not NULL). */
cl_int ocl_info(size_t size, void *value, size_t *ret, const void *src,
                size_t n);
cl_int ocl_info_str(size_t size, void *value, size_t *ret, const char *s);

/* A wait list as clEnqueue* take it: CL_INVALID_EVENT_WAIT_LIST unless
 * n and list agree and every event is valid and in ctx. */
cl_int ocl_check_waitlist(cl_context ctx, cl_uint n, const cl_event *list);

#endif
