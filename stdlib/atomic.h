/* OpenCL C's atomic functions, defined once: the names the IR and docs
 * use, how many values each takes, and the value each stores. */
#ifndef CLVM_ATOMIC_H
#define CLVM_ATOMIC_H

#include <stdbool.h>
#include <stdint.h>

#include "stdlib/types.h"

/* X(P, ENUM, name, values, float, synopsis), P passed through: the name
 * follows atomic_ (32-bit int and uint) or atom_ (the cl_khr_*_atomics
 * forms, also long and ulong); values: operands after the pointer
 * (cmpxchg: cmp, then val); float 1: also takes float (atomic_xchg only,
 * not atom_xchg). Each returns the old value *p. */
#define ATOMIC_FNS(X, P)                                                    \
    X(P, ADD, "add", 1, 0, "*p = old + val")                                \
    X(P, SUB, "sub", 1, 0, "*p = old - val")                                \
    X(P, XCHG, "xchg", 1, 1, "*p = val")                                    \
    X(P, INC, "inc", 0, 0, "*p = old + 1")                                  \
    X(P, DEC, "dec", 0, 0, "*p = old - 1")                                  \
    X(P, CMPXCHG, "cmpxchg", 2, 0, "*p = old == cmp ? val : old")           \
    X(P, MIN, "min", 1, 0, "*p = min(old, val)")                            \
    X(P, MAX, "max", 1, 0, "*p = max(old, val)")                            \
    X(P, AND, "and", 1, 0, "*p = old & val")                                \
    X(P, OR, "or", 1, 0, "*p = old | val")                                  \
    X(P, XOR, "xor", 1, 0, "*p = old ^ val")

enum atomic_fn {
#define X(P, E, name, nv, flt, syn) AT_##E,
    ATOMIC_FNS(X, _)
#undef X
    AT_COUNT
};

typedef struct {
    const char *name;      /* without atomic_ / atom_ */
    uint8_t nvals;
    bool flt;
    const char *syn;
} atomic_info;
extern const atomic_info atomic_fns[AT_COUNT];

/* The value f stores over old in an element of type s (int, uint, long
 * or ulong; min and max compare in s's sign), given val and cmp. */
uint64_t atomic_apply(enum atomic_fn f, enum ty_scalar s, uint64_t old,
                      uint64_t val, uint64_t cmp);

#endif
