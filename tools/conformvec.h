/* Reader of the conformance vector format (docs/conform.md):
 *
 *   op <TAB> src_type <TAB> arg <TAB> src_hex <TAB> expect_hex <TAB> class
 *
 * one case a line, '#' lines are comments. The reader parses, validates and
 * compares; it never evaluates a built-in (the unit test and `clvm conform`
 * do that, each its own way).
 *
 * Bytes are as in the file: memory order, little-endian elements. Blank
 * lines are skipped; a trailing CR (CRLF files) and a missing final
 * newline are fine. Hex may be upper or lower case. */
#ifndef CLVM_CONFORMVEC_H
#define CLVM_CONFORMVEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stdlib/builtin.h"
#include "stdlib/types.h"

enum vec_class {
    VEC_DEFINED,   /* defined */
    VEC_IMPL,      /* impl:<device> */
    VEC_DISAGREES  /* <device>-disagrees */
};

/* One case. Pointers stay valid until the next vec_next or vec_close. */
typedef struct {
    const char *file;
    unsigned long line;    /* 1-based */
    const char *comment;   /* the last comment line before the case, after
                              '#' and leading blanks; "" if none yet. (A
                              comment applies to the cases after it, e.g.
                              one Wasm assertion listed under two names.) */
    const char *opname;    /* the op column as written */
    bi_desc op;            /* parsed; passes bi_check */
    ty_t src;              /* src_type */
    bool has_arg;          /* arg column is a number (loads, stores) */
    uint64_t arg;          /* the offset, when has_arg */
    const uint8_t *src_bytes;
    size_t src_len;
    const uint8_t *expect; /* '?' nibbles read as 0 */
    const uint8_t *care;   /* per byte: bits that must match (0xff, 0xf0,
                              0x0f or 0; a '?' nibble clears its 4 bits) */
    size_t expect_len;
    enum vec_class cls;
    const char *cls_name;  /* the class column as written */
    const char *device;    /* the <device> of impl:/-disagrees, else "" */
} vec_case;

typedef struct vec_reader vec_reader;

/* Opens path; NULL when that fails (errno says why). */
vec_reader *vec_open(const char *path);
/* Reads an already open stream, named name in messages; the caller keeps
 * ownership of f (vec_close does not close it). */
vec_reader *vec_open_stream(FILE *f, const char *name);
void vec_close(vec_reader *r);

/* The next case: 1 and *c filled, 0 at the end, -1 for a malformed line
 * (vec_error says "file:line: what is wrong"). Reading may go on after -1:
 * the next call starts at the following line. */
int vec_next(vec_reader *r, vec_case *c);
const char *vec_error(const vec_reader *r);

/* Does got (expect_len bytes, memory order) satisfy c by the README's
 * rules? Bit-exact except '?' nibbles; where the result is floating
 * (convert_ to half/float/double, vload_half results) a fully specified
 * expected NaN element matches any NaN; vstore(a)_half compares the buffer
 * as halves, an expected NaN half matching any NaN half. */
bool vec_compare(const vec_case *c, const uint8_t *got);

/* n bytes as lowercase hex into out (2n+1 chars), '?' for the nibbles
 * care (may be NULL) leaves out; returns out. */
char *vec_hex(char *out, const uint8_t *b, const uint8_t *care, size_t n);

#endif
