/* Whole-file input for the clvm commands. */
#ifndef CLVM_FILE_H
#define CLVM_FILE_H

#include <stddef.h>

/* Reads all of path ("-": standard input) into a malloc'd buffer, with *len
 * its size. NULL with errno set on failure (EIO for a read error, ENOMEM
 * when it does not fit, EISDIR for a directory, EINVAL for anything else
 * that is neither a regular file nor a pipe: a device such as /dev/zero
 * or a terminal could be read forever). Standard input is read whatever
 * it is. */
void *file_read(const char *path, size_t *len);

/* path with its extension (after the last '.' of the last component)
 * replaced by ext (".bc"), malloc'd; NULL when out of memory. */
char *file_with_ext(const char *path, const char *ext);

#endif
