/* An instruction's operand words by role (vm/opcodes.def's letters),
 * private to vm/: what the decoder and its analyses (decode.c,
 * ptrflow.c) read off the bytecode. */
#ifndef CLVM_OPERANDS_H
#define CLVM_OPERANDS_H

#include <stdint.h>
#include <string.h>

#include "vm/bytecode.h"

typedef struct {
    uint32_t d, a, b, c, p, o, j, i, t;
    uint64_t z;
} operands;

/* The operands of the words w after a header, whose base has letters l
 * (bc_bases[base].operands); a list ('l', last) is not read: its words
 * start at w + strlen(l), its length is the header's flags byte. */
static inline void read_operands(const uint32_t *w, const char *l,
                                 operands *o)
{
    memset(o, 0, sizeof *o);
    for (; *l; l++, w++) {
        switch (*l) {
        case 'd': o->d = *w; break;
        case 'a': o->a = *w; break;
        case 'b': o->b = *w; break;
        case 'c': o->c = *w; break;
        case 'p': o->p = *w; break;
        case 'o': o->o = *w; break;
        case 'j': o->j = *w; break;
        case 'i': o->i = *w; break;
        case 't': o->t = *w; break;
        case 'z': o->z = w[0] | (uint64_t)w[1] << 32; w++; break;
        }
    }
}

/* The instruction at code: its base (enum bc_base), its letters in *l and
 * its operands in *o. */
static inline unsigned read_ins(const uint32_t *code, const char **l,
                                operands *o)
{
    const unsigned base = bc_ops[BC_OPCODE(code[0])].base;
    *l = bc_bases[base].operands;
    read_operands(code + 1, *l, o);
    return base;
}

#endif
