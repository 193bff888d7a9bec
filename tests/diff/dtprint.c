/* printf output in the difftest: PoCL's standard output captured around
 * a run and split by kernel, and two outputs compared line by line, each
 * work-item's lines in order, the work-items in gid order. */
#include "tests/diff/dtprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    unsigned long gid;
    size_t at;          /* the line's place in its output: order kept */
    const char *s;
    size_t n;
} line;

int dtp_capture_begin(void)
{
    fflush(stdout);
    FILE *t = tmpfile();
    int saved = dup(STDOUT_FILENO);
    if (!t || saved < 0 || dup2(fileno(t), STDOUT_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        if (t)
            fclose(t);
        return -1;
    }
    fclose(t); /* standard output holds it open */
    return saved;
}

char *dtp_capture_end(int h)
{
    char *txt = NULL;
    size_t n = 0;
    fflush(stdout);
    if (h >= 0) {
        off_t end = lseek(STDOUT_FILENO, 0, SEEK_END);
        if (end > 0 && lseek(STDOUT_FILENO, 0, SEEK_SET) == 0 && (txt = malloc((size_t)end + 1))) {
            ssize_t r;
            while (n < (size_t)end && (r = read(STDOUT_FILENO, txt + n, (size_t)end - n)) > 0)
                n += (size_t)r;
        }
        dup2(h, STDOUT_FILENO);
        close(h);
    }
    if (!txt)
        txt = malloc(1);
    if (txt)
        txt[n] = 0;
    return txt;
}

char *dtp_lines_of(const char *all, const char *name)
{
    size_t nl = strlen(name), len = 0;
    char *out = malloc(strlen(all) + 1);
    if (!out)
        return NULL;
    for (const char *p = all; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
        if (!strncmp(p, name, nl) && p[nl] == ':') {
            memcpy(out + len, p, n);
            len += n;
        }
        p += n;
    }
    out[len] = 0;
    return out;
}

static int by_gid(const void *a, const void *b)
{
    const line *x = a, *y = b;
    if (x->gid != y->gid)
        return x->gid < y->gid ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* The lines of t, sorted by work-item (malloc'd; *n of them). */
static line *lines_of(const char *t, size_t *n)
{
    size_t cap = 1;
    for (const char *p = t; *p; p++)
        cap += *p == '\n';
    line *l = malloc(cap * sizeof *l);
    *n = 0;
    if (!l)
        return NULL;
    for (const char *p = t; *p && *n < cap;) {
        const char *e = strchr(p, '\n'), *c = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        unsigned long gid = c && c < p + len ? strtoul(c + 1, NULL, 10) : 0;
        l[*n] = (line){gid, *n, p, len};
        ++*n;
        p += len + (e != NULL);
    }
    qsort(l, *n, sizeof *l, by_gid);
    return l;
}

bool dtp_differ(const char *a, const char *b, size_t *gid, char *msg, size_t cap)
{
    size_t na, nb;
    line *la = lines_of(a ? a : "", &na), *lb = lines_of(b ? b : "", &nb);
    bool differ = !la || !lb;
    size_t i = 0;
    for (; !differ && i < na && i < nb; i++)
        if (la[i].n != lb[i].n || memcmp(la[i].s, lb[i].s, la[i].n)) {
            differ = true;
            break;
        }
    if (!differ && na != nb)
        differ = true;
    if (differ && la && lb) {
        *gid = i < na ? la[i].gid : i < nb ? lb[i].gid : 0;
        snprintf(msg, cap, "printf output, line %zu of %zu | %zu: '%.*s' | '%.*s'", i + 1, na, nb,
                 i < na ? (int)la[i].n : 0, i < na ? la[i].s : "", i < nb ? (int)lb[i].n : 0,
                 i < nb ? lb[i].s : "");
    }
    free(la);
    free(lb);
    return differ;
}
