/* The geometric built-ins (dot, length, distance, normalize, cross and the
 * fast_ forms) and shuffle over one work-item's vectors: plain arrays of
 * n components, float operands as their exact doubles (f32: give the value
 * as a float rounds it, once). Never the host's libm: stdlib/libm.h only.
 * docs/semantics.md ("Geometric functions") gives the error bounds. */
#ifndef CLVM_GEOM_H
#define CLVM_GEOM_H

#include <stdbool.h>
#include <stdint.h>

double geom_dot(const double *x, const double *y, unsigned n, bool f32);
double geom_length(const double *x, unsigned n, bool f32);
/* length(x - y), the difference rounded to the type first */
double geom_distance(const double *x, const double *y, unsigned n, bool f32);
/* r = x / length(x); all zero: x itself; infinite components: the unit
 * vector toward them; a NaN: NaN */
void geom_normalize(double *r, const double *x, unsigned n, bool f32);
/* r = x.xyz x y.xyz (r[3] = 0 when n is 4) */
void geom_cross(double *r, const double *x, const double *y, unsigned n,
                bool f32);
/* r[k] = (x ++ y)[mask[k] modulo n (one vector) or 2n (two)], k < m */
void geom_shuffle(uint64_t *r, const uint64_t *x, const uint64_t *y,
                  const uint64_t *mask, unsigned n, unsigned m, bool two);

#endif
