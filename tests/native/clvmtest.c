/* The host library the host-call tests load with --native
 * (tests/run/ffi_*.clasm): scalar, per-lane vector and pointer calls. */
#include <stdint.h>

/* Prototypes: the library has no header of its own. */
int32_t clvmtest_add(int32_t a, int32_t b);
float clvmtest_scale(float x, float k);
double clvmtest_hyp(double a, double b);
uint8_t clvmtest_inc8(uint8_t x);
int16_t clvmtest_neg16(int16_t x);
uint64_t clvmtest_mix64(uint64_t a, int8_t s);
void clvmtest_fill(float *p, int32_t n, float v);
int64_t clvmtest_sum(const int32_t *p, int32_t n);

/* Not a function: binding an extern to it must fail. */
int32_t clvmtest_data = 42;

int32_t clvmtest_add(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

float clvmtest_scale(float x, float k) { return x * k; }

double clvmtest_hyp(double a, double b) { return a * a + b * b; }

uint8_t clvmtest_inc8(uint8_t x) { return (uint8_t)(x + 1); }

int16_t clvmtest_neg16(int16_t x) { return (int16_t)-x; }

uint64_t clvmtest_mix64(uint64_t a, int8_t s)
{
    return (a << 8) ^ (uint64_t)(int64_t)s;
}

void clvmtest_fill(float *p, int32_t n, float v)
{
    for (int32_t i = 0; i < n; i++)
        p[i] = v + (float)i;
}

int64_t clvmtest_sum(const int32_t *p, int32_t n)
{
    int64_t s = 0;
    for (int32_t i = 0; i < n; i++)
        s += p[i];
    return s;
}
