/* Which buffers each pointer register may point into, and which buffers
 * the kernel may write: a flow-insensitive pass over the bytecode, for the
 * race check (a read of a buffer nothing writes cannot race, so decode.c
 * does not watch it). Every guess errs towards "may": a pointer loaded
 * from memory or made from an integer (LDP, UTOP) may point anywhere, and
 * every pointer operand of an instruction that is not known to leave
 * memory alone (a store, an atomic, an async copy, a host call, anything
 * new) counts as written. */
#include "vm/ptrflow.h"

#include "vm/operands.h"

/* Does the op only read memory, or not touch it, through its pointer
 * operands? (Pointer-valued results are the other case: their operands
 * flow into d.) */
static bool leaves_memory(unsigned base)
{
    switch (base) {
    case BCB_LD: case BCB_VLOAD: case BCB_VLDH: case BCB_LDP:
    case BCB_PTOU: case BCB_PRINTF:
        return true;
    default:
        return false;
    }
}

bool vm_ptrflow(const vm_prog *p, uint64_t *mask, uint64_t *writable)
{
    const bc_kernel *k = p->k;
    if (p->nbufs > 64)
        return false;
    for (uint32_t x = 0; x < k->nregs; x++)
        mask[x] = 1;   /* a pointer register starts as null: buffer 0 */
    for (uint32_t b = 1; b < p->nbufs; b++)
        mask[p->bufs[b].reg] = 1ull << b;
    uint64_t wr = 0;
    for (bool grew = true; grew;) {   /* masks only grow: this ends */
        grew = false;
        wr = 0;
        for (uint32_t pc = 0; pc < k->ncode; pc += bc_ins_words(k->code[pc])) {
            const uint32_t *code = k->code + pc;
            const char *l;
            operands o;
            const unsigned base = read_ins(code, &l, &o);
            /* the union of the pointer operands' masks */
            uint64_t in = 0;
            bool any = false;
            const uint32_t r[4] = {o.a, o.b, o.c, o.p};
            for (unsigned q = 0; q < 4; q++)
                if (strchr(l, "abcp"[q]) &&
                    k->regs[r[q]].kind == BC_REG_PTR)
                    in |= mask[r[q]], any = true;
            if (strchr(l, 'l'))
                for (uint32_t e = 0; e < BC_FLAGS(code[0]); e++) {
                    const uint32_t x = code[strlen(l) + e];
                    if (k->regs[x].kind == BC_REG_PTR)
                        in |= mask[x], any = true;
                }
            const bool ptr =
                strchr(l, 'd') && k->regs[o.d].kind == BC_REG_PTR;
            if (ptr) {
                const uint64_t m = base == BCB_PADD ? mask[o.p]
                                   : !any || base == BCB_LDP ||
                                           base == BCB_UTOP ||
                                           base == BCB_CALL
                                       ? UINT64_MAX
                                       : in;
                grew |= (mask[o.d] | m) != mask[o.d];
                mask[o.d] |= m;
            }
            /* a host call may write through its pointers whatever it
             * returns */
            if (!leaves_memory(base) && (!ptr || base == BCB_CALL))
                wr |= in;
        }
    }
    /* a read of a buffer bound to memory that another one writes races */
    *writable = wr;
    for (uint32_t a = 1; a < p->nbufs; a++)
        for (uint32_t b = 1; b < p->nbufs; b++)
            if (wr >> b & 1 && vm_bufs_overlap(p, a, b))
                *writable |= 1ull << a;
    return true;
}
