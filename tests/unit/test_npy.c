/* tools/npy.c: .npy headers as NumPy writes them, and every malformed
 * header refused with a message rather than read as data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/test.h"
#include "tools/file.h"
#include "tools/npy.h"

/* The header clvm writes is byte for byte the one numpy.save wrote for the
 * same array (the files under tests/run/data were made by NumPy 1.24). */
static void header_matches_numpy(void)
{
    static const struct { const char *file; ty_t t; uint64_t count; } cases[] = {
        {"tests/run/data/f32x16.npy", {TY_FLOAT, 1}, 16},
        {"tests/run/data/f32x4x4.npy", {TY_FLOAT, 4}, 4},
        {"tests/run/data/i32x5.npy", {TY_INT, 1}, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n;
        uint8_t *f = file_read(cases[i].file, &n), hdr[NPY_HDR_MAX];
        CHECK(f != NULL, "%s", cases[i].file);
        if (!f)
            continue;
        size_t hl = npy_header(cases[i].t, cases[i].count, hdr);
        CHECK(hl % 64 == 0 && hl <= n && !memcmp(f, hdr, hl), "%s", cases[i].file);
        npy_info ni;
        char why[256] = "";
        CHECK(!npy_parse(f, n, &ni, why, sizeof why), "%s: %s", cases[i].file, why);
        uint64_t lanes = ty_lanes(cases[i].t);
        CHECK(ni.s == cases[i].t.s && ni.count == cases[i].count * lanes &&
              ni.data == hl, "%s", cases[i].file);
        free(f);
    }
}

/* A whole file: magic, version, header length, dictionary, data. */
static size_t build(uint8_t *buf, unsigned major, const char *dict,
                    size_t data)
{
    size_t dl = strlen(dict), at = major == 1 ? 10 : 12;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (uint8_t)major, buf[7] = 0;
    for (unsigned k = 0; k < (major == 1 ? 2u : 4u); k++)
        buf[8 + k] = (uint8_t)(dl >> 8 * k);
    memcpy(buf + at, dict, dl);
    memset(buf + at + dl, 0, data);
    return at + dl + data;
}

static void versions_and_forms(void)
{
    uint8_t buf[512];
    npy_info ni;
    char why[256] = "";
    size_t n = build(buf, 2, "{\"shape\": (2, 3), \"descr\": \"<f8\", "
                     "\"fortran_order\": False}\n", 48);
    CHECK(!npy_parse(buf, n, &ni, why, sizeof why) && ni.s == TY_DOUBLE &&
          ni.count == 6 && ni.data == n - 48, "version 2, keys in any order: %s", why);
    n = build(buf, 3, "{'descr': '|u1', 'fortran_order': False, 'shape': ()}", 1);
    CHECK(!npy_parse(buf, n, &ni, why, sizeof why) && ni.s == TY_UCHAR &&
          ni.count == 1, "a 0-d array is one element: %s", why);
    n = build(buf, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (0,), }", 0);
    CHECK(!npy_parse(buf, n, &ni, why, sizeof why) && ni.s == TY_HALF &&
          ni.count == 0, "an empty half array: %s", why);
}

static void refuses(void)
{
    static const struct { unsigned major; const char *dict; size_t data; const char *msg; } bad[] = {
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 15, "holds 15 bytes"},
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 17, "holds 17 bytes"},
        {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", 4, "not an OpenCL C scalar"},
        {1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", 8, "not an OpenCL C scalar"},
        {1, "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", 4, "structured"},
        {1, "{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", 8, "big-endian"},
        {1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16, "Fortran-order"},
        {1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }", 4, "True or False"},
        {1, "{'descr': '<f4', 'shape': (99999999999, 99999999999), }", 4, "malformed shape"},
        {1, "{'descr': '<f4', 'shape': (1,), 'extra': 1}", 4, "unknown key 'extra'"},
        {1, "{'descr': '<f4'}", 4, "lacks 'shape'"},
        {1, "{'shape': (1,)}", 4, "lacks 'descr'"},
        {1, "['descr']", 4, "not a dictionary"},
        {1, "{'descr' '<f4'}", 4, "malformed dictionary"},
        {4, "{}", 0, "version 4.0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t buf[512];
        npy_info ni;
        char why[256] = "";
        size_t n = build(buf, bad[i].major, bad[i].dict, bad[i].data);
        CHECK(npy_parse(buf, n, &ni, why, sizeof why) && strstr(why, bad[i].msg),
              "%s: got '%s'", bad[i].dict, why);
    }
    /* Every prefix of a good file is refused, never read past its end. */
    uint8_t buf[512];
    size_t n = build(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 16);
    for (size_t k = 0; k < n; k++) {
        npy_info ni;
        char why[256] = "";
        uint8_t *cut = malloc(k ? k : 1);
        memcpy(cut, buf, k);
        CHECK(npy_parse(cut, k, &ni, why, sizeof why) && why[0], "prefix of %zu bytes", k);
        free(cut);
    }
}

int main(void)
{
    RUN(header_matches_numpy);
    RUN(versions_and_forms);
    RUN(refuses);
    return t_summary("npy");
}
