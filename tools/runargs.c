/* What `clvm run` and `clvm repl` share (tools/runargs.h): modules, kernels,
 * NDRange lists, kernel arguments, --print. */
#include "tools/runargs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/spirv/spirv.h"
#include "tools/cc.h"
#include "vm/bcfile.h"
#include "tools/file.h"
#include "tools/npy.h"
#include "tools/prefault.h"
#include "tools/structarg.h"
#include "asm/lit.h"
#include "tools/value.h"

static int fail(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

const char *ra_optval(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

bool ra_number(const char *s, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    if (!len)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

unsigned ra_numlist(const char *s, uint64_t v[3])
{
    unsigned n = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        if (n == 3 || !ra_number(s, len, &v[n]))
            return 0;
        n++;
        if (!s[len])
            return n;
        s += len + 1;
    }
}

int ra_ndrange(const char *global, const char *local, const char *offset,
               vm_ndrange *nd, char *why, size_t len)
{
    static const char *const what[] = {"--global", "--local", "--offset"};
    const char *lists[] = {global, local, offset};
    uint64_t v[3][3] = {{0}};
    unsigned dims = 0;
    for (unsigned d = 0; d < 3; d++) {
        if (!lists[d])
            continue;
        unsigned n = ra_numlist(lists[d], v[d]);
        if (!n)
            return fail(why, len, "%s %s: expected 1 to 3 decimal numbers "
                        "separated by commas", what[d], lists[d]);
        if (d == 0)
            dims = n;
        else if (n != dims)
            return fail(why, len, "%s %s has %u number%s, --global %s has %u",
                        what[d], lists[d], n, n == 1 ? "" : "s", global,
                        dims);
    }
    for (unsigned d = 0; d < dims; d++) {
        uint64_t g = v[0][d], l = v[1][d];
        if (g == 0)
            return fail(why, len, "--global %s: a size of 0 in dimension %u",
                        global, d);
        if (local && l == 0)
            return fail(why, len, "--local %s: a size of 0 in dimension %u",
                        local, d);
        if (local && g % l)
            return fail(why, len, "global size %llu is not a multiple of "
                        "local size %llu in dimension %u",
                        (unsigned long long)g, (unsigned long long)l, d);
    }
    nd->dims = dims;
    memcpy(nd->global, v[0], sizeof nd->global);
    memcpy(nd->local, v[1], sizeof nd->local);
    memcpy(nd->offset, v[2], sizeof nd->offset);
    return 0;
}

int ra_count(const char *opt, const char *v, vm_ndrange *nd, char *why,
             size_t len)
{
    uint64_t x;
    if (!ra_number(v, strlen(v), &x))
        return fail(why, len, "%s %s: expected a decimal number", opt, v);
    if (!strcmp(opt, "--threads")) {
        if (x > 1024)
            return fail(why, len, "--threads %s: at most 1024", v);
        nd->threads = (unsigned)x;
    } else if (!strcmp(opt, "--warp")) {
        if (x < 1 || x > 64)
            return fail(why, len, "--warp %s: must be 1 to 64", v);
        nd->warp = (unsigned)x;
    } else {
        if (x < 1)
            return fail(why, len, "--max-steps 0: must be at least 1");
        nd->max_steps = x;
    }
    return 0;
}

int ra_load(const char *path, bc_module *m, FILE *diag, char *why,
            size_t len)
{
    return ra_load_cc(path, NULL, 0, m, diag, why, len);
}

int ra_load_cc(const char *path, char *const *ccopts, int nccopts,
               bc_module *m, FILE *diag, char *why, size_t len)
{
    size_t n = 0;
    uint8_t *buf = file_read(path, &n);
    if (!buf)
        return fail(why, len, "cannot read '%s': %s", path, strerror(errno));
    size_t pl = strlen(path);
    bool bc = n >= 8 && !memcmp(buf, BC_MAGIC, 8);
    int rc = 0;
    if (bc) {
        char e[512];
        if (bc_read(buf, n, m, e, sizeof e))
            rc = fail(why, len, "%s: %s", path, e);
    } else if (spv_is(buf, n)) {
        int ne = spv_translate(buf, n, path, m, diag);
        if (ne)
            rc = fail(why, len, "%s: not translated from SPIR-V", path);
    } else if (!memchr(buf, 0, n) &&
               cc_is_opencl_c(path, (const char *)buf, n)) {
        rc = cc_load(path, ccopts, nccopts, m, diag, why, len);
        nccopts = 0;
    } else if ((pl > 3 && !strcmp(path + pl - 3, ".bc")) ||
               memchr(buf, 0, n)) {
        /* Decided by content: IR is text, and bytecode starts with its
         * magic whatever the file is called. */
        rc = fail(why, len, "%s: neither clvm bytecode (it does not start "
                  "with the magic \"%.7s\") nor IR text%s", path, BC_MAGIC,
                  npy_is(buf, n) ? " (it is a NumPy array: pass it to a "
                  "buffer with --arg NAME=@FILE)" : "");
    } else if (!asm_has_kernel_line((const char *)buf, n)) {
        rc = fail(why, len, "%s: not clvm IR: no line starts a kernel "
                  "('kernel NAME(...)'); clvm runs IR text (docs/ir.md) and "
                  "bytecode (clvm asm)", path);
    } else {
        int ne = asm_assemble((const char *)buf, n, path, m, diag);
        if (ne)
            rc = fail(why, len, "%d error%s in %s", ne, ne == 1 ? "" : "s",
                      path);
    }
    if (!rc && nccopts) {
        rc = fail(why, len, "%s: clang options (%s ...) apply to OpenCL C "
                  "only, and this is %s", path, ccopts[0],
                  bc ? "bytecode" : spv_is(buf, n) ? "SPIR-V" : "IR");
        bc_free(m);
    }
    free(buf);
    return rc;
}

int ra_find_kernel(const bc_module *m, const char *path, const char *name,
                   uint32_t *k, char *why, size_t len)
{
    char list[512] = "";
    size_t at = 0;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const char *kn = bc_str(m, m->kernels[i].name);
        if (name && !strcmp(kn, name)) {
            *k = i;
            return 0;
        }
        at += (size_t)snprintf(list + at, at < sizeof list ? sizeof list - at
                                                           : 0,
                               "%s%s", i ? ", " : "", kn);
        if (at >= sizeof list)
            at = sizeof list;
    }
    if (!name && m->nkernels == 1) {
        *k = 0;
        return 0;
    }
    if (!m->nkernels)
        return fail(why, len, "%s has no kernel", path);
    if (!name)
        return fail(why, len, "%s has %u kernels (%s): choose one with "
                    "--kernel", path, m->nkernels, list);
    return fail(why, len, "%s has no kernel '%s' (kernels: %s)", path, name,
                list);
}

int ra_param_of(const bc_kernel *k, const bc_module *m, const char *name,
                size_t nlen, uint32_t *p)
{
    for (uint32_t i = 0; i < k->nparams; i++) {
        const char *pn = bc_str(m, k->params[i].name);
        if (strlen(pn) == nlen && !memcmp(pn, name, nlen)) {
            *p = i;
            return 0;
        }
    }
    return -1;
}

void ra_param_list(const bc_kernel *k, const bc_module *m, char *buf,
                   size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < k->nparams && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
                               bc_str(m, k->params[i].name));
    if (!k->nparams)
        snprintf(buf, len, "none");
}

char *ra_decl(const bc_module *m, const bc_kernel *k, uint32_t p, char *buf,
              size_t len)
{
    const bc_reg *g = &k->regs[k->params[p].reg];
    const char *name = bc_str(m, k->params[p].name);
    char tn[TY_NAME_MAX];
    ty_name(g->type, tn);
    if (k->params[p].byval.size)
        snprintf(buf, len, "%s %s", bc_str(m, k->params[p].byval.type), name);
    else if (g->kind == BC_REG_VALUE)
        snprintf(buf, len, "%s %s", tn, name);
    else
        snprintf(buf, len, "%s %s%s *%s", bc_space_name(g->space),
                 g->flags & BC_REGF_CONSTPTR && g->space != BC_CONSTANT
                     ? "const " : "", tn, name);
    return buf;
}

const char *ra_form_of(const bc_kernel *k, uint32_t p)
{
    const bc_reg *g = &k->regs[k->params[p].reg];
    return k->params[p].byval.size ? "{VALUES}|@FILE"
           : g->kind == BC_REG_VALUE ? "LITERAL"
           : g->space == BC_LOCAL  ? "local:BYTES"
                                   : "@FILE|zeros:BYTES";
}

int ra_arg_param(const bc_module *m, const bc_kernel *k, const char *nv,
                 uint32_t *p, char *why, size_t len)
{
    const char *eq = strchr(nv, '=');
    char pl[256];
    if (!eq || eq == nv)
        return fail(why, len, "--arg %s: expected NAME=VALUE", nv);
    if (ra_param_of(k, m, nv, (size_t)(eq - nv), p)) {
        ra_param_list(k, m, pl, sizeof pl);
        return fail(why, len, "--arg %s: kernel '%s' has no parameter "
                    "'%.*s' (parameters: %s)", nv, bc_str(m, k->name),
                    (int)(eq - nv), nv, pl);
    }
    return 0;
}

/* A buffer file in a->data that is a NumPy array (by its magic, or named
 * .npy): its data, once its dtype and size are checked against parameter
 * g. Raw files are taken as they are. */
static int npy_arg(const bc_reg *g, const char *name, const char *v,
                   const char *pd, vm_arg *a, char *why, size_t len)
{
    size_t pl = strlen(v);
    bool named = pl > 4 && !strcmp(v + pl - 4, ".npy");
    if (!npy_is(a->data, a->size) && !named)
        return 0;
    npy_info ni;
    char e[256];
    int rc = 0;
    unsigned lanes = ty_lanes(g->type);
    if (npy_parse(a->data, a->size, &ni, e, sizeof e))
        rc = fail(why, len, "--arg %s=%s: %s", name, v, e);
    else if (ni.s != g->type.s)
        rc = fail(why, len, "--arg %s=%s: the file holds %s (dtype '%s'), "
                  "'%s' is %s: save arr.astype(np.%s)", name, v,
                  npy_type_name(ni.s), ni.descr, name, pd,
                  npy_type_name((enum ty_scalar)g->type.s));
    else if (ni.count % lanes)
        rc = fail(why, len, "--arg %s=%s: %llu elements are not a whole "
                  "number of %u-lane vectors for '%s' (%s)", name, v,
                  (unsigned long long)ni.count, lanes, name, pd);
    if (rc) {
        free(a->data);
        a->data = NULL;
        return rc;
    }
    a->size -= ni.data;
    memmove(a->data, (uint8_t *)a->data + ni.data, a->size);
    return 0;
}

/* The file of --arg NAME=@FILE (v) into a. */
static int file_arg(const char *name, const char *v, vm_arg *a, char *why,
                    size_t len)
{
    size_t fl;
    uint8_t *d = pf_file(v + 1, &fl);   /* (tools/prefault.h) */
    if (!d)
        return fail(why, len, "--arg %s=%s: cannot read '%s': %s", name, v,
                    v + 1, strerror(errno));
    a->data = d, a->size = fl;
    return 0;
}

/* A struct or union by value: a brace list (tools/structarg.h), or a
 * file of exactly its bytes. */
static int byval_arg(const bc_module *m, const bc_param *p, const char *name,
                     const char *v, vm_arg *a, char *why, size_t len)
{
    uint32_t size = p->byval.size;
    if (v[0] == '@') {
        if (file_arg(name, v, a, why, len))
            return -1;
        if (a->size != size)
            return fail(why, len, "--arg %s=%s: the file has %llu bytes, %s "
                        "has %u", name, v, (unsigned long long)a->size,
                        bc_str(m, p->byval.type), size);
        return 0;
    }
    if (!(a->data = malloc(size)))
        return fail(why, len, "out of memory");
    a->size = size;
    return sa_parse(m, p, name, v, a->data, why, len);
}

int ra_make_arg(const bc_module *m, const bc_kernel *k, uint32_t p,
                const char *v, vm_arg *a, char *why, size_t len)
{
    const bc_reg *g = &k->regs[k->params[p].reg];
    const char *name = bc_str(m, k->params[p].name);
    char pd[128];
    ra_decl(m, k, p, pd, sizeof pd);
    uint64_t n;
    bool isfile = v[0] == '@', iszeros = !strncmp(v, "zeros:", 6),
         islocal = !strncmp(v, "local:", 6);
    if (k->params[p].byval.size)
        return byval_arg(m, &k->params[p], name, v, a, why, len);
    if (g->kind == BC_REG_VALUE) {
        if (isfile || iszeros || islocal)
            return fail(why, len, "--arg %s=%s: '%s' is a value (%s): give "
                        "a literal, not a buffer", name, v, name, pd);
        uint64_t bits[TY_MAXLANES];
        char e[160];
        if (val_parse(g->type, v, strlen(v), bits, e, sizeof e))
            return fail(why, len, "--arg %s=%s: %s", name, v, e);
        a->size = ty_sizeof(g->type);
        a->data = calloc(1, a->size);
        if (!a->data)
            return fail(why, len, "out of memory");
        for (unsigned c = 0; c < g->type.n; c++)
            lit_host_put(a->data, g->type.s, c, bits[c]);
        return 0;
    }
    if (g->space == BC_LOCAL) {
        if (!islocal)
            return fail(why, len, "--arg %s=%s: '%s' is local memory (%s): "
                        "give local:BYTES", name, v, name, pd);
        if (!ra_number(v + 6, strlen(v + 6), &n))
            return fail(why, len, "--arg %s=%s: BYTES must be a decimal "
                        "number", name, v);
        a->size = n;
        return 0;
    }
    if (iszeros) {
        if (!ra_number(v + 6, strlen(v + 6), &n))
            return fail(why, len, "--arg %s=%s: BYTES must be a decimal "
                        "number", name, v);
        /* The zeros are written now, in parallel, so that no first-touch
         * page fault falls inside the kernel (a zeros: buffer runs as
         * fast as a file's; PoCL and plain C pay them in warm-up). */
        a->data = n && n <= SIZE_MAX ? pf_zeros((size_t)n) : NULL;
        if (n && !a->data)
            return fail(why, len, "--arg %s=%s: cannot allocate %llu bytes",
                        name, v, (unsigned long long)n);
        a->size = n;
        return 0;
    }
    if (isfile)
        return file_arg(name, v, a, why, len) ? -1
               : npy_arg(g, name, v, pd, a, why, len);
    return fail(why, len, "--arg %s=%s: '%s' is a buffer (%s): give @FILE "
                "or zeros:BYTES", name, v, name, pd);
}

int ra_print_spec(const char *v, ra_view *out, char *why, size_t len)
{
    out->nlen = strcspn(v, ":");
    if (!out->nlen)
        return fail(why, len, "--print %s: expected NAME[:TYPE][:hex]", v);
    for (const char *c = v + out->nlen; *c == ':'; c += strcspn(c, ":")) {
        size_t n = strcspn(++c, ":");
        if (n == 3 && !memcmp(c, "hex", 3) && !out->hex)
            out->hex = true;
        else if (!out->typed && ty_parse(c, n, &out->type))
            out->typed = true;
        else
            return fail(why, len, "--print %s: '%.*s' is neither a type "
                        "(float4, uint, uchar16, ...) nor hex", v, (int)n, c);
    }
    return 0;
}

void ra_print_elems(FILE *f, const char *name, size_t nlen, ty_t t,
                    unsigned flags, const uint8_t *data, uint64_t first,
                    uint64_t count)
{
    size_t es = ty_sizeof(t);
    uint64_t bits[TY_MAXLANES];
    char text[VAL_TEXT_MAX];
    for (uint64_t i = first; i < first + count; i++) {
        val_load(t, data + i * es, bits);
        val_format(t, bits, flags, text);
        fprintf(f, "%.*s[%llu] = %s\n", (int)nlen, name,
                (unsigned long long)i, text);
    }
}
