// A work-group sum in local memory with barriers, in OpenCL C
// (examples/reduce.clasm in clvm's IR); group g's sum has a closed form.
//   clvm run examples/reduce.cl --global 1024 --local 64 \
//     --arg tmp=local:256 --arg sums=zeros:64 --print sums
kernel void reduce(local uint *tmp, global uint *sums)
{
    uint gid = get_global_id(0);
    uint lid = get_local_id(0);
    uint n = get_local_size(0);
    tmp[lid] = gid;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[get_group_id(0)] = tmp[0];
}
