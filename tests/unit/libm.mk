# clvm's math library (stdlib/libm*.c): its MPFR test and exhaustive check.
# MPFR (libmpfr-dev) is the reference; only these programs link it.

$(BUILD)/tests/test_libm: $(BUILD)/obj/tests/unit/test_libm.o $(TLIB_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -lmpfr -lgmp -o $@

# Every float through every one-argument float function, against MPFR.
$(BUILD)/exhaustive-libm: tests/unit/exhaustive_libm.c $(LIB)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) -O2 -g -ffp-contract=off $^ $(LDLIBS) -lmpfr -lgmp -o $@

check-exhaustive-libm: $(BUILD)/exhaustive-libm
	$(BUILD)/exhaustive-libm

check-exhaustive: check-exhaustive-libm

# Rewrites stdlib/libm_tab.c (mpmath).
libm-tables:
	python3 tests/unit/libm_gen.py > stdlib/libm_tab.c

.PHONY: check-exhaustive-libm libm-tables
