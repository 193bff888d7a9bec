/* clvm: the command-line front end. Dispatches to tools/cmd_*.c. */
#include <stdio.h>
#include <string.h>

#include "tools/cmds.h"

static const struct {
    const char *name, *summary;
    int (*fn)(int, char **);
} commands[] = {
#define X(name, fn, summary) {#name, summary, fn},
    CLVM_COMMANDS(X)
#undef X
};

static void usage(FILE *f)
{
    fprintf(f, "usage: clvm COMMAND [ARGS...]\n\n"
               "An interpreter of OpenCL C kernels that shows exactly what "
               "GPU types do to bits.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`clvm COMMAND --help` describes one; `clvm --version`.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("clvm %s\n", CLVM_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "clvm: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
