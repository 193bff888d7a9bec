/* What a kernel's declaration in the program's OpenCL C source says as
 * written and the module does not keep: its __attribute__((...))s
 * (CL_KERNEL_ATTRIBUTES) and its parameters' volatile, restrict and void
 * pointee (clGetKernelArgInfo); from the text after the preprocessor
 * where the source does not show the declaration (a macro writes it). */
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

/* The declaration of kernel name in s (uncommented): where it starts
 * (*start), where the name is (*at) and where its parameter list's '(' is (*paren); false if none. */
static bool find_kernel(const char *s, const char *name, size_t *start,
                        size_t *at, size_t *paren)
{
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
            *start = from, *at = i, *paren = j;
            return true;
        }
    }
    return false;
}

/* The text declaring kernel name in p's source (comments blanked,
 * malloc'd; NULL if none): the source as written, else after the
 * preprocessor (clang -E with p's options, through the compile cache);
 * for a linked program, its parts' (the first that declares it); the
 * declaration's start, name and '(' in *start, *at and *paren. */
static char *declaration(cl_program p, const char *name, size_t *start,
                         size_t *at, size_t *paren)
{
    for (cl_uint i = 0; !p->source && i < p->nparts; i++) {
        char *s = declaration(p->parts[i], name, start, at, paren);
        if (s)
            return s;
    }
    char *s = p->source ? uncomment(p->source) : NULL;
    if (!s || find_kernel(s, name, start, at, paren))
        return s;
    free(s);
    s = NULL;
    uint8_t *pp = NULL;
    size_t len = 0;
    FILE *quiet = fopen("/dev/null", "w");   /* the build log said it all */
    if (quiet && cc_program_is_opencl_c(p->source, p->source_len) &&
        !ocl_compile_c(p, 0, NULL, NULL, CC_TEXT, &pp, &len, quiet) &&
        strlen((char *)pp) == len)
        s = uncomment((char *)pp);
    if (quiet)
        fclose(quiet);
    free(pp);
    if (s && find_kernel(s, name, start, at, paren))
        return s;
    free(s);
    return NULL;
}

char *ocl_kernel_attrs(cl_program p, const char *name)
{
    size_t from, at, paren;
    char *out = calloc(1, 1024), *s = declaration(p, name, &from, &at, &paren);
    if (out && s)
        collect(s, from, at, out, 1024);
    free(s);
    return out;
}

/* Parameter text s[a..b): its qualifiers and whether it points to void. */
static void param(const char *s, size_t a, size_t b,
                  cl_kernel_arg_type_qualifier *tq, bool *voidp)
{
    bool star = false, isvoid = false;
    *tq = 0;
    for (size_t k = a; k < b; k++) {
        star |= s[k] == '*';
        if (word_at(s, k, "volatile") || word_at(s, k, "__volatile"))
            *tq |= CL_KERNEL_ARG_TYPE_VOLATILE;
        if (word_at(s, k, "restrict") || word_at(s, k, "__restrict"))
            *tq |= CL_KERNEL_ARG_TYPE_RESTRICT;
        isvoid |= word_at(s, k, "void");
    }
    *voidp = star && isvoid;
    if (!star)   /* qualifiers of a pointee: pointers alone have them */
        *tq = 0;
}

bool ocl_kernel_params(cl_program prog, const char *name, cl_uint n,
                       cl_kernel_arg_type_qualifier *tq, bool *voidp)
{
    size_t from = 0, at = 0, p = 0;   /* (set when ok) */
    char *s = declaration(prog, name, &from, &at, &p);
    cl_uint i = 0;
    bool ok = s != NULL;
    int depth = 0;
    for (size_t k = p + 1, start = k; ok && s[k]; k++) {
        depth += s[k] == '(' || s[k] == '[';
        depth -= s[k] == ')' || s[k] == ']';
        if (depth > 0 || (s[k] != ',' && s[k] != ')'))
            continue;
        size_t w = start;   /* "()" and "(void)": no parameters */
        while (w < k && isspace((unsigned char)s[w]))
            w++;
        bool none = w == k || (word_at(s, w, "void") &&
                               strspn(s + w + 4, " \t\n\r") == k - w - 4);
        if (!(s[k] == ')' && i == 0 && none)) {
            if (i < n)
                param(s, start, k, &tq[i], &voidp[i]);
            i++;
        }
        if (s[k] == ')')
            break;
        start = k + 1;
    }
    free(s);
    return ok && i == n;
}
