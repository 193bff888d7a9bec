// RUN: clvm run %s --global 4 --local 4 --threads 1 --profile strict --arg d=zeros:4
// Every work-item stores the same value to d[0]: a data race by the
// letter of OpenCL C, which the strict profile reports;
// --check races lets a store of the value already there pass, as
// Oclgrind does (race_uniform_ok.cl).
kernel void uniform(global int *d)
{
    d[0] = 7;
}
