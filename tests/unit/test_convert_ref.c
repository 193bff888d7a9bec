/* convert_T against the exact reference of tests/lib/ref.c.
 *
 * The reference is first checked on hand-derived cases and on every
 * convert_/vstore_half vector of shared/conformance; then the library
 * (cv_scalar and the cv_lookup loops) must match it bit for bit and note
 * for note on every 8- and 16-bit integer and every half, on the boundary
 * values of the wider types and on millions of random ones, through every
 * destination, with and without _sat, in every mode. */
#include <stdint.h>
#include <string.h>

#include "stdlib/convert.h"
#include "stdlib/half.h"
#include "tests/lib/ref.h"
#include "tests/lib/test.h"

enum { BATCH = 256 };

#define RANGE NOTE_FLT_RANGE
#define FNAN NOTE_FLT_NAN
#define SNAN NOTE_SAT_NAN
#define NARROW NOTE_NARROW

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint64_t rnd64(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* A growable list of source values of one type, stored as in registers. */
typedef struct {
    enum ty_scalar t;
    size_t n, cap;
    uint64_t *v; /* one 8-byte slot per value keeps every type aligned */
} vals;

static void add(vals *a, uint64_t bits)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 1024;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        if (!a->v)
            abort();
    }
    a->v[a->n++] = bits;
}

static void add_num(vals *a, bool neg, uint64_t m, int e, int steps);

/* ---------------------------------------------------------------------- */
/* The reference itself, on values worked out by hand. */

static const struct {
    uint8_t dst, src;
    bool sat;
    uint8_t r;
    uint64_t s, want;
    unsigned notes;
} cases[] = {
#define C(d, s, sat, r, sv, w, n) {TY_##d, TY_##s, sat, RND_##r, sv, w, n}
    /* float -> int: truncation, ties, directed modes */
    C(INT, FLOAT, 0, RTZ, 0xc07f5c29, 0xfffffffd, 0),  /* -3.99 -> -3 */
    C(INT, FLOAT, 0, RTZ, 0x407f5c29, 3, 0),           /* 3.99 */
    C(INT, FLOAT, 0, RTZ, 0xbf000000, 0, 0),           /* -0.5 */
    C(INT, FLOAT, 0, RTE, 0x3f000000, 0, 0),           /* 0.5 */
    C(INT, FLOAT, 0, RTE, 0x3fc00000, 2, 0),           /* 1.5 */
    C(INT, FLOAT, 0, RTE, 0x40200000, 2, 0),           /* 2.5 */
    C(INT, FLOAT, 0, RTE, 0xc0200000, 0xfffffffe, 0),  /* -2.5 */
    C(INT, FLOAT, 0, RTE, 0x40600000, 4, 0),           /* 3.5 */
    C(INT, FLOAT, 0, RTN, 0xbfc00000, 0xfffffffe, 0),  /* -1.5 -> -2 */
    C(INT, FLOAT, 0, RTP, 0xbfc00000, 0xffffffff, 0),  /* -1.5 -> -1 */
    C(INT, FLOAT, 1, RTZ, 0xbfc00000, 0xffffffff, 0),
    C(INT, FLOAT, 0, RTE, 0xcaffffff, 0xff800000, 0),  /* -8388607.5 */
    /* float -> int at the edges */
    C(INT, FLOAT, 0, RTZ, 0x4effffff, 0x7fffff80, 0),
    C(INT, FLOAT, 0, RTZ, 0x4f000000, 0x7fffffff, RANGE), /* 2^31 */
    C(INT, FLOAT, 1, RTZ, 0x4f000000, 0x7fffffff, 0),
    C(INT, FLOAT, 0, RTZ, 0xcf000000, 0x80000000, 0),     /* -2^31 */
    C(INT, FLOAT, 0, RTP, 0xcf000001, 0x80000000, RANGE),
    C(INT, FLOAT, 0, RTZ, 0x7fc00000, 0, FNAN),
    C(INT, FLOAT, 1, RTE, 0xffc00001, 0, SNAN),
    C(INT, FLOAT, 1, RTZ, 0x7f800000, 0x7fffffff, 0),
    C(INT, FLOAT, 0, RTN, 0xff800000, 0x80000000, RANGE),
    C(UINT, FLOAT, 0, RTZ, 0xbf666666, 0, RANGE),       /* -0.9: x < 0 */
    C(UINT, FLOAT, 0, RTN, 0xbf000000, 0, RANGE),       /* -0.5 -> -1 */
    C(UINT, FLOAT, 0, RTP, 0xbf000000, 0, RANGE),
    C(UINT, FLOAT, 1, RTN, 0xbf000000, 0, 0),
    C(UINT, FLOAT, 0, RTN, 0x80000000, 0, 0),           /* -0 fits */
    C(UCHAR, FLOAT, 0, RTZ, 0x437f8000, 255, RANGE),    /* 255.5 */
    C(UCHAR, FLOAT, 0, RTE, 0x437f8000, 255, RANGE),    /* -> 256 */
    C(UCHAR, FLOAT, 0, RTE, 0x437e8000, 254, 0),        /* 254.5 */
    C(UCHAR, FLOAT, 0, RTP, 0x437e8000, 255, 0),
    C(CHAR, FLOAT, 0, RTZ, 0xc3008000, 0x80, RANGE),    /* -128.5 */
    C(CHAR, FLOAT, 0, RTE, 0xc3008000, 0x80, RANGE),
    C(CHAR, FLOAT, 1, RTN, 0xc3008000, 0x80, 0),
    C(CHAR, FLOAT, 0, RTE, 0xc2fd0000, 0x82, 0),        /* -126.5 */
    C(ULONG, FLOAT, 0, RTZ, 0x5f800000, UINT64_MAX, RANGE), /* 2^64 */
    C(ULONG, FLOAT, 0, RTZ, 0x5f7fffff, 0xffffff0000000000, 0),
    C(LONG, FLOAT, 0, RTZ, 0xdf000000, 0x8000000000000000, 0),
    C(LONG, DOUBLE, 0, RTZ, 0xc3e0000000000000, 0x8000000000000000, 0),
    C(LONG, DOUBLE, 0, RTZ, 0x43e0000000000000, INT64_MAX, RANGE),
    C(LONG, DOUBLE, 0, RTZ, 0x43dfffffffffffff, 0x7ffffffffffffc00, 0),
    C(INT, DOUBLE, 0, RTE, 0x3fdfffffffffffff, 0, 0),   /* 0.5 - 2^-54 */
    C(INT, DOUBLE, 0, RTE, 0x41dfffffffe00000, 0x7fffffff, RANGE), /* 2^31-.5 */
    C(INT, DOUBLE, 0, RTZ, 0x41dfffffffe00000, 0x7fffffff, RANGE),
    C(INT, DOUBLE, 1, RTN, 0x41dfffffffe00000, 0x7fffffff, 0),
    C(INT, DOUBLE, 0, RTP, 0x0000000000000001, 1, 0),   /* denormal */
    C(LONG, DOUBLE, 0, RTN, 0x8000000000000001, UINT64_MAX, 0),
    C(SHORT, HALF, 0, RTZ, 0x7bff, 0x7fff, RANGE),      /* 65504 */
    C(USHORT, HALF, 0, RTZ, 0x7bff, 0xffe0, 0),
    C(USHORT, HALF, 0, RTZ, 0x7c00, 0xffff, RANGE),
    C(USHORT, HALF, 0, RTZ, 0x7e00, 0, FNAN),
    C(CHAR, HALF, 0, RTZ, 0x3c00, 1, 0),
    C(INT, HALF, 0, RTP, 0x0001, 1, 0),                 /* 2^-24 */
    C(INT, HALF, 0, RTN, 0x0001, 0, 0),
    C(INT, HALF, 0, RTN, 0x8001, 0xffffffff, 0),
    /* integer -> integer */
    C(CHAR, SHORT, 0, RTZ, 0x012c, 0x2c, NARROW),       /* 300 */
    C(CHAR, SHORT, 1, RTZ, 0x012c, 0x7f, 0),
    C(UCHAR, SHORT, 0, RTP, 0x012c, 0x2c, 0),
    C(UCHAR, SHORT, 0, RTZ, 0xfed4, 0xd4, 0),           /* -300 */
    C(UCHAR, SHORT, 1, RTZ, 0xfed4, 0, 0),
    C(INT, UINT, 0, RTZ, 0x80000000, 0x80000000, NARROW),
    C(INT, UINT, 1, RTZ, 0x80000000, 0x7fffffff, 0),
    C(UINT, INT, 0, RTZ, 0xffffffff, 0xffffffff, 0),
    C(UINT, INT, 1, RTZ, 0xffffffff, 0, 0),
    C(LONG, ULONG, 0, RTZ, UINT64_MAX, UINT64_MAX, NARROW),
    C(LONG, ULONG, 1, RTZ, UINT64_MAX, INT64_MAX, 0),
    C(ULONG, LONG, 0, RTN, 0x8000000000000000, 0x8000000000000000, 0),
    C(ULONG, LONG, 1, RTN, 0x8000000000000000, 0, 0),
    C(INT, UCHAR, 0, RTZ, 0xff, 0xff, 0),               /* zero extension */
    C(LONG, CHAR, 0, RTZ, 0x80, 0xffffffffffffff80, 0), /* sign extension */
    C(SHORT, LONG, 0, RTZ, 0xffffffffffff8000, 0x8000, 0),
    C(SHORT, LONG, 0, RTZ, 0xffffffffffff7fff, 0x7fff, NARROW),
    C(SHORT, LONG, 1, RTZ, 0xffffffffffff7fff, 0x8000, 0),
    /* integer -> floating */
    C(FLOAT, INT, 0, RTE, 0x01000001, 0x4b800000, 0),   /* 2^24+1 */
    C(FLOAT, INT, 0, RTP, 0x01000001, 0x4b800001, 0),
    C(FLOAT, INT, 0, RTE, 0x01000003, 0x4b800002, 0),   /* tie to even */
    C(FLOAT, INT, 0, RTE, 0xfeffffff, 0xcb800000, 0),   /* -(2^24+1) */
    C(FLOAT, INT, 0, RTN, 0xfeffffff, 0xcb800001, 0),
    C(FLOAT, INT, 0, RTP, 0xfeffffff, 0xcb800000, 0),
    C(FLOAT, INT, 0, RTE, 0x7fffffff, 0x4f000000, 0),
    C(FLOAT, INT, 0, RTZ, 0x7fffffff, 0x4effffff, 0),
    C(FLOAT, INT, 0, RTN, 0, 0, 0),                     /* +0 */
    C(FLOAT, ULONG, 0, RTE, UINT64_MAX, 0x5f800000, 0),
    C(FLOAT, ULONG, 0, RTZ, UINT64_MAX, 0x5f7fffff, 0),
    C(FLOAT, ULONG, 0, RTE, 0x8000008000000001, 0x5f000001, 0),
    C(FLOAT, ULONG, 0, RTZ, 0x8000008000000001, 0x5f000000, 0),
    C(FLOAT, ULONG, 0, RTE, 0x8000008000000000, 0x5f000000, 0),
    C(FLOAT, LONG, 0, RTE, 0x0020000020000001, 0x5a000001, 0),
    C(DOUBLE, ULONG, 0, RTE, UINT64_MAX, 0x43f0000000000000, 0),
    C(DOUBLE, ULONG, 0, RTZ, UINT64_MAX, 0x43efffffffffffff, 0),
    C(DOUBLE, LONG, 0, RTE, 0x0020000000000001, 0x4340000000000000, 0),
    C(DOUBLE, LONG, 0, RTP, 0x0020000000000001, 0x4340000000000001, 0),
    C(DOUBLE, LONG, 0, RTE, 0x8000000000000000, 0xc3e0000000000000, 0),
    C(HALF, INT, 0, RTE, 65519, 0x7bff, 0),
    C(HALF, INT, 0, RTE, 65520, 0x7c00, 0),             /* tie -> inf */
    C(HALF, INT, 0, RTZ, 70000, 0x7bff, 0),
    C(HALF, INT, 0, RTP, 70000, 0x7c00, 0),
    C(HALF, INT, 0, RTN, (uint32_t)-70000, 0xfc00, 0),
    C(HALF, INT, 0, RTP, (uint32_t)-70000, 0xfbff, 0),
    C(HALF, INT, 0, RTE, 2049, 0x6800, 0),
    C(HALF, INT, 0, RTE, 2051, 0x6802, 0),
    C(HALF, ULONG, 0, RTZ, UINT64_MAX, 0x7bff, 0),
    C(HALF, ULONG, 0, RTE, UINT64_MAX, 0x7c00, 0),
    /* floating -> floating */
    C(FLOAT, DOUBLE, 0, RTE, 0x48078287f49c4a1d, 0x7f800000, 0), /* 1e39 */
    C(FLOAT, DOUBLE, 0, RTZ, 0x48078287f49c4a1d, 0x7f7fffff, 0),
    C(FLOAT, DOUBLE, 0, RTN, 0x48078287f49c4a1d, 0x7f7fffff, 0),
    C(FLOAT, DOUBLE, 0, RTP, 0xc8078287f49c4a1d, 0xff7fffff, 0),
    C(FLOAT, DOUBLE, 0, RTN, 0xc8078287f49c4a1d, 0xff800000, 0),
    C(FLOAT, DOUBLE, 0, RTE, 0x0000000000000001, 0, 0),
    C(FLOAT, DOUBLE, 0, RTP, 0x0000000000000001, 1, 0),
    C(FLOAT, DOUBLE, 0, RTN, 0x8000000000000001, 0x80000001, 0),
    C(FLOAT, DOUBLE, 0, RTE, 0x8000000000000001, 0x80000000, 0),
    C(FLOAT, DOUBLE, 0, RTE, 0x3690000000000000, 0, 0),  /* 2^-150: tie */
    C(FLOAT, DOUBLE, 0, RTE, 0x3698000000000000, 1, 0),  /* 1.5 * 2^-150 */
    C(FLOAT, DOUBLE, 0, RTE, 0x36a8000000000000, 2, 0),  /* 3 * 2^-150 */
    C(FLOAT, DOUBLE, 0, RTE, 0x380fffffe0000000, 0x00800000, 0), /* carry */
    C(FLOAT, DOUBLE, 0, RTZ, 0x380fffffe0000000, 0x007fffff, 0),
    C(FLOAT, DOUBLE, 0, RTE, 0x3ff0000010000000, 0x3f800000, 0), /* 1+2^-24 */
    C(FLOAT, DOUBLE, 0, RTE, 0x3ff0000030000000, 0x3f800002, 0),
    C(FLOAT, DOUBLE, 0, RTE, 0x8000000000000000, 0x80000000, 0),
    C(FLOAT, DOUBLE, 0, RTE, 0xfff0000000000000, 0xff800000, 0),
    C(HALF, FLOAT, 0, RTE, 0x3f801000, 0x3c00, 0),  /* 1 + 2^-11 */
    C(HALF, FLOAT, 0, RTP, 0x3f801000, 0x3c01, 0),
    C(HALF, FLOAT, 0, RTE, 0x3f803000, 0x3c02, 0),
    C(HALF, FLOAT, 0, RTZ, 0x3f803000, 0x3c01, 0),
    C(HALF, FLOAT, 0, RTE, 0x33000000, 0x0000, 0),  /* 2^-25 */
    C(HALF, FLOAT, 0, RTP, 0x33000000, 0x0001, 0),
    C(HALF, FLOAT, 0, RTE, 0x33000001, 0x0001, 0),
    C(HALF, FLOAT, 0, RTN, 0xb3000001, 0x8001, 0),
    C(HALF, FLOAT, 0, RTZ, 0xb3000001, 0x8000, 0),
    C(HALF, FLOAT, 0, RTE, 0x38800000, 0x0400, 0),  /* 2^-14 */
    C(HALF, FLOAT, 0, RTE, 0x387fc000, 0x03ff, 0),  /* largest denormal */
    C(HALF, FLOAT, 0, RTE, 0x477fe000, 0x7bff, 0),  /* 65504 */
    C(HALF, FLOAT, 0, RTE, 0x477fefff, 0x7bff, 0),
    C(HALF, FLOAT, 0, RTP, 0x477fe001, 0x7c00, 0),
    C(HALF, FLOAT, 0, RTE, 0x477ff000, 0x7c00, 0),  /* 65520 */
    C(HALF, FLOAT, 0, RTZ, 0x7f7fffff, 0x7bff, 0),
    C(HALF, FLOAT, 0, RTP, 0xff7fffff, 0xfbff, 0),
    C(HALF, FLOAT, 0, RTE, 0x80000000, 0x8000, 0),
    C(HALF, FLOAT, 0, RTE, 0xffc00000, 0xfe00, 0),  /* a negative NaN */
    C(HALF, DOUBLE, 0, RTE, 0x3ff0020000000001, 0x3c01, 0), /* once */
    C(HALF, DOUBLE, 0, RTE, 0x3ff0020000000000, 0x3c00, 0),
    C(DOUBLE, FLOAT, 0, RTZ, 0x7f800001, 0x7ff8000000000000, 0),
    C(DOUBLE, HALF, 0, RTE, 0x0001, 0x3e70000000000000, 0),
    C(FLOAT, HALF, 0, RTE, 0xfbff, 0xc77fe000, 0),
    C(FLOAT, HALF, 0, RTN, 0x7c01, 0x7fc00000, 0),
    C(FLOAT, FLOAT, 0, RTE, 0x7f800001, 0x7f800001, 0), /* identity */
    C(HALF, HALF, 0, RTZ, 0xfc01, 0xfc01, 0),
#undef C
};

static void ref_hand_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t s, want, d = 0;
        ref_put_bits(cases[i].src, &s, cases[i].s);
        ref_put_bits(cases[i].dst, &want, cases[i].want);
        int n = ref_convert(cases[i].dst, cases[i].src, &s, &d, cases[i].sat,
                            cases[i].r);
        CHECK(ref_same(cases[i].dst, cases[i].src, &want, &d) &&
                  n == (int)cases[i].notes,
              "case %zu: got 0x%llx notes %d", i,
              (unsigned long long)ref_bits(cases[i].dst, &d), n);
    }
    uint64_t s = 0, d = 0;
    CHECK(ref_convert(TY_FLOAT, TY_INT, &s, &d, true, RND_RTE) == -1, "sat");
}

/* ---------------------------------------------------------------------- */
/* The reference against shared/conformance: convert_* and vstore_half*. */

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : -1;
}

/* Element i of elements of sz bytes in a little-endian hex string; false
 * when it is cut off or has an '?' nibble. */
static bool hex_elem(const char *h, size_t hlen, size_t i, unsigned sz,
                     uint64_t *out)
{
    uint64_t v = 0;
    if ((i + 1) * sz * 2 > hlen)
        return false;
    for (unsigned b = sz; b-- > 0;) {
        const char *x = h + (i * sz + b) * 2;
        int hi = hexval(x[0]), lo = hexval(x[1]);
        if (hi < 0 || lo < 0)
            return false;
        v = v << 8 | (uint64_t)(hi << 4 | lo);
    }
    *out = v;
    return true;
}

static bool parse_round(const char **p, enum rnd *r)
{
    for (int m = 0; m < RND_NMODE; m++)
        if ((*p)[0] == '_' && !strncmp(*p + 1, rnd_name((enum rnd)m), 3)) {
            *r = (enum rnd)m;
            *p += 4;
            return true;
        }
    return false;
}

/* Checks one vector line; returns the lanes it checked, -1 on a
 * mismatch, 0 when the line is not for this test. */
static int tsv_line(char *line, const char *file, int lineno)
{
    char *f[6];
    int nf = 0;
    for (char *p = line; nf < 6; nf++) {
        f[nf] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = 0;
    }
    if (nf != 5)
        return 0;
    f[5][strcspn(f[5], "\r\n")] = 0;
    if (strcmp(f[5], "defined") && strcmp(f[5], "impl:wasm"))
        return 0;
    ty_t st, dt;
    bool sat = false;
    enum rnd r;
    size_t lane0 = 0;
    const char *p = f[0];
    if (!ty_parse(f[1], strlen(f[1]), &st))
        return 0;
    if (!strncmp(p, "convert_", 8)) {
        size_t k = ty_parse_prefix(p + 8, strlen(p + 8), &dt);
        if (!k)
            return 0;
        p += 8 + k;
        sat = !strncmp(p, "_sat", 4);
        p += sat ? 4 : 0;
        if (!parse_round(&p, &r))
            r = ty_is_float(dt.s) ? RND_RTE : RND_RTZ;
    } else if (!strncmp(p, "vstore_half", 11) ||
               !strncmp(p, "vstorea_half", 12)) {
        bool aligned = p[6] == 'a';
        p += aligned ? 12 : 11;
        unsigned n = 0;
        while (*p >= '0' && *p <= '9')
            n = n * 10 + (unsigned)(*p++ - '0');
        dt.s = TY_HALF, dt.n = (uint8_t)(n ? n : 1);
        if (!parse_round(&p, &r))
            r = RND_RTE;
        lane0 = (size_t)strtoul(f[2], NULL, 10) *
                (aligned && n == 3 ? 4 : dt.n); /* vstorea_half3: 4 apart */
    } else {
        return 0;
    }
    if (*p || dt.n != st.n)
        return 0;
    int lanes = 0;
    for (size_t i = 0; i < dt.n; i++) {
        uint64_t s, want, sv, wv, got = 0;
        if (!hex_elem(f[3], strlen(f[3]), i, ty_scalar_size(st.s), &sv))
            return 0;
        if (!hex_elem(f[4], strlen(f[4]), lane0 + i, ty_scalar_size(dt.s),
                      &wv))
            continue; /* an undefined lane */
        ref_put_bits(st.s, &s, sv);
        ref_put_bits(dt.s, &want, wv);
        int n = ref_convert(dt.s, st.s, &s, &got, sat, r);
        /* The files write every NaN result as +qNaN: any NaN matches. */
        if (dt.s != st.s && ref_decode(dt.s, &want).cls == REF_NAN &&
            ref_decode(dt.s, &got).cls == REF_NAN)
            want = got;
        if (n < 0 || !ref_same(dt.s, st.s, &want, &got)) {
            CHECK(0, "%s:%d: %s(%s) lane %zu: want 0x%llx, ref 0x%llx", file,
                  lineno, f[0], f[1], i, (unsigned long long)wv,
                  (unsigned long long)ref_bits(dt.s, &got));
            return -1;
        }
        lanes++;
    }
    return lanes;
}

static void ref_conformance(void)
{
    static const char *const files[] = {"spec_examples.tsv",
                                        "wasm_conversions.tsv",
                                        "cts_special_conversions.tsv"};
    const char *dir = t_shared_dir();
    if (!dir) {
        t_skip("no shared/conformance");
        return;
    }
    long lanes = 0, lines = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4200], line[4096];
        snprintf(path, sizeof path, "%s/conformance/%s", dir, files[i]);
        FILE *fp = fopen(path, "r");
        CHECK(fp, "cannot open %s", path);
        if (!fp)
            continue;
        for (int no = 1; fgets(line, sizeof line, fp); no++) {
            if (line[0] == '#')
                continue;
            int k = tsv_line(line, files[i], no);
            lanes += k > 0 ? k : 0;
            lines += k != 0;
        }
        fclose(fp);
    }
    /* The files hold about 81000 such vectors: make sure they were read. */
    CHECK(lines > 80000, "only %ld vectors checked", lines);
    printf("ref: %ld conformance vectors checked (%ld lanes)\n", lines, lanes);
}

/* ---------------------------------------------------------------------- */
/* The library against the reference. */

static void mismatch(const char *how, enum ty_scalar dst, enum ty_scalar src,
                     bool sat, enum rnd r, const void *s, const void *want,
                     int wn, const void *got, int gn)
{
    CHECK(0, "%s: convert_%s%s_%s((%s)0x%llx): want 0x%llx notes %d, got "
             "0x%llx notes %d", how, ty_scalar_name(dst), sat ? "_sat" : "",
          rnd_name(r), ty_scalar_name(src),
          (unsigned long long)ref_bits(src, s),
          (unsigned long long)ref_bits(dst, want), wn,
          (unsigned long long)ref_bits(dst, got), gn);
}

/* convert_<dst>[_sat]_<r> of every value in a: cv_scalar on each, and the
 * loop fn over BATCH values at a time (its notes OR-ed). */
static void check_all(const vals *a, enum ty_scalar dst, bool sat,
                      enum rnd r, cv_fn fn)
{
    enum ty_scalar src = a->t;
    unsigned ssz = ty_scalar_size(src), dsz = ty_scalar_size(dst);
    static uint64_t in[BATCH], want[BATCH], loop[BATCH]; /* aligned */
    unsigned char *w = (unsigned char *)want, *l = (unsigned char *)loop;
    for (size_t i = 0; i < a->n; i += BATCH) {
        size_t k = a->n - i < BATCH ? a->n - i : BATCH;
        int wor = 0;
        for (size_t j = 0; j < k; j++) /* contiguous, as the loop wants */
            ref_put_bits(src, (unsigned char *)in + j * ssz, a->v[i + j]);
        int lnotes = (int)fn(l, in, k);
        for (size_t j = 0; j < k; j++) {
            uint64_t s, one = 0;
            ref_put_bits(src, &s, a->v[i + j]);
            int wn = ref_convert(dst, src, &s, w + j * dsz, sat, r);
            int gn = cv_scalar(dst, src, &one, &s, sat, r);
            wor |= wn;
            if (gn != wn || !ref_same(dst, src, w + j * dsz, &one))
                mismatch("cv_scalar", dst, src, sat, r, &s, w + j * dsz, wn,
                         &one, gn);
            if (!ref_same(dst, src, w + j * dsz, l + j * dsz))
                mismatch("loop", dst, src, sat, r, &s, w + j * dsz, wn,
                         l + j * dsz, -2);
        }
        CHECK(lnotes == wor, "loop notes convert_%s%s_%s(%s): want %d, got "
              "%d (values %zu..%zu)", ty_scalar_name(dst), sat ? "_sat" : "",
              rnd_name(r), ty_scalar_name(src), wor, lnotes, i, i + k - 1);
    }
}

/* Every legal conversion of the values in a; the illegal ones refused. */
static void sweep(const vals *a)
{
    for (int dst = 0; dst < TY_NSCALAR; dst++)
        for (int sat = 0; sat < 2; sat++)
            for (int r = 0; r < RND_NMODE; r++) {
                cv_fn fn = cv_lookup(dst, a->t, sat, r);
                const char *dn = ty_scalar_name(dst);
                if (sat && ty_is_float(dst)) { /* no such built-in */
                    uint64_t s = 0, d = 0;
                    CHECK(!fn && cv_scalar(dst, a->t, &d, &s, sat, r) == -1,
                          "convert_%s_sat accepted", dn);
                    continue;
                }
                CHECK(fn, "no loop for convert_%s%s_%s(%s)", dn,
                      sat ? "_sat" : "", rnd_name(r), ty_scalar_name(a->t));
                if (fn)
                    check_all(a, dst, sat, r, fn);
            }
}

static void api_basics(void)
{
    for (int t = 0; t < TY_NSCALAR; t++) {
        bool f = ty_is_float(t);
        CHECK(cv_default_round(t) == (f ? RND_RTE : RND_RTZ), "%s",
              ty_scalar_name(t));
        CHECK(cv_legal(t, false) && cv_legal(t, true) == !f, "%s",
              ty_scalar_name(t));
    }
}

/* All values of an 8- or 16-bit type. */
static void all_of(enum ty_scalar t)
{
    vals a = {t, 0, 0, NULL};
    for (uint64_t i = 0; i >> (8 * ty_scalar_size(t)) == 0; i++)
        add(&a, i);
    sweep(&a);
    free(a.v);
}

static void small_int_sources(void)
{
    all_of(TY_CHAR), all_of(TY_UCHAR), all_of(TY_SHORT), all_of(TY_USHORT);
}

/* stdlib/half.c's own entry points, which convert_ to and from half may
 * share: widening every half, and narrowing the values in a. */
static void half_widen(void)
{
    for (uint32_t h = 0; h < 0x10000; h++) {
        uint16_t s = (uint16_t)h;
        uint64_t wf = 0, wd = 0;
        float f = half_to_float(s);
        double d = half_to_double(s);
        ref_convert(TY_FLOAT, TY_HALF, &s, &wf, false, RND_RTE);
        ref_convert(TY_DOUBLE, TY_HALF, &s, &wd, false, RND_RTE);
        CHECK(ref_same(TY_FLOAT, TY_HALF, &wf, &f), "half_to_float(0x%04x)",
              (unsigned)h);
        CHECK(ref_same(TY_DOUBLE, TY_HALF, &wd, &d), "half_to_double(0x%04x)",
              (unsigned)h);
    }
}

static void half_narrow(const vals *a)
{
    for (size_t i = 0; i < a->n; i++)
        for (int r = 0; r < RND_NMODE; r++) {
            uint64_t s, want = 0;
            uint16_t got;
            float f;
            double d;
            ref_put_bits(a->t, &s, a->v[i]);
            ref_convert(TY_HALF, a->t, &s, &want, false, r);
            if (a->t == TY_FLOAT)
                memcpy(&f, &s, 4), got = half_from_float(f, r);
            else
                memcpy(&d, &s, 8), got = half_from_double(d, r);
            if (!ref_same(TY_HALF, a->t, &want, &got))
                mismatch(a->t == TY_FLOAT ? "half_from_float"
                                          : "half_from_double",
                         TY_HALF, a->t, false, r, &s, &want, 0, &got, 0);
        }
}

static void half_sources(void) { all_of(TY_HALF); }

/* 32- and 64-bit integers: powers of two and their neighbours (every
 * boundary), the values on and next to the half/float/double ties, and
 * random ones, some shaped to land near ties. Stored as 64-bit patterns;
 * 32-bit types keep the low half. */
static void wide_int_sources(void)
{
    static const uint64_t named[] = {
        0, 1, UINT64_MAX, 0x1000001, 0x20000000000001, 0x8000008000000001,
        0x2000002000000001, 0x8000000000000001, 0x7fffffbfffffffff,
        0x7fffff7fffffffff, 0xffffff7fffffffff, 0xfffffffffffff800,
        0xfffffffffffffc00, 0x7ffffffffffffe00, 0x7ffffffffffffdff,
    };
    static const int prec[] = {11, 24, 53};
    enum { RANDOM = 250000 };
    for (int t = TY_INT; t <= TY_ULONG; t++) {
        vals a = {t, 0, 0, NULL};
        for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
            add(&a, named[i]), add(&a, 0 - named[i]);
        for (int k = 0; k < 64; k++)
            for (int d = -2; d <= 2; d++)
                add(&a, (UINT64_C(1) << k) + (uint64_t)d),
                    add(&a, 0 - (UINT64_C(1) << k) - (uint64_t)d);
        for (int pi = 0; pi < 3; pi++)
            for (int k = prec[pi]; k < 64; k++) {
                int p = prec[pi];
                uint64_t b = UINT64_C(1) << k, ulp = UINT64_C(1) << (k - p + 1);
                uint64_t bases[] = {b, b + ulp, b + 2 * ulp, 2 * (b - ulp / 2)};
                for (int j = 0; j < 4; j++)
                    for (int d = -1; d <= 1; d++) {
                        uint64_t v = bases[j] + ulp / 2 + (uint64_t)d;
                        add(&a, v), add(&a, 0 - v);
                    }
            }
        for (int i = 0; i < RANDOM; i++) {
            uint64_t v = rnd64();
            if (i & 1) { /* any magnitude, low bits near a tie */
                v >>= rnd64() % 64;
                int j = (int)(rnd64() % 40) + 1;
                v = (v & ~(UINT64_MAX >> (64 - j))) | UINT64_C(1) << (j - 1);
                v += rnd64() % 3 - 1;
                if (i & 2)
                    v = 0 - v;
            }
            add(&a, v);
        }
        sweep(&a);
        free(a.v);
    }
}

/* Floating values near an exact one: the floats just below and above
 * (m * 2^e, by the reference rounding down and up) and `steps` bit
 * patterns further on each side. Patterns only: any bits are a value. */
static void add_num(vals *a, bool neg, uint64_t m, int e, int steps)
{
    ref_num x = {REF_FINITE, neg, m, e};
    uint64_t lo = ref_round_float(a->t, x, RND_RTZ);
    uint64_t hi = ref_round_float(a->t, x, neg ? RND_RTN : RND_RTP);
    for (int d = 0; d <= steps; d++)
        add(a, lo - (uint64_t)d), add(a, hi + (uint64_t)d);
}

/* Specials, every integer boundary and half-integer near one, powers of
 * two over the whole exponent range, each with neighbours; then random
 * bit patterns, half of them with an exponent in the integer range or in
 * the narrower formats' range, and low bits cut to a tie (or one off) at a
 * random place. */
static void float_sources(enum ty_scalar t, int random)
{
    vals a = {t, 0, 0, NULL};
    unsigned bits = 8 * ty_scalar_size(t);
    int mb = t == TY_FLOAT ? 23 : 52, emax = t == TY_FLOAT ? 127 : 1023;
    /* exponents from below the smallest denormal to overflow of the next
     * narrower format (half for float, float for double) */
    int elo = t == TY_FLOAT ? -27 : -152, ehi = t == TY_FLOAT ? 17 : 130;
    uint64_t sign = UINT64_C(1) << (bits - 1), inf = (sign - 1) >> mb << mb;
    uint64_t special[] = {0, 1, 2, (UINT64_C(1) << mb) - 1, UINT64_C(1) << mb,
                          inf - 1, inf, inf + 1, inf | UINT64_C(1) << (mb - 1),
                          inf | 0x5, sign - 1};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        add(&a, special[i]), add(&a, special[i] | sign);
    for (int k = 0; k <= 64; k++) /* integers 2^k + d and their halves */
        for (int d = -3; d <= 3; d++)
            for (int neg = 0; neg < 2; neg++) {
                if (k < 64) {
                    uint64_t v = (UINT64_C(1) << k) + (uint64_t)d;
                    add_num(&a, neg, v, 0, 2);
                    if (v >> 63 == 0)
                        add_num(&a, neg, 2 * v + 1, -1, 1);
                } else if (d <= 0) {
                    add_num(&a, neg, UINT64_MAX - (uint64_t)-d, 0, 2);
                    add_num(&a, neg, 1, 64, 2);
                }
            }
    for (int v = 0; v < 64; v++) /* small halves: rte ties */
        add_num(&a, false, (uint64_t)(2 * v + 1), -1, 1),
            add_num(&a, true, (uint64_t)(2 * v + 1), -1, 1);
    for (int k = 1 - emax - mb - 2; k <= emax + 1; k++)
        add_num(&a, false, 1, k, 2), add_num(&a, true, 1, k, 2);
    for (int i = 0; i < random; i++) {
        uint64_t v = rnd64() >> (64 - bits);
        if (i & 1) { /* integer range, or where float/half lose bits */
            int e = i & 2 ? (int)(rnd64() % 72) - 4
                          : (int)(rnd64() % (unsigned)(ehi - elo)) + elo;
            v = (v & (sign | ((UINT64_C(1) << mb) - 1))) |
                (uint64_t)(e + emax) << mb;
            int j = (int)(rnd64() % (unsigned)mb) + 1;
            v = (v & ~(UINT64_MAX >> (64 - j))) | UINT64_C(1) << (j - 1);
            v += rnd64() % 3 - 1;
        }
        add(&a, v);
    }
    half_narrow(&a);
    sweep(&a);
    free(a.v);
}

static void float_sources_all(void) { float_sources(TY_FLOAT, 400000); }
static void double_sources_all(void) { float_sources(TY_DOUBLE, 400000); }

int main(void)
{
    RUN(ref_hand_cases);
    RUN(ref_conformance);
    RUN(api_basics);
    RUN(small_int_sources);
    RUN(half_widen);
    RUN(half_sources);
    RUN(wide_int_sources);
    RUN(float_sources_all);
    RUN(double_sources_all);
    return t_summary("convert_ref");
}
