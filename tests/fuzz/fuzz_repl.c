/* Fuzz target: the REPL (tools/repl.h) driven as a user at its prompt,
 * against one of the example kernels, loaded and ready to run.
 *
 * Input: a selector byte, then text.
 *   selector  s % NSETUP picks the session's start (setups[] below: a
 *             kernel loaded with its NDRange and every argument, or
 *             nothing loaded); (s / NSETUP) % 4 the warp width after it
 *             (as set up, 1, 4 or 16)
 *   text      lines (ended by '\n'), each run by repl_exec as if typed:
 *             at most MAX_LINES of them, each cut at MAX_LINE bytes; NUL
 *             bytes are dropped
 * Paths are relative: it runs from the repository root (fuzz.sh does).
 * FUZZ_REPL_ECHO=1 in the environment shows the session, as clvm repl
 * --echo would (the setup's lines too).
 *
 * Bounds, so that no input hangs or exhausts the fuzzer: every warp runs
 * at most MAX_STEPS instructions (the nd field --max-steps sets), and a
 * veto (repl.veto) skips the commands that would ask for more than
 * MAX_ITEMS work-items or buffers of more than MAX_BYTES (the REPL itself
 * would go on: allocating them is what a user asked for), and any past
 * the first MAX_CMDS of an input or its first MAX_RUNS that run the kernel
 * (a line of `run;run;...` would otherwise be a hundred runs). Files need no
 * filter: file_read refuses devices such as /dev/zero, and standard input
 * is /dev/null. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "tools/repl.h"
#include "tools/runargs.h"

enum {
    MAX_LINES = 64,
    MAX_LINE = 512,
    MAX_STEPS = 1000,     /* per warp; the examples need at most ~100 */
    MAX_ITEMS = 256,      /* work-items of the NDRange */
    MAX_BYTES = 4096,     /* zeros: and local: buffers (x prints them) */
    MAX_CMDS = 256,       /* commands of an input (';' makes many a line) */
    MAX_RUNS = 32,        /* of them run, step, next and continue */
};

/* The examples' own commands (their RUN lines and README), a test
 * kernel with a barrier and one that traps, and no kernel at all
 * (expressions only). */
static const char *const setups[] = {
    "load examples/reduce.clasm\nglobal 64\nlocal 64\narg tmp=local:256\n"
    "arg sums=zeros:4",
    "load examples/saxpy.clasm\nglobal 4\narg a=2\n"
    "arg x=@examples/data/ramp.bin\narg y=@examples/data/ramp.bin",
    "load examples/as_type.clasm\nglobal 1\narg f=(float4)(1, 2, 3, 4)\n"
    "arg g=(float4)(2.5)\narg u=zeros:4\narg i=zeros:16\narg sel=zeros:16\n"
    "arg f3=zeros:16",
    "load examples/convert.clasm\nglobal 3\narg rte=zeros:48\n"
    "arg rtz=zeros:48\narg rtp=zeros:48\narg rtn=zeros:48\narg c=zeros:8",
    "load examples/half.clasm\nglobal 2\narg rte=zeros:16\narg rtz=zeros:16\n"
    "arg rtp=zeros:16\narg rtn=zeros:16\narg back=zeros:32",
    "load examples/pixel.clasm\nglobal 6\narg px=@examples/data/pixels.bin\n"
    "arg div=zeros:96\narg mul=zeros:96",
    "load examples/printf.clasm\nglobal 4",
    "load examples/vload.clasm\nglobal 4\narg x=@examples/data/ramp.bin\n"
    "arg out3=zeros:48\narg out4=zeros:64\narg out8=zeros:32",
    "load tests/repl/barrier.clasm\nglobal 16\nlocal 8\nwarp 4\n"
    "arg out=zeros:8\narg tmp=local:32",
    "load tests/repl/trap.clasm\nglobal 4\narg x=zeros:16\narg y=zeros:16",
    "",
};
enum { NSETUP = sizeof setups / sizeof *setups };

static bool echo;   /* FUZZ_REPL_ECHO: stdout kept, each line shown */

static unsigned ncmds, nruns;   /* of the current input */

static bool veto(repl *r, int cmd, const char *args)
{
    (void)r;
    if (++ncmds > MAX_CMDS)
        return true;
    if (cmd == RC_run || cmd == RC_step || cmd == RC_next ||
        cmd == RC_continue)
        return ++nruns > MAX_RUNS;
    uint64_t v[3] = {1, 1, 1};
    if (cmd == RC_global && ra_numlist(args, v)) {
        /* each factor first: the product could wrap */
        return v[0] > MAX_ITEMS || v[1] > MAX_ITEMS || v[2] > MAX_ITEMS ||
               v[0] * v[1] * v[2] > MAX_ITEMS;
    }
    if (cmd == RC_arg) {
        /* NAME=VALUE, as ra_arg_param and ra_make_arg split it */
        const char *val = strchr(args, '=');
        if (val && (!strncmp(val + 1, "zeros:", 6) ||
                    !strncmp(val + 1, "local:", 6)))
            return ra_number(val + 7, strlen(val + 7), &v[0]) &&
                   v[0] > MAX_BYTES;
    }
    return false;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* what the REPL prints, thrown away (it is most of the time
     * otherwise) unless FUZZ_REPL_ECHO is set, to see what an input does;
     * nothing it reads may wait for a terminal */
    const char *e = getenv("FUZZ_REPL_ECHO");
    echo = e && *e;
    FUZZ_CHECK(echo || freopen("/dev/null", "w", stdout) != NULL,
               "cannot open /dev/null");
    FUZZ_CHECK(freopen("/dev/null", "r", stdin) != NULL,
               "cannot open /dev/null");
    if (access("examples/reduce.clasm", R_OK)) {
        fprintf(stderr, "fuzz_repl: run it from the repository root (no "
                "examples/reduce.clasm here)\n");
        exit(2);
    }
    return 0;
}

/* Runs text[0..n) a line at a time; false once a line quit. */
static bool lines(repl *r, const uint8_t *text, size_t n, unsigned max)
{
    char line[MAX_LINE + 1];
    size_t len = 0;
    unsigned count = 0;
    for (size_t i = 0; i <= n && count < max; i++) {
        if (i < n && text[i] != '\n') {
            if (text[i] && len < MAX_LINE)
                line[len++] = (char)text[i];
            continue;
        }
        if (i == n && !len)
            break;
        line[len] = 0;
        len = 0;
        count++;
        if (echo)
            printf("clvm> %s\n", line);
        if (repl_exec(r, line))
            return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const warps[] = {NULL, "warp 1", "warp 4",
                                        "warp 16"};
    if (size < 1)
        return 0;
    repl r;
    FUZZ_CHECK(repl_init(&r), "out of memory");
    r.nd.max_steps = MAX_STEPS;
    const char *setup = setups[data[0] % NSETUP];
    const char *warp = warps[data[0] / NSETUP % 4];
    lines(&r, (const uint8_t *)setup, strlen(setup), UINT32_MAX);
    FUZZ_CHECK(!*setup || r.loaded, "the setup did not load its kernel");
    if (warp)
        lines(&r, (const uint8_t *)warp, strlen(warp), 1);
    FUZZ_CHECK(!r.errors, "the setup failed");
    /* the input's commands, and only those, are counted and vetoed */
    r.veto = veto;
    ncmds = nruns = 0;
    lines(&r, data + 1, size - 1, MAX_LINES);
    repl_fini(&r);
    return 0;
}
