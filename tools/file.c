/* Whole-file input for the clvm commands (tools/file.h). */
#include "tools/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void *file_read(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        return NULL;
    /* Only a regular file or a pipe ends: a device (/dev/zero, a
     * terminal) may never, and a directory reads as an error. Checked on
     * the stream opened, so a path that changes meanwhile cannot slip by;
     * standard input is taken as it is. */
    if (f != stdin) {
        struct stat st;
        int err = fstat(fileno(f), &st) ? errno
                  : S_ISDIR(st.st_mode) ? EISDIR
                  : !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) ? EINVAL
                                                                    : 0;
        if (err) {
            fclose(f);
            errno = err;
            return NULL;
        }
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        /* Doubling stops at 1 TiB: past that the file cannot be a kernel
         * or a buffer we could run. */
        char *nb = cap < ((size_t)1 << 40) ? realloc(buf, cap *= 2) : NULL;
        if (!nb)
            free(buf);
        buf = nb;
    }
    int err = ferror(f) ? errno ? errno : EIO : 0;
    if (f != stdin)
        fclose(f);
    if (err || !buf) {
        free(buf);
        errno = err ? err : ENOMEM;
        return NULL;
    }
    *len = n;
    return buf;
}

char *file_with_ext(const char *path, const char *ext)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path)
                                                 : strlen(path);
    char *out = malloc(stem + strlen(ext) + 1);
    if (out) {
        memcpy(out, path, stem);
        strcpy(out + stem, ext);
    }
    return out;
}
