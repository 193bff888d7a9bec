/* Half arithmetic (cl_khr_fp16) on a fixed-seed sample, against MPFR: the
 * operators + - * / and fma bit for bit (MPFR rounding once to 11 bits in
 * half's exponent range), the one- and two-operand math functions at half
 * within the table's half bound, and conversions from half against the
 * exact reference. `make check-exhaustive-half` (tests/exhaustive_half.c)
 * checks every input; this runs in make test. */
#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <string.h>

#include "stdlib/convert.h"
#include "tests/lib/ref.h"
#include "tests/lib/test.h"
#include "tests/unit/half_ref.h"

static uint64_t seed = 0x9e3779b97f4a7c15u;
static uint64_t xorshift(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

/* Special halves first (zeros, denormals, 1, the largest, inf, NaN,
 * the spacing change at 2048), then random bit patterns. */
static const uint16_t specials[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01,
    0x3bff, 0x6800, 0x6801, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d00,
    0x4000, 0x3800, 0x1400, 0x0200};
#define NSPEC (sizeof specials / sizeof specials[0])
static uint16_t pick(unsigned i)
{
    return i < NSPEC ? specials[i] : (uint16_t)xorshift();
}

static void operators(void)
{
    static const struct {
        const char *name;
        uint16_t (*fn)(uint16_t, uint16_t);
        int (*ref)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
    } ops[] = {{"+", half_add, mpfr_add}, {"-", half_sub, mpfr_sub},
               {"*", half_mul, mpfr_mul}, {"/", half_div, mpfr_div}};
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(HALF_EMIN);
    mpfr_set_emax(HALF_EMAX);
    mpfr_t x, y, z, r;
    mpfr_inits2(11, x, y, z, r, (mpfr_ptr)0);
    for (unsigned i = 0; i < (1u << 20); i++) {
        uint16_t a = pick(i % 4096), b = pick(i / 4096 % 4096);
        uint16_t c = (uint16_t)xorshift();
        mpfr_set_d(x, half_to_double(a), MPFR_RNDN);
        mpfr_set_d(y, half_to_double(b), MPFR_RNDN);
        for (unsigned k = 0; k < 4; k++) {
            uint16_t g = ops[k].fn(a, b);
            mpfr_subnormalize(r, ops[k].ref(r, x, y, MPFR_RNDN), MPFR_RNDN);
            CHECK(same(r, g), "half 0x%04x %s 0x%04x = 0x%04x, want %a", a,
                  ops[k].name, b, g, mpfr_get_d(r, MPFR_RNDN));
        }
        uint16_t g = half_fma(a, b, c);
        mpfr_set_d(z, half_to_double(c), MPFR_RNDN);
        mpfr_subnormalize(r, mpfr_fma(r, x, y, z, MPFR_RNDN), MPFR_RNDN);
        CHECK(same(r, g), "fma(0x%04x, 0x%04x, 0x%04x) = 0x%04x, want %a",
              a, b, c, g, mpfr_get_d(r, MPFR_RNDN));
    }
    /* fma's hard cases: a product just off a tie of the addend */
    for (unsigned i = 0; i < (1u << 16); i++) {
        uint16_t a = (uint16_t)(xorshift() & 0x3fff), b = (uint16_t)(xorshift() & 0x3fff);
        uint16_t c = half_mul(a, b) ^ (uint16_t)(xorshift() & 1 ? 0x8000 : 0);
        uint16_t g = half_fma(a, b, c);
        mpfr_set_d(x, half_to_double(a), MPFR_RNDN);
        mpfr_set_d(y, half_to_double(b), MPFR_RNDN);
        mpfr_set_d(z, half_to_double(c), MPFR_RNDN);
        mpfr_subnormalize(r, mpfr_fma(r, x, y, z, MPFR_RNDN), MPFR_RNDN);
        CHECK(same(r, g), "fma(0x%04x, 0x%04x, 0x%04x) = 0x%04x, want %a",
              a, b, c, g, mpfr_get_d(r, MPFR_RNDN));
    }
    mpfr_clears(x, y, z, r, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
}

/* The one-operand functions on 2048 halves each, the two-operand ones on
 * 4096 pairs: the error against MPFR's exact value within the half bound. */
static void functions(void)
{
    enum { N1 = 2048, N2 = 4096 };
    static uint16_t a[N2], b[N2], got[N2];
    mpfr_t x, y, r, t;
    mpfr_inits2(128, x, y, r, t, (mpfr_ptr)0);
    for (unsigned k = 0; k < NUNARY; k++) {
        enum mathfn f = unary[k].f;
        for (unsigned i = 0; i < N1; i++)
            a[i] = pick(i);
        mathfn_run(f, TY_HALF, got, a, NULL, NULL, N1, false);
        for (unsigned i = 0; i < N1; i++) {
            mpfr_set_d(x, half_to_double(a[i]), MPFR_RNDN);
            unary[k].ref(r, x, MPFR_RNDN);
            double e = ulp_err(half_to_double(got[i]), r, &FH, t);
            CHECK(e <= mathfns[f].bound[2], "%s(half 0x%04x) = 0x%04x: %g "
                  "ulp", mathfns[f].name, a[i], got[i], e);
        }
    }
    static const struct {
        enum mathfn f;
        int (*ref)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
    } binary[] = {{MF_POW, mpfr_pow}, {MF_ATAN2, mpfr_atan2},
                  {MF_HYPOT, mpfr_hypot}, {MF_FMOD, mpfr_fmod},
                  {MF_REMAINDER, mpfr_remainder}, {MF_FDIM, mpfr_dim},
                  {MF_COPYSIGN, mpfr_copysign}};
    for (unsigned k = 0; k < sizeof binary / sizeof binary[0]; k++) {
        enum mathfn f = binary[k].f;
        for (unsigned i = 0; i < N2; i++)
            a[i] = pick(i % 64), b[i] = pick(i / 64);
        mathfn_run(f, TY_HALF, got, a, b, NULL, N2, false);
        for (unsigned i = 0; i < N2; i++) {
            if (f == MF_COPYSIGN && (b[i] & 0x7fff) > 0x7c00)
                continue; /* MPFR's NaN has no sign to copy */
            mpfr_set_d(x, half_to_double(a[i]), MPFR_RNDN);
            mpfr_set_d(y, half_to_double(b[i]), MPFR_RNDN);
            binary[k].ref(r, x, y, MPFR_RNDN);
            double e = ulp_err(half_to_double(got[i]), r, &FH, t);
            CHECK(e <= mathfns[f].bound[2], "%s(half 0x%04x, 0x%04x) = "
                  "0x%04x: %g ulp", mathfns[f].name, a[i], b[i], got[i], e);
        }
    }
    mpfr_clears(x, y, r, t, (mpfr_ptr)0);
}

/* nextafter steps one half, not one double; fract stays below 1. */
static void steps(void)
{
    uint16_t a[4] = {0x3c00, 0x0000, 0x8001, 0x7bff},
             b[4] = {0x4000, 0x8000 | 0x3c00, 0x3c00, 0x7c00}, r[4];
    mathfn_run(MF_NEXTAFTER, TY_HALF, r, a, b, NULL, 4, false);
    CHECK(r[0] == 0x3c01 && r[1] == 0x8001 && r[2] == 0x8000 &&
              r[3] == 0x7c00,
          "nextafter: %04x %04x %04x %04x", r[0], r[1], r[2], r[3]);
    uint16_t x = 0x8001, fl, fr; /* -2^-24: x - floor(x) rounds to 1 */
    ty_t h = {TY_HALF, 1};
    mathfn_one(MF_FRACT, h, 0, false, &fr, &x, &fl, NULL);
    CHECK(fr == 0x3bff, "fract(-2^-24) = 0x%04x, want 0x3bff", fr);
    uint16_t v[2] = {0x0400, 0x03ff}, m[2];
    mathfn_run(MF_ISNORMAL, TY_HALF, m, v, NULL, NULL, 2, true);
    CHECK(m[0] == 0xffff && m[1] == 0, "isnormal at half: %04x %04x", m[0],
          m[1]);
    uint16_t code = 0x1ab, nan;
    mathfn_run(MF_QNAN, TY_USHORT, &nan, &code, NULL, NULL, 1, false);
    CHECK(nan == 0x7fab, "nan((ushort)0x1ab) = 0x%04x", nan);
}

/* Conversions from a sixteenth of the halves, every destination, _sat and
 * mode, against the exact reference (exhaustive_half.c: all of them). */
static void conversions(void)
{
    static const enum rnd modes[] = {RND_RTE, RND_RTZ, RND_RTP, RND_RTN};
    uint16_t src[4096];
    unsigned char got[4096 * 8], want[8];
    for (unsigned i = 0; i < 4096; i++)
        src[i] = (uint16_t)(i * 16 + (xorshift() & 15));
    for (int d = 0; d < TY_NSCALAR; d++)
        for (int sat = 0; sat < 2; sat++)
            for (int m = 0; m < 4; m++) {
                enum ty_scalar t = (enum ty_scalar)d;
                if (!cv_legal(t, sat))
                    continue;
                unsigned sz = ty_scalar_size(t);
                cv_lookup(t, TY_HALF, sat, modes[m])(got, src, 4096);
                for (unsigned i = 0; i < 4096; i++) {
                    ref_convert(t, TY_HALF, &src[i], want, sat, modes[m]);
                    CHECK(ref_same(t, TY_HALF, want, got + i * sz),
                          "convert_%s%s_%s(half 0x%04x)", ty_scalar_name(t),
                          sat ? "_sat" : "", rnd_name(modes[m]), src[i]);
                }
            }
}

int main(void)
{
    RUN(operators);
    RUN(functions);
    RUN(steps);
    RUN(conversions);
    mpfr_free_cache();
    return t_summary("fp16");
}
