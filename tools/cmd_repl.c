/* clvm repl: options, the line editor, the command table and help.
 *
 * The line editor is libedit's readline API (history in ~/.clvm_history,
 * completion). Commands live in repl_eval.c, repl_step.c and repl_view.c,
 * which stand on repl_core.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "asm/asmint.h"
#include "asm/sigs.h"
#include "stdlib/builtin.h"
#include "tools/cmds.h"
#include "stdlib/profile.h"
#include "tools/repl.h"
#include "tools/runargs.h"

static const struct {
    const char *name, *args, *summary, *help;
    int (*fn)(repl *, char *);
} cmds[] = {
#define X(name, a, s, h) {#name, a, s, h, rc_##name},
    REPL_COMMANDS(X)
#undef X
};

static void usage(FILE *f)
{
    fprintf(f,
"usage: clvm repl [FILE.clasm|FILE.bc] [options]\n"
"\n"
"An interactive session: evaluate OpenCL C expressions and see their bits,\n"
"or step through a kernel. Commands come from standard input; on a terminal\n"
"with line editing, history (~/.clvm_history) and tab completion, otherwise\n"
"one a line with no prompt. `help` inside lists the commands.\n"
"\n"
"  --kernel, --global, --local, --offset, --arg, --warp, --max-steps\n"
"                         as for clvm run: the kernel to step and its\n"
"                         NDRange and arguments (also commands inside)\n"
"  --profile NAME         device profile (clvm, strict, nvidia, pocl)\n"
"  --native LIB.so        a library whose functions the kernel may call\n"
"  --echo                 print each command after a prompt (transcripts)\n"
"\n"
"exit status: 0; 1 when commands came from a file or pipe and one of them\n"
"failed; 2 usage or input error\n");
}

/* ---- help ---- */

int rc_help(repl *r, char *args)
{
    if (*args) {
        for (size_t i = 0; i < RC_COUNT; i++)
            if (!strcmp(args, cmds[i].name)) {
                printf("%s %s\n  %s\n", cmds[i].name, cmds[i].args,
                       cmds[i].summary);
                if (*cmds[i].help)
                    printf("%s\n", cmds[i].help);
                return 0;
            }
        if (asm_builtin_help(args, stdout))
            return 0;
        return repl_err(r, "no command or built-in '%s' (help lists the "
                        "commands; help NAME shows a built-in)", args);
    }
    for (size_t i = 0; i < RC_COUNT; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s %s", cmds[i].name, cmds[i].args);
        if (strlen(head) > 24)
            printf("  %s\n  %-24s %s\n", head, "", cmds[i].summary);
        else
            printf("  %-24s %s\n", head, cmds[i].summary);
    }
    printf("A line that starts with // or # is a comment; ';' ends a command, as "
           "it ends\nan IR statement. The exit status "
           "is 0,\nor 1 when the commands came from a file or pipe and one "
           "of them failed.\n");
    return 0;
}

int rc_quit(repl *r, char *args)
{
    return *args ? repl_err(r, "quit takes no argument") : 0;
}

/* ---- dispatch ---- */

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static bool is_let(const repl *r, const char *name, size_t n)
{
    for (size_t i = 0; i < r->nlets; i++)
        if (strlen(r->lets[i].name) == n && !memcmp(r->lets[i].name, name, n))
            return true;
    return false;
}

/* print of a let name (no register has it) is another command's
 * spelling: print NAME as T is eval as_T(NAME), print NAME bits is bits
 * NAME, print NAME is eval NAME. False if args names no let. */
static bool print_let(repl *r, char *args, int *rc)
{
    size_t n = strcspn(args, " \t");
    char *rest = args + n + strspn(args + n, " \t");
    if (n && !strcmp(rest, "bits") && r->loaded && repl_reg(r, args, n) >= 0) {
        /* a register's fields, as bits shows them for any value */
        char e[300];
        snprintf(e, sizeof e, "%.*s", (int)n, args);
        *rc = rc_bits(r, e);
        return true;
    }
    if (!n || (r->loaded && repl_reg(r, args, n) >= 0) || !is_let(r, args, n))
        return false;
    char e[300];
    if (!strncmp(rest, "as", 2) && isspace((unsigned char)rest[2])) {
        snprintf(e, sizeof e, "as_%s(%.*s)",
                 rest + 2 + strspn(rest + 2, " \t"), (int)n, args);
        *rc = rc_eval(r, e);
        return true;
    }
    snprintf(e, sizeof e, "%.*s", (int)n, args);
    if (!strcmp(rest, "bits"))
        *rc = rc_bits(r, e);
    else if (*rest)
        *rc = repl_err(r, "print %s: a let value takes 'as TYPE' or 'bits'",
                       e);
    else
        *rc = rc_eval(r, e);
    return true;
}

/* Runs one command; returns true on quit. */
static bool command(repl *r, char *s)
{
    s = trim(s);
    if (!*s)
        return false;
    size_t n = strcspn(s, " \t");
    /* The rule for names that are also commands: a line is a command when
     * its first word is one and no binary operator follows it (`x tmp`,
     * `next`, `bits -0.0f`); `x * 2`, `x = 3`, `next + 1` are expressions.
     * + - / . are binary when a blank follows them (load ./k.clasm, bits
     * -0.0f are commands), ! only in !=. */
    const char *after = s + n + strspn(s + n, " \t");
    bool op = *after && (strchr("*%&|^<>=?[", *after) ||
                         (strchr("+-/.", *after) && (after[1] == ' ' ||
                                                     after[1] == '\t')) ||
                         (*after == '!' && after[1] == '='));
    for (size_t i = 0; i < RC_COUNT && !op; i++)
        if (strlen(cmds[i].name) == n && !memcmp(s, cmds[i].name, n)) {
            int rc;
            if (r->veto && r->veto(r, (int)i, trim(s + n)))
                return false;
            if (i == RC_print && print_let(r, trim(s + n), &rc))
                return false;
            rc = cmds[i].fn(r, trim(s + n));
            return (i == RC_quit && rc == 0) || r->leave;
        }
    if (!r->veto || !r->veto(r, RC_eval, s))
        rc_eval(r, s);
    return false;
}

/* Runs one line: '//' and '#' start a comment line, and ';' ends a command
 * as it ends an IR statement (outside quotes and brackets), so
 * `x = 2.0f; x * 3` is two commands and a trailing ';' is harmless.
 * Returns true on quit. */
bool repl_exec(repl *r, char *line)
{
    char *s = trim(line);
    if (!strncmp(s, "//", 2) || *s == '#')
        return false;
    int depth = 0;
    char quote = 0;
    for (char *p = s, *start = s;; p++) {
        if (quote) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == quote)
                quote = 0;
            else if (!*p)
                return command(r, start);
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (*p == '(' || *p == '[') {
            depth++;
        } else if ((*p == ')' || *p == ']') && depth > 0) {
            depth--;
        } else if ((*p == ';' && depth == 0) || !*p) {
            bool end = !*p;
            *p = 0;
            if (command(r, start))
                return true;
            if (end)
                return false;
            start = p + 1;
        }
    }
}

/* ---- completion ---- */

static char (*bnames)[BI_NAME_MAX];
static size_t nbnames;
static repl *comp_repl;

static void add_bi(const bi_desc *d)
{
    if (!bi_check(d))
        bi_format(d, bnames[nbnames++]);
}

/* Every convert_, as_, vload and vstore spelling. */
static void builtin_names(void)
{
    static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
    bnames = calloc(2048, sizeof *bnames);
    if (!bnames)
        return;
    for (int k = 0; k < BI_NKIND; k++)
        for (unsigned w = 0; w < 6; w++)
            for (int s = 0; s < TY_NSCALAR; s++)
                for (int sat = 0; sat < 2; sat++)
                    for (int rr = -1; rr < 4; rr++) {
                        bool typed = k == BI_CONVERT || k == BI_AS;
                        if ((!typed && s) || nbnames >= 2048)
                            continue;
                        bi_desc d = {(enum bi_kind)k,
                                     {(uint8_t)s, (uint8_t)widths[w]},
                                     widths[w], sat, rr >= 0,
                                     rr >= 0 ? (enum rnd)rr : RND_RTE};
                        if (!typed)
                            d.type = (ty_t){0, (uint8_t)widths[w]};
                        add_bi(&d);
                    }
}

/* The candidates for the word being completed, one per call. */
static char *generate(const char *text, int state)
{
    static size_t i, len;
    static bool first;
    if (!state) {
        i = 0, len = strlen(text);
        size_t at = 0;
        while (isspace((unsigned char)rl_line_buffer[at]))
            at++;
        first = (int)at >= rl_point - (int)len;
    }
    repl *r = comp_repl;
    for (;;) {
        size_t j = i++;
        const char *c = NULL;
        /* commands first, then lets, registers, profiles, built-ins */
        if (j < RC_COUNT) {
            if (first)
                c = cmds[j].name;
        } else if ((j -= RC_COUNT) < r->nlets) {
            c = r->lets[j].name;
        } else if ((j -= r->nlets) < (r->loaded ? r->m.kernels[r->ki].nregs
                                                 : 0)) {
            c = repl_reg_name(r, (uint32_t)j);
        } else if ((j -= r->loaded ? r->m.kernels[r->ki].nregs : 0) <
                   PROF_COUNT) {
            c = first ? NULL : prof_name((enum prof_id)j);
        } else if ((j -= PROF_COUNT) < F_COUNT) {
            c = asm_fns[j].name;
        } else if ((j -= F_COUNT) < nbnames) {
            c = bnames[j];
        } else {
            return NULL;
        }
        if (c && *c && !strncmp(c, text, len))
            return strdup(c);
    }
}

static char **complete(const char *text, int start, int end)
{
    rl_attempted_completion_over = 1;
    return rl_completion_matches(text, generate);
}

/* ---- a session ---- */

bool repl_init(repl *r)
{
    *r = (repl){0};
    r->watch = -1;
    r->natives = vm_natives_new();
    r->nd.natives = r->natives;
    return r->natives != NULL;
}

void repl_fini(repl *r)
{
    repl_unload(r);
    repl_lets_free(r);
    vm_natives_free(r->natives);
    *r = (repl){0};
    r->watch = -1;
}

/* ---- the loop ---- */

static char *history_path(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    size_t n = strlen(home) + 16;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/.clvm_history", home);
    return p;
}

void repl_loop(repl *r, FILE *in)
{
    if (r->tty) {
        rl_instream = in;
        rl_outstream = stdout;
        char *hist = history_path();
        comp_repl = r;
        builtin_names();
        rl_readline_name = "clvm";
        rl_attempted_completion_function = complete;
        using_history();
        if (hist)
            read_history(hist);
        char *line;
        for (;;) {
            /* the prompt's colour codes are marked invisible (\001 \002) */
            line = readline(r->color ? "\001\033[1;34m\002clvm>\001\033[0m\002 "
                                     : "clvm> ");
            if (!line)
                break;
            if (*trim(line))
                add_history(line);
            bool q = repl_exec(r, line);
            free(line);
            fflush(stdout);
            if (q)
                break;
        }
        if (hist) {
            write_history(hist);
            history_truncate_file(hist, 1000);
        }
        free(hist);
        free(bnames);
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) >= 0) {
        if (n && line[n - 1] == '\n')
            line[--n] = 0;
        if (r->echo)
            printf("clvm> %s\n", line);
        bool q = repl_exec(r, line);
        fflush(stdout);
        if (q)
            break;
    }
    free(line);
}


/* The options are the commands of the same name, run before the first
 * line is read. */
static int options(repl *r, int argc, char **argv)
{
    static const char *const opts[] = {"--kernel", "--global", "--local",
        "--offset", "--arg", "--warp", "--max-steps", "--profile"};
    static const int as_cmd[] = {RC_kernel, RC_global, RC_local, RC_offset,
                                 RC_arg, RC_warp, -1, RC_profile};
    const char *file = NULL, *kernel = NULL;
    char why[RA_WHY];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        size_t k;
        for (k = 0; k < sizeof opts / sizeof *opts; k++)
            if ((v = ra_optval(argc, argv, &i, opts[k])) != NULL)
                break;
        if (v && k == 0) {
            kernel = v;
        } else if (v && as_cmd[k] < 0) {
            if (ra_count(opts[k], v, &r->nd, why, sizeof why)) {
                fprintf(stderr, "clvm repl: %s\n", why);
                return 2;
            }
        } else if (v) {
            /* after the module is loaded: the options are its commands */
            continue;
        } else if ((v = ra_optval(argc, argv, &i, "--native")) != NULL) {
            if (vm_natives_open(r->natives, v, why, sizeof why)) {
                fprintf(stderr, "clvm repl: --native %s: %s\n", v, why);
                return 2;
            }
        } else if (!strcmp(a, "--echo")) {
            r->echo = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "clvm repl: unknown option or missing value "
                    "'%s' (see clvm repl --help)\n", a);
            return 2;
        } else if (file) {
            fprintf(stderr, "clvm repl: more than one input file ('%s', "
                    "'%s')\n", file, a);
            return 2;
        } else {
            file = a;
        }
    }
    if (file && repl_load(r, file))
        return 2;
    if (kernel) {
        char *k = strdup(kernel);
        int rc = k ? rc_kernel(r, k) : -1;
        free(k);
        if (rc)
            return 2;
    }
    /* the options that are commands, in order */
    for (int i = 1; i < argc; i++)
        for (size_t k = 1; k < sizeof opts / sizeof *opts; k++) {
            int j = i;
            const char *v = ra_optval(argc, argv, &j, opts[k]);
            if (!v)
                continue;
            i = j;
            if (as_cmd[k] >= 0) {
                char *c = strdup(v);
                int rc = c ? cmds[as_cmd[k]].fn(r, c) : -1;
                free(c);
                if (rc)
                    return 2;
            }
            break;
        }
    return 0;
}

int cmd_repl(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    repl r;
    if (!repl_init(&r)) {
        fprintf(stderr, "clvm repl: out of memory\n");
        return 2;
    }
    r.tty = isatty(0);
    const char *nc = getenv("NO_COLOR");
    r.color = isatty(1) && !(nc && *nc);
    /* transcripts keep stdout and the assembler's stderr in order */
    setvbuf(stdout, NULL, _IOLBF, 0);
    int rc = options(&r, argc, argv);
    if (!rc) {
        repl_loop(&r, stdin);
        rc = !r.tty && r.errors ? 1 : 0;
    }
    repl_fini(&r);
    return rc;
}
