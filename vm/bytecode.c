/* The opcode tables generated from vm/opcodes.def (vm/bytecode.h). */
#include "vm/bytecode.h"

#include <stdlib.h>
#include <string.h>

const bc_baseinfo bc_bases[BCB_COUNT] = {
#define OP(NAME, CLASS, OPS, TYPES, PRINT, SYN) [BCB_##NAME] = {#NAME, OPS, TYPES, SYN},
#include "vm/opcodes.def"
#undef OP
};

const bc_opinfo bc_ops[BC_NOPS] = {
#define XV(NAME, SUF, TY) [BC_##NAME##SUF] = {#NAME #SUF, BCB_##NAME, TY},
#include "vm/opvariants.inc"
#undef XV
};

const char *bc_str(const bc_module *m, uint32_t off)
{
    return off < m->nstrings ? m->strings + off : "";
}

unsigned bc_ins_words(uint32_t header)
{
    uint32_t op = BC_OPCODE(header);
    if (op >= BC_NOPS)
        return 0;
    unsigned w = 1;
    for (const char *p = bc_bases[bc_ops[op].base].operands; *p; p++)
        w += *p == 'z' ? 2 : *p == 'l' ? BC_FLAGS(header) : 1;
    return w;
}

uint32_t bc_line_of(const bc_kernel *k, uint32_t pc)
{
    /* Binary search for the last entry at or before pc. */
    uint32_t lo = 0, hi = k->nlines, line = 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->lines[mid].pc <= pc) {
            line = k->lines[mid].line;
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return line;
}

void bc_free(bc_module *m)
{
    for (uint32_t i = 0; i < m->nkernels; i++) {
        bc_kernel *k = &m->kernels[i];
        free(k->params);
        free(k->regs);
        free(k->code);
        free(k->lines);
    }
    free(m->kernels);
    for (uint32_t i = 0; i < m->nexterns; i++)
        free(m->externs[i].params);
    free(m->externs);
    free(m->consts);
    free(m->strings);
    memset(m, 0, sizeof *m);
}
