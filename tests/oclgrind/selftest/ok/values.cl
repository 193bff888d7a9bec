kernel void values(global float *f, global char *c, global ulong *h, global int *i, int4 v, global double *d)
{
  size_t g = get_global_id(0);
  f[g] = f[g] * 2.0f;
  c[g] = (char)(c[g] - 3);
  h[g] = h[g] << 4;
  i[g] = i[g] + v.s3;
  d[g] = d[g] / 3.0;
}
