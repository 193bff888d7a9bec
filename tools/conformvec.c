/* Reader of the conformance vector files (tools/conformvec.h). */
#include "tools/conformvec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A line longer than this is reported, not buffered: no real vector file
 * comes near it (the biggest load buffer is a few hundred bytes). */
enum { LINE_MAX_BYTES = 1 << 26, NCOL = 6 };

struct vec_reader {
    FILE *f;
    bool own;                 /* vec_open opened f */
    char *name;
    unsigned long line;
    char *buf;                /* the current line, NUL-terminated */
    size_t cap;
    char *comment;
    size_t ccap;
    char *dev;                /* the device of a <device>-disagrees */
    size_t dcap;
    uint8_t *bytes;           /* src, expect, care: one allocation */
    size_t bcap;
    bool done;                /* a read error was reported: stop */
    char err[320];
};

static vec_reader *reader(FILE *f, bool own, const char *name)
{
    vec_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->f = f, r->own = own;
    r->name = malloc(strlen(name) + 1);
    r->cap = r->ccap = r->dcap = r->bcap = 256;
    r->buf = malloc(r->cap);
    r->comment = malloc(r->ccap);
    r->dev = malloc(r->dcap);
    r->bytes = malloc(r->bcap);
    if (!r->name || !r->buf || !r->comment || !r->dev || !r->bytes) {
        r->own = false;
        vec_close(r);
        return NULL;
    }
    strcpy(r->name, name);
    r->comment[0] = 0;
    return r;
}

vec_reader *vec_open(const char *path)
{
    FILE *f = fopen(path, "rb");
    vec_reader *r = f ? reader(f, true, path) : NULL;
    if (f && !r)
        fclose(f);
    return r;
}

vec_reader *vec_open_stream(FILE *f, const char *name)
{
    return reader(f, false, name);
}

void vec_close(vec_reader *r)
{
    if (!r)
        return;
    if (r->own)
        fclose(r->f);
    free(r->name);
    free(r->buf);
    free(r->comment);
    free(r->dev);
    free(r->bytes);
    free(r);
}

const char *vec_error(const vec_reader *r) { return r->err; }

static int error(vec_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int error(vec_reader *r, const char *fmt, ...)
{
    va_list ap;
    int k = snprintf(r->err, sizeof r->err, "%s:%lu: ", r->name, r->line);
    if (k < 0 || (size_t)k >= sizeof r->err)
        k = 0;
    va_start(ap, fmt);
    vsnprintf(r->err + k, sizeof r->err - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static bool grow(void *pp, size_t *cap, size_t need)
{
    void **p = pp, *q;
    size_t c = *cap;
    if (need <= c)
        return true;
    while (c < need)
        c *= 2;
    if (!(q = realloc(*p, c)))
        return false;
    *p = q, *cap = c;
    return true;
}

/* Reads one line without its newline into r->buf. Returns its length,
 * -1 at the end of the file, -2 when it is too long or memory runs out
 * (the rest of the line is consumed either way). */
static long read_line(vec_reader *r)
{
    size_t n = 0;
    bool over = false;
    int ch;
    while ((ch = getc(r->f)) != EOF && ch != '\n') {
        if (over)
            continue;
        if (n + 1 >= LINE_MAX_BYTES || !grow(&r->buf, &r->cap, n + 2)) {
            over = true;
            continue;
        }
        r->buf[n++] = (char)ch;
    }
    if (ch == EOF && n == 0 && !over)
        return -1;
    r->line++;
    r->buf[n] = 0;
    return over ? -2 : (long)n;
}

/* A field for a message: at most 40 characters, unprintables as '?'. */
static const char *show(char out[48], const char *s)
{
    size_t i = 0;
    for (; s[i] && i < 40; i++)
        out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    strcpy(out + i, s[i] ? "..." : "");
    return out;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Hex into bytes (and care, when '?' is allowed). */
static int hex(vec_reader *r, const char *col, const char *s, size_t len,
               uint8_t *out, uint8_t *care)
{
    if (len % 2)
        return error(r, "%s: odd hex length %zu", col, len);
    for (size_t i = 0; i < len; i++) {
        int v = hexval(s[i]), m = 0xf;
        if (v < 0 && s[i] == '?' && care)
            v = 0, m = 0;
        else if (v < 0)
            return error(r, "%s: bad hex digit '%c' at position %zu", col,
                         s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?', i + 1);
        if (i % 2 == 0) {
            out[i / 2] = (uint8_t)(v << 4);
            if (care)
                care[i / 2] = (uint8_t)(m << 4);
        } else {
            out[i / 2] |= (uint8_t)v;
            if (care)
                care[i / 2] |= (uint8_t)m;
        }
    }
    return 0;
}

static bool is_nan(const uint8_t *b, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = size; i-- > 0;)
        v = v << 8 | b[i];
    switch (size) {
    case 2: return (v & 0x7fff) > 0x7c00;
    case 4: return (v & 0x7fffffff) > 0x7f800000;
    case 8: return (v & 0x7fffffffffffffff) > 0x7ff0000000000000;
    default: return false;
    }
}

/* The checks that tie src_type and the byte counts to the op. */
static int shape(vec_reader *r, vec_case *c)
{
    const bi_desc *d = &c->op;
    char a[TY_NAME_MAX], b[TY_NAME_MAX];
    ty_t res = d->type;        /* the result value, for loads and converts */
    bool value_src = true;     /* src_hex is a value of src_type */
    bool value_res = true;     /* expect_hex is a value of res */
    ty_name(c->src, a);
    switch (d->kind) {
    case BI_CONVERT:
        if (c->src.n != d->n)
            return error(r, "%s needs a %u-element operand, not %s",
                         c->opname, d->n, a);
        break;
    case BI_AS:
        if (ty_sizeof(c->src) != ty_sizeof(d->type))
            return error(r, "%s of %s: sizes differ (%zu, %zu)", c->opname,
                         a, ty_sizeof(c->src), ty_sizeof(d->type));
        break;
    case BI_VLOAD:
    case BI_VLOAD_HALF:
    case BI_VLOADA_HALF:
        if (c->src.n != 1)
            return error(r, "%s: src_type must be the pointee scalar, not %s",
                         c->opname, a);
        if (d->kind != BI_VLOAD && c->src.s != TY_HALF)
            return error(r, "%s: src_type must be half, not %s", c->opname,
                         a);
        res.s = (uint8_t)(d->kind == BI_VLOAD ? c->src.s : TY_FLOAT);
        res.n = (uint8_t)d->n;
        value_src = false;
        break;
    default: /* the stores */
        if (c->src.n != d->n)
            return error(r, "%s stores %u elements, not a %s", c->opname,
                         d->n, a);
        if (d->kind != BI_VSTORE && c->src.s != TY_FLOAT &&
            c->src.s != TY_DOUBLE)
            return error(r, "%s stores float or double, not %s", c->opname,
                         a);
        value_res = false;
    }
    if (d->kind == BI_CONVERT || d->kind == BI_AS ? c->has_arg : !c->has_arg)
        return error(r, c->has_arg ? "arg must be '-' for %s"
                                   : "%s needs an offset as arg",
                     c->opname);
    if (value_src && c->src_len != ty_sizeof(c->src))
        return error(r, "src_hex has %zu bytes, sizeof(%s) is %zu",
                     c->src_len, a, ty_sizeof(c->src));
    if (value_res && c->expect_len != ty_sizeof(res))
        return error(r, "expect_hex has %zu bytes, the result %s takes %zu",
                     c->expect_len, ty_name(res, b), ty_sizeof(res));
    return 0;
}

static int parse(vec_reader *r, vec_case *c, char *line)
{
    char *col[NCOL], q[48];
    size_t len[NCOL];
    int n = 0;
    const char *why = NULL, *p;
    for (char *s = line;; s++) {
        char *e = strchr(s, '\t');
        if (n < NCOL)
            col[n] = s, len[n] = e ? (size_t)(e - s) : strlen(s);
        n++;
        if (!e)
            break;
        *e = 0, s = e;
    }
    if (n != NCOL)
        return error(r, "wrong column count: %d, want %d", n, NCOL);
    memset(c, 0, sizeof *c);
    c->file = r->name, c->line = r->line, c->comment = r->comment;
    c->opname = col[0], c->cls_name = col[5], c->device = "";

    if (!bi_parse(col[0], len[0], &c->op, &why))
        return error(r, "unknown op '%s' (%s)", show(q, col[0]), why);
    if ((why = bi_check(&c->op)))
        return error(r, "illegal op '%s': %s", show(q, col[0]), why);
    if (!ty_parse(col[1], len[1], &c->src))
        return error(r, "unknown type '%s'", show(q, col[1]));

    if (!(len[2] == 1 && col[2][0] == '-')) {
        p = col[2];
        if (!*p)
            return error(r, "empty arg");
        for (; *p; p++) {
            unsigned dig = (unsigned)(*p - '0');
            if (*p < '0' || *p > '9' || c->arg > (UINT64_MAX - dig) / 10)
                return error(r, "bad arg '%s' (want '-' or a decimal offset)",
                             show(q, col[2]));
            c->arg = c->arg * 10 + dig;
        }
        c->has_arg = true;
    }

    /* The three byte strings share one buffer: src, expect, care. */
    c->src_len = len[3] / 2, c->expect_len = len[4] / 2;
    if (!grow(&r->bytes, &r->bcap, c->src_len + 2 * c->expect_len + 1))
        return error(r, "out of memory");
    {
        uint8_t *sb = r->bytes, *eb = sb + c->src_len, *cb = eb + c->expect_len;
        if (hex(r, "src_hex", col[3], len[3], sb, NULL) ||
            hex(r, "expect_hex", col[4], len[4], eb, cb))
            return -1;
        c->src_bytes = sb, c->expect = eb, c->care = cb;
    }

    if (strcmp(col[5], "defined") == 0) {
        c->cls = VEC_DEFINED;
    } else if (strncmp(col[5], "impl:", 5) == 0 && len[5] > 5) {
        c->cls = VEC_IMPL, c->device = col[5] + 5;
    } else if (len[5] > 10 && strcmp(col[5] + len[5] - 10, "-disagrees") == 0) {
        /* The device name needs its own copy: the column stays whole. */
        if (!grow(&r->dev, &r->dcap, len[5] - 9))
            return error(r, "out of memory");
        memcpy(r->dev, col[5], len[5] - 10);
        r->dev[len[5] - 10] = 0;
        c->cls = VEC_DISAGREES, c->device = r->dev;
    } else {
        return error(r, "unknown class '%s'", show(q, col[5]));
    }
    return shape(r, c);
}

int vec_next(vec_reader *r, vec_case *c)
{
    long n;
    r->err[0] = 0;
    while (!r->done && (n = read_line(r)) != -1) {
        char *s = r->buf;
        if (n == -2)
            return error(r, "line too long or out of memory");
        if (n > 0 && s[n - 1] == '\r')
            s[--n] = 0;
        if (memchr(s, 0, (size_t)n))
            return error(r, "NUL byte in line");
        if (s[0] == '#') {
            s++, n--;
            while (*s == ' ' || *s == '\t')
                s++, n--;
            if (!grow(&r->comment, &r->ccap, (size_t)n + 1))
                return error(r, "out of memory");
            memcpy(r->comment, s, (size_t)n + 1);
            continue;
        }
        if (strspn(s, " \t") == (size_t)n)
            continue;
        return parse(r, c, s) ? -1 : 1;
    }
    if (!r->done && ferror(r->f)) {
        r->done = true;
        return error(r, "read error");
    }
    return 0;
}

bool vec_compare(const vec_case *c, const uint8_t *got)
{
    unsigned es = 0; /* elements whose expected NaN matches any NaN */
    switch (c->op.kind) {
    case BI_CONVERT:
        if (ty_is_float((enum ty_scalar)c->op.type.s))
            es = ty_scalar_size((enum ty_scalar)c->op.type.s);
        break;
    case BI_VLOAD_HALF:
    case BI_VLOADA_HALF:
        es = 4;
        break;
    case BI_VSTORE_HALF:
    case BI_VSTOREA_HALF:
        /* The whole buffer, as halves: the bytes the store leaves alone
         * hold cdcd, which is no NaN, so only stored halves can match
         * this way. */
        es = 2;
        break;
    default:
        break;
    }
    for (size_t i = 0; i < c->expect_len;) {
        if (es && i + es <= c->expect_len) {
            bool known = true;
            for (unsigned k = 0; k < es; k++)
                known = known && c->care[i + k] == 0xff;
            if (known && is_nan(c->expect + i, es)) {
                if (!is_nan(got + i, es))
                    return false;
                i += es;
                continue;
            }
        }
        for (size_t e = es && i + es <= c->expect_len ? i + es : i + 1; i < e;
             i++)
            if ((got[i] ^ c->expect[i]) & c->care[i])
                return false;
    }
    return true;
}

char *vec_hex(char *out, const uint8_t *b, const uint8_t *care, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        unsigned m = care ? care[i] : 0xff;
        out[2 * i] = m & 0xf0 ? digits[b[i] >> 4] : '?';
        out[2 * i + 1] = m & 0x0f ? digits[b[i] & 15] : '?';
    }
    out[2 * n] = 0;
    return out;
}
