/* By-value kernel parameters (vm/layout.h): their member layout string
 * read into a list of braces and leaves, and the verifier's rules. */
#include "vm/layout.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lerr(char *err, size_t errlen, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int lerr(char *err, size_t errlen, size_t at, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (errlen)
        snprintf(err, errlen, "layout at character %zu: %s", at, what);
    return -1;
}

static bool digit(char c) { return c >= '0' && c <= '9'; }
static bool word(char c)
{
    return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '_';
}

/* The parse, into v (room for LAY_MAX_ITEMS); -1 on error. */
static int scan(const char *s, uint32_t size, lay_item *v, size_t *n,
                char *err, size_t errlen)
{
    size_t i = 0, k = 0;
    int depth = 0;
    bool item_next = false;   /* after '{' or ',': an item must follow */
    if (!*s)
        return 0;
    if (*s != '{')
        return lerr(err, errlen, 0, "expected '{'");
    while (s[i]) {
        if (k == LAY_MAX_ITEMS)
            return lerr(err, errlen, i, "more than %d items", LAY_MAX_ITEMS);
        char c = s[i];
        if (c == '{') {
            if (depth && !item_next)
                return lerr(err, errlen, i, "expected ',' or '}'");
            if (++depth > LAY_MAX_DEPTH)
                return lerr(err, errlen, i, "nested more than %d deep",
                            LAY_MAX_DEPTH);
            v[k++] = (lay_item){LAY_OPEN, 0, {0, 0}};
            i++, item_next = true;
        } else if (c == '}' || c == ',') {
            if (item_next || !depth)
                return lerr(err, errlen, i, "expected an item");
            if (c == '}') {
                v[k++] = (lay_item){LAY_CLOSE, 0, {0, 0}};
                depth--;
            } else {
                item_next = true;
            }
            i++;
            if (!depth && s[i])
                return lerr(err, errlen, i, "text after the layout");
        } else if (digit(c) && item_next) {
            uint64_t off = 0;
            while (digit(s[i]) && off <= size)
                off = off * 10 + (uint64_t)(s[i++] - '0');
            if (s[i] != ':')
                return lerr(err, errlen, i, "expected ':' after an offset");
            size_t t0 = ++i;
            while (word(s[i]))
                i++;
            ty_t t;
            if (!ty_parse(s + t0, i - t0, &t))
                return lerr(err, errlen, t0, "'%.*s' is no type",
                            (int)(i - t0 > 20 ? 20 : i - t0), s + t0);
            if (off > size || ty_sizeof(t) > size - off)
                return lerr(err, errlen, t0, "a %.*s at byte %llu is past "
                            "the %u bytes", (int)(i - t0), s + t0,
                            (unsigned long long)off, size);
            v[k++] = (lay_item){LAY_LEAF, (uint32_t)off, t};
            item_next = false;
        } else {
            return lerr(err, errlen, i, "unexpected '%c'", c);
        }
    }
    if (depth)
        return lerr(err, errlen, i, "unclosed '{'");
    *n = k;
    return 0;
}

int lay_parse(const char *s, uint32_t size, lay_item **out, size_t *n,
              char *err, size_t errlen)
{
    lay_item *v = malloc(LAY_MAX_ITEMS * sizeof *v);
    *out = NULL, *n = 0;
    if (!v)
        return lerr(err, errlen, 0, "out of memory");
    if (scan(s, size, v, n, err, errlen)) {
        free(v);
        *n = 0;
        return -1;
    }
    *out = v;
    return 0;
}

/* A string of m at off, NUL-terminated inside the string table. */
static const char *str_at(const bc_module *m, uint32_t off)
{
    if (off >= m->nstrings || !memchr(m->strings + off, 0, m->nstrings - off))
        return NULL;
    return m->strings + off;
}

static bool printable(const char *s)
{
    for (; *s; s++)
        if (*s < ' ' || *s > '~')
            return false;
    return true;
}

int lay_check_param(const bc_module *m, const bc_param *p, const bc_reg *r,
                    char *err, size_t errlen)
{
    const bc_byval *b = &p->byval;
    if (!b->size) {
        if (!b->align && !b->type && !b->layout)
            return 0;
        snprintf(err, errlen, "by-value fields without a size");
        return -1;
    }
    const char *t = str_at(m, b->type), *l = str_at(m, b->layout);
    if (r->kind != BC_REG_PTR || r->space != BC_CONSTANT)
        snprintf(err, errlen, "passed by value, but not a constant pointer");
    else if (b->size > BC_MAX_BYVAL)
        snprintf(err, errlen, "passed by value: %u bytes (at most %d)",
                 b->size, BC_MAX_BYVAL);
    else if (!b->align || b->align > 128 || (b->align & (b->align - 1)) ||
             b->size % b->align)
        snprintf(err, errlen, "passed by value: alignment %u for %u bytes",
                 b->align, b->size);
    else if (!t || !l)
        snprintf(err, errlen, "passed by value: type or layout string out "
                 "of range");
    else if (t[strcspn(t, "\"\\")] || !printable(t))
        snprintf(err, errlen, "passed by value: a type name of other than "
                 "printable characters without quotes and backslashes");
    else {
        lay_item *v;
        size_t n;
        if (lay_parse(l, b->size, &v, &n, err, errlen))
            return -1;
        free(v);
        return 0;
    }
    return -1;
}
