/* clvm's math library, part 2: exponentials, logarithms, powers, roots,
 * hypot and the hyperbolic functions.
 *
 * Every function computes its result as a double-double v (about 2^-65
 * relative error or better) and an exponent e, and rounds v * 2^e once,
 * to double or to float (clm_fin_d, clm_fin_f): the float and double
 * built-ins share one algorithm, and a float result is correctly rounded
 * unless the exact value lies within about 2^-65 (relative) of a float
 * halfway point.
 *
 * exp: x = n ln2/64 + r (Cody-Waite, ln2/64 in three parts), |r| <=
 * ln2/128; exp(x) = 2^(n/64) exp(r), 2^(j/64) from a table of
 * double-doubles, exp(r) - 1 by its Taylor polynomial to degree 7.
 * log: x = 2^e m, m in [0.703, 1.406], m = (1 + i/128)(1 + r) with
 * |r| < 0.0057, log(1 + i/128) from a table, log1p(r) by its Taylor
 * polynomial to degree 11. */
#include "stdlib/libm.h"
#include "stdlib/libm_int.h"

/* ---- exp ---- */

/* exp(r) - 1 for a dd |r| <= 0.0056 */
static dd expm1_poly(dd r)
{
    dd q = two_prod(r.h, r.h);
    double h = r.h;
    double c = h * q.h *
               (1.0 / 6 + h * (1.0 / 24 + h * (1.0 / 120 + h * (1.0 / 720 +
                                                                h * (1.0 / 5040)))));
    dd p = fast_two_sum(h, 0.5 * q.h);
    p.l += r.l + h * r.l + 0.5 * q.l + c;
    return fast_two_sum(p.h, p.l);
}

/* 2^(n/64) exp(r) = v * 2^k */
static dd exp_kernel(double n, dd r, int *k)
{
    long ni = (long)n;
    unsigned j = (unsigned)((unsigned long)ni & 63);
    *k = (int)((ni - (long)j) / 64);
    dd T = CLM_EXP2_64[j];
    dd p = expm1_poly(r);
    dd m = dd_mul(T, p);
    dd s = fast_two_sum(T.h, m.h);
    s.l += T.l + m.l;
    return fast_two_sum(s.h, s.l);
}

dd clm_exp_core(dd x, int *k)
{
    double n = clm_rint_small(x.h * (64 * 0x1.71547652b82fep0));
    double a = x.h - n * CLM_LN2_64[0]; /* exact */
    dd r = two_sum(a, -n * CLM_LN2_64[1]);
    r.l += x.l - n * CLM_LN2_64[2];
    r = fast_two_sum(r.h, r.l);
    return exp_kernel(n, r, k);
}

static dd exp_k(double x, int *e)
{
    if (x != x)
        return (dd){x, 0};
    if (x > 710)
        return (dd){CLM_INF, 0};
    if (x < -746)
        return (dd){0, 0};
    return clm_exp_core((dd){x, 0}, e);
}

static dd exp2_k(double x, int *e)
{
    if (x != x)
        return (dd){x, 0};
    if (x > 1025)
        return (dd){CLM_INF, 0};
    if (x < -1080)
        return (dd){0, 0};
    double n = clm_rint_small(x * 64);
    double f = (x * 64 - n) * (1.0 / 64); /* exact */
    dd r = two_prod(f, CLM_LN2.h);
    r.l += f * CLM_LN2.l;
    return exp_kernel(n, fast_two_sum(r.h, r.l), e);
}

static dd exp10_k(double x, int *e)
{
    if (x != x)
        return (dd){x, 0};
    if (x > 310)
        return (dd){CLM_INF, 0};
    if (x < -330)
        return (dd){0, 0};
    return clm_exp_core(dd_mul_d(CLM_LN10, x), e);
}

dd clm_expm1_core(double x, int *k)
{
    double n = clm_rint_small(x * (64 * 0x1.71547652b82fep0));
    if (n == 0) {
        *k = 0;
        return expm1_poly((dd){x, 0});
    }
    dd r = two_sum(x - n * CLM_LN2_64[0], -n * CLM_LN2_64[1]);
    r.l -= n * CLM_LN2_64[2];
    dd v = exp_kernel(n, fast_two_sum(r.h, r.l), k);
    if (*k > 1000)
        return v; /* the - 1 is far below v's last bit */
    return dd_add_d(v, -clm_pow2(-*k));
}

static dd expm1_k(double x, int *e)
{
    if (x != x)
        return (dd){x, 0};
    if (x > 710)
        return (dd){CLM_INF, 0};
    if (x < -40)
        return (dd){-1, 0};
    if (clm_fabs(x) < 0x1p-54)
        return (dd){x, 0};
    return clm_expm1_core(x, e);
}

/* ---- log ---- */

dd clm_log_core(dd x, int *e)
{
    int ex = clm_expo(x.h);
    double m = bitsd((dbits(x.h) & ((UINT64_C(1) << 52) - 1)) |
                          UINT64_C(1023) << 52);
    double ml = x.l == 0 ? 0 : x.l * clm_pow2(-ex / 2) * clm_pow2(-ex + ex / 2);
    if (m > 1.40625) {
        m *= 0.5, ml *= 0.5;
        ex++;
    }
    int i = (int)clm_rint_small((m - 1) * 128);
    double c = CLM_LOG_C[i + 38];
    dd p = two_prod(m, c);
    dd r = two_sum(p.h - 1, p.l); /* p.h - 1 is exact */
    r.l += ml * c;
    r = fast_two_sum(r.h, r.l);
    /* log1p(r) */
    double h = r.h;
    dd q = two_prod(h, h);
    double P = 1.0 / 3 +
               h * (-1.0 / 4 +
                    h * (1.0 / 5 +
                         h * (-1.0 / 6 +
                              h * (1.0 / 7 +
                                   h * (-1.0 / 8 +
                                        h * (1.0 / 9 +
                                             h * (-1.0 / 10 + h * (1.0 / 11))))))));
    dd L = fast_two_sum(h, -0.5 * q.h);
    L.l += r.l - h * r.l - 0.5 * q.l + h * q.h * P;
    L = fast_two_sum(L.h, L.l);
    *e = ex;
    return i ? dd_add(CLM_LOG_L[i + 38], L) : L;
}

/* log(x), x > 0 finite (denormals too) */
dd clm_log_dd(double x)
{
    int e, sh = 0;
    if (x < 0x1p-1022) {
        x *= 0x1p64;
        sh = -64;
    }
    dd L = clm_log_core((dd){x, 0}, &e);
    return dd_add(dd_mul_d(CLM_LN2, e + sh), L);
}

/* the special values of log, log2, log10; false when x needs computing */
static bool log_special(double x, dd *v)
{
    if (x != x || x < 0) {
        *v = (dd){CLM_NAN, 0};
        return true;
    }
    if (x == 0) {
        *v = (dd){-CLM_INF, 0};
        return true;
    }
    if (x == CLM_INF) {
        *v = (dd){x, 0};
        return true;
    }
    return false;
}

static dd log_k(double x, int *e)
{
    dd v;
    (void)e;
    if (log_special(x, &v))
        return v;
    return clm_log_dd(x);
}

static dd log2_k(double x, int *e)
{
    dd v;
    (void)e;
    if (log_special(x, &v))
        return v;
    int ex, sh = 0;
    if (x < 0x1p-1022) {
        x *= 0x1p64;
        sh = -64;
    }
    dd L = clm_log_core((dd){x, 0}, &ex);
    return dd_add_d(dd_mul(L, CLM_INVLN2), ex + sh);
}

static dd log10_k(double x, int *e)
{
    dd v;
    (void)e;
    if (log_special(x, &v))
        return v;
    return dd_mul(clm_log_dd(x), CLM_INVLN10);
}

static dd log1p_k(double x, int *e)
{
    (void)e;
    if (x != x || x < -1)
        return (dd){CLM_NAN, 0};
    if (x == -1)
        return (dd){-CLM_INF, 0};
    if (x == CLM_INF || clm_fabs(x) < 0x1p-54)
        return (dd){x, 0};
    dd u = x > 1 ? fast_two_sum(x, 1) : fast_two_sum(1, x);
    int ex;
    dd L = clm_log_core(u, &ex);
    return dd_add(dd_mul_d(CLM_LN2, ex), L);
}

/* ---- pow, powr, pown, rootn, cbrt ---- */

/* 0: not an integer, 1: odd integer, 2: even integer */
static int int_kind(double y)
{
    if (y != y || clm_isinf(y))
        return 0;
    uint64_t b = dbits(y);
    int e = (int)((b >> 52) & 0x7ff) - 1023;
    if (e >= 53)
        return 2;
    if (e < 0)
        return y == 0 ? 2 : 0;
    uint64_t m = (b & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
    int fb = 52 - e;
    if (fb > 0 && (m & ((UINT64_C(1) << fb) - 1)))
        return 0;
    return (m >> fb) & 1 ? 1 : 2;
}

/* |x|^y for finite nonzero x, finite nonzero y; negative when neg */
static dd pow_general(double ax, double y, bool neg, int *e)
{
    dd L = clm_log_dd(ax);
    if (L.h == 0) /* |x| == 1 */
        return (dd){neg ? -1 : 1, 0};
    double th = L.h * y;
    if (th > 800)
        return (dd){neg ? -CLM_INF : CLM_INF, 0};
    if (th < -800)
        return (dd){neg ? -0.0 : 0.0, 0};
    dd t = dd_mul_d(L, y);
    if (t.h > 710)
        return (dd){neg ? -CLM_INF : CLM_INF, 0};
    if (t.h < -746)
        return (dd){neg ? -0.0 : 0.0, 0};
    dd v = clm_exp_core(t, e);
    return neg ? dd_neg(v) : v;
}

static dd pow_k(double x, double y, int *e)
{
    int yk = int_kind(y);
    if (y == 0 || x == 1)
        return (dd){1, 0};
    if (x != x || y != y)
        return (dd){CLM_NAN, 0};
    double ax = clm_fabs(x);
    bool xneg = clm_sign(x);
    if (x == 0) {
        if (y < 0)
            return (dd){yk == 1 ? clm_copysign(CLM_INF, x) : CLM_INF, 0};
        return (dd){yk == 1 ? x : 0, 0};
    }
    if (clm_isinf(y)) {
        if (ax == 1)
            return (dd){1, 0};
        return (dd){(ax < 1) == (y < 0) ? CLM_INF : 0, 0};
    }
    if (clm_isinf(x)) {
        bool odd = xneg && yk == 1;
        if (y < 0)
            return (dd){odd ? -0.0 : 0.0, 0};
        return (dd){odd ? -CLM_INF : CLM_INF, 0};
    }
    if (xneg && yk == 0)
        return (dd){CLM_NAN, 0};
    bool neg = xneg && yk == 1;
    /* exact products, where the general way might miss a halfway case */
    if (y == 2 && ax > 0x1p-400 && ax < 0x1p400)
        return two_prod(x, x);
    if (y == 3 && ax > 0x1p-300 && ax < 0x1p300 &&
        ((dbits(x) & ((UINT64_C(1) << 29) - 1)) == 0)) {
        /* x has at most 24 bits (a float): x*x is exact, times x a dd */
        return dd_mul_d(two_prod(x, x), x);
    }
    return pow_general(ax, y, neg, e);
}

static dd powr_k(double x, double y, int *e)
{
    if (x != x || y != y || x < 0)
        return (dd){CLM_NAN, 0};
    if (x == 0) {
        if (y == 0)
            return (dd){CLM_NAN, 0};
        return (dd){y < 0 ? CLM_INF : 0, 0};
    }
    if (clm_isinf(x)) {
        if (y == 0)
            return (dd){CLM_NAN, 0};
        return (dd){y < 0 ? 0 : CLM_INF, 0};
    }
    if (x == 1)
        return (dd){clm_isinf(y) ? CLM_NAN : 1, 0};
    return pow_k(x, y, e);
}

/* x^(1/n) */
static dd rootn_k(double x, int n, int *e)
{
    if (x != x || n == 0)
        return (dd){CLM_NAN, 0};
    bool odd = n % 2 != 0;
    if (clm_sign(x) && !odd && x != 0)
        return (dd){CLM_NAN, 0};
    if (x == 0) {
        if (n < 0)
            return (dd){odd ? clm_copysign(CLM_INF, x) : CLM_INF, 0};
        return (dd){odd ? x : 0, 0};
    }
    if (clm_isinf(x)) {
        if (n < 0)
            return (dd){odd ? clm_copysign(0, x) : 0, 0};
        return (dd){x, 0};
    }
    if (n == 1)
        return (dd){x, 0};
    dd L = clm_log_dd(clm_fabs(x));
    dd t = dd_div_d(L, n);
    dd v = clm_exp_core(t, e);
    return clm_sign(x) ? dd_neg(v) : v;
}

static dd cbrt_k(double x, int *e)
{
    if (x != x || x == 0 || clm_isinf(x))
        return (dd){x, 0};
    return rootn_k(x, 3, e);
}

double clvm_pown(double x, int n) { int e = 0; dd v = pow_k(x, n, &e); return clm_fin_d(v, e); }
float clvm_pownf(float x, int n) { int e = 0; dd v = pow_k(x, n, &e); return clm_fin_f(v, e); }
double clvm_rootn(double x, int n) { int e = 0; dd v = rootn_k(x, n, &e); return clm_fin_d(v, e); }
float clvm_rootnf(float x, int n) { int e = 0; dd v = rootn_k(x, n, &e); return clm_fin_f(v, e); }

/* ---- hypot ---- */

static dd hypot_k(double x, double y, int *e)
{
    if (clm_isinf(x) || clm_isinf(y))
        return (dd){CLM_INF, 0};
    if (x != x || y != y)
        return (dd){CLM_NAN, 0};
    double a = clm_fabs(x), b = clm_fabs(y);
    if (a < b) {
        double t = a;
        a = b, b = t;
    }
    if (b == 0)
        return (dd){a, 0};
    int ea, eb;
    clvm_frexp(a, &ea);
    clvm_frexp(b, &eb);
    if (ea - eb > 60)
        return (dd){a, 0}; /* a (1 + tiny): rounds to a */
    /* scale: a in [0.5, 1), b >= 2^-61 */
    a = clvm_ldexp(a, -ea), b = clvm_ldexp(b, -ea);
    dd s = dd_add(two_prod(a, a), two_prod(b, b));
    *e = ea;
    return clm_dd_sqrt(s);
}

/* ---- hyperbolic ---- */

static dd sinh_k(double x, int *e)
{
    double a = clm_fabs(x);
    if (x != x || clm_isinf(x) || a < 0x1p-28)
        return (dd){x, 0};
    if (a > 711)
        return (dd){clm_copysign(CLM_INF, x), 0};
    dd v;
    if (a < 1) {
        /* (E + E / (E + 1)) / 2, E = expm1(a) */
        int k;
        dd E = clm_expm1_core(a, &k);
        E = dd_scale(E, k);
        v = dd_add(E, dd_div(E, dd_add_d(E, 1)));
        *e = -1;
    } else {
        int k;
        dd E = clm_exp_core((dd){a, 0}, &k);
        if (k < 60)
            v = dd_sub(E, dd_scale(dd_recip(E), -2 * k));
        else
            v = E;
        *e = k - 1;
    }
    return clm_sign(x) ? dd_neg(v) : v;
}

static dd cosh_k(double x, int *e)
{
    double a = clm_fabs(x);
    if (x != x)
        return (dd){x, 0};
    if (a > 711)
        return (dd){CLM_INF, 0};
    if (a < 0x1p-28)
        return (dd){1, 0};
    int k;
    dd E = clm_exp_core((dd){a, 0}, &k);
    dd v = k < 60 ? dd_add(E, dd_scale(dd_recip(E), -2 * k)) : E;
    *e = k - 1;
    return v;
}

static dd tanh_k(double x, int *e)
{
    double a = clm_fabs(x);
    (void)e;
    if (x != x || a < 0x1p-28)
        return (dd){x, 0};
    if (a > 40)
        return (dd){clm_copysign(1, x), 0};
    int k;
    dd E = clm_expm1_core(2 * a, &k);
    E = dd_scale(E, k);
    dd v = dd_div(E, dd_add_d(E, 2));
    return clm_sign(x) ? dd_neg(v) : v;
}

static dd asinh_k(double x, int *e)
{
    double a = clm_fabs(x);
    (void)e;
    if (x != x || clm_isinf(x) || a < 0x1p-28)
        return (dd){x, 0};
    dd v;
    if (a > 0x1p500) {
        v = dd_add(clm_log_dd(a), CLM_LN2);
    } else {
        dd s = a < 0x1p-400 ? (dd){1, 0} : dd_add_d(two_prod(a, a), 1);
        dd arg = dd_add_d(clm_dd_sqrt(s), a);
        int ex;
        dd L = clm_log_core(arg, &ex);
        v = dd_add(dd_mul_d(CLM_LN2, ex), L);
    }
    return clm_sign(x) ? dd_neg(v) : v;
}

static dd acosh_k(double x, int *e)
{
    (void)e;
    if (x != x || x < 1)
        return (dd){CLM_NAN, 0};
    if (x == 1)
        return (dd){0, 0};
    if (clm_isinf(x))
        return (dd){x, 0};
    if (x > 0x1p500)
        return dd_add(clm_log_dd(x), CLM_LN2);
    dd xm = two_sum(x, -1), xp = two_sum(x, 1);
    dd arg = dd_add_d(clm_dd_sqrt(dd_mul(xm, xp)), x);
    int ex;
    dd L = clm_log_core(arg, &ex);
    return dd_add(dd_mul_d(CLM_LN2, ex), L);
}

static dd atanh_k(double x, int *e)
{
    double a = clm_fabs(x);
    (void)e;
    if (x != x || a > 1)
        return (dd){CLM_NAN, 0};
    if (a == 1)
        return (dd){clm_copysign(CLM_INF, x), 0};
    if (a < 0x1p-28)
        return (dd){x, 0};
    dd q = dd_div(two_sum(1, a), two_sum(1, -a));
    int ex;
    dd L = clm_log_core(q, &ex);
    dd v = dd_scale(dd_add(dd_mul_d(CLM_LN2, ex), L), -1);
    return clm_sign(x) ? dd_neg(v) : v;
}

WRAP1F(exp)
WRAP1F(exp2)
WRAP1(exp10)
WRAP1(expm1)
WRAP1F(log)
WRAP1F(log2)
WRAP1(log10)
WRAP1F(log1p)
WRAP1F(cbrt)
WRAP1(sinh)
WRAP1(cosh)
WRAP1F(tanh)
WRAP1(asinh)
WRAP1(acosh)
WRAP1(atanh)
WRAP2F(pow)
WRAP2(powr)
WRAP2F(hypot)
