/* clvm exec: runs a host program with clvm as its only OpenCL platform,
 * without installing anything (the ICD loader reads OCL_ICD_VENDORS). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stdlib/profile.h"
#include "tools/cmds.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: clvm exec [--profile NAME] [--break KERNEL] [--] "
               "PROGRAM [ARGS...]\n\n"
               "Runs PROGRAM with clvm's OpenCL platform (libclvm-icd.so) as "
               "the only one the\nICD loader offers. --profile NAME (clvm, "
               "strict, nvidia, pocl) decides the\nimplementation-defined "
               "results of its kernels (also CLVM_PROFILE=NAME).\n"
               "--break KERNEL opens the REPL (clvm repl) on the first launch "
               "of KERNEL, on\nthis command's standard input and output, "
               "stopped at its start; continue once\nthe kernel has "
               "finished, or quit, lets the launch run and PROGRAM go on.\n");
}

/* The library beside this executable (the build folder), or where
 * `make install` puts it (PREFIX/lib/clvm). */
static int find_lib(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    const char *dir = dirname(exe);
    static const char *const rel[] = {"libclvm-icd.so",
                                      "../lib/clvm/libclvm-icd.so"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        if (snprintf(out, len, "%s/%s", dir, rel[i]) >= (int)len)
            return -1;
        if (!access(out, R_OK))
            return 0;
    }
    return -1;
}

/* --break: the kernel, and this command's standard input and output for
 * the REPL (copies above the low descriptors the program may reuse). */
static int pass_terminal(const char *kernel)
{
    int in = fcntl(0, F_DUPFD, 10), out = fcntl(1, F_DUPFD, 10);
    char fds[32];
    if (in < 0 || out < 0) {
        fprintf(stderr, "clvm exec: --break needs a standard input and "
                        "output for the REPL: %s\n", strerror(errno));
        return -1;
    }
    snprintf(fds, sizeof fds, "%d,%d", in, out);
    setenv("CLVM_BREAK", kernel, 1);
    setenv("CLVM_BREAK_FD", fds, 1);
    return 0;
}

int cmd_exec(int argc, char **argv)
{
    int i = 1;
    const char *prof = NULL, *brk = NULL;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
            prof = argv[++i];
        } else if (!strcmp(argv[i], "--break") && i + 1 < argc) {
            brk = argv[++i];
        } else {
            fprintf(stderr, "clvm exec: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "clvm exec: no program to run\n");
        usage(stderr);
        return 2;
    }
    if (prof && prof_parse(prof) < 0) {
        fprintf(stderr, "clvm exec: no profile '%s' (clvm, strict, nvidia, "
                        "pocl)\n", prof);
        return 2;
    }
    char lib[PATH_MAX];
    if (find_lib(lib, sizeof lib)) {
        fprintf(stderr, "clvm exec: libclvm-icd.so is neither beside clvm "
                        "nor in ../lib/clvm (build it with make)\n");
        return 2;
    }
    setenv("OCL_ICD_VENDORS", lib, 1);
    if (prof)
        setenv("CLVM_PROFILE", prof, 1);
    if (brk && pass_terminal(brk))
        return 2;
    execvp(argv[i], argv + i);
    fprintf(stderr, "clvm exec: %s: %s\n", argv[i], strerror(errno));
    return 127;
}
