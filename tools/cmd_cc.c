/* clvm cc: an OpenCL C file into a bytecode module, through clang-14,
 * llvm-spirv-14 and the SPIR-V translator (docs/opencl-c.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cc.h"
#include "tools/cmds.h"
#include "tools/file.h"
#include "vm/bcfile.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: clvm cc KERNEL.cl [-o OUT.bc] [CLANG OPTIONS...]\n\n"
               "Compiles OpenCL C with clang-14 -cl-std=CL1.2 -target spir64 "
               "-O0 and\nllvm-spirv-14, translates the SPIR-V into a verified "
               "bytecode module and\nwrites it (default: KERNEL.bc). Every "
               "other option goes to clang (-D, -I,\n-cl-std=, -Werror, ...); "
               "docs/opencl-c.md says which change clvm's results.\n"
               "The compile cache ($XDG_CACHE_HOME/clvm) skips clang for a "
               "file compiled before\nwith the same options; "
               "CLVM_NO_CACHE=1 bypasses it.\n\n"
               "exit status: 0 written, 1 the kernel did not compile or "
               "translate, 2 usage\nor I/O error\n");
}

int cmd_cc(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    char **opts = calloc((size_t)argc + 1, sizeof *opts);
    int nopts = 0;
    if (!opts)
        return 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(opts);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (cc_take_opt(argc, argv, &i, opts, &nopts)) {
            continue;
        } else if (argv[i][0] == '-') {   /* --long options: clang's too */
            opts[nopts++] = argv[i];
        } else if (!in) {
            in = argv[i];
        } else {
            fprintf(stderr, "clvm cc: more than one input file\n");
            free(opts);
            return 2;
        }
    }
    if (!in) {
        usage(stderr);
        free(opts);
        return 2;
    }
    char *derived = NULL;
    if (!out) {
        if (!(derived = file_with_ext(in, ".bc"))) {
            free(opts);
            return 2;
        }
        out = derived;
    }
    bc_module m;
    char why[512];
    int rc = 0;
    if (cc_load(in, opts, nopts, &m, stderr, why, sizeof why)) {
        fprintf(stderr, "clvm cc: %s\n", why);
        rc = 1;
    } else {
        char err[512];
        if (bc_save_file(out, &m, err, sizeof err)) {
            fprintf(stderr, "clvm cc: %s\n", err);
            rc = 2;
        }
        bc_free(&m);
    }
    free(derived);
    free(opts);
    return rc;
}
