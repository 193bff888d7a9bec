/* clvm exec --break: the REPL on a kernel a host program launches
 * (tools/repl_host.c), called by the OpenCL platform (tools/ocl/). */
#ifndef CLVM_REPL_HOST_H
#define CLVM_REPL_HOST_H

#include "vm/bytecode.h"
#include "vm/vm.h"

/* Opens the REPL on kernel k of m, as the host launches it over nd with
 * args (src: the program's source text, or NULL), on the terminal
 * (CLVM_BREAK_FD=IN,OUT, else /dev/tty); returns when the user is done.
 * The REPL steps copies of the buffers: the launch itself runs after. */
void repl_host(const bc_module *m, uint32_t k, const char *src,
               const vm_arg *args, const vm_ndrange *nd);

#endif
