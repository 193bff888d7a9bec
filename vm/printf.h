/* printf format strings as OpenCL C defines them: parsing and checking
 * (the assembler and the verifier, so a module cannot carry a format that
 * was not checked) and formatting one conversion (the interpreter).
 *
 * A conversion is  % [flags] [width] [.precision] [vN] [length] conv :
 * flags - + space # 0; width and precision decimal, at most PF_MAX_WIDTH,
 * or '*' (an int argument before the value: a negative width is the '-'
 * flag and its magnitude, a negative precision none); vN a vector of N = 2, 3, 4, 8, 16 components, which needs a
 * length; length hh h hl l (hl only with vN); conv d i o u x X c s p f F
 * e E g G a A, or %%. No %n. docs/ir.md gives the argument each takes. */
#ifndef CLVM_PRINTF_H
#define CLVM_PRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stdlib/types.h"

enum { PF_MAX_WIDTH = 4096 };

#define PF_LENGTHS(X) X(NONE, "") X(HH, "hh") X(H, "h") X(HL, "hl") X(L, "l")
enum pf_len {
#define X(E, s) PF_##E,
    PF_LENGTHS(X)
#undef X
};

/* One conversion: fmt[start, start + len) is its text. */
typedef struct {
    uint32_t start, len;
    char conv;         /* d i o u x X c s p f F e E g G a A, or '%' */
    uint8_t vec;       /* 0: a scalar; else the component count */
    uint8_t length;    /* enum pf_len */
    char flags[6];     /* the flags given, NUL-terminated, each once */
    int width, prec;   /* -1: not given (or given by an argument) */
    uint8_t star;      /* PF_STAR_W, PF_STAR_P: '*' width, precision */
} pf_spec;
enum { PF_STAR_W = 1, PF_STAR_P = 2 };

/* A format problem: at byte `at` of the format, what is wrong. */
typedef struct {
    uint32_t at;
    char msg[120];
} pf_error;

/* The next conversion at or after *pos (literal text before it is
 * fmt[*pos, spec.start)). Returns 1 and advances *pos past it, 0 at the
 * end of the format, or -1 with e filled. len is the format's length. */
int pf_next(const char *fmt, size_t len, size_t *pos, pf_spec *s,
            pf_error *e);

/* What an argument is, for checking it against a conversion. */
enum pf_argkind { PF_ARG_VALUE, PF_ARG_POINTER, PF_ARG_STRING };
typedef struct {
    uint8_t kind;      /* enum pf_argkind */
    ty_t type;         /* PF_ARG_VALUE: its type */
} pf_arg;

/* Does conversion s take an argument (all but %%)? */
bool pf_takes_arg(const pf_spec *s);

/* The '*' arguments s takes before its value (0, 1 or 2). */
unsigned pf_nstars(const pf_spec *s);

/* Checks argument a against a '*' of s: an integer of at most 4 bytes,
 * read as an int. Returns 0, or -1 with msg. */
int pf_check_star(const pf_spec *s, const char *fmt, pf_arg a, char *msg,
                  size_t msglen);

/* Checks argument a against s. Returns 0, or -1 with msg saying what s
 * needs ("%v4hlf needs a float4, not a double4"). */
int pf_check_arg(const pf_spec *s, const char *fmt, pf_arg a, char *msg,
                 size_t msglen);

/* The C format for one component of s: "%-8.3f", "%lld" (integers are
 * passed as long long or unsigned long long, floating values as double,
 * %c as int, %p as a pointer). buf holds at least PF_CFMT_MAX bytes. */
enum { PF_CFMT_MAX = 32 };
void pf_cformat(const pf_spec *s, char *buf);

/* Parses and checks a whole format against args (n of them). Returns 0, or
 * -1 with e filled (at: the byte, or the format's length for a count
 * mismatch). */
int pf_check(const char *fmt, size_t len, const pf_arg *args, unsigned n,
             pf_error *e);

#endif
