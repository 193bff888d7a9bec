/* as_type (stdlib/reinterpret.h): a value's bits as another type of its size. */
#include "stdlib/reinterpret.h"

#include <string.h>

#include "stdlib/loadstore.h"
#include "stdlib/note.h"

enum as_check as_classify(ty_t dst, ty_t src)
{
    if (ty_sizeof(dst) != ty_sizeof(src))
        return AS_SIZE;
    if (dst.n == src.n)
        return AS_OK;
    if (src.n == 4 && dst.n == 3)
        return AS_4TO3;
    if (src.n == 3 && dst.n == 4)
        return AS_3TO4;
    return AS_COUNT;
}

int as_reinterpret(ty_t dst, ty_t src, void *d, const void *s)
{
    static const int notes[] = {
        [AS_OK] = 0, [AS_SIZE] = -1, [AS_COUNT] = NOTE_AS_COUNT,
        [AS_4TO3] = NOTE_AS_W, [AS_3TO4] = NOTE_AS_3TO4,
    };
    enum as_check c = as_classify(dst, src);
    size_t size = ty_sizeof(dst);
    if (c == AS_SIZE)
        return -1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    !defined(CLVM_GENERIC_ENDIAN)
    memmove(d, s, size);
#else
    /* Registers are in host order but "memory order" means clvm's
     * little-endian memory: store the operand there, load the result back
     * (all lanes, a 3-vector's padding included). */
    if (c == AS_OK) {
        memmove(d, s, size); /* same element size: lane for lane */
    } else {
        _Alignas(LS_BASE_ALIGN) uint8_t buf[TY_MAXLANES * 8];
        ls_buf b = {buf, size};
        ls_vstore((enum ty_scalar)src.s, ty_lanes(src), s, &b, 0, 0, NULL);
        ls_vload((enum ty_scalar)dst.s, ty_lanes(dst), &b, 0, 0, d, NULL);
    }
#endif
    return notes[c];
}
