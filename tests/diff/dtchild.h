/* The difftest's children (docs/difftest.md, "Time limits"): a run in a
 * forked process of its own process group, its messages read with a time
 * limit per step, the whole group killed and reaped past it. */
#ifndef CLVM_DIFF_DTCHILD_H
#define CLVM_DIFF_DTCHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;        /* 0: none running */
    int fd;           /* the read end of its pipe */
    char dir[512];    /* its TMPDIR (and POCL_CACHE_DIR), removed at the end */
    int status;       /* its wait status, once reaped */
} dtc;

/* Seconds a step may take: DIFFTEST_TIMEOUT (seconds, a fraction allowed),
 * else 60; exits with a message when the variable is not a positive number. */
double dtc_limit(void);
/* Runs fn(arg, fd) in a child of its own process group, with TMPDIR in a
 * fresh folder; fn writes its messages to fd with dtc_send. False (why on
 * stderr) when no child could be started. */
bool dtc_start(dtc *c, void (*fn)(void *arg, int fd), void *arg);
/* The child's next message (malloc'd, *len bytes): 1; 0 when it ended
 * without one more (reaped, c->status its wait status); -1 when none came
 * within secs seconds (its group killed and reaped). */
int dtc_next(dtc *c, double secs, char **msg, size_t *len);
/* Ends c: kills its group where it still runs, reaps it, removes its
 * folder. */
void dtc_end(dtc *c);
/* In the child: one message of n bytes to fd; the child exits when the
 * parent is gone. */
void dtc_send(int fd, const void *p, size_t n);
/* In the child: where DIFFTEST_HANG is "WHERE:KERNEL" for this where and
 * kernel, hangs as an implementation can (a grandchild `sleep` in the
 * group, then waiting forever): the test of the time limit. */
void dtc_hang_hook(const char *where, const char *kernel);

#endif
