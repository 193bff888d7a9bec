/* Notes: the implementation-defined and undefined cases that the built-ins
 * of stdlib/ can hit. A built-in computes clvm's documented result and
 * returns the OR of the notes its inputs triggered, so the VM can warn, trap
 * (strict profile) or substitute a device's result (device profiles).
 * docs/semantics.md explains each one. */
#ifndef CLVM_NOTE_H
#define CLVM_NOTE_H

/* X(ENUM, kind, what clvm gives, spec rule)
 * kind: "implementation-defined", "unspecified", "undefined", or
 * "device-dependent" (defined by the current spec, but older text and real
 * devices differ). */
#define NOTES(X)                                                              \
    X(FLT_RANGE, "implementation-defined",                                    \
      "float->integer without _sat, operand out of range: the value rounded " \
      "in the named mode if it fits, else saturated to the destination's "    \
      "minimum or maximum",                                                   \
      "When converting from a floating-point type to integer type, the "      \
      "behavior is implementation-defined. (convert_T, Out-of-Range "         \
      "Behavior)")                                                            \
    X(FLT_NAN, "implementation-defined",                                      \
      "NaN -> integer without _sat gives 0",                                  \
      "OpenCL does not define what happens for the non-saturated "            \
      "conversions when floating-point operands are outside the range "       \
      "representable integers after rounding. (convert_T, Notes)")            \
    X(SAT_NAN, "device-dependent",                                            \
      "NaN -> integer with _sat gives 0",                                     \
      "When in saturated mode, values that are outside the representable "    \
      "range shall clamp to the nearest representable value in the "          \
      "destination format. (NaN should be converted to 0). (convert_T)")      \
    X(NARROW, "implementation-defined",                                       \
      "integer -> signed integer without _sat, value out of range: wraps "    \
      "modulo 2^N (two's complement)",                                        \
      "Otherwise, the new type is signed and the value cannot be "            \
      "represented in it; either the result is implementation-defined or "   \
      "an implementation-defined signal is raised. (C99 6.3.1.3p3, which "    \
      "convert_T defers to)")                                                 \
    X(AS_COUNT, "implementation-defined",                                     \
      "as_type between different element counts: the bytes are "             \
      "reinterpreted in memory order",                                        \
      "When the operand and result type contain a different number of "       \
      "elements, the result shall be implementation-defined except if the "   \
      "operand is a 4-component vector and the result is a 3-component "      \
      "vector. (as_type)")                                                    \
    X(AS_3TO4, "implementation-defined",                                      \
      "as_type from a 3-component to a 4-component vector of the same "       \
      "size: memory order, so w is the operand's padding lane",               \
      "float3 f; float4 g = as_float4(f); // Error. Result and operand have " \
      "different sizes (programming guide); the reference pages make it "     \
      "implementation-defined, since sizeof(float3) == sizeof(float4)")       \
    X(AS_W, "undefined",                                                      \
      "as_type from a 4- to a 3-component vector: w keeps the operand's w",   \
      "float3 g = as_float3(f); // Legal. g.xyz will have same values as "    \
      "f.xyz. g.w is undefined (as_type)")                                 \
    X(DIV_ZERO, "unspecified",                                             \
      "integer a / 0 gives 0, a % 0 gives a",                              \
      "A divide by zero with integer types does not cause an exception "    \
      "but will result in an unspecified value. (OpenCL C, arithmetic "     \
      "operators)")                                                         \
    X(DIV_MIN, "undefined",                                                 \
      "MIN / -1 of a signed type gives MIN, MIN % -1 gives 0",              \
      "If the quotient a/b is representable, the expression (a/b)*b + a%b " \
      "shall equal a (C99 6.5.5p6); MIN / -1 is not representable, so the " \
      "result is undefined (6.5p5), which OpenCL C inherits")               \
    X(OVERFLOW, "undefined",                                                \
      "signed integer +, -, *, negation out of range: wraps modulo 2^N",   \
      "If an exceptional condition occurs during the evaluation of an "     \
      "expression (that is, if the result is not mathematically defined "   \
      "or not in the range of representable values for its type), the "     \
      "behavior is undefined. (C99 6.5p5, which OpenCL C inherits)")      \
    X(CONTRACT, "implementation-defined",                                  \
      "two roundings (a * b, then + c) where one (fused) gives other "     \
      "bits: a contractible a * b + c (FP_CONTRACT on), mad(), a product " \
      "added by a later statement",                                        \
      "The FP_CONTRACT pragma can be used to allow (if the state is on) "   \
      "or disallow (if the state is off) the implementation to contract "   \
      "expressions. (OpenCL C, FP_CONTRACT; C99 6.5p8); mad: "              \
      "implementation-defined precision (OpenCL C, math functions)")

enum note_id {
#define X(E, k, w, r) NOTE_ID_##E,
    NOTES(X)
#undef X
    NOTE_COUNT
};

enum note {
#define X(E, k, w, r) NOTE_##E = 1u << NOTE_ID_##E,
    NOTES(X)
#undef X
};

const char *note_name(enum note_id id);   /* "FLT_RANGE" */
const char *note_kind(enum note_id id);
const char *note_what(enum note_id id);   /* what clvm gives */
const char *note_rule(enum note_id id);   /* the spec sentence */

#endif
