/* What an OpenCL C compilation reads besides the compile cache's key: the
 * #include directives of the source and of its embedded headers, scanned
 * as clang's preprocessor sees them (spliced lines, comments, digraphs),
 * erring on the side of "not cacheable". */
#include "tools/ccscan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* The text s[0..n) with its line splices removed (a backslash, blanks,
 * a newline: clang accepts blanks between them), NUL-terminated, into a
 * malloc'd copy of *len bytes; NULL when out of memory. */
static char *splice(const char *s, size_t n, size_t *len)
{
    char *t = malloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; t && i < n; i++) {
        if (s[i] == '\\') {
            size_t j = i + 1;
            while (j < n && blank(s[j]))
                j++;
            if (j < n && s[j] == '\n') {
                i = j;
                continue;
            }
        }
        t[k++] = s[i];
    }
    if (t)
        t[k] = 0, *len = k;
    return t;
}

/* Past the blanks and comments from t[i] (a directive goes on over a
 * comment's newlines), not past a newline; n if a comment never ends. */
static size_t skip_blank(const char *t, size_t n, size_t i)
{
    for (;;) {
        if (i < n && blank(t[i]))
            i++;
        else if (i + 1 < n && t[i] == '/' && t[i + 1] == '*') {
            const char *e = strstr(t + i + 2, "*/");
            i = e ? (size_t)(e - t) + 2 : n;
        } else
            return i;
    }
}

/* Is the include name t[0..l) an embedded header, seen from the header
 * at folder dir (dir[0..dl), quoted: the includer's folder comes first;
 * NULL for the source)? */
static bool embedded(const ccc_input *in, const char *t, size_t l,
                     const char *dir, size_t dl, bool quoted)
{
    for (int i = 0; i < in->nh; i++) {
        const char *h = in->hdrs[i].name;
        size_t hl = strlen(h);
        if ((hl == l && !memcmp(h, t, l)) ||
            (quoted && dir && hl == dl + 1 + l && !memcmp(h, dir, dl) &&
             h[dl] == '/' && !memcmp(h + dl + 1, t, l)))
            return true;
    }
    return false;
}

/* The directive whose '#' ends just before t[i]: true if it reads no
 * file outside the embedded headers; *end is where it stops being read. */
static bool directive_ok(const ccc_input *in, const char *t, size_t n,
                         size_t i, const char *dir, size_t dl, size_t *end)
{
    i = skip_blank(t, n, i);
    size_t w = i;
    while (i < n && (t[i] == '_' || isalnum((unsigned char)t[i])))
        i++;
    *end = i;
    if (i - w == 6 && !memcmp(t + w, "pragma", 6)) {
        /* #pragma GCC dependency FILE compares FILE's date */
        return !strstr(t + i, "dependency");
    }
    if (i - w == 7 && !memcmp(t + w, "include", 7)) {
        i = skip_blank(t, n, i);
        char close = i < n && t[i] == '"' ? '"' : i < n && t[i] == '<' ? '>' : 0;
        if (!close)
            return false;                /* a macro's include name */
        size_t s = ++i;
        while (i < n && t[i] != close && t[i] != '\n')
            i++;
        *end = i;
        return i < n && t[i] == close &&
               embedded(in, t + s, i - s, dir, dl, close == '"');
    }
    /* #import, #include_next: not for OpenCL C, never cached */
    return !(i - w >= 6 && !memcmp(t + w, "import", 6)) &&
           !(i - w >= 7 && !memcmp(t + w, "include", 7));
}

/* Every directive of the spliced text t[0..n) (of the header at folder
 * dir, or the source) reads no file outside the embedded headers. */
static bool text_ok(const ccc_input *in, const char *t, size_t n,
                    const char *dir, size_t dl)
{
    bool bol = true;                     /* only blanks so far on the line */
    for (size_t i = 0; i < n;) {
        char c = t[i];
        if (c == '\n')
            bol = true, i++;
        else if (blank(c))
            i++;
        else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            const char *e = strstr(t + i + 2, "*/");
            if (!e)
                return false;
            if (memchr(t + i, '\n', (size_t)(e - t) - i))
                bol = true;              /* more directives than fewer */
            i = (size_t)(e - t) + 2;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
        } else if (c == '"' || c == '\'') {
            for (i++; i < n && t[i] != c && t[i] != '\n'; i++)
                i += t[i] == '\\' && i + 1 < n && t[i + 1] != '\n';
            i += i < n && t[i] == c;
            bol = false;
        } else if (bol && (c == '#' || (c == '%' && i + 1 < n &&
                                        t[i + 1] == ':'))) {
            if (!directive_ok(in, t, n, i + (c == '#' ? 1 : 2), dir, dl, &i))
                return false;
            bol = false;
        } else
            bol = false, i++;
    }
    return true;
}

/* The file s[0..n) (the header named name, or the source when NULL). */
static bool file_ok(const ccc_input *in, const char *s, size_t n,
                    const char *name)
{
    static const char *const never[] = {"__has_include", "__DATE__",
                                        "__TIME__", "__TIMESTAMP__"};
    size_t len;
    char *t = splice(s, n, &len);
    if (!t || strlen(t) != len)         /* a NUL inside: not scanned */
        return free(t), false;
    bool ok = true;
    for (size_t i = 0; ok && i < sizeof never / sizeof *never; i++)
        ok = !strstr(t, never[i]);
    for (const char *q = t; ok && (q = strstr(q, "??")); q++)
        ok = !q[2] || !strchr("=/'()!<>-", q[2]);    /* no trigraph */
    const char *slash = name ? strrchr(name, '/') : NULL;
    ok = ok && text_ok(in, t, len, slash ? name : NULL,
                       slash ? (size_t)(slash - name) : 0);
    free(t);
    return ok;
}

/* An option naming a file clang reads or a folder it searches before
 * the embedded headers' (-include, -imacros, -iquote, @FILE, -Wp,...). */
static bool reads_file(const char *o)
{
    static const char *const bad[] = {
        "@", "--", "-i", "-Wp,", "-Xpreprocessor", "-B", "-resource-dir",
        "-load", "-plugin", "-fprofile", "-fsanitize"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (!strncmp(o, bad[i], strlen(bad[i])))
            return true;
    return false;
}

bool ccs_pinned(const ccc_input *in)
{
    for (int i = 0; i < in->nopts; i++)
        if (reads_file(in->opts[i]))
            return false;
    if (!in->opaque && !file_ok(in, in->src, in->n, NULL))
        return false;
    for (int i = 0; i < in->nh; i++)
        if (!file_ok(in, in->hdrs[i].text, in->hdrs[i].len,
                     in->hdrs[i].name))
            return false;
    return true;
}
