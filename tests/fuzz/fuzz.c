/* What the fuzz targets share: the check that aborts, and running a
 * module under a fuzz-chosen NDRange (fuzz.h). */
#include "tests/fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/profile.h"
#include "stdlib/types.h"
#include "vm/vm.h"

void fuzz_check(int ok, const char *msg, const char *file, int line)
{
    if (ok)
        return;
    fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, msg);
    abort();
}

/* The control block, read a byte at a time; 0 once it runs out. */
typedef struct {
    const uint8_t *p;
    size_t n;
} ctl_t;

static unsigned take(ctl_t *c)
{
    if (!c->n)
        return 0;
    c->n--;
    return *c->p++;
}

/* A buffer's bytes: a start and a stride from the control block, so
 * values that matter (indices, zero divisors, NaN patterns) are the
 * fuzzer's to choose. */
static void fill(uint8_t *d, size_t n, ctl_t *c)
{
    unsigned v = take(c), step = take(c);
    for (size_t i = 0; i < n; i++, v += step)
        d[i] = (uint8_t)v;
}

void fuzz_run_module(const bc_module *m, const uint8_t *ctl, size_t nctl)
{
    if (!m->nkernels)
        return;
    ctl_t c = {ctl, nctl};
    uint32_t k = take(&c) % m->nkernels;
    const bc_kernel *kn = &m->kernels[k];

    vm_ndrange nd;
    memset(&nd, 0, sizeof nd);
    unsigned f = take(&c);
    nd.dims = 1 + f % 3;
    for (unsigned d = 0; d < nd.dims; d++) {
        unsigned g = take(&c), l = take(&c), o = take(&c);
        nd.global[d] = 1 + g % (d ? 4 : 16);
        /* Mostly a valid local size (0, or a divisor); sometimes not. */
        if (l >= 0xf0)
            nd.local[d] = l - 0xf0;
        else if (l & 1) {
            uint64_t x = 1 + (l >> 1) % nd.global[d];
            while (nd.global[d] % x)
                x--;
            nd.local[d] = x;
        }
        /* Offsets near 2^64 make the global ids wrap. */
        nd.offset[d] = o & 0x80 ? UINT64_MAX - (o & 0x7f) : o & 7;
    }
    if (f & 0x80)
        nd.dims = f & 0x40 ? 0 : 4;   /* a bad NDRange must trap */
    nd.threads = 1;
    nd.warp = 1 + take(&c) % 64;
    unsigned hi = take(&c);
    nd.max_steps = 1 + (hi << 4 | take(&c) >> 4);   /* 1..4096 */
    unsigned p = take(&c);
    nd.profile = (uint8_t)(p % PROF_COUNT);
    nd.warn_impl = p & 0x80;
    vm_warnings warnings = {NULL, 0};
    nd.warnings = &warnings;
    /* printf output: formatted, then thrown away. */
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    FUZZ_CHECK(devnull != NULL, "cannot open /dev/null");
    nd.out = devnull;

    vm_arg *args = calloc(kn->nparams ? kn->nparams : 1, sizeof *args);
    FUZZ_CHECK(args != NULL, "out of memory");
    for (uint32_t i = 0; i < kn->nparams; i++) {
        const bc_reg *g = &kn->regs[kn->params[i].reg];
        size_t es = ty_sizeof(g->type);
        unsigned s = take(&c);
        size_t size;
        if (g->kind == BC_REG_VALUE)
            size = s == 0xff ? es - 1 : es;   /* a wrong size: ARGS trap */
        else
            size = (s & 0x3f) * es + (s & 0x40 ? s % es : 0);
        args[i].size = size;
        if (g->kind == BC_REG_PTR && g->space == BC_LOCAL)
            continue;
        args[i].data = malloc(size ? size : 1);
        FUZZ_CHECK(args[i].data != NULL, "out of memory");
        fill(args[i].data, size, &c);
    }

    vm_trap trap;
    int rc = vm_run(m, k, args, &nd, &trap);
    if (rc)
        FUZZ_CHECK(trap.kind == (enum vm_trapkind)rc &&
                       memchr(trap.msg, 0, sizeof trap.msg) != NULL &&
                       trap.msg[0],
                   "trap not filled in");
    free(warnings.v);
    for (uint32_t i = 0; i < kn->nparams; i++)
        free(args[i].data);
    free(args);
}
