// RUN: clvm run %s --global 1
// clang's diagnostics reach the user as clang writes them.
kernel void bad(global int *p)
{
    p[0] = 1
}
