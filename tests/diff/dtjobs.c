/* The difftest's runs of kernels: output buffers shared with child
 * processes, and one implementation's run of a batch in children with a
 * time limit per step, each job's result sent back through a pipe. */
#include "tests/diff/dtjobs.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "tests/diff/dtchild.h"

void *xcalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) {
        fprintf(stderr, "difftest: out of memory\n");
        exit(2);
    }
    return p;
}

size_t elsize(int b) { return ty_scalar_size((enum ty_scalar)dt_buf_scalar[b]); }
size_t in_bytes(int b) { return DT_ITEMS * DT_NIN * elsize(b); }
size_t out_bytes(int b) { return DT_ITEMS * DT_NOUT * elsize(b); }

void outs_alloc(outs *o)
{
    for (int b = 0; b < DT_NBUF; b++) {
        void *p = mmap(NULL, out_bytes(b), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                       -1, 0);
        if (p == MAP_FAILED) {
            fprintf(stderr, "difftest: out of memory\n");
            exit(2);
        }
        o->b[b] = p;
    }
    o->text = NULL;
    o->tlen = 0;
}

void outs_free(outs *o)
{
    for (int b = 0; b < DT_NBUF; b++)
        munmap(o->b[b], out_bytes(b));
    free(o->text);
    o->text = NULL;
}

/* ---- in the child ---- */

static int child_fd = -1; /* the pipe to the parent, in a child */
static const cl_job *child_jobs;

void job_built(void)
{
    if (child_fd >= 0)
        dtc_send(child_fd, "S", 1);
}

void job_start(const side *sd, const cl_job *j)
{
    if (child_fd >= 0)
        dtc_hang_hook(sd->where, j->name);
}

/* A job's message: 'J', its index, status, message length and text
 * length (UINT32_MAX: no text), then the message and the text. */
enum { HEAD = 1 + 4 * 4 };

void job_done(const cl_job *j)
{
    if (child_fd < 0)
        return;
    uint32_t h[4] = {(uint32_t)(j - child_jobs), (uint32_t)j->status,
                     (uint32_t)strnlen(j->msg, sizeof j->msg),
                     j->o && j->o->text ? (uint32_t)j->o->tlen : UINT32_MAX};
    size_t tl = h[3] == UINT32_MAX ? 0 : h[3];
    char *m = xcalloc(HEAD + h[2] + tl);
    m[0] = 'J';
    memcpy(m + 1, h, sizeof h);
    memcpy(m + HEAD, j->msg, h[2]);
    if (tl)
        memcpy(m + HEAD + h[2], j->o->text, tl);
    dtc_send(child_fd, m, HEAD + h[2] + tl);
    free(m);
}

typedef struct {
    const side *sd;
    char **srcs;
    cl_job *jobs;
    int n;
} run_arg;

static void child_main(void *arg, int fd)
{
    run_arg *a = arg;
    child_fd = fd;
    child_jobs = a->jobs;
    char *log = NULL;
    if (!a->sd->run(a->srcs, a->jobs, a->n, &log)) {
        size_t n = log ? strlen(log) : 0;
        char *m = xcalloc(n + 2);
        m[0] = 'B';
        if (n)
            memcpy(m + 1, log, n);
        dtc_send(fd, m, n + 1);
        free(m);
    }
    free(log);
}

/* ---- in the parent ---- */

static void set(cl_job *j, int status, const char *fmt, const char *what, double secs)
{
    j->status = status;
    snprintf(j->msg, sizeof j->msg, fmt, what, secs);
}

/* A job's message m (len bytes) into jobs[base + its index]; that index. */
static int take(const char *m, size_t len, cl_job *jobs, int base, int n)
{
    uint32_t h[4];
    if (len < HEAD)
        return -1;
    memcpy(h, m + 1, sizeof h);
    size_t tl = h[3] == UINT32_MAX ? 0 : h[3];
    if ((size_t)base + h[0] >= (size_t)n || h[2] >= sizeof jobs->msg || HEAD + h[2] + tl != len)
        return -1;
    cl_job *j = &jobs[base + h[0]];
    j->status = (int)h[1];
    memcpy(j->msg, m + HEAD, h[2]);
    j->msg[h[2]] = 0;
    if (j->o) {
        free(j->o->text);
        j->o->text = NULL;
        j->o->tlen = tl;
        if (h[3] != UINT32_MAX) {
            j->o->text = xcalloc(tl + 1);
            memcpy(j->o->text, m + HEAD + h[2], tl);
        }
    }
    return base + (int)h[0];
}

/* How a child that sent no more ended, in words. */
static const char *ended(int status, char *buf, size_t cap)
{
    if (WIFSIGNALED(status))
        snprintf(buf, cap, "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(buf, cap, "exit status %d", WEXITSTATUS(status));
    return buf;
}

bool timed_run(const side *sd, char **srcs, cl_job *jobs, int n, char **log)
{
    double lim = dtc_limit();
    char why[128];
    for (int from = 0; from < n;) {
        run_arg a = {sd, srcs + from, jobs + from, n - from};
        dtc c;
        if (!dtc_start(&c, child_main, &a)) {
            for (int i = from; i < n; i++)
                set(&jobs[i], JOB_FAILED, "%s: cannot start a child process (%g s)", sd->name, 0);
            return true;
        }
        bool built = false;
        int next = from, r;
        char *m;
        size_t len;
        while ((r = dtc_next(&c, lim, &m, &len)) == 1) {
            int i = m[0] == 'J' ? take(m, len, jobs, from, n) : -1;
            if (m[0] == 'S')
                built = true;
            else if (m[0] == 'B' && from == 0) {
                *log = strdup(m + 1);
                free(m);
                dtc_end(&c);
                return false;
            } else if (m[0] == 'B')
                next = n; /* built the first time: not expected */
            else if (i >= 0)
                next = i + 1;
            free(m);
        }
        int status = c.status;
        dtc_end(&c);
        if (next >= n)
            break;
        if (!built) { /* every job left: the program is the same for all */
            for (int i = next; i < n; i++) {
                if (r < 0)
                    set(&jobs[i], JOB_TIMEOUT, "%s: building the program took over %g s",
                        sd->name, lim);
                else
                    snprintf(jobs[i].msg, sizeof jobs[i].msg, "%s: the build %s", sd->name,
                             ended(status, why, sizeof why)),
                    jobs[i].status = JOB_FAILED;
            }
            break;
        }
        if (r < 0)
            set(&jobs[next], JOB_TIMEOUT, "%s: ran over the time limit of %g s", sd->name, lim);
        else
            snprintf(jobs[next].msg, sizeof jobs[next].msg, "%s: the run %s", sd->name,
                     ended(status, why, sizeof why)),
            jobs[next].status = JOB_FAILED;
        from = next + 1;
    }
    return true;
}
