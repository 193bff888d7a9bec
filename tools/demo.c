/* The demo (make demo): a small tour of OpenCL C conversions computed by
 * clvm's stdlib.
 *
 * The Quick start's first command runs it. Each line shows the call, the
 * result value and its bits, and the note when the result is
 * implementation-defined. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stdlib/convert.h"
#include "stdlib/half.h"
#include "stdlib/reinterpret.h"

typedef union {
    int64_t i;
    uint64_t u;
    double d;
    float f;
    uint16_t h;
    uint8_t b[8];
} val;

static void show(const char *expr, enum ty_scalar t, const uint8_t *bytes)
{
    uint64_t bits = 0;
    unsigned size = ty_scalar_size(t);
    memcpy(&bits, bytes, size); /* little-endian host: low bytes */
    char num[64];
    switch (t) {
    case TY_FLOAT: { float f; memcpy(&f, bytes, 4); snprintf(num, sizeof num, "%.9g", f); break; }
    case TY_DOUBLE: { double d; memcpy(&d, bytes, 8); snprintf(num, sizeof num, "%.17g", d); break; }
    case TY_HALF: { uint16_t h; memcpy(&h, bytes, 2); snprintf(num, sizeof num, "%.5g", half_to_float(h)); break; }
    default:
        if (ty_is_signed(t)) {
            int64_t v = (int64_t)(bits << (64 - 8 * size));
            snprintf(num, sizeof num, "%" PRId64, v >> (64 - 8 * size));
        } else {
            snprintf(num, sizeof num, "%" PRIu64, bits);
        }
    }
    printf("  %-34s = %-14s 0x%0*" PRIx64, expr, num, (int)size * 2, bits);
}

static void conv(const char *expr, enum ty_scalar dst, enum ty_scalar src,
                 val v, bool sat, int rnd)
{
    val out = {0};
    enum rnd r = rnd < 0 ? cv_default_round(dst) : (enum rnd)rnd;
    int notes = cv_scalar(dst, src, out.b, v.b, sat, r);
    show(expr, dst, out.b);
    for (int i = 0; i < NOTE_COUNT && notes > 0; i++)
        if (notes & (1 << i))
            printf("  (%s: %s)", note_kind((enum note_id)i), note_name((enum note_id)i));
    putchar('\n');
}

int main(void)
{
    printf("clvm: what OpenCL C conversions do to bits\n\n"
           "float -> int rounds toward zero unless a mode is named:\n");
    conv("convert_int(2.5f)", TY_INT, TY_FLOAT, (val){.f = 2.5f}, false, -1);
    conv("convert_int_rte(2.5f)", TY_INT, TY_FLOAT, (val){.f = 2.5f}, false, RND_RTE);
    conv("convert_int_rte(3.5f)", TY_INT, TY_FLOAT, (val){.f = 3.5f}, false, RND_RTE);
    conv("convert_int_rtn(-0.5f)", TY_INT, TY_FLOAT, (val){.f = -0.5f}, false, RND_RTN);
    conv("convert_uint(-0.9f)", TY_UINT, TY_FLOAT, (val){.f = -0.9f}, false, -1);

    printf("\nsaturation, and what happens without it:\n");
    conv("convert_char_sat((short)300)", TY_CHAR, TY_SHORT, (val){.i = 300}, true, -1);
    conv("convert_char((short)300)", TY_CHAR, TY_SHORT, (val){.i = 300}, false, -1);
    conv("convert_uchar_sat((int)-5)", TY_UCHAR, TY_INT, (val){.i = -5}, true, -1);
    conv("convert_int_sat(3e9f)", TY_INT, TY_FLOAT, (val){.f = 3e9f}, true, -1);
    conv("convert_int(3e9f)", TY_INT, TY_FLOAT, (val){.f = 3e9f}, false, -1);
    conv("convert_int_sat(NAN)", TY_INT, TY_FLOAT, (val){.f = NAN}, true, -1);

    printf("\n64-bit integers round once, in the named mode:\n");
    conv("convert_float((ulong)-1)", TY_FLOAT, TY_ULONG, (val){.u = UINT64_MAX}, false, -1);
    conv("convert_float_rtz((ulong)-1)", TY_FLOAT, TY_ULONG, (val){.u = UINT64_MAX}, false, RND_RTZ);
    conv("convert_float_rtp(16777217)", TY_FLOAT, TY_INT, (val){.i = 16777217}, false, RND_RTP);

    printf("\nhalf, in each rounding mode:\n");
    conv("convert_half(65520.0f)", TY_HALF, TY_FLOAT, (val){.f = 65520.0f}, false, -1);
    conv("convert_half_rtz(65520.0f)", TY_HALF, TY_FLOAT, (val){.f = 65520.0f}, false, RND_RTZ);
    conv("convert_half_rtp(1e-8f)", TY_HALF, TY_FLOAT, (val){.f = 1e-8f}, false, RND_RTP);

    printf("\nas_type keeps every bit:\n");
    val in = {.f = 1.0f}, out = {0};
    as_reinterpret((ty_t){TY_UINT, 1}, (ty_t){TY_FLOAT, 1}, out.b, in.b);
    show("as_uint(1.0f)", TY_UINT, out.b);
    putchar('\n');
    in.u = 0x7f800001; /* a signalling NaN */
    as_reinterpret((ty_t){TY_FLOAT, 1}, (ty_t){TY_UINT, 1}, out.b, in.b);
    show("as_float(0x7f800001u)", TY_FLOAT, out.b);
    putchar('\n');
    return 0;
}
