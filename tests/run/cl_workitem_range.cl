// RUN: clvm run %s --global 4 --local 2 --arg out=zeros:16 --print out
// The work-item functions with a constant dimension past 2 (the CTS's
// work_item_functions_out_of_range_hardcoded): get_global_id, get_local_id,
// get_group_id and get_global_offset give 0, get_global_size,
// get_local_size and get_num_groups give 1. Each work-item writes its
// global id times 1000 plus those six values as digits: 1000*g + 111.
kernel void k(global uint *out)
{
    uint g = get_global_id(0);
    out[g] = 1000 * g + 100000 * (uint)get_global_id(4) + 10000 * (uint)get_local_id(3) +
             (uint)get_global_size(3) * 100 + (uint)get_local_size(7) * 10 +
             (uint)get_num_groups(5) + 1000000 * (uint)get_group_id(3) +
             10000000 * (uint)get_global_offset(9);
}
