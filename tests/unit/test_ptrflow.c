/* Which loads the race check watches (vm/ptrflow.c, decode.c race_watch):
 * a load through a pointer that may only point into buffers no
 * instruction writes is left alone; one whose buffer some store, atomic
 * or host-visible pointer may write (through a derived pointer, a pointer
 * from memory or from an integer) is watched, and so is every store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/atomic.h"
#include "tests/lib/mkmod.h"
#include "tests/lib/test.h"
#include "vm/interp.h"
#include "vm/vm.h"

enum { N = 64 };

/* How in's buffer may be written, besides out's store. */
enum how {
    NONE,      /* never: in[i] is read-only */
    DERIVED,   /* q = in + 1; q[i] = x */
    ATOMIC,    /* atomic_add(&in[i], 1) */
    MEMORY,    /* slot[0] = in; q = slot[0]; q[i] = x (STP, LDP) */
    INTEGER,   /* q = (global int *)(ulong)out; q[i] = x (UTOP) */
    NHOW
};
static const char *const hows[NHOW] = {"none", "derived", "atomic",
                                       "memory", "integer"};

/* Kernel: x = in[i]; out[i] = x; then in's write as `how` says. */
static bc_module *kernel(enum how how)
{
    mk_mod *b = mk_new("ptrflow.clasm");
    mk_kernel(b, "k");
    uint32_t in = mk_pparam(b, "in", BC_GLOBAL, "int"),
             out = mk_pparam(b, "out", BC_GLOBAL, "int");
    uint32_t i = mk_val(b, "i", "int"), x = mk_val(b, "x", "int"),
             q = mk_ptr(b, "q", BC_GLOBAL, "int"),
             one = mk_ki(b, "int", 1), zero = mk_ki(b, "int", 0);
    MK(b, BC_GID_B32, 1, i, 0);
    MK(b, BC_LD_B32, 1, x, in, i);
    MK(b, BC_ST_B32, 1, out, i, x);
    switch (how) {
    case NONE: break;
    case DERIVED:
        MK(b, BC_PADD, 1, q, in, one);
        MK(b, BC_ST_B32, 1, q, i, x);
        break;
    case ATOMIC:
        MK(b, BC_ATOM_I32, 1, x, in, one, one, AT_ADD);
        break;
    case MEMORY: {
        uint32_t slot = mk_array(b, "slot", BC_PRIVATE, "ulong", 1);
        MK(b, BC_STP, 1, slot, zero, in);
        MK(b, BC_LDP, 1, q, slot, zero);
        MK(b, BC_ST_B32, 1, q, i, x);
        break;
    }
    case INTEGER: {
        uint32_t u = mk_val(b, "u", "ulong");
        MK(b, BC_PTOU, 1, u, out);
        MK(b, BC_UTOP, 1, q, u);
        MK(b, BC_ST_B32, 1, q, i, x);
        break;
    }
    case NHOW: break;
    }
    MK(b, BC_RET, 1);
    return mk_finish(b);
}

/* Of m's loads and stores with the race check on: how many are watched
 * (XOP_RACE), and whether the load of in[i] is. */
static void watched(const bc_module *m, unsigned *nload, unsigned *nstore,
                    bool *in_load)
{
    static uint8_t in[(N + 1) * 4], out[N * 4];
    vm_arg args[2] = {{in, sizeof in}, {out, sizeof out}};
    vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N}, .threads = 1,
                     .races = true};
    vm_range r;
    vm_trap t;
    *nload = *nstore = 0;
    *in_load = false;
    if (vm_range_resolve(&nd, &r, &t))
        return;
    vm_prog *p = vm_prog_new(m, 0, args, &r, &t);
    for (uint32_t j = 0; p && j < p->nins; j++) {
        const vm_ins *I = &p->ins[j];
        const uint16_t op = I->op == XOP_RACE ? I->note_op : I->op;
        if (op >= BC_NOPS)
            continue;
        const unsigned base = bc_ops[op].base;
        if (base == BCB_LD || base == BCB_LDP) {
            *nload += I->op == XOP_RACE;
            /* the first load is in[i] */
            if (base == BCB_LD && j < 3)
                *in_load = I->op == XOP_RACE;
        }
        if (base == BCB_ST || base == BCB_STP)
            *nstore += I->op == XOP_RACE;
    }
    vm_prog_free(p);
}

static void loads_of_unwritten_buffers_unwatched(void)
{
    for (unsigned h = 0; h < NHOW; h++) {
        bc_module *m = kernel((enum how)h);
        unsigned nl, ns;
        bool inl;
        watched(m, &nl, &ns, &inl);
        const unsigned stores = h == NONE || h == ATOMIC ? 1
                                : h == MEMORY            ? 3
                                                         : 2;
        CHECK(inl == (h != NONE), "%s: the load of in[i] is %swatched",
              hows[h], inl ? "" : "not ");
        CHECK(ns == stores, "%s: %u of %u stores watched", hows[h], ns,
              stores);
        /* the pointer loaded from private memory: its slot cannot race,
         * but the check is not this test's business; LDP is watched
         * (its buffer is written by STP) */
        CHECK(nl == (h == NONE ? 0u : h == MEMORY ? 2u : 1u),
              "%s: %u loads watched", hows[h], nl);
        bc_free(m);
        free(m);
    }
}

/* And the same kernels run: a race through the derived pointer is still
 * found (item i writes in[i + 1], which item i + 1 read). */
static void derived_write_races(void)
{
    static uint8_t in[(N + 1) * 4], out[N * 4];
    vm_arg args[2] = {{in, sizeof in}, {out, sizeof out}};
    vm_ndrange nd = {.dims = 1, .global = {N}, .local = {N}, .threads = 1,
                     .races = true};
    vm_trap t;
    bc_module *m = kernel(DERIVED);
    CHECK(vm_run(m, 0, args, &nd, &t) != 0 && strstr(t.msg, "data race"),
          "derived: %s", t.msg);
    bc_free(m);
    free(m);
    m = kernel(NONE);
    CHECK(vm_run(m, 0, args, &nd, &t) == 0, "none: %s", t.msg);
    bc_free(m);
    free(m);
}

/* Two parameters bound to overlapping memory are one memory to the check
 * (vm/racemem.c shadows): kernel NONE (x = in[i]; out[i] = x) with in
 * bound to out's memory races where in[i] is another work-item's out[j],
 * in one group or across groups on two threads; where in[i] is out[i]
 * (one work-item) it does not. Memory shared part of a block apart is
 * refused, not left unchecked. */
static void aliased_buffers_share_records(void)
{
    static _Alignas(256) uint8_t mem[8 * N * 4];
    bc_module *m = kernel(NONE);
    vm_trap t;
    vm_ndrange nd = {.dims = 1, .global = {2 * N}, .local = {2 * N},
                     .threads = 1, .races = true};
    vm_arg same[2] = {{mem, 2 * N * 4}, {mem, 2 * N * 4}};
    CHECK(vm_run(m, 0, same, &nd, &t) == 0, "same memory: %s", t.msg);
    /* in[i] is out[i + 64]: work-item i + 64 writes what i read */
    vm_arg ahead[2] = {{mem + 256, 2 * N * 4}, {mem, 4 * N * 4}};
    CHECK(vm_run(m, 0, ahead, &nd, &t) == VM_TRAP_RACE &&
              strstr(t.msg, "data race"), "256 bytes ahead: %s", t.msg);
    nd.local[0] = N, nd.threads = 2;   /* (groups 0 and 1) */
    CHECK(vm_run(m, 0, ahead, &nd, &t) == VM_TRAP_RACE &&
              strstr(t.msg, "different work-groups"), "two groups: %s",
          t.msg);
    vm_arg off[2] = {{mem + 4, 2 * N * 4}, {mem, 4 * N * 4}};
    CHECK(vm_run(m, 0, off, &nd, &t) == VM_TRAP_ARGS &&
              strstr(t.msg, "starts 4 bytes into buffer 'out'"),
          "4 bytes apart: %s", t.msg);
    nd.races = false;   /* (unchecked, nothing to refuse) */
    CHECK(vm_run(m, 0, off, &nd, &t) == 0, "unchecked: %s", t.msg);
    bc_free(m);
    free(m);
}

int main(void)
{
    RUN(loads_of_unwritten_buffers_unwatched);
    RUN(derived_write_races);
    RUN(aliased_buffers_share_records);
    return t_summary("ptrflow");
}
