#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/test.h"
#include "tools/conformvec.h"

/* Files go into a fresh temporary directory, removed at the end. */
static char dir[256];
static char path[512];

static void make_dir(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/clvm_vectors_XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        perror(dir);
        exit(1);
    }
}

/* Writes len bytes of text to <dir>/name and opens it. */
static vec_reader *open_text(const char *name, const char *text, size_t len)
{
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
        perror(path);
        exit(1);
    }
    return vec_open(path);
}

static vec_reader *open_str(const char *name, const char *text)
{
    return open_text(name, text, strlen(text));
}

static void done(vec_reader *r)
{
    vec_close(r);
    remove(path);
}

static bool bytes_are(const uint8_t *b, size_t n, const char *hex)
{
    char buf[256];
    return n < 128 && strcmp(vec_hex(buf, b, NULL, n), hex) == 0;
}

static void good_lines(void)
{
    static const char text[] =
        "# header\n"
        "#   first comment\n"
        "convert_char4_sat_rte\tfloat4\t-\t0000803f000000c00000c07f0000807f"
        "\t01fe007f\tdefined\n"
        "\n"
        "as_float3\tint4\t-\t0100000002000000030000000400000"
        "0\t0100000002000000030000000???????\timpl:pocl-cpu\r\n"
        "#second\r\n"
        "vload3\tshort\t1\tfafffbfffcfffdfffeffffff\tFDFFFEFFFFFF????\t"
        "nvidia-gpu-disagrees\n"
        "vstore_half2_rtz\tdouble2\t18446744073709551615\t"
        "000000000000f03f000000000000f0bf\tcdcd\tdefined";
    vec_reader *r = open_str("good.tsv", text);
    vec_case c;
    char hex[256];
    CHECK(r != NULL, "open");
    if (!r)
        return;

    CHECK(vec_next(r, &c) == 1, "case 1: %s", vec_error(r));
    CHECK(c.line == 3 && strcmp(c.file, path) == 0, "line %lu", c.line);
    CHECK(strcmp(c.comment, "first comment") == 0, "comment '%s'", c.comment);
    CHECK(strcmp(c.opname, "convert_char4_sat_rte") == 0, "%s", c.opname);
    CHECK(c.op.kind == BI_CONVERT && c.op.type.s == TY_CHAR &&
              c.op.type.n == 4 && c.op.sat && c.op.has_round &&
              c.op.round == RND_RTE, "op");
    CHECK(c.src.s == TY_FLOAT && c.src.n == 4 && !c.has_arg, "src");
    CHECK(c.src_len == 16 && bytes_are(c.src_bytes, 16,
                                       "0000803f000000c00000c07f0000807f"),
          "src bytes");
    CHECK(c.expect_len == 4 && bytes_are(c.expect, 4, "01fe007f") &&
              bytes_are(c.care, 4, "ffffffff"), "expect");
    CHECK(c.cls == VEC_DEFINED && strcmp(c.cls_name, "defined") == 0 &&
              strcmp(c.device, "") == 0, "class");

    CHECK(vec_next(r, &c) == 1, "case 2: %s", vec_error(r));
    CHECK(c.line == 5 && strcmp(c.comment, "first comment") == 0,
          "line %lu, comment '%s'", c.line, c.comment);
    CHECK(c.op.kind == BI_AS && c.op.type.s == TY_FLOAT && c.op.n == 3 &&
              c.src.s == TY_INT && c.src.n == 4, "as_float3(int4)");
    CHECK(c.expect_len == 16 &&
              strcmp(vec_hex(hex, c.expect, c.care, 16),
                     "0100000002000000030000000???????") == 0 &&
              bytes_are(c.care, 16, "fffffffffffffffffffffffff0000000"),
          "care %s", hex);
    CHECK(c.cls == VEC_IMPL && strcmp(c.device, "pocl-cpu") == 0 &&
              strcmp(c.cls_name, "impl:pocl-cpu") == 0, "impl class, CRLF");

    CHECK(vec_next(r, &c) == 1, "case 3: %s", vec_error(r));
    CHECK(c.line == 7 && strcmp(c.comment, "second") == 0, "line %lu '%s'",
          c.line, c.comment);
    CHECK(c.op.kind == BI_VLOAD && c.op.n == 3 && c.src.s == TY_SHORT &&
              c.src.n == 1 && c.has_arg && c.arg == 1 && c.src_len == 12,
          "vload3");
    CHECK(bytes_are(c.expect, 8, "fdfffeffffff0000") &&
              strcmp(vec_hex(hex, c.expect, c.care, 8), "fdfffeffffff????") ==
                  0, "upper-case hex: %s", hex);
    CHECK(c.cls == VEC_DISAGREES && strcmp(c.device, "nvidia-gpu") == 0 &&
              strcmp(c.cls_name, "nvidia-gpu-disagrees") == 0, "disagrees");

    CHECK(vec_next(r, &c) == 1, "case 4: %s", vec_error(r));
    CHECK(c.line == 8 && c.op.kind == BI_VSTORE_HALF && c.op.n == 2 &&
              c.op.round == RND_RTZ && c.src.s == TY_DOUBLE &&
              c.arg == UINT64_MAX && c.expect_len == 2,
          "vstore_half2_rtz, no final newline");
    CHECK(vec_next(r, &c) == 0 && vec_next(r, &c) == 0, "end");
    done(r);

    /* Empty and comment-only files, a lone CR. */
    r = open_str("empty.tsv", "");
    CHECK(r && vec_next(r, &c) == 0, "empty");
    done(r);
    r = open_str("comments.tsv", "# a\n#\n\n  \n\r\n# b");
    CHECK(r && vec_next(r, &c) == 0, "comments only");
    done(r);
    CHECK(vec_open("/nonexistent/dir/x.tsv") == NULL, "missing file");
}

/* One malformed line between two good ones: the error names the file and
 * line, and reading goes on after it. */
static void malformed_lines(void)
{
    static const char good[] = "convert_int\tfloat\t-\t0000803f\t01000000\t"
                               "defined";
    static const struct { const char *line, *msg; } cases[] = {
        {"convert_int\tfloat\t-\t0000803f\t01000000",
         "wrong column count: 5, want 6"},
        {"convert_int\tfloat\t-\t0000803f\t01000000\tdefined\t",
         "wrong column count: 7, want 6"},
        {"convert_int float - 0000803f 01000000 defined",
         "wrong column count: 1, want 6"},
        {"convert_int\tfloat\t-\t0000g03f\t01000000\tdefined",
         "src_hex: bad hex digit 'g' at position 5"},
        {"convert_int\tfloat\t-\t?000803f\t01000000\tdefined",
         "src_hex: bad hex digit '?' at position 1"},
        {"convert_int\tfloat\t-\t0000803f\t01 00000\tdefined",
         "expect_hex: bad hex digit ' ' at position 3"},
        {"convert_int\tfloat\t-\t0000803\t01000000\tdefined",
         "src_hex: odd hex length 7"},
        {"convert_int\tfloat\t-\t0000803f\t0100000\tdefined",
         "expect_hex: odd hex length 7"},
        {"convert_float5\tfloat\t-\t0000803f\t01000000\tdefined",
         "unknown op 'convert_float5' (bad type name)"},
        {"frobnicate\tfloat\t-\t0000803f\t01000000\tdefined",
         "unknown op 'frobnicate' (not a built-in clvm knows)"},
        {"vstore_half4_rtq\tfloat4\t0\t00\t00\tdefined",
         "unknown op 'vstore_half4_rtq' (unknown suffix)"},
        {"convert_float_sat\tint\t-\t00000000\t00000000\tdefined",
         "illegal op 'convert_float_sat': _sat needs an integer destination"},
        {"vload4_rte\tfloat\t0\t00\t00\tdefined",
         "illegal op 'vload4_rte': a rounding suffix is only for convert_ "
         "and vstore(a)_half"},
        {"convert_int\tfloat5\t-\t0000803f\t01000000\tdefined",
         "unknown type 'float5'"},
        {"convert_int\t\t-\t0000803f\t01000000\tdefined", "unknown type ''"},
        {"convert_int\tfloat\t-\t0000803f00\t01000000\tdefined",
         "src_hex has 5 bytes, sizeof(float) is 4"},
        {"convert_int\tfloat\t-\t0000803f\t0100\tdefined",
         "expect_hex has 2 bytes, the result int takes 4"},
        {"convert_int3\tfloat3\t-\t0000803f0000803f0000803f\t"
         "010000000100000001000000????????\tdefined",
         "src_hex has 12 bytes, sizeof(float3) is 16"},
        {"convert_int2\tfloat4\t-\t0000803f\t01000000\tdefined",
         "convert_int2 needs a 2-element operand, not float4"},
        {"as_int\tdouble\t-\t0000000000000000\t00000000\tdefined",
         "as_int of double: sizes differ (8, 4)"},
        {"as_float4\tint2\t-\t0000000000000000\t00000000\tdefined",
         "as_float4 of int2: sizes differ (8, 16)"},
        {"convert_int\tfloat\t3\t0000803f\t01000000\tdefined",
         "arg must be '-' for convert_int"},
        {"vload2\tfloat\t-\t0000803f0000803f\t0000803f0000803f\tdefined",
         "vload2 needs an offset as arg"},
        {"vload2\tfloat\tx1\t0000803f0000803f\t0000803f0000803f\tdefined",
         "bad arg 'x1' (want '-' or a decimal offset)"},
        {"vload2\tfloat\t-1\t0000803f0000803f\t0000803f0000803f\tdefined",
         "bad arg '-1' (want '-' or a decimal offset)"},
        {"vload2\tfloat\t18446744073709551616\t00\t0000803f0000803f\tdefined",
         "bad arg '18446744073709551616' (want '-' or a decimal offset)"},
        {"vload2\tfloat\t\t00\t0000803f0000803f\tdefined", "empty arg"},
        {"vload2\tfloat2\t0\t00\t0000803f0000803f\tdefined",
         "vload2: src_type must be the pointee scalar, not float2"},
        {"vload3\tfloat\t0\t00\t0000803f0000803f0000803f\tdefined",
         "expect_hex has 12 bytes, the result float3 takes 16"},
        {"vload_half\tfloat\t0\t0000\t0000803f\tdefined",
         "vload_half: src_type must be half, not float"},
        {"vloada_half2\thalf\t0\t0000\t0000803f\tdefined",
         "expect_hex has 4 bytes, the result float2 takes 8"},
        {"vstore4\tfloat2\t0\t0000803f0000803f\tcdcd\tdefined",
         "vstore4 stores 4 elements, not a float2"},
        {"vstore2\tfloat2\t0\t0000803f\tcdcd\tdefined",
         "src_hex has 4 bytes, sizeof(float2) is 8"},
        {"vstore_half\tint\t0\t00000000\tcdcd\tdefined",
         "vstore_half stores float or double, not int"},
        {"vstorea_half3\tdouble4\t0\t00\tcdcd\tdefined",
         "vstorea_half3 stores 3 elements, not a double4"},
        {"convert_int\tfloat\t-\t0000803f\t01000000\tDefined",
         "unknown class 'Defined'"},
        {"convert_int\tfloat\t-\t0000803f\t01000000\timpl:",
         "unknown class 'impl:'"},
        {"convert_int\tfloat\t-\t0000803f\t01000000\t-disagrees",
         "unknown class '-disagrees'"},
        {"convert_int\tfloat\t-\t0000803f\t01000000\t",
         "unknown class ''"},
        {"convert_int\tfloat\t-\t0000803f\t01000000\tdefined ",
         "unknown class 'defined '"},
        {"convert_int\tfloat\t-\t0000803f\t01000000\tx\x01y",
         "unknown class 'x?y'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], want[1024];
        vec_reader *r;
        vec_case c;
        int got;
        snprintf(text, sizeof text, "# head\n%s\n%s\n%s\n", good,
                 cases[i].line, good);
        r = open_str("bad.tsv", text);
        if (!r) {
            CHECK(0, "open");
            continue;
        }
        snprintf(want, sizeof want, "%s:3: %s", path, cases[i].msg);
        CHECK(vec_next(r, &c) == 1 && c.line == 2, "good line 2: %s",
              vec_error(r));
        got = vec_next(r, &c);
        CHECK(got == -1 && strcmp(vec_error(r), want) == 0,
              "case %zu: got %d '%s', want '%s'", i, got, vec_error(r), want);
        CHECK(vec_next(r, &c) == 1 && c.line == 4 && strcmp(vec_error(r), "")
              == 0, "line 4 after the error: %s", vec_error(r));
        CHECK(vec_next(r, &c) == 0, "end");
        done(r);
    }

    /* A NUL inside a line; a very long line. */
    {
        static const char t[] = "convert_int\tfl\0at\t-\t0000803f\t01000000"
                                "\tdefined\n";
        vec_reader *r = open_text("nul.tsv", t, sizeof t - 1);
        vec_case c;
        char want[600];
        snprintf(want, sizeof want, "%s:1: NUL byte in line", path);
        CHECK(r && vec_next(r, &c) == -1 && strcmp(vec_error(r), want) == 0,
              "%s", r ? vec_error(r) : "open");
        CHECK(r && vec_next(r, &c) == 0, "end");
        done(r);
    }
    {
        size_t n = 3u << 20;   /* a 1.5 MB load buffer: valid */
        char *t = malloc(n + 200), *p = t;
        vec_reader *r;
        vec_case c;
        p += sprintf(p, "vload2\tuchar\t1\t");
        memset(p, 'a', n), p += n;
        sprintf(p, "\tabab\tdefined\n");
        r = open_str("long.tsv", t);
        CHECK(r && vec_next(r, &c) == 1 && c.src_len == n / 2 &&
                  c.src_bytes[n / 2 - 1] == 0xaa && c.expect[1] == 0xab,
              "long line: %s", r ? vec_error(r) : "open");
        done(r);
        free(t);
    }
}

/* Reads one case from a one-line file into c (kept open in *rp). */
static bool one(vec_reader **rp, vec_case *c, const char *line)
{
    *rp = open_str("cmp.tsv", line);
    if (*rp && vec_next(*rp, c) == 1)
        return true;
    CHECK(0, "could not read '%s': %s", line, *rp ? vec_error(*rp) : "");
    return false;
}

static bool cmp(const vec_case *c, const char *hex)
{
    uint8_t b[64];
    size_t n = strlen(hex) / 2;
    if (n != c->expect_len || n > sizeof b)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return false;
        b[i] = (uint8_t)v;
    }
    return vec_compare(c, b);
}

static void comparison_rules(void)
{
    static const struct { const char *line, *got; bool match; } cases[] = {
        /* as_: bit-exact, NaN payloads included. */
        {"as_float\tint\t-\t0000c07f\t0000c07f\tdefined", "0000c07f", true},
        {"as_float\tint\t-\t0000c07f\t0000c07f\tdefined", "0100c07f", false},
        {"as_float\tint\t-\t0000c07f\t0000c07f\tdefined", "0000c0ff", false},
        /* ... except '?' nibbles. */
        {"as_short2\tint\t-\t78563412\t????????\tdefined", "deadbeef", true},
        {"as_float3\tfloat4\t-\t0000803f000000400000404000008040\t"
         "0000803f0000004000004040????????\tdefined",
         "0000803f0000004000004040ffffffff", true},
        {"as_float3\tfloat4\t-\t0000803f000000400000404000008040\t"
         "0000803f0000004000004040????????\tdefined",
         "0000803f0000004000004041ffffffff", false},
        {"as_int\tfloat\t-\t00000000\t1?2?3?4?\tdefined", "1f2e3d4c", true},
        {"as_int\tfloat\t-\t00000000\t1?2?3?4?\tdefined", "1f2e3d5c", false},
        /* convert_ to float/double/half: an expected NaN matches any NaN. */
        {"convert_float\tdouble\t-\t000000000000f87f\t0000c07f\tdefined",
         "0000c07f", true},
        {"convert_float\tdouble\t-\t000000000000f87f\t0000c07f\tdefined",
         "0100c0ff", true},
        {"convert_float\tdouble\t-\t000000000000f87f\t0000c07f\tdefined",
         "0100807f", true},
        {"convert_float\tdouble\t-\t000000000000f87f\t0000c07f\tdefined",
         "0000807f", false},
        {"convert_float\tdouble\t-\t000000000000f87f\t0000c07f\tdefined",
         "00000000", false},
        {"convert_double\tfloat\t-\t0000c07f\t000000000000f87f\tdefined",
         "010000000000f07f", true},
        {"convert_double\tfloat\t-\t0000c07f\t000000000000f87f\tdefined",
         "000000000000f07f", false},
        {"convert_half\tfloat\t-\t0000c07f\t007e\tdefined", "017c", true},
        {"convert_half\tfloat\t-\t0000c07f\t007e\tdefined", "007c", false},
        /* ... but +0 and -0 differ, and non-NaN values are bit-exact. */
        {"convert_float\tdouble\t-\t0000000000000080\t00000080\tdefined",
         "00000000", false},
        {"convert_float\tdouble\t-\t0000000000000000\t00000000\tdefined",
         "00000080", false},
        {"convert_float\tint\t-\t01000000\t0000803f\tdefined", "0100803f",
         false},
        /* Per element: lane 2 NaN, lane 0 exact, lane 3 '?'. */
        {"convert_float3\tdouble3\t-\t"
         "000000000000f03f0000000000000000000000000000f87f0000000000000000\t"
         "0000803f000000000000c07f????????\tdefined",
         "0000803f00000000ffffffff12345678", true},
        {"convert_float3\tdouble3\t-\t"
         "000000000000f03f0000000000000000000000000000f87f0000000000000000\t"
         "0000803f000000000000c07f????????\tdefined",
         "0000803f00000080ffffffff12345678", false},
        /* A NaN with '?' nibbles is not a known NaN: masked bits only. */
        {"convert_float\tdouble\t-\t000000000000f87f\t0?00c07f\tdefined",
         "0f00c07f", true},
        {"convert_float\tdouble\t-\t000000000000f87f\t0?00c07f\tdefined",
         "0000c0ff", false},
        /* Integer results: no NaN rule. */
        {"convert_int\tfloat\t-\t0000c07f\t0000c07f\tdefined", "0100c07f",
         false},
        {"convert_uchar\tfloat\t-\t0000803f\t01\tdefined", "01", true},
        /* vload_half: float results, NaN matches NaN. */
        {"vload_half\thalf\t0\t007e\t0000c07f\tdefined", "0000ffff", true},
        {"vload_half\thalf\t0\t007e\t0000c07f\tdefined", "0000807f", false},
        {"vloada_half3\thalf\t0\t007e00000000\t0000c07f000000000000803f"
         "????????\tdefined",
         "0000c0ff000000000000803f00000000", true},
        {"vloada_half3\thalf\t0\t007e00000000\t0000c07f000000000000803f"
         "????????\tdefined",
         "0000c0ff000000000000803e00000000", false},
        /* vloadN of half: bit-exact, payloads kept. */
        {"vload2\thalf\t0\t007e017c\t007e017c\tdefined", "007e017c", true},
        {"vload2\thalf\t0\t007e017c\t007e017c\tdefined", "017e017c", false},
        {"vload3\tfloat\t0\t00\t0000c07f0000c07f0000c07f????????\tdefined",
         "0000c07f0000c07f0100c07f00000000", false},
        /* vstoreN: the buffer, bit-exact. */
        {"vstore2\tuchar2\t3\ta1b2\tcdcdcdcdcdcda1b2cdcd\tdefined",
         "cdcdcdcdcdcda1b2cdcd", true},
        {"vstore2\tuchar2\t3\ta1b2\tcdcdcdcdcdcda1b2cdcd\tdefined",
         "cdcdcdcdcdcda1b2cdcc", false},
        /* vstore_half: a NaN half matches any NaN half, rest exact. */
        {"vstore_half\tfloat\t1\t0000c07f\tcdcd007ecdcd\tdefined",
         "cdcd017ccdcd", true},
        {"vstore_half\tfloat\t1\t0000c07f\tcdcd007ecdcd\tdefined",
         "cdcd00fecdcd", true},
        {"vstore_half\tfloat\t1\t0000c07f\tcdcd007ecdcd\tdefined",
         "cdcd007ccdcd", false},
        {"vstore_half\tfloat\t1\t0000c07f\tcdcd007ecdcd\tdefined",
         "cdcc007ecdcd", false},
        {"vstore_half\tfloat\t1\t0000c07f\tcdcd007ecdcd\tdefined",
         "cdcd007ecdcf", false},
        {"vstore_half\tfloat\t0\t0000803f\t003c\tdefined", "003c", true},
        {"vstore_half\tfloat\t0\t0000803f\t003c\tdefined", "013c", false},
        {"vstorea_half3\tfloat3\t1\t0000803f000000c00000003f0000c642\t"
         "cdcdcdcdcdcdcdcd003c00c00038????cdcd\tdefined",
         "cdcdcdcdcdcdcdcd003c00c000381234cdcd", true},
        {"vstorea_half3\tfloat3\t1\t0000803f000000c00000003f0000c642\t"
         "cdcdcdcdcdcdcdcd003c00c00038????cdcd\tdefined",
         "cdcdcdcdcdcdcdcd003c00c000391234cdcd", false},
        /* An odd-length store buffer: the last byte compares as a byte. */
        {"vstore_half\tfloat\t0\t0000c07f\t007ecd\tdefined", "017ccd", true},
        {"vstore_half\tfloat\t0\t0000c07f\t007ecd\tdefined", "017ccc", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vec_reader *r;
        vec_case c;
        if (one(&r, &c, cases[i].line))
            CHECK(cmp(&c, cases[i].got) == cases[i].match,
                  "case %zu: %s vs %s should %s", i, cases[i].line,
                  cases[i].got, cases[i].match ? "match" : "differ");
        done(r);
    }
}

static void hex_output(void)
{
    static const uint8_t b[] = {0x00, 0xab, 0xf0, 0x0f};
    static const uint8_t care[] = {0xff, 0xf0, 0x0f, 0x00};
    char out[16];
    CHECK(strcmp(vec_hex(out, b, NULL, 4), "00abf00f") == 0, "%s", out);
    CHECK(strcmp(vec_hex(out, b, care, 4), "00a??0??") == 0, "%s", out);
    CHECK(strcmp(vec_hex(out, b, NULL, 0), "") == 0, "empty");
}

static uint64_t lcg(uint64_t *s)
{
    return *s = *s * 6364136223846793005u + 1442695040888963407u;
}

/* Garbage and mutated lines: never a crash (run under ASan), every
 * non-comment line either a case or an error with its line number. */
static void robustness(void)
{
    static const char *const seeds[] = {
        "convert_char4_sat_rte\tfloat4\t-\t0000803f000000c00000c07f0000807f\t"
        "01fe007f\tdefined",
        "vstorea_half3\tfloat3\t1\t0000803f000000c00000003f0000c642\t"
        "cdcdcdcdcdcdcdcd003c00c00038????cdcd\tdefined",
        "vload3\tlong\t1\t0807060504030201100e0c0a\t"
        "201c1814100c080428231e19140f0a05302a241e18120c06????????????????\t"
        "impl:x",
    };
    static const char alphabet[] = "\t\r\n#?-_0123456789abcdefxconvert_as";
    uint64_t seed = 0x9e3779b97f4a7c15u;
    int all_cases = 0, all_errors = 0;
    for (int round = 0; round < 300; round++) {
        char text[4096];
        size_t n = 0;
        unsigned long lines = 1;
        vec_reader *r;
        vec_case c;
        int got, cases = 0, errors = 0;
        for (int l = 0; l < 20 && n < 3500; l++) {
            const char *s = seeds[l % 3];
            size_t len = strlen(s);
            memcpy(text + n, s, len);
            /* 0 to 3 mutations: a truncation or a byte from the alphabet
             * or anywhere. */
            for (int m = (int)(lcg(&seed) >> 40) % 4; m > 0 && len > 0; m--) {
                uint64_t x = lcg(&seed);
                size_t at = (size_t)(x >> 33) % len;
                unsigned kind = (unsigned)(x >> 20) % 4;
                if (kind == 0)
                    len = at;
                else
                    text[n + at] = kind == 3 ? (char)(x >> 8)
                                   : alphabet[(x >> 12) % (sizeof alphabet - 1)];
            }
            n += len;
            text[n++] = '\n';
        }
        for (size_t i = 0; i < n; i++)
            lines += text[i] == '\n';
        r = open_text("fuzz.tsv", text, n);
        if (!r) {
            CHECK(0, "open");
            return;
        }
        while ((got = vec_next(r, &c)) != 0) {
            if (got == 1) {
                cases++;
                CHECK(c.line >= 1 && c.line <= lines && !bi_check(&c.op),
                      "line %lu", c.line);
                CHECK(vec_compare(&c, c.expect), "a case matches its own "
                      "expectation: line %lu", c.line);
            } else {
                errors++;
                CHECK(strncmp(vec_error(r), path, strlen(path)) == 0,
                      "%s", vec_error(r));
            }
            if (cases + errors > 100) {
                CHECK(0, "runaway");
                break;
            }
        }
        done(r);
        all_cases += cases, all_errors += errors;
    }
    /* Both paths were exercised. */
    CHECK(all_cases > 500 && all_errors > 500, "%d cases, %d errors",
          all_cases, all_errors);
}

int main(void)
{
    make_dir();
    RUN(good_lines);
    RUN(malformed_lines);
    RUN(comparison_rules);
    RUN(hex_output);
    RUN(robustness);
    rmdir(dir);
    return t_summary("vectors");
}
