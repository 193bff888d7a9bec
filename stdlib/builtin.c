/* Built-in names (stdlib/builtin.h): convert_/as_/vload/vstore names parsed
 * into a descriptor and formatted back. */
#include "stdlib/builtin.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *prefix;
    char arg;
    int16_t oc[4];
} kinds[BI_NKIND] = {
#define OC4(a, b, c, d) {a, b, c, d}
#define X(E, p, a, oc) [BI_##E] = {p, a, oc},
    BI_KINDS(X)
#undef X
#undef OC4
};

int bi_kind_ocl(enum bi_kind k, bool vector, bool round)
{
    return (unsigned)k < BI_NKIND ? kinds[k].oc[2 * vector + round] : -1;
}

const char *bi_kind_prefix(enum bi_kind k)
{
    return (unsigned)k < BI_NKIND ? kinds[k].prefix : "?";
}

bool bi_is_half(enum bi_kind k)
{
    return k == BI_VLOAD_HALF || k == BI_VLOADA_HALF || k == BI_VSTORE_HALF ||
           k == BI_VSTOREA_HALF;
}

bool bi_is_store(enum bi_kind k)
{
    return k == BI_VSTORE || k == BI_VSTORE_HALF || k == BI_VSTOREA_HALF;
}

static bool fail(const char **why, const char *msg)
{
    if (why)
        *why = msg;
    return false;
}

/* A width as OpenCL writes it: 2, 3, 4, 8 or 16, no leading zero. Returns
 * the digits used, 0 if there are none; *bad when they are no width. */
static size_t width(const char *s, size_t len, unsigned *n, bool *bad)
{
    size_t k = 0;
    unsigned w = 0;
    while (k < len && s[k] >= '0' && s[k] <= '9' && k < 3)
        w = w * 10 + (unsigned)(s[k++] - '0');
    *bad = k > 0 && (s[0] == '0' || w == 1 || !ty_valid_width(w) ||
                     (k < len && s[k] >= '0' && s[k] <= '9'));
    *n = w;
    return k;
}

/* The length of "_word" at s, or 0 when s does not start with it. */
static size_t suffix(const char *s, size_t len, const char *word)
{
    size_t wl = strlen(word);
    return len > wl && s[0] == '_' && memcmp(s + 1, word, wl) == 0 ? wl + 1
                                                                   : 0;
}

bool bi_parse(const char *s, size_t len, bi_desc *out, const char **why)
{
    bi_desc d = {0};
    size_t best = 0, k, sl;
    d.round = RND_RTE;
    /* Longest prefix: "vload_half4" is not vload followed by "_half4". */
    for (int i = 0; i < BI_NKIND; i++) {
        size_t pl = strlen(kinds[i].prefix);
        if (pl <= len && pl > best && memcmp(s, kinds[i].prefix, pl) == 0)
            best = pl, d.kind = (enum bi_kind)i;
    }
    if (!best)
        return fail(why, "not a built-in clvm knows");
    k = best;
    if (kinds[d.kind].arg == 'T') {
        size_t tl = ty_parse_prefix(s + k, len - k, &d.type);
        if (!tl)
            return fail(why, "bad type name");
        k += tl;
        d.n = d.type.n;
    } else {
        bool bad;
        size_t wl = width(s + k, len - k, &d.n, &bad);
        if (bad)
            return fail(why, "bad vector width (2, 3, 4, 8 or 16)");
        if (!wl && kinds[d.kind].arg == 'N')
            return fail(why, "missing vector width");
        if (!wl)
            d.n = 1;
        k += wl;
        d.type.n = (uint8_t)d.n;
    }
    if ((sl = suffix(s + k, len - k, "sat")))
        d.sat = true, k += sl;
    for (int r = 0; r < RND_NMODE; r++)
        if ((sl = suffix(s + k, len - k, rnd_name((enum rnd)r)))) {
            d.has_round = true, d.round = (enum rnd)r, k += sl;
            break;
        }
    if (k != len)
        return fail(why, "unknown suffix");
    *out = d;
    return true;
}

const char *bi_check(const bi_desc *d)
{
    if ((unsigned)d->kind >= BI_NKIND)
        return "unknown built-in kind";
    if (d->has_round && (unsigned)d->round >= RND_NMODE)
        return "unknown rounding mode";
    switch (kinds[d->kind].arg) {
    case 'T':
        if (d->type.s >= TY_NSCALAR || !ty_valid_width(d->type.n) ||
            d->type.n != d->n)
            return "bad result type";
        break;
    case 'N':
        if (d->n == 1 || !ty_valid_width(d->n))
            return "bad vector width (2, 3, 4, 8 or 16)";
        break;
    default:
        if (!ty_valid_width(d->n))
            return "bad vector width (none, 2, 3, 4, 8 or 16)";
    }
    switch (d->kind) {
    case BI_CONVERT:
        if (d->sat && ty_is_float((enum ty_scalar)d->type.s))
            return "_sat needs an integer destination";
        return NULL;
    case BI_VSTORE_HALF:
    case BI_VSTOREA_HALF:
        return d->sat ? "_sat is only for convert_" : NULL;
    default:
        if (d->sat)
            return "_sat is only for convert_";
        if (d->has_round)
            return "a rounding suffix is only for convert_ and vstore(a)_half";
        return NULL;
    }
}

char *bi_format(const bi_desc *d, char buf[BI_NAME_MAX])
{
    char mid[TY_NAME_MAX] = "?";
    bool ok_kind = (unsigned)d->kind < BI_NKIND;
    if (!ok_kind) {
        /* "?" */
    } else if (kinds[d->kind].arg == 'T') {
        if (d->type.s < TY_NSCALAR && ty_valid_width(d->type.n))
            ty_name(d->type, mid);
    } else if (d->n == 1 && kinds[d->kind].arg == 'n') {
        mid[0] = 0;
    } else if (d->n <= 99) {
        snprintf(mid, sizeof mid, "%u", d->n);
    }
    snprintf(buf, BI_NAME_MAX, "%s%s%s%s%s", bi_kind_prefix(d->kind), mid,
             d->sat ? "_sat" : "", d->has_round ? "_" : "",
             !d->has_round                   ? ""
             : (unsigned)d->round < RND_NMODE ? rnd_name(d->round)
                                              : "?");
    return buf;
}
