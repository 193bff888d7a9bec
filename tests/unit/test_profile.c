/* The profiles: names, each rule of docs/semantics.md's profile table on
 * hand-picked operands, integer division per profile, and that every
 * (profile, case) has a description. Expected bits are written out. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stdlib/profile.h"
#include "tests/lib/test.h"

static uint64_t cv(enum prof_id p, enum ty_scalar d, enum ty_scalar s,
                   double x, bool sat, enum rnd r, int *notes)
{
    uint8_t in[8];
    float f = (float)x;
    if (s == TY_FLOAT)
        memcpy(in, &f, 4);
    else
        memcpy(in, &x, 8);
    uint64_t out = 0;
    *notes = prof_cv_scalar(p, d, s, &out, in, sat, r);
    return out & (~UINT64_C(0) >> (64 - 8 * ty_scalar_size(d)));
}

#define CV(p, d, s, x, sat, r, want)                                        \
    do {                                                                    \
        int n_;                                                             \
        uint64_t g_ = cv(p, d, s, x, sat, r, &n_);                          \
        CHECK(g_ == (uint64_t)(want) && n_ > 0, "%s %s<-%s %g: 0x%llx, "   \
              "want 0x%llx (notes %d)", prof_name(p), ty_scalar_name(d),   \
              ty_scalar_name(s), (double)(x), (unsigned long long)g_,       \
              (unsigned long long)(want), n_);                              \
    } while (0)

static void test_names(void)
{
    for (int p = 0; p < PROF_COUNT; p++) {
        CHECK(prof_parse(prof_name(p)) == p, "%d", p);
        for (int id = 0; id < NOTE_COUNT; id++)
            CHECK(*prof_what(p, id), "%d %d", p, id);
    }
    CHECK(prof_parse("nvidia") == PROF_NVIDIA, "nvidia");
    CHECK(prof_parse("amd") == -1, "unknown");
}

static void test_nvidia(void)
{
    const enum prof_id N = PROF_NVIDIA;
    CV(N, TY_INT, TY_FLOAT, 3e10, false, RND_RTZ, 0x7fffffff);
    CV(N, TY_INT, TY_FLOAT, -INFINITY, false, RND_RTZ, 0x80000000u);
    CV(N, TY_INT, TY_FLOAT, NAN, false, RND_RTZ, 0);
    CV(N, TY_UCHAR, TY_FLOAT, NAN, true, RND_RTZ, 0);
    CV(N, TY_LONG, TY_FLOAT, NAN, false, RND_RTZ, UINT64_C(1) << 63);
    CV(N, TY_ULONG, TY_FLOAT, NAN, true, RND_RTZ, UINT64_C(1) << 63);
    CV(N, TY_UCHAR, TY_DOUBLE, NAN, true, RND_RTZ, 0x80);
    CV(N, TY_SHORT, TY_DOUBLE, NAN, false, RND_RTE, 0x8000);
    CV(N, TY_UINT, TY_DOUBLE, NAN, false, RND_RTZ, 0x80000000u);
}

static void test_pocl(void)
{
    const enum prof_id P = PROF_POCL;
    CV(P, TY_INT, TY_FLOAT, 3e10, false, RND_RTZ, 0x80000000u);
    CV(P, TY_INT, TY_FLOAT, NAN, false, RND_RTZ, 0x80000000u);
    CV(P, TY_UINT, TY_FLOAT, -1.5, false, RND_RTZ, 0xffffffffu);
    CV(P, TY_ULONG, TY_DOUBLE, INFINITY, false, RND_RTZ, ~UINT64_C(0));
    CV(P, TY_LONG, TY_DOUBLE, 1e20, false, RND_RTZ, UINT64_C(1) << 63);
    CV(P, TY_CHAR, TY_FLOAT, 300.5, false, RND_RTZ, 0x2c);
    CV(P, TY_CHAR, TY_FLOAT, 127.5, false, RND_RTE, 0x80);
    CV(P, TY_UCHAR, TY_DOUBLE, 3e10, false, RND_RTZ, 0);
    CV(P, TY_SHORT, TY_DOUBLE, 70000, false, RND_RTE, 0x7fff);
    CV(P, TY_SHORT, TY_DOUBLE, 70000, false, RND_RTZ, 0x1170);
    CV(P, TY_USHORT, TY_DOUBLE, -70000, false, RND_RTN, 0);
    CV(P, TY_SHORT, TY_DOUBLE, NAN, false, RND_RTP, 0x8000);
    CV(P, TY_INT, TY_FLOAT, NAN, true, RND_RTZ, 0); /* _sat: as clvm */
    /* narrowing wraps, every width (tests/pocl: pocl narrow) */
    int32_t i300 = 300, i32 = 0;
    uint32_t big = 0x80000000u;
    int64_t l = INT64_C(0x123456789);
    int8_t c8 = 0;
    CHECK(prof_cv_scalar(P, TY_CHAR, TY_INT, &c8, &i300, false, RND_RTZ) ==
          NOTE_NARROW && c8 == 0x2c, "pocl convert_char(300) %d", c8);
    CHECK(prof_cv_scalar(P, TY_INT, TY_UINT, &i32, &big, false, RND_RTZ) ==
          NOTE_NARROW && i32 == INT32_MIN, "pocl convert_int(0x80000000u)");
    CHECK(prof_cv_scalar(P, TY_INT, TY_LONG, &i32, &l, false, RND_RTZ) ==
          NOTE_NARROW && i32 == 0x23456789, "pocl convert_int(long) %d",
          i32);
}

static void test_clvm_strict(void)
{
    for (int p = PROF_CLVM; p <= PROF_STRICT; p++) {
        CV(p, TY_INT, TY_FLOAT, 3e10, false, RND_RTZ, 0x7fffffff);
        CV(p, TY_UINT, TY_FLOAT, -1.5, false, RND_RTZ, 0);
        CV(p, TY_LONG, TY_DOUBLE, NAN, false, RND_RTZ, 0);
    }
    int n;
    uint64_t out = 0;
    float one = 1.5f;
    CHECK(prof_cv_scalar(PROF_POCL, TY_INT, TY_FLOAT, &out, &one, false,
                         RND_RTZ) == 0 && out == 1, "defined");
    CHECK(prof_cv_scalar(PROF_POCL, TY_FLOAT, TY_INT, &out, &one, true,
                         RND_RTZ) == -1, "illegal");
    (void)n;
}

static void test_divrem(void)
{
    int32_t a = 7, z = 0, mn = INT32_MIN, m1 = -1, d;
    int8_t c = INT8_MIN, cm1 = -1, cd;
    CHECK(prof_divrem(PROF_CLVM, TY_INT, false, &d, &a, &z) == NOTE_DIV_ZERO
          && d == 0, "clvm 7/0 %d", d);
    CHECK(prof_divrem(PROF_CLVM, TY_INT, true, &d, &a, &z) == NOTE_DIV_ZERO
          && d == 7, "clvm 7%%0 %d", d);
    CHECK(prof_divrem(PROF_POCL, TY_INT, false, &d, &a, &z) == NOTE_DIV_ZERO
          && d == 7, "pocl 7/0 %d", d);
    CHECK(prof_divrem(PROF_POCL, TY_INT, true, &d, &a, &z) == NOTE_DIV_ZERO
          && d == 0, "pocl 7%%0 %d", d);
    CHECK(prof_divrem(PROF_CLVM, TY_INT, false, &d, &mn, &m1) == NOTE_DIV_MIN
          && d == INT32_MIN, "MIN/-1 %d", d);
    CHECK(prof_divrem(PROF_POCL, TY_INT, true, &d, &mn, &m1) == NOTE_DIV_MIN
          && d == -1, "pocl MIN%%-1 %d", d);
    CHECK(prof_divrem(PROF_POCL, TY_CHAR, true, &cd, &c, &cm1) ==
          NOTE_DIV_MIN && cd == 0, "pocl char MIN%%-1 %d", cd);
    int32_t x = -7, y = 2;
    CHECK(prof_divrem(PROF_POCL, TY_INT, false, &d, &x, &y) == 0 && d == -3,
          "-7/2 %d", d);
    CHECK(prof_divrem(PROF_POCL, TY_INT, true, &d, &x, &y) == 0 && d == -1,
          "-7%%2 %d", d);
    CHECK(prof_divrem(PROF_CLVM, TY_FLOAT, false, &d, &x, &y) == -1, "float");
}

/* Signed overflow: detected at each width's bounds, wrapped by every
 * profile; unsigned types are not prof_arith's. */
static void test_arith(void)
{
    static const enum ty_scalar ts[] = {TY_CHAR, TY_SHORT, TY_INT, TY_LONG};
    for (unsigned i = 0; i < 4; i++) {
        enum ty_scalar t = ts[i];
        unsigned bits = 8 * ty_scalar_size(t);
        uint64_t m = ~UINT64_C(0) >> (64 - bits), mn = UINT64_C(1) << (bits - 1),
                 mx = mn - 1, one = 1, neg1 = m, two = 2, d, half = mn >> 1;
        struct {
            enum prof_arith op;
            uint64_t a, b, want;
            int note;
        } c[] = {
            {PA_ADD, mx, one, mn, NOTE_OVERFLOW},
            {PA_ADD, mx, neg1, mx - 1, 0},
            {PA_ADD, mn, neg1, mx, NOTE_OVERFLOW},
            {PA_SUB, mn, one, mx, NOTE_OVERFLOW},
            {PA_SUB, 0, mn, mn, NOTE_OVERFLOW},
            {PA_SUB, neg1, mn, mx, 0},
            {PA_MUL, mn, neg1, mn, NOTE_OVERFLOW},
            {PA_MUL, half, two, mn, NOTE_OVERFLOW},
            {PA_MUL, (0 - half) & m, two, mn, 0},
            {PA_MUL, mn, one, mn, 0},
            {PA_MUL, mn, 0, 0, 0},
            {PA_NEG, mn, 0, mn, NOTE_OVERFLOW},
            {PA_NEG, mx, 0, mn + 1, 0},
        };
        for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++)
            for (int p = 0; p < PROF_COUNT; p++) {
                d = 0;
                int n = prof_arith((enum prof_id)p, t, c[k].op, &d, &c[k].a,
                                   &c[k].b);
                CHECK(n == c[k].note && (d & m) == c[k].want,
                      "%s %s case %u: 0x%llx note %d", prof_name(p),
                      ty_scalar_name(t), k, (unsigned long long)d, n);
            }
    }
    uint32_t u = 0xffffffffu, v = 1, d;
    CHECK(prof_arith(PROF_CLVM, TY_UINT, PA_ADD, &d, &u, &v) == -1, "uint");
}

/* Contraction: a = b = 1 + 2^-12, c = -(1 + 2^-11); a * b + c is 2^-24
 * fused, 0 rounded twice (docs/opencl-c.md's table), in float and in
 * double (a = b = 1 + 2^-27, c = -(1 + 2^-26): 2^-54 fused). */
static void test_muladd(void)
{
    static const bool fused[PROF_COUNT][3] = {   /* EXPR, MAD, STMT */
        [PROF_POCL] = {true, false, false},
        [PROF_NVIDIA] = {true, true, true}};
    float a = 1 + 0x1p-12f, c = -(1 + 0x1p-11f), d;
    double ad = 1 + 0x1p-27, cd = -(1 + 0x1p-26), dd;
    for (int p = 0; p < PROF_COUNT; p++)
        for (int k = PF_EXPR; k <= PF_STMT; k++) {
            int n = prof_muladd(p, k, TY_FLOAT, &d, &a, &a, &c);
            CHECK(n == NOTE_CONTRACT && d == (fused[p][k] ? 0x1p-24f : 0),
                  "%s shape %d: %a (notes %d)", prof_name(p), k, d, n);
            CHECK(prof_fuses(p, k) == fused[p][k], "%s %d", prof_name(p), k);
            n = prof_muladd(p, k, TY_DOUBLE, &dd, &ad, &ad, &cd);
            CHECK(n == NOTE_CONTRACT && dd == (fused[p][k] ? 0x1p-54 : 0),
                  "%s shape %d double: %a", prof_name(p), k, dd);
        }
    float one = 1, two = 2;   /* exact: no case */
    CHECK(prof_muladd(PROF_NVIDIA, PF_EXPR, TY_FLOAT, &d, &one, &two, &one)
          == 0 && d == 3, "exact");
    float nan = NAN;          /* NaN either way: no case */
    CHECK(prof_muladd(PROF_POCL, PF_EXPR, TY_FLOAT, &d, &nan, &two, &one)
          == 0 && d != d, "nan");
    CHECK(prof_muladd(PROF_POCL, PF_EXPR, TY_INT, &d, &one, &two, &one) == -1,
          "int");
}

int main(void)
{
    RUN(test_muladd);
    RUN(test_names);
    RUN(test_nvidia);
    RUN(test_pocl);
    RUN(test_clvm_strict);
    RUN(test_divrem);
    RUN(test_arith);
    return t_summary("test_profile");
}
