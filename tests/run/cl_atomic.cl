// RUN: clvm run %s --global 512 --local 128 --threads 4 --arg cnt=zeros:16 --arg s=zeros:64 --arg m=@tests/run/data/ff12.bin --arg f=zeros:16 --arg big=zeros:24 --arg t=local:12 --arg u=@tests/run/data/ff12.bin --arg tiles=zeros:16 --print cnt --print s --print m:hex --print f --print big --print u --print tiles
// OpenCL C atomics through SPIR-V (OpAtomicIAdd ... OpAtomicCompareExchange,
// OpMemoryBarrier): contention in a warp, across warps and across groups on
// 4 threads. The values printed do not depend on the order of the groups;
// PoCL gives the same, but for s[14] and s[15] (the order of work-items in
// a group, which clvm defines: tests/spirv/sync_pocl.py compares).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomics(global uint *cnt, global int *s, global int *m,
                    global float *f, global long *big, local uint *t,
                    global uint *u,
                    global uint *tiles)
{
    int i = get_global_id(0);
    uint g = get_group_id(0), l = get_local_id(0);
    if (l == 0)                       // local memory starts undefined
        t[0] = t[1] = t[2] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (atomic_inc(&cnt[g]) != l)     // in order within the group
        atomic_add(&s[15], 1000);
    atomic_add(&s[0], i);
    atomic_sub(&s[1], i);
    atomic_dec(&s[2]);
    atomic_min(&s[3], i - 300);
    atomic_max(&s[4], 700 - i);
    atomic_min(&u[0], (uint)i + 5u);
    atomic_max(&u[1], (uint)i * 3u);
    atom_min(&u[2], (uint)i + 5u);
    atomic_or(&s[7], 1 << (i % 32));
    atomic_xor(&s[8], i * 40503);
    atomic_and(&m[0], ~(1 << (i % 31)));
    atom_add(&s[9], 2);
    atom_inc(&s[10]);
    // a chain: work-item l succeeds after work-item l - 1 (clvm's order)
    if (atomic_cmpxchg(&t[2], l, l + 1) != l)
        atomic_add(&s[14], 1);
    atomic_xchg(&f[g], (float)l + 0.25f);
    atom_add(&big[0], 3000000000L);
    atom_min(&big[1], -(long)i * 1000000000L);
    atom_xor(&big[2], (long)(i + 1) << 33);
    atomic_inc(&t[0]);
    atomic_add(&t[1], l);
    mem_fence(CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        tiles[g] = t[0] + t[1];
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
}
