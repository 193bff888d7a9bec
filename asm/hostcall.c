/* The host-call statements: `extern RET NAME(PARAMS)` declarations and
 * `printf("format", ARGS)`, whose format is checked with vm/printf.c, the
 * verifier's own checker, and stored at the kernel's end. Calls of externs
 * are expressions: check.c and lower.c take them. */
#include "asm/asmint.h"

#include <stdlib.h>
#include <string.h>

#include "asm/optab.h"
#include "vm/printf.h"

static uint32_t tend(const tok *t) { return t->col + t->len; }

static bool is_kw(const tok *t, const char *w)
{
    char u[24];
    snprintf(u, sizeof u, "__%s", w);
    return tok_is(t, w) || tok_is(t, u);
}

/* [qualifiers] [const] TYPE [*] [NAME]: one C type of a declaration. */
static bool ctype(A *a, bool result, bc_ctype *ct)
{
    static const char *const quals[] = {"global", "local", "constant",
                                        "private", "restrict", "volatile"};
    bool cst = false;
    for (;;) {
        const tok *t = parse_peek(a);
        bool q = is_kw(t, "const");
        for (size_t i = 0; i < sizeof quals / sizeof *quals && !q; i++)
            q = is_kw(t, quals[i]);
        if (!q)
            break;
        cst |= is_kw(t, "const");
        parse_next(a);
    }
    const tok *t = parse_next(a);
    ty_t ty;
    if (result && tok_is(t, "void")) {
        *ct = (bc_ctype){0, BC_C_VOID};
        return true;
    }
    if (!parse_is_type(t, &ty) || ty.n != 1 || ty.s == TY_HALF) {
        asm_error(a, t->col, tend(t), "an extern takes and returns scalar "
                  "C types (char ... ulong, float, double) and pointers to "
                  "them%s", result ? ", or void" : "");
        return false;
    }
    *ct = (bc_ctype){ty.s, BC_C_VALUE};
    if (parse_accept(a, P_MUL)) {
        if (result) {
            asm_error(a, t->col, tend(t), "an extern cannot return a "
                      "pointer (the kernel could not check it)");
            return false;
        }
        ct->kind = cst ? BC_C_CPTR : BC_C_PTR;
        while (is_kw(parse_peek(a), "restrict") ||
               is_kw(parse_peek(a), "const"))
            parse_next(a);
    }
    return true;
}

/* extern RET NAME(PARAM, ...): outside kernels. */
void hostcall_extern(A *a)
{
    const tok *kw = parse_next(a);
    if (a->in_kernel) {
        asm_error(a, kw->col, tend(kw), "extern declarations go outside "
                  "kernels");
        return;
    }
    bc_ctype ret, par[BC_MAX_CALL_ARGS + 1];
    if (!ctype(a, true, &ret))
        return;
    const tok *name = parse_next(a);
    enum asm_fn fn;
    bi_desc bi;
    if (name->kind != TK_IDENT) {
        asm_error(a, name->col, tend(name), "the extern needs a name");
        return;
    }
    if (parse_is_reserved(name->s, name->len) ||
        parse_is_func(name->s, name->len, &fn, &bi) ||
        tok_is(name, "printf")) {
        asm_error(a, name->col, tend(name), "'%.*s' is reserved",
                  (int)name->len, name->s);
        return;
    }
    if (kb_extern_find(a, name->s, name->len) >= 0) {
        asm_error(a, name->col, tend(name), "extern '%.*s' is declared "
                  "twice", (int)name->len, name->s);
        return;
    }
    if (!parse_expect(a, P_LPAREN, "after the extern's name"))
        return;
    unsigned np = 0;
    if (tok_is(parse_peek(a), "void") &&
        parse_peek_at(a, 1)->kind == TK_PUNCT &&
        parse_peek_at(a, 1)->p == P_RPAREN) {
        parse_next(a);
        parse_next(a);
    } else if (!parse_accept(a, P_RPAREN)) {
        for (;;) {
            const tok *at = parse_peek(a);
            if (np == BC_MAX_CALL_ARGS) {
                asm_error(a, at->col, tend(at), "an extern takes at most %d "
                          "parameters", BC_MAX_CALL_ARGS);
                return;
            }
            if (!ctype(a, false, &par[np++]))
                return;
            if (parse_peek(a)->kind == TK_IDENT)
                parse_next(a);
            if (parse_accept(a, P_RPAREN))
                break;
            if (!parse_expect(a, P_COMMA, "or ')' between parameters"))
                return;
        }
    }
    const tok *e = parse_peek(a);
    if (e->kind != TK_EOL) {
        asm_error(a, e->col, tend(e), "unexpected text after the extern "
                  "declaration");
        return;
    }
    kb_extern_add(a, name->s, name->len, ret, np, par);
}

/* ---- printf ---- */

/* A string literal's bytes, and for each the source column it came
 * from. */
typedef struct {
    char *s;
    uint32_t *col;
    size_t len;
} cstr;

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool decode(A *a, const tok *t, cstr *o)
{
    o->s = malloc(t->len + 1);
    o->col = malloc((t->len + 1) * sizeof *o->col);
    o->len = 0;
    if (!o->s || !o->col) {
        asm_oom(a);
        return false;
    }
    for (size_t i = 1; i + 1 < t->len; i++) {
        uint32_t col = t->col + (uint32_t)i;
        unsigned c = (unsigned char)t->s[i];
        if (c == '\\') {
            char e = t->s[++i];
            static const char esc[] = "n\nt\tr\ra\ab\bf\fv\v\\\\\"\"''??";
            const char *m = NULL;
            for (size_t k = 0; k + 1 < sizeof esc && !m; k += 2)
                m = esc[k] == e ? &esc[k + 1] : NULL;
            if (m) {
                c = (unsigned char)*m;
            } else if (e >= '0' && e <= '7') {
                c = 0;
                for (int k = 0; k < 3 && i + 1 < t->len && t->s[i] >= '0' &&
                                t->s[i] <= '7'; k++)
                    c = c * 8 + (unsigned)(t->s[i++] - '0');
                i--;
            } else if (e == 'x' && hexval(t->s[i + 1]) >= 0) {
                c = 0;
                while (i + 2 < t->len && hexval(t->s[i + 1]) >= 0 && c < 256)
                    c = c * 16 + (unsigned)hexval(t->s[++i]);
            } else {
                asm_error(a, col, col + 2, "unknown escape sequence");
                return false;
            }
            if (c > 255) {
                asm_error(a, col, (uint32_t)(t->col + i + 1), "escape "
                          "sequence out of range");
                return false;
            }
        }
        if (c == 0) {
            asm_error(a, col, (uint32_t)(t->col + i + 1), "a NUL byte in a "
                      "string");
            return false;
        }
        o->col[o->len] = col;
        o->s[o->len++] = (char)c;
    }
    o->col[o->len] = tend(t) - 1;
    o->s[o->len] = 0;
    return true;
}

/* Appends s (n bytes) to the growing buffer; doubled '%' if pct. */
static bool put(A *a, char **buf, size_t *len, size_t *cap, const char *s,
                size_t n, bool pct)
{
    for (size_t i = 0; i < n; i++) {
        if (*len + 2 >= *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            char *nb = realloc(*buf, nc);
            if (!nb) {
                asm_oom(a);
                return false;
            }
            *buf = nb, *cap = nc;
        }
        if (pct && s[i] == '%')
            (*buf)[(*len)++] = '%';
        (*buf)[(*len)++] = s[i];
    }
    return true;
}

/* The type a flexible argument (literal, size_t, truth value) takes from
 * its conversion, so printf("%lu", get_global_id(0)) needs no cast. */
static ty_t want_of(const pf_spec *s, const node *e)
{
    bool sgn = strchr("dic", s->conv) != NULL;
    if (strchr("fFeEgGaA", s->conv))
        return (ty_t){TY_DOUBLE, 1};
    if (s->length == PF_L)
        return (ty_t){sgn ? TY_LONG : TY_ULONG, 1};
    if (strchr("diouxXc", s->conv))
        return (ty_t){sgn ? TY_INT : TY_UINT, 1};
    return e->x.t;
}

typedef struct {
    const tok *str;     /* a string literal argument, or NULL */
    node *e;
    uint32_t col;
} parg;

/* An argument of a '*' width or precision: an int (a literal takes
 * int). */
static bool star_arg(A *a, const pf_spec *s, const char *fmt, parg *p)
{
    char msg[160];
    if (p->str) {
        pf_check_star(s, fmt, (pf_arg){PF_ARG_STRING, {0, 1}}, msg, sizeof msg);
        asm_error(a, p->str->col, tend(p->str), "%s", msg);
        return false;
    }
    node *x = p->e;
    if (!check_expr(a, x))
        return false;
    if ((x->x.cls == X_LIT || x->x.cls == X_SIZE || x->x.cls == X_BOOL) &&
        !settle_coerce(a, x, (ty_t){TY_INT, 1}, false, "printf argument"))
        return false;
    pf_arg pa = {x->x.cls == X_PTR ? PF_ARG_POINTER : PF_ARG_VALUE, x->x.t};
    if (x->x.cls == X_VOID || pf_check_star(s, fmt, pa, msg, sizeof msg)) {
        if (x->x.cls == X_VOID)
            snprintf(msg, sizeof msg, "'*' needs a value");
        asm_error_node(a, x, "%s", msg);
        return false;
    }
    return true;
}

/* Checks format f against the arguments, conversion by conversion, and
 * writes the format the VM stores to out (%s of a string literal is
 * formatted here, into it). */
static bool printf_body(A *a, parg *args, unsigned na, cstr *f, char **out,
                        size_t *olen)
{
    size_t pos = 0, tx = 0, cap = 0;
    unsigned used = 0;
    pf_spec s;
    pf_error e;
    int r;
    while ((r = pf_next(f->s, f->len, &pos, &s, &e)) == 1) {
        uint32_t c0 = f->col[s.start], c1 = f->col[s.start + s.len - 1] + 1;
        if (!put(a, out, olen, &cap, f->s + tx, s.start - tx, false))
            return false;
        tx = pos;
        if (!pf_takes_arg(&s)) {
            if (!put(a, out, olen, &cap, "%%", 2, false))
                return false;
            continue;
        }
        if (used + pf_nstars(&s) >= na) {
            asm_error(a, c0, c1, "'%.*s' has no argument", (int)s.len,
                      f->s + s.start);
            return false;
        }
        char msg[160];
        for (unsigned k = pf_nstars(&s); k; k--)   /* '*': an int each */
            if (!star_arg(a, &s, f->s, &args[used++]))
                return false;
        parg *p = &args[used++];
        if (p->str) {
            if (pf_check_arg(&s, f->s, (pf_arg){PF_ARG_STRING, {0, 1}}, msg,
                             sizeof msg)) {
                asm_error(a, p->str->col, tend(p->str), "%s", msg);
                return false;
            }
            /* %s of a constant: formatted now, into the stored format */
            cstr v;
            char cf[PF_CFMT_MAX];
            bool ok = decode(a, p->str, &v);
            pf_cformat(&s, cf);
            int n = ok ? snprintf(NULL, 0, cf, v.s) : -1;
            char *txt = n >= 0 ? malloc((size_t)n + 1) : NULL;
            if (txt)
                snprintf(txt, (size_t)n + 1, cf, v.s);
            ok = txt && put(a, out, olen, &cap, txt, (size_t)n, true);
            if (n >= 0 && !txt)
                asm_oom(a);
            free(txt), free(v.s), free(v.col);
            if (!ok)
                return false;
            continue;
        }
        node *x = p->e;
        if (!check_expr(a, x))
            return false;
        if ((x->x.cls == X_LIT || x->x.cls == X_SIZE || x->x.cls == X_BOOL) &&
            !settle_coerce(a, x, want_of(&s, x), false, "printf argument"))
            return false;
        pf_arg pa = {x->x.cls == X_PTR ? PF_ARG_POINTER : PF_ARG_VALUE,
                     x->x.t};
        if (x->x.cls == X_VOID || pf_check_arg(&s, f->s, pa, msg,
                                                sizeof msg)) {
            if (x->x.cls == X_VOID)
                snprintf(msg, sizeof msg, "'%.*s' needs a value", (int)s.len,
                         f->s + s.start);
            asm_error_node(a, x, "%s", msg);
            return false;
        }
        if (!put(a, out, olen, &cap, f->s + s.start, s.len, false))
            return false;
    }
    if (r < 0) {
        uint32_t c = f->col[e.at];
        asm_error(a, c, c + 1, "bad printf format: %s", e.msg);
        return false;
    }
    if (used < na) {
        const parg *p = &args[used];
        if (p->str)
            asm_error(a, p->str->col, tend(p->str), "printf argument %u is "
                      "not used by the format", used + 1);
        else
            asm_error_node(a, p->e, "printf argument %u is not used by the "
                           "format", used + 1);
        return false;
    }
    return put(a, out, olen, &cap, f->s + tx, f->len - tx, false);
}

/* printf("format", ARG, ...): a statement. */
void hostcall_printf(A *a)
{
    parse_next(a);   /* printf */
    if (!parse_expect(a, P_LPAREN, "after printf"))
        return;
    const tok *ft = parse_next(a);
    if (ft->kind != TK_STRING) {
        asm_error(a, ft->col, tend(ft), "printf's first argument is its "
                  "format, a string literal");
        return;
    }
    parg args[BC_MAX_CALL_ARGS + 1];
    unsigned na = 0;
    while (parse_accept(a, P_COMMA)) {
        const tok *t = parse_peek(a);
        if (na == BC_MAX_CALL_ARGS) {
            asm_error(a, t->col, tend(t), "printf takes at most %d arguments "
                      "after the format", BC_MAX_CALL_ARGS);
            return;
        }
        parg *p = &args[na++];
        *p = (parg){NULL, NULL, t->col};
        if (t->kind == TK_STRING)
            p->str = parse_next(a);
        else if (!(p->e = parse_expr(a)))
            return;
    }
    if (!parse_expect(a, P_RPAREN, "to close printf's arguments"))
        return;
    const tok *e = parse_peek(a);
    if (e->kind != TK_EOL) {
        asm_error(a, e->col, tend(e), "unexpected text after printf(...)");
        return;
    }
    cstr f;
    char *out = NULL;
    size_t olen = 0;
    bool ok = decode(a, ft, &f) && printf_body(a, args, na, &f, &out,
                                               &olen);
    free(f.s), free(f.col);
    uint32_t w[1 + BC_MAX_CALL_ARGS];
    bool ptr[BC_MAX_CALL_ARGS];
    unsigned nr = 0;
    node *regs[BC_MAX_CALL_ARGS];
    for (unsigned i = 0; ok && i < na; i++)
        if (args[i].e) {
            ptr[nr] = args[i].e->x.cls == X_PTR;
            regs[nr++] = args[i].e;
        }
    if (ok && (ok = lower_args(a, regs, nr, ptr, w + 1))) {
        uint32_t at = kb_pc(a) + 1;
        w[0] = 0;   /* the format's offset: at the kernel's end */
        ok = kb_emit(a, op_variant(BCB_PRINTF, TY_UINT), 1, nr, w, 1 + nr);
        for (unsigned i = 0; i < nr; i++)
            kb_release(a, w[1 + i]);
        if (ok) {
            kb_format_add(a, at, out, olen);   /* takes out */
            out = NULL;
        }
    }
    free(out);
}
