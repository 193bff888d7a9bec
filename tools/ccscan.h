/* Whether a compilation's result depends only on what the compile cache
 * keys it by (tools/ccscan.c). */
#ifndef CLVM_CCSCAN_H
#define CLVM_CCSCAN_H

#include <stdbool.h>

#include "tools/cccache.h"

/* True if clang, compiling in, reads no file but the source, its embedded
 * headers and its own: every #include of the source and of each header
 * names an embedded header, no option names a file to read or a folder
 * searched before the headers', and nothing asks for the date or time. */
bool ccs_pinned(const ccc_input *in);

#endif
