/* clvm asm: IR text (.clasm) into bytecode (.bc). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "vm/bcfile.h"
#include "tools/cmds.h"
#include "tools/file.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: clvm asm [-o OUT.bc] IN.clasm\n\n"
               "Assembles IR (docs/ir.md) into a verified bytecode module.\n"
               "Without -o the output is IN with its extension replaced by "
               ".bc;\nIN may be - for standard input.\n\n"
               "exit status: 0 assembled, 1 errors in the input, 2 usage "
               "or I/O error\n");
}

int cmd_asm(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "clvm asm: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (!in) {
            in = argv[i];
        } else {
            fprintf(stderr, "clvm asm: more than one input file\n");
            return 2;
        }
    }
    if (!in) {
        usage(stderr);
        return 2;
    }
    char *derived = NULL;
    if (!out) {
        if (!strcmp(in, "-")) {
            fprintf(stderr, "clvm asm: reading standard input needs -o\n");
            return 2;
        }
        if (!(derived = file_with_ext(in, ".bc")))
            return 2;
        out = derived;
    }
    size_t len = 0;
    char *src = file_read(in, &len);
    if (!src) {
        fprintf(stderr, "clvm asm: cannot read '%s': %s\n", in,
                strerror(errno));
        free(derived);
        return 2;
    }
    bc_module m;
    int nerr = asm_assemble(src, len, strcmp(in, "-") ? in : "<stdin>", &m,
                            stderr);
    free(src);
    int rc = 0;
    if (nerr) {
        fprintf(stderr, "%d error%s\n", nerr, nerr == 1 ? "" : "s");
        rc = 1;
    } else {
        char err[512];
        if (bc_save_file(out, &m, err, sizeof err)) {
            fprintf(stderr, "clvm asm: %s\n", err);
            rc = 2;
        }
        bc_free(&m);
    }
    free(derived);
    return rc;
}
