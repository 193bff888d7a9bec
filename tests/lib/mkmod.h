/* Building bc_modules in C, for tests that must not depend on the
 * assembler. Types are given by name ("float4"); registers are returned as
 * their index; control-flow helpers patch the jump targets.
 *
 *   mk_mod *b = mk_new("t.clasm");
 *   mk_kernel(b, "inc");
 *   uint32_t p = mk_pparam(b, "p", BC_GLOBAL, "uint"), i = mk_val(b, "i", "uint");
 *   MK(b, BC_GID_B32, 1, i, 0);
 *   ...
 *   bc_module *m = mk_finish(b);   (bc_free(m) and free(m) when done)
 *
 * Misuse (operand count, bad type name) aborts: it is a bug in a test. */
#ifndef CLVM_MKMOD_H
#define CLVM_MKMOD_H

#include <stdint.h>

#include "vm/bytecode.h"

typedef struct mk_mod mk_mod;

mk_mod *mk_new(const char *source);
void mk_kernel(mk_mod *b, const char *name);

/* Registers of the current kernel. */
uint32_t mk_val(mk_mod *b, const char *name, const char *type);
uint32_t mk_ptr(mk_mod *b, const char *name, enum bc_space sp,
                const char *pointee);
uint32_t mk_param(mk_mod *b, const char *name, const char *type);
uint32_t mk_pparam(mk_mod *b, const char *name, enum bc_space sp,
                   const char *pointee);
uint32_t mk_array(mk_mod *b, const char *name, enum bc_space sp,
                  const char *type, uint32_t count);
/* Constants: bytes in host order (the register's value), every component
 * set to v (integer types) or to f (floating types). */
uint32_t mk_kbytes(mk_mod *b, const char *type, const void *bytes);
uint32_t mk_ki(mk_mod *b, const char *type, int64_t v);
uint32_t mk_kf(mk_mod *b, const char *type, double f);

/* Instructions go at the current line (0 until mk_line). */
void mk_line(mk_mod *b, uint32_t line);
uint32_t mk_pc(const mk_mod *b);   /* word pc of the next instruction */
/* One instruction: ops[] are the operand words in OPERANDS order; a 'z'
 * operand is one 64-bit value. */
void mk_ins(mk_mod *b, enum bc_op op, unsigned n, unsigned flags,
            const uint64_t *ops, unsigned nops);
#define MK(b, op, n, ...)                                                 \
    mk_ins(b, op, n, 0, (const uint64_t[]){__VA_ARGS__},                  \
           sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))
#define MKF(b, op, n, flags, ...)                                         \
    mk_ins(b, op, n, flags, (const uint64_t[]){__VA_ARGS__},              \
           sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))
#define MK0(b, op) mk_ins(b, op, 1, 0, NULL, 0)

/* Structured control flow; j operands are filled in. ifop is BC_IF_Bx,
 * brkop BC_BRKIF_Bx. */
void mk_if(mk_mod *b, enum bc_op ifop, uint32_t c);
void mk_else(mk_mod *b);
void mk_endif(mk_mod *b);
void mk_loop(mk_mod *b);
void mk_endloop(mk_mod *b);
void mk_brkif(mk_mod *b, enum bc_op brkop, uint32_t c, int negate);

/* The finished module (malloc'd); b is freed. Every kernel gets a final
 * RET. */
bc_module *mk_finish(mk_mod *b);

/* The ty_t of a type name (aborts if it is none). */
ty_t mk_type(const char *name);

#endif
