/* clvm's math library, part 3: the trigonometric functions and their
 * inverses, in radians and in half-turns (sinpi, ..., atan2pi).
 *
 * Reduction: x = q pi/2 + r, |r| <= pi/4. Below 2^20 by Cody-Waite with
 * pi/2 in four parts (three of 32 bits, so k * part is exact; 149 bits in
 * all); above, by Payne-Hanek: the 192 bits of 2/pi that matter for x's
 * exponent, multiplied by x's significand in integers, leave q mod 4 and
 * a fraction of at least 120 significant bits. The *pi functions reduce
 * exactly (x - n/2 is exact) and multiply by pi as a double-double.
 * Kernels: r = j/64 + t, |t| <= 1/128; sin and cos of j/64 from a table of
 * double-doubles, sin t and cos t - 1 by Taylor polynomials.
 * atan: t = j/64 + ..., atan t = atan(j/64) + atan((t - c)/(1 + tc)). */
#include "stdlib/libm.h"
#include "stdlib/libm_int.h"

/* ---- reduction ---- */

static uint64_t mulhi64(uint64_t a, uint64_t b, uint64_t *lo)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32;
    uint64_t bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    *lo = (mid << 32) | (ll & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* |x| >= 2^20, finite: q mod 4 and r for |x| */
static int payne_hanek(double a, dd *r)
{
    uint64_t b = dbits(a);
    int E = (int)((b >> 52) & 0x7ff) - 1075;
    uint64_t M = (b & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
    /* bits b_(E-1) ... of 2/pi: bit b_i sits at p = i + 63 of the table */
    int p0 = E + 62, w = p0 >> 6, s = p0 & 63;
    uint64_t W[3];
    for (int k = 0; k < 3; k++)
        W[k] = s ? CLM_2_OVER_PI[w + k] << s | CLM_2_OVER_PI[w + k + 1] >> (64 - s)
                 : CLM_2_OVER_PI[w + k];
    /* the low 192 bits of M * W: x * 2/pi mod 4, scaled by 2^190 */
    uint64_t l2, l1, l0;
    uint64_t h2 = mulhi64(M, W[2], &l2);
    uint64_t h1 = mulhi64(M, W[1], &l1);
    mulhi64(M, W[0], &l0);
    uint64_t R[3];
    R[2] = l2;
    R[1] = l1 + h2;
    R[0] = l0 + h1 + (R[1] < l1);
    int q = (int)(R[0] >> 62);
    R[0] &= (UINT64_C(1) << 62) - 1;
    bool neg = false;
    if (R[0] >> 61) {
        /* fraction >= 1/2: take fraction - 1, negated: 2^190 - F */
        q = (q + 1) & 3;
        neg = true;
        R[2] = ~R[2] + 1;
        R[1] = ~R[1] + (R[2] == 0);
        R[0] = (~R[0] + (R[2] == 0 && R[1] == 0)) & ((UINT64_C(1) << 62) - 1);
    }
    /* normalise the 190-bit fraction so its top bit is bit 191 */
    int lz = 0; /* the left shift so far */
    while (R[0] == 0 && lz < 190) {
        R[0] = R[1], R[1] = R[2], R[2] = 0;
        lz += 64;
    }
    if (R[0] == 0) {
        *r = (dd){0, 0};
        return q;
    }
    int t = 0;
    while (!(R[0] >> 63))
        R[0] <<= 1, t++;
    if (t) {
        R[0] |= R[1] >> (64 - t);
        R[1] = R[1] << t | R[2] >> (64 - t);
    }
    lz += t;
    /* the fraction is R * 2^(-190 - lz): its bits 191..139 and 138..86
     * as two doubles, exactly */
    double hi = (double)(R[0] >> 11) * clm_pow2(-51 - lz);
    uint64_t nx = (R[0] & 0x7ff) << 42 | R[1] >> 22;
    double lo = (double)nx * clm_pow2(-104 - lz);
    dd f = fast_two_sum(hi, lo);
    dd res = dd_mul(f, CLM_PIO2);
    *r = neg ? dd_neg(res) : res;
    return q;
}

int clm_rem_pio2(double x, dd *r)
{
    double a = clm_fabs(x);
    if (a <= 0x1.921fb54442d18p-1) {
        *r = (dd){x, 0};
        return 0;
    }
    if (a < 0x1p20) {
        double k = clm_rint_small(x * 0x1.45f306dc9c883p-1);
        dd s = two_sum(x - k * CLM_PIO2_4[0], -k * CLM_PIO2_4[1]);
        s = dd_add_d(s, -k * CLM_PIO2_4[2]);
        s.l -= k * CLM_PIO2_4[3];
        *r = fast_two_sum(s.h, s.l);
        long kl = (long)k;
        return (int)(((kl % 4) + 4) % 4);
    }
    int q = payne_hanek(a, r);
    if (clm_sign(x)) {
        *r = dd_neg(*r);
        q = (4 - q) & 3;
    }
    return q;
}

/* ---- kernels ---- */

static void sincos_k(dd r, dd *sn, dd *cs)
{
    double j = clm_rint_small(r.h * 64);
    int ji = (int)j;
    int ja = ji < 0 ? -ji : ji;
    dd t = fast_two_sum(r.h - j * (1.0 / 64), r.l);
    double th = t.h;
    dd q = two_prod(th, th);
    double z = q.h;
    double ps = th * z *
                (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880))));
    dd st = fast_two_sum(th, t.l + ps);
    double pc = z * z *
                (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800))));
    dd cm = fast_two_sum(-0.5 * z, -0.5 * q.l - th * t.l + pc);
    if (ja == 0) {
        *sn = st;
        *cs = dd_add_d(cm, 1);
        return;
    }
    dd S = CLM_SIN_64[ja], C = CLM_COS_64[ja];
    if (ji < 0)
        S = dd_neg(S);
    *sn = dd_add(S, dd_add(dd_mul(C, st), dd_mul(S, cm)));
    *cs = dd_add(C, dd_sub(dd_mul(C, cm), dd_mul(S, st)));
}

dd clm_sin_k(dd r)
{
    dd s, c;
    sincos_k(r, &s, &c);
    return s;
}
dd clm_cos_k(dd r)
{
    dd s, c;
    sincos_k(r, &s, &c);
    return c;
}

/* sin, cos or tan of q pi/2 + r: which 0, 1, 2 */
static dd trig_q(int q, dd r, int which)
{
    dd s, c;
    sincos_k(r, &s, &c);
    switch (which) {
    case 0:
        switch (q) {
        case 0: return s;
        case 1: return c;
        case 2: return dd_neg(s);
        default: return dd_neg(c);
        }
    case 1:
        switch (q) {
        case 0: return c;
        case 1: return dd_neg(s);
        case 2: return dd_neg(c);
        default: return s;
        }
    default:
        return q & 1 ? dd_neg(dd_div(c, s)) : dd_div(s, c);
    }
}

static dd trig(double x, int which)
{
    if (x != x || clm_isinf(x))
        return (dd){CLM_NAN, 0};
    if (clm_fabs(x) < 0x1p-27)
        return (dd){which == 1 ? 1 : x, 0};
    dd r;
    int q = clm_rem_pio2(x, &r);
    return trig_q(q, r, which);
}

static dd sin_k(double x, int *e) { (void)e; return trig(x, 0); }
static dd cos_k(double x, int *e) { (void)e; return trig(x, 1); }
static dd tan_k(double x, int *e) { (void)e; return trig(x, 2); }

void clvm_sincos(double x, double *s, double *c)
{
    *s = clm_fin_d(trig(x, 0), 0);
    *c = clm_fin_d(trig(x, 1), 0);
}
void clvm_sincosf(float x, float *s, float *c)
{
    *s = clm_fin_f(trig(x, 0), 0);
    *c = clm_fin_f(trig(x, 1), 0);
}

/* sinpi, cospi, tanpi: x = n/2 + f exactly, |f| <= 1/4 */
static dd trigpi(double x, int which, int *e)
{
    if (x != x || clm_isinf(x))
        return (dd){CLM_NAN, 0};
    double a = clm_fabs(x);
    if (a < 0x1p-800) {
        if (which == 1)
            return (dd){1, 0};
        if (x == 0)
            return (dd){x, 0};
        *e = -200;
        return dd_mul_d(CLM_PI, x * 0x1p200);
    }
    double f = 0;
    int q = 0; /* n mod 4, where x = n/2 + f */
    if (a < 0x1p54) {
        /* below 2^52, x - n/2 is exact; above, x is an integer */
        double n = a < 0x1p52 ? clvm_rint(2 * x) : 2 * x;
        f = x - 0.5 * n;
        double n4 = n * 0.25;
        q = (int)(4 * (n4 - clvm_floor(n4)));
    }
    if (f == 0) {
        /* exact zeros, ones and infinities, signed as OpenCL says */
        switch (which) {
        case 0:
            if (q & 1)
                return (dd){q == 1 ? 1 : -1, 0};
            return (dd){clm_copysign(0, x), 0};
        case 1:
            if (q & 1)
                return (dd){0, 0};
            return (dd){q == 0 ? 1 : -1, 0};
        default:
            if (q & 1) /* n + 0.5 with n even (q == 1) or odd */
                return (dd){q == 1 ? CLM_INF : -CLM_INF, 0};
            /* an integer m = n/2: even m gives copysign(0, m), odd m
             * copysign(0, -m) */
            return (dd){clm_copysign(0, q == 0 ? x : -x), 0};
        }
    }
    dd r = dd_mul_d(CLM_PI, f);
    return trig_q(q, r, which);
}

static dd sinpi_k(double x, int *e) { return trigpi(x, 0, e); }
static dd cospi_k(double x, int *e) { return trigpi(x, 1, e); }
static dd tanpi_k(double x, int *e) { return trigpi(x, 2, e); }
dd clm_sinpi_dd(double x)
{
    int e = 0;
    return trigpi(x, 0, &e);
}

/* ---- inverse ---- */

dd clm_atan_k(dd t)
{
    double j = clm_rint_small(t.h * 64);
    int ji = (int)j;
    dd u;
    if (ji == 0) {
        u = t;
    } else {
        double c = j * (1.0 / 64);
        dd num = fast_two_sum(t.h - c, t.l); /* t.h - c exact */
        dd p = two_prod(t.h, c);
        p.l += t.l * c;
        dd den = dd_add_d(p, 1);
        u = dd_div(num, den);
    }
    double h = u.h, z = h * h;
    double P = z * h *
               (-1.0 / 3 +
                z * (1.0 / 5 +
                     z * (-1.0 / 7 + z * (1.0 / 9 + z * (-1.0 / 11 + z * (1.0 / 13))))));
    dd at = fast_two_sum(h, u.l + P);
    return ji ? dd_add(CLM_ATAN_64[ji], at) : at;
}

dd clm_atan2_k(dd y, dd x)
{
    if (y.h <= x.h)
        return clm_atan_k(dd_div(y, x));
    return dd_sub(CLM_PIO2, clm_atan_k(dd_div(x, y)));
}

/* atan2 for finite or infinite y, x (no NaN), as a dd times 2^e; pi:
 * whether to give it in half-turns */
static dd atan2_any(double y, double x, bool pi, int *e)
{
    const dd PI = pi ? (dd){1, 0} : CLM_PI;
    const dd PIO2 = pi ? (dd){0.5, 0} : CLM_PIO2;
    bool ny = clm_sign(y), nx = clm_sign(x);
    dd v;
    if (y == 0) {
        v = nx ? PI : (dd){0, 0};
        return ny ? dd_neg(v) : v;
    }
    if (x == 0) {
        return ny ? dd_neg(PIO2) : PIO2;
    }
    if (clm_isinf(y)) {
        if (clm_isinf(x))
            v = nx ? dd_mul_d(PI, 0.75) : dd_mul_d(PI, 0.25);
        else
            v = PIO2;
        return ny ? dd_neg(v) : v;
    }
    if (clm_isinf(x)) {
        v = nx ? PI : (dd){0, 0};
        return ny ? dd_neg(v) : v;
    }
    double ay = clm_fabs(y), ax = clm_fabs(x);
    int ey, ex;
    double my = clvm_frexp(ay, &ey), mx = clvm_frexp(ax, &ex);
    int d = ey - ex;
    if (d < -60) {
        /* |y/x| < 2^-59: atan2 = y/x (1 - tiny), or pi - that */
        dd q = dd_div((dd){my, 0}, (dd){mx, 0});
        if (!nx) {
            if (pi)
                q = dd_mul(q, CLM_INVPI);
            *e = d;
            return ny ? dd_neg(q) : q;
        }
        v = PI; /* pi - tiny rounds to pi's dd (error < 2^-59 ulp) */
        v = dd_sub(v, dd_scale(pi ? dd_mul(q, CLM_INVPI) : q,
                               d < -900 ? -900 : d));
        return ny ? dd_neg(v) : v;
    }
    if (d > 60) {
        v = PIO2;
        return ny ? dd_neg(v) : v;
    }
    /* scale both so y' = my * 2^d, x' = mx */
    dd Y = {my * clm_pow2(d), 0}, X = {mx, 0};
    v = clm_atan2_k(Y, X);
    if (nx)
        v = dd_sub(CLM_PI, v);
    if (pi)
        v = dd_mul(v, CLM_INVPI);
    return ny ? dd_neg(v) : v;
}

static dd atan2_k(double y, double x, int *e)
{
    if (x != x || y != y)
        return (dd){CLM_NAN, 0};
    return atan2_any(y, x, false, e);
}
static dd atan2pi_k(double y, double x, int *e)
{
    if (x != x || y != y)
        return (dd){CLM_NAN, 0};
    return atan2_any(y, x, true, e);
}

static dd atan_k(double x, int *e)
{
    if (x != x)
        return (dd){x, 0};
    if (clm_fabs(x) < 0x1p-28)
        return (dd){x, 0};
    return atan2_any(x, 1, false, e);
}
static dd atanpi_k(double x, int *e)
{
    if (x != x)
        return (dd){x, 0};
    if (x == 0)
        return (dd){x, 0};
    if (clm_fabs(x) < 0x1p-800) {
        *e = -200;
        return dd_mul_d(CLM_INVPI, x * 0x1p200);
    }
    return atan2_any(x, 1, true, e);
}

/* asin, acos (pi: in half-turns) with s = sqrt((1 - x)(1 + x)) */
static dd asin_any(double x, bool pi, int *e)
{
    double a = clm_fabs(x);
    if (x != x || a > 1)
        return (dd){CLM_NAN, 0};
    if (x == 0)
        return (dd){x, 0};
    if (a < 0x1p-800) {
        if (!pi)
            return (dd){x, 0};
        *e = -200;
        return dd_mul_d(CLM_INVPI, x * 0x1p200);
    }
    if (!pi && a < 0x1p-28)
        return (dd){x, 0};
    dd s = clm_dd_sqrt(dd_mul(two_sum(1, -a), two_sum(1, a)));
    dd v = s.h == 0 ? CLM_PIO2 : clm_atan2_k((dd){a, 0}, s);
    if (pi)
        v = dd_mul(v, CLM_INVPI);
    return clm_sign(x) ? dd_neg(v) : v;
}

static dd acos_any(double x, bool pi)
{
    double a = clm_fabs(x);
    if (x != x || a > 1)
        return (dd){CLM_NAN, 0};
    if (x == 1)
        return (dd){0, 0};
    dd v;
    if (x == -1) {
        v = CLM_PI;
    } else if (x == 0) {
        v = CLM_PIO2;
    } else {
        dd s = clm_dd_sqrt(dd_mul(two_sum(1, -a), two_sum(1, a)));
        v = clm_atan2_k(s, (dd){a, 0});
        if (clm_sign(x))
            v = dd_sub(CLM_PI, v);
    }
    return pi ? dd_mul(v, CLM_INVPI) : v;
}

static dd asin_k(double x, int *e) { return asin_any(x, false, e); }
static dd asinpi_k(double x, int *e) { return asin_any(x, true, e); }
static dd acos_k(double x, int *e) { (void)e; return acos_any(x, false); }
static dd acospi_k(double x, int *e) { (void)e; return acos_any(x, true); }

WRAP1F(sin)
WRAP1F(cos)
WRAP1F(tan)
WRAP1(sinpi)
WRAP1(cospi)
WRAP1(tanpi)
WRAP1(asin)
WRAP1(acos)
WRAP1F(atan)
WRAP1(asinpi)
WRAP1(acospi)
WRAP1(atanpi)
WRAP2(atan2)
WRAP2(atan2pi)
