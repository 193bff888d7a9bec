/* Kernel buffers whose pages are in memory already (prefault.c). */
#ifndef CLVM_PREFAULT_H
#define CLVM_PREFAULT_H

#include <stdbool.h>
#include <stddef.h>

/* n zero bytes (at least one allocated), written by up to one thread per
 * core; NULL if out of memory. free() releases them. */
void *pf_zeros(size_t n);

/* file_read (tools/file.h), a large regular file read the same way, by
 * parts in parallel. */
void *pf_file(const char *path, size_t *len);

#endif
