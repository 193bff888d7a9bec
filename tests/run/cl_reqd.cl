// RUN: clvm run %s --global 8,2 --local 4,2 --arg o=zeros:64 --print o
// reqd_work_group_size(4, 2, 1), launched with that local size (each
// work-item stores 10 * local size 0 + local size 1: 42; without --local it
// takes it too: tests/unit/test_ocl_api.c); cl_reqd_bad.cl gives another
// --local, which the NDRange refuses.
__kernel __attribute__((reqd_work_group_size(4, 2, 1)))
void k(__global uint *o)
{
    o[get_global_id(1) * 8 + get_global_id(0)] =
        get_local_size(0) * 10 + get_local_size(1);
}
