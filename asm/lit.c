/* Numeric literals: parsing, their exact bits in each OpenCL scalar type,
 * constant operators with the VM's semantics, and shortest text for dis. */
#include "asm/lit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/bytes.h"
#include "stdlib/convert.h"
#include "stdlib/half.h"
#include "asm/lex.h"

#define TY(s, n) ((ty_t){(uint8_t)(s), (uint8_t)(n)})

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_xdigit(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static unsigned xval(int c)
{
    return is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 32) - 'a' + 10);
}

/* Integer suffix: u, l, ul, lu in any case. Returns bit 0 u, bit 1 l, or
 * -1 if s is no such suffix. */
static int int_suffix(const char *s, size_t len)
{
    int f = 0;
    for (size_t i = 0; i < len; i++) {
        int c = s[i] | 32, bit = c == 'u' ? 1 : c == 'l' ? 2 : 0;
        if (!bit || (f & bit))
            return -1;
        f |= bit;
    }
    return f;
}

/* C's type for an integer constant (OpenCL: int 32, long 64 bits). */
static ty_t int_type(uint64_t v, int sfx, bool decimal)
{
    bool u = sfx & 1, l = sfx & 2;
    if (!u && !l && v <= INT32_MAX)
        return TY(TY_INT, 1);
    if (!l && (u || !decimal) && v <= UINT32_MAX)
        return TY(TY_UINT, 1);
    if (!u && v <= INT64_MAX)
        return TY(TY_LONG, 1);
    return TY(TY_ULONG, 1);
}

const char *lit_parse(const char *s, size_t len, lit *out)
{
    lit l = {0};
    size_t i = 0;
    bool hex = len > 2 && s[0] == '0' && (s[1] | 32) == 'x';
    bool flt = false, digits = false;
    int points = 0;
    /* Hex and decimal share one scan: their digits and exponent letter
     * differ ('p' introduces a hex float's binary exponent, required). */
    bool (*digit)(int) = hex ? is_xdigit : is_digit;
    i = hex ? 2 : 0;
    while (i < len && (digit(s[i]) || s[i] == '.'))
        points += s[i] == '.', digits |= s[i] != '.', i++;
    flt = points > 0;
    if (i < len && (s[i] | 32) == (hex ? 'p' : 'e')) {
        flt = true, i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= len || !is_digit(s[i]))
            return "exponent has no digits";
        while (i < len && is_digit(s[i]))
            i++;
    } else if (hex && flt) {
        return "a hex float needs a 'p' exponent";
    }
    if (!digits)
        return "no digits";
    const char *sfx = s + i;
    size_t sl = len - i;
    if (flt) {
        if (points > 1)
            return "two decimal points";
        if (sl > 1 || (sl == 1 && !strchr("fFhH", *sfx)))
            return "invalid suffix on a floating literal (f or h)";
        l.kind = LIT_FLT, l.hex = hex, l.text = s, l.len = (uint32_t)i;
        l.sfx = sl ? (char)(*sfx | 32) : 0;
        l.nat = TY(l.sfx == 'f' ? TY_FLOAT : l.sfx == 'h' ? TY_HALF
                                                          : TY_DOUBLE, 1);
        *out = l;
        return NULL;
    }
    int isfx = int_suffix(sfx, sl);
    if (isfx < 0)
        return sl && strchr("fFhH", *sfx) && sl == 1
                   ? "an integer literal takes no f or h suffix (write 1.0f)"
                   : "invalid suffix on an integer literal (u, l, ul)";
    if (!hex && i > 1 && s[0] == '0')
        return "octal literals are not supported (write decimal or 0x)";
    uint64_t v = 0;
    for (size_t k = hex ? 2 : 0; k < i; k++) {
        unsigned d = hex ? xval(s[k]) : (unsigned)(s[k] - '0');
        unsigned base = hex ? 16 : 10;
        if (v > (UINT64_MAX - d) / base)
            return "integer literal is too large (more than 64 bits)";
        v = v * base + d;
    }
    l.kind = LIT_INT, l.mag = v, l.nat = int_type(v, isfx, !hex);
    *out = l;
    return NULL;
}

static const struct {
    const char *name;
    uint8_t kind, s;
    bool neg;
    uint64_t mag;
    const char *text;   /* LIT_FLT: a hex float, suffix f unless double */
} named[] = {
    {"NAN", LIT_NAN, TY_FLOAT, 0, 0, 0},
    {"INFINITY", LIT_INF, TY_FLOAT, 0, 0, 0},
    {"HUGE_VALF", LIT_INF, TY_FLOAT, 0, 0, 0},
    {"HUGE_VAL", LIT_INF, TY_DOUBLE, 0, 0, 0},
    {"MAXFLOAT", LIT_FLT, TY_FLOAT, 0, 0, "0x1.fffffep127"},
    {"FLT_MAX", LIT_FLT, TY_FLOAT, 0, 0, "0x1.fffffep127"},
    {"FLT_MIN", LIT_FLT, TY_FLOAT, 0, 0, "0x1p-126"},
    {"FLT_EPSILON", LIT_FLT, TY_FLOAT, 0, 0, "0x1p-23"},
    {"DBL_MAX", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.fffffffffffffp1023"},
    {"DBL_MIN", LIT_FLT, TY_DOUBLE, 0, 0, "0x1p-1022"},
    {"DBL_EPSILON", LIT_FLT, TY_DOUBLE, 0, 0, "0x1p-52"},
    {"CHAR_BIT", LIT_INT, TY_INT, 0, 8, 0},
    {"CHAR_MAX", LIT_INT, TY_INT, 0, 127, 0},
    {"CHAR_MIN", LIT_INT, TY_INT, 1, 128, 0},
    {"SCHAR_MAX", LIT_INT, TY_INT, 0, 127, 0},
    {"SCHAR_MIN", LIT_INT, TY_INT, 1, 128, 0},
    {"UCHAR_MAX", LIT_INT, TY_INT, 0, 255, 0},
    {"SHRT_MAX", LIT_INT, TY_INT, 0, 32767, 0},
    {"SHRT_MIN", LIT_INT, TY_INT, 1, 32768, 0},
    {"USHRT_MAX", LIT_INT, TY_INT, 0, 65535, 0},
    {"INT_MAX", LIT_INT, TY_INT, 0, 2147483647, 0},
    {"INT_MIN", LIT_INT, TY_INT, 1, 2147483648u, 0},
    {"UINT_MAX", LIT_INT, TY_UINT, 0, 4294967295u, 0},
    {"LONG_MAX", LIT_INT, TY_LONG, 0, INT64_MAX, 0},
    {"LONG_MIN", LIT_INT, TY_LONG, 1, (uint64_t)1 << 63, 0},
    {"ULONG_MAX", LIT_INT, TY_ULONG, 0, UINT64_MAX, 0},
    {"CLK_LOCAL_MEM_FENCE", LIT_INT, TY_INT, 0, 1, 0},
    {"CLK_GLOBAL_MEM_FENCE", LIT_INT, TY_INT, 0, 2, 0},
    /* OpenCL C's math constants, float (_F) and double, correctly
     * rounded; the float.h and limits of the OpenCL C specification */
    {"M_E", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.5bf0a8b145769p+1"},
    {"M_E_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.5bf0a8p+1"},
    {"M_LOG2E", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.71547652b82fep+0"},
    {"M_LOG2E_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.715476p+0"},
    {"M_LOG10E", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.bcb7b1526e50ep-2"},
    {"M_LOG10E_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.bcb7b2p-2"},
    {"M_LN2", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.62e42fefa39efp-1"},
    {"M_LN2_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.62e43p-1"},
    {"M_LN10", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.26bb1bbb55516p+1"},
    {"M_LN10_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.26bb1cp+1"},
    {"M_PI", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.921fb54442d18p+1"},
    {"M_PI_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.921fb6p+1"},
    {"M_PI_2", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.921fb54442d18p+0"},
    {"M_PI_2_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.921fb6p+0"},
    {"M_PI_4", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.921fb54442d18p-1"},
    {"M_PI_4_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.921fb6p-1"},
    {"M_1_PI", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.45f306dc9c883p-2"},
    {"M_1_PI_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.45f306p-2"},
    {"M_2_PI", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.45f306dc9c883p-1"},
    {"M_2_PI_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.45f306p-1"},
    {"M_2_SQRTPI", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.20dd750429b6dp+0"},
    {"M_2_SQRTPI_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.20dd76p+0"},
    {"M_SQRT2", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.6a09e667f3bcdp+0"},
    {"M_SQRT2_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.6a09e6p+0"},
    {"M_SQRT1_2", LIT_FLT, TY_DOUBLE, 0, 0, "0x1.6a09e667f3bcdp-1"},
    {"M_SQRT1_2_F", LIT_FLT, TY_FLOAT, 0, 0, "0x1.6a09e6p-1"},
    {"FLT_DIG", LIT_INT, TY_INT, 0, 6, 0},
    {"FLT_MANT_DIG", LIT_INT, TY_INT, 0, 24, 0},
    {"FLT_MAX_10_EXP", LIT_INT, TY_INT, 0, 38, 0},
    {"FLT_MAX_EXP", LIT_INT, TY_INT, 0, 128, 0},
    {"FLT_MIN_10_EXP", LIT_INT, TY_INT, 1, 37, 0},
    {"FLT_MIN_EXP", LIT_INT, TY_INT, 1, 125, 0},
    {"FLT_RADIX", LIT_INT, TY_INT, 0, 2, 0},
    {"DBL_DIG", LIT_INT, TY_INT, 0, 15, 0},
    {"DBL_MANT_DIG", LIT_INT, TY_INT, 0, 53, 0},
    {"DBL_MAX_10_EXP", LIT_INT, TY_INT, 0, 308, 0},
    {"DBL_MAX_EXP", LIT_INT, TY_INT, 0, 1024, 0},
    {"DBL_MIN_10_EXP", LIT_INT, TY_INT, 1, 307, 0},
    {"DBL_MIN_EXP", LIT_INT, TY_INT, 1, 1021, 0},
    {"FP_ILOGB0", LIT_INT, TY_INT, 1, 2147483648u, 0},
    {"FP_ILOGBNAN", LIT_INT, TY_INT, 0, 2147483647, 0},
};

bool lit_named(const char *name, size_t len, lit *out)
{
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        if (strlen(named[i].name) != len || memcmp(named[i].name, name, len))
            continue;
        lit l = {0};
        l.kind = named[i].kind, l.neg = named[i].neg, l.mag = named[i].mag;
        l.nat = TY(named[i].s, 1);
        if (l.kind == LIT_FLT) {
            l.text = named[i].text, l.len = (uint32_t)strlen(l.text);
            l.hex = true, l.sfx = named[i].s == TY_FLOAT ? 'f' : 0;
        }
        *out = l;
        return true;
    }
    return false;
}

/* ---- element bits and host values ---- */

static uint64_t mask_of(enum ty_scalar t)
{
    unsigned b = ty_scalar_size(t) * 8;
    return b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
}

/* cv_scalar's host representation: an element's bits in host order (a
 * same-size unsigned integer holds the bytes of t's C storage type). */
void lit_host_put(void *p, enum ty_scalar t, unsigned i, uint64_t bits)
{
    ty_put_bits((uint8_t *)p + (size_t)i * ty_scalar_size(t), ty_scalar_size(t),
                bits);
}

uint64_t lit_host_get(const void *p, enum ty_scalar t, unsigned i)
{
    return ty_get_bits((const uint8_t *)p + (size_t)i * ty_scalar_size(t),
                       ty_scalar_size(t));
}

uint64_t lit_convert(enum ty_scalar dst, enum ty_scalar src, uint64_t bits)
{
    uint64_t s = 0, d = 0;
    ty_put_bits(&s, ty_scalar_size(src), bits);
    cv_scalar(dst, src, &d, &s, false, cv_default_round(dst));
    return ty_get_bits(&d, ty_scalar_size(dst));
}

void lit_store(uint8_t *p, enum ty_scalar t, uint64_t bits)
{
    le_store(p, ty_scalar_size(t), bits);
}

uint64_t lit_load(const uint8_t *p, enum ty_scalar t)
{
    return le_load(p, ty_scalar_size(t));
}

static uint64_t sign_bit(enum ty_scalar t)
{
    return (uint64_t)1 << (ty_scalar_size(t) * 8 - 1);
}

static uint64_t f2b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float b2f(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static uint64_t d2b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double b2d(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

static bool is_inf_bits(enum ty_scalar t, uint64_t b)
{
    uint64_t m = b & ~sign_bit(t);
    return t == TY_HALF ? m == 0x7c00 : t == TY_FLOAT ? m == 0x7f800000u
                                                      : m == 0x7ff0000000000000u;
}

/* ---- floating literals, rounded once ---- */

/* Compares the decimal value of text (no sign, no suffix) with a > 0:
 * both as 0.DIGITS x 10^E with DIGITS free of leading and trailing
 * zeros. */
static int dec_cmp(const char *text, size_t len, double a)
{
    char ad[80];
    snprintf(ad, sizeof ad, "%.60e", a);     /* exact for half midpoints */
    long ae = strtol(strchr(ad, 'e') + 1, NULL, 10) + 1;
    char adig[80];
    size_t an = 0;
    for (const char *p = ad; *p != 'e'; p++)
        if (is_digit(*p))
            adig[an++] = *p;
    while (an && adig[an - 1] == '0')
        an--;
    /* The literal: digits before 'e', point position, exponent. */
    size_t i = 0, first = SIZE_MAX, last = 0, point = SIZE_MAX, nd = 0;
    long e = 0, lead = 0;
    for (; i < len && (text[i] | 32) != 'e'; i++) {
        if (text[i] == '.') {
            point = nd;
            continue;
        }
        if (text[i] != '0' && first == SIZE_MAX)
            first = i, lead = (long)nd;
        if (text[i] != '0')
            last = i;
        nd++;
    }
    if (point == SIZE_MAX)
        point = nd;
    if (i < len) {
        long x = 0, sg = 1;
        i++;
        if (text[i] == '+' || text[i] == '-')
            sg = text[i++] == '-' ? -1 : 1;
        for (; i < len; i++)
            x = x < 100000000 ? x * 10 + (text[i] - '0') : x;
        e = sg * x;
    }
    if (first == SIZE_MAX)
        return -1;                            /* zero < a */
    long le = e + (long)point - lead;
    if (le != ae)
        return le < ae ? -1 : 1;
    size_t k = 0;
    for (i = first; i <= last; i++) {
        if (text[i] == '.')
            continue;
        if (k >= an)
            return 1;
        if (text[i] != adig[k])
            return text[i] < adig[k] ? -1 : 1;
        k++;
    }
    return k < an ? -1 : 0;
}

/* text rounded to nearest even in t (no sign). Decimal -> double -> half
 * would round twice; a double that lands exactly on a half midpoint is
 * settled by comparing the decimal digits with it. */
static uint64_t round_text(const char *text, size_t len, bool hex,
                           enum ty_scalar t)
{
    char small[64], *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf)
        return 0;
    memcpy(buf, text, len);
    buf[len] = 0;
    uint64_t r;
    if (t == TY_FLOAT) {
        r = f2b(strtof(buf, NULL));
    } else if (t == TY_DOUBLE) {
        r = d2b(strtod(buf, NULL));
    } else {
        double d = strtod(buf, NULL);
        uint16_t lo = half_from_double(d, RND_RTZ);
        r = half_from_double(d, RND_RTE);
        if (!hex && lo < 0x7c00 && isfinite(d)) {
            double hi = lo == 0x7bff ? 65536.0 : half_to_double(lo + 1);
            double mid = (half_to_double(lo) + hi) / 2;
            if (d == mid && d > 0) {
                int c = dec_cmp(text, len, d);
                r = c > 0 ? (uint16_t)(lo + 1) : c < 0 ? lo : r;
            }
        }
    }
    if (buf != small)
        free(buf);
    return r;
}

static int float_rank(enum ty_scalar t)
{
    return t == TY_HALF ? 0 : t == TY_FLOAT ? 1 : 2;
}

enum lit_err lit_bits(const lit *l, enum ty_scalar t, uint64_t *bits)
{
    uint64_t r;
    if (!ty_is_float(t)) {
        if (l->kind != LIT_INT)
            return LIT_FLT_IN_INT;
        uint64_t lim = ty_is_signed(t) ? sign_bit(t) - !l->neg : mask_of(t);
        if (l->mag > lim || (l->neg && l->mag && !ty_is_signed(t)))
            return LIT_RANGE;
        *bits = (l->neg ? 0 - l->mag : l->mag) & mask_of(t);
        return LIT_OK;
    }
    switch (l->kind) {
    case LIT_INT:
        r = lit_convert(t, TY_ULONG, l->mag);
        if (is_inf_bits(t, r))
            return LIT_RANGE;
        break;
    case LIT_INF:
        r = t == TY_HALF ? 0x7c00 : t == TY_FLOAT ? 0x7f800000u
                                                  : 0x7ff0000000000000u;
        break;
    case LIT_NAN:   /* OpenCL C's (clang's header: as_float(INT_MAX)),
                       converted to t as OpenCL C would convert it */
        r = t == TY_HALF ? 0x7fff : t == TY_FLOAT ? 0x7fffffffu
                                                  : 0x7fffffffe0000000u;
        break;
    default: {
        enum ty_scalar own = l->sfx == 'f' ? TY_FLOAT : l->sfx == 'h' ? TY_HALF : t;
        if (float_rank(own) > float_rank(t))
            return LIT_NARROW;
        r = round_text(l->text, l->len, l->hex, own);
        if (is_inf_bits(own, r))
            return LIT_RANGE;
        if (own != t)
            r = lit_convert(t, own, r);   /* widening: exact */
    }
    }
    *bits = l->neg ? r ^ sign_bit(t) : r;
    return LIT_OK;
}

ty_t lit_common(ty_t a, ty_t b)
{
    bool fa = ty_is_float(a.s), fb = ty_is_float(b.s);
    if (fa || fb) {
        if (fa && fb)
            return float_rank(a.s) >= float_rank(b.s) ? a : b;
        return fa ? a : b;
    }
    unsigned sa = ty_scalar_size(a.s), sb = ty_scalar_size(b.s);
    if (sa < 4)
        a = TY(TY_INT, 1), sa = 4;
    if (sb < 4)
        b = TY(TY_INT, 1), sb = 4;
    if (sa != sb)
        return sa > sb ? a : b;
    return ty_is_signed(a.s) ? b : a;     /* unsigned wins at equal size */
}

/* ---- operators ---- */

static bool is_neg(enum ty_scalar t, uint64_t v)
{
    return ty_is_signed(t) && (v & sign_bit(t));
}

static uint64_t mag(enum ty_scalar t, uint64_t v)
{
    return is_neg(t, v) ? (0 - v) & mask_of(t) : v;
}

static int cmp_int(enum ty_scalar t, uint64_t a, uint64_t b)
{
    if (ty_is_signed(t))
        a ^= sign_bit(t), b ^= sign_bit(t);
    return a < b ? -1 : a > b;
}

static const char *int_binop(int op, enum ty_scalar t, uint64_t a, uint64_t b,
                             uint64_t *r)
{
    uint64_t m = mask_of(t), sb = sign_bit(t);
    unsigned bits = ty_scalar_size(t) * 8, s = (unsigned)(b & (bits - 1));
    bool sg = ty_is_signed(t);
    switch (op) {
    case P_ADD: *r = (a + b) & m; break;
    case P_SUB: *r = (a - b) & m; break;
    case P_MUL: *r = (a * b) & m; break;
    case P_DIV:
        if (!b)
            *r = 0;                              /* docs/semantics.md */
        else if (sg && a == sb && b == m)
            *r = sb;                             /* MIN / -1 */
        else {
            uint64_t q = mag(t, a) / mag(t, b);
            *r = (is_neg(t, a) != is_neg(t, b) ? 0 - q : q) & m;
        }
        break;
    case P_MOD:
        if (!b)
            *r = a;
        else if (sg && a == sb && b == m)
            *r = 0;
        else {
            uint64_t q = mag(t, a) % mag(t, b);
            *r = (is_neg(t, a) ? 0 - q : q) & m;
        }
        break;
    case P_AND: *r = a & b; break;
    case P_OR: *r = a | b; break;
    case P_XOR: *r = a ^ b; break;
    case P_SHL: *r = (a << s) & m; break;
    case P_SHR:
        *r = is_neg(t, a) ? ~((~a & m) >> s) & m : a >> s;
        break;
    case P_LT: *r = cmp_int(t, a, b) < 0; break;
    case P_LE: *r = cmp_int(t, a, b) <= 0; break;
    case P_GT: *r = cmp_int(t, a, b) > 0; break;
    case P_GE: *r = cmp_int(t, a, b) >= 0; break;
    case P_EQ: *r = a == b; break;
    case P_NE: *r = a != b; break;
    case P_ANDAND: *r = a && b; break;
    case P_OROR: *r = a || b; break;
    default: return "not an operator";
    }
    return NULL;
}

/* half: each operation rounded once, as the VM's (stdlib/half.h) */
static const char *half_binop(int op, uint16_t a, uint16_t b, uint64_t *r)
{
    float x = half_to_float(a), y = half_to_float(b);
    switch (op) {
    case P_ADD: *r = half_add(a, b); break;
    case P_SUB: *r = half_sub(a, b); break;
    case P_MUL: *r = half_mul(a, b); break;
    case P_DIV: *r = half_div(a, b); break;
    case P_LT: *r = x < y; break;
    case P_LE: *r = x <= y; break;
    case P_GT: *r = x > y; break;
    case P_GE: *r = x >= y; break;
    case P_EQ: *r = x == y; break;
    case P_NE: *r = x != y; break;
    default: return "the operator needs integer operands";
    }
    return NULL;
}

const char *lit_binop(int op, enum ty_scalar t, uint64_t a, uint64_t b,
                      uint64_t *r)
{
    if (!ty_is_float(t))
        return int_binop(op, t, a, b, r);
    if (t == TY_HALF)
        return half_binop(op, (uint16_t)a, (uint16_t)b, r);
    bool f = t == TY_FLOAT;
    double x = f ? b2f(a) : b2d(a), y = f ? b2f(b) : b2d(b), z;
    float fx = b2f(a), fy = b2f(b), fz = 0;
    switch (op) {
    /* float arithmetic in float: one rounding, as the VM does it */
    case P_ADD: z = x + y, fz = fx + fy; break;
    case P_SUB: z = x - y, fz = fx - fy; break;
    case P_MUL: z = x * y, fz = fx * fy; break;
    case P_DIV: z = x / y, fz = fx / fy; break;
    case P_LT: *r = x < y; return NULL;
    case P_LE: *r = x <= y; return NULL;
    case P_GT: *r = x > y; return NULL;
    case P_GE: *r = x >= y; return NULL;
    case P_EQ: *r = x == y; return NULL;
    case P_NE: *r = x != y; return NULL;
    default: return "the operator needs integer operands";
    }
    *r = f ? f2b(fz) : d2b(z);
    return NULL;
}

const char *lit_unop(int op, enum ty_scalar t, uint64_t a, uint64_t *r)
{
    if (op == P_ADD) {
        *r = a;
        return NULL;
    }
    if (ty_is_float(t)) {
        if (op != P_SUB)
            return "the operator needs an integer operand";
        *r = a ^ sign_bit(t);    /* negation flips the sign, NaNs too */
        return NULL;
    }
    switch (op) {
    case P_SUB: *r = (0 - a) & mask_of(t); break;
    case P_TILDE: *r = ~a & mask_of(t); break;
    case P_NOT: *r = a == 0; break;
    default: return "not an operator";
    }
    return NULL;
}

/* ---- text for dis ---- */

static double as_double(enum ty_scalar t, uint64_t b)
{
    return t == TY_HALF ? half_to_double((uint16_t)b)
           : t == TY_FLOAT ? (double)b2f(b) : b2d(b);
}

char *lit_format(enum ty_scalar t, uint64_t bits, char buf[LIT_TEXT_MAX])
{
    if (!ty_is_float(t)) {
        /* -9223372036854775808 would be a ulong negated, as in C */
        if (t == TY_LONG && bits == (uint64_t)1 << 63)
            snprintf(buf, LIT_TEXT_MAX, "LONG_MIN");
        else if (is_neg(t, bits))
            snprintf(buf, LIT_TEXT_MAX, "-%llu",
                     (unsigned long long)mag(t, bits));
        else
            snprintf(buf, LIT_TEXT_MAX, "%llu", (unsigned long long)bits);
        return buf;
    }
    uint64_t sb = sign_bit(t), m = bits & ~sb;
    const char *sg = bits & sb ? "-" : "";
    const char *sfx = t == TY_FLOAT ? "f" : t == TY_HALF ? "h" : "";
    double v = as_double(t, m);
    if (isnan(v)) {
        lit l;
        lit_named("NAN", 3, &l);
        uint64_t dflt;
        lit_bits(&l, t, &dflt);
        if (m == dflt)
            snprintf(buf, LIT_TEXT_MAX, "%sNAN", sg);
        else
            snprintf(buf, LIT_TEXT_MAX, "as_%s(0x%llx)", ty_scalar_name(t),
                     (unsigned long long)bits);
        return buf;
    }
    if (isinf(v)) {
        snprintf(buf, LIT_TEXT_MAX, "%sINFINITY", sg);
        return buf;
    }
    char num[40];
    /* Whole numbers read best as "100.0"; the rest as shortest %g. */
    if (v == floor(v) && v < 1e15) {
        snprintf(num, sizeof num, "%.0f", v);
        lit l;
        uint64_t back;
        if (!lit_parse(num, strlen(num), &l) && lit_bits(&l, t, &back) ==
                LIT_OK && back == m) {
            snprintf(buf, LIT_TEXT_MAX, "%s%s.0%s", sg, num, sfx);
            return buf;
        }
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(num, sizeof num, "%.*g", p, v);
        lit l;
        uint64_t back;
        if (!lit_parse(num, strlen(num), &l) && l.kind == LIT_FLT &&
            lit_bits(&l, t, &back) == LIT_OK && back == m)
            break;
    }
    bool point = strpbrk(num, ".e") != NULL;
    snprintf(buf, LIT_TEXT_MAX, "%s%s%s%s", sg, num, point ? "" : ".0", sfx);
    return buf;
}
