/* clvm dis: bytecode printed back as IR that assembles to the same bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/bcfile.h"
#include "asm/spirv/spirv.h"
#include "tools/cc.h"
#include "tools/cmds.h"
#include "tools/file.h"
#include "asm/dis.h"
#include "asm/optab.h"
#include "asm/sigs.h"
#include "stdlib/mathfn.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: clvm dis [-v] IN.bc|IN.spv|IN.cl [CLANG OPTIONS]\n"
               "       clvm dis --opcodes-md | --mathfn-md | --builtins-md\n\n"
               "Prints a module as IR (docs/ir.md); `clvm asm` turns the "
               "output back\ninto identical bytes. SPIR-V and OpenCL C are "
               "translated first\n(docs/opencl-c.md); options with one "
               "dash other than -v go to clang.\n\n"
               "  -v, --verbose   add '// pc  OPCODE  synopsis' to each "
               "instruction\n"
               "  --opcodes-md    print the opcode table of docs/ir.md "
               "(from vm/opcodes.def)\n"
               "  --mathfn-md     print the built-in accuracy table of "
               "docs/semantics.md\n                  (from stdlib/mathfn.h)\n"
               "  --builtins-md   print the list of built-ins of docs/ir.md "
               "(from the\n                  assembler's tables)\n\n"
               "exit status: 0 printed, 1 invalid module, 2 usage or I/O "
               "error\n");
}

/* Disassembles file `in` (OpenCL C compiled with opts) to stdout. */
static int dis_file(const char *in, char **opts, int nopts, unsigned flags)
{
    size_t len = 0;
    uint8_t *buf = file_read(in, &len);
    if (!buf) {
        fprintf(stderr, "clvm dis: cannot read '%s': %s\n", in,
                strerror(errno));
        return 2;
    }
    bc_module m;
    char err[512];
    size_t il = strlen(in);
    int rc;
    if (nopts && !(il > 3 && !strcmp(in + il - 3, ".cl"))) {
        fprintf(stderr, "clvm dis: %s: clang options (%s ...) apply to "
                "OpenCL C only\n", in, opts[0]);
        free(buf);
        return 2;
    }
    /* SPIR-V (by its magic) and OpenCL C (.cl) are translated first. */
    if (spv_is(buf, len))
        rc = spv_translate(buf, len, in, &m, stderr) ? 1 : 0,
        snprintf(err, sizeof err, "not translated from SPIR-V");
    else if (il > 3 && !strcmp(in + il - 3, ".cl"))
        rc = cc_load(in, opts, nopts, &m, stderr, err, sizeof err);
    else
        rc = bc_read(buf, len, &m, err, sizeof err);
    free(buf);
    if (rc) {
        fprintf(stderr, "clvm dis: %s: %s\n", in, err);
        return 1;
    }
    rc = dis_module(&m, stdout, flags) ? 1 : 0;
    bc_free(&m);
    if (fflush(stdout)) {
        fprintf(stderr, "clvm dis: write error: %s\n", strerror(errno));
        return 2;
    }
    return rc;
}

/* The writer of the generated documentation table an option names
 * (make docs), or NULL. */
static void (*md_table(const char *opt))(FILE *)
{
    static const struct {
        const char *opt;
        void (*write)(FILE *);
    } t[] = {{"--opcodes-md", op_write_md},
             {"--mathfn-md", mathfn_write_md},
             {"--builtins-md", asm_builtins_md}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (!strcmp(opt, t[i].opt))
            return t[i].write;
    return NULL;
}

int cmd_dis(int argc, char **argv)
{
    const char *in = NULL;
    void (*md)(FILE *);
    unsigned flags = 0;
    char **opts = calloc((size_t)argc + 1, sizeof *opts);
    int nopts = 0, rc = 2;
    if (!opts)
        return 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            rc = 0;
            goto out;
        } else if ((md = md_table(argv[i]))) {
            md(stdout);
            rc = 0;
            goto out;
        } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
            flags |= DIS_VERBOSE;
        } else if (cc_take_opt(argc, argv, &i, opts, &nopts)) {
            continue;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "clvm dis: unknown option '%s'\n", argv[i]);
            usage(stderr);
            goto out;
        } else if (!in) {
            in = argv[i];
        } else {
            fprintf(stderr, "clvm dis: more than one input file\n");
            goto out;
        }
    }
    if (!in) {
        usage(stderr);
        goto out;
    }
    rc = dis_file(in, opts, nopts, flags);
out:
    free(opts);
    return rc;
}
