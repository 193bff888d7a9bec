/* The opcode facts the assembler and disassembler derive from
 * vm/opcodes.def: operation variants by element type, their classes, how
 * each prints; and the operation each built-in function runs (asm_fns). */
#include "asm/optab.h"

#include <string.h>

#include "asm/asmint.h"

const asm_fninfo asm_fns[F_COUNT] = {
#define OC3(f, s, u) {f, s, u}
#define X(E, name, nargs, base, mf, oc, sig, doc)                        \
    [F_##E] = {name, nargs, base, mf, oc, sig, doc},
    ASM_FUNCS(X)
#undef X
#undef OC3
};

/* The CLASS column: TC_BITS and TC_ARITH share one handler for signed and
 * unsigned integers (the _B variants). A class missing from TC_CLASSES
 * fails to compile here. */
static const uint8_t classes[BCB_COUNT] = {
#define OP(NAME, CLASS, OPS, TYPES, PRINT, SYN) [BCB_##NAME] = OPC_##CLASS,
#include "vm/opcodes.def"
#undef OP
};

/* The PRINT column: how dis writes each operation. */
static const char *const prints[BCB_COUNT] = {
#define OP(NAME, CLASS, OPS, TYPES, PRINT, SYN) [BCB_##NAME] = PRINT,
#include "vm/opcodes.def"
#undef OP
};

const char *op_print(enum bc_base base)
{
    return (unsigned)base < BCB_COUNT ? prints[base] : "";
}

static const char *const class_names[OPC_COUNT] = {
#define X(C) [OPC_##C] = #C,
    TC_CLASSES(X)
#undef X
};

const char *op_class_name(enum bc_base base)
{
    return (unsigned)base < BCB_COUNT ? class_names[classes[base]] : "?";
}

static bool class_has_bits(enum bc_base base)
{
    return classes[base] == OPC_TC_BITS || classes[base] == OPC_TC_ARITH;
}

bool op_is_single(enum bc_base base)
{
    return classes[base] == OPC_TC_NONE;
}

bool op_is_bits(enum bc_op op)
{
    if ((unsigned)op >= BC_NOPS)
        return false;
    enum bc_base b = bc_ops[op].base;
    return class_has_bits(b) && ty_scalar_kind(bc_ops[op].elem) == 'u';
}

int op_variant(enum bc_base base, enum ty_scalar s)
{
    int same = -1;
    for (int op = 0; op < BC_NOPS; op++) {
        if (bc_ops[op].base != base)
            continue;
        if (op_is_single(base) || bc_ops[op].elem == s)
            return op;
        if (op_is_bits((enum bc_op)op) &&
            ty_scalar_size(bc_ops[op].elem) == ty_scalar_size(s))
            same = op;
    }
    return same;
}

void op_write_md(FILE *out)
{
    fprintf(out, "| operation | variants | operands | types | synopsis |\n"
                 "|---|---|---|---|---|\n");
    for (int b = 0; b < BCB_COUNT; b++) {
        const bc_baseinfo *bi = &bc_bases[b];
        fprintf(out, "| `%s` | ", bi->name);
        size_t nl = strlen(bi->name);
        bool first = true;
        for (int op = 0; op < BC_NOPS; op++) {
            if (bc_ops[op].base != b)
                continue;
            const char *suf = bc_ops[op].name + nl;
            fprintf(out, "%s%s", first ? "" : " ", *suf ? suf : "-");
            first = false;
        }
        fprintf(out, " | `%s` | `%s` | ", *bi->operands ? bi->operands : "-",
                *bi->types ? bi->types : "-");
        /* '|' would end the table cell. */
        for (const char *p = bi->synopsis; *p; p++)
            fputs(*p == '|' ? "\\|" : (char[]){*p, 0}, out);
        fprintf(out, " |\n");
    }
}
