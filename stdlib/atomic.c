/* The atomic functions' table and the value each stores: pure, so the VM
 * only has to make the read-modify-write indivisible (vm/atomic.c). */
#include "stdlib/atomic.h"

const atomic_info atomic_fns[AT_COUNT] = {
#define X(P, E, nm, nv, flt, syn) [AT_##E] = {nm, nv, flt, syn},
    ATOMIC_FNS(X, _)
#undef X
};

/* Two's complement order of the low `bits` bits, as signed. */
static bool less(uint64_t a, uint64_t b, bool sgn, unsigned bits)
{
    if (sgn) {
        uint64_t flip = 1ull << (bits - 1);
        return (a ^ flip) < (b ^ flip);
    }
    return a < b;
}

uint64_t atomic_apply(enum atomic_fn f, enum ty_scalar s, uint64_t old,
                      uint64_t val, uint64_t cmp)
{
    unsigned bits = 8 * (unsigned)ty_scalar_size(s);
    uint64_t mask = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    bool sgn = ty_is_signed(s);
    old &= mask, val &= mask, cmp &= mask;
    uint64_t r;
    switch (f) {
    case AT_ADD: r = old + val; break;
    case AT_SUB: r = old - val; break;
    case AT_XCHG: r = val; break;
    case AT_INC: r = old + 1; break;
    case AT_DEC: r = old - 1; break;
    case AT_CMPXCHG: r = old == cmp ? val : old; break;
    case AT_MIN: r = less(val, old, sgn, bits) ? val : old; break;
    case AT_MAX: r = less(old, val, sgn, bits) ? val : old; break;
    case AT_AND: r = old & val; break;
    case AT_OR: r = old | val; break;
    default: r = old ^ val; break;
    }
    return r & mask;
}
