/* The JSON writer of tools/json.h. */
#include "tools/json.h"

#include <inttypes.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s[0..n), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3
             : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
    if (s[0] >= 0xf5 || k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    uint32_t c = k == 3 ? (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6
               : k == 4 ? (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3f) << 12
               : 0x80;
    if ((k == 3 && (c < 0x800 || (c >= 0xd800 && c < 0xe000))) ||
        (k == 4 && (c < 0x10000 || c > 0x10ffff)))
        return 0;   /* overlong, a surrogate, or past U+10FFFF */
    return k;
}

/* s[0..n) as a JSON string. Control bytes are escaped; valid UTF-8 passes;
 * any other byte (names and printf output are not checked to be UTF-8)
 * becomes \u00XX, so the text stays valid JSON and the byte recoverable. */
static void quote(FILE *f, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        size_t k;
        switch (s[i]) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (s[i] < 0x80 && s[i] >= 0x20 && s[i] != 0x7f)
                fputc(s[i], f);
            else if (s[i] >= 0x80 && (k = utf8_len(s + i, n - i)) != 0)
                fwrite(s + i, 1, k, f), i += k - 1;
            else
                fprintf(f, "\\u%04x", s[i]);
        }
    }
    fputc('"', f);
}

/* Before a member: the comma after the previous one, a newline and the
 * indentation, and the key. */
static void member(json *j, const char *key)
{
    fputs(j->more[j->depth] ? ",\n" : "\n", j->f);
    j->more[j->depth] = true;
    fprintf(j->f, "%*s", 2 * (j->depth + 1), "");
    if (key) {
        quote(j->f, key, strlen(key));
        fputs(": ", j->f);
    }
}

static void nest(json *j, const char *key, char o, char c)
{
    member(j, key);
    fputc(o, j->f);
    if (j->depth + 1 < JS_DEPTH) {
        j->close[++j->depth] = c;
        j->more[j->depth] = false;
    }
}

void js_open(json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    j->close[0] = '}';
    fputc('{', f);
}

void js_close(json *j)
{
    while (j->depth > 0)
        js_end(j);
    fputs("\n}\n", j->f);
}

void js_obj(json *j, const char *key) { nest(j, key, '{', '}'); }
void js_arr(json *j, const char *key) { nest(j, key, '[', ']'); }

void js_end(json *j)
{
    if (j->depth <= 0)
        return;
    int d = j->depth--;
    if (j->more[d])
        fprintf(j->f, "\n%*s", 2 * d, "");
    fputc(j->close[d], j->f);
}

void js_strn(json *j, const char *key, const char *s, size_t n)
{
    member(j, key);
    quote(j->f, s, n);
}

void js_str(json *j, const char *key, const char *s)
{
    js_strn(j, key, s, strlen(s));
}

void js_u64(json *j, const char *key, uint64_t v)
{
    member(j, key);
    fprintf(j->f, "%" PRIu64, v);
}

void js_i64(json *j, const char *key, int64_t v)
{
    member(j, key);
    fprintf(j->f, "%" PRId64, v);
}

void js_f64(json *j, const char *key, double v)
{
    member(j, key);
    if (v == v && v - v == 0)
        fprintf(j->f, "%.17g", v);
    else
        fputs("null", j->f);   /* JSON has no nan or inf */
}

void js_bool(json *j, const char *key, bool v)
{
    member(j, key);
    fputs(v ? "true" : "false", j->f);
}

void js_id3(json *j, const char *key, const uint64_t v[3])
{
    member(j, key);
    fprintf(j->f, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", v[0], v[1], v[2]);
}
