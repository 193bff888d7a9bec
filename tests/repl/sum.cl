// A loop for tests/repl/cl_step.repl: sum = 2 * (0 + 1 + ... + (n - 1)).
kernel void total(global int *out, int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += i * 2;
    out[get_global_id(0)] = sum;
}
