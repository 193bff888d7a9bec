/* Host calls through libffi: the --native libraries, binding a module's
 * externs to their functions, and running CALL, CALLV and PRINTF.
 *
 * docs/security.md says what a kernel can and cannot reach. */
#include "vm/native.h"

#include <dlfcn.h>
#include <elf.h>
#include <ffi.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/half.h"
#include "vm/interp.h"
#include "vm/printf.h"

/* One extern, bound: its function and call interface. */
typedef struct {
    void (*fn)(void);
    ffi_cif cif;
    ffi_type *atypes[BC_MAX_CALL_ARGS];
} bound_fn;

struct vm_natives {
    void **libs;
    char **paths;
    size_t nlibs;
    const bc_module *m;       /* bound module, or NULL */
    bound_fn *fns;            /* m->nexterns */
};

static void errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

vm_natives *vm_natives_new(void)
{
    return calloc(1, sizeof(vm_natives));
}

int vm_natives_open(vm_natives *n, const char *path, char *err,
                    size_t errlen)
{
    void **libs = realloc(n->libs, (n->nlibs + 1) * sizeof *libs);
    if (libs)
        n->libs = libs;
    char **paths = realloc(n->paths, (n->nlibs + 1) * sizeof *paths);
    if (paths)
        n->paths = paths;
    char *p = strdup(path);
    if (!libs || !paths || !p) {
        free(p);
        errf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    /* dlopen searches the library path for a bare name; "./x.so" or an
     * absolute path names one file */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        free(p);
        errf(err, errlen, "--native %s: %s", path, dlerror());
        return -1;
    }
    n->libs[n->nlibs] = h;
    n->paths[n->nlibs++] = p;
    return 0;
}

void vm_natives_free(vm_natives *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nlibs; i++) {
        dlclose(n->libs[i]);
        free(n->paths[i]);
    }
    free(n->libs);
    free(n->paths);
    free(n->fns);
    free(n);
}

bool vm_natives_bound(const vm_natives *n, const bc_module *m)
{
    return n && n->m == m;
}

static ffi_type *ctype(bc_ctype t)
{
    if (t.kind == BC_C_VOID)
        return &ffi_type_void;
    if (t.kind != BC_C_VALUE)
        return &ffi_type_pointer;
    switch (t.s) {
    case TY_CHAR: return &ffi_type_sint8;
    case TY_UCHAR: return &ffi_type_uint8;
    case TY_SHORT: return &ffi_type_sint16;
    case TY_USHORT: return &ffi_type_uint16;
    case TY_INT: return &ffi_type_sint32;
    case TY_UINT: return &ffi_type_uint32;
    case TY_LONG: return &ffi_type_sint64;
    case TY_ULONG: return &ffi_type_uint64;
    case TY_FLOAT: return &ffi_type_float;
    case TY_DOUBLE: return &ffi_type_double;
    default: return NULL;
    }
}

/* The function `name` that library h itself defines: dlsym would also
 * find what h merely links to (libc's system()), so the symbol must lie in
 * h's own object and be a function. */
static void *own_function(void *h, const char *name)
{
    struct link_map *lm = NULL;
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    void *f = dlsym(h, name);
    if (!f || dlinfo(h, RTLD_DI_LINKMAP, &lm) || !lm ||
        !dladdr1(f, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
        !info.dli_fname || strcmp(info.dli_fname, lm->l_name) != 0 ||
        !info.dli_sname || strcmp(info.dli_sname, name) != 0)
        return NULL;
    unsigned type = sym->st_info & 0xf;   /* ELF{32,64}_ST_TYPE */
    return type == STT_FUNC || type == STT_GNU_IFUNC ? f : NULL;
}

int vm_natives_bind(vm_natives *n, const bc_module *m, char *err,
                    size_t errlen)
{
    free(n->fns);
    n->fns = NULL;
    n->m = NULL;
    if (m->nexterns && !(n->fns = calloc(m->nexterns, sizeof *n->fns))) {
        errf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < m->nexterns; i++) {
        const bc_extern *x = &m->externs[i];
        const char *name = bc_str(m, x->name);
        bound_fn *b = &n->fns[i];
        void *f = NULL;
        for (size_t l = 0; l < n->nlibs && !f; l++)
            f = own_function(n->libs[l], name);
        if (!f) {
            errf(err, errlen, "extern '%s': no --native library defines "
                 "it%s (a module may call only functions of the libraries "
                 "given with --native)", name,
                 n->nlibs ? "" : ", and none was given");
            free(n->fns);
            n->fns = NULL;
            return -1;
        }
        /* a function pointer from dlsym's object pointer: POSIX allows
         * it, C does not say; memcpy keeps the compiler quiet about it */
        memcpy(&b->fn, &f, sizeof f);
        bool ok = x->nparams <= BC_MAX_CALL_ARGS;
        for (uint32_t j = 0; ok && j < x->nparams; j++)
            ok = (b->atypes[j] = ctype(x->params[j])) != NULL;
        ffi_type *rt = ctype(x->ret);
        if (!ok || !rt ||
            ffi_prep_cif(&b->cif, FFI_DEFAULT_ABI, x->nparams, rt,
                         b->atypes) != FFI_OK) {
            errf(err, errlen, "extern '%s': libffi cannot call this "
                 "signature", name);
            free(n->fns);
            n->fns = NULL;
            return -1;
        }
    }
    n->m = m;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Running CALL and CALLV                                              */

/* Lane l's component k of value register x (a scalar broadcasts). */
static const uint8_t *lane_val(const vm_warp *w, uint32_t x, uint32_t l,
                               uint32_t k)
{
    const bc_reg *r = &w->P->k->regs[x];
    size_t es = ty_scalar_size((enum ty_scalar)r->type.s);
    uint32_t row = r->type.n == 1 ? 0 : k;
    return w->R + w->P->regoff[x] + ((size_t)row * w->P->r.warp + l) * es;
}

/* Lane l's pointer in register x as a host address, or NULL with
 * w->fault filled: it must point into (or just past) its buffer, aligned
 * for its element. */
static uint8_t *lane_ptr(vm_warp *w, uint32_t x, uint32_t l)
{
    const bc_reg *r = &w->P->k->regs[x];
    const uint8_t *base = w->R + w->P->regoff[x];
    const uint32_t W = w->P->r.warp;
    uint64_t off;
    uint32_t bid;
    memcpy(&off, base + 8 * l, 8);
    memcpy(&bid, base + 8 * W + 4 * l, 4);
    if (bid >= w->P->nbufs)
        bid = 0;
    const vm_buf *b = &w->bufs[bid];
    uint64_t al = ty_scalar_size((enum ty_scalar)r->type.s);
    if (!b->data || off > b->size || off % al) {
        bool misal = b->data && off <= b->size;
        w->fault = (vm_fault){.kind = misal ? VM_TRAP_ALIGN : VM_TRAP_BOUNDS,
                              .lane = l, .buf = bid, .addr = off, .len = al,
                              .align = al};
        return NULL;
    }
    return b->data + b->lstride * l + off;
}


int vm_native_call(vm_warp *w, const vm_ins *I, uint64_t exec)
{
    const vm_prog *P = w->P;
    const bc_extern *x = &P->m->externs[I->a];
    const bound_fn *b = &P->r.natives->fns[I->a];
    const uint32_t *list = P->k->code + I->imm, W = P->r.warp;
    const bool has_ret = x->ret.kind != BC_C_VOID;
    union slot {
        uint64_t u64;
        float f;
        double d;
        void *p;
    } slots[BC_MAX_CALL_ARGS];
    void *avalue[BC_MAX_CALL_ARGS];
    /* Every pointer argument is checked before any call is made. */
    for (uint64_t m = exec; m; m &= m - 1)
        for (uint32_t i = 0; i < x->nparams; i++)
            if (x->params[i].kind != BC_C_VALUE &&
                !lane_ptr(w, list[i], (uint32_t)__builtin_ctzll(m)))
                return -1;
    for (uint32_t i = 0; i < x->nparams; i++)
        avalue[i] = &slots[i];
    const size_t res = has_ret ? ty_scalar_size((enum ty_scalar)x->ret.s)
                               : 0;
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        for (uint32_t k = 0; k < I->n; k++) {
            for (uint32_t i = 0; i < x->nparams; i++) {
                if (x->params[i].kind == BC_C_VALUE)
                    memcpy(&slots[i], lane_val(w, list[i], l, k),
                           ty_scalar_size((enum ty_scalar)x->params[i].s));
                else
                    slots[i].p = lane_ptr(w, list[i], l);
            }
            /* libffi widens integer results to ffi_arg */
            union {
                ffi_arg a;
                float f;
                double d;
                uint64_t u;
            } rv = {0};
            ffi_call((ffi_cif *)&b->cif, b->fn, &rv, avalue);
            if (!has_ret)
                continue;
            uint8_t *d = w->R + I->d + ((size_t)k * W + l) * res;
            if (x->ret.s == TY_FLOAT)
                memcpy(d, &rv.f, 4);
            else if (x->ret.s == TY_DOUBLE)
                memcpy(d, &rv.d, 8);
            else
                ty_put_bits(d, res, res == 8 ? rv.u : (uint64_t)rv.a);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Running PRINTF                                                      */

/* snprintf(buf, size, fmt, one variadic argument), through libffi, for
 * each kind of argument a conversion passes; prepared once. */
enum { PA_LL, PA_ULL, PA_DBL, PA_INT, PA_PTR, PA_COUNT };
static ffi_cif pcif[PA_COUNT];
static ffi_type *ptypes[PA_COUNT][4];
static bool pcif_ok;
static pthread_once_t pcif_once = PTHREAD_ONCE_INIT;

static void pcif_init(void)
{
    ffi_type *var[PA_COUNT] = {&ffi_type_sint64, &ffi_type_uint64,
                               &ffi_type_double, &ffi_type_sint,
                               &ffi_type_pointer};
    ffi_type *size = sizeof(size_t) == 8 ? &ffi_type_uint64
                                         : &ffi_type_uint32;
    pcif_ok = sizeof(long long) == 8;
    for (int i = 0; i < PA_COUNT && pcif_ok; i++) {
        ptypes[i][0] = &ffi_type_pointer;
        ptypes[i][1] = size;
        ptypes[i][2] = &ffi_type_pointer;
        ptypes[i][3] = var[i];
        pcif_ok = ffi_prep_cif_var(&pcif[i], FFI_DEFAULT_ABI, 3, 4,
                                   &ffi_type_sint, ptypes[i]) == FFI_OK;
    }
}

/* Appends len bytes to o; false past VM_PRINTF_MAX or without memory. */
static bool out_add(vm_pout *o, const char *s, size_t len)
{
    if (len > VM_PRINTF_MAX - o->len)
        return false;
    if (!len)
        return true;
    if (o->len + len > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->len + len)
            cap *= 2;
        char *nb = realloc(o->buf, cap);
        if (!nb)
            return false;
        o->buf = nb, o->cap = cap;
    }
    memcpy(o->buf + o->len, s, len);
    o->len += len;
    return true;
}

/* One conversion of one value through the C library's snprintf. */
static bool out_conv(vm_pout *o, const char *cfmt, int kind, void *val)
{
    char tmp[256], *buf = tmp;
    size_t size = sizeof tmp;
    size_t sz = size;
    void *av[4] = {&buf, &sz, &cfmt, val};
    ffi_arg rc = 0;
    ffi_call(&pcif[kind], FFI_FN(snprintf), &rc, av);
    int n = (int)(ffi_sarg)rc;
    if (n < 0)
        return false;
    if ((size_t)n >= size) {
        /* width and precision are at most PF_MAX_WIDTH, so this is small */
        sz = (size_t)n + 1;
        if (!(buf = malloc(sz)))
            return false;
        ffi_call(&pcif[kind], FFI_FN(snprintf), &rc, av);
    }
    bool ok = out_add(o, buf, (size_t)n);
    if (buf != tmp)
        free(buf);
    return ok;
}

/* Component k of lane l of argument register x, per conversion s. */
static bool out_value(vm_warp *w, vm_pout *o, const pf_spec *s, uint32_t x,
                      uint32_t l, uint32_t k)
{
    const bc_reg *r = &w->P->k->regs[x];
    char cf[PF_CFMT_MAX];
    pf_cformat(s, cf);
    if (s->conv == 'p') {
        /* its address in clvm's address model, the integer (uintptr_t)p
         * gives (PTOU: buffer number * 2^40 + offset), 0x and hex digits
         * whatever the C library writes for %p: host addresses stay
         * hidden */
        const uint8_t *base = w->R + w->P->regoff[x];
        uint64_t off;
        uint32_t buf;
        memcpy(&off, base + 8 * l, 8);
        memcpy(&buf, base + 8 * w->P->r.warp + 4 * l, 4);
        char hex[24], *hp = hex;
        snprintf(hex, sizeof hex, "0x%llx",
                 (unsigned long long)(((uint64_t)buf << 40) + off));
        pf_spec t = *s;
        t.conv = 's', t.prec = -1;
        pf_cformat(&t, cf);
        return out_conv(o, cf, PA_PTR, &hp);
    }
    enum ty_scalar el = (enum ty_scalar)r->type.s;
    const uint8_t *src = lane_val(w, x, l, k);
    if (ty_is_float(el)) {
        double d;
        if (el == TY_HALF) {
            uint16_t h;
            memcpy(&h, src, 2);
            d = half_to_double(h);
        } else if (el == TY_FLOAT) {
            float f;
            memcpy(&f, src, 4);
            d = f;
        } else {
            memcpy(&d, src, 8);
        }
        return out_conv(o, cf, PA_DBL, &d);
    }
    /* The value as its own type, then as the conversion's: C's default
     * promotion, then the length's conversion (hh: char, none: int). */
    unsigned es = ty_scalar_size(el);
    uint64_t u = ty_get_bits(src, es);
    if (ty_is_signed(el) && es < 8 && (u >> (8 * es - 1) & 1))
        u |= ~0ull << (8 * es);
    static const unsigned bits[] = {
        [PF_NONE] = 32, [PF_HH] = 8, [PF_H] = 16, [PF_HL] = 32, [PF_L] = 64};
    unsigned b = s->conv == 'c' ? 8 : bits[s->length];
    if (b < 64)
        u &= (1ull << b) - 1;
    if (s->conv == 'c') {
        int c = (int)u;
        return out_conv(o, cf, PA_INT, &c);
    }
    if (s->conv == 'd' || s->conv == 'i') {
        long long v = b < 64 && (u >> (b - 1) & 1)
                          ? -(long long)((1ull << b) - u)
                          : u > INT64_MAX ? -(long long)(~u) - 1
                                          : (long long)u;
        return out_conv(o, cf, PA_LL, &v);
    }
    unsigned long long v = u;
    return out_conv(o, cf, PA_ULL, &v);
}

/* A '*' width (prec false) or precision of s from lane l of register x,
 * an integer of at most 4 bytes read as int: a negative width is the '-'
 * flag and its magnitude, a negative precision none. False (a NOMEM
 * trap) for one past what a work-item may print. */
static bool star(vm_warp *w, pf_spec *s, uint32_t x, uint32_t l, bool prec)
{
    enum ty_scalar el = (enum ty_scalar)w->P->k->regs[x].type.s;
    unsigned es = ty_scalar_size(el);
    uint64_t u = ty_get_bits(lane_val(w, x, l, 0), es);
    if (ty_is_signed(el) && (u >> (8 * es - 1) & 1))
        u |= ~0ull << (8 * es);
    int64_t v = (int64_t)(u & 0xffffffffu);
    if (v > INT32_MAX)   /* a uint above INT_MAX: C's int of its bits */
        v -= (int64_t)1 << 32;
    if (prec) {
        s->prec = v < 0 ? -1 : (int)(v > VM_PRINTF_MAX ? VM_PRINTF_MAX + 1 : v);
        return v <= VM_PRINTF_MAX;
    }
    if (v < 0) {
        v = -v;
        size_t nf = strlen(s->flags);
        if (!strchr(s->flags, '-') && nf + 1 < sizeof s->flags)
            s->flags[nf] = '-', s->flags[nf + 1] = 0;
    }
    s->width = (int)(v > VM_PRINTF_MAX ? VM_PRINTF_MAX + 1 : v);
    return v <= VM_PRINTF_MAX;
}

int vm_native_printf(vm_warp *w, const vm_ins *I, uint64_t exec)
{
    const vm_prog *P = w->P;
    const char *fmt = bc_str(P->m, (uint32_t)I->a);
    const size_t flen = strlen(fmt);
    const uint32_t *list = P->k->code + I->imm;
    pthread_once(&pcif_once, pcif_init);
    for (uint64_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        vm_pout *o = &w->g->pout[w->base + l];
        size_t pos = 0, lit = 0;
        uint32_t argi = 0;
        pf_spec s;
        pf_error e;
        bool ok = pcif_ok;
        while (ok && pf_next(fmt, flen, &pos, &s, &e) == 1) {
            ok = out_add(o, fmt + lit, s.start - lit);
            lit = pos;
            if (!pf_takes_arg(&s)) {
                ok = ok && out_add(o, "%", 1);
                continue;
            }
            for (unsigned k = 0; k < 2; k++)   /* '*': width, precision */
                if (s.star >> k & 1)
                    ok = ok && star(w, &s, list[argi++], l, k == 1);
            uint32_t x = list[argi++];
            for (uint32_t k = 0; ok && k < (s.vec ? s.vec : 1u); k++)
                ok = (k == 0 || out_add(o, ",", 1)) &&
                     out_value(w, o, &s, x, l, k);
        }
        ok = ok && out_add(o, fmt + lit, flen - lit);
        if (!ok) {
            w->fault = (vm_fault){.kind = VM_TRAP_NOMEM, .lane = l};
            return -1;
        }
    }
    return 0;
}
