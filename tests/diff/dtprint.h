/* printf output in the difftest (docs/difftest.md): what a run printed,
 * captured, split by kernel, and compared work-item by work-item. */
#ifndef CLVM_DIFF_DTPRINT_H
#define CLVM_DIFF_DTPRINT_H

#include <stdbool.h>
#include <stddef.h>

/* Standard output into a temporary file from here (fflushed first):
 * a handle for dtp_capture_end, -1 if it cannot be. */
int dtp_capture_begin(void);
/* Standard output back; what was written meanwhile (malloc'd, "" when
 * nothing or h is -1). */
char *dtp_capture_end(int h);
/* The lines of all that begin "NAME:" (malloc'd). */
char *dtp_lines_of(const char *all, const char *name);
/* Do two outputs differ, every line being "KERNEL:GID:text"? The lines
 * are compared work-item by work-item, each work-item's in the order
 * printed (the order of the work-items is the implementation's). On a
 * difference, *gid is the first work-item's and msg says which lines. */
bool dtp_differ(const char *a, const char *b, size_t *gid, char *msg, size_t cap);

#endif
