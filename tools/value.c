/* Values of OpenCL C types as text (tools/value.h): the one printer and
 * parser that `clvm run` and the REPL share. */
#include "tools/value.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/half.h"
#include "asm/lit.h"

/* ---- printing ---- */

static uint64_t sign_bit(enum ty_scalar s)
{
    return (uint64_t)1 << (ty_scalar_size(s) * 8 - 1);
}

static uint64_t mask_of(enum ty_scalar s)
{
    unsigned b = ty_scalar_size(s) * 8;
    return b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
}

static double to_double(enum ty_scalar s, uint64_t b)
{
    if (s == TY_HALF)
        return half_to_double((uint16_t)b);
    if (s == TY_FLOAT) {
        uint32_t u = (uint32_t)b;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* Does num read back as exactly bits in s? The same reader as val_parse
 * (and the assembler), so what is printed always parses back. */
static bool reads_back(enum ty_scalar s, const char *num, uint64_t bits)
{
    lit l;
    uint64_t b;
    return !lit_parse(num, strlen(num), &l) && lit_bits(&l, s, &b) == LIT_OK
           && b == bits;
}

/* The decimal for a finite, non-negative element: a whole number below
 * 1e16 in full, else the fewest significant digits that read back (at
 * most 17, which always do), positionally for exponents -4..15, as
 * d.ddde+XX otherwise. */
static void shortest(enum ty_scalar s, uint64_t bits, char *out, size_t n)
{
    double v = to_double(s, bits);
    if (v == floor(v) && v < 1e16) {
        /* whole numbers in full: 65504, not 65500 (also exact) */
        snprintf(out, n, "%.0f", v);
        return;
    }
    char dig[24] = "0", e[48];
    int ex = 0;
    for (int p = 1; p <= 17; p++) {
        /* v is about m * 10^sc: the nearest p-digit decimal */
        snprintf(e, sizeof e, "%.*e", p - 1, v);
        char *x = strchr(e, 'e');
        unsigned long long m = 0;
        for (const char *c = e; c < x; c++)
            if (*c >= '0' && *c <= '9')
                m = m * 10 + (unsigned)(*c - '0');
        int sc = atoi(x + 1) - (p - 1);
        bool ok = reads_back(s, e, bits);
        if (!ok) {
            /* Below a power of two the values are twice as dense, so the
             * decimal on v's other side may read back when the nearest
             * does not (half 0.015625 is "0.01563", not "0.015625"). */
            unsigned long long alt = strtod(e, NULL) > v ? m - 1 : m + 1;
            snprintf(e, sizeof e, "%llue%d", alt, sc);
            if (alt && reads_back(s, e, bits))
                m = alt, ok = true;
        }
        if (ok) {
            int nd = snprintf(dig, sizeof dig, "%llu", m);
            ex = sc + nd - 1;
            break;
        }
    }
    int nd = (int)strlen(dig);
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    size_t k = 0;
#define PUT(c) (k + 1 < n ? (void)(out[k++] = (c)) : (void)0)
    if (ex < -4 || ex > 15) {
        PUT(dig[0]);
        if (nd > 1)
            PUT('.');
        for (int i = 1; i < nd; i++)
            PUT(dig[i]);
        out[k] = 0;
        snprintf(out + k, n - k, "e%c%02d", ex < 0 ? '-' : '+', abs(ex));
        return;
    }
    if (ex < 0) {
        PUT('0'), PUT('.');
        for (int i = -1; i > ex; i--)
            PUT('0');
        for (int i = 0; i < nd; i++)
            PUT(dig[i]);
    } else {
        for (int i = 0; i <= ex; i++)
            PUT(i < nd ? dig[i] : '0');
        if (nd > ex + 1)
            PUT('.');
        for (int i = ex + 1; i < nd; i++)
            PUT(dig[i]);
    }
#undef PUT
    out[k] = 0;
}

char *val_elem(enum ty_scalar s, uint64_t bits, unsigned flags,
               char buf[VAL_ELEM_MAX])
{
    bits &= mask_of(s);
    if (flags & VAL_HEX) {
        snprintf(buf, VAL_ELEM_MAX, "0x%0*llx", (int)ty_scalar_size(s) * 2,
                 (unsigned long long)bits);
        return buf;
    }
    bool neg = (ty_is_signed(s) || ty_is_float(s)) && (bits & sign_bit(s));
    uint64_t mag = neg ? ty_is_float(s) ? bits & ~sign_bit(s)
                                        : (0 - bits) & mask_of(s)
                       : bits;
    const char *sg = neg ? "-" : "";
    if (!ty_is_float(s)) {
        snprintf(buf, VAL_ELEM_MAX, "%s%llu", sg, (unsigned long long)mag);
        return buf;
    }
    double v = to_double(s, mag);
    if (isnan(v))
        snprintf(buf, VAL_ELEM_MAX, "%snan", sg);
    else if (isinf(v))
        snprintf(buf, VAL_ELEM_MAX, "%sinf", sg);
    else {
        char num[VAL_ELEM_MAX - 1];   /* room for the sign */
        shortest(s, mag, num, sizeof num);
        snprintf(buf, VAL_ELEM_MAX, "%s%s", sg, num);
    }
    return buf;
}

char *val_format(ty_t t, const uint64_t *bits, unsigned flags,
                 char buf[VAL_TEXT_MAX])
{
    char e[VAL_ELEM_MAX];
    if (t.n == 1)
        return strcpy(buf, val_elem(t.s, bits[0], flags, e));
    /* bits are an unsigned integer's: (uint4)(0x3f800000, ...) means what
     * it shows, where (float4)(0x3f800000, ...) would convert */
    static const uint8_t bits_type[9] = {
        [1] = TY_UCHAR, [2] = TY_USHORT, [4] = TY_UINT, [8] = TY_ULONG,
    };
    ty_t ct = flags & VAL_HEX ? (ty_t){bits_type[ty_scalar_size(t.s)], t.n}
                              : t;
    char tn[TY_NAME_MAX];
    size_t k = (size_t)snprintf(buf, VAL_TEXT_MAX, "(%s)(", ty_name(ct, tn));
    for (unsigned c = 0; c < t.n; c++)
        k += (size_t)snprintf(buf + k, VAL_TEXT_MAX - k, "%s%s",
                              c ? ", " : "", val_elem(t.s, bits[c], flags, e));
    snprintf(buf + k, VAL_TEXT_MAX - k, ")");
    return buf;
}

/* ---- parsing ---- */

typedef struct {
    const char *s;
    size_t len, i;
    char *err;
    size_t errlen;
} parser;

static int fail(parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (p->errlen)
        vsnprintf(p->err, p->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static void skip_ws(parser *p)
{
    while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t'))
        p->i++;
}

static bool is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* The scalar literal s[0..len) (trimmed) in type t. */
static int scalar(parser *p, enum ty_scalar t, const char *s, size_t len,
                  uint64_t *bits)
{
    const char *tn = ty_scalar_name(t);
    if (!len)
        return fail(p, "a component is missing");
    int w = len > 40 ? 40 : (int)len;
    size_t i = 0;
    bool minus = false;
    if (s[0] == '-' || s[0] == '+')
        minus = s[0] == '-', i = 1;
    lit l;
    const char *why = NULL;
    if (i < len && is_alpha(s[i])) {
        static const struct { const char *name, *as; } lower[] = {
            {"nan", "NAN"}, {"inf", "INFINITY"}, {"infinity", "INFINITY"},
        };
        const char *name = s + i;
        size_t nl = len - i;
        for (size_t k = 0; k < sizeof lower / sizeof lower[0]; k++)
            if (strlen(lower[k].name) == nl &&
                !memcmp(lower[k].name, name, nl))
                name = lower[k].as, nl = strlen(name);
        if (!lit_named(name, nl, &l))
            return fail(p, "'%.*s' is not a number or a known constant",
                        w, s);
    } else if (i < len && (why = lit_parse(s + i, len - i, &l)) != NULL) {
        return fail(p, "'%.*s' is not a number: %s", w, s, why);
    } else if (i == len) {
        return fail(p, "'%.*s' is not a number", w, s);
    }
    l.neg ^= minus;
    switch (lit_bits(&l, t, bits)) {
    case LIT_OK:
        return 0;
    case LIT_RANGE:
        return fail(p, "%.*s does not fit in %s", w, s, tn);
    case LIT_FLT_IN_INT:
        return fail(p, "%s needs an integer, not %.*s", tn, w, s);
    case LIT_NARROW:
        return fail(p, "%.*s has a suffix wider than %s (drop it)", w, s, tn);
    }
    return fail(p, "%.*s: bad literal", w, s);
}

static int value(parser *p, ty_t t, bool nested, uint64_t *bits,
                 unsigned *count, int depth);

/* The scalar token at p->i, up to ',' or ')', trimmed. */
static int token(parser *p, enum ty_scalar t, uint64_t *bits)
{
    size_t at = p->i;
    while (p->i < p->len && p->s[p->i] != ',' && p->s[p->i] != ')')
        p->i++;
    size_t e = p->i;
    while (e > at && (p->s[e - 1] == ' ' || p->s[e - 1] == '\t'))
        e--;
    return scalar(p, t, p->s + at, e - at, bits);
}

/* The component list "(a, b, ...)" of a vector literal of type t. */
static int items(parser *p, ty_t t, uint64_t *bits, int depth)
{
    char tn[TY_NAME_MAX];
    unsigned n = 0, nitems = 0;
    bool vectors = false;
    p->i++; /* '(' */
    for (;;) {
        uint64_t part[TY_MAXLANES];
        unsigned pn = 1;
        skip_ws(p);
        if (p->i < p->len && p->s[p->i] == '(') {
            if (value(p, t, true, part, &pn, depth + 1))
                return -1;
            vectors = true;
        } else if (token(p, t.s, part)) {
            return -1;
        }
        for (unsigned c = 0; c < pn; c++, n++)
            if (n < TY_MAXLANES)
                bits[n] = part[c];
        nitems++;
        skip_ws(p);
        if (p->i < p->len && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->len && p->s[p->i] == ')') {
            p->i++;
            break;
        }
        return fail(p, "(%s)(...) is not closed", ty_name(t, tn));
    }
    if (n == 1 && nitems == 1 && !vectors) {
        for (unsigned c = 1; c < t.n; c++)
            bits[c] = bits[0];
        return 0;
    }
    if (n != t.n)
        return fail(p, "(%s)(...) has %u components, %s needs %u",
                    ty_name(t, tn), n, tn, (unsigned)t.n);
    return 0;
}

/* A literal of type t. Nested (a component of a vector literal): a vector
 * literal of any type with t's element type, its count in *count. */
static int value(parser *p, ty_t t, bool nested, uint64_t *bits,
                 unsigned *count, int depth)
{
    char tn[TY_NAME_MAX], un[TY_NAME_MAX];
    skip_ws(p);
    if (depth > 4)
        return fail(p, "vector literals nested too deep");
    if (p->i >= p->len || p->s[p->i] != '(') {
        if (token(p, t.s, bits))
            return -1;
        for (unsigned c = 1; c < t.n; c++)
            bits[c] = bits[0];      /* a scalar broadcasts, as in C */
        return 0;
    }
    size_t at = ++p->i;
    while (p->i < p->len && p->s[p->i] != ')')
        p->i++;
    size_t e = p->i;
    while (at < e && (p->s[at] == ' ' || p->s[at] == '\t'))
        at++;
    while (e > at && (p->s[e - 1] == ' ' || p->s[e - 1] == '\t'))
        e--;
    ty_t u;
    if (p->i >= p->len || !ty_parse(p->s + at, e - at, &u))
        return fail(p, "expected a literal such as (%s)(...)", ty_name(t, tn));
    p->i++;
    if (nested && u.s != t.s)
        return fail(p, "(%s)(...) inside a vector of %s (clvm converts "
                    "nothing)", ty_name(u, un), ty_scalar_name(t.s));
    if (!nested && !ty_eq(u, t))
        return fail(p, "(%s)(...) given for %s (clvm converts nothing: "
                    "write (%s)(...))", ty_name(u, un), ty_name(t, tn), tn);
    skip_ws(p);
    if (p->i >= p->len || p->s[p->i] != '(')
        return fail(p, "(%s) must be followed by (components)",
                    ty_name(u, un));
    if (items(p, u, bits, depth))
        return -1;
    if (count)
        *count = u.n;
    return 0;
}

int val_parse(ty_t t, const char *s, size_t len, uint64_t *bits, char *err,
              size_t errlen)
{
    parser p = {s, len, 0, err, errlen};
    uint64_t tmp[TY_MAXLANES];
    skip_ws(&p);
    if (p.i == len)
        return fail(&p, "no value");
    if (value(&p, t, false, tmp, NULL, 0))
        return -1;
    skip_ws(&p);
    if (p.i < p.len)
        return fail(&p, "unexpected '%.20s' after the value", s + p.i);
    memcpy(bits, tmp, t.n * sizeof *bits);
    return 0;
}

void val_load(ty_t t, const uint8_t *p, uint64_t *bits)
{
    for (unsigned c = 0; c < t.n; c++)
        bits[c] = lit_load(p + c * ty_scalar_size(t.s), t.s);
}

void val_store(ty_t t, const uint64_t *bits, uint8_t *p)
{
    for (unsigned c = 0; c < t.n; c++)
        lit_store(p + c * ty_scalar_size(t.s), t.s, bits[c]);
}
