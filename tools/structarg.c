/* Struct and union kernel arguments by value as text (tools/structarg.h):
 * a C initialiser read by the parameter's member layout (vm/layout.h),
 * and printed back the same way. */
#include "tools/structarg.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tools/value.h"
#include "vm/layout.h"

typedef struct {
    const lay_item *it;
    size_t n, i;          /* items, the next one */
    const char *s, *at;   /* the text, where reading is */
    uint8_t *out;
    unsigned leaf;        /* members read so far */
    bool need;            /* a ',' before the next value */
    const char *name;
    char *why;
    size_t len;
} rd;

static int fail(rd *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(rd *r, const char *fmt, ...)
{
    int w = snprintf(r->why, r->len, "--arg %s=%s: ", r->name, r->s);
    if (w >= 0 && (size_t)w < r->len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why + w, r->len - (size_t)w, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void space(rd *r)
{
    while (*r->at == ' ' || *r->at == '\t')
        r->at++;
}

/* The extent of one value: up to a ',' or '}' outside parentheses. */
static size_t extent(const char *s)
{
    size_t k = 0;
    int depth = 0;
    for (; s[k]; k++) {
        if (s[k] == '(')
            depth++;
        else if (s[k] == ')')
            depth--;
        else if (!depth && (s[k] == ',' || s[k] == '}' || s[k] == '{'))
            break;
    }
    while (k && (s[k - 1] == ' ' || s[k - 1] == '\t'))
        k--;
    return k;
}

/* Skips the items of the aggregate opening at r->i, past its close. */
static void skip(rd *r)
{
    int depth = 0;
    do
        depth += r->it[r->i].kind == LAY_OPEN ? 1
                 : r->it[r->i].kind == LAY_CLOSE ? -1 : 0;
    while (++r->i < r->n && depth);
}

static int leaf(rd *r)
{
    const lay_item *l = &r->it[r->i++];
    char tn[TY_NAME_MAX], e[160];
    size_t k = extent(r->at);
    uint64_t bits[TY_MAXLANES];
    r->leaf++;
    if (!k)
        return fail(r, "member %u (%s at byte %u): no value", r->leaf,
                    ty_name(l->type, tn), l->off);
    ty_t t = l->type, u = t;
    if (!ty_is_float((enum ty_scalar)t.s))
        u.s = ty_unsigned_of((enum ty_scalar)t.s);
    if (val_parse(t, r->at, k, bits, e, sizeof e) &&
        (ty_eq(u, t) || val_parse(u, r->at, k, bits, NULL, 0)))
        return fail(r, "member %u (%s at byte %u): %s", r->leaf,
                    ty_name(l->type, tn), l->off, e);
    val_store(t, bits, r->out + l->off);
    r->at += k, r->need = true;
    return 0;
}

/* Before a value: the ',' after the one before it. 1 where the braced
 * list ends instead ('}' or the end of the text), 0 before a value, -1
 * after an error. */
static int next(rd *r)
{
    space(r);
    if (r->need && *r->at == ',') {
        r->at++, r->need = false;
        space(r);
    }
    if (*r->at == '}' || !*r->at)
        return 1;
    if (r->need)
        return fail(r, "expected ',' or '}' after member %u at '%.20s'",
                    r->leaf, r->at);
    return 0;
}

/* The members of the aggregate opening at r->i; braced: its own '{' was
 * read, and it ends at its '}'; else it takes values in line until they
 * or its members run out. */
static int agg(rd *r, bool braced)
{
    r->i++;
    while (r->i < r->n && r->it[r->i].kind != LAY_CLOSE) {
        int e = next(r), rc;
        if (e < 0)
            return -1;
        if (e) {
            while (r->i < r->n && r->it[r->i].kind != LAY_CLOSE)
                r->it[r->i].kind == LAY_OPEN ? skip(r) : (void)r->i++;
            break;
        }
        if (r->it[r->i].kind == LAY_OPEN && *r->at == '{') {
            r->at++;
            rc = agg(r, true);
        } else if (r->it[r->i].kind == LAY_OPEN) {
            rc = agg(r, false);
        } else if (*r->at == '{') {   /* C's braces round a scalar */
            r->at++;
            space(r);
            rc = leaf(r);
            space(r);
            if (!rc && *r->at != '}')
                rc = fail(r, "member %u: one value in its braces",
                          r->leaf);
            r->at += !rc;
        } else {
            rc = leaf(r);
        }
        if (rc)
            return rc;
    }
    r->i++;   /* the close */
    if (!braced)
        return 0;
    if (next(r) < 0)
        return -1;
    if (*r->at != '}')
        return *r->at ? fail(r, "more values than members: '%.20s' after "
                             "member %u", r->at, r->leaf)
                      : fail(r, "a '{' without its '}'");
    r->at++, r->need = true;
    return 0;
}

int sa_parse(const bc_module *m, const bc_param *p, const char *name,
             const char *v, uint8_t *out, char *why, size_t len)
{
    const bc_byval *b = &p->byval;
    rd r = {NULL, 0, 0, v, v, out, 0, false, name, why, len};
    lay_item *it;
    char e[200];
    if (lay_parse(bc_str(m, b->layout), b->size, &it, &r.n, e, sizeof e))
        return fail(&r, "%s", e);
    r.it = it;
    memset(out, 0, b->size);
    space(&r);
    int rc;
    if (!r.n)
        rc = fail(&r, "the module has no member layout of '%s': give "
                  "@FILE of its %u bytes", bc_str(m, b->type), b->size);
    else if (*r.at != '{')
        rc = fail(&r, "'%s' is %s, passed by value: give its members' "
                  "values in braces, {...}, or @FILE of its %u bytes", name,
                  bc_str(m, b->type), b->size);
    else {
        r.at++;
        rc = agg(&r, true);
        space(&r);
        if (!rc && *r.at)
            rc = fail(&r, "text after the closing '}': '%.20s'", r.at);
    }
    free(it);
    return rc;
}

void sa_print(FILE *f, const bc_module *m, const bc_param *p,
              const uint8_t *data, unsigned flags)
{
    const bc_byval *b = &p->byval;
    lay_item *it;
    size_t n;
    char e[200], text[VAL_TEXT_MAX];
    if (lay_parse(bc_str(m, b->layout), b->size, &it, &n, e, sizeof e) ||
        !n) {
        free(it);
        for (uint32_t k = 0; k < b->size; k++)
            fprintf(f, "%s0x%02x", k ? " " : "", data[k]);
        fputc('\n', f);
        return;
    }
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (it[i].kind == LAY_CLOSE) {
            fputc('}', f), first = false;
            continue;
        }
        if (!first)
            fputs(", ", f);
        first = it[i].kind == LAY_OPEN;
        if (first) {
            fputc('{', f);
            continue;
        }
        uint64_t bits[TY_MAXLANES];
        val_load(it[i].type, data + it[i].off, bits);
        fputs(val_format(it[i].type, bits, flags, text), f);
    }
    fputc('\n', f);
    free(it);
}
