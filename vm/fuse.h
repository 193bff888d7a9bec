/* The instruction pairs that run as one handler, private to vm/: defined
 * once here; warp.h numbers them, vm/handlers.h and vm/dispatch.inc stamp
 * out their handlers, decode.c (fuse) finds them.
 *
 * A pair is two neighbouring elementwise ops, t = a OP1 b and then
 * d = t OP2 c, on 32-bit integers or on floats. Run as one, t never goes
 * through memory unless something later reads it, and the second op costs
 * no dispatch: a dependent chain such as x ^= x << 13 moves half the rows.
 * Integer OP2s commute bit for bit, so they also take c OP2 t; a float
 * OP2 takes t first only (the operands' order can choose a NaN's payload).
 *
 * FUSE_PAIRS(X): X(OP1, S1, OP2, S2) for each pair, in number order. */
#ifndef CLVM_FUSE_H
#define CLVM_FUSE_H

#define FUSE_INT2(X, N1, S1)                                                \
    X(N1, S1, ADD, _B32) X(N1, S1, MUL, _B32) X(N1, S1, AND, _B32)          \
    X(N1, S1, OR, _B32) X(N1, S1, XOR, _B32)
#define FUSE_FLT2(X, N1, S1)                                                \
    X(N1, S1, ADD, _F32) X(N1, S1, SUB, _F32) X(N1, S1, MUL, _F32)
#define FUSE_PAIRS(X)                                                       \
    FUSE_INT2(X, ADD, _B32) FUSE_INT2(X, SUB, _B32)                         \
    FUSE_INT2(X, MUL, _B32) FUSE_INT2(X, AND, _B32)                         \
    FUSE_INT2(X, OR, _B32) FUSE_INT2(X, XOR, _B32)                          \
    FUSE_INT2(X, SHL, _B32) FUSE_INT2(X, SHR, _U32)                         \
    FUSE_INT2(X, SHR, _I32)                                                 \
    FUSE_FLT2(X, ADD, _F32) FUSE_FLT2(X, SUB, _F32)                         \
    FUSE_FLT2(X, MUL, _F32)

/* VM_FUSE_<OP1><S1>_<OP2><S2>: a pair's number; VM_NFUSE of them. */
#define FUSE_ENUM(N1, S1, N2, S2) VM_FUSE_##N1##S1##_##N2##S2,
enum { FUSE_PAIRS(FUSE_ENUM) VM_NFUSE };
#undef FUSE_ENUM

#endif
