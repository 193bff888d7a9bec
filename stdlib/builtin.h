/* Names of the OpenCL C built-ins clvm implements, parsed into a descriptor
 * and formatted back:
 *
 *   convert_<type>[_sat][_rte|_rtz|_rtp|_rtn]      convert_char4_sat_rte
 *   as_<type>                                       as_uint4
 *   vload<N>, vstore<N>                             N = 2, 3, 4, 8, 16
 *   vload_half[N], vloada_half[N]                   no digit: the scalar form
 *   vstore_half[N][_rtX], vstorea_half[N][_rtX]
 *
 * bi_parse checks syntax only: every kind takes the suffixes [_sat][_rtX]
 * in that order. Whether the result names a real built-in (no _sat on a
 * floating destination, no rounding on a load) is bi_check's business, so
 * that a tool can say "as_int_rte: as_ takes no rounding suffix" instead
 * of "unknown name". */
#ifndef CLVM_BUILTIN_H
#define CLVM_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

#include "stdlib/round.h"
#include "stdlib/types.h"

/* X(ENUM, spelling prefix, what follows: 'T' a type name, 'N' a width
 * (required), 'n' a width (optional: none means 1), OpenCL.std numbers
 * {scalar form, scalar _rtX form, n form, n _rtX form}, -1 for none
 * (convert_ and as_ are SPIR-V core instructions), written OC4(...)) */
#define BI_KINDS(X)                                                   \
    X(CONVERT,      "convert_",      'T', OC4(-1, -1, -1, -1))            \
    X(AS,           "as_",           'T', OC4(-1, -1, -1, -1))            \
    X(VLOAD,        "vload",         'N', OC4(-1, -1, 171, -1))           \
    X(VSTORE,       "vstore",        'N', OC4(-1, -1, 172, -1))           \
    X(VLOAD_HALF,   "vload_half",    'n', OC4(173, -1, 174, -1))          \
    X(VLOADA_HALF,  "vloada_half",   'n', OC4(-1, -1, 179, -1))           \
    X(VSTORE_HALF,  "vstore_half",   'n', OC4(175, 176, 177, 178))        \
    X(VSTOREA_HALF, "vstorea_half",  'n', OC4(-1, -1, 180, 181))

enum bi_kind {
#define X(E, p, a, oc) BI_##E,
    BI_KINDS(X)
#undef X
    BI_NKIND
};

typedef struct {
    enum bi_kind kind;
    ty_t type;       /* convert_/as_: the result type; otherwise {0, n} */
    unsigned n;      /* lanes: type.n for convert_/as_, the N of the rest */
    bool sat;        /* _sat */
    bool has_round;  /* a rounding suffix was given ... */
    enum rnd round;  /* ... and this is it (RND_RTE when none) */
} bi_desc;

/* The longest name is "convert_ushort16_sat_rte" (24); room to spare for
 * the '?'s of a bad descriptor. */
#define BI_NAME_MAX 40

/* Parses exactly len bytes of s (no NUL needed). On failure returns false
 * and, if why is not NULL, sets *why to a short reason. */
bool bi_parse(const char *s, size_t len, bi_desc *out, const char **why);

/* NULL when d names a real built-in, else why not ("_sat needs an integer
 * destination", ...). Accepts descriptors built by hand, so it also checks
 * ranges that bi_parse cannot produce. */
const char *bi_check(const bi_desc *d);

/* The canonical spelling of d into buf; returns buf. d should pass
 * bi_check; out-of-range fields are written as '?', never trusted. */
char *bi_format(const bi_desc *d, char buf[BI_NAME_MAX]);

const char *bi_kind_prefix(enum bi_kind k);   /* "convert_", "vload", ... */

/* The OpenCL.std number of a kind's scalar (n == 1) or vector form, with a
 * rounding suffix or not; -1 if SPIR-V has none (a core instruction). */
int bi_kind_ocl(enum bi_kind k, bool vector, bool round);

/* Does a load/store kind read or write half elements / store? */
bool bi_is_half(enum bi_kind k);
bool bi_is_store(enum bi_kind k);

#endif
