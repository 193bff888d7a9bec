/* The difftest's children: one implementation's run in a forked process of
 * its own process group, read through a pipe with a time limit per step;
 * past it the whole group is killed and reaped and its folder removed. */
#include "tests/diff/dtchild.h"

#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static char root[512];   /* every child's folder is in it */
static pid_t owner;      /* the process that made root */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void rm_tree(const char *path)
{
    if (*path)
        nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void rm_root(void)
{
    if (getpid() == owner)
        rm_tree(root);
}

double dtc_limit(void)
{
    const char *e = getenv("DIFFTEST_TIMEOUT");
    if (!e || !*e)
        return 60;
    char *end;
    double v = strtod(e, &end);
    if (*end || !(v > 0) || v > 1e6) {
        fprintf(stderr, "difftest: DIFFTEST_TIMEOUT=%s: not a number of seconds "
                "(0 < s <= 1e6)\n", e);
        exit(2);
    }
    return v;
}

static bool make_root(void)
{
    if (*root)
        return true;
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/difftest.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        fprintf(stderr, "difftest: cannot make %s: %s\n", root, strerror(errno));
        *root = 0;
        return false;
    }
    owner = getpid();
    atexit(rm_root);
#ifdef __linux__
    /* a killed child's own children come back to be reaped here */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    return true;
}

bool dtc_start(dtc *c, void (*fn)(void *arg, int fd), void *arg)
{
    int p[2];
    c->pid = 0;
    c->fd = -1;
    c->status = 0;
    if (!make_root())
        return false;
    int n = snprintf(c->dir, sizeof c->dir, "%s/c.XXXXXX", root);
    if (n < 0 || (size_t)n >= sizeof c->dir) {
        fprintf(stderr, "difftest: the scratch folder's path is too long\n");
        return false;
    }
    if (!mkdtemp(c->dir) || pipe(p)) {
        fprintf(stderr, "difftest: cannot prepare a child: %s\n", strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "difftest: cannot fork: %s\n", strerror(errno));
        close(p[0]), close(p[1]);
        rm_tree(c->dir);
        return false;
    }
    if (pid == 0) {
        setpgid(0, 0);
        close(p[0]);
        setenv("TMPDIR", c->dir, 1);
        setenv("POCL_CACHE_DIR", c->dir, 1);
        fn(arg, p[1]);
        fflush(stdout);
        _exit(0);
    }
    setpgid(pid, pid);   /* as the child does: whichever comes first */
    close(p[1]);
    c->pid = pid;
    c->fd = p[0];
    return true;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* n bytes into p before the deadline: 1, 0 at the end of the pipe, -1 late. */
static int read_by(int fd, void *p, size_t n, double deadline)
{
    size_t got = 0;
    while (got < n) {
        double left = deadline - now();
        if (left <= 0)
            return -1;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r = poll(&pf, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue;   /* the deadline is checked above */
        ssize_t k = read(fd, (char *)p + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        got += (size_t)k;
    }
    return 1;
}

/* Kills c's group (where kill) and reaps c and whatever of its group
 * came back here. */
static void reap(dtc *c, bool kill_it)
{
    if (!c->pid)
        return;
    if (kill_it)
        kill(-c->pid, SIGKILL);
    while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
        ;
    int st;
    if (kill_it)
        while (waitpid(-c->pid, &st, 0) > 0 || errno == EINTR)
            ;
    while (waitpid(-c->pid, &st, WNOHANG) > 0)
        ;
    c->pid = 0;
}

int dtc_next(dtc *c, double secs, char **msg, size_t *len)
{
    *msg = NULL;
    *len = 0;
    if (!c->pid)
        return 0;
    double deadline = now() + secs;
    uint32_t n;
    int r = read_by(c->fd, &n, sizeof n, deadline);
    char *m = r > 0 ? malloc((size_t)n + 1) : NULL;
    if (m)
        r = read_by(c->fd, m, n, deadline);
    if (r > 0 && m) {
        m[n] = 0;
        *msg = m;
        *len = n;
        return 1;
    }
    free(m);
    reap(c, r < 0 || (r > 0 && !m));
    return r < 0 ? -1 : 0;
}

void dtc_end(dtc *c)
{
    reap(c, true);
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    rm_tree(c->dir);
    *c->dir = 0;
}

void dtc_send(int fd, const void *p, size_t n)
{
    uint32_t k = (uint32_t)n;
    const char *parts[2] = {(const char *)&k, p};
    size_t sizes[2] = {sizeof k, n};
    for (int i = 0; i < 2; i++)
        for (size_t done = 0; done < sizes[i];) {
            ssize_t w = write(fd, parts[i] + done, sizes[i] - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(3);   /* the parent is gone */
            done += (size_t)w;
        }
}

void dtc_hang_hook(const char *where, const char *kernel)
{
    const char *e = getenv("DIFFTEST_HANG");
    size_t n = strlen(where);
    if (!e || strncmp(e, where, n) || e[n] != ':' || strcmp(e + n + 1, kernel))
        return;
    if (fork() == 0) {
        execlp("sleep", "sleep", "86399", (char *)NULL);
        _exit(127);
    }
    for (;;)
        pause();
}
