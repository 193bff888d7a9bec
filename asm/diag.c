/* Diagnostics: "file:line:col: error: message", the source line, and a
 * caret with tildes under the whole token or expression; the nearest known
 * name and the name of a checked type, for their text. */
#include <stdlib.h>
#include <string.h>

#include "asm/asmint.h"

enum { WINDOW = 160 };   /* echo at most this much of a long line */

static const char *const kinds[] = {"error", "warning", "note"};

/* One byte of the echoed line: control bytes would upset the terminal. */
static int shown(unsigned char c)
{
    return c == '\t' || c >= 0x80 || (c >= 0x20 && c < 0x7f) ? c : '?';
}

static void echo(FILE *f, const char *text, size_t tlen, uint32_t col,
                 uint32_t len)
{
    size_t c0 = col ? col - 1 : 0, from = 0, to = tlen;
    if (c0 > tlen)
        c0 = tlen;
    if (tlen > WINDOW) {
        from = c0 > WINDOW / 2 ? c0 - WINDOW / 2 : 0;
        to = from + WINDOW < tlen ? from + WINDOW : tlen;
    }
    while (to > from && (text[to - 1] == '\r' || text[to - 1] == '\n'))
        to--;
    fputs(from ? "  ..." : "  ", f);
    for (size_t i = from; i < to; i++)
        fputc(shown((unsigned char)text[i]), f);
    fputs(to < tlen ? "...\n" : "\n", f);
    if (!col)
        return;
    fputs(from ? "     " : "  ", f);
    /* Keep tabs so the caret lines up; UTF-8 continuation bytes take no
     * column of their own. */
    for (size_t i = from; i < c0; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xc0) != 0x80)
            fputc(c == '\t' ? '\t' : ' ', f);
    }
    fputc('^', f);
    size_t end = c0 + (len ? len : 1);
    if (end > to)
        end = to > c0 ? to : c0 + 1;
    for (size_t i = c0 + 1; i < end; i++)
        if (((unsigned char)text[i] & 0xc0) != 0x80)
            fputc('~', f);
    fputc('\n', f);
}

void diag_at(A *a, enum diag_kind k, uint32_t line, const char *text,
             size_t tlen, uint32_t col, uint32_t len, const char *fmt,
             va_list ap)
{
    if (k == D_ERROR) {
        a->nerr++;
        a->failed = true;
    } else if (k == D_WARNING) {
        a->nwarn++;
    }
    if (a->stopped)
        return;
    FILE *f = a->diag;
    if (f) {
        fprintf(f, "%s:%u:", a->file, line);
        if (col)
            fprintf(f, "%u:", col);
        fprintf(f, " %s: ", kinds[k]);
        vfprintf(f, fmt, ap);
        fputc('\n', f);
        if (text)
            echo(f, text, tlen, col, len);
    }
    if (a->nerr >= ASM_MAX_ERRORS) {
        if (f)
            fprintf(f, "%s: too many errors (%d); stopping\n", a->file,
                    a->nerr);
        a->stopped = true;
    }
}

void asm_error(A *a, uint32_t col, uint32_t end, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_at(a, D_ERROR, a->line, a->text, a->tlen, col,
            end > col ? end - col : 1, fmt, ap);
    va_end(ap);
}

void asm_warning(A *a, uint32_t col, uint32_t end, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_at(a, D_WARNING, a->line, a->text, a->tlen, col,
            end > col ? end - col : 1, fmt, ap);
    va_end(ap);
}

void asm_note(A *a, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_at(a, D_NOTE, line, NULL, 0, 0, 0, fmt, ap);
    va_end(ap);
}

void asm_error_node(A *a, const node *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_at(a, D_ERROR, a->line, a->text, a->tlen, n->col,
            n->end > n->col ? n->end - n->col : 1, fmt, ap);
    va_end(ap);
}

void asm_oom(A *a)
{
    if (!a->oom) {
        a->oom = true;
        if (a->diag)
            fprintf(a->diag, "%s: error: out of memory\n", a->file);
    }
    a->nerr++;
    a->failed = true;
}

/* Levenshtein distance, giving up beyond max (names are short). */
static unsigned distance(const char *s, size_t n, const char *t, size_t m,
                         unsigned max)
{
    unsigned row[64];
    if (n >= 64 || m >= 64)
        return max + 1;
    for (size_t j = 0; j <= m; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++) {
        unsigned diag = row[0], best;
        row[0] = (unsigned)i, best = row[0];
        for (size_t j = 1; j <= m; j++) {
            unsigned up = row[j];
            unsigned v = diag + (s[i - 1] != t[j - 1]);
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v, diag = up;
            if (v < best)
                best = v;
        }
        if (best > max)
            return max + 1;
    }
    return row[m];
}

const char *diag_nearest(const char *name, size_t len,
                         const char *const *cand, size_t ncand)
{
    /* One edit in a short name is a different name, not a typo. */
    unsigned max = len < 3 ? 0 : len < 5 ? 1 : len < 9 ? 2 : 3;
    unsigned best = max + 1;
    if (!max)
        return NULL;
    const char *pick = NULL;
    for (size_t i = 0; i < ncand; i++) {
        unsigned d = distance(name, len, cand[i], strlen(cand[i]), max);
        if (d < best)
            best = d, pick = cand[i];
    }
    return pick;
}

char *diag_xty_name(const xty *x, char buf[48])
{
    char t[TY_NAME_MAX];
    ty_name(x->t, t);
    switch (x->cls) {
    case X_PTR:
        snprintf(buf, 48, "%s %s%s *",
                 x->space == BC_GLOBAL ? "global" : x->space == BC_LOCAL
                 ? "local" : x->space == BC_CONSTANT ? "constant" : "private",
                 x->cptr ? "const " : "", t);
        break;
    case X_VOID: snprintf(buf, 48, "void"); break;
    case X_SIZE: snprintf(buf, 48, "size_t"); break;
    case X_LIT: snprintf(buf, 48, "a %s literal", t); break;
    default: snprintf(buf, 48, "%s", t);
    }
    return buf;
}
