/* Labelled control flow: the labels of `loop NAME` and `block NAME`, and
 * the instruction a `break NAME [if c]` or `continue NAME` becomes. A jump
 * to the innermost loop is the unlabelled BREAK, BRKIF or CONT (the same
 * bytes as `break`), so labels cost nothing where they are not needed and
 * the bytecode never records them. */
#include <string.h>

#include "asm/asmint.h"
#include "asm/optab.h"

static uint32_t tok_end(const tok *t) { return t->col + t->len; }

bool flow_label(A *a, char out[ASM_LABEL_MAX], bool need)
{
    const tok *t = parse_peek(a);
    out[0] = 0;
    if (t->kind != TK_IDENT || tok_is(t, "if")) {
        if (need)
            asm_error(a, t->col, tok_end(t), "a block needs a label: "
                      "'block NAME'");
        return !need;
    }
    parse_next(a);
    if (t->len >= ASM_LABEL_MAX || parse_is_reserved(t->s, t->len)) {
        asm_error(a, t->col, tok_end(t), "'%.*s' cannot be a label (%s)",
                  (int)(t->len > 40 ? 40 : t->len), t->s,
                  t->len >= ASM_LABEL_MAX ? "too long" : "a reserved word");
        return false;
    }
    for (uint32_t i = 0; i < a->nblocks; i++)
        if (strlen(a->blocks[i].label) == t->len &&
            !memcmp(a->blocks[i].label, t->s, t->len)) {
            asm_error(a, t->col, tok_end(t), "label '%.*s' is already the "
                      "label of an enclosing block (line %u)", (int)t->len,
                      t->s, a->blocks[i].line);
            return false;
        }
    memcpy(out, t->s, t->len);
    out[t->len] = 0;
    return true;
}

int32_t flow_target(A *a, const tok *name, bool brk)
{
    for (uint32_t i = a->nblocks; i-- > 0;) {
        const block *b = &a->blocks[i];
        if (strlen(b->label) != name->len ||
            memcmp(b->label, name->s, name->len))
            continue;
        if (!brk && b->kind != B_LOOP) {
            asm_error(a, name->col, tok_end(name), "'continue %.*s': '%.*s' "
                      "is a block, not a loop", (int)name->len, name->s,
                      (int)name->len, name->s);
            return -1;
        }
        return (int32_t)i;
    }
    asm_error(a, name->col, tok_end(name), "'%s %.*s': no enclosing loop "
              "or block is labelled '%.*s'", brk ? "break" : "continue",
              (int)name->len, name->s, (int)name->len, name->s);
    return -1;
}

bool flow_jump(A *a, uint32_t target, bool brk, const opnd *c, bool negate)
{
    const block *b = &a->blocks[target];
    bool inner = b->kind == B_LOOP;
    for (uint32_t i = target + 1; i < a->nblocks && inner; i++)
        inner = a->blocks[i].kind != B_LOOP;
    if (b->pc == UINT32_MAX)   /* its opener failed: reported already */
        return false;
    if (c) {
        uint32_t w[2] = {c->reg, b->pc};
        enum bc_base base = inner ? BCB_BRKIF : BCB_BRKTOIF;
        return kb_emit(a, op_variant(base, (enum ty_scalar)c->ty.s), 1,
                       negate ? BC_F_NOT : 0, w, inner ? 1 : 2);
    }
    uint32_t w[1] = {b->pc};
    enum bc_base base = brk ? (inner ? BCB_BREAK : BCB_BRKTO)
                            : (inner ? BCB_CONT : BCB_CONTTO);
    return kb_emit(a, op_variant(base, TY_UINT), 1, 0, w, inner ? 0 : 1);
}
