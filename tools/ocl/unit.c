/* The private temporary folder an OpenCL C unit is compiled in: its
 * source, and the headers clCompileProgram embeds, at their include names
 * under a folder of their own that clang searches first. */
#include "tools/ocl/ocl.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes n bytes of s to the new file path (not one already there: the
 * first header of a name wins); 0, or 1 with the message in diag. */
static int write_new(const char *path, const char *s, size_t n, FILE *diag)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0 && errno == EEXIST)
        return 0;
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    bool ok = f && fwrite(s, 1, n, f) == n;
    if (f ? fclose(f) : fd >= 0 ? close(fd) : -1)
        ok = false;
    if (!ok)
        fprintf(diag, "error: cannot write the temporary file %s for clang: "
                      "%s\n", path, strerror(errno));
    return !ok;
}

/* An include name clvm can place inside its folder: relative, with no
 * empty, "." or ".." component. */
static bool name_ok(const char *name)
{
    if (!*name || *name == '/')
        return false;
    for (const char *c = name; *c;) {
        size_t l = strcspn(c, "/");
        if (!l || (l == 1 && c[0] == '.') ||
            (l == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        c += l;
        if (*c == '/' && !*++c)
            return false;
    }
    return true;
}

/* The header at dir/h/name, the folders of its name made first. */
static int write_header(const ocl_unit *u, const char *name, cl_program h,
                        FILE *diag)
{
    char path[sizeof u->hdir + 1024];
    if (!name_ok(name) ||
        snprintf(path, sizeof path, "%s/%s", u->hdir, name) >=
            (int)sizeof path) {
        fprintf(diag, "error: the embedded header's include name '%s' is "
                      "not a relative file name clvm can use\n", name);
        return 1;
    }
    for (char *c = path + strlen(u->hdir) + 1; (c = strchr(c, '/')); c++) {
        *c = 0;
        int bad = mkdir(path, 0700) && errno != EEXIST;
        *c = '/';
        if (bad) {
            fprintf(diag, "error: cannot make the temporary folder for "
                          "header '%s': %s\n", name, strerror(errno));
            return 1;
        }
    }
    return write_new(path, h->source, h->source_len, diag);
}

int ocl_unit_open(ocl_unit *u, cl_program p, cl_uint nh,
                  const cl_program *headers, const char *const *names,
                  FILE *diag)
{
    const char *tmp = getenv("TMPDIR");
    u->dir[0] = 0;
    if (snprintf(u->dir, sizeof u->dir, "%s/clvm-program.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp") >= (int)sizeof u->dir ||
        !mkdtemp(u->dir)) {
        fprintf(diag, "error: cannot make a temporary folder for clang "
                      "under %s\n", tmp && *tmp ? tmp : "/tmp");
        u->dir[0] = 0;
        return 1;
    }
    snprintf(u->path, sizeof u->path, "%s/program.cl", u->dir);
    snprintf(u->hdir, sizeof u->hdir, "%s/h", u->dir);
    if (mkdir(u->hdir, 0700)) {
        fprintf(diag, "error: cannot make the temporary folder %s: %s\n",
                u->hdir, strerror(errno));
        return 1;
    }
    int r = write_new(u->path, p->source, p->source_len, diag);
    for (cl_uint i = 0; i < nh && !r; i++)
        r = write_header(u, names[i], headers[i], diag);
    return r;
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void ocl_unit_close(ocl_unit *u)
{
    if (u->dir[0])
        nftw(u->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    u->dir[0] = 0;
}
