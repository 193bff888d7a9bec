// RUN: clvm run %s --global 4 --local 4 --threads 4 --check races --arg d=zeros:4 --arg e=zeros:4 --print d
// race_uniform.cl under --check races: the stores of one value pass;
// storing differing values (e[0] = l) would not.
kernel void uniform(global int *d, global int *e)
{
    d[0] = 7;
}
