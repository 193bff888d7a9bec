/* Kernel buffers with their pages already in memory (zeros:BYTES, and
 * @FILE's bytes): written by one thread per core before the kernel runs,
 * so that no page faults inside the kernel, one thread at a time in
 * effect; large ones in huge pages where the system has them (fewer
 * faults, fewer TLB misses as the kernel streams through them). */
#include "tools/prefault.h"

#include "tools/file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    PF_CHUNK = 4 << 20,   /* bytes a thread writes at least */
    PF_THREADS = 64,      /* threads at most */
};
#define PF_HUGE ((size_t)2 << 20)   /* a huge page */

typedef struct {
    uint8_t *p;
    int fd;               /* -1: zeros; else the part's bytes, at off */
    off_t off;
    size_t n;
    bool ok;
} pf_part;

static void *fill(void *arg)
{
    pf_part *q = arg;
    q->ok = true;
    if (q->fd < 0) {
        memset(q->p, 0, q->n);
        return NULL;
    }
    for (size_t k = 0; k < q->n;) {
        ssize_t r = pread(q->fd, q->p + k, q->n - k, q->off + (off_t)k);
        if (r <= 0) {
            q->ok = false;   /* an error, or the file shrank */
            break;
        }
        k += (size_t)r;
    }
    return NULL;
}

/* n bytes, not yet touched: huge-page aligned and advised when n is at
 * least one. */
static uint8_t *untouched(size_t n)
{
    if (n < PF_HUGE || n > SIZE_MAX - PF_HUGE)
        return malloc(n ? n : 1);
    size_t r = (n + PF_HUGE - 1) & ~(PF_HUGE - 1);
    uint8_t *p = aligned_alloc(PF_HUGE, r);
#ifdef MADV_HUGEPAGE
    if (p)
        (void)madvise(p, r, MADV_HUGEPAGE);   /* a hint: may be refused */
#endif
    return p;
}

/* (malloc then memset of the same block is calloc to the compiler, whose
 * pages fault later: the writes go through fill, by parts.) */
static void *populate(int fd, size_t n)
{
    uint8_t *p = untouched(n);
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
        part[i] = (pf_part){p + at, fd, (off_t)at,
                            n - at < each ? n - at : each, false};
        started[i] = i > 0 && pthread_create(&tid[i], NULL, fill,
                                             &part[i]) == 0;
    }
    for (size_t i = 0; i < t; i++)
        if (!started[i])
            fill(&part[i]);   /* the calling thread's part, or a thread's
                                 that could not start */
    bool ok = true;
    for (size_t i = 0; i < t; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        ok &= part[i].ok;
    }
    if (!ok) {
        free(p);
        errno = EIO;
        return NULL;
    }
    return p;
}

void *pf_zeros(size_t n)
{
    return populate(-1, n);
}

void *pf_file(const char *path, size_t *len)
{
    struct stat st;
    int fd = strcmp(path, "-") ? open(path, O_RDONLY) : -1;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size < PF_HUGE || (uint64_t)st.st_size > SIZE_MAX) {
        if (fd >= 0)
            close(fd);
        return file_read(path, len);   /* small, a pipe, or an error */
    }
    void *p = populate(fd, (size_t)st.st_size);
    int err = errno;
    close(fd);
    errno = err;
    if (p)
        *len = (size_t)st.st_size;
    return p;
}
