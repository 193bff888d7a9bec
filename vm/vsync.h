/* The verifier's rules for the synchronising instructions (vm/vsync.c),
 * private to vm/: verify.c asks, per instruction. */
#ifndef CLVM_VSYNC_H
#define CLVM_VSYNC_H

#include <stddef.h>
#include <stdint.h>

#include "vm/bytecode.h"

/* BARRIER, the fences, ATOM, ACOPY, ACOPYS, WAITEV with n components, their operand registers
 * reg[i] and words word[i]: NULL if they keep the rule, else why not
 * (in buf). */
char *vm_sync_rule(unsigned base, unsigned n,
                   const bc_reg *const *reg, const uint32_t *word,
                   char *buf, size_t len);

#endif
