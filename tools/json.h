/* A streaming JSON writer for the --json output of `clvm run` and
 * `clvm conform`: objects, arrays, strings (escaped as RFC 8259 asks, so
 * any byte a kernel or a file name holds comes out valid) and numbers.
 * Keys are given for members of objects and NULL for array elements; the
 * writer places commas and indents two spaces a level. */
#ifndef CLVM_JSON_H
#define CLVM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { JS_DEPTH = 16 };

typedef struct {
    FILE *f;
    int depth;
    bool more[JS_DEPTH];   /* a member was written at this depth */
    char close[JS_DEPTH];  /* what ends the level: '}' or ']' */
} json;

void js_open(json *j, FILE *f);               /* starts the top object */
void js_close(json *j);                        /* ends it, and the line */
void js_obj(json *j, const char *key);         /* { */
void js_arr(json *j, const char *key);         /* [ */
void js_end(json *j);                          /* } or ], whichever is open */
void js_str(json *j, const char *key, const char *s);
void js_strn(json *j, const char *key, const char *s, size_t n);
void js_u64(json *j, const char *key, uint64_t v);
void js_i64(json *j, const char *key, int64_t v);
void js_f64(json *j, const char *key, double v);   /* nan, inf: null */
void js_bool(json *j, const char *key, bool v);
/* [a, b, c] of three numbers on one line: a work-item id. */
void js_id3(json *j, const char *key, const uint64_t v[3]);

#endif
