/* The first instruction of an assembled module's first kernel by opcode
 * name, for the unit tests that mutate an instruction and verify. */
#ifndef CLVM_TEST_OPS_H
#define CLVM_TEST_OPS_H

#include <string.h>

#include "vm/bcfile.h"

static inline uint32_t *t_find_op(bc_module *m, const char *name)
{
    bc_kernel *k = &m->kernels[0];
    for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc]))
        if (!strcmp(bc_ops[BC_OPCODE(k->code[pc])].name, name))
            return k->code + pc;
    return NULL;
}

#endif
