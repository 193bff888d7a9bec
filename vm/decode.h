/* The decoder (decode.c), private to vm/: a kernel of a module turned,
 * once per run, into the vm_prog the dispatch loop runs. */
#ifndef CLVM_DECODE_H
#define CLVM_DECODE_H

#include <stdint.h>

#include "vm/bytecode.h"
#include "vm/vm.h"
#include "vm/warp.h"

/* Decodes kernel k for the resolved range r and arguments (which must
 * outlive the prog). The kernel is checked by the verifier (bc_verify_kernel)
 * first, so that decoding can trust it. Returns NULL with trap filled
 * (ARGS, CODE with the verifier's message, NOMEM). */
vm_prog *vm_prog_new(const bc_module *m, uint32_t k, vm_arg *args,
                     const vm_range *r, vm_trap *trap);
void vm_prog_free(vm_prog *p);

#endif
