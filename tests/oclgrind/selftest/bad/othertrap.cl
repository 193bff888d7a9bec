kernel void trap(global int *a, global int *b)
{
  size_t i = get_global_id(0);
  b[i] = a[i + 1];
}
