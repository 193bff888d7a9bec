/* The clvm module: what the assembler produces, the .bc file holds, the
 * verifier checks and the interpreter runs. docs/bytecode.md gives the file
 * layout; this header gives the in-memory form and the opcode table.
 *
 * Code is a stream of 32-bit words per kernel. Each instruction is a header
 * word followed by the operand words its opcode's OPERANDS string lists:
 *
 *    31      24 23      16 15                0
 *   +----------+----------+-------------------+
 *   |  flags   |    n     |      opcode       |   header
 *   +----------+----------+-------------------+
 *   |              operand word               |   x strlen(OPERANDS),
 *   +-----------------------------------------+   z takes two words
 */
#ifndef CLVM_BYTECODE_H
#define CLVM_BYTECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stdlib/types.h"

/* Operations (one per row of opcodes.def) ... */
enum bc_base {
#define OP(NAME, CLASS, OPS, TYPES, PRINT, SYN) BCB_##NAME,
#include "vm/opcodes.def"
#undef OP
    BCB_COUNT
};

/* ... and opcodes: one per operation and element type of its class. */
enum bc_op {
#define XV(NAME, SUF, TY) BC_##NAME##SUF,
#include "vm/opvariants.inc"
#undef XV
    BC_NOPS
};

typedef struct {
    const char *name;     /* "ADD" */
    const char *operands; /* "dab" */
    const char *types;    /* "TTT" */
    const char *synopsis;
} bc_baseinfo;

typedef struct {
    const char *name;     /* "ADD_F32" */
    uint8_t base;         /* enum bc_base */
    uint8_t elem;         /* enum ty_scalar of the variant */
} bc_opinfo;

extern const bc_baseinfo bc_bases[BCB_COUNT];
extern const bc_opinfo bc_ops[BC_NOPS];

#define BC_HDR(op, n, flags) \
    ((uint32_t)(op) | (uint32_t)(n) << 16 | (uint32_t)(flags) << 24)
#define BC_OPCODE(w) ((w) & 0xffffu)
#define BC_N(w)      (((w) >> 16) & 0xffu)
#define BC_FLAGS(w)  ((w) >> 24)

/* n is the component count (1, 2, 3, 4, 8, 16) for ops whose TYPES have
 * T/M/U/K, and for AS, CVT and VLDH (the destination's count); every other
 * instruction has n = 1. Flags hold only the bits the op uses (below).
 * A z operand (SWZ/SWW) is two words, low word first; nibble k (bits
 * 4k..4k+3) is the component index for component k < n, the other nibbles
 * are 0. A register with init BC_INIT_NONE has arg 0. */

/* Instruction flags. */
/* An l operand (CALL, CALLV, PRINTF) is a list of BC_FLAGS(header)
 * register words, so those ops have no flag bits. */
enum {
    BC_F_ALIGNED = 1 << 0,  /* VLDH/VSTH: the vloada/vstorea form */
    BC_F_NOT     = 1 << 1,  /* BRKIF: break unless c */
    BC_F_RND     = 3 << 2,  /* VSTH: enum rnd in bits 2-3 */
    BC_F_RND_SHIFT = 2,
    /* ADD/SUB/MUL/NEG _B variants: the operands are signed integers, so
     * overflow is undefined (NOTE_OVERFLOW). The result is the same
     * wrapped bits either way: only strict and --warn-impl look. */
    BC_F_SIGNED  = 1 << 4,
    BC_F_SECOND  = 1 << 5,  /* MATHS: the pointer output's value */
};

/* BARRIER's immediate. */
enum { BC_FENCE_LOCAL = 1, BC_FENCE_GLOBAL = 2 };

/* The t word of CVT: destination and source scalar, _sat, the resolved
 * rounding mode, and whether the name spelled it (so dis prints the name
 * the source used and the bytes round-trip). */
#define BC_CVT(dst, src, sat, rnd, spelled)                               \
    ((uint32_t)(dst) | (uint32_t)(src) << 8 | (uint32_t)(sat) << 16 |     \
     (uint32_t)(rnd) << 17 | (uint32_t)(spelled) << 19)
#define BC_CVT_DST(t)     ((t) & 0xffu)
#define BC_CVT_SRC(t)     (((t) >> 8) & 0xffu)
#define BC_CVT_SAT(t)     (((t) >> 16) & 1u)
#define BC_CVT_RND(t)     (((t) >> 17) & 3u)
#define BC_CVT_SPELLED(t) (((t) >> 19) & 1u)

/* Address spaces of pointers. */
#define BC_SPACES(X) X(GLOBAL, global) X(CONSTANT, constant) \
                     X(LOCAL, local) X(PRIVATE, private)
enum bc_space {
#define X(E, n) BC_##E,
    BC_SPACES(X)
#undef X
};

/* A register: a typed vector per work-item, or a pointer. */
enum bc_regkind {
    BC_REG_VALUE,   /* a value of type `type` */
    BC_REG_PTR,     /* pointer to `type` in `space` */
};

/* How a register starts: undefined (zero), from a kernel argument, from the
 * constant pool, or as a local/private array the pointer register names. */
enum bc_init {
    BC_INIT_NONE,
    BC_INIT_PARAM,  /* arg = parameter index; a scalar param broadcasts */
    BC_INIT_CONST,  /* arg = byte offset in the constant pool */
    BC_INIT_ARRAY,  /* pointer to a local/private array of arg elements */
};

typedef struct {
    uint32_t name;    /* offset into the string table */
    ty_t type;        /* value type, or the pointee type */
    uint8_t kind;     /* enum bc_regkind */
    uint8_t space;    /* enum bc_space, pointers only */
    uint8_t init;     /* enum bc_init */
    uint8_t flags;    /* BC_REGF_* */
    uint32_t arg;
} bc_reg;

enum { BC_REGF_TEMP = 1, BC_REGF_CONSTPTR = 2 /* pointer to const data */ };

/* A struct or union passed to a kernel by value (docs/bytecode.md,
 * "By-value parameters"): the parameter is a `constant` pointer to a copy
 * of the argument's `size` bytes. size 0: an ordinary parameter (then
 * every field is 0). */
typedef struct {
    uint32_t size;    /* bytes, at most BC_MAX_BYVAL */
    uint32_t align;   /* a power of two, at most 128; size a multiple */
    uint32_t type;    /* string: the declared type ("struct foo", "Rec") */
    uint32_t layout;  /* string: its members (vm/layout.h); "": unknown */
} bc_byval;

enum { BC_MAX_BYVAL = 1 << 16 };

/* A parameter of a kernel: names a register. */
typedef struct {
    uint32_t name;
    uint32_t reg;
    bc_byval byval;
} bc_param;

typedef struct {
    uint32_t pc;      /* word index in the kernel's code */
    uint32_t line;    /* source line */
} bc_line;

typedef struct {
    uint32_t name;
    uint32_t nparams, nregs;
    bc_param *params;
    bc_reg *regs;
    uint32_t ncode;
    uint32_t *code;
    uint32_t nlines;
    bc_line *lines;   /* sorted by pc; a pc maps to the last entry <= it */
    uint32_t line;    /* line of the kernel's header */
    uint32_t reqd[3]; /* __attribute__((reqd_work_group_size(X, Y, Z))):
                         the only local size it runs with; 0s: none */
} bc_kernel;

/* An extern declaration: a host function's C signature. Parameters are
 * values of a scalar type or pointers to it; the result is void or a
 * value. Bound at load time to a --native library's function
 * (vm/native.h). */
enum bc_ckind { BC_C_VOID, BC_C_VALUE, BC_C_PTR, BC_C_CPTR /* const T * */ };
typedef struct {
    uint8_t s;        /* enum ty_scalar (not half); 0 for void */
    uint8_t kind;     /* enum bc_ckind */
} bc_ctype;

enum { BC_MAX_CALL_ARGS = 16 };   /* parameters of an extern at most */

typedef struct {
    uint32_t name;    /* the C symbol */
    bc_ctype ret;
    uint32_t nparams;
    bc_ctype *params;
} bc_extern;

typedef struct {
    uint32_t nkernels;
    bc_kernel *kernels;
    uint32_t nexterns;
    bc_extern *externs;
    uint32_t nconst;
    uint8_t *consts;    /* constant pool, little-endian values */
    uint32_t nstrings;
    char *strings;      /* NUL-terminated names; offset 0 is "" */
    uint32_t source;    /* string: the source file name, for messages */
} bc_module;

const char *bc_str(const bc_module *m, uint32_t off);
void bc_free(bc_module *m);

/* Operand word count of an instruction, from its header word; 0 if the
 * opcode is unknown. */
unsigned bc_ins_words(uint32_t header); /* header + operands */

/* Source line of pc in kernel k (0 if none). */
uint32_t bc_line_of(const bc_kernel *k, uint32_t pc);

#endif
