/* Host calls: the --native libraries a user names and the binding of a
 * module's extern declarations to their functions (docs/security.md).
 *
 * Which host functions a kernel may call is the user's decision, never the
 * bytecode's: an extern is bound only to a function that one of the
 * libraries opened with vm_natives_open itself defines (not one it merely
 * links to, such as libc's), and a module with an extern that none defines
 * is refused by vm_natives_bind. The libffi call interface of each extern
 * is prepared once, at bind time.
 *
 * A tool: n = vm_natives_new(); vm_natives_open(n, "lib.so", ...) for each
 * --native; vm_natives_bind(n, m, ...) after loading the module; then
 * nd.natives = n for vm_run; vm_natives_free(n) after the last run (the
 * libraries stay open until then). A module without externs binds to any
 * vm_natives, even an empty one; vm_run of a module with externs needs
 * nd.natives bound to that very module (else trap ARGS). */
#ifndef CLVM_NATIVE_H
#define CLVM_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "vm/bytecode.h"

typedef struct vm_natives vm_natives;

/* NULL if out of memory. */
vm_natives *vm_natives_new(void);

/* dlopens path (RTLD_NOW | RTLD_LOCAL) and makes the functions it defines
 * callable. Returns 0, or -1 with err naming the library and dlerror(). */
int vm_natives_open(vm_natives *n, const char *path, char *err,
                    size_t errlen);

/* Binds every extern of m (replacing an earlier binding). Returns 0, or -1
 * with err naming the first extern that no opened library defines, or
 * whose signature libffi cannot take. m must stay alive while bound. */
int vm_natives_bind(vm_natives *n, const bc_module *m, char *err,
                    size_t errlen);

/* Closes the libraries. NULL is fine. */
void vm_natives_free(vm_natives *n);

#endif
