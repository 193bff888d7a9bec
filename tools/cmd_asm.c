/* Placeholder: being written now; replaced before anything lands. */
#include <stdio.h>

#include "cmds.h"

int cmd_asm(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "clvm %s: not built yet\n", argv[0]);
    return 2;
}
