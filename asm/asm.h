/* The clvm assembler: IR text (docs/ir.md) into a module (vm/bytecode.h).
 *
 * asm_assemble does a whole file. The REPL builds a kernel a line at a
 * time and evaluates expressions inside it with the asm_ctx functions,
 * which share the same lexer, parser, type checker and lowering. */
#ifndef CLVM_ASM_H
#define CLVM_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/bytecode.h"

/* Assembles src[0..len) (need not be NUL-terminated; any bytes). Errors
 * and warnings go to diag (NULL: silent) as "file:line:col: error: ...",
 * the source line and a caret. Returns the number of errors: 0 means out
 * holds a complete module that passes bc_verify (free it with bc_free);
 * otherwise out is left empty. */
int asm_assemble(const char *src, size_t len, const char *filename,
                 bc_module *out, FILE *diag);

/* Whether src[0..len) could be IR at all: some line starts (after blanks)
 * with the word `kernel` or `__kernel`. A README or a data file given
 * where a kernel is expected gets one message instead of an error a line. */
bool asm_has_kernel_line(const char *src, size_t len);

/* Whether name[0..len) is reserved in the IR (a keyword, type, built-in
 * or predefined constant), so it cannot name a register. */
bool asm_is_reserved(const char *name, size_t len);

typedef struct asm_ctx asm_ctx;

/* A module being built, diagnostics to diag. NULL if out of memory. */
asm_ctx *asm_open(const char *filename, FILE *diag);

/* Feeds one source line (no newline). Lines are numbered from 1 in the
 * order fed. The text need not outlive the call. */
void asm_line(asm_ctx *a, const char *line, size_t len);

/* Compiles one expression into a register of the kernel being built (a
 * temporary, or the register itself for a plain name) and returns 0 with
 * *reg and *type set; -1 after reporting an error. The instructions are
 * appended to the kernel's code like a statement's. */
int asm_expr(asm_ctx *a, const char *src, size_t len, uint32_t *reg,
             ty_t *type);

/* Errors reported so far. */
int asm_errors(const asm_ctx *a);

/* Ends the module (reporting unclosed blocks) and, if there were no
 * errors, moves it into out. Returns the error count. */
int asm_finish(asm_ctx *a, bc_module *out);

void asm_close(asm_ctx *a);

/* With fold false, convert_T and as_T of constants are left to the VM
 * instead of being computed by the assembler, so that running the code
 * raises their notes and follows the run's profile (the REPL). */
void asm_set_fold(asm_ctx *a, bool fold);

#endif
