/* The worker threads vm_run spreads work-groups over, started once and
 * kept across runs: a launch wakes sleeping threads instead of creating
 * and joining new ones (tens of microseconds each, far more on a loaded
 * machine, for host programs that launch tiny kernels thousands of times). */
#include "vm/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define POOL_MAX 255   /* helpers at most: vm_range_resolve's 256 threads */
/* An idle helper polls this long for the next job before it sleeps: the
 * run it was started just ahead of, or a host program's next launch, is
 * then taken at once, with no wake-up (a futex wake, tens of
 * microseconds to a sleeping CPU of a VM, one helper after another). */
#define POOL_SPIN_NS 5000000L

/* One caller's run, on its stack, listed while it wants more helpers. */
typedef struct job {
    void (*fn)(void *, unsigned);
    void *arg;
    unsigned want;     /* helpers wanted */
    unsigned joined;   /* helpers that took a share */
    _Atomic unsigned active;   /* ... and are still in fn */
    struct job *next;
} job;

/* adaptive where glibc has it: helpers that find it taken spin a little
 * rather than sleep, one after another, when a job is posted */
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
static pthread_mutex_t mu = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
#else
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
#endif
static _Atomic unsigned posted;   /* jobs listed so far: idle helpers poll */
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;   /* helpers wait */
static pthread_cond_t left = PTHREAD_COND_INITIALIZER;   /* callers wait */
static job *open_jobs;     /* wanting helpers, oldest first */
static unsigned nthreads;  /* helpers started */
static _Atomic unsigned ready;   /* ... and polling for jobs */
static bool atfork_set;

static void unlist(job *j)
{
    for (job **p = &open_jobs; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            return;
        }
}

/* Polls until *v == x is want (a job posted after the seen'th: posted !=
 * seen; a caller's helpers done: active == 0), at most POOL_SPIN_NS.
 * Returns whether it saw that. */
static bool spin(const _Atomic unsigned *v, unsigned x, bool want)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned k = 1;; k++) {
        if ((atomic_load_explicit(v, memory_order_acquire) == x) == want)
            return true;
        VM_PAUSE();
        if (k % 256 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) * 1000000000L +
                    (t.tv_nsec - t0.tv_nsec) > POOL_SPIN_NS)
                return false;
        }
    }
}

/* A thread's first allocations build its malloc arena (an mmap, and
 * page faults that contend for the process's memory map): 200-700 us a
 * helper on a 16-core VM, paid inside the first run it joined
 * (vm_group_new), while 16 threads ran bench's 4M work-items in 1.6 ms. A
 * helper pays it when it starts instead: an allocation of about what a
 * work-group takes, its pages touched (below glibc's mmap and trim
 * thresholds, so the arena keeps them). */
static void warm_arena(void)
{
    enum { WARM = 96 << 10 };
    volatile char *p = malloc(WARM);
    for (size_t k = 0; p && k < WARM; k += 4096)
        p[k] = 0;
    free((void *)p);
}

/* Moves the calling thread to CPU cpu (-1: leaves it), then lets it run
 * anywhere it could before. Linux starts a thread on its creator's CPU
 * and, where it knows of no cache the CPUs share (a VM that shows none:
 * the 2-core one), leaves it there, so a helper that polled for the
 * caller's job took the caller's CPU by turns with it until the next
 * tick's balancing (joining 4 ms late, one run in two). */
static void move_to(int cpu)
{
    cpu_set_t was, one;
    if (cpu < 0 || sched_getaffinity(0, sizeof was, &was))
        return;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (!sched_setaffinity(0, sizeof one, &one))
        (void)sched_setaffinity(0, sizeof was, &was);
}

static void *helper(void *cpu)
{
    move_to((int)(intptr_t)cpu);
    warm_arena();
    atomic_fetch_add_explicit(&ready, 1, memory_order_release);
    /* whether its last spin saw no job posted: then it sleeps. A job
     * posted, even one gone before it looked (the caller did all the work
     * itself), has it spin again: a host program's launches come faster
     * than a sleeping helper's wake-up, which each launch's signal would
     * pay. */
    bool idle = false;
    pthread_mutex_lock(&mu);
    for (;;) {
        job *j = open_jobs;
        if (!j && !idle) {
            unsigned seen = atomic_load_explicit(&posted,
                                                 memory_order_relaxed);
            pthread_mutex_unlock(&mu);
            idle = !spin(&posted, seen, false);
            pthread_mutex_lock(&mu);
            continue;
        }
        if (!j) {
            pthread_cond_wait(&wake, &mu);
            idle = false;
            continue;
        }
        idle = false;
        unsigned i = ++j->joined;
        if (j->joined == j->want)
            unlist(j);
        atomic_fetch_add_explicit(&j->active, 1, memory_order_relaxed);
        pthread_mutex_unlock(&mu);
        j->fn(j->arg, i);
        pthread_mutex_lock(&mu);
        /* (j is the caller's: not touched after this, as a caller that
         * sees 0 may return at once) */
        if (atomic_fetch_sub_explicit(&j->active, 1,
                                      memory_order_release) == 1)
            pthread_cond_broadcast(&left);
    }
    return NULL;
}

/* A child of fork has none of the parent's threads: it starts its own. */
static void forked(void)
{
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&wake, NULL);
    pthread_cond_init(&left, NULL);
    open_jobs = NULL;
    nthreads = 0;
    atomic_store(&ready, 0);
}

/* Starts helpers until there are want (with mu held), the k'th on the
 * k'th of the CPUs the caller may run on, leaving out the caller's own. */
static void start(unsigned want)
{
    if (!atfork_set)
        atfork_set = pthread_atfork(NULL, NULL, forked) == 0;
    cpu_set_t may;
    int cpus[CPU_SETSIZE], ncpus = 0, self = sched_getcpu();
    if (nthreads < want && !sched_getaffinity(0, sizeof may, &may))
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &may) && c != self)
                cpus[ncpus++] = c;
    while (nthreads < want) {
        pthread_t t;
        intptr_t cpu = ncpus ? cpus[nthreads % (unsigned)ncpus] : -1;
        if (pthread_create(&t, NULL, helper, (void *)cpu))
            break;
        pthread_detach(t);
        nthreads++;
    }
}

unsigned vm_cores(void)
{
    static _Atomic unsigned n;
    unsigned c = atomic_load_explicit(&n, memory_order_relaxed);
    if (!c) {
        long k = sysconf(_SC_NPROCESSORS_ONLN);
        c = k > 0 ? (k < 65536 ? (unsigned)k : 65536) : 1;
        atomic_store_explicit(&n, c, memory_order_relaxed);
    }
    return c;
}

/* Returns once the helpers are polling: on a loaded VM a new thread's
 * first run, then its arena, came 0.1-3.7 ms into the run that started
 * it, while the caller worked alone. */
void vm_pool_start(unsigned n)
{
    pthread_mutex_lock(&mu);
    start(n > 1 ? (n - 1 < POOL_MAX ? n - 1 : POOL_MAX) : 0);
    const unsigned started = nthreads;
    pthread_mutex_unlock(&mu);
    while (atomic_load_explicit(&ready, memory_order_acquire) < started)
        sched_yield();
}

void vm_pool_run(void (*fn)(void *arg, unsigned i), void *arg, unsigned n)
{
    if (n <= 1) {
        fn(arg, 0);
        return;
    }
    job j = {fn, arg, n - 1 < POOL_MAX ? n - 1 : POOL_MAX, 0, 0, NULL};
    pthread_mutex_lock(&mu);
    start(j.want);
    job **at = &open_jobs;
    while (*at)
        at = &(*at)->next;
    *at = &j;
    atomic_fetch_add_explicit(&posted, 1, memory_order_release);
    for (unsigned i = 0; i < j.want; i++)
        pthread_cond_signal(&wake);
    pthread_mutex_unlock(&mu);

    fn(arg, 0);

    pthread_mutex_lock(&mu);
    if (j.joined < j.want)
        unlist(&j);   /* no helper joins from now on */
    pthread_mutex_unlock(&mu);
    /* the helpers end about when this thread does: polled, that is seen
     * at once, where a sleeping CPU of a VM took up to 300 us to wake */
    spin(&j.active, 0, true);
    pthread_mutex_lock(&mu);
    while (atomic_load_explicit(&j.active, memory_order_acquire))
        pthread_cond_wait(&left, &mu);
    pthread_mutex_unlock(&mu);
}
