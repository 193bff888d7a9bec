#include <string.h>

#include "tests/lib/test.h"
#include "stdlib/types.h"

static void names_round_trip(void)
{
    for (int s = 0; s < TY_NSCALAR; s++)
        for (unsigned n = 1; n <= 16; n++) {
            if (!ty_valid_width(n))
                continue;
            ty_t t = {(uint8_t)s, (uint8_t)n}, u;
            char buf[TY_NAME_MAX];
            ty_name(t, buf);
            CHECK(ty_parse(buf, strlen(buf), &u) && ty_eq(t, u), "%s", buf);
        }
}

static void sizes_and_alignment(void)
{
    static const struct { const char *name; size_t size; } cases[] = {
        {"char", 1},    {"uchar3", 4},  {"short2", 4},   {"ushort16", 32},
        {"int3", 16},   {"uint4", 16},  {"long8", 64},   {"ulong16", 128},
        {"half", 2},    {"half3", 8},   {"float3", 16},  {"double3", 32},
        {"double16", 128},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ty_t t;
        CHECK(ty_parse(cases[i].name, strlen(cases[i].name), &t), "%s",
              cases[i].name);
        CHECK(ty_sizeof(t) == cases[i].size, "sizeof(%s) = %zu", cases[i].name,
              ty_sizeof(t));
        CHECK(ty_alignof(t) == cases[i].size, "alignof(%s)", cases[i].name);
    }
}

static void rejects_non_types(void)
{
    static const char *bad[] = {"", "float5", "int1", "char32", "uint04",
                                "bool", "floatx", "size_t", "float160"};
    ty_t t;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!ty_parse(bad[i], strlen(bad[i]), &t), "accepted %s", bad[i]);
    CHECK(ty_parse_prefix("uchar4_sat", 10, &t) == 6 && t.s == TY_UCHAR &&
              t.n == 4, "prefix");
}

int main(void)
{
    RUN(names_round_trip);
    RUN(sizes_and_alignment);
    RUN(rejects_non_types);
    return t_summary("types");
}
