/* The accuracy OpenCL C 1.2 allows each math built-in (full profile), for
 * comparing two implementations' results (tests/diff/accuracy.c). */
#ifndef CLVM_DIFF_ACCURACY_H
#define CLVM_DIFF_ACCURACY_H

#include <stdbool.h>

#include "stdlib/mathfn.h"

/* Is f a floating math function (the table must give its bound)? */
bool dt_acc_float_fn(enum mathfn f);

/* Exits with a message if a floating function of stdlib/mathfn.h has no
 * row in the spec's table: a new built-in must say what the spec allows. */
void dt_acc_check_table(void);

/* Does the spec bound f's float (dbl: double) results, so that the
 * difftest can compare them? */
bool dt_acc_compared(enum mathfn f, bool dbl);

/* How far apart two results may be: PoCL's spec bound plus clvm's own (in
 * ulps of clvm's result; for mix and smoothstep an absolute error). 0: the
 * bits must be equal. n: the vector width; second: the pointer output. */
double dt_acc_bound(enum mathfn f, bool dbl, unsigned n, bool second);

/* Are ref (clvm's) and v (the other's) within that? *apart: the distance. */
bool dt_acc_within(enum mathfn f, bool dbl, unsigned n, bool second, double ref,
                   double v, double *apart);

/* The known fault of PoCL (docs/difftest.md, "Faults found in PoCL")
 * that explains v where clvm gives ref, or 0: 4 and 5, vector forms of
 * some functions far outside their bound (the scalar forms are right);
 * 6, the sign of sinpi's and tanpi's zeros at integers. clvm's values are
 * checked against MPFR by tests/unit/test_libm.c. */
int dt_acc_pocl_fault(enum mathfn f, bool dbl, unsigned n, double ref, double v);

#endif
