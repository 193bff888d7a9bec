// RUN: clvm run %s --global 32,4 --local 16,4 --warp 8 --threads 4 --arg out=zeros:512 --print out:uint:hex
// Where nothing can tell, a work-group's warps run apart, on several
// threads (docs/semantics.md, Threads): 2 groups of 16x4 work-items in
// warps of 8, 16 units. Every work-item still sees its own group's ids:
// group, local ids and global id in the bytes of its word.
kernel void ids(global uint *out)
{
    uint i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    out[i] = get_group_id(0) << 24 | get_local_id(1) << 20 |
             get_local_id(0) << 8 | i;
}
