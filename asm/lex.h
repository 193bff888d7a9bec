/* The lexer of clvm IR: one physical line at a time into tokens. It never
 * fails: a byte it cannot place becomes a TK_BAD token, which the parser
 * reports with its column. */
#ifndef CLVM_LEX_H
#define CLVM_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(ENUM, spelling): longer spellings first, so the first match is the
 * longest ("<<=" before "<<" before "<"). */
#define LEX_PUNCTS(X)                                                       \
    X(SHLEQ, "<<=") X(SHREQ, ">>=")                                         \
    X(SHL, "<<") X(SHR, ">>") X(LE, "<=") X(GE, ">=") X(EQ, "==")          \
    X(NE, "!=") X(ANDAND, "&&") X(OROR, "||") X(ADDEQ, "+=")               \
    X(SUBEQ, "-=") X(MULEQ, "*=") X(DIVEQ, "/=") X(MODEQ, "%=")            \
    X(ANDEQ, "&=") X(OREQ, "|=") X(XOREQ, "^=")                            \
    X(LPAREN, "(") X(RPAREN, ")") X(LBRACK, "[") X(RBRACK, "]")            \
    X(LBRACE, "{") X(RBRACE, "}") X(COMMA, ",") X(DOT, ".") X(QUEST, "?")  \
    X(COLON, ":") X(LT, "<") X(GT, ">") X(ADD, "+") X(SUB, "-")            \
    X(MUL, "*") X(DIV, "/") X(MOD, "%") X(AND, "&") X(OR, "|") X(XOR, "^") \
    X(TILDE, "~") X(NOT, "!") X(ASSIGN, "=") X(HASH, "#") X(SEMI, ";")

enum lex_punct {
    P_NONE,
#define X(E, s) P_##E,
    LEX_PUNCTS(X)
#undef X
    P_COUNT
};

enum tok_kind {
    TK_EOL,     /* end of the line (always the last token) */
    TK_IDENT,
    TK_NUMBER,  /* the extent of a C preprocessing number; lit.c parses it */
    TK_STRING,  /* "..." including the quotes */
    TK_PUNCT,
    TK_BAD,     /* a byte that starts no token, or an unterminated string */
};

typedef struct {
    uint8_t kind;     /* enum tok_kind */
    uint8_t p;        /* enum lex_punct for TK_PUNCT */
    uint32_t col;     /* 1-based byte column */
    uint32_t len;     /* bytes */
    const char *s;
} tok;

typedef struct {
    tok *t;
    size_t n, cap;
    bool in_comment;  /* inside a block comment that spans lines */
} lex_state;

/* Tokenises s[0..len) (one line, no newline) into ls->t, ending with a
 * TK_EOL token. Block comments may span lines: in_comment carries over.
 * Returns false when memory runs out or the line has more than max
 * tokens (ls->n is then 0). */
bool lex_line(lex_state *ls, const char *s, size_t len, size_t max);
void lex_free(lex_state *ls);

const char *lex_punct_text(enum lex_punct p);

/* Does token t spell word exactly? */
bool tok_is(const tok *t, const char *word);

#endif
