/* Whole-file input for the clvm commands (tools/file.h). */
#include "tools/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *file_read(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        return NULL;
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
