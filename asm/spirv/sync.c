/* The synchronising instructions of an OpenCL C kernel as clvm
 * operations: OpAtomic* as ATOM (the functions of stdlib/atomic.h),
 * OpMemoryBarrier as the fences (mem_fence, read_mem_fence,
 * write_mem_fence), OpGroupAsyncCopy and OpGroupWaitEvents as ACOPY,
 * ACOPYS and WAITEV (events are uint). */
#include <spirv/unified1/spirv.h>

#include "asm/spirv/spvint.h"
#include "vm/bcfile.h"

/* X(opcode, function, sign: 's' signed, 'u' unsigned, 'p' the pointer's,
 * word of the value (0: none), word of the compared value (0: none)) */
#define SPV_ATOMICS(X)                                                      \
    X(AtomicIAdd, ADD, 'p', 6, 0) X(AtomicISub, SUB, 'p', 6, 0)             \
    X(AtomicExchange, XCHG, 'p', 6, 0)                                      \
    X(AtomicIIncrement, INC, 'p', 0, 0) X(AtomicIDecrement, DEC, 'p', 0, 0) \
    X(AtomicCompareExchange, CMPXCHG, 'p', 7, 8)                            \
    X(AtomicSMin, MIN, 's', 6, 0) X(AtomicUMin, MIN, 'u', 6, 0)             \
    X(AtomicSMax, MAX, 's', 6, 0) X(AtomicUMax, MAX, 'u', 6, 0)             \
    X(AtomicAnd, AND, 'p', 6, 0) X(AtomicOr, OR, 'p', 6, 0)                 \
    X(AtomicXor, XOR, 'p', 6, 0)

static const struct spv_atomic {
    const char *name;
    uint16_t op;
    uint8_t fn;           /* enum atomic_fn */
    char sign;
    uint8_t val, cmp;
} atomics[] = {
#define X(O, F, S, V, C) {"Op" #O, SpvOp##O, AT_##F, S, V, C},
    SPV_ATOMICS(X)
#undef X
};

/* The pointer operand (word i) of an atomic: a register pointing to a
 * scalar integer (or float) in global or local memory. */
static uint32_t atomic_ptr(SX *x, uint32_t i, const char *what)
{
    if (sx_val(x, i)->view)
        sx_refuse(x, "%s through a cast pointer is not supported yet", what);
    uint32_t p = sx_reg(x, i);
    const bc_reg *r = sx_r(x, p);
    if (r->kind != BC_REG_PTR || r->type.n != 1)
        sx_refuse(x, "%s of a vector or through a non-pointer", what);
    if (r->space != BC_GLOBAL && r->space != BC_LOCAL)
        sx_refuse(x, "%s on %s memory: OpenCL C 1.2 has atomics on global "
                  "and local memory only", what, bc_space_name(r->space));
    enum ty_scalar s = (enum ty_scalar)r->type.s;
    if (s != TY_INT && s != TY_UINT && s != TY_LONG && s != TY_ULONG &&
        s != TY_FLOAT)
        sx_refuse(x, "%s on %s", what, ty_scalar_name(s));
    return p;
}

/* ATOM in the variant for a pointee of type s and the instruction's
 * sign (a float moves its bits as uint). */
static void emit_atom(SX *x, enum ty_scalar s, char sign, const uint32_t *w)
{
    bool wide = ty_scalar_size(s) == 8;
    if (sign == 's')
        s = wide ? TY_LONG : TY_INT;
    else if (sign == 'u' || s == TY_FLOAT)
        s = wide ? TY_ULONG : TY_UINT;
    sx_emit(x, BCB_ATOM, s, 1, 0, w, 5);
}

/* OpAtomicLoad and OpAtomicStore (OpenCL C 2.0's atomic_load and
 * atomic_store): an atomic_or of 0, an atomic_xchg whose old value goes
 * unused. */
static void load_store(SX *x, bool store)
{
    const char *what = store ? "OpAtomicStore" : "OpAtomicLoad";
    uint32_t p = atomic_ptr(x, store ? 1 : 3, what);
    ty_t t = sx_r(x, p)->type;
    enum ty_scalar s = (enum ty_scalar)t.s;
    uint32_t d = store ? sx_temp(x, t) : sx_def(x, t);
    uint32_t v = store ? sx_reg(x, 4)
                       : sx_const(x, TY(ty_scalar_size(s) == 8 ? TY_ULONG
                                                               : TY_UINT, 1),
                                  0);
    uint32_t w[5] = {d, p, v, v, store ? AT_XCHG : AT_OR};
    emit_atom(x, s, 'p', w);
}

bool sx_atomic(SX *x, uint32_t op)
{
    if (op == SpvOpAtomicLoad || op == SpvOpAtomicStore) {
        load_store(x, op == SpvOpAtomicStore);
        return true;
    }
    const struct spv_atomic *a = NULL;
    for (size_t i = 0; i < sizeof atomics / sizeof atomics[0]; i++)
        if (atomics[i].op == op)
            a = &atomics[i];
    if (!a)
        return false;
    uint32_t p = atomic_ptr(x, 3, a->name);
    ty_t t = sx_r(x, p)->type;
    enum ty_scalar s = (enum ty_scalar)t.s;
    if (s == TY_FLOAT && a->fn != AT_XCHG)
        sx_refuse(x, "%s on float", a->name);
    if (a->sign != 'p' && (a->sign == 's') != ty_is_signed(s)) {
        /* SPIR-V's integers have no sign (a uint array is an int array
         * there): the instruction's sign is the one min and max compare
         * in, so the pointer is seen as one to that type */
        bool wide = ty_scalar_size(s) == 8;
        s = a->sign == 's' ? (wide ? TY_LONG : TY_INT) : (wide ? TY_ULONG : TY_UINT);
        t = TY(s, 1);
        p = sx_ptr_at(x, p, sx_const(x, TY(TY_INT, 1), 0), t);
    }
    uint32_t d = sx_def(x, t);
    uint32_t vv = a->val ? sx_as(x, sx_reg(x, a->val), t) : d;
    uint32_t va = a->cmp ? sx_as(x, sx_reg(x, a->cmp), t) : vv;
    uint32_t vb = a->val ? vv : va;
    uint32_t w[5] = {d, p, va, vb, a->fn};
    emit_atom(x, s, a->sign, w);
    return true;
}

/* OpMemoryBarrier: the fence its semantics name (Acquire alone: a read
 * fence, Release alone: a write fence, else both), on the memories it
 * names. */
void sx_fence(SX *x)
{
    const spv_const *sem = spv_const_of(&x->m, spv_id(&x->m, x->at, 2));
    if (!sem)
        sx_refuse(x, "a memory fence with run-time semantics");
    uint64_t v = sem->v[0];
    uint32_t w[1] = {
        (v & SpvMemorySemanticsWorkgroupMemoryMask ? BC_FENCE_LOCAL : 0u) |
        (v & SpvMemorySemanticsCrossWorkgroupMemoryMask ? BC_FENCE_GLOBAL
                                                         : 0u)};
    uint64_t order = v & (SpvMemorySemanticsAcquireMask |
                          SpvMemorySemanticsReleaseMask |
                          SpvMemorySemanticsAcquireReleaseMask |
                          SpvMemorySemanticsSequentiallyConsistentMask);
    enum bc_base b = order == SpvMemorySemanticsAcquireMask ? BCB_RFENCE
                     : order == SpvMemorySemanticsReleaseMask ? BCB_WFENCE
                                                              : BCB_FENCE;
    sx_emit(x, b, TY_UINT, 1, 0, w, 1);
}

/* OpGroupAsyncCopy: ACOPY, or ACOPYS where the stride is not the
 * constant 1. */
static void async_copy(SX *x)
{
    const spv_const *st = spv_const_of(&x->m, spv_id(&x->m, x->at, 7));
    bool strided = !st || st->v[0] != 1;
    uint32_t w[6] = {0, sx_reg(x, 4), sx_reg(x, 5), sx_reg(x, 6), 0, 0};
    const bc_reg *d = sx_r(x, w[1]), *s = sx_r(x, w[2]);
    /* the copy moves elements: a cast between types of one size (a half *
     * seen as a ushort *, which keeps its register) copies the same bytes */
    if (d->kind != BC_REG_PTR || s->kind != BC_REG_PTR ||
        ty_sizeof(d->type) != ty_sizeof(s->type))
        sx_refuse(x, "an async copy between pointers to elements of other sizes");
    if (!ty_eq(d->type, s->type))   /* ACOPY copies between one type */
        w[2] = sx_ptr_at(x, w[2], sx_const(x, TY(TY_INT, 1), 0), d->type);
    unsigned k = 4;
    if (strided)
        w[k++] = sx_reg(x, 7);
    w[k++] = sx_reg(x, 8);
    w[0] = sx_def(x, TY(TY_UINT, 1));
    sx_emit(x, strided ? BCB_ACOPYS : BCB_ACOPY, TY_UINT, 1, 0, w, k);
}

bool sx_async(SX *x, uint32_t op)
{
    if (op == SpvOpPtrCastToGeneric) {   /* &event for wait_group_events */
        const spv_type *t = spv_typ(&x->m, x->at, spv_word(&x->m, x->at, 1));
        if (t->elem >= x->m.bound || spv_op(&x->m, x->m.def[t->elem]) !=
                                         SpvOpTypeEvent)
            return false;
        x->fr->v[spv_word(&x->m, x->at, 2)] = *sx_val(x, 3);
        return true;
    }
    if (op == SpvOpGroupAsyncCopy) {
        async_copy(x);
        return true;
    }
    if (op != SpvOpGroupWaitEvents)
        return false;
    uint32_t w[2] = {sx_reg(x, 2), sx_reg(x, 3)};
    sx_emit(x, BCB_WAITEV, TY_UINT, 1, 0, w, 2);
    return true;
}
