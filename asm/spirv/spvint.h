/* The SPIR-V front end's internals, shared by its files (in call order,
 * each calling only files listed before it):
 *
 *   read.c    words -> instructions: header, bounds, ids defined once,
 *             names, strings, decorations, entry points, functions and
 *             their blocks
 *   types.c   types and constants of the module
 *   cfg.c     a function's control-flow graph -> a structured tree of
 *             if / loop / block / break / continue (the stackifier)
 *   alias.c   the copies -O0 code needs not: loads that read a variable's
 *             register, values computed straight into one
 *   val.c     SPIR-V ids -> clvm registers: values, variables, constants,
 *             the instruction emitter
 *   mem.c     aggregates in memory: access chains, copies, constant
 *             initialisers, module-scope variables, pointer copies
 *   sync.c    atomics and memory fences -> ATOM, FENCE, RFENCE, WFENCE
 *   ext.c     OpenCL.std extended instructions -> clvm operations
 *   pragma.c  FP_CONTRACT by source position: the .cl file's pragmas
 *   fuse.c    contraction sites: a contractible a * b + c, a product
 *             added by a later statement (CMAD, XMAD)
 *   ops.c     the core instructions -> clvm operations
 *   xlate.c   kernels, functions (inlined), the structured tree ->
 *             bytecode; spv_translate
 *
 * Errors unwind with longjmp to spv_translate, which frees everything
 * that the context owns.
 */
#ifndef CLVM_SPVINT_H
#define CLVM_SPVINT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "asm/asmint.h"
#include "asm/spirv/spirv.h"

/* ---- read.c ---- */

enum {
    SPV_MAX_BOUND = 1 << 22,   /* ids: more is refused as absurd */
    SPV_MAX_INLINE = 16,       /* nested calls being inlined */
    SPV_MAX_CODE = 1 << 22,    /* code words of a kernel, inlined */
};

/* Decorations clvm reads, per id. */
typedef struct {
    int32_t builtin;      /* SpvBuiltIn, or -1 */
    int8_t rnd;           /* SpvFPRoundingMode, or -1 */
    bool sat;             /* SaturatedConversion */
    bool nsw;             /* NoSignedWrap: signed operands */
    bool packed;          /* CPacked: a struct without padding */
    bool offsets;         /* a struct with Offset member decorations */
    bool byval;           /* FuncParamAttr ByVal: the callee's own copy */
    uint32_t align;       /* Alignment (a variable's), or 0 */
} spv_deco;

typedef struct {
    uint32_t label;       /* its OpLabel's id */
    uint32_t at;          /* the word after the OpLabel */
    uint32_t term;        /* its terminator */
} spv_block;

typedef struct {
    uint32_t id, at;      /* OpFunction */
    uint32_t nparams;
    uint32_t *params;     /* OpFunctionParameter ids */
    uint32_t nblocks;
    spv_block *blocks;    /* in module order; blocks[0] is the entry */
} spv_func;

typedef struct {
    uint32_t func;        /* the function id */
    const char *name;
    uint32_t at;
    uint32_t reqd[3];     /* ExecutionMode LocalSize, or 0s */
} spv_entry;

/* What an id is, for the translator (types.c fills the type and constant
 * parts). */
enum spv_tk {
    SK_NONE, SK_VOID, SK_BOOL, SK_INT, SK_FLOAT, SK_VEC, SK_PTR, SK_FUNC,
    SK_ARRAY, SK_STRUCT, SK_OTHER,
};

/* SPIR-V storage classes clvm knows, and two of its own. */
enum { SPV_SC_FUNCTION = 16, SPV_SC_INPUT = 17, SPV_SC_NONE = 18 };

typedef struct {
    uint8_t kind;         /* enum spv_tk */
    uint8_t space;        /* SK_PTR: enum bc_space or SPV_SC_* */
    ty_t ty;              /* SK_BOOL/INT/FLOAT/VEC: the clvm value type
                             (integers signed, bool int) */
    uint32_t elem;        /* SK_PTR: the pointee type id; SK_VEC,
                             SK_ARRAY: the element type id */
    uint32_t count;       /* SK_VEC: components; SK_ARRAY: length */
} spv_type;

typedef struct {
    uint32_t type;        /* type id */
    uint64_t v[16];       /* element bits (bool: 1/0, vectors -1/0) */
} spv_const;

typedef struct spv_mod {
    const uint32_t *w;    /* the words, host order */
    uint32_t nw, bound;
    const char *name;     /* for messages */
    FILE *diag;
    jmp_buf *fail;
    int nerr;
    uint32_t *def;        /* by id: the defining instruction's offset */
    const char **names;   /* by id: OpName, or NULL */
    spv_deco *deco;       /* by id */
    spv_type *types;      /* by id: type ids only */
    int32_t *cidx;        /* by id: index into consts, or -1 */
    spv_const *consts;
    uint32_t nconsts;
    uint8_t *extset;      /* by id of an OpExtInstImport: enum spv_ext */
    spv_func *funcs;
    uint32_t nfuncs;
    spv_entry *entries;
    uint32_t nentries;
    const char *source;   /* the .cl file's name (first OpLine's OpString) */
    uint32_t globals_end; /* the first OpFunction's offset */
    bool contract_off;    /* some entry has ExecutionMode ContractionOff */
    struct spv_fpc *fpc;  /* pragma.c: the .cl file's FP_CONTRACT
                             pragmas, read once (one allocation) */
} spv_mod;

enum spv_ext { SE_NONE, SE_OCL, SE_SKIP, SE_OTHER };

_Noreturn void spv_fail(spv_mod *m, uint32_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* What clvm refuses in a valid module: "SOURCE:LINE: error: ...". */
_Noreturn void spv_fail_line(spv_mod *m, uint32_t line, const char *fmt,
                             ...) __attribute__((format(printf, 3, 4)));
/* The source file for messages and the line table: the .cl file as the
 * user named it, else the first OpLine's file, else the module's name. */
const char *spv_source(const spv_mod *m);
void spv_read(spv_mod *m);
/* Does opcode op define a result id, and does it have a result type? */
void spv_result(uint32_t op, bool *res, bool *rtype);
/* The source line of the last OpLine before `at` in function f (0). */
uint32_t spv_line_before(spv_mod *m, const spv_func *f, uint32_t at);
void spv_mod_free(spv_mod *m);
uint32_t spv_op(const spv_mod *m, uint32_t at);
uint32_t spv_wc(const spv_mod *m, uint32_t at);
/* Word i of the instruction at `at` (0 is the header): it must exist. */
uint32_t spv_word(spv_mod *m, uint32_t at, uint32_t i);
/* Word i, an id that some instruction defines. */
uint32_t spv_id(spv_mod *m, uint32_t at, uint32_t i);
/* A string operand starting at word i, NUL-terminated inside the
 * instruction; *next: the word after it. */
const char *spv_str(spv_mod *m, uint32_t at, uint32_t i, uint32_t *next);
const spv_func *spv_func_of(spv_mod *m, uint32_t at, uint32_t id);
/* The string of the kernel_arg_type OpString of kernel name ("" if
 * none): type names separated by commas. */
const char *spv_argtypes(spv_mod *m, const char *name, bool qual);

/* ---- types.c ---- */

void spv_types(spv_mod *m);
/* The type whose id is word i of the instruction at `at`. */
const spv_type *spv_typ(spv_mod *m, uint32_t at, uint32_t id);
/* The result type id of value id (defined by an instruction with one). */
uint32_t spv_type_of(spv_mod *m, uint32_t at, uint32_t id);
const spv_const *spv_const_of(const spv_mod *m, uint32_t id);
/* The OpenCL C layout of type t (structs as C lays them out, CPacked
 * without padding; a 3-vector takes 4 components; a pointer 8 bytes). */
typedef struct {
    uint64_t size, align;
} spv_lay;
spv_lay spv_layout(spv_mod *m, uint32_t at, uint32_t t);
/* Byte offset of member k of struct type t. */
uint64_t spv_member(spv_mod *m, uint32_t at, uint32_t t, uint32_t k);
/* Is t an array or a struct? */
bool spv_is_agg(const spv_mod *m, uint32_t t);
/* The element type of memory holding a t: t itself for scalars and
 * vectors; an array's (of arrays') scalar or vector element; ulong for a
 * pointer (its slot); uchar for structs and arrays of them
 * (byte-addressed). */
ty_t spv_memty(spv_mod *m, uint32_t at, uint32_t t);
/* The layout string (vm/layout.h) of aggregate t, whose spv_layout has
 * been taken: malloc'd, "" when it has more than LAY_MAX_ITEMS items;
 * NULL when memory ran out. */
char *spv_layout_text(spv_mod *m, uint32_t at, uint32_t t);

/* ---- cfg.c ---- */

enum snode_kind {
    S_CODE,       /* the instructions of block b (without its terminator) */
    S_IF,         /* on block b's terminator: then, els; sw: case index */
    S_LOOP,       /* label: body */
    S_BLOCK,      /* label: body */
    S_BREAK,      /* label */
    S_CONT,       /* label */
    S_RET,        /* block b's OpReturn / OpReturnValue */
    S_EDGE,       /* the OpPhi copies of the edge b -> to */
};

typedef struct snode snode;
struct snode {
    uint8_t kind;
    bool neg;             /* S_IF, S_BREAK with cond: negated */
    bool cond;            /* S_BREAK: only where block b's condition
                             holds (S_IF's condition, sw and neg) */
    bool tail;            /* S_RET: last of all, no jump needed */
    int32_t sw;           /* S_IF of an OpSwitch: the target index (the
                             selector equals one of its literals), -1 */
    uint32_t b, to;       /* block indices */
    uint32_t label;       /* S_LOOP, S_BLOCK, S_BREAK, S_CONT: 1, 2, ... */
    snode *body, *els;    /* S_IF: then, else; S_LOOP, S_BLOCK: body */
    snode *next;
};

typedef struct {
    snode *root;
    void **all;           /* every node and array, for freeing (also
                             after an error) */
    uint32_t nall, capall;
    uint32_t nlabels;
} spv_tree;

/* The structured form of function f, or a message (by spv_fail with the
 * offending branch's offset) for an irreducible graph. */
void spv_structure(spv_mod *m, const spv_func *f, spv_tree *t);
void spv_tree_free(spv_tree *t);

/* ---- alias.c ---- */

typedef struct spv_frame spv_frame;
/* The frame's into and alias for its function (variables declared). */
void spv_alias(spv_mod *m, spv_frame *fr);

/* ---- val.c ---- */

enum spv_vk {
    VK_NONE,
    VK_REG,       /* a register: a value or a pointer */
    VK_VAR,       /* a Function variable only loaded and stored whole:
                     reg holds its value */
    VK_BUILTIN,   /* an Input variable: aux is its SpvBuiltIn */
    VK_BVEC,      /* a loaded built-in vector: aux is its SpvBuiltIn */
    VK_CHAIN,     /* a pointer reg + index aux, not yet computed (a load
                     or store through it is one LD or ST) */
    VK_ALIAS,     /* a Function variable stored once, first thing: the
                     value stored (reg: -1 before the store) */
    VK_SPLAT,     /* a scalar reg inserted as component aux of an
                     undefined vector, not yet computed (a shuffle that
                     takes only that component is one SPLAT) */
    VK_CINIT,     /* a program-scope constant with an initialiser, aux
                     its id, not in memory: a copy from it stores the
                     constant (clang's __const.* of `int a[4] = {...}`) */
};

typedef struct {
    int32_t reg;
    uint8_t kind;         /* enum spv_vk */
    uint32_t aux;
    uint32_t view;        /* a pointer cast of this value: the type id it
                             points to now (loads and stores convert), or
                             0 */
} spv_val;

static inline spv_val sv(int32_t reg, uint8_t kind, uint32_t aux)
{
    spv_val v = {reg, kind, aux, 0};
    return v;
}

struct spv_frame {
    spv_val *v;           /* by id */
    const spv_func *f;
    spv_tree t;
    uint32_t *open;       /* by tree label: its a->blocks index */
    int32_t ret;          /* the call's result register, or -1 */
    uint32_t retblk;      /* a->blocks index of the block a return
                             leaves, or UINT32_MAX (the kernel: RET) */
    void *scratch;        /* freed with the frame */
    uint32_t *into;       /* by id: the variable whose register the value
                             is computed into (alias.c), or 0 */
    uint8_t *alias;       /* by id: a load that reads the variable's
                             register itself */
    void *tmp[6];         /* alias.c's work, freed with the frame; tmp[0]
                             stays: the uses of each id (uint32_t) */
    const char **hint;    /* by id: a name for its register (the variable
                             it is stored to), or NULL */
    struct spv_frame *up;
};

typedef struct {
    spv_mod m;
    A *a;
    spv_frame *fr;        /* the function being translated */
    spv_frame *spare;     /* a frame being set up, not yet current */
    unsigned depth;       /* of inlining */
    uint32_t calls;       /* inlined in this kernel */
    uint32_t at;          /* the instruction being translated */
    unsigned chase;       /* casts and chains followed (mem.c access_use) */
    spv_val *gv;          /* by id: module-scope variables as this
                             kernel sees them (built-ins, local arrays) */
} SX;

/* A construct clvm does not run: "FILE:LINE: error: ..." and unwind. */
_Noreturn void sx_refuse(SX *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Emits base's variant for element type s; unwinds on failure. */
void sx_emit(SX *x, enum bc_base base, enum ty_scalar s, unsigned n,
             unsigned flags, const uint32_t *w, unsigned nw);
/* The value of operand word i of the current instruction. */
spv_val *sx_val(SX *x, uint32_t i);
/* ... as a register (constants materialised, chains computed). */
uint32_t sx_reg(SX *x, uint32_t i);
/* The clvm address space of a pointer to storage class sp (types.c):
 * Function storage is private; generic and input are refused. */
uint8_t sx_space(SX *x, uint8_t sp);
/* Do a and b move the same bits in memory (count and element size)? */
bool sx_same_bits(ty_t a, ty_t b);
/* A new pointer register: (to *)(base + idx), idx in elements of *base. */
uint32_t sx_ptr_at(SX *x, uint32_t base, uint32_t idx, ty_t to);
uint32_t sx_val_reg(SX *x, spv_val *v, uint32_t id);
const bc_reg *sx_r(SX *x, uint32_t reg);
/* The clvm value type of type id t (refused if it is not one). */
ty_t sx_vty(SX *x, uint32_t t);
/* The result register of the current instruction (result id in word 2)
 * with type t (a value). */
uint32_t sx_def(SX *x, ty_t t);
uint32_t sx_def_id(SX *x, uint32_t id, ty_t t);
/* A pointer register for id. */
uint32_t sx_defptr(SX *x, uint32_t id, ty_t pointee, uint8_t space,
                   bool cptr, const char *name);
/* A fresh unnamed value register of type t. */
uint32_t sx_temp(SX *x, ty_t t);
/* reg read as type want: itself, or a copy (MOV for the same element
 * size, CVT between integer sizes: truth values and masks keep their
 * meaning). */
uint32_t sx_as(SX *x, uint32_t reg, ty_t want);
/* A register name from an OpName: an IR identifier, unique, not
 * reserved; NULL for none. */
int32_t sx_named(SX *x, const char *name, bc_reg r);
/* The register holding integer constant v of type t. */
uint32_t sx_const(SX *x, ty_t t, uint64_t v);

/* OpConvertPtrToU at x->at whose every use is an integer comparison: the
 * pointer's buffer and offset as a ulong; false, emitting nothing, if it
 * is not one. */

/* ---- mem.c ---- */

/* The LD/ST operands of pointer value p (operand word i): a register and
 * an index in its elements. */
uint32_t sx_addr(SX *x, const spv_val *p, uint32_t i, uint32_t *idx);
/* The Aligned memory operand of the instruction, whose memory access
 * mask is word i; 0 if it has none. */
uint64_t sx_aligned(SX *x, uint32_t i);
/* The alignment pointer id ptr is known to have: a variable's
 * (its Alignment decoration, else its type's), kept through pointer casts
 * and access chains whose steps are multiples of it (an index known to be
 * a multiple of 2^k: a constant, products, shifts, sums); 1 if unknown. */
uint64_t sx_known_align(SX *x, uint32_t ptr, unsigned depth);
/* v = (base, idx)[0], or (st) the store of v, below the alignment of v's
 * type: as its bytes (vloadN/vstoreN of uchar and as_type). */
void sx_unaligned(SX *x, uint32_t v, uint32_t base, uint32_t idx, bool st);
/* OpConvertPtrToU at x->at: the address (PTOU, docs/semantics.md
 * "Addresses"), or nothing where its every use is a difference that
 * sx_ptrdiff folds. */
void sx_ptrtou(SX *x);
/* OpConvertUToPtr at x->at: the pointer at an address (UTOP). */
void sx_utop(SX *x);
/* The OpISub at x->at, if of two OpConvertPtrToU of addresses in one
 * variable (offsetof): their constant difference; false if not one. */
bool sx_ptrdiff(SX *x);
/* Op[InBounds][Ptr]AccessChain at x->at. */
void sx_chain(SX *x, bool ptr);
/* OpCopyMemory (sized: OpCopyMemorySized) at x->at. */
void sx_copy(SX *x, bool sized);
/* A by-value aggregate argument (at pointer register sp, index si, of
 * type t): a private copy for the callee, whose writes must not reach the
 * caller's; returns the copy's pointer register. */
uint32_t sx_byval(SX *x, uint32_t sp, uint32_t si, uint32_t t);
/* Stores constant cid of type t at (base, idx), aligned to align. */
void sx_store_const(SX *x, uint32_t base, uint32_t idx, uint32_t cid,
                    uint32_t t, uint64_t align);
/* A local or private array holding a t; named after name (its last dot
 * part) or fallback. */
int32_t sx_agg_var(SX *x, uint32_t t, uint8_t space, const char *name,
                   const char *fallback);
/* The module-scope variables entry e uses that val.c does not declare
 * where used: __local aggregates, program-scope constants (filled here,
 * at the kernel's start). */
void sx_globals(SX *x, const spv_entry *e);
/* d = s: a value (MOV) or a pointer (PADD s + 0). */
void sx_move(SX *x, uint32_t d, uint32_t s);
/* The result of the current OpSelect of pointers: c ? a : b. */
void sx_select_ptr(SX *x, uint32_t c, uint32_t a, uint32_t b);

/* ---- sync.c ---- */

/* OpAtomic* at x->at as ATOM; false if op is no atomic clvm runs. */
bool sx_atomic(SX *x, uint32_t op);
/* OpMemoryBarrier at x->at. */
void sx_fence(SX *x);
/* OpGroupAsyncCopy, OpGroupWaitEvents at x->at; false for other ops. */
bool sx_async(SX *x, uint32_t op);

/* ---- ext.c ---- */

/* OpExtInst of OpenCL.std at x->at. */
void sx_ocl(SX *x);

/* ---- pragma.c ---- */

/* Is FP_CONTRACT off at the instruction at `at` of function f (by its
 * OpLine's position in the .cl file)? Refused where clvm cannot tell. */
bool spv_contract_off(spv_mod *m, const spv_func *f, uint32_t at);

/* ---- fuse.c ---- */

/* Is the current OpFMul contracted into the OpFAdd after it (so it is
 * not emitted: sx_muladd reads its operands)? */
bool sx_fused_mul(SX *x);
/* The current OpFAdd as CMAD or XMAD, if it is a contraction site;
 * false (nothing emitted) if not. */
bool sx_muladd(SX *x);

/* ---- ops.c ---- */

/* One instruction of a block (not a terminator, OpPhi, OpVariable or
 * OpFunctionCall). */
void sx_ins(SX *x, uint32_t op);
/* OpFAdd ... by opcode (from the Khronos grammar), for messages. */
const char *spv_opname(uint32_t op);

#endif
