/* clvm repl: the state one session shares between its files, which call
 * each other downwards only:
 *
 *   cmd_repl.c   options, reading lines (libedit), completion, the command
 *                table and help; a session as a library (repl_init,
 *                repl_exec, repl_fini: what a harness drives)
 *   repl_eval.c  expressions: evaluation, let, bits, compare, profile
 *   repl_step.c  a kernel: loading, NDRange and arguments, breakpoints,
 *                run/step/next/continue/watch
 *   repl_view.c  what the stepping shows: print, info, x, list
 *   repl_core.c  what they share: messages, notes, the session and where
 *                it stopped
 *   repl_host.c  above them all: a session on a kernel a host program
 *                launches (clvm exec --break, through tools/ocl/)
 *
 * The kernel runs under the VM's debugger (vm/debug.h), which steps it the
 * way vm_run runs it; the REPL only reads and steps. */
#ifndef CLVM_REPL_H
#define CLVM_REPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/bytecode.h"
#include "vm/debug.h"
#include "vm/native.h"
#include "stdlib/types.h"
#include "vm/vm.h"

/* X(name, arguments, one-line summary, more help or "") */
#define REPL_COMMANDS(X)                                                     \
    X(help, "[COMMAND]", "list the commands, or describe one",              \
      "Without an argument: every command and the exit status.")            \
    X(eval, "EXPR", "evaluate an expression (also: a line that starts "     \
      "with no command)",                                                   \
      "An OpenCL C expression over literals and let names: built-in "       \
      "calls,\nvector literals, casts, operators. Shows the typed value "    \
      "and its bits\nin hex, and a note when the result is "                 \
      "implementation-defined or\nundefined.")                              \
    X(let, "NAME = EXPR", "evaluate EXPR and keep it as NAME",              \
      "NAME can be used in later expressions; `let` alone lists them.")     \
    X(bits, "EXPR", "the fields of a value: sign, exponent, mantissa",      \
      "Per component: for half, float and double the sign, exponent and\n"   \
      "mantissa fields with what they mean; for integers the bits.")        \
    X(compare, "EXPR", "evaluate EXPR under every profile, side by side",   \
      "Components where the profiles disagree are marked with '*', and\n"    \
      "the notes say why.")                                                 \
    X(profile, "[NAME]", "show or set the device profile",                  \
      "The profile decides implementation-defined results (clvm, strict,\n"  \
      "nvidia, pocl); it applies to evaluation and to kernel runs.")        \
    X(load, "FILE [CLANG OPTIONS]", "load a .cl, .spv, .clasm or .bc "      \
      "module", "A .cl file is compiled with the options given (-DN=4 ...),\n"\
      "as clvm run compiles it.")                      \
    X(kernel, "NAME", "choose the kernel to run", "")                       \
    X(global, "G[,G[,G]]", "the global size (as clvm run --global)", "")    \
    X(local, "L[,L[,L]]", "the work-group size (as --local)", "")           \
    X(offset, "O[,O[,O]]", "the global offset (as --offset)", "")           \
    X(warp, "W", "work-items run in lockstep, 1..64 (as --warp)", "")       \
    X(arg, "NAME=VALUE", "a kernel argument (as clvm run --arg)",           \
      "VALUE: a literal for a value parameter, @FILE or zeros:BYTES for a\n" \
      "buffer, local:BYTES for local memory. Buffers are read again at\n"    \
      "each `run`.")                                                        \
    X(break, "[FILE:]LINE|KERNEL", "stop at a source line, or at each "    \
      "warp's start", "FILE: the loaded file (its path or its name alone),\n" \
      "as in break saxpy.cl:7.")                                            \
    X(delete, "", "remove every breakpoint and watch", "")                  \
    X(watch, "REG", "stop when register REG changes", "")                   \
    X(run, "", "start the kernel from the beginning", "")                   \
    X(step, "[N]", "run N source lines (default 1)", "")                    \
    X(stepi, "[N]", "run N instructions (default 1)", "")                   \
    X(next, "", "run to the next source line", "")                          \
    X(continue, "", "run to a breakpoint, a watch, a trap or the end", "")  \
    X(list, "[LINE]", "source around the current line", "")                 \
    X(print, "REG [as TYPE|bits|all]", "a register of the current "        \
      "work-item",                                                          \
      "as TYPE: the same bytes as any type of the same size (a float4 as\n"  \
      "uint4 or uchar16); bits: its fields, as the bits command shows\n"    \
      "them; all: every work-item of the warp, with the active mask. A let\n"\
      "name (no register has it): as TYPE is as_TYPE(NAME). While stopped,\n"\
      "expressions can use the kernel's registers (the focused work-item's\n"\
      "values): v * 2.0f, as_uint4(v).")                                    \
    X(info, "registers|breakpoints", "every register of the current "       \
      "work-item, or the breakpoints", "")                                  \
    X(x, "BUFFER[+OFFSET][:hex] [TYPE[:hex]] [COUNT]", "memory as typed elements", \
      "OFFSET and COUNT count elements of TYPE (default: the pointee type,\n"\
      "COUNT 1); :hex prints each element's bits, as --print NAME:hex does.")\
    X(workitem, "ID[,ID[,ID]]", "whose view print, info and x show",        \
      "The global id; the default is the first work-item.")                 \
    X(quit, "", "leave", "")

typedef struct repl repl;

enum {
#define X(name, a, s, h) RC_##name,
    REPL_COMMANDS(X)
#undef X
    RC_COUNT
};

typedef struct {
    char *name;
    ty_t t;
    uint64_t bits[TY_MAXLANES];
} repl_let;

/* The stepping session of the loaded kernel. */
typedef struct {
    vm_debug *d;           /* the run, from `run` until the session ends */
    vm_arg *args;
    bool started, done, trapped;
    vm_trap trap;          /* why the run could not start */
} repl_sess;

struct repl {
    bool tty, color, echo;
    int errors;            /* commands that failed */
    int profile;           /* enum prof_id */
    repl_let *lets;
    size_t nlets;

    char *file;            /* the module loaded, if any */
    bc_module m;
    bool loaded;
    uint32_t ki;
    char **src;            /* its source lines (a .clasm) */
    size_t nsrc;
    char *global, *local, *offset;
    vm_ndrange nd;
    char **argtext;        /* per parameter: NAME=VALUE, or NULL */
    vm_natives *natives;

    uint32_t *breaks;      /* source lines */
    size_t nbreaks;
    bool break_kernel;
    int64_t watch;         /* register, or -1 */
    uint8_t *watched;      /* its bytes when last looked at */
    uint64_t focus[3];     /* the work-item shown */

    repl_sess s;

    /* clvm exec --break: the arguments of the host program's launch, each
     * run stepping a copy of them (NULL: the REPL's own, from arg); leave
     * is set when the session is to give the launch back to the host. */
    const vm_arg *host;
    bool leave;

    /* Asked before each command runs (NULL: never): true skips it, as if
     * it had not been typed. cmd is its RC_ index (RC_eval for a line
     * that is an expression), args its text after the command word. For
     * a harness that bounds the work an input may ask for
     * (tests/fuzz/fuzz_repl.c). */
    bool (*veto)(repl *r, int cmd, const char *args);
};

/* ---- cmd_repl.c: a session without a terminal (clvm repl runs one) ---- */

/* A fresh session: nothing loaded, no watch, not a terminal, no colour,
 * an empty table of natives. False when out of memory. */
bool repl_init(repl *r);
/* Runs one line as typed at the prompt: a comment, or commands ended by
 * ';' (the line is written to). True when it asked to quit. */
bool repl_exec(repl *r, char *line);
/* Frees all the session holds; repl_init starts another. */
void repl_fini(repl *r);
/* Reads lines from in (a terminal: with line editing) and runs them until
 * quit, a command that leaves, or the end of the input. */
void repl_loop(repl *r, FILE *in);

/* One command each (args: the text after the command word, trimmed). */
#define X(name, a, s, h) int rc_##name(repl *r, char *args);
REPL_COMMANDS(X)
#undef X

/* ---- repl_core.c ---- */

/* Messages: err counts a failed command; both flush stdout first, so a
 * transcript keeps its order. */
int repl_err(repl *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void repl_color(const repl *r, const char *sgr);   /* "1;31", or "0" */
/* The notes of enum note_id bits, raised at line (0: no line). */
void repl_notes(repl *r, unsigned notes, uint32_t line);

/* Ends the running session, if any. */
void repl_sess_end(repl *r);
/* The run of a running session, or NULL (with a message unless quiet). */
vm_debug *repl_dbg(repl *r, bool quiet);
/* The focused work-item's lane in the current warp, or -1. */
int repl_lane(const repl *r);
/* Register called name[0..len) of the current kernel, or -1. */
int64_t repl_reg(const repl *r, const char *name, size_t len);
/* Completion: the i-th register name of the kernel (NULL: a temporary). */
const char *repl_reg_name(const repl *r, uint32_t i);

/* "FILE:LINE: source", the warp, and the instruction at the current pc. */
void repl_where(repl *r);
/* The instruction at pc, or (whole_line) the instructions of its line
 * around it, pc's marked. */
void repl_show_ins(repl *r, uint32_t pc, bool whole_line);

/* ---- the others ---- */

void repl_lets_free(repl *r);                          /* repl_eval.c */
void repl_unload(repl *r);                             /* repl_step.c */
int repl_load(repl *r, const char *path);              /* repl_step.c */
/* Loads a copy of module m (named file, with source text src or NULL)
 * and chooses its kernel ki: repl_step.c. */
int repl_adopt(repl *r, const bc_module *m, const char *file,
               const char *src, uint32_t ki);

#endif
