/* FP_CONTRACT by source position: the .cl file's `#pragma OPENCL
 * FP_CONTRACT` lines read from its text (file scope until the next one, a
 * compound statement's until its closing brace), and where that cannot be
 * exact (a pragma under #if, in a macro, a header's), a refusal. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"

enum { MAX_TEXT = 1 << 24, MAX_DEPTH = 256 };

typedef struct {
    uint32_t line, col;
    bool off;
} fpc_change;

/* What the scan of the .cl file found (spv_mod.fpc, one allocation). */
struct spv_fpc {
    bool pragmas;          /* an FP_CONTRACT pragma */
    const char *why;       /* the pragmas cannot be followed exactly */
    uint32_t why_line;
    uint8_t inc;           /* the state at the #include lines: 0 none, 1
                              on, 2 off, 3 both */
    uint32_t last_file;    /* OpString id of the last lookup, and ... */
    int last_kind;         /* ... 0 the .cl file, 1 a header without
                              FP_CONTRACT, 2 one with it or unreadable */
    char path[PATH_MAX];   /* the .cl file, resolved */
    uint32_t n, cap;
    fpc_change v[];        /* in source order, the state from v[i] on */
};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(MAX_TEXT + 1) : NULL;
    *len = buf ? fread(buf, 1, MAX_TEXT, f) : 0;
    if (f)
        fclose(f);
    if (buf)
        buf[*len] = 0;
    return buf;
}

static void change(spv_mod *m, uint32_t line, uint32_t col, bool off)
{
    struct spv_fpc *p = m->fpc;
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 16;
        p = realloc(p, sizeof *p + cap * sizeof p->v[0]);
        if (!p)
            spv_fail(m, 0, "out of memory");
        m->fpc = p, p->cap = cap;
    }
    p->v[p->n++] = (fpc_change){line, col, off};
}

static void inexact(struct spv_fpc *p, const char *why, uint32_t line)
{
    if (!p->why)
        p->why = why, p->why_line = line;
}

/* An #include "NAME" of the .cl file: the state there, and NAME (found
 * beside the .cl file) must have no FP_CONTRACT of its own. */
static void include(struct spv_fpc *p, const char *d, bool off, uint32_t line)
{
    p->inc |= off ? 2 : 1;
    const char *q = strchr(d, '"'), *e = q ? strchr(q + 1, '"') : NULL;
    const char *slash = strrchr(p->path, '/');
    char path[PATH_MAX];
    size_t len;
    if (!e || !slash || (size_t)(slash - p->path) + (size_t)(e - q) + 2 >
                        sizeof path)
        return;   /* <NAME>, or beside no file: taken to have none */
    snprintf(path, sizeof path, "%.*s/%.*s", (int)(slash - p->path),
             p->path, (int)(e - q - 1), q + 1);
    char *text = slurp(path, &len);
    if (text && strstr(text, "FP_CONTRACT")) {
        p->pragmas = true;
        inexact(p, "an FP_CONTRACT pragma in an included file", line);
    }
    free(text);
}

/* The directive at s (after '#'), up to its end (line continuations
 * joined: *line advanced); the state *off and the #if depth *cond. */
static const char *directive(spv_mod *m, const char *s, uint32_t *line,
                             bool *off, int *cond)
{
    struct spv_fpc *p = m->fpc;
    char d[256];
    size_t n = 0;
    uint32_t at = *line;
    for (; *s && *s != '\n'; s++) {
        if (*s == '\\' && s[1] == '\n') {
            s++, (*line)++;
            continue;
        }
        if (n + 1 < sizeof d)
            d[n++] = *s == '\t' ? ' ' : *s;
    }
    d[n] = 0;
    char w[4][32] = {{0}};
    int k = sscanf(d, " %31s %31s %31s %31s", w[0], w[1], w[2], w[3]);
    if (!strncmp(w[0], "if", 2))
        (*cond)++;
    else if (!strcmp(w[0], "endif") && *cond > 0)
        (*cond)--;
    else if (!strcmp(w[0], "include"))
        include(p, d, *off, at);
    if (!strcmp(w[0], "pragma") && k >= 4 && !strcmp(w[1], "OPENCL") &&
        !strcmp(w[2], "FP_CONTRACT")) {
        p->pragmas = true;
        if (*cond)
            inexact(p, "an FP_CONTRACT pragma under #if", at);
        else if (strcmp(w[3], "ON") && strcmp(w[3], "OFF") &&
                 strcmp(w[3], "DEFAULT"))
            inexact(p, "an FP_CONTRACT pragma other than ON, OFF or "
                    "DEFAULT", at);
        *off = !strcmp(w[3], "OFF");
        change(m, at, 0, *off);
    } else if (strstr(d, "FP_CONTRACT")) {
        p->pragmas = true;
        inexact(p, "FP_CONTRACT in a macro", at);
    }
    return s;
}

/* Past a comment or literal starting at s (line and col kept). */
static const char *skip(const char *s, uint32_t *line, uint32_t *col)
{
    const char *end = s[1] == '/' ? "\n" : s[1] == '*' ? "*/" : NULL;
    char q = end ? 0 : *s;
    s += end && *end == '*' ? 2 : 1, *col += 1;
    for (; *s; s++, (*col)++) {
        if (q && *s == '\\' && s[1] && s[1] != '\n') {
            s++, (*col)++;
        } else if ((q && (*s == q || *s == '\n')) ||
                   (end && *end == '\n' && *s == '\n')) {
            return *s == '\n' ? s - 1 : s;
        } else if (end && *end == '*' && s[0] == '*' && s[1] == '/') {
            (*col)++;
            return s + 1;
        } else if (*s == '\n') {
            (*line)++, *col = 0;
        }
    }
    return s - 1;
}

/* The FP_CONTRACT changes of text (NUL-terminated). */
static void scan(spv_mod *m, const char *s)
{
    bool stack[MAX_DEPTH], off = false, bol = true;
    int depth = 0, cond = 0;
    uint32_t line = 1, col = 1;
    for (; *s; s++, col++) {
        if (*s == '\n') {
            line++, col = 0, bol = true;
            continue;
        }
        if (*s == ' ' || *s == '\t' || *s == '\r')
            continue;
        if (bol && *s == '#') {
            s = directive(m, s + 1, &line, &off, &cond) - 1;
            continue;
        }
        bol = false;
        if ((*s == '/' && (s[1] == '/' || s[1] == '*')) || *s == '"' ||
            *s == '\'') {
            s = skip(s, &line, &col);
        } else if (!strncmp(s, "_Pragma", 7) ||
                   !strncmp(s, "FP_CONTRACT", 11)) {
            const char *q = strstr(s, "FP_CONTRACT");
            if (q && q - s < 64) {
                m->fpc->pragmas = true;
                inexact(m->fpc, "FP_CONTRACT outside a #pragma line", line);
            }
        } else if (*s == '{') {
            if (depth == MAX_DEPTH)
                inexact(m->fpc, "braces nested too deeply", line);
            else
                stack[depth++] = off;
        } else if (*s == '}') {
            if (!depth) {
                inexact(m->fpc, "unbalanced braces", line);
            } else if (stack[--depth] != off) {
                off = stack[depth];
                change(m, line, col, off);
            }
        }
    }
    if (depth)
        inexact(m->fpc, "unbalanced braces", line);
}

/* Reads the .cl file the user named (not an OpLine's: a .spv is no reason
 * to open files) once per module. */
static struct spv_fpc *fpc_of(spv_mod *m)
{
    if (m->fpc)
        return m->fpc;
    m->fpc = calloc(1, sizeof *m->fpc);
    if (!m->fpc)
        spv_fail(m, 0, "out of memory");
    m->fpc->last_file = UINT32_MAX;
    size_t n = strlen(m->name), len;
    if (n <= 3 || strcmp(m->name + n - 3, ".cl") ||
        !realpath(m->name, m->fpc->path))
        return m->fpc;
    char *text = slurp(m->name, &len);
    if (text && (strstr(text, "FP_CONTRACT") || strstr(text, "include")))
        scan(m, text);
    free(text);
    return m->fpc;
}

/* 0 if file (an OpString id) is the .cl file, 1 a header without
 * FP_CONTRACT, 2 one with it or unreadable. */
static int file_kind(spv_mod *m, uint32_t file)
{
    struct spv_fpc *p = m->fpc;
    if (file == p->last_file)
        return p->last_kind;
    char real[PATH_MAX];
    const char *name = file < m->bound && m->def[file] &&
                       spv_op(m, m->def[file]) == SpvOpString
                       ? spv_str(m, m->def[file], 2, NULL) : "";
    size_t len;
    int kind = 2;
    if (realpath(name, real) && !strcmp(real, p->path)) {
        kind = 0;
    } else {
        char *text = slurp(name, &len);
        kind = text && !strstr(text, "FP_CONTRACT") ? 1 : 2;
        free(text);
    }
    p->last_file = file, p->last_kind = kind;
    return kind;
}

bool spv_contract_off(spv_mod *m, const spv_func *f, uint32_t at)
{
    struct spv_fpc *p = fpc_of(m);
    if (!p->pragmas || !p->path[0])
        return false;
    uint32_t file = UINT32_MAX, line = 0, col = 0;
    for (uint32_t i = f->at; i < at && i < m->nw; i += spv_wc(m, i))
        if (spv_op(m, i) == SpvOpLine && spv_wc(m, i) > 3)
            file = spv_word(m, i, 1), line = spv_word(m, i, 2),
            col = spv_word(m, i, 3);
    uint32_t site = spv_line_before(m, f, at);
    if (p->why)
        spv_fail_line(m, site, "this a * b + c may or may not be "
                      "contracted: %s (line %u) is not followed", p->why,
                      p->why_line);
    int kind = file == UINT32_MAX ? 2 : file_kind(m, file);
    if (kind == 1 && (p->inc == 1 || p->inc == 2))
        return p->inc == 2;
    if (kind)
        spv_fail_line(m, site, "this a * b + c in an included file may or "
                      "may not be contracted: clvm follows FP_CONTRACT "
                      "pragmas in the .cl file itself, with every #include "
                      "under one state");
    bool off = false;
    for (uint32_t i = 0; i < p->n; i++)
        if (p->v[i].line < line ||
            (p->v[i].line == line && p->v[i].col <= col))
            off = p->v[i].off;
    return off;
}
