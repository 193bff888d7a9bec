/* NumPy .npy headers (tools/npy.h): parsed strictly, written in version 1.0. */
#include "tools/npy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stdlib/bytes.h"

static const char magic[6] = "\x93NUMPY";

/* NumPy's dtype of each OpenCL C scalar: little-endian ('<'), or '|' where
 * byte order does not apply. */
static const struct {
    const char *descr, *name;
} dtypes[TY_NSCALAR] = {
    [TY_CHAR] = {"|i1", "int8"},       [TY_UCHAR] = {"|u1", "uint8"},
    [TY_SHORT] = {"<i2", "int16"},     [TY_USHORT] = {"<u2", "uint16"},
    [TY_INT] = {"<i4", "int32"},       [TY_UINT] = {"<u4", "uint32"},
    [TY_LONG] = {"<i8", "int64"},      [TY_ULONG] = {"<u8", "uint64"},
    [TY_HALF] = {"<f2", "float16"},    [TY_FLOAT] = {"<f4", "float32"},
    [TY_DOUBLE] = {"<f8", "float64"},
};

const char *npy_type_name(enum ty_scalar s) { return dtypes[s].name; }
const char *npy_descr(enum ty_scalar s) { return dtypes[s].descr; }

bool npy_is(const uint8_t *buf, size_t n)
{
    return n >= sizeof magic && !memcmp(buf, magic, sizeof magic);
}

static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* The header dictionary, e.g.
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (16, 4), }
 * read by a cursor that never passes end. */
typedef struct {
    const char *p, *end;
} cur;

static void spaces(cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
}

static bool eat(cur *c, char ch)
{
    spaces(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted Python string ('...' or "..."), no escapes: [*s, *s + *n). */
static bool str(cur *c, const char **s, size_t *n)
{
    spaces(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return false;
    char q = *c->p++;
    const char *e = memchr(c->p, q, (size_t)(c->end - c->p));
    if (!e)
        return false;
    *s = c->p, *n = (size_t)(e - c->p);
    c->p = e + 1;
    return true;
}

static bool word(cur *c, const char *w)
{
    size_t n = strlen(w);
    spaces(c);
    if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, w, n)) {
        c->p += n;
        return true;
    }
    return false;
}

/* (d0, d1, ...): the product of the dimensions, which must not overflow. */
static bool shape(cur *c, uint64_t *count)
{
    if (!eat(c, '('))
        return false;
    *count = 1;
    for (;;) {
        spaces(c);
        if (eat(c, ')'))
            return true;
        if (c->p >= c->end || *c->p < '0' || *c->p > '9')
            return false;
        uint64_t d = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (d > (UINT64_MAX - 9) / 10)
                return false;
            d = d * 10 + (uint64_t)(*c->p++ - '0');
        }
        if (d && *count > UINT64_MAX / d)
            return false;
        *count *= d;
        if (!eat(c, ',')) {
            return eat(c, ')');
        }
    }
}

static int dtype(const char *s, size_t n, npy_info *out, char *why,
                 size_t len)
{
    snprintf(out->descr, sizeof out->descr, "%.*s", (int)(n < 15 ? n : 15), s);
    for (int t = 0; t < TY_NSCALAR; t++) {
        const char *d = dtypes[t].descr;
        /* '<', '|' or '=' (the writer's order: NumPy writes '=' for no
         * type we accept, but a hand-made file may) all mean little-endian
         * here; the one-byte types take any of them. */
        if (n == 3 && strchr("<|=", s[0]) && !memcmp(s + 1, d + 1, 2)) {
            if (s[0] == '|' && d[0] != '|')
                break;
            out->s = (enum ty_scalar)t;
            return 0;
        }
    }
    if (n == 3 && s[0] == '>')
        return fail(why, len, "big-endian data (dtype '%s'): clvm buffers "
                    "are little-endian; save arr.astype('<%.2s')", out->descr,
                    s + 1);
    return fail(why, len, "dtype '%s' is not an OpenCL C scalar type (int8 "
                "... uint64, float16, float32, float64)", out->descr);
}

int npy_parse(const uint8_t *buf, size_t n, npy_info *out, char *why,
              size_t len)
{
    if (!npy_is(buf, n))
        return fail(why, len, "not a NumPy .npy file (no \\x93NUMPY magic)");
    if (n < 10)
        return fail(why, len, "NumPy header cut short");
    unsigned major = buf[6];
    size_t hl, at;
    if (major == 1) {
        hl = (size_t)le_load(buf + 8, 2), at = 10;
    } else if (major == 2 || major == 3) {
        if (n < 12)
            return fail(why, len, "NumPy header cut short");
        hl = (size_t)le_load(buf + 8, 4), at = 12;
    } else {
        return fail(why, len, "NumPy format version %u.%u (clvm reads 1.0 "
                    "to 3.0)", major, buf[7]);
    }
    if (hl > n - at)
        return fail(why, len, "NumPy header says %zu bytes, the file has "
                    "%zu after it", hl, n - at);
    cur c = {(const char *)buf + at, (const char *)buf + at + hl};
    bool has_descr = false, has_shape = false, fortran = false;
    if (!eat(&c, '{'))
        return fail(why, len, "NumPy header is not a dictionary");
    while (!eat(&c, '}')) {
        const char *k;
        size_t kn;
        if (!str(&c, &k, &kn) || !eat(&c, ':'))
            return fail(why, len, "NumPy header: malformed dictionary");
        if (kn == 5 && !memcmp(k, "descr", 5)) {
            const char *d;
            size_t dn;
            if (!str(&c, &d, &dn))
                return fail(why, len, "NumPy header: 'descr' is a structured "
                            "dtype; clvm takes one scalar type");
            if (dtype(d, dn, out, why, len))
                return -1;
            has_descr = true;
        } else if (kn == 13 && !memcmp(k, "fortran_order", 13)) {
            if (word(&c, "True"))
                fortran = true;
            else if (!word(&c, "False"))
                return fail(why, len, "NumPy header: fortran_order is not "
                            "True or False");
        } else if (kn == 5 && !memcmp(k, "shape", 5)) {
            if (!shape(&c, &out->count))
                return fail(why, len, "NumPy header: malformed shape");
            has_shape = true;
        } else {
            return fail(why, len, "NumPy header: unknown key '%.*s'",
                        (int)kn, k);
        }
        if (!eat(&c, ',') && !eat(&c, '}'))
            return fail(why, len, "NumPy header: malformed dictionary");
        else if (c.p[-1] == '}')
            break;
    }
    if (!has_descr || !has_shape)
        return fail(why, len, "NumPy header lacks '%s'",
                    has_descr ? "shape" : "descr");
    out->data = at + hl;
    uint64_t es = ty_scalar_size(out->s);
    if (out->count > (n - out->data) / es || out->count * es != n - out->data)
        return fail(why, len, "NumPy header says %llu elements of %s (%llu "
                    "bytes), the file holds %zu bytes of data",
                    (unsigned long long)out->count, out->descr,
                    (unsigned long long)out->count * es, n - out->data);
    /* NumPy writes True only for an array that is not also C-ordered. */
    if (fortran)
        return fail(why, len, "Fortran-order array: save "
                    "np.ascontiguousarray(arr) for C order");
    return 0;
}

size_t npy_header(ty_t t, uint64_t count, uint8_t hdr[NPY_HDR_MAX])
{
    char d[NPY_HDR_MAX];
    unsigned lanes = ty_lanes(t);
    int n = lanes == 1
        ? snprintf(d, sizeof d, "{'descr': '%s', 'fortran_order': False, "
                   "'shape': (%llu,), }", npy_descr((enum ty_scalar)t.s),
                   (unsigned long long)count)
        : snprintf(d, sizeof d, "{'descr': '%s', 'fortran_order': False, "
                   "'shape': (%llu, %u), }", npy_descr((enum ty_scalar)t.s),
                   (unsigned long long)count, lanes);
    /* magic, version, length, dictionary, spaces, '\n': a multiple of 64. */
    size_t total = (10 + (size_t)n + 1 + 63) / 64 * 64;
    memcpy(hdr, magic, 6);
    hdr[6] = 1, hdr[7] = 0;
    le_store(hdr + 8, 2, total - 10);
    memcpy(hdr + 10, d, (size_t)n);
    memset(hdr + 10 + n, ' ', total - 11 - (size_t)n);
    hdr[total - 1] = '\n';
    return total;
}
