/* Statements: the line loop's dispatcher, declarations, assignments,
 * structured blocks and kernel headers. */
#include <stdlib.h>
#include <string.h>

#include "asm/asmint.h"
#include "vm/bcfile.h"
#include "asm/optab.h"

static uint32_t tok_end(const tok *t) { return t->col + t->len; }

static bool at_eol(A *a)
{
    const tok *t = parse_peek(a);
    if (t->kind == TK_EOL)
        return true;
    if (t->kind == TK_BAD)
        asm_error(a, t->col, t->col + 1, "stray byte 0x%02x in the program",
                  (unsigned char)t->s[0]);
    else
        asm_error(a, t->col, a->lx.t[a->lx.n - 1].col, "unexpected '%.*s' "
                  "after the statement", (int)(t->len > 40 ? 40 : t->len),
                  t->s);
    return false;
}

static bool loop_open(const A *a)
{
    for (uint32_t i = 0; i < a->nblocks; i++)
        if (a->blocks[i].kind == B_LOOP)
            return true;
    return false;
}

static char *copy_line(A *a)
{
    size_t n = a->tlen > 400 ? 400 : a->tlen;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, a->text, n);
        s[n] = 0;
    }
    return s;
}

static void push_block(A *a, enum blk_kind k, uint32_t pc, uint32_t col,
                       bool chained)
{
    if (a->nblocks == a->capblocks) {
        uint32_t cap = a->capblocks ? a->capblocks * 2 : 16;
        block *nb = realloc(a->blocks, cap * sizeof *nb);
        if (!nb) {
            asm_oom(a);
            return;
        }
        a->blocks = nb, a->capblocks = cap;
    }
    a->blocks[a->nblocks++] = (block){(uint8_t)k, "", chained, pc, a->line,
                                      col, copy_line(a)};
}

static bool emit0(A *a, enum bc_base b, const uint32_t *w, unsigned nw)
{
    return kb_emit(a, op_variant(b, TY_UINT), 1, 0, w, nw);
}

/* Reports a block or kernel that `end` never closed. */
static void unclosed(A *a, uint32_t line, const char *text, uint32_t col,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void unclosed(A *a, uint32_t line, const char *text, uint32_t col,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_at(a, D_ERROR, line, text, text ? strlen(text) : 0, col, 0, fmt, ap);
    va_end(ap);
}

static const char *blk_name(const block *b)
{
    return b->kind == B_LOOP ? "loop" : b->kind == B_ELSE ? "else"
           : b->kind == B_BLOCK ? "block" : "if";
}

/* Ends the kernel being built: at `end` (ok) or cut short by a new kernel
 * or the end of the input. */
static void close_kernel(A *a, bool ok)
{
    if (!ok) {
        unclosed(a, a->kline, a->ktext, 1, "kernel '%s' is never closed "
                 "(missing 'end')", kb_strat(a, a->k.name));
        for (uint32_t i = 0; i < a->nblocks; i++) {
            block *b = &a->blocks[i];
            unclosed(a, b->line, b->text, b->col, "'%s' is never closed "
                     "(missing 'end')", blk_name(b));
        }
        kb_kernel_drop(a);
        return;
    }
    /* Falling off the end returns: the verifier wants the RET spelled. */
    if (!emit0(a, BCB_RET, NULL, 0) || !kb_kernel_end(a))
        kb_kernel_drop(a);
}

/* ---- directives ---- */

static bool unescape(A *a, const tok *t, char **out)
{
    char *s = malloc(t->len);
    size_t n = 0;
    if (!s) {
        asm_oom(a);
        return false;
    }
    for (size_t i = 1; i + 1 < t->len; i++) {
        char c = t->s[i];
        if (c == '\\' && i + 2 < t->len) {
            c = t->s[++i];
            if (c >= '0' && c <= '7') {
                unsigned v = 0;
                for (int k = 0; k < 3 && i + 1 < t->len && t->s[i] >= '0' &&
                                t->s[i] <= '7'; k++)
                    v = v * 8 + (unsigned)(t->s[i++] - '0');
                i--;
                c = (char)v;
            } else if (c == 'n') {
                c = '\n';
            } else if (c == 't') {
                c = '\t';
            }
        }
        if (!c) {
            asm_error(a, t->col, tok_end(t), "a NUL byte in a file name");
            free(s);
            return false;
        }
        s[n++] = c;
    }
    s[n] = 0;
    *out = s;
    return true;
}

static void directive(A *a)
{
    const tok *h = parse_next(a), *t = parse_peek(a);
    if (tok_is(t, "line"))
        parse_next(a), t = parse_peek(a);
    else if (t->kind != TK_NUMBER) {
        asm_error(a, h->col, tok_end(t), "unknown directive (clvm IR has "
                  "only #line N \"file\")");
        return;
    }
    lit l;
    if (t->kind != TK_NUMBER || lit_parse(t->s, t->len, &l) ||
        l.kind != LIT_INT || l.mag >= UINT32_MAX) {
        asm_error(a, t->col, tok_end(t), "#line needs a line number");
        return;
    }
    parse_next(a);
    char *file = NULL;
    if (parse_peek(a)->kind == TK_STRING && !unescape(a, parse_next(a), &file))
        return;
    if (!at_eol(a)) {
        free(file);
        return;
    }
    /* C's rule: the next line is line N. */
    a->line_delta = (int64_t)l.mag - ((int64_t)a->phys + 1);
    if (file) {
        if (!a->source)
            a->source = strdup(file);
        free(a->file);
        a->file = file;
    }
}

/* ---- kernels ---- */

enum { Q_SPACE = 1, Q_CONST = 2 };

/* Qualifiers before a type: address space and const, any order. */
static unsigned qualifiers(A *a, int *space, bool *cnst)
{
    unsigned seen = 0;
    for (;;) {
        const tok *t = parse_peek(a);
        int sp = tok_is(t, "global") || tok_is(t, "__global") ? BC_GLOBAL
                 : tok_is(t, "constant") || tok_is(t, "__constant") ? BC_CONSTANT
                 : tok_is(t, "local") || tok_is(t, "__local") ? BC_LOCAL
                 : tok_is(t, "private") || tok_is(t, "__private") ? BC_PRIVATE
                 : -1;
        if (sp >= 0) {
            if (seen & Q_SPACE)
                asm_error(a, t->col, tok_end(t), "two address spaces");
            *space = sp, seen |= Q_SPACE;
        } else if (tok_is(t, "const")) {
            *cnst = true, seen |= Q_CONST;
        } else if (!tok_is(t, "restrict") && !tok_is(t, "__restrict") &&
                   !tok_is(t, "volatile")) {
            return seen;
        }
        parse_next(a);
    }
}

static bool check_new_name(A *a, const tok *t)
{
    if (t->kind != TK_IDENT) {
        if (t->kind == TK_EOL)
            asm_error(a, t->col, t->col + 1, "expected a name");
        else
            asm_error(a, t->col, tok_end(t), "expected a name, found '%.*s'",
                      (int)(t->len > 40 ? 40 : t->len), t->s);
        return false;
    }
    if (parse_is_reserved(t->s, t->len)) {
        asm_error(a, t->col, tok_end(t), "'%.*s' is a reserved word or "
                  "built-in name", (int)t->len, t->s);
        return false;
    }
    int32_t r = kb_find(a, t->s, t->len);
    if (r >= 0) {
        asm_error(a, t->col, tok_end(t), "redeclaration of '%.*s'",
                  (int)t->len, t->s);
        asm_note(a, a->rx[r].line, "'%.*s' was declared here",
                 (int)t->len, t->s);
        return false;
    }
    return true;
}

static bool param(A *a, uint32_t index)
{
    int space = -1;
    bool cnst = false;
    ty_t ty;
    qualifiers(a, &space, &cnst);
    const tok *t = parse_next(a);
    if (!parse_is_type(t, &ty)) {
        asm_error(a, t->col, tok_end(t), "expected a parameter type, found "
                  "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
        return false;
    }
    bool ptr = parse_accept(a, P_MUL);
    int sp2 = -1;
    bool c2 = false;
    qualifiers(a, &sp2, &c2);    /* float * restrict p */
    const tok *n = parse_next(a);
    if (!check_new_name(a, n))
        return false;
    bc_reg r = {0};
    r.type = ty, r.init = BC_INIT_PARAM, r.arg = index;
    if (ptr) {
        if (space < 0 || space == BC_PRIVATE) {
            asm_error(a, t->col, tok_end(n), "pointer parameter '%.*s' needs "
                      "an address space: global, constant or local",
                      (int)n->len, n->s);
            return false;
        }
        r.kind = BC_REG_PTR, r.space = (uint8_t)space;
        r.flags = cnst ? BC_REGF_CONSTPTR : 0;
    } else if (space >= 0) {
        asm_error(a, t->col, tok_end(n), "value parameter '%.*s' has no "
                  "address space (a pointer is written T *name)", (int)n->len,
                  n->s);
        return false;
    }
    int32_t reg = kb_reg(a, n->s, n->len, r);
    return reg >= 0 && kb_param(a, (uint32_t)reg) && byval_clause(a);
}

static void kernel_header(A *a)
{
    const tok *k = parse_next(a);
    if (a->in_kernel) {
        asm_error(a, k->col, tok_end(k), "a kernel starts inside kernel '%s'",
                  kb_strat(a, a->k.name));
        close_kernel(a, false);
    }
    if (tok_is(parse_peek(a), "void"))
        parse_next(a);
    /* A bad name still opens the kernel, so its parameters and body are
     * checked rather than each line reported as outside a kernel. */
    const tok *n = parse_peek(a);
    bool named;
    if (n->kind == TK_PUNCT && n->p == P_LPAREN) {
        asm_error(a, n->col, n->col + 1, "expected the kernel's name");
        named = false;
    } else {
        named = check_new_name(a, parse_next(a));
    }
    for (uint32_t i = 0; named && i < a->nkernels; i++)
        if (!strncmp(kb_strat(a, a->kernels[i].name), n->s, n->len) &&
            !kb_strat(a, a->kernels[i].name)[n->len]) {
            asm_error(a, n->col, tok_end(n), "kernel '%.*s' is defined twice",
                      (int)n->len, n->s);
            asm_note(a, a->kernels[i].line, "the first is here");
            break;
        }
    kb_kernel_begin(a, named ? n->s : "?", named ? n->len : 1, a->line);
    a->ktext = copy_line(a);
    if (!named && parse_peek(a)->kind == TK_EOL)
        return;
    if (!parse_expect(a, P_LPAREN, "after the kernel name"))
        return;
    if (tok_is(parse_peek(a), "void") && parse_peek_at(a, 1)->kind == TK_PUNCT &&
        parse_peek_at(a, 1)->p == P_RPAREN)
        parse_next(a);
    if (!parse_accept(a, P_RPAREN)) {
        uint32_t i = 0;
        do
            if (!param(a, i++))
                return;
        while (parse_accept(a, P_COMMA));
        if (!parse_expect(a, P_RPAREN, "to close the parameters"))
            return;
    }
    if (!reqd_clause(a))
        return;
    const tok *b = parse_peek(a);
    if (b->kind == TK_PUNCT && b->p == P_LBRACE)
        asm_error(a, b->col, b->col + 1, "clvm IR has no braces: the "
                  "kernel's statements follow, one per line, until 'end'");
    else
        at_eol(a);
}

/* ---- assignment ---- */

static bool writable(A *a, const node *lhs, uint32_t reg)
{
    const bc_reg *r = kb_regp(a, reg);
    const char *why = r->init == BC_INIT_PARAM ? "a kernel parameter"
                      : r->init == BC_INIT_CONST ? "a const register"
                      : r->init == BC_INIT_ARRAY ? "an array" : NULL;
    if (!why)
        return true;
    asm_error_node(a, lhs, "'%s' is %s: it cannot be assigned%s",
                   kb_regname(a, reg), why,
                   r->init == BC_INIT_PARAM ? " (copy it into a register)" : "");
    return false;
}

/* rhs to be stored in a register (or place) of type t. */
static bool assign_type(A *a, node *rhs, ty_t t, const char *dest)
{
    char b1[TY_NAME_MAX], b2[TY_NAME_MAX], bn[BI_NAME_MAX];
    if (rhs->x.cls == X_VOID) {
        asm_error_node(a, rhs, "%.*s gives no value", (int)rhs->nlen,
                       rhs->name);
        return false;
    }
    if (rhs->x.cls == X_PTR) {
        asm_error_node(a, rhs, "a pointer cannot be stored in %s (%s); "
                       "an element of 8-byte integers (a ulong slot) holds "
                       "one", dest, ty_name(t, b1));
        return false;
    }
    if (rhs->x.cls != X_VAL)
        return settle_type(a, rhs, t);
    ty_t s = rhs->x.t;
    if (ty_eq(s, t))
        return true;
    if (s.n == 1 && t.n > 1 && s.s == t.s) {
        rhs->bcast = t.n;       /* float4 v = f: every component */
        return true;
    }
    ty_name(s, b1), ty_name(t, b2);
    if (rhs->kind == N_CALL && rhs->op == F_BI && rhs->bi.kind == BI_CONVERT)
        asm_error_node(a, rhs, "%s gives %s, but %s is %s (write "
                       "convert_%s)", bi_format(&rhs->bi, bn), b1, dest, b2,
                       b2);
    else if (rhs->kind == N_CALL && rhs->op == F_BI && rhs->bi.kind == BI_AS)
        asm_error_node(a, rhs, "%s gives %s, but %s is %s",
                       bi_format(&rhs->bi, bn), b1, dest, b2);
    else if (s.n == t.n && ty_sizeof(s) == ty_sizeof(t))
        asm_error_node(a, rhs, "cannot assign %s to %s (%s): write "
                       "convert_%s(...) to convert the value or as_%s(...) "
                       "to keep its bits", b1, dest, b2, b2, b2);
    else if (s.n == t.n)
        asm_error_node(a, rhs, "cannot assign %s to %s (%s): write "
                       "convert_%s(...)", b1, dest, b2, b2);
    else
        asm_error_node(a, rhs, "cannot assign %s to %s (%s): the component "
                       "counts differ", b1, dest, b2);
    return false;
}

static bool ptr_compatible(A *a, const node *rhs, const bc_reg *d,
                           const char *dest)
{
    char b1[48], b2[48];
    xty dx = {d->type, X_PTR, d->space, (d->flags & BC_REGF_CONSTPTR) != 0};
    if (rhs->x.cls != X_PTR || !ty_eq(rhs->x.t, d->type) ||
        rhs->x.space != d->space) {
        asm_error_node(a, rhs, "%s is %s; cannot assign %s", dest,
                       diag_xty_name(&dx, b1),
                       rhs->x.cls == X_PTR ? diag_xty_name(&rhs->x, b2)
                       : rhs->kind == N_INDEX ? "a value (a pointer comes "
                         "out of an element of 8-byte integers, a ulong "
                         "slot)" : "a value");
        return false;
    }
    if (rhs->x.cptr && !dx.cptr) {
        asm_error_node(a, rhs, "%s points to const data; %s (%s) does not",
                       diag_xty_name(&rhs->x, b2), dest,
                       diag_xty_name(&dx, b1));
        return false;
    }
    return true;
}

static node *compound(A *a, node *lhs, int op, node *rhs)
{
    node *n = asm_arena_alloc(a, sizeof *n);
    if (!n)
        return NULL;
    n->kind = N_BINARY, n->op = (uint8_t)op, n->a = lhs, n->b = rhs;
    n->col = lhs->col, n->end = rhs->end, n->reg = -1;
    n->height = (lhs->height > rhs->height ? lhs->height : rhs->height) + 1;
    return n;
}

static int compound_op(int p)
{
    switch (p) {
    case P_ADDEQ: return P_ADD;
    case P_SUBEQ: return P_SUB;
    case P_MULEQ: return P_MUL;
    case P_DIVEQ: return P_DIV;
    case P_MODEQ: return P_MOD;
    case P_ANDEQ: return P_AND;
    case P_OREQ: return P_OR;
    case P_XOREQ: return P_XOR;
    case P_SHLEQ: return P_SHL;
    case P_SHREQ: return P_SHR;
    default: return 0;
    }
}

/* lhs = rhs, lhs already parsed and unchecked. */
static void assign(A *a, node *lhs, int op, node *rhs)
{
    char name[80];
    if (op && !(rhs = compound(a, lhs, op, rhs)))
        return;
    if (!check_expr(a, lhs))
        return;
    if (lhs->kind == N_NAME) {
        uint32_t reg = (uint32_t)lhs->reg;
        const bc_reg *r = kb_regp(a, reg);
        snprintf(name, sizeof name, "'%s'", kb_regname(a, reg));
        if (!writable(a, lhs, reg) || !check_expr(a, rhs))
            return;
        opnd o;
        uint32_t p;
        if (r->kind == BC_REG_PTR) {
            if (lower_is_slot(rhs))   /* q = slots[i]: LDP */
                lower_slot(a, rhs, reg, false);
            else if (ptr_compatible(a, rhs, r, name))
                lower_ptr(a, rhs, (int32_t)reg, &p);
        } else if (assign_type(a, rhs, r->type, name)) {
            lower_expr(a, rhs, (int32_t)reg, &o);
        }
        return;
    }
    if (lhs->kind == N_SWZ) {
        if (lhs->a->kind != N_NAME || lhs->isconst) {
            asm_error_node(a, lhs, "only the components of a register can "
                           "be assigned");
            return;
        }
        unsigned seen = 0;
        for (unsigned k = 0; k < lhs->nsel; k++) {
            if (seen >> lhs->sel[k] & 1) {
                asm_error_node(a, lhs, "a component is assigned twice");
                return;
            }
            seen |= 1u << lhs->sel[k];
        }
        snprintf(name, sizeof name, "'%s.%.*s'",
                 kb_regname(a, (uint32_t)lhs->a->reg),
                 (int)(lhs->nlen > 40 ? 40 : lhs->nlen), lhs->name);
        if (!writable(a, lhs, (uint32_t)lhs->a->reg) || !check_expr(a, rhs) ||
            !assign_type(a, rhs, lhs->x.t, name))
            return;
        lower_store(a, lhs, rhs);
        return;
    }
    if (lhs->kind == N_INDEX) {
        char b1[48];
        const node *p = lhs->a;
        if (p->x.cptr || p->x.space == BC_CONSTANT) {
            asm_error_node(a, lhs, "stores through %s, which points to %s "
                           "data", diag_xty_name(&p->x, b1),
                           p->x.cptr ? "const" : "constant");
            return;
        }
        if (!check_expr(a, rhs))
            return;
        if (rhs->x.cls == X_PTR && lower_is_slot(lhs)) {
            uint32_t q;   /* slots[i] = q: STP */
            if (lower_ptr(a, rhs, -1, &q))
                lower_slot(a, lhs, q, true);
            return;
        }
        if (!assign_type(a, rhs, lhs->x.t, "the element"))
            return;
        lower_store(a, lhs, rhs);
        return;
    }
    asm_error_node(a, lhs, "cannot assign to this (a register, v.xy, or "
                   "p[i])");
}

static void call_stmt(A *a, node *call)
{
    char bn[BI_NAME_MAX];
    if (!call || !at_eol(a) || !check_expr(a, call))
        return;
    if (call->x.cls != X_VOID && !asm_fn_effect(call->op)) {
        asm_error_node(a, call, "the result of %s is not used",
                       call->op == F_BI ? bi_format(&call->bi, bn)
                       : call->op == F_EXT ? a->extn[call->reg]
                                           : asm_fns[call->op].name);
        return;
    }
    lower_call_stmt(a, call);
}

static void assignment(A *a)
{
    node *lhs = parse_postfix(a);
    if (!lhs)
        return;
    const tok *t = parse_peek(a);
    if (lhs->kind == N_CALL && t->kind == TK_EOL) {
        call_stmt(a, lhs);
        return;
    }
    int op = t->kind == TK_PUNCT ? compound_op(t->p) : 0;
    if (!op && !(t->kind == TK_PUNCT && t->p == P_ASSIGN)) {
        if (lhs->kind == N_NAME && t->kind == TK_IDENT)
            asm_error(a, lhs->col, lhs->end, "unknown instruction or type "
                      "'%.*s'", (int)lhs->nlen, lhs->name);
        else if (t->kind == TK_EOL)
            asm_error(a, t->col, t->col + 1, "expected '=' (a statement "
                      "assigns, calls, or is a keyword)");
        else
            asm_error(a, t->col, tok_end(t), "expected '=', found '%.*s'",
                      (int)(t->len > 40 ? 40 : t->len), t->s);
        return;
    }
    parse_next(a);
    node *rhs = parse_assign_rhs(a);
    if (!rhs || !at_eol(a))
        return;
    assign(a, lhs, op, rhs);
}

/* ---- declarations ---- */

static void const_decl(A *a, const tok *name, ty_t t, node *init)
{
    bc_reg r = {0};
    r.type = t, r.kind = BC_REG_VALUE;
    if (init->kind == N_NAME) {
        int32_t p = kb_find(a, init->name, init->nlen);
        const bc_reg *pr = p >= 0 ? kb_regp(a, (uint32_t)p) : NULL;
        if (pr && pr->init == BC_INIT_PARAM && pr->kind == BC_REG_VALUE) {
            char b1[TY_NAME_MAX], b2[TY_NAME_MAX];
            if (!ty_eq(pr->type, t) && !(pr->type.n == 1 && pr->type.s == t.s)) {
                asm_error_node(a, init, "parameter '%.*s' is %s; it cannot "
                               "initialise %s", (int)init->nlen, init->name,
                               ty_name(pr->type, b1), ty_name(t, b2));
                return;
            }
            if (!ASM_PARAM_BCAST) {
                asm_error_node(a, init, "a const register initialised from a "
                               "parameter is not supported yet; write "
                               "%.*s = (%s)(%.*s)", (int)name->len, name->s,
                               ty_name(t, b1), (int)init->nlen, init->name);
                return;
            }
            r.init = BC_INIT_PARAM, r.arg = pr->arg;
            kb_reg(a, name->s, name->len, r);
            return;
        }
    }
    if (!check_expr(a, init) || !assign_type(a, init, t, "a const register"))
        return;
    if (!init->isconst) {
        asm_error_node(a, init, "the value of a const register must be a "
                       "constant");
        return;
    }
    uint8_t bytes[128] = {0};
    unsigned es = ty_scalar_size((enum ty_scalar)t.s);
    for (unsigned i = 0; i < t.n; i++)
        lit_store(bytes + i * es, (enum ty_scalar)t.s,
                  init->vv[init->bcast ? 0 : i]);
    r.init = BC_INIT_CONST, r.arg = kb_pool(a, t, bytes);
    int32_t reg = r.arg == UINT32_MAX ? -1 : kb_reg(a, name->s, name->len, r);
    if (reg >= 0)
        kb_note_const(a, (uint32_t)reg);
}

static void declaration(A *a)
{
    int space = -1;
    bool cnst = false;
    ty_t t;
    const tok *first = parse_peek(a);
    qualifiers(a, &space, &cnst);
    const tok *tt = parse_next(a);
    if (!parse_is_type(tt, &t)) {
        asm_error(a, tt->col, tok_end(tt), "expected a type after '%.*s'",
                  (int)first->len, first->s);
        return;
    }
    do {
        bool ptr = parse_accept(a, P_MUL);
        const tok *name = parse_next(a);
        if (!check_new_name(a, name))
            return;
        bc_reg r = {0};
        r.type = t, r.kind = ptr ? BC_REG_PTR : BC_REG_VALUE;
        if (parse_accept(a, P_LBRACK)) {             /* an array */
            node *len = parse_expr(a);
            if (!len || !parse_expect(a, P_RBRACK, "after the array length"))
                return;
            if (ptr || cnst || (space >= 0 && space != BC_LOCAL &&
                                space != BC_PRIVATE)) {
                asm_error(a, first->col, len->end + 1, "arrays are 'local T "
                          "name[N]' or 'T name[N]' (private)");
                return;
            }
            if (!len->litonly || !check_expr(a, len) ||
                !settle_type(a, len, TY(TY_ULONG, 1)) || len->vv[0] == 0 ||
                len->vv[0] > UINT32_MAX ||
                len->vv[0] * ty_sizeof(t) > (space == BC_LOCAL
                                             ? BC_MAX_LOCAL : BC_MAX_PRIVATE)) {
                if (!a->failed)
                    asm_error_node(a, len, "array length must be a constant "
                                   "from 1 to %u bytes' worth", space ==
                                   BC_LOCAL ? BC_MAX_LOCAL : BC_MAX_PRIVATE);
                return;
            }
            r.kind = BC_REG_PTR, r.init = BC_INIT_ARRAY;
            r.space = space == BC_LOCAL ? BC_LOCAL : BC_PRIVATE;
            r.arg = (uint32_t)len->vv[0];
            kb_reg(a, name->s, name->len, r);
            continue;
        }
        if (ptr) {
            if (space < 0) {
                asm_error(a, first->col, tok_end(name), "pointer '%.*s' needs "
                          "an address space: global, constant, local or "
                          "private", (int)name->len, name->s);
                return;
            }
            r.space = (uint8_t)space;
            r.flags = cnst ? BC_REGF_CONSTPTR : 0;
        } else if (space >= 0) {
            asm_error(a, first->col, tok_end(name), "a register has no "
                      "address space (a pointer is 'global T *%.*s', an array "
                      "'local T %.*s[N]')", (int)name->len, name->s,
                      (int)name->len, name->s);
            return;
        }
        if (cnst && !ptr) {
            if (!parse_expect(a, P_ASSIGN, "and a value: a const register is a "
                        "constant"))
                return;
            node *init = parse_expr(a);
            if (init)
                const_decl(a, name, t, init);
            if (!init || a->failed)
                return;
            continue;
        }
        int32_t reg = kb_reg(a, name->s, name->len, r);
        if (reg < 0)
            return;
        if (parse_accept(a, P_ASSIGN)) {
            node *rhs = parse_assign_rhs(a);
            if (!rhs)
                return;
            node *lhs = asm_arena_alloc(a, sizeof *lhs);
            if (!lhs)
                return;
            lhs->kind = N_NAME, lhs->name = name->s, lhs->nlen = name->len;
            lhs->col = name->col, lhs->end = tok_end(name), lhs->reg = -1;
            if (parse_peek(a)->kind == TK_PUNCT && parse_peek(a)->p == P_COMMA) {
                assign(a, lhs, 0, rhs);
                kb_release_all(a);
                if (a->failed)
                    return;
                continue;
            }
            if (!at_eol(a))
                return;
            assign(a, lhs, 0, rhs);
            return;
        }
    } while (parse_accept(a, P_COMMA));
    at_eol(a);
}

static bool starts_decl(A *a)
{
    const tok *t = parse_peek(a);
    ty_t ty;
    static const char *const q[] = {"const", "global", "__global", "local",
                                    "__local", "constant", "__constant",
                                    "private", "__private", "volatile"};
    if (parse_is_type(t, &ty))
        return true;
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        if (tok_is(t, q[i]))
            return true;
    return false;
}

/* ---- blocks ---- */

/* A condition for if / while / break if: a scalar integer; a comparison
 * keeps its own size (no conversion). */
static bool condition(A *a, node *c, opnd *o)
{
    char b1[48];
    if (!check_expr(a, c))
        return false;
    if (c->x.cls == X_BOOL)
        c->x.cls = X_VAL;
    else if (!settle_default(a, c))
        return false;
    if (c->x.cls != X_VAL || c->x.t.n != 1 ||
        ty_is_float((enum ty_scalar)c->x.t.s)) {
        asm_error_node(a, c, "a condition must be a scalar integer, not %s%s",
                       diag_xty_name(&c->x, b1),
                       c->x.cls == X_VAL && c->x.t.n == 1 ? " (compare it: "
                       "x != 0)" : "");
        return false;
    }
    return lower_cond(a, c, o);
}

static void stmt_if(A *a, const tok *kw, bool chained)
{
    node *c = parse_expr(a);
    opnd o;
    uint32_t pc = UINT32_MAX;
    if (c && at_eol(a) && condition(a, c, &o)) {
        uint32_t w[2] = {o.reg, 0};
        pc = kb_pc(a);
        if (!kb_emit(a, op_variant(BCB_IF, (enum ty_scalar)o.ty.s), 1, 0, w, 2))
            pc = UINT32_MAX;
    }
    /* Opened even after an error, so that its `end` matches. */
    push_block(a, B_IF, pc, kw->col, chained);
}

static void stmt_else(A *a, const tok *kw)
{
    block *b = a->nblocks ? &a->blocks[a->nblocks - 1] : NULL;
    if (!b || b->kind != B_IF) {
        asm_error(a, kw->col, tok_end(kw), b && b->kind == B_ELSE
                  ? "a second 'else' for the same 'if'"
                  : "'else' without 'if'");
        return;
    }
    uint32_t w[1] = {0}, pc = kb_pc(a);
    bool chain = tok_is(parse_peek(a), "if");
    if (!chain && !at_eol(a))
        return;
    if (emit0(a, BCB_ELSE, w, 1)) {
        if (b->pc != UINT32_MAX)
            kb_patch(a, b->pc + 2, pc);
        b->pc = pc;
    }
    b->kind = B_ELSE;
    if (chain)
        stmt_if(a, parse_next(a), true);
}

static void stmt_end(A *a)
{
    if (!at_eol(a))
        return;
    if (!a->nblocks) {
        close_kernel(a, true);
        return;
    }
    bool chained;
    do {
        block *b = &a->blocks[--a->nblocks];
        uint32_t pc = kb_pc(a);
        chained = b->chained;
        if (b->kind == B_LOOP) {
            uint32_t w[1] = {b->pc + 2};
            if (emit0(a, BCB_ENDLOOP, w, 1) && b->pc != UINT32_MAX)
                kb_patch(a, b->pc + 1, pc);
        } else if (b->kind == B_BLOCK) {
            if (emit0(a, BCB_ENDBLOCK, NULL, 0) && b->pc != UINT32_MAX)
                kb_patch(a, b->pc + 1, pc);
        } else if (emit0(a, BCB_ENDIF, NULL, 0) && b->pc != UINT32_MAX) {
            kb_patch(a, b->pc + (b->kind == B_IF ? 2 : 1), pc);
        }
        free(b->text);
    } while (chained && a->nblocks);
}

/* `break [NAME] if c`, and while's exit: BRKIF (BRKTOIF to target >= 0),
 * with NOT for `!c`. */
static void break_if(A *a, node *c, bool negate, int32_t target)
{
    opnd o;
    while (c->kind == N_UNARY && c->op == P_NOT && !c->parens)
        c = c->a, negate = !negate;
    if (!condition(a, c, &o))
        return;
    if (target >= 0) {
        flow_jump(a, (uint32_t)target, true, &o, negate);
        return;
    }
    uint32_t w[1] = {o.reg};
    kb_emit(a, op_variant(BCB_BRKIF, (enum ty_scalar)o.ty.s), 1,
            negate ? BC_F_NOT : 0, w, 1);
}

/* while c, loop [NAME], block NAME */
static void stmt_loop(A *a, const tok *kw, bool isw, bool blk)
{
    uint32_t w[1] = {0}, pc = kb_pc(a);
    node *c = NULL;
    char label[ASM_LABEL_MAX] = "";
    if (isw && (!(c = parse_expr(a)) || !at_eol(a)))
        c = NULL;
    /* Opened even after an error, so that its `end` matches. */
    if ((!isw && (!flow_label(a, label, blk) || !at_eol(a))) ||
        !emit0(a, blk ? BCB_BLOCK : BCB_LOOP, w, 1))
        pc = UINT32_MAX;
    push_block(a, blk ? B_BLOCK : B_LOOP, pc, kw->col, false);
    if (a->nblocks)
        memcpy(a->blocks[a->nblocks - 1].label, label, sizeof label);
    if (c)
        break_if(a, c, true, -1);
}

/* break [NAME] [if c], continue [NAME] */
static void stmt_jump(A *a, const tok *kw, bool brk)
{
    const tok *l = parse_peek(a);
    int32_t target = -1;
    if (l->kind == TK_IDENT && !tok_is(l, "if")) {
        if ((target = flow_target(a, parse_next(a), brk)) < 0)
            return;
    } else if (!loop_open(a)) {
        asm_error(a, kw->col, tok_end(kw), "'%s' outside a loop",
                  brk ? "break" : "continue");
        return;
    }
    if (brk && tok_is(parse_peek(a), "if")) {
        parse_next(a);
        node *c = parse_expr(a);
        if (c && at_eol(a))
            break_if(a, c, false, target);
    } else if (at_eol(a)) {
        if (target >= 0)
            flow_jump(a, (uint32_t)target, brk, NULL, false);
        else
            emit0(a, brk ? BCB_BREAK : BCB_CONT, NULL, 0);
    }
}

/* C statements the IR has no form of: one message with the IR's way, and
 * the rest of the line (a for header's other clauses) is not read. */
static bool c_only(A *a, const tok *t)
{
    static const struct { const char *word, *fix; } c_stmts[] = {
        {"for", "write 'int i = 0', then 'while i < n' ... 'i = i + 1' ... "
                "'end'"},
        {"do", "write 'loop' ... 'break if !(COND)' ... 'end'"},
        {"switch", "write 'if X == A' ... 'else if X == B' ... 'end'"},
        {"goto", "use if/while/loop blocks and break/continue"},
    };
    for (size_t i = 0; i < sizeof c_stmts / sizeof c_stmts[0]; i++)
        if (tok_is(t, c_stmts[i].word)) {
            asm_error(a, t->col, tok_end(t), "'%s' is not in clvm's IR: %s "
                      "(docs/ir.md)", c_stmts[i].word, c_stmts[i].fix);
            a->line_done = true;
            return true;
        }
    return false;
}

static bool keyword(A *a)
{
    const tok *t = parse_peek(a);
    if (c_only(a, t)) {
        return true;
    } else if (tok_is(t, "end")) {
        parse_next(a);
        stmt_end(a);
    } else if (tok_is(t, "if")) {
        stmt_if(a, parse_next(a), false);
    } else if (tok_is(t, "else")) {
        stmt_else(a, parse_next(a));
    } else if (tok_is(t, "while") || tok_is(t, "loop") ||
               (tok_is(t, "block") && (parse_peek_at(a, 1)->kind == TK_IDENT ||
                                       parse_peek_at(a, 1)->kind == TK_EOL))) {
        stmt_loop(a, parse_next(a), tok_is(t, "while"), tok_is(t, "block"));
    } else if (tok_is(t, "break") || tok_is(t, "continue")) {
        stmt_jump(a, parse_next(a), tok_is(t, "break"));
    } else if (tok_is(t, "return")) {
        parse_next(a);
        if (at_eol(a))
            emit0(a, BCB_RET, NULL, 0);
    } else {
        return false;
    }
    return true;
}

void stmt_line(A *a)
{
    const tok *t = parse_peek(a);
    a->failed = false;
    a->depth = 0;
    if (t->kind == TK_EOL)
        return;
    if (t->kind == TK_PUNCT && t->p == P_HASH) {
        directive(a);
        return;
    }
    if (tok_is(t, "kernel") || tok_is(t, "__kernel")) {
        kernel_header(a);
        return;
    }
    if (tok_is(t, "extern")) {
        hostcall_extern(a);
        return;
    }
    if (!a->in_kernel) {
        if (t->kind == TK_BAD)
            at_eol(a);
        else if (tok_is(t, "end"))
            asm_error(a, t->col, tok_end(t), "'end' without a block");
        else
            asm_error(a, t->col, a->lx.t[a->lx.n - 1].col, "statement "
                      "outside a kernel (a kernel starts with 'kernel "
                      "NAME(...)')");
        return;
    }
    if (tok_is(t, "printf") && parse_peek_at(a, 1)->kind == TK_PUNCT &&
        parse_peek_at(a, 1)->p == P_LPAREN) {
        hostcall_printf(a);
        return;
    }
    if (keyword(a))
        return;
    if (starts_decl(a)) {
        declaration(a);
        return;
    }
    enum asm_fn fn;
    bi_desc bi;
    if (t->kind == TK_IDENT && parse_is_func(t->s, t->len, &fn, &bi) &&
        !(parse_peek_at(a, 1)->kind == TK_PUNCT && parse_peek_at(a, 1)->p == P_LPAREN)) {
        parse_next(a);
        call_stmt(a, parse_call_noparen(a, t));
        return;
    }
    if (t->kind == TK_IDENT && parse_peek_at(a, 1)->kind == TK_PUNCT &&
        parse_peek_at(a, 1)->p == P_LPAREN && !parse_is_func(t->s, t->len, &fn, &bi)
        && kb_find(a, t->s, t->len) < 0 && kb_extern_find(a, t->s, t->len) < 0) {
        parse_unknown_func(a, t, "built-in");
        return;
    }
    if (t->kind == TK_IDENT && parse_peek_at(a, 1)->kind != TK_PUNCT &&
        kb_find(a, t->s, t->len) < 0 && parse_peek_at(a, 1)->kind != TK_EOL) {
        /* `frobnicate x, y`: an unknown instruction, not a register. */
        enum asm_fn f2;
        bi_desc b2;
        if (!parse_is_func(t->s, t->len, &f2, &b2)) {
            parse_unknown_func(a, t, "instruction or built-in");
            return;
        }
    }
    assignment(a);
}

void stmt_finish(A *a)
{
    if (a->in_kernel)
        close_kernel(a, false);
}
