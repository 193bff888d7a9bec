/* printf formats: the one parser and checker the assembler and the
 * verifier share (vm/printf.h). */
#include "vm/printf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(pf_error *e, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(pf_error *e, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->at = (uint32_t)at;
    return -1;
}

static bool is_int_conv(char c) { return c && strchr("diouxX", c); }
static bool is_flt_conv(char c) { return c && strchr("fFeEgGaA", c); }

/* A decimal width or precision at fmt[*i]: -1 if none, -3 for '*'. */
static int number(const char *fmt, size_t len, size_t *i, pf_error *e,
                  const char *what)
{
    if (*i < len && fmt[*i] == '*') {
        ++*i;
        return -3;
    }
    long v = -1;
    size_t at = *i;
    for (; *i < len && fmt[*i] >= '0' && fmt[*i] <= '9'; ++*i) {
        v = (v < 0 ? 0 : v) * 10 + (fmt[*i] - '0');
        if (v > PF_MAX_WIDTH)
            return fail(e, at, "%s over %d", what, PF_MAX_WIDTH), -2;
    }
    return (int)v;
}

int pf_next(const char *fmt, size_t len, size_t *pos, pf_spec *s,
            pf_error *e)
{
    size_t i = *pos;
    while (i < len && fmt[i] != '%')
        i++;
    if (i >= len) {
        *pos = len;
        return 0;
    }
    memset(s, 0, sizeof *s);
    s->start = (uint32_t)i++;
    size_t nf = 0;
    for (; i < len && fmt[i] && strchr("-+ #0", fmt[i]); i++) {
        if (memchr(s->flags, fmt[i], nf))
            return fail(e, i, "flag '%c' given twice", fmt[i]);
        s->flags[nf++] = fmt[i];
    }
    if ((s->width = number(fmt, len, &i, e, "field width")) == -2)
        return -1;
    if (s->width == -3)
        s->width = -1, s->star |= PF_STAR_W;
    s->prec = -1;
    if (i < len && fmt[i] == '.') {
        i++;
        if ((s->prec = number(fmt, len, &i, e, "precision")) == -2)
            return -1;
        if (s->prec == -3)
            s->prec = -1, s->star |= PF_STAR_P;
        else if (s->prec < 0)
            s->prec = 0;    /* "." alone is precision 0, as in C */
    }
    if (i < len && fmt[i] == 'v') {
        size_t at = i++;
        unsigned n = 0;
        while (i < len && fmt[i] >= '0' && fmt[i] <= '9' && n < 100)
            n = n * 10 + (unsigned)(fmt[i++] - '0');
        if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
            return fail(e, at, "vector specifier needs 2, 3, 4, 8 or 16 "
                        "components");
        s->vec = (uint8_t)n;
    }
    size_t lat = i;
    if (i + 1 < len && fmt[i] == 'h' && fmt[i + 1] == 'h')
        s->length = PF_HH, i += 2;
    else if (i + 1 < len && fmt[i] == 'h' && fmt[i + 1] == 'l')
        s->length = PF_HL, i += 2;
    else if (i < len && fmt[i] == 'h')
        s->length = PF_H, i++;
    else if (i < len && fmt[i] == 'l')
        s->length = PF_L, i++;
    if (i < len && fmt[i] && strchr("lLjztq", fmt[i]))
        return fail(e, i, "length modifier '%.*s%c' is not OpenCL C's (hh, "
                    "h, hl, l)", (int)(i - lat), fmt + lat, fmt[i]);
    if (i >= len)
        return fail(e, s->start, "conversion at the end of the format has "
                    "no conversion character");
    s->conv = fmt[i++];
    s->len = (uint32_t)(i - s->start);
    *pos = i;
    char c = s->conv;
    int cl = (int)s->len;
    const char *sp = fmt + s->start;
    if (c == 'n')
        return fail(e, s->start, "%%n is not allowed");
    if (!is_int_conv(c) && !is_flt_conv(c) && !strchr("csp%", c))
        return fail(e, i - 1, "unknown conversion '%%%c'",
                    (unsigned char)c >= 32 && (unsigned char)c < 127 ? c
                                                                     : '?');
    if (c == '%') {
        if (cl != 2)
            return fail(e, s->start, "'%%%%' takes no flags, width, "
                        "precision or length");
        return 1;
    }
    if (s->vec && !s->length)
        return fail(e, s->start, "vector specifier in '%.*s' needs a length "
                    "modifier (hh, h, hl or l)", cl, sp);
    if (s->length == PF_HL && !s->vec)
        return fail(e, lat, "length modifier 'hl' needs a vector specifier");
    if (s->vec && !is_int_conv(c) && !is_flt_conv(c))
        return fail(e, s->start, "'%.*s': %%%c cannot print vectors", cl, sp,
                    c);
    if (is_flt_conv(c) && s->length == PF_HH)
        return fail(e, lat, "'%.*s': 'hh' with a floating conversion", cl,
                    sp);
    if (is_flt_conv(c) && s->length == PF_H && !s->vec)
        return fail(e, lat, "'%.*s': 'h' with a floating conversion needs a "
                    "vector specifier (half vectors)", cl, sp);
    if (strchr("csp", c) && s->length)
        return fail(e, lat, "'%.*s': no length modifier with %%%c", cl, sp,
                    c);
    /* What C leaves undefined is an error, not a surprise at run time. */
    if (strchr(s->flags, '#') && (strchr("dicsp", c) || c == 'u'))
        return fail(e, s->start, "'%.*s': flag '#' has no meaning for %%%c",
                    cl, sp, c);
    if (strchr(s->flags, '0') && strchr("csp", c))
        return fail(e, s->start, "'%.*s': flag '0' has no meaning for %%%c",
                    cl, sp, c);
    if (s->star && c == 's')
        return fail(e, s->start, "'%.*s': '*' with %%s is not supported (a "
                    "string literal is formatted when assembling): write "
                    "the number", cl, sp);
    if ((s->prec >= 0 || (s->star & PF_STAR_P)) && strchr("cp", c))
        return fail(e, s->start, "'%.*s': a precision has no meaning for "
                    "%%%c", cl, sp, c);
    return 1;
}

bool pf_takes_arg(const pf_spec *s)
{
    return s->conv != '%';
}

unsigned pf_nstars(const pf_spec *s)
{
    return (s->star & PF_STAR_W ? 1u : 0u) + (s->star & PF_STAR_P ? 1u : 0u);
}

int pf_check_star(const pf_spec *s, const char *fmt, pf_arg a, char *msg,
                  size_t msglen)
{
    char tn[TY_NAME_MAX];
    if (a.kind == PF_ARG_VALUE && a.type.n == 1 &&
        !ty_is_float((enum ty_scalar)a.type.s) &&
        ty_scalar_size((enum ty_scalar)a.type.s) <= 4)
        return 0;
    snprintf(msg, msglen, "'%.*s': '*' needs an int, not %s", (int)s->len,
             fmt + s->start, a.kind == PF_ARG_STRING ? "a string"
                             : a.kind == PF_ARG_POINTER ? "a pointer"
                                                        : ty_name(a.type, tn));
    return -1;
}

/* The element a length gives: its bytes (0: any up to int). */
static unsigned len_bytes(enum pf_len l)
{
    switch (l) {
    case PF_HH: return 1;
    case PF_H: return 2;
    case PF_HL: return 4;
    case PF_L: return 8;
    default: return 0;
    }
}

int pf_check_arg(const pf_spec *s, const char *fmt, pf_arg a, char *msg,
                 size_t msglen)
{
    char tn[TY_NAME_MAX], need[64];
    const char *sp = fmt + s->start;
    int cl = (int)s->len;
    char c = s->conv;
    const char *have = a.kind == PF_ARG_STRING ? "a string"
                       : a.kind == PF_ARG_POINTER ? "a pointer"
                                                  : ty_name(a.type, tn);
    if (c == 's' || c == 'p') {
        unsigned k = c == 's' ? PF_ARG_STRING : PF_ARG_POINTER;
        if (a.kind == k)
            return 0;
        snprintf(msg, msglen, "'%.*s' needs %s, not %s", cl, sp,
                 c == 's' ? "a string literal" : "a pointer", have);
        return -1;
    }
    enum ty_scalar el = (enum ty_scalar)a.type.s;
    unsigned n = s->vec ? s->vec : 1, es = ty_scalar_size(el);
    bool ok = a.kind == PF_ARG_VALUE && a.type.n == n;
    if (is_flt_conv(c)) {
        ok = ok && ty_is_float(el) &&
             (s->vec ? es == len_bytes((enum pf_len)s->length)
                     : el != TY_HALF);
        if (s->vec)
            snprintf(need, sizeof need, "a %s%u",
                     s->length == PF_H ? "half" : s->length == PF_HL
                                                      ? "float" : "double",
                     n);
        else
            snprintf(need, sizeof need, "a float or double");
    } else {
        unsigned lb = len_bytes((enum pf_len)s->length);
        ok = ok && !ty_is_float(el) &&
             (s->vec || s->length == PF_L ? es == lb : es <= 4);
        if (s->vec)
            snprintf(need, sizeof need, "a %u-component vector of %u-byte "
                     "integers", n, lb);
        else if (s->length == PF_L)
            snprintf(need, sizeof need, "a long or ulong");
        else
            snprintf(need, sizeof need, "an integer of at most 4 bytes (char "
                     "to uint)");
    }
    if (ok)
        return 0;
    snprintf(msg, msglen, "'%.*s' needs %s, not %s", cl, sp, need, have);
    return -1;
}

void pf_cformat(const pf_spec *s, char *buf)
{
    char *p = buf;
    *p++ = '%';
    for (const char *f = s->flags; *f; f++)
        *p++ = *f;
    if (s->width >= 0)
        p += sprintf(p, "%d", s->width);
    if (s->prec >= 0)
        p += sprintf(p, ".%d", s->prec);
    if (is_int_conv(s->conv))
        *p++ = 'l', *p++ = 'l';
    *p++ = s->conv;
    *p = 0;
}

int pf_check(const char *fmt, size_t len, const pf_arg *args, unsigned n,
             pf_error *e)
{
    size_t pos = 0;
    unsigned used = 0;
    pf_spec s;
    int r;
    while ((r = pf_next(fmt, len, &pos, &s, e)) == 1) {
        if (!pf_takes_arg(&s))
            continue;
        if (used + pf_nstars(&s) >= n)
            return fail(e, s.start, "'%.*s' has no argument (%u given)",
                        (int)s.len, fmt + s.start, n);
        for (unsigned k = pf_nstars(&s); k; k--)
            if (pf_check_star(&s, fmt, args[used++], e->msg, sizeof e->msg)) {
                e->at = s.start;
                return -1;
            }
        if (pf_check_arg(&s, fmt, args[used], e->msg, sizeof e->msg)) {
            e->at = s.start;
            return -1;
        }
        used++;
    }
    if (r < 0)
        return -1;
    if (used < n)
        return fail(e, len, "%u argument%s but the format has %u "
                    "conversion%s", n, n == 1 ? "" : "s", used,
                    used == 1 ? "" : "s");
    return 0;
}
