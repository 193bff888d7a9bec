/* The .bc file: reading, writing and verifying clvm modules.
 *
 * docs/bytecode.md gives the byte layout and every rule the verifier
 * enforces. A module that bc_read or bc_verify accepts is safe to run: the
 * interpreter checks nothing at run time but memory bounds, alignment and
 * barriers. Every failure fills err (when errlen > 0) with one line naming
 * the byte offset, or the kernel, pc and operand, and what was expected. */
#ifndef CLVM_BCFILE_H
#define CLVM_BCFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/bytecode.h"

#define BC_MAGIC "CLVMBC\0"   /* 8 bytes with the string's own NUL */
enum { BC_FORMAT_VERSION = 1 };

/* Sections: X(ENUM, id, name). Unknown ids with BC_SEC_OPTIONAL set are
 * skipped; any other unknown id makes the file unreadable. */
#define BC_SECTIONS(X)                  \
    X(STRINGS, 1, "strings")            \
    X(CONSTS,  2, "consts")             \
    X(KERNELS, 3, "kernels")            \
    X(CODE,    4, "code")               \
    X(LINES,   5, "lines")              \
    X(EXTERNS, 6, "externs")            \
    X(BYVAL,   7, "byval")            \
    X(GROUPSIZE, 8, "groupsize")
enum bc_section {
#define X(E, id, name) BC_SEC_##E = id,
    BC_SECTIONS(X)
#undef X
};
#define BC_SEC_OPTIONAL 0x80000000u

/* Limits the verifier enforces, so a file cannot make the VM allocate
 * without bound. */
#define BC_MAX_SECTIONS 64
#define BC_MAX_REGS     65536u
#define BC_MAX_LOCAL    (64u << 20)   /* local array bytes per work-group */
#define BC_MAX_PRIVATE  (1u << 20)    /* private array bytes per work-item */

/* Serialises m into a malloc'd buffer. Returns 0, or -1 when m is
 * inconsistent (a count without its array) or too big for the format, or
 * memory ran out. m need not be verified. */
int bc_write(const bc_module *m, uint8_t **buf, size_t *len);

/* Parses and verifies buf into m (overwritten). Returns 0, or -1 with m
 * emptied (bc_free'd) and the reason in err. */
int bc_read(const uint8_t *buf, size_t len, bc_module *m, char *err,
            size_t errlen);

/* bc_read of a whole file, and bc_write to one; messages start "path: ". */
int bc_load_file(const char *path, bc_module *m, char *err, size_t errlen);
int bc_save_file(const char *path, const bc_module *m, char *err,
                 size_t errlen);

/* What verifying a kernel finds out, for the interpreter's allocations. */
typedef struct {
    uint32_t depth;          /* deepest nesting of IF/ELSE and LOOP blocks */
    uint32_t loop_depth;     /* deepest nesting of LOOP blocks alone */
    uint64_t local_bytes;    /* local arrays, per work-group */
    uint64_t private_bytes;  /* private arrays, per work-item */
    bool barrier;            /* has a BARRIER instruction */
} bc_facts;

/* Verifies a whole in-memory module. Returns 0 or -1 (err filled). */
int bc_verify(const bc_module *m, char *err, size_t errlen);

/* Verifies kernel k of m (and what of the module it relies on) and, when
 * f is not NULL, fills f. For a module that passed bc_verify it cannot
 * fail; the interpreter calls it for the facts. */
int bc_verify_kernel(const bc_module *m, uint32_t k, bc_facts *f, char *err,
                     size_t errlen);

/* Is reqd (a kernel's reqd_work_group_size, section 'groupsize') all 0
 * (none), or all at least 1 with at most VM_MAX_GROUP work-items? */
bool bc_groupsize_ok(const uint32_t reqd[3]);

/* The name of a section id ("code"), or NULL if unknown. */
const char *bc_section_name(uint32_t id);

/* "global", "constant", "local", "private"; "?" if out of range. */
const char *bc_space_name(unsigned space);

#endif
