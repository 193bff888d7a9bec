/* The REPL's expressions: eval, let, bits, compare and profile.
 *
 * Each expression is compiled into a one-work-item kernel (the let values
 * as its registers) with folding off, so that the VM computes every
 * conversion, raises its notes and follows the profile. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/lit.h"
#include "stdlib/bytes.h"
#include "stdlib/half.h"
#include "stdlib/libm.h"
#include "stdlib/note.h"
#include "stdlib/mathfn.h"
#include "stdlib/profile.h"
#include "tools/repl.h"
#include "tools/value.h"

void repl_lets_free(repl *r)
{
    for (size_t i = 0; i < r->nlets; i++)
        free(r->lets[i].name);
    free(r->lets);
    r->lets = NULL, r->nlets = 0;
}

/* "T NAME = as_T((uT)(0x.., ...))": the bits exactly, NaN payloads too. */
static void let_line(const repl_let *l, char *buf, size_t len)
{
    char tn[TY_NAME_MAX], un[TY_NAME_MAX];
    ty_t u = ty_unsigned(l->t);
    ty_name(l->t, tn);
    ty_name(u, un);
    size_t at = (size_t)snprintf(buf, len, "%s %s = as_%s(", tn, l->name, tn);
    if (l->t.n > 1)
        at += (size_t)snprintf(buf + at, len - at, "(%s)(", un);
    for (unsigned c = 0; c < l->t.n && at < len; c++)
        at += (size_t)snprintf(buf + at, len - at, "%s0x%" PRIx64,
                               c ? ", " : "", l->bits[c]);
    if (at < len)
        snprintf(buf + at, len - at, "%s", l->t.n > 1 ? "))" : ")");
}

static bool is_let_name(const repl *r, const char *name)
{
    for (size_t i = 0; i < r->nlets; i++)
        if (!strcmp(r->lets[i].name, name))
            return true;
    return false;
}

/* While a kernel is stopped, its named value registers as they are in the
 * focused work-item, declared like lets (a let of the same name wins), so
 * an expression can use them: `v * 2.0f`, `as_uint4(v)`. */
static void kernel_values(repl *r, asm_ctx *a, char *line, size_t len)
{
    vm_debug *d = r->s.d && !r->s.done ? r->s.d : NULL;
    int lane = d ? repl_lane(r) : -1;
    if (lane < 0)
        return;
    const bc_kernel *k = &r->m.kernels[r->ki];
    for (uint32_t x = 0; x < k->nregs; x++) {
        const char *name = repl_reg_name(r, x);
        uint8_t mem[16 * 8];
        if (!name || k->regs[x].kind != BC_REG_VALUE || is_let_name(r, name) ||
            !vm_debug_value(d, x, (uint32_t)lane, mem))
            continue;
        repl_let l = {(char *)name, k->regs[x].type, {0}};
        for (unsigned c = 0; c < l.t.n; c++)
            l.bits[c] = lit_host_get(mem, (enum ty_scalar)l.t.s, c);
        let_line(&l, line, len);
        asm_line(a, line, strlen(line));
    }
}

/* Compiles expr (NULL: only the lets) in a kernel of its own. */
static int compile(repl *r, const char *expr, bc_module *m, uint32_t *reg,
                   ty_t *t)
{
    asm_ctx *a = asm_open("input", stdout);
    if (!a)
        return repl_err(r, "out of memory");
    asm_set_fold(a, false);
    char line[VAL_TEXT_MAX + 64];
    asm_line(a, "kernel repl()", 13);
    for (size_t i = 0; i < r->nlets; i++) {
        let_line(&r->lets[i], line, sizeof line);
        asm_line(a, line, strlen(line));
    }
    if (expr)
        kernel_values(r, a, line, sizeof line);
    /* asm_expr takes the number of the last line fed: make it 1 */
    asm_line(a, "#line 2", 7);
    int rc = expr ? asm_expr(a, expr, strlen(expr), reg, t) : 0;
    asm_line(a, "end", 3);
    int ne = asm_finish(a, m);
    asm_close(a);
    if (rc || ne) {
        if (!ne)
            bc_free(m);
        r->errors++;
        return -1;
    }
    return 0;
}

/* Runs the kernel of compile on one work-item under profile prof: the
 * value of reg in bits, the notes raised. A trap is returned with its
 * message in trap. */
static int execute(repl *r, const bc_module *m, uint32_t reg, ty_t t,
                   int prof, uint64_t *bits, unsigned *notes, vm_trap *trap)
{
    vm_ndrange nd = {.dims = 1, .global = {1}, .warp = 1, .threads = 1,
                     .natives = r->natives, .profile = (uint8_t)prof,
                     .warn_impl = true};   /* notes on every profile */
    vm_debug *d = vm_debug_new(m, 0, NULL, &nd, trap);
    if (!d)
        return -1;
    enum vm_dbg_event e;
    while ((e = vm_debug_run(d, UINT64_MAX, false)) != VM_DBG_DONE &&
           e != VM_DBG_TRAP)
        ;
    *notes = vm_debug_notes(d, NULL);
    uint8_t mem[16 * 8];
    int rc = -1;
    if (e == VM_DBG_TRAP) {
        *trap = *vm_debug_trap(d);
    } else {
        vm_debug_value(d, reg, 0, mem);
        for (unsigned c = 0; c < t.n; c++)
            bits[c] = lit_host_get(mem, (enum ty_scalar)t.s, c);
        rc = 0;
    }
    vm_debug_free(d);
    return rc;
}

/* Evaluates expr under profile prof; prints nothing but errors. */
static int evaluate(repl *r, const char *expr, int prof, ty_t *t,
                    uint64_t *bits, unsigned *notes, vm_trap *trap)
{
    bc_module m;
    uint32_t reg;
    if (compile(r, expr, &m, &reg, t))
        return -2;
    *notes = 0;
    int rc = execute(r, &m, reg, *t, prof, bits, notes, trap);
    bc_free(&m);
    return rc;
}

/* A scalar half's or float's value in full decimal, when the shortest text
 * that reads back is not it: (half)0.1 holds 0.0999755859375. Every such
 * value is a dyadic rational with at most 149 places after the point,
 * which glibc's printf writes exactly. */
static void show_stored(ty_t t, uint64_t b, const char *text)
{
    double v;
    if (t.n != 1 || (t.s != TY_HALF && t.s != TY_FLOAT))
        return;
    v = t.s == TY_HALF ? half_to_double((uint16_t)b) : (double)bitsf((uint32_t)b);
    if (v != v || v - v != 0)
        return;
    char full[220];
    snprintf(full, sizeof full, "%.150f", v);
    char *e = full + strlen(full);
    while (e[-1] == '0')
        *--e = 0;
    if (e[-1] == '.')
        e[-1] = 0;
    if (strcmp(full, text))
        printf("  stored exactly: %s\n", full);
}

static void show_value(repl *r, ty_t t, const uint64_t *bits)
{
    char text[VAL_TEXT_MAX], hex[VAL_TEXT_MAX], tn[TY_NAME_MAX];
    val_format(t, bits, 0, text);
    val_format(t, bits, VAL_HEX, hex);
    if (t.n == 1)
        printf("(%s)%s\n", ty_name(t, tn), text);
    else
        printf("%s\n", text);
    show_stored(t, bits[0], text);
    repl_color(r, "2");
    printf("bits %s", hex);
    repl_color(r, "0");
    printf("\n");
}

static int trapped(repl *r, const vm_trap *trap)
{
    return repl_err(r, "%s", trap->msg);
}

int rc_eval(repl *r, char *args)
{
    ty_t t;
    uint64_t bits[TY_MAXLANES];
    unsigned notes;
    vm_trap trap;
    if (!*args)
        return repl_err(r, "eval needs an expression");
    int rc = evaluate(r, args, r->profile, &t, bits, &notes, &trap);
    if (rc == -2)
        return -1;
    if (rc)
        trapped(r, &trap);
    else
        show_value(r, t, bits);
    repl_notes(r, notes, 0);
    return rc;
}

static bool ident(const char *s, size_t n)
{
    if (!n || !(isalpha((unsigned char)s[0])))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return false;
    return true;
}

int rc_let(repl *r, char *args)
{
    char tn[TY_NAME_MAX], text[VAL_TEXT_MAX];
    if (!*args) {
        for (size_t i = 0; i < r->nlets; i++) {
            val_format(r->lets[i].t, r->lets[i].bits, 0, text);
            printf("%s %s = %s\n", ty_name(r->lets[i].t, tn),
                   r->lets[i].name, text);
        }
        return 0;
    }
    size_t n = strcspn(args, " \t=");
    char *eq = args + n + strspn(args + n, " \t");
    if (*eq != '=' || !ident(args, n))
        return repl_err(r, "expected let NAME = EXPR (NAME: letters, digits "
                        "and _, not first)");
    if (asm_is_reserved(args, n))
        return repl_err(r, "let %.*s: '%.*s' is a keyword, type or built-in "
                        "of the IR; pick another name", (int)n, args, (int)n,
                        args);
    repl_let l = {0};
    unsigned notes;
    vm_trap trap;
    int rc = evaluate(r, eq + 1 + strspn(eq + 1, " \t"), r->profile, &l.t,
                      l.bits, &notes, &trap);
    if (rc == -2)
        return -1;
    if (rc)
        return trapped(r, &trap);
    if (!(l.name = strndup(args, n)))
        return repl_err(r, "out of memory");
    /* replace an earlier NAME, else add; then check it declares */
    size_t i;
    for (i = 0; i < r->nlets && strcmp(r->lets[i].name, l.name); i++)
        ;
    repl_let old = {0};
    if (i == r->nlets) {
        repl_let *nl = realloc(r->lets, (r->nlets + 1) * sizeof *nl);
        if (!nl) {
            free(l.name);
            return repl_err(r, "out of memory");
        }
        r->lets = nl;
        r->nlets++;
    } else {
        old = r->lets[i];
    }
    r->lets[i] = l;
    bc_module m;
    if (compile(r, NULL, &m, NULL, NULL)) {
        free(l.name);
        if (old.name)
            r->lets[i] = old;
        else
            r->nlets--;
        return -1;
    }
    bc_free(&m);
    free(old.name);
    val_format(l.t, l.bits, 0, text);
    printf("%s %s = %s\n", ty_name(l.t, tn), l.name, text);
#define X(cmd, a_, s_, h_)                                                  \
    if (!strcmp(l.name, #cmd))                                             \
        printf("note: '%s' is also a command: '%s' alone runs the command; "  \
               "'print %s' or an expression ('%s + 1') reads the value\n",  \
               l.name, l.name, l.name, l.name);
    REPL_COMMANDS(X)
#undef X
    repl_notes(r, notes, 0);
    return 0;
}

/* ---- bits ---- */

static void binary(uint64_t v, unsigned n, char *buf)
{
    for (unsigned i = 0; i < n; i++)
        buf[i] = (char)('0' + (v >> (n - 1 - i) & 1));
    buf[n] = 0;
}

/* A dyadic rational's exact decimal: glibc prints a double exactly. */
static void exact(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.60f", v);
    char *e = buf + strlen(buf);
    while (e[-1] == '0')
        *--e = 0;
    if (e[-1] == '.')
        e[-1] = 0;
}

static void bits_float(enum ty_scalar s, uint64_t b)
{
    unsigned E = s == TY_HALF ? 5 : s == TY_FLOAT ? 8 : 11;
    unsigned M = s == TY_HALF ? 10 : s == TY_FLOAT ? 23 : 52;
    int bias = (1 << (E - 1)) - 1;
    uint64_t sign = b >> (E + M) & 1, ex = b >> M & ((1u << E) - 1),
             man = b & (((uint64_t)1 << M) - 1);
    char eb[16], mb[64], num[80];
    binary(ex, E, eb);
    binary(man, M, mb);
    printf("  sign      %" PRIu64 "  %s\n", sign, sign ? "negative" : "positive");
    printf("  exponent  %s  0x%" PRIx64 "", eb, ex);
    if (ex == 0)
        printf(": 0, zero or subnormal (2^%d)\n", 1 - bias);
    else if (ex == (1u << E) - 1)
        printf(": all ones, infinity or NaN\n");
    else
        printf(": %" PRIu64 " - %d = %d\n", ex, bias, (int)ex - bias);
    printf("  mantissa  %s  0x%" PRIx64 "\n", mb, man);
    /* m / 2^M and the significand are exact in a double */
    double frac = clvm_ldexp((double)man, -(int)M);
    const char *sg = sign ? "-" : "+";
    if (ex == (1u << E) - 1) {
        if (!man)
            printf("  = %sinfinity\n", sg);
        else
            printf("  = %s NaN, payload 0x%" PRIx64 " (%s)\n",
                   man >> (M - 1) ? "quiet" : "signalling",
                   man & (((uint64_t)1 << (M - 1)) - 1),
                   sign ? "sign set" : "sign clear");
    } else if (ex == 0 && !man) {
        printf("  = %szero\n", sg);
    } else if (ex == 0) {
        exact(frac, num, sizeof num);
        printf("  = %s%s x 2^%d (subnormal: no implicit 1)\n", sg, num,
               1 - bias);
    } else {
        exact(1.0 + frac, num, sizeof num);
        printf("  = %s%s x 2^%d\n", sg, num, (int)ex - bias);
    }
}

int rc_bits(repl *r, char *args)
{
    ty_t t;
    uint64_t bits[TY_MAXLANES];
    unsigned notes;
    vm_trap trap;
    if (!*args)
        return repl_err(r, "bits needs an expression");
    int rc = evaluate(r, args, r->profile, &t, bits, &notes, &trap);
    if (rc == -2)
        return -1;
    if (rc)
        return trapped(r, &trap);
    enum ty_scalar s = (enum ty_scalar)t.s;
    char v[VAL_ELEM_MAX], h[VAL_ELEM_MAX], b[72];
    for (unsigned c = 0; c < t.n; c++) {
        if (t.n > 1)
            printf("s%x: ", c);
        printf("(%s)%s = %s\n", ty_scalar_name(s), val_elem(s, bits[c], 0, v),
               val_elem(s, bits[c], VAL_HEX, h));
        if (ty_is_float(s)) {
            bits_float(s, bits[c]);
        } else {
            unsigned n = ty_scalar_size(s) * 8;
            binary(bits[c], n, b);
            printf("  bits      %s", b);
            if (ty_is_signed(s))
                printf("  (sign bit %u: %s)", (unsigned)(bits[c] >> (n - 1)),
                       bits[c] >> (n - 1) ? "negative, two's complement"
                                           : "not negative");
            printf("\n");
        }
    }
    repl_notes(r, notes, 0);
    return 0;
}

/* ---- profiles ---- */

int rc_profile(repl *r, char *args)
{
    if (!*args) {
        for (int p = 0; p < PROF_COUNT; p++)
            printf("%s %-7s %s\n", p == r->profile ? "*" : " ",
                   prof_name((enum prof_id)p), prof_desc((enum prof_id)p));
        return 0;
    }
    int p = prof_parse(args);
    if (p < 0)
        return repl_err(r, "no profile '%s' (clvm, strict, nvidia, pocl)",
                        args);
    r->profile = p;
    r->nd.profile = (uint8_t)p;
    repl_sess_end(r);
    printf("profile %s: %s\n", prof_name((enum prof_id)p),
           prof_desc((enum prof_id)p));
    return 0;
}

/* The built-ins of implementation-defined precision that expr calls
 * (native_*, half_*, mad): a "why" for each, with every profile's way.
 * Returns whether there was one. */
static bool impl_precision(const char *expr)
{
    bool any = false;
    for (const char *p = expr; *p;) {
        if (!isalpha((unsigned char)*p) && *p != '_') {
            p++;
            continue;
        }
        size_t n = 0;
        while (isalnum((unsigned char)p[n]) || p[n] == '_')
            n++;
        bool hn = (n > 5 && !strncmp(p, "half_", 5)) ||
                  (n > 7 && !strncmp(p, "native_", 7));
        int f = mathfn_find(p, n);
        if ((hn && f >= 0) || (n == 3 && !strncmp(p, "mad", 3) &&
                               (p == expr || !isalnum((unsigned char)p[-1])))) {
            char acc[128];
            printf("why: %.*s's precision is implementation-defined (%s)\n",
                   (int)n, p, n == 3 ? "OpenCL: mad may round once or twice, "
                   "or worse" : *p == 'h' ? "OpenCL: within 8192 ulp"
                                          : "OpenCL: no bound");
            if (f >= 0)
                printf("  clvm's accuracy: %s\n",
                       mathfn_accuracy((enum mathfn)f, acc));
            for (int q = 0; q < PROF_COUNT; q++)
                printf("  %-7s %s\n", prof_name((enum prof_id)q),
                       prof_precision((enum prof_id)q));
            any = true;
        }
        p += n;
    }
    return any;
}

/* Does the expression name the type half (half, half4, ...; not half_)? */
static bool names_half(const char *p)
{
    for (const char *q = p; (q = strstr(q, "half")) != NULL; q += 4)
        if ((q == p || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) &&
            q[4] != '_')
            return true;
    return false;
}

int rc_compare(repl *r, char *args)
{
    ty_t t = {0};
    uint64_t bits[PROF_COUNT][TY_MAXLANES];
    unsigned notes[PROF_COUNT], all = 0;
    int rc[PROF_COUNT];
    vm_trap trap[PROF_COUNT];
    if (!*args)
        return repl_err(r, "compare needs an expression");
    bc_module m;
    uint32_t reg;
    if (compile(r, args, &m, &reg, &t))   /* once: its warnings once */
        return -1;
    for (int p = 0; p < PROF_COUNT; p++) {
        notes[p] = 0;
        rc[p] = execute(r, &m, reg, t, p, bits[p], &notes[p], &trap[p]);
        all |= notes[p];
    }
    bc_free(&m);
    char text[VAL_TEXT_MAX], hex[VAL_TEXT_MAX], tn[TY_NAME_MAX];
    for (int p = 0; p < PROF_COUNT; p++) {
        printf("%-7s ", prof_name((enum prof_id)p));
        if (rc[p]) {
            /* strict: the trap is its answer */
            printf("traps\n");
            continue;
        }
        val_format(t, bits[p], 0, text);
        val_format(t, bits[p], VAL_HEX, hex);
        if (t.n == 1)
            printf("(%s)%s  %s", ty_name(t, tn), text, hex);
        else
            printf("%s  %s", text, hex);
        /* the components that differ from clvm's */
        int ref = rc[PROF_CLVM] ? -1 : PROF_CLVM;
        bool first = true;
        for (unsigned c = 0; ref >= 0 && p != ref && c < t.n; c++)
            if (bits[p][c] != bits[ref][c]) {
                printf(first ? "  * differs from clvm in s%x" : ", s%x", c);
                first = false;
            }
        printf("\n");
    }
    for (int id = 0; id < NOTE_COUNT; id++) {
        if (!(all >> id & 1))
            continue;
        printf("why: %s result (%s)\n  spec: %s\n",
               note_kind((enum note_id)id), note_name((enum note_id)id),
               note_rule((enum note_id)id));
        for (int p = 0; p < PROF_COUNT; p++)
            printf("  %-7s %s\n", prof_name((enum prof_id)p),
                   prof_what((enum prof_id)p, (enum note_id)id));
    }
    bool imprecise = impl_precision(args);
    if (t.s == TY_HALF || names_half(args)) {
        printf("half: no peer device has cl_khr_fp16 in OpenCL, so every "
               "profile gives clvm's half arithmetic\n");
        for (int p = 0; p < PROF_COUNT; p++)
            printf("  %-7s %s\n", prof_name((enum prof_id)p),
                   prof_half((enum prof_id)p));
    }
    if (!all && !imprecise)
        printf("no implementation-defined or undefined case: every profile "
               "gives the spec's result\n");
    return 0;
}
