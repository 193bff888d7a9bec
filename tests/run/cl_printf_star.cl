// RUN: clvm run %s --global 2
// printf's '*' width and precision through SPIR-V: the int arguments
// before each value (tests/run/printf_star.clasm in OpenCL C). PoCL 3.1
// does not take '*' ("printf format string error"), so only C99 says what
// this prints.
kernel void k(void)
{
    int i = get_global_id(0);
    int2 v = (int2)(-3, 42);
    printf("[%*d] [%-*d] [%.*f] [%*.*e] [%*v2hld]\n", 5, i, 4, i, 2, 3.14159f, 12, 3, 1.5, -6, v);
    printf("[%.*d] [%*c] [%0*x] [%*u] [%-*.*o]\n", -1, i, 3, 65, i + 3, 255, -4, 7u, 6, 3, 8);
}
