/* Device profiles: what a named implementation gives in each
 * implementation-defined or undefined case of stdlib/note.h, so that a
 * kernel can be run as that device would run it. Where a profile has no
 * measured data it gives clvm's value, and prof_what says "not measured".
 * docs/semantics.md has the table (every case x profile) and the evidence. */
#ifndef CLVM_PROFILE_H
#define CLVM_PROFILE_H

#include <stdbool.h>

#include "stdlib/note.h"
#include "stdlib/round.h"
#include "stdlib/types.h"

/* X(ENUM, name, description) */
#define PROFILES(X)                                                         \
    X(CLVM, "clvm", "clvm's documented choices (the default)")              \
    X(STRICT, "strict", "clvm's values, but an implementation-defined or "  \
      "undefined result traps")                                            \
    X(NVIDIA, "nvidia", "NVIDIA's OpenCL driver, measured on an H100 "      \
      "(driver 580.159.04)")                                                \
    X(POCL, "pocl", "PoCL 3.1, pthread device, measured on x86-64 with "    \
      "AVX-512 (pthread-skylake-avx512-AMD EPYC)")

enum prof_id {
#define X(E, n, d) PROF_##E,
    PROFILES(X)
#undef X
    PROF_COUNT
};

int prof_parse(const char *name);            /* -1 if unknown */
const char *prof_name(enum prof_id p);       /* "nvidia" */
const char *prof_desc(enum prof_id p);       /* one line */

/* One scalar conversion as profile p gives it (strict gives clvm's value);
 * returns the note bits (enum note) of the case, or -1 if illegal (nothing
 * is written). d and s need no alignment and may be the same. */
int prof_cv_scalar(enum prof_id p, enum ty_scalar dst, enum ty_scalar src,
                   void *d, const void *s, bool sat, enum rnd r);

/* Integer a / b (rem: a % b) of type t as profile p gives it; returns the
 * notes (NOTE_DIV_ZERO, NOTE_DIV_MIN), or -1 if t is not an integer type.
 * d, a and b need no alignment. */
int prof_divrem(enum prof_id p, enum ty_scalar t, bool rem, void *d,
                const void *a, const void *b);

/* Signed integer arithmetic: a + b, a - b, a * b, -a (b unused). */
enum prof_arith { PA_ADD, PA_SUB, PA_MUL, PA_NEG };

/* a OP b of signed integer type t, wrapped modulo 2^N as every profile
 * gives it; returns NOTE_OVERFLOW if the exact result does not fit t, 0 if
 * it does, -1 if t is not a signed integer type. d, a and b need no
 * alignment. Shifts are not here: OpenCL masks the count, so no shift
 * hits a case. */
int prof_arith(enum prof_id p, enum ty_scalar t, enum prof_arith op, void *d,
               const void *a, const void *b);

/* The three shapes of a multiply-add whose rounding a device chooses:
 * a contractible a * b + c (FP_CONTRACT on, one expression), mad(), and
 * a product stored in a variable that a later statement adds to. */
enum prof_fuse { PF_EXPR, PF_MAD, PF_STMT };

/* Does profile p fuse (round once) multiply-adds of shape k? */
bool prof_fuses(enum prof_id p, enum prof_fuse k);

/* a * b + c of float type t (TY_FLOAT, TY_DOUBLE) as profile p gives it
 * for shape k: fused or rounded twice; returns NOTE_CONTRACT if the two
 * differ (in bits), 0 if not, -1 if t is not float or double. d, a, b
 * and c need no alignment. */
int prof_muladd(enum prof_id p, enum prof_fuse k, enum ty_scalar t, void *d,
                const void *a, const void *b, const void *c);

/* The notes among `notes` for which profile p may give other values than
 * clvm's: the VM substitutes the profile's result only there. */
unsigned prof_differs(enum prof_id p);

/* One line: how profile p computes the built-ins of implementation-
 * defined precision (native_*, half_*, mad), for compare and the docs. */
const char *prof_precision(enum prof_id p);

/* One line: half arithmetic (cl_khr_fp16) under profile p. No peer device
 * offers cl_khr_fp16 through OpenCL (PoCL 3.1 and 5.0, NVIDIA's H100
 * driver 580.159.04: checked), so every profile computes half as clvm
 * does, each operation rounded once, and says that the device has none. */
const char *prof_half(enum prof_id p);

/* One line: what profile p gives in case id (for notes, compare, docs). */
const char *prof_what(enum prof_id p, enum note_id id);

#endif
