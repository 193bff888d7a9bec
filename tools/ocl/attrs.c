/* CL_KERNEL_ATTRIBUTES: the __attribute__((...)) qualifiers of a kernel's
 * declaration, read from the program's OpenCL C source as written. */
#include "tools/ocl/ocl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The source with comments blanked out (so that neither a commented-out
 * kernel nor an attribute in a comment counts); string and character
 * literals are kept as they are. */
static char *uncomment(const char *s)
{
    size_t n = strlen(s);
    char *t = malloc(n + 1);
    char quote = 0;
    if (!t)
        return NULL;
    memcpy(t, s, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (quote) {
            if (t[i] == '\\' && i + 1 < n)
                i++;
            else if (t[i] == quote)
                quote = 0;
        } else if (t[i] == '"' || t[i] == '\'') {
            quote = t[i];
        } else if (t[i] == '/' && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                t[i++] = ' ';
        } else if (t[i] == '/' && t[i + 1] == '*') {
            t[i] = t[i + 1] = ' ';
            for (i += 2; i < n && !(t[i] == '*' && t[i + 1] == '/'); i++)
                if (t[i] != '\n')
                    t[i] = ' ';
            if (i < n)
                t[i] = t[i + 1] = ' ', i++;
        }
    }
    return t;
}

static bool ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Is the word w at s[at..] a whole identifier? */
static bool word_at(const char *s, size_t at, const char *w)
{
    size_t n = strlen(w);
    return !strncmp(s + at, w, n) && !ident(s[at + n]) &&
           (at == 0 || !ident(s[at - 1]));
}

/* Appends the attributes written in s[from..to) to out (len used, cap
 * its size): each __attribute__((X)) as X without blanks. */
static void collect(const char *s, size_t from, size_t to, char *out,
                    size_t cap)
{
    size_t len = strlen(out);
    for (size_t i = from; i < to; i++) {
        if (!word_at(s, i, "__attribute__"))
            continue;
        size_t j = i + 13;
        while (j < to && isspace((unsigned char)s[j]))
            j++;
        if (j >= to || s[j] != '(')
            continue;
        int depth = 0;
        size_t start = j, end = j;
        for (; end < to; end++) {
            depth += s[end] == '(';
            depth -= s[end] == ')';
            if (!depth)
                break;
        }
        /* inside the outer "((" and "))" */
        for (size_t k = start + 2; k + 1 < end && len + 2 < cap; k++) {
            if (k == start + 2 && len)
                out[len++] = ' ';
            if (!isspace((unsigned char)s[k]))
                out[len++] = s[k];
        }
        out[len] = 0;
        i = end;
    }
}

char *ocl_kernel_attrs(const char *src, const char *name)
{
    char *out = calloc(1, 1024), *s = src ? uncomment(src) : NULL;
    if (!out || !s) {
        free(s);
        return out;
    }
    for (size_t i = 0; s[i]; i++) {
        if (!word_at(s, i, name))
            continue;
        size_t j = i + strlen(name);
        while (isspace((unsigned char)s[j]))
            j++;
        if (s[j] != '(')
            continue;
        /* the declaration: back to the end of the one before it */
        size_t from = i;
        while (from && !strchr(";}", s[from - 1]))
            from--;
        bool is_kernel = false;
        for (size_t k = from; k < i && !is_kernel; k++)
            is_kernel = word_at(s, k, "kernel") || word_at(s, k, "__kernel");
        if (is_kernel) {
            collect(s, from, i, out, 1024);
            break;
        }
    }
    free(s);
    return out;
}
