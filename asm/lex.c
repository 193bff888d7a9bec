/* The lexer: one physical line of IR into tokens (identifiers, numbers,
 * strings, punctuators), block comments carried across lines. */
#include "asm/lex.h"

#include <stdlib.h>
#include <string.h>

static const char *const puncts[P_COUNT] = {
    [P_NONE] = "",
#define X(E, s) [P_##E] = s,
    LEX_PUNCTS(X)
#undef X
};

const char *lex_punct_text(enum lex_punct p)
{
    return (unsigned)p < P_COUNT ? puncts[p] : "?";
}

bool tok_is(const tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == TK_IDENT && t->len == n && !memcmp(t->s, word, n);
}

static bool is_ident0(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static bool push(lex_state *ls, tok t, size_t max)
{
    if (ls->n >= max)
        return false;
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? ls->cap * 2 : 64;
        tok *nt = realloc(ls->t, cap * sizeof *nt);
        if (!nt)
            return false;
        ls->t = nt, ls->cap = cap;
    }
    ls->t[ls->n++] = t;
    return true;
}

bool lex_line(lex_state *ls, const char *s, size_t len, size_t max)
{
    size_t i = 0;
    ls->n = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (ls->in_comment) {
            if (c == '*' && i + 1 < len && s[i + 1] == '/')
                ls->in_comment = false, i += 2;
            else
                i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '/')
            break;
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            ls->in_comment = true, i += 2;
            continue;
        }
        tok t = {TK_BAD, P_NONE, (uint32_t)(i + 1), 1, s + i};
        size_t j = i + 1;
        if (is_ident0(c)) {
            while (j < len && (is_ident0((unsigned char)s[j]) ||
                               is_digit((unsigned char)s[j])))
                j++;
            t.kind = TK_IDENT;
        } else if (is_digit(c) ||
                   (c == '.' && j < len && is_digit((unsigned char)s[j]))) {
            /* A C pp-number: digits, letters, '.', and a sign right after
             * an exponent letter (e for decimal, p for hex). */
            while (j < len) {
                unsigned char d = (unsigned char)s[j];
                if ((d == '+' || d == '-') &&
                    strchr("eEpP", s[j - 1]) != NULL)
                    j++;
                else if (is_ident0(d) || is_digit(d) || d == '.')
                    j++;
                else
                    break;
            }
            t.kind = TK_NUMBER;
        } else if (c == '"') {
            while (j < len && s[j] != '"')
                j += s[j] == '\\' && j + 1 < len ? 2 : 1;
            if (j < len)
                j++, t.kind = TK_STRING;   /* else TK_BAD: unterminated */
        } else {
            for (int p = 1; p < P_COUNT; p++) {
                size_t pl = strlen(puncts[p]);
                if (pl <= len - i && !memcmp(s + i, puncts[p], pl)) {
                    t.kind = TK_PUNCT, t.p = (uint8_t)p, j = i + pl;
                    break;
                }
            }
        }
        if (j - i > UINT32_MAX || i + 1 > UINT32_MAX)
            break;   /* columns are 32-bit; such a line ends here */
        t.len = (uint32_t)(j - i);
        if (!push(ls, t, max)) {
            ls->n = 0;
            return false;
        }
        i = j;
    }
    tok eol = {TK_EOL, P_NONE, (uint32_t)(i < UINT32_MAX ? i + 1 : UINT32_MAX),
               0, s + i};
    if (!push(ls, eol, max + 1)) {
        ls->n = 0;
        return false;
    }
    return true;
}

void lex_free(lex_state *ls)
{
    free(ls->t);
    memset(ls, 0, sizeof *ls);
}
