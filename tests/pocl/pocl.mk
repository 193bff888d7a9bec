# tests/pocl: the PoCL measurement program and the test of the pocl
# profile against live PoCL (tests/pocl/pocl.c). Built when the OpenCL
# headers are installed; `make pocl-table` prints the evidence table.
POCL_HAVE_CL := $(shell printf '\043include <CL/cl.h>\n' | \
                  $(CC) -E -x c - >/dev/null 2>&1 && echo yes)
ifeq ($(POCL_HAVE_CL),yes)
$(BUILD)/pocl/pocl: tests/pocl/pocl.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $< $(LIB) -lOpenCL $(LDLIBS) -o $@

# the test run.sh picks up: `pocl check` under the test_* name
$(BUILD)/tests/test_pocl: $(BUILD)/pocl/pocl
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec "%s" check\n' "$(abspath $<)" > $@
	chmod +x $@

all: $(BUILD)/tests/test_pocl

pocl-table: $(BUILD)/pocl/pocl
	$(BUILD)/pocl/pocl table
	$(BUILD)/pocl/pocl arith
	$(BUILD)/pocl/pocl narrow
	$(BUILD)/pocl/pocl as
.PHONY: pocl-table
endif
