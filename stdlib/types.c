/* OpenCL C types (stdlib/types.h): names, sizes, signedness, parsing, and
 * element access in host order. */
#include "stdlib/types.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned size;
    char kind;
} scalars[TY_NSCALAR] = {
#define X(E, n, b, k, c) [TY_##E] = {#n, b, k},
    TY_SCALARS(X)
#undef X
};

const char *ty_scalar_name(enum ty_scalar s) { return scalars[s].name; }
unsigned ty_scalar_size(enum ty_scalar s) { return scalars[s].size; }
char ty_scalar_kind(enum ty_scalar s) { return scalars[s].kind; }
bool ty_is_float(enum ty_scalar s) { return scalars[s].kind == 'f'; }
bool ty_is_signed(enum ty_scalar s) { return scalars[s].kind == 'i'; }

uint64_t ty_get_bits(const void *p, unsigned n)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (n) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    case 4: memcpy(&b4, p, 4); return b4;
    default: memcpy(&b8, p, 8); return b8;
    }
}

void ty_put_bits(void *p, unsigned n, uint64_t v)
{
    uint8_t b1 = (uint8_t)v;
    uint16_t b2 = (uint16_t)v;
    uint32_t b4 = (uint32_t)v;
    switch (n) {
    case 1: memcpy(p, &b1, 1); break;
    case 2: memcpy(p, &b2, 2); break;
    case 4: memcpy(p, &b4, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

enum ty_scalar ty_signed_of(enum ty_scalar s)
{
    static const uint8_t by_size[9] = {0, TY_CHAR, TY_SHORT, 0, TY_INT,
                                       0, 0, 0, TY_LONG};
    return (enum ty_scalar)by_size[ty_scalar_size(s)];
}

enum ty_scalar ty_unsigned_of(enum ty_scalar s)
{
    return (enum ty_scalar)(ty_signed_of(s) + 1);
}
_Static_assert(TY_UCHAR == TY_CHAR + 1 && TY_USHORT == TY_SHORT + 1 &&
               TY_UINT == TY_INT + 1 && TY_ULONG == TY_LONG + 1,
               "TY_SCALARS lists each unsigned type right after its signed one");

ty_t ty_signed(ty_t t) { return (ty_t){(uint8_t)ty_signed_of((enum ty_scalar)t.s), t.n}; }
ty_t ty_unsigned(ty_t t) { return (ty_t){(uint8_t)ty_unsigned_of((enum ty_scalar)t.s), t.n}; }

int ty_width_index(unsigned n)
{
    static const unsigned widths[] = {
#define X(w) w,
        TY_WIDTHS(X)
#undef X
    };
    for (int i = 0; i < TY_NWIDTH; i++)
        if (widths[i] == n)
            return i;
    return -1;
}

bool ty_valid_width(unsigned n) { return ty_width_index(n) >= 0; }
unsigned ty_lanes(ty_t t) { return t.n == 3 ? 4 : t.n; }
size_t ty_sizeof(ty_t t) { return (size_t)ty_lanes(t) * scalars[t.s].size; }
size_t ty_alignof(ty_t t) { return ty_sizeof(t); }
bool ty_eq(ty_t a, ty_t b) { return a.s == b.s && a.n == b.n; }

char *ty_name(ty_t t, char buf[TY_NAME_MAX])
{
    if (t.n == 1)
        snprintf(buf, TY_NAME_MAX, "%s", scalars[t.s].name);
    else
        snprintf(buf, TY_NAME_MAX, "%s%u", scalars[t.s].name, (unsigned)t.n);
    return buf;
}

size_t ty_parse_prefix(const char *s, size_t len, ty_t *out)
{
    size_t best = 0;
    for (int i = 0; i < TY_NSCALAR; i++) {
        size_t nl = strlen(scalars[i].name);
        if (nl > len || memcmp(s, scalars[i].name, nl) != 0 || nl <= best)
            continue;
        /* "uchar" must win over "char" only when it matches; a longer
         * match always wins ("ushort" vs "u..."), hence nl > best. */
        unsigned w = 1;
        size_t k = nl;
        if (k < len && s[k] >= '1' && s[k] <= '9') {
            w = (unsigned)(s[k++] - '0');
            if (k < len && s[k] >= '0' && s[k] <= '9')
                w = w * 10 + (unsigned)(s[k++] - '0');
            if (!ty_valid_width(w) || w == 1)
                continue;
        }
        best = k;
        out->s = (uint8_t)i;
        out->n = (uint8_t)w;
    }
    return best;
}

bool ty_parse(const char *s, size_t len, ty_t *out)
{
    ty_t t;
    if (ty_parse_prefix(s, len, &t) != len || len == 0)
        return false;
    *out = t;
    return true;
}
