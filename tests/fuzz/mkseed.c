/* mkseed IN.clasm OUT.bc: assembles a seed for the byte-level fuzz targets
 * with nothing but asm/ and vm/ (fuzz.mk's seed step). Exit 1 if IN does
 * not assemble: not every .clasm under tests/ is meant to. */
#include <stdio.h>
#include <stdlib.h>

#include "asm/asm.h"
#include "vm/bcfile.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mkseed IN.clasm OUT.bc\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    char *src = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap && !(src = realloc(src, cap = cap * 2 + 4096)))
            return 2;
        got = fread(src + len, 1, cap - len, f);
        len += got;
    } while (got);
    fclose(f);
    bc_module m;
    int rc = asm_assemble(src, len, argv[1], &m, NULL) ? 1 : 0;
    char err[512];
    if (!rc && bc_save_file(argv[2], &m, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        rc = 2;
    }
    if (!rc)
        bc_free(&m);
    free(src);
    return rc;
}
