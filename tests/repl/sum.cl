// A loop for tests/repl/cl_step.repl: sum = K * (0 + 1 + ... + (n - 1)).
kernel void total(global int *out, int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += i * K;
    out[get_global_id(0)] = sum;
}
