// RUN: clvm run %s --global 4 --local 4 --arg o=zeros:16 --arg n=1 --print o
// d[0] is computed once, before the branch (llvm-spirv's constant access
// chain), and used in both arms: the else arm, which runs, must compute
// the address too (pyopencl's scan kernels trapped with "a pointer never
// set"). o is 2, 2, 2, 2.
kernel void k(global int *o, int n)
{
    local int d[4][8];
    if (n > 2) {
        d[0][get_local_id(0)] = 1;
        o[get_global_id(0)] = d[0][get_local_id(0)];
    } else {
        d[0][get_local_id(0)] = 2;
        o[get_global_id(0)] = d[0][get_local_id(0)];
    }
}
