/* The member layout of a by-value kernel parameter (bc_byval.layout), as
 * a string the module carries, read here once for the verifier, `clvm run`
 * and the REPL:
 *
 *   layout := '{' item (',' item)* '}'
 *   item   := OFFSET ':' TYPE  |  layout
 *
 * OFFSET is the member's byte offset from the start of the aggregate
 * (decimal), TYPE a scalar or vector type name (ty_parse). A nested layout
 * is a nested aggregate: a struct member, an array, an array's struct
 * element; its items follow in declaration order, as a C initialiser
 * lists them. A union is the member clang keeps of it. */
#ifndef CLVM_LAYOUT_H
#define CLVM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "stdlib/types.h"
#include "vm/bytecode.h"

enum { LAY_OPEN, LAY_CLOSE, LAY_LEAF };
enum { LAY_MAX_ITEMS = 4096, LAY_MAX_DEPTH = 32 };

typedef struct {
    uint8_t kind;     /* LAY_* */
    uint32_t off;     /* LAY_LEAF: bytes from the aggregate's start */
    ty_t type;        /* LAY_LEAF */
} lay_item;

/* Parses s into at most LAY_MAX_ITEMS items (*out malloc'd, *n of them),
 * each leaf inside `size` bytes. Returns 0, or -1 with the reason in err
 * (*out NULL). An empty string is an empty list. */
int lay_parse(const char *s, uint32_t size, lay_item **out, size_t *n,
              char *err, size_t errlen);

/* The verifier's rules for parameter p of m, whose register is r: a
 * by-value one (byval.size > 0) is a constant pointer, size at most
 * BC_MAX_BYVAL and a multiple of its power-of-two alignment (at most 128),
 * its type a string of the module and its layout one lay_parse takes;
 * any other has every byval field 0. Returns 0, or -1 with err. */
int lay_check_param(const bc_module *m, const bc_param *p, const bc_reg *r,
                    char *err, size_t errlen);

#endif
