/* Zero-filled buffers with their pages already in memory (zeros:BYTES):
 * written by one thread per core before the kernel runs, so that no page
 * faults inside the kernel, one thread at a time in effect. */
#include "tools/prefault.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    PF_CHUNK = 4 << 20,   /* bytes a thread writes at least */
    PF_THREADS = 64,      /* threads at most */
};

typedef struct {
    uint8_t *p;
    size_t n;
} pf_part;

static void *fill(void *arg)
{
    pf_part *q = arg;
    memset(q->p, 0, q->n);
    return NULL;
}

/* (malloc then memset of the same block is calloc to the compiler, whose
 * pages fault later: the writes go through fill, by parts.) */
void *pf_zeros(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        return NULL;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t = n / PF_CHUNK;
    if (t > (size_t)(cores > 0 ? cores : 1))
        t = (size_t)(cores > 0 ? cores : 1);
    if (t > PF_THREADS)
        t = PF_THREADS;
    if (t < 1)
        t = 1;
    pf_part part[PF_THREADS];
    pthread_t tid[PF_THREADS];
    bool started[PF_THREADS] = {false};
    size_t each = (n / t + 4095) & ~(size_t)4095;
    for (size_t i = 0; i < t; i++) {
        size_t at = i * each < n ? i * each : n;
        part[i] = (pf_part){p + at, n - at < each ? n - at : each};
        started[i] = i > 0 && pthread_create(&tid[i], NULL, fill,
                                             &part[i]) == 0;
    }
    for (size_t i = 0; i < t; i++)
        if (!started[i])
            fill(&part[i]);   /* the calling thread's part, or a thread's
                                 that could not start */
    for (size_t i = 1; i < t; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    return p;
}
