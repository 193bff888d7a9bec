/* The expression parser: C precedence, one line of tokens, into a tree of
 * nodes allocated from a per-statement arena. */
#include <stdlib.h>
#include <string.h>

#include "asm/asmint.h"

/* ---- arena ---- */

enum { CHUNK = 1 << 16 };

void *asm_arena_alloc(A *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size > CHUNK) {
        asm_oom(a);
        return NULL;
    }
    if (!a->nchunks || a->used + size > a->chunk_cap) {
        size_t cap = CHUNK;
        char **nc = realloc(a->chunks, (a->nchunks + 1) * sizeof *nc);
        char *c = nc ? malloc(cap) : NULL;
        if (nc)
            a->chunks = nc;
        if (!c) {
            asm_oom(a);
            return NULL;
        }
        a->chunks[a->nchunks++] = c;
        a->used = 0, a->chunk_cap = cap;
    }
    void *p = a->chunks[a->nchunks - 1] + a->used;
    a->used += size;
    memset(p, 0, size);
    return p;
}

/* Keeps the first chunk for the next statement (every allocation is far
 * smaller than a chunk). */
void asm_arena_reset(A *a)
{
    for (size_t i = 1; i < a->nchunks; i++)
        free(a->chunks[i]);
    if (a->nchunks)
        a->nchunks = 1;
    a->used = 0;
    a->chunk_cap = a->nchunks ? CHUNK : 0;
}

void asm_arena_free(A *a)
{
    for (size_t i = 0; i < a->nchunks; i++)
        free(a->chunks[i]);
    free(a->chunks);
    a->chunks = NULL, a->nchunks = 0, a->used = 0, a->chunk_cap = 0;
}

/* ---- tokens ---- */

const tok *parse_peek(A *a) { return &a->lx.t[a->tp]; }

const tok *parse_peek_at(A *a, size_t ahead)
{
    size_t i = a->tp + ahead;
    return &a->lx.t[i < a->lx.n ? i : a->lx.n - 1];
}

const tok *parse_next(A *a)
{
    const tok *t = &a->lx.t[a->tp];
    if (t->kind != TK_EOL)
        a->tp++;
    return t;
}

static bool is_punct(const tok *t, enum lex_punct p)
{
    return t->kind == TK_PUNCT && t->p == p;
}

bool parse_accept(A *a, enum lex_punct p)
{
    if (!is_punct(parse_peek(a), p))
        return false;
    parse_next(a);
    return true;
}

/* Describes a token for "expected X, found Y". */
static void unexpected(A *a, const tok *t, const char *want)
{
    switch (t->kind) {
    case TK_EOL:
        asm_error(a, t->col, t->col + 1, "expected %s at the end of the line",
                  want);
        break;
    case TK_BAD:
        if (t->s[0] == '"')
            asm_error(a, t->col, t->col + t->len, "unterminated string");
        else
            asm_error(a, t->col, t->col + 1, "stray byte 0x%02x ('%c') in "
                      "the program", (unsigned char)t->s[0],
                      t->s[0] > 0x20 && t->s[0] < 0x7f ? t->s[0] : '?');
        break;
    default:
        asm_error(a, t->col, t->col + t->len, "expected %s, found '%.*s'",
                  want, (int)(t->len > 40 ? 40 : t->len), t->s);
    }
}

bool parse_expect(A *a, enum lex_punct p, const char *what)
{
    if (parse_accept(a, p))
        return true;
    char want[48];
    snprintf(want, sizeof want, "'%s'%s%s", lex_punct_text(p),
             what ? " " : "", what ? what : "");
    unexpected(a, parse_peek(a), want);
    return false;
}

/* ---- names ---- */

static const char *const keywords[] = {
    "kernel", "__kernel", "end", "if", "else", "while", "loop", "break",
    "continue", "return", "global", "__global", "local", "__local",
    "constant", "__constant", "private", "__private", "const", "void",
    "restrict", "__restrict", "volatile",
};

bool parse_is_type(const tok *t, ty_t *ty)
{
    return t->kind == TK_IDENT && ty_parse(t->s, t->len, ty);
}

bool parse_is_func(const char *s, size_t len, enum asm_fn *fn, bi_desc *bi)
{
    for (int i = 0; i < F_COUNT; i++)
        if (strlen(asm_fns[i].name) == len && !memcmp(asm_fns[i].name, s, len)) {
            *fn = (enum asm_fn)i;
            return true;
        }
    if (bi_parse(s, len, bi, NULL)) {
        *fn = F_BI;
        return true;
    }
    return false;
}

bool parse_is_reserved(const char *s, size_t len)
{
    enum asm_fn fn;
    bi_desc bi;
    ty_t ty;
    lit l;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strlen(keywords[i]) == len && !memcmp(keywords[i], s, len))
            return true;
    return ty_parse(s, len, &ty) || parse_is_func(s, len, &fn, &bi) ||
           lit_named(s, len, &l);
}

void parse_unknown_func(A *a, const tok *t, const char *what)
{
    bi_desc bi;
    const char *why = NULL;
    if (t->len == 7 && !memcmp(t->s, "event_t", 7)) {
        asm_error(a, t->col, t->col + 7, "an event is a uint in the IR: "
                  "write uint (docs/ir.md, \"Async copies\")");
        return;
    }
    /* A name of the convert_/as_/vload/vstore families with a bad part:
     * say which part. */
    if (!bi_parse(t->s, t->len, &bi, &why) && why &&
        strcmp(why, "not a built-in clvm knows")) {
        asm_error(a, t->col, t->col + t->len, "'%.*s': %s", (int)t->len,
                  t->s, why);
        return;
    }
    /* every built-in name, the vload/vstore spellings, convert_/as_ of
     * every type: room for all of them, however many built-ins there are */
    enum { MAXC = F_COUNT + 40 + 2 * 6 * TY_NSCALAR, W = 32 };
    char (*buf)[W] = malloc(MAXC * W);
    const char **cand = malloc(MAXC * sizeof *cand);
    size_t n = 0;
    if (buf && cand) {
        for (int i = 0; i < F_COUNT; i++)
            snprintf(buf[n++], W, "%s", asm_fns[i].name);
        static const char *const fam[] = {"vload", "vstore", "vload_half",
                                          "vloada_half", "vstore_half",
                                          "vstorea_half"};
        static const unsigned widths[] = {2, 3, 4, 8, 16};
        for (size_t f = 0; f < 6; f++) {
            if (f >= 2)
                snprintf(buf[n++], W, "%s", fam[f]);
            for (size_t w = 0; w < 5; w++)
                snprintf(buf[n++], W, "%s%u", fam[f], widths[w]);
        }
        for (int s = 0; s < TY_NSCALAR; s++)
            for (size_t w = 0; w < 6; w++) {
                char tn[TY_NAME_MAX];
                ty_name((ty_t){(uint8_t)s, (uint8_t)(w ? widths[w - 1] : 1)},
                        tn);
                snprintf(buf[n++], W, "convert_%s", tn);
                snprintf(buf[n++], W, "as_%s", tn);
            }
        for (size_t i = 0; i < n; i++)
            cand[i] = buf[i];
    }
    const char *near = n ? diag_nearest(t->s, t->len, cand, n) : NULL;
    if (near)
        asm_error(a, t->col, t->col + t->len,
                  "unknown %s '%.*s'; did you mean '%s'?", what, (int)t->len,
                  t->s, near);
    else
        asm_error(a, t->col, t->col + t->len, "unknown %s '%.*s'", what,
                  (int)t->len, t->s);
    free(buf);
    free(cand);
}

/* ---- nodes ---- */

static node *mk(A *a, enum nkind k, uint32_t col, uint32_t end)
{
    node *n = asm_arena_alloc(a, sizeof *n);
    if (n)
        n->kind = (uint8_t)k, n->col = col, n->end = end, n->reg = -1;
    return n;
}

node *parse_node(A *a, enum nkind k, uint32_t col, uint32_t end)
{
    return mk(a, k, col, end);
}

static uint32_t tok_end(const tok *t) { return t->col + t->len; }

/* Sets n's height from its children; false (reported) if too tall. */
static bool grow(A *a, node *n)
{
    uint32_t h = 0;
    node *kids[3] = {n->a, n->b, n->c};
    for (int i = 0; i < 3; i++)
        if (kids[i] && kids[i]->height > h)
            h = kids[i]->height;
    for (unsigned i = 0; i < n->nargs; i++)
        if (n->args[i]->height > h)
            h = n->args[i]->height;
    n->height = h + 1;
    if (n->height > ASM_MAX_HEIGHT) {
        asm_error_node(a, n, "expression is too complex (more than %d "
                       "levels); split it into several statements",
                       ASM_MAX_HEIGHT);
        return false;
    }
    return true;
}

/* ---- expressions ---- */

static node *parse_cond(A *a);
static node *parse_unary(A *a);

/* A comma-separated list up to ')' (the '(' is consumed). */
static bool parse_args(A *a, node *n, const char *what)
{
    node *args[16];
    unsigned k = 0;
    if (!parse_accept(a, P_RPAREN)) {
        do {
            node *e = parse_cond(a);
            if (!e)
                return false;
            if (k == 16) {
                asm_error_node(a, e, "too many %s (at most 16)", what);
                return false;
            }
            args[k++] = e;
        } while (parse_accept(a, P_COMMA));
        const tok *t = parse_peek(a);
        if (!parse_expect(a, P_RPAREN, NULL))
            return false;
        n->end = tok_end(t);
    } else {
        n->end = tok_end(&a->lx.t[a->tp - 1]);
    }
    n->nargs = (uint8_t)k;
    n->args = k ? asm_arena_alloc(a, k * sizeof *n->args) : NULL;
    if (k && !n->args)
        return false;
    if (k)
        memcpy(n->args, args, k * sizeof *args);
    return true;
}

static node *parse_number(A *a, const tok *t)
{
    node *n = mk(a, N_LIT, t->col, tok_end(t));
    if (!n)
        return NULL;
    const char *why = lit_parse(t->s, t->len, &n->l);
    if (why) {
        asm_error(a, t->col, tok_end(t), "bad number '%.*s': %s",
                  (int)(t->len > 40 ? 40 : t->len), t->s, why);
        return NULL;
    }
    n->litonly = true;
    return n;
}

static node *parse_primary(A *a)
{
    const tok *t = parse_next(a);
    node *n;
    if (t->kind == TK_NUMBER)
        return parse_number(a, t);
    if (t->kind == TK_IDENT) {
        enum asm_fn fn;
        bi_desc bi;
        ty_t ty;
        if (is_punct(parse_peek(a), P_LPAREN)) {
            if (parse_is_type(t, &ty)) {
                asm_error(a, t->col, tok_end(t), "'%.*s(...)' is C++; write "
                          "(%.*s)(...)", (int)t->len, t->s, (int)t->len, t->s);
                return NULL;
            }
            int32_t xi = kb_extern_find(a, t->s, t->len);
            if (xi >= 0) {
                fn = F_EXT;
            } else if (tok_is(t, "printf")) {
                asm_error(a, t->col, tok_end(t), "printf is a statement of "
                          "its own (it gives no value)");
                return NULL;
            } else if (!parse_is_func(t->s, t->len, &fn, &bi)) {
                parse_unknown_func(a, t, "built-in");
                return NULL;
            }
            parse_next(a);
            if ((fn == F_VEC_STEP || fn == F_SIZEOF) &&
                parse_is_type(parse_peek(a), &ty) &&
                is_punct(parse_peek_at(a, 1), P_RPAREN)) {
                /* vec_step(float3), sizeof(int4): a constant */
                if (!(n = mk(a, N_LIT, t->col, tok_end(parse_peek_at(a, 1)))))
                    return NULL;
                parse_next(a), parse_next(a);
                n->l = (lit){.kind = LIT_INT,
                             .mag = fn == F_VEC_STEP ? ty_lanes(ty)
                                                     : ty_sizeof(ty),
                             .nat = TY(fn == F_VEC_STEP ? TY_INT : TY_ULONG,
                                       1)};
                n->litonly = true;
                return n;
            }
            if (!(n = mk(a, N_CALL, t->col, tok_end(t))))
                return NULL;
            n->op = (uint8_t)fn, n->bi = bi, n->name = t->s, n->nlen = t->len;
            n->reg = xi;
            if (!parse_args(a, n, "arguments"))
                return NULL;
            return grow(a, n) ? n : NULL;
        }
        if (!(n = mk(a, N_NAME, t->col, tok_end(t))))
            return NULL;
        if (lit_named(t->s, t->len, &n->l)) {
            n->kind = N_LIT, n->litonly = true;
            return n;
        }
        if (parse_is_func(t->s, t->len, &fn, &bi)) {
            asm_error(a, t->col, tok_end(t), "'%.*s' is a built-in: call it "
                      "with (...)", (int)t->len, t->s);
            return NULL;
        }
        n->name = t->s, n->nlen = t->len;
        return n;
    }
    if (is_punct(t, P_LPAREN)) {
        node *e = parse_cond(a);
        if (!e)
            return NULL;
        const tok *c = parse_peek(a);
        if (!parse_expect(a, P_RPAREN, "to close the parenthesis"))
            return NULL;
        e->parens = true;
        e->col = t->col, e->end = tok_end(c);
        return e;
    }
    unexpected(a, t, "an expression");
    return NULL;
}

static node *parse_postfix_tail(A *a, node *n)
{
    for (;;) {
        const tok *t = parse_peek(a);
        if (is_punct(t, P_DOT)) {
            parse_next(a);
            const tok *s = parse_next(a);
            if (s->kind != TK_IDENT) {
                unexpected(a, s, "a component name after '.'");
                return NULL;
            }
            node *w = mk(a, N_SWZ, n->col, tok_end(s));
            if (!w)
                return NULL;
            w->a = n, w->name = s->s, w->nlen = s->len;
            n = w;
        } else if (is_punct(t, P_LBRACK)) {
            parse_next(a);
            node *i = parse_cond(a);
            if (!i)
                return NULL;
            const tok *c = parse_peek(a);
            if (!parse_expect(a, P_RBRACK, "to close the index"))
                return NULL;
            node *x = mk(a, N_INDEX, n->col, tok_end(c));
            if (!x)
                return NULL;
            x->a = n, x->b = i;
            n = x;
        } else {
            return n;
        }
        if (!grow(a, n))
            return NULL;
    }
}

node *parse_postfix(A *a)
{
    node *n = parse_primary(a);
    return n ? parse_postfix_tail(a, n) : NULL;
}

/* A cast (kind) to ty opened at `open`: its operand is next. */
static node *cast_node(A *a, enum nkind kind, const tok *open, ty_t ty)
{
    node *e = parse_unary(a);
    if (!e)
        return NULL;
    node *n = mk(a, kind, open->col, e->end);
    if (!n)
        return NULL;
    n->ty = ty, n->a = e;
    return grow(a, n) ? n : NULL;
}

/* (T)e or (T)(a, b, ...): the '(' of the type is next. */
static node *parse_cast(A *a, ty_t ty)
{
    const tok *open = parse_next(a);
    parse_next(a);   /* the type */
    parse_next(a);   /* ')' */
    if (ty.n > 1) {
        const tok *t = parse_peek(a);
        if (!is_punct(t, P_LPAREN)) {
            asm_error(a, open->col, t->col + t->len, "a cast to a vector "
                      "type needs parentheses in the IR: write (%.*s)(e), "
                      "which broadcasts a scalar e as OpenCL C's cast does; "
                      "for a vector e write convert_%.*s(e) (casts between "
                      "vector types are errors in OpenCL C)",
                      (int)open[1].len, open[1].s, (int)open[1].len,
                      open[1].s);
            return NULL;
        }
        parse_next(a);
        node *n = mk(a, N_VEC, open->col, t->col + 1);
        if (!n)
            return NULL;
        n->ty = ty;
        if (!parse_args(a, n, "components") || !grow(a, n))
            return NULL;
        return parse_postfix_tail(a, n);
    }
    return cast_node(a, N_CAST, open, ty);
}

/* The address space a token names, or -1. */
static int space_word(const tok *t)
{
    return tok_is(t, "global") || tok_is(t, "__global") ? BC_GLOBAL
           : tok_is(t, "constant") || tok_is(t, "__constant") ? BC_CONSTANT
           : tok_is(t, "local") || tok_is(t, "__local") ? BC_LOCAL
           : tok_is(t, "private") || tok_is(t, "__private") ? BC_PRIVATE
           : -1;
}

/* Is a pointer cast `( [SPACE] T * )` next? Its type and space (-1: not
 * written); the number of its tokens, or 0. */
static unsigned pcast_at(A *a, ty_t *ty, int *space)
{
    unsigned k = 1;
    if (!is_punct(parse_peek(a), P_LPAREN))
        return 0;
    *space = space_word(parse_peek_at(a, 1));
    k += *space >= 0;
    if (!parse_is_type(parse_peek_at(a, k), ty) ||
        !is_punct(parse_peek_at(a, k + 1), P_MUL) ||
        !is_punct(parse_peek_at(a, k + 2), P_RPAREN))
        return 0;
    return k + 3;
}

/* ([SPACE] T *)e: a pointer cast of `ntok` tokens is next. */
static node *parse_pcast(A *a, ty_t ty, int space, unsigned ntok)
{
    const tok *open = parse_next(a);
    for (unsigned k = 1; k < ntok; k++)
        parse_next(a);
    node *n = cast_node(a, N_PCAST, open, ty);
    if (n)
        n->sel[0] = (uint8_t)(space + 1);
    return n;
}

static node *parse_unary(A *a)
{
    const tok *t = parse_peek(a);
    ty_t ty;
    int space;
    unsigned ntok;
    if (++a->depth > ASM_MAX_DEPTH) {
        asm_error(a, t->col, tok_end(t), "expression nested too deeply "
                  "(more than %d levels)", ASM_MAX_DEPTH);
        return NULL;
    }
    node *n = NULL;
    if (t->kind == TK_PUNCT && (t->p == P_SUB || t->p == P_ADD ||
                                t->p == P_TILDE || t->p == P_NOT)) {
        parse_next(a);
        node *e = parse_unary(a);
        if (e && t->p == P_SUB && e->kind == N_LIT && !e->parens) {
            /* -5 is a negative literal: its range is checked as such. */
            e->l.neg = !e->l.neg, e->col = t->col;
            n = e;
        } else if (e && (n = mk(a, N_UNARY, t->col, e->end))) {
            n->op = t->p, n->a = e, n->litonly = e->litonly;
            if (!grow(a, n))
                n = NULL;
        }
    } else if (t->kind == TK_PUNCT && t->p == P_MUL) {
        asm_error(a, t->col, tok_end(t), "no unary '*' in clvm IR: write "
                  "p[0]");
    } else if (t->kind == TK_PUNCT && t->p == P_AND) {
        asm_error(a, t->col, tok_end(t), "no '&' (address-of) in clvm IR: "
                  "write p + i");
    } else if (is_punct(t, P_LPAREN) && parse_is_type(parse_peek_at(a, 1), &ty) &&
               is_punct(parse_peek_at(a, 2), P_RPAREN)) {
        n = parse_cast(a, ty);
    } else if ((ntok = pcast_at(a, &ty, &space)) != 0) {
        n = parse_pcast(a, ty, space, ntok);
    } else {
        n = parse_postfix(a);
    }
    a->depth--;
    return n;
}

static int prec(const tok *t)
{
    if (t->kind != TK_PUNCT)
        return 0;
    switch (t->p) {
    case P_OROR: return 1;
    case P_ANDAND: return 2;
    case P_OR: return 3;
    case P_XOR: return 4;
    case P_AND: return 5;
    case P_EQ: case P_NE: return 6;
    case P_LT: case P_LE: case P_GT: case P_GE: return 7;
    case P_SHL: case P_SHR: return 8;
    case P_ADD: case P_SUB: return 9;
    case P_MUL: case P_DIV: case P_MOD: return 10;
    default: return 0;
    }
}

/* Precedence climbing: left-associative binary operators. */
static node *parse_binary(A *a, int min)
{
    node *l = parse_unary(a);
    while (l) {
        const tok *t = parse_peek(a);
        int p = prec(t);
        if (!p || p < min)
            break;
        parse_next(a);
        node *r = parse_binary(a, p + 1);
        if (!r)
            return NULL;
        node *n = mk(a, N_BINARY, l->col, r->end);
        if (!n)
            return NULL;
        n->op = t->p, n->a = l, n->b = r;
        n->litonly = l->litonly && r->litonly;
        if (!grow(a, n))
            return NULL;
        l = n;
    }
    return l;
}

static node *parse_cond(A *a)
{
    if (++a->depth > ASM_MAX_DEPTH) {
        const tok *t = parse_peek(a);
        asm_error(a, t->col, tok_end(t), "expression nested too deeply "
                  "(more than %d levels)", ASM_MAX_DEPTH);
        return NULL;
    }
    node *c = parse_binary(a, 1);
    if (c && parse_accept(a, P_QUEST)) {
        node *x = parse_cond(a), *y = NULL;
        if (x && parse_expect(a, P_COLON, "of ?:"))
            y = parse_cond(a);
        node *n = y ? mk(a, N_COND, c->col, y->end) : NULL;
        if (n)
            n->a = c, n->b = x, n->c = y;
        c = n && grow(a, n) ? n : NULL;
    }
    a->depth--;
    return c;
}

node *parse_expr(A *a)
{
    a->depth = 0;
    return parse_cond(a);
}

node *parse_call_noparen(A *a, const tok *name)
{
    enum asm_fn fn;
    bi_desc bi;
    node *n = mk(a, N_CALL, name->col, tok_end(name));
    if (!n || !parse_is_func(name->s, name->len, &fn, &bi))
        return NULL;
    n->op = (uint8_t)fn, n->bi = bi, n->name = name->s, n->nlen = name->len;
    node *args[16];
    unsigned k = 0;
    if (parse_peek(a)->kind != TK_EOL) {
        do {
            node *e = parse_expr(a);
            if (!e)
                return NULL;
            if (k == 16) {
                asm_error_node(a, e, "too many arguments (at most 16)");
                return NULL;
            }
            args[k++] = e;
            n->end = e->end;
        } while (parse_accept(a, P_COMMA));
    }
    n->nargs = (uint8_t)k;
    n->args = k ? asm_arena_alloc(a, k * sizeof *n->args) : NULL;
    if (k && !n->args)
        return NULL;
    if (k)
        memcpy(n->args, args, k * sizeof *args);
    return grow(a, n) ? n : NULL;
}

node *parse_assign_rhs(A *a)
{
    const tok *t = parse_peek(a), *t1 = parse_peek_at(a, 1);
    enum asm_fn fn;
    bi_desc bi;
    if (t->kind == TK_IDENT && !is_punct(t1, P_LPAREN) &&
        parse_is_func(t->s, t->len, &fn, &bi) &&
        (t1->kind == TK_EOL || t1->kind == TK_IDENT ||
         t1->kind == TK_NUMBER || is_punct(t1, P_SUB))) {
        parse_next(a);
        return parse_call_noparen(a, t);
    }
    return parse_expr(a);
}
