// RUN: clvm run %s --global 1 --arg p=zeros:16
// printf's argument of another type than its conversion wants (%f of an
// int: undefined in C99) is refused with the .cl line (clang only warns).
#pragma clang diagnostic ignored "-Wformat"
kernel void k(global float *p)
{
    int i = get_global_id(0);
    printf("%d %f\n", i, i);
}
