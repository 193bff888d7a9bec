# `make difftest SEED=n COUNT=m`: differential testing against the OpenCL
# implementation installed (PoCL), included by the Makefile. Kernels SEED:0
# .. SEED:COUNT-1 (tests/diff/gen.c); mismatches are shrunk and written to
# $(BUILD)/difftest/. The default COUNT takes about five minutes on two
# cores. Without the OpenCL headers or a platform every kernel is skipped.
SEED  ?= 1
COUNT ?= 1000
DIFF_HAVE_CL := $(shell printf '\043include <CL/cl.h>\n' | \
                  $(CC) -E -x c - >/dev/null 2>&1 && echo yes)
DIFF_SRC := tests/diff/difftest.c tests/diff/dtchild.c tests/diff/dtjobs.c tests/diff/dtprint.c tests/diff/gen.c tests/diff/gensync.c tests/diff/accuracy.c
# The OpenCL implementation compared against: PoCL, pinned through the ICD
# loader so that no other installed platform is picked up first. Where
# this file is not, the loader's own choice stands (DIFF_ICD= unpins).
DIFF_ICD ?= $(wildcard /usr/lib/x86_64-linux-gnu/libpocl.so.2)

$(BUILD)/diff/difftest: $(DIFF_SRC) tests/diff/gen.h tests/diff/genint.h tests/diff/dtchild.h tests/diff/dtjobs.h tests/diff/dtprint.h tests/diff/accuracy.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DIFF_SRC) $(LIB) $(LDFLAGS) -lOpenCL $(LDLIBS) -o $@

ifeq ($(DIFF_HAVE_CL),yes)
# tests/diff/timeout.sh (in make test) runs it on clvm's own platform
test: $(BUILD)/diff/difftest
difftest: $(BUILD)/diff/difftest
	$(if $(DIFF_ICD),OCL_ICD_VENDORS=$(DIFF_ICD) )$(BUILD)/diff/difftest --seed $(SEED) --count $(COUNT) --out $(BUILD)/difftest
else
difftest:
	@echo "difftest: no OpenCL headers (ocl-icd-opencl-dev): every kernel skipped"
	@echo "difftest: 0 passed, 0 failed, $(COUNT) skipped"
endif

.PHONY: difftest
