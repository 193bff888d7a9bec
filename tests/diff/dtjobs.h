/* The difftest's runs of kernels (docs/difftest.md): output buffers,
 * jobs, and each implementation's run of a batch in a child process with
 * a time limit (tests/diff/dtchild.c). */
#ifndef CLVM_DIFF_DTJOBS_H
#define CLVM_DIFF_DTJOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/diff/gen.h"

typedef struct {
    uint8_t *b[DT_NBUF]; /* DT_ITEMS * DT_NOUT elements each, shared with children */
    char *text;          /* printf's output (kernels that print), or NULL */
    size_t tlen;
} outs;

/* A job's status: it ran, it failed (msg says why), it ran past the time
 * limit (msg says so). */
enum { JOB_RAN = 0, JOB_FAILED = -1, JOB_TIMEOUT = -2 };

typedef struct {
    const char *name;
    const dt_kernel *k;
    uint32_t pmask;      /* the value parameters the source has */
    outs *o;
    int status;          /* JOB_* */
    char msg[512];
} cl_job;

/* An implementation: run builds srcs (OpenCL C, or IR for clvm's IR) and
 * runs every job, calling job_built once built and job_done after each
 * job; false (why in *log, malloc'd) when it does not build. where names
 * it in DIFFTEST_HANG. */
typedef struct {
    bool (*run)(char **srcs, cl_job *jobs, int n, char **log);
    const char *name, *where;
} side;

void *xcalloc(size_t n);
size_t elsize(int b);
size_t in_bytes(int b);
size_t out_bytes(int b);
void outs_alloc(outs *o);
void outs_free(outs *o);

/* In a child's run: the program is built; job j is done (its status,
 * message and text go to the parent). Before job j: DIFFTEST_HANG. */
void job_built(void);
void job_done(const cl_job *j);
void job_start(const side *sd, const cl_job *j);
/* As sd->run, in a child process: a step (the build, or a job's run) that
 * takes longer than dtc_limit() is killed and its job (every job left,
 * for the build) gets JOB_TIMEOUT; a child that dies fails its job; the
 * jobs after a killed one run in a new child. */
bool timed_run(const side *sd, char **srcs, cl_job *jobs, int n, char **log);

#endif
