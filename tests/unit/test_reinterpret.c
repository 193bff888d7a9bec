#include <string.h>

#include "stdlib/note.h"
#include "stdlib/reinterpret.h"
#include "tests/lib/test.h"

/* The facts the expectations rest on, restated here rather than taken from
 * types.c: element sizes, and a 3-vector occupying 4 elements. */
static const unsigned esz[TY_NSCALAR] = {
    [TY_CHAR] = 1, [TY_UCHAR] = 1, [TY_SHORT] = 2, [TY_USHORT] = 2,
    [TY_INT] = 4,  [TY_UINT] = 4,  [TY_LONG] = 8,  [TY_ULONG] = 8,
    [TY_HALF] = 2, [TY_FLOAT] = 4, [TY_DOUBLE] = 8,
};
static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
enum { NW = sizeof widths / sizeof widths[0], NTYPE = TY_NSCALAR * NW };

static ty_t type_at(int i)
{
    return (ty_t){(uint8_t)(i / NW), (uint8_t)widths[i % NW]};
}

static unsigned bytes(ty_t t) { return esz[t.s] * (t.n == 3 ? 4u : t.n); }

static ty_t T(const char *name)
{
    ty_t t = {0, 0};
    if (!ty_parse(name, strlen(name), &t))
        t_fail(__FILE__, __LINE__, "bad type name %s", name);
    return t;
}

/* A register's little-endian memory image, element by element (host
 * independent: reads each element as an integer, writes it byte by byte). */
static void mem_image(ty_t t, const void *reg, uint8_t *mem)
{
    unsigned e = esz[t.s], lanes = t.n == 3 ? 4 : t.n;
    for (unsigned i = 0; i < lanes; i++) {
        const uint8_t *r = (const uint8_t *)reg + i * e;
        uint64_t v;
        uint8_t u8; uint16_t u16; uint32_t u32;
        switch (e) {
        case 1: memcpy(&u8, r, 1); v = u8; break;
        case 2: memcpy(&u16, r, 2); v = u16; break;
        case 4: memcpy(&u32, r, 4); v = u32; break;
        default: memcpy(&v, r, 8); break;
        }
        for (unsigned k = 0; k < e; k++, v >>= 8)
            mem[i * e + k] = (uint8_t)v;
    }
}

/* The rule of the spec pages, stated on its own: different byte sizes are
 * an error; same count keeps the bits; 4 -> 3 is defined for xyz; every
 * other count change is implementation-defined, 3 -> 4 singled out. */
static enum as_check rule(ty_t d, ty_t s)
{
    if (bytes(d) != bytes(s))
        return AS_SIZE;
    if (d.n == s.n)
        return AS_OK;
    if (s.n == 4 && d.n == 3)
        return AS_4TO3;
    return s.n == 3 && d.n == 4 ? AS_3TO4 : AS_COUNT;
}

static void classify_every_pair(void)
{
    int count[5] = {0};
    for (int i = 0; i < NTYPE; i++)
        for (int j = 0; j < NTYPE; j++) {
            ty_t d = type_at(i), s = type_at(j);
            enum as_check c = as_classify(d, s);
            char dn[TY_NAME_MAX], sn[TY_NAME_MAX];
            CHECK(c == rule(d, s), "as_%s(%s): %d, want %d", ty_name(d, dn),
                  ty_name(s, sn), c, rule(d, s));
            if ((unsigned)c < 5)
                count[c]++;
        }
    /* Counted by hand. Types per byte size: 1:2 2:5 4:10 8:14 16:14 32:12
     * 64:6 128:3, so 710 ordered pairs of equal size (sum of squares) and
     * 4356 - 710 = 3646 errors. Same count and size means same element
     * size: 6 widths x (2^2 + 3^2 + 3^2 + 3^2) = 186; 4 -> 3 and 3 -> 4:
     * 31 each; the rest 710 - 186 - 62 = 462 change the count. */
    CHECK(count[AS_OK] == 186, "AS_OK %d", count[AS_OK]);
    CHECK(count[AS_SIZE] == 3646, "AS_SIZE %d", count[AS_SIZE]);
    CHECK(count[AS_COUNT] == 462, "AS_COUNT %d", count[AS_COUNT]);
    CHECK(count[AS_4TO3] == 31, "AS_4TO3 %d", count[AS_4TO3]);
    CHECK(count[AS_3TO4] == 31, "AS_3TO4 %d", count[AS_3TO4]);
}

static void classify_named_cases(void)
{
    static const struct { const char *dst, *src; enum as_check c; } cases[] = {
        {"uint", "float", AS_OK},       {"float", "int", AS_OK},
        {"int4", "float4", AS_OK},      {"long", "double", AS_OK},
        {"half", "short", AS_OK},       {"float3", "int3", AS_OK},
        {"ushort16", "half16", AS_OK},  {"short2", "int", AS_COUNT},
        {"short8", "int4", AS_COUNT},   {"char16", "float3", AS_COUNT},
        {"float3", "char16", AS_COUNT}, {"int3", "long2", AS_COUNT},
        {"half2", "float", AS_COUNT},   {"float2", "double", AS_COUNT},
        {"char4", "half2", AS_COUNT},   {"uchar3", "ushort2", AS_COUNT},
        {"float3", "float4", AS_4TO3},  {"int3", "float4", AS_4TO3},
        {"uchar3", "char4", AS_4TO3},   {"half3", "ulong", AS_COUNT},
        {"float4", "float3", AS_3TO4},  {"char4", "uchar3", AS_3TO4},
        {"double4", "long3", AS_3TO4},  {"double4", "float4", AS_SIZE},
        {"float3", "double", AS_SIZE},  {"float3", "float2", AS_SIZE},
        {"int", "char3", AS_COUNT},     {"char3", "short", AS_SIZE},
        {"double16", "long16", AS_OK},  {"char", "uchar", AS_OK},
        {"char2", "char", AS_SIZE},     {"float4", "half3", AS_SIZE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(as_classify(T(cases[i].dst), T(cases[i].src)) == cases[i].c,
              "as_%s(%s)", cases[i].dst, cases[i].src);
}

/* Every pair: an error writes nothing; a legal pair returns its note and
 * the result's memory image is the operand's, and nothing past
 * sizeof(dst) is written. */
static void reinterpret_every_pair(void)
{
    static const int want_note[] = {[AS_OK] = 0, [AS_SIZE] = -1,
                                    [AS_COUNT] = NOTE_AS_COUNT,
                                    [AS_4TO3] = NOTE_AS_W,
                                    [AS_3TO4] = NOTE_AS_3TO4};
    uint8_t s[128], d[160], ms[128], md[128];
    uint32_t x = 0x9e3779b9u;
    for (int i = 0; i < NTYPE; i++)
        for (int j = 0; j < NTYPE; j++) {
            ty_t dt = type_at(i), st = type_at(j);
            char dn[TY_NAME_MAX], sn[TY_NAME_MAX];
            for (size_t k = 0; k < sizeof s; k++) {
                x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                s[k] = (uint8_t)x;
            }
            memset(d, 0xcd, sizeof d);
            int r = as_reinterpret(dt, st, d, s);
            enum as_check c = rule(dt, st);
            ty_name(dt, dn), ty_name(st, sn);
            CHECK(r == want_note[c], "as_%s(%s) returned %d", dn, sn, r);
            unsigned nd = c == AS_SIZE ? 0 : bytes(dt);
            if (c != AS_SIZE) {
                mem_image(dt, d, md);
                mem_image(st, s, ms);
                CHECK(memcmp(md, ms, nd) == 0, "as_%s(%s) bits", dn, sn);
            }
            for (size_t k = nd; k < sizeof d; k++)
                if (d[k] != 0xcd) {
                    CHECK(0, "as_%s(%s) wrote byte %zu", dn, sn, k);
                    break;
                }
        }
}

static void spec_examples(void)
{
    /* as_uint(1.0f) = 0x3f800000; as_float(0x3f800000) = 1.0f */
    float f = 1.0f;
    uint32_t u = 0;
    CHECK(as_reinterpret(T("uint"), T("float"), &u, &f) == 0 &&
              u == 0x3f800000u, "as_uint(1.0f) = %#x", (unsigned)u);
    f = 0;
    CHECK(as_reinterpret(T("float"), T("uint"), &f, &u) == 0 && f == 1.0f,
          "as_float(0x3f800000)");

    /* as_int4((float4)(1,2,3,4)) */
    float f4[4] = {1, 2, 3, 4};
    int32_t i4[4];
    static const int32_t want4[4] = {0x3f800000, 0x40000000, 0x40400000,
                                     0x40800000};
    CHECK(as_reinterpret(T("int4"), T("float4"), i4, f4) == 0 &&
              memcmp(i4, want4, sizeof i4) == 0, "as_int4(float4)");

    /* f = as_float4(as_int4(f) & is_less), is_less = f < g computed here */
    float fv[4] = {1.0f, -2.0f, 0, 4.0f}, gv[4] = {2.0f, -3.0f, 0, 4.0f};
    uint32_t qnan = 0x7fc00000u;
    memcpy(&fv[2], &qnan, 4); /* NaN < 0 is false */
    int32_t is_less[4], fi[4];
    float res[4];
    for (int k = 0; k < 4; k++)
        is_less[k] = fv[k] < gv[k] ? -1 : 0; /* (1 < 2, -2 < -3, NaN, 4 < 4) */
    CHECK(as_reinterpret(T("int4"), T("float4"), fi, fv) == 0, "as_int4");
    for (int k = 0; k < 4; k++)
        fi[k] = (int32_t)((uint32_t)fi[k] & (uint32_t)is_less[k]);
    CHECK(as_reinterpret(T("float4"), T("int4"), res, fi) == 0, "as_float4");
    uint32_t rb[4];
    memcpy(rb, res, sizeof rb);
    CHECK(rb[0] == 0x3f800000u && rb[1] == 0 && rb[2] == 0 && rb[3] == 0,
          "select idiom: %#x %#x %#x %#x", (unsigned)rb[0], (unsigned)rb[1],
          (unsigned)rb[2], (unsigned)rb[3]);

    /* sign mask: as_float(as_uint(-2.5f) & ~(1u << 31)) = 2.5f */
    f = -2.5f;
    CHECK(as_reinterpret(T("uint"), T("float"), &u, &f) == 0 &&
              u == 0xc0200000u, "as_uint(-2.5f)");
    u &= ~(1u << 31);
    CHECK(as_reinterpret(T("float"), T("uint"), &f, &u) == 0 && f == 2.5f,
          "sign mask");

    /* as_float3(float4): xyz kept (w undefined; we keep it) */
    float g3[4] = {0};
    CHECK(as_reinterpret(T("float3"), T("float4"), g3, f4) == NOTE_AS_W &&
              g3[0] == 1 && g3[1] == 2 && g3[2] == 3, "as_float3(float4)");
    /* as_int3(float4) likewise */
    int32_t i3[4];
    CHECK(as_reinterpret(T("int3"), T("float4"), i3, f4) == NOTE_AS_W &&
              memcmp(i3, want4, 12) == 0, "as_int3(float4)");

    /* as_double4(float4): an error, nothing written */
    uint8_t d4[32];
    memset(d4, 0xcd, sizeof d4);
    CHECK(as_reinterpret(T("double4"), T("float4"), d4, f4) == -1, "size");
    for (size_t k = 0; k < sizeof d4; k++)
        CHECK(d4[k] == 0xcd, "as_double4 wrote byte %zu", k);

    /* as_float4(float3): accepted, implementation-defined */
    float g4[4];
    CHECK(as_reinterpret(T("float4"), T("float3"), g4, f4) == NOTE_AS_3TO4 &&
              g4[0] == 1 && g4[1] == 2 && g4[2] == 3, "as_float4(float3)");
}

/* Memory order on little-endian memory, whatever the host. */
static void memory_order(void)
{
    int32_t i = 0x12345678;
    int16_t s2[2];
    CHECK(as_reinterpret(T("short2"), T("int"), s2, &i) == NOTE_AS_COUNT &&
              s2[0] == 0x5678 && s2[1] == 0x1234, "as_short2(0x12345678)");
    int32_t i4[4] = {1, 2, 3, 4};
    int16_t s8[8];
    static const int16_t w8[8] = {1, 0, 2, 0, 3, 0, 4, 0};
    CHECK(as_reinterpret(T("short8"), T("int4"), s8, i4) == NOTE_AS_COUNT &&
              memcmp(s8, w8, sizeof s8) == 0, "as_short8(int4)");
    uint64_t l = 0x0102030405060708u;
    uint8_t c8[8];
    CHECK(as_reinterpret(T("uchar8"), T("ulong"), c8, &l) == NOTE_AS_COUNT &&
              c8[0] == 8 && c8[7] == 1, "as_uchar8(ulong)");
    uint32_t back;
    uint16_t h2[2] = {0x3c00, 0xc000};
    CHECK(as_reinterpret(T("uint"), T("half2"), &back, h2) == NOTE_AS_COUNT &&
              back == 0xc0003c00u, "as_uint(half2)");
    /* in place */
    uint32_t io = 0xaabbccddu;
    uint16_t o2[2];
    CHECK(as_reinterpret(T("ushort2"), T("uint"), &io, &io) == NOTE_AS_COUNT,
          "in place");
    memcpy(o2, &io, 4);
    CHECK(o2[0] == 0xccdd && o2[1] == 0xaabb, "in place order");
}

/* The bits survive: NaN payloads, signalling NaNs, -0.0, denormals. */
static void bits_preserved(void)
{
    static const uint32_t f32[] = {0x7f800001u, 0xff800001u, 0x7fbfffffu,
                                   0x7fc00001u, 0x80000000u, 0x00000001u};
    for (size_t k = 0; k < sizeof f32 / sizeof f32[0]; k++) {
        uint32_t in = f32[k], mid = 0, out = 0;
        float fv;
        CHECK(as_reinterpret(T("float"), T("uint"), &fv, &in) == 0, "float");
        memcpy(&mid, &fv, 4);
        CHECK(mid == in, "as_float(%#x) = %#x", (unsigned)in, (unsigned)mid);
        CHECK(as_reinterpret(T("int"), T("float"), &out, &fv) == 0 &&
                  out == in, "as_int(float %#x)", (unsigned)in);
    }
    static const uint64_t f64[] = {0x7ff0000000000001u, 0xfff0000000000001u,
                                   0x7ff7ffffffffffffu, 0x8000000000000000u};
    for (size_t k = 0; k < sizeof f64 / sizeof f64[0]; k++) {
        uint64_t in = f64[k], mid, out = 0;
        double dv;
        CHECK(as_reinterpret(T("double"), T("ulong"), &dv, &in) == 0, "dbl");
        memcpy(&mid, &dv, 8);
        CHECK(mid == in, "as_double(%#llx)", (unsigned long long)in);
        CHECK(as_reinterpret(T("long"), T("double"), &out, &dv) == 0 &&
                  out == in, "as_long(double %#llx)", (unsigned long long)in);
    }
    /* double sNaN split into floats: low word first */
    uint64_t sn = 0x7ff0000000000001u;
    uint32_t two[2];
    CHECK(as_reinterpret(T("float2"), T("double"), two, &sn) ==
                  NOTE_AS_COUNT && two[0] == 1 && two[1] == 0x7ff00000u,
          "as_float2(double sNaN)");
    uint16_t h = 0x7c01, hs = 0;
    CHECK(as_reinterpret(T("short"), T("half"), &hs, &h) == 0 && hs == 0x7c01,
          "as_short(half sNaN)");
}

int main(void)
{
    RUN(classify_every_pair);
    RUN(classify_named_cases);
    RUN(reinterpret_every_pair);
    RUN(spec_examples);
    RUN(memory_order);
    RUN(bits_preserved);
    return t_summary("reinterpret");
}
