/* `clvm run --json`: the whole outcome of a run as one JSON object on
 * standard output, for tools and graders (docs/json.md gives the schema);
 * the text output stays for people. */
#ifndef CLVM_RUN_JSON_H
#define CLVM_RUN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stdlib/types.h"
#include "vm/bytecode.h"
#include "vm/vm.h"

/* A buffer to report: parameter param, its elements read as type. */
typedef struct {
    uint32_t param;
    ty_t type;
} rj_buf;

typedef struct {
    const char *file;
    const bc_module *m;
    uint32_t kernel;
    uint8_t profile;          /* enum prof_id */
    const vm_arg *args;
    const rj_buf *bufs;
    size_t nbufs;
    const char *out;          /* what the kernel's printf wrote */
    size_t outlen;
    int kind;                 /* vm_run's result: 0 or the trap kind */
    const vm_trap *trap;
    const vm_warnings *warns;
    bool timed;
    double seconds;
    int exit;                 /* the exit status clvm run returns */
} rj_run;

void rj_write(FILE *f, const rj_run *r);

/* A run that never started (usage, input or assembly error). */
void rj_error(FILE *f, const char *file, const char *msg, int exit);

#endif
