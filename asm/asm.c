/* The public API: a module built a line at a time; asm_assemble feeds a
 * whole file and verifies the result. */
#include <stdlib.h>
#include <string.h>

#include "asm/asmint.h"
#include "vm/bcfile.h"

asm_ctx *asm_open(const char *filename, FILE *diag)
{
    A *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->diag = diag;
    a->filename = strdup(filename ? filename : "<input>");
    a->file = a->filename ? strdup(a->filename) : NULL;
    if (!a->filename || !a->file || !kb_module_init(a)) {
        asm_close(a);
        return NULL;
    }
    return a;
}

void asm_close(asm_ctx *a)
{
    if (!a)
        return;
    kb_module_free(a);
    lex_free(&a->lx);
    asm_arena_free(a);
    free(a->filename);
    free(a->file);
    free(a->source);
    free(a->cont);
    free(a);
}

int asm_errors(const asm_ctx *a) { return a->nerr; }

bool asm_is_reserved(const char *name, size_t len)
{
    return parse_is_reserved(name, len);
}

bool asm_has_kernel_line(const char *src, size_t len)
{
    for (size_t i = 0; i < len;) {
        while (i < len && (src[i] == ' ' || src[i] == '\t'))
            i++;
        size_t n = i + 2 <= len && !memcmp(src + i, "__", 2) ? 2 : 0;
        if (len - i >= n + 6 && !memcmp(src + i + n, "kernel", 6) &&
            (i + n + 6 == len || strchr(" \t\r\n", src[i + n + 6])))
            return true;
        const char *nl = memchr(src + i, '\n', len - i);
        i = nl ? (size_t)(nl - src) + 1 : len;
    }
    return false;
}

/* Makes text the current line (for messages) and tokenises it. */
static bool begin_line(A *a, const char *text, size_t len)
{
    int64_t l = (int64_t)(a->cont ? a->cont_phys : a->phys) + a->line_delta;
    a->line = l < 0 ? 0 : l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
    a->text = text, a->tlen = len;
    a->failed = false;
    if (!lex_line(&a->lx, text, len, ASM_MAX_TOKENS)) {
        asm_error(a, 1, 1, "line too long (more than %d tokens)",
                  ASM_MAX_TOKENS);
        return false;
    }
    a->tp = 0;
    return true;
}

/* Runs each statement of the tokenised line: ';' ends a statement as in
 * C, so the tokens are cut there, each piece ending in an end of line. */
static void statements(A *a)
{
    size_t n = a->lx.n, start = 0;
    for (size_t i = 0; i < n; i++) {
        tok *t = &a->lx.t[i];
        if (t->kind == TK_PUNCT && t->p == P_SEMI)
            t->kind = TK_EOL, t->p = P_NONE, t->len = 0;
        else if (t->kind != TK_EOL)
            continue;
        a->lx.n = i + 1;
        a->tp = start;
        if (!a->line_done) {
            stmt_line(a);
            /* Old IR read ';' as a comment: say so where text after one
             * fails to parse. */
            if (a->failed && start > 0 && !a->semi_noted) {
                asm_note(a, a->line, "';' ends a statement, as in C; "
                         "comments are // and /* */");
                a->semi_noted = true;
            }
        }
        kb_release_all(a);
        asm_arena_reset(a);
        start = i + 1;
    }
    a->lx.n = n;
    a->line_done = false;
}

static void end_line(A *a)
{
    kb_release_all(a);
    asm_arena_reset(a);
    a->text = NULL, a->tlen = 0;
}

/* Appends a line to the statement being continued. */
static bool join(A *a, const char *line, size_t len)
{
    char *c = realloc(a->cont, a->ncont + len + 2);
    if (!c) {
        asm_oom(a);
        return false;
    }
    if (!a->cont)
        a->cont_phys = a->phys, a->cont_lines = 0;
    a->cont = c;
    if (a->ncont)
        a->cont[a->ncont++] = ' ';
    memcpy(a->cont + a->ncont, line, len);
    a->ncont += len;
    a->cont_lines++;
    return true;
}

static void drop_cont(A *a)
{
    free(a->cont);
    a->cont = NULL, a->ncont = 0;
}

void asm_line(asm_ctx *a, const char *line, size_t len)
{
    if (a->phys < UINT32_MAX)
        a->phys++;
    if (a->stopped)
        return;
    bool inc = a->lx.in_comment;
    if (a->cont) {
        if (!join(a, line, len)) {
            drop_cont(a);
            return;
        }
        line = a->cont, len = a->ncont;
        a->lx.in_comment = a->cont_inc;
    }
    if (begin_line(a, line, len)) {
        /* A line ending in ',' or '(' goes on: long kernel headers and
         * calls can be split as in C. */
        size_t nt = a->lx.n;
        const tok *last = nt > 1 ? &a->lx.t[nt - 2] : NULL;
        if (last && last->kind == TK_PUNCT &&
            (last->p == P_COMMA || last->p == P_LPAREN) &&
            !a->lx.in_comment && (!a->cont || a->cont_lines < ASM_MAX_CONT)) {
            if (!a->cont) {
                join(a, line, len);
                a->cont_inc = inc;
            }
            end_line(a);
            return;
        }
        statements(a);
    } else {
        a->lx.in_comment = inc;
    }
    drop_cont(a);
    end_line(a);
}

int asm_expr(asm_ctx *a, const char *src, size_t len, uint32_t *reg,
             ty_t *type)
{
    int before = a->nerr;
    bool inc = a->lx.in_comment;
    if (!a->in_kernel) {
        fprintf(a->diag ? a->diag : stderr, "%s: error: no kernel to "
                "evaluate in\n", a->file);
        a->nerr++;
        return -1;
    }
    if (!begin_line(a, src, len))
        return -1;
    a->lx.in_comment = inc;
    node *n = parse_expr(a);
    opnd o;
    bool ok = n && parse_peek(a)->kind == TK_EOL && check_expr(a, n) &&
              settle_default(a, n) && lower_expr(a, n, -1, &o);
    if (n && ok) {
        *reg = o.reg;
        *type = o.ty;
    } else if (n && a->nerr == before) {
        const tok *t = parse_peek(a);
        asm_error(a, t->col, t->col + t->len, "unexpected '%.*s' after the "
                  "expression", (int)(t->len > 40 ? 40 : t->len), t->s);
    }
    /* The temporaries stay busy until the next line. */
    asm_arena_reset(a);
    a->text = NULL, a->tlen = 0;
    return ok ? 0 : -1;
}

int asm_finish(asm_ctx *a, bc_module *out)
{
    memset(out, 0, sizeof *out);
    if (a->cont && !a->stopped) {
        /* The input ended inside a continued statement. */
        if (begin_line(a, a->cont, a->ncont))
            stmt_line(a);
        drop_cont(a);
        end_line(a);
    }
    if (a->lx.in_comment && !a->stopped)
        asm_error(a, 0, 0, "unterminated /* comment");
    if (!a->stopped)
        stmt_finish(a);
    else if (a->in_kernel)
        kb_kernel_drop(a);
    if (!kb_module_take(a, out))
        memset(out, 0, sizeof *out);
    return a->nerr;
}

int asm_assemble(const char *src, size_t len, const char *filename,
                 bc_module *out, FILE *diag)
{
    memset(out, 0, sizeof *out);
    A *a = asm_open(filename, diag);
    if (!a) {
        if (diag)
            fprintf(diag, "%s: error: out of memory\n", filename);
        return 1;
    }
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(src + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - src) : len;
        asm_line(a, src + i, e - i);
        i = e + 1;
    }
    int nerr = asm_finish(a, out);
    if (!nerr) {
        /* Whatever the assembler makes must pass the verifier: a failure
         * here is a bug in clvm, reported as such. */
        char err[256];
        if (bc_verify(out, err, sizeof err)) {
            if (diag)
                fprintf(diag, "%s: error: internal error: the module does "
                        "not verify: %s\n", a->file, err);
            bc_free(out);
            nerr = 1;
        }
    }
    asm_close(a);
    return nerr;
}

void asm_set_fold(asm_ctx *a, bool fold) { a->nofold = !fold; }
