/* tools/json.c: nesting, commas and escaping; whatever bytes a name or a
 * kernel's printf holds, the output is valid JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/test.h"
#include "tools/json.h"

static char *capture(void (*fill)(json *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json j;
    js_open(&j, f);
    fill(&j);
    js_close(&j);
    fclose(f);
    return buf;
}

static void nested(json *j)
{
    js_str(j, "a", "x");
    js_arr(j, "b");
    js_u64(j, NULL, 1);
    js_i64(j, NULL, -2);
    js_end(j);
    js_obj(j, "c");
    js_end(j);
    js_arr(j, "d");
    js_obj(j, NULL);
    js_bool(j, "e", true);
    js_end(j);
    js_end(j);
    js_f64(j, "nan", (double)NAN);   /* not JSON: null */
    js_f64(j, "half", 0.5);
}

static void layout(void)
{
    char *s = capture(nested);
    const char *want =
        "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    -2\n  ],\n  \"c\": {},\n"
        "  \"d\": [\n    {\n      \"e\": true\n    }\n  ],\n  \"nan\": null,\n"
        "  \"half\": 0.5\n}\n";
    CHECK(!strcmp(s, want), "got:\n%s", s);
    free(s);
}

static const char tricky[] = "q\"b\\n\n\t\r\x01\x7f caf\xc3\xa9 \xe2\x82\xac"
                             " \xf0\x9f\x98\x80 bad:\xff\xc3(\xed\xa0\x80";

static void strings(json *j)
{
    js_strn(j, "s", tricky, sizeof tricky - 1);
}

static void escaping(void)
{
    char *s = capture(strings);
    const char *want = "{\n  \"s\": \"q\\\"b\\\\n\\n\\t\\r\\u0001\\u007f caf\xc3\xa9"
                       " \xe2\x82\xac \xf0\x9f\x98\x80 bad:\\u00ff\\u00c3("
                       "\\u00ed\\u00a0\\u0080\"\n}\n";
    CHECK(!strcmp(s, want), "got:\n%s\nwant:\n%s", s, want);
    free(s);
}

int main(void)
{
    RUN(layout);
    RUN(escaping);
    return t_summary("json");
}
