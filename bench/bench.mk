# `make bench`: the reference benchmarks (bench/run.sh), included by the
# Makefile. The baselines are built at a fixed -O2, not with the user's
# CFLAGS, so a sanitizer or debug build does not change what clvm is
# compared with; clvm itself is the build's own.
BENCH_RUNS  ?= 5
BENCH_N     ?= 4194304
BENCH_LOOP_N ?= 16384
BENCH_MATH_N ?= 262144
BENCH_ITERS ?= 1000
BENCH_CFLAGS := -I. -O2 -g -std=c11 $(WARN) -ffp-contract=off -D_GNU_SOURCE
# The PoCL host is built when the OpenCL headers are installed
# (ocl-icd-opencl-dev); run.sh says when it is skipped.
BENCH_HAVE_CL := $(shell printf '\043include <CL/cl.h>\n' | \
                   $(CC) -E -x c - >/dev/null 2>&1 && echo yes)
BENCH_BIN := $(BUILD)/bench/gen $(BUILD)/bench/native \
             $(if $(BENCH_HAVE_CL),$(BUILD)/bench/pocl_host \
                                   $(BUILD)/bench/enqueue_host)
BENCH_ENQ_N ?= 20000

$(BUILD)/bench/gen: bench/gen.c bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $< -lm -o $@

$(BUILD)/bench/native: bench/native.c bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $< -lm -o $@

$(BUILD)/bench/pocl_host: bench/pocl_host.c bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $< -lOpenCL -lm -o $@

$(BUILD)/bench/enqueue_host: bench/enqueue_host.c bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $< -lOpenCL -lm -o $@

bench: $(BUILD)/clvm $(BUILD)/libclvm-icd.so $(BENCH_BIN)
	@BENCH_RUNS=$(BENCH_RUNS) BENCH_N=$(BENCH_N) BENCH_LOOP_N=$(BENCH_LOOP_N) \
	  BENCH_ENQ_N=$(BENCH_ENQ_N) \
	  BENCH_MATH_N=$(BENCH_MATH_N) \
	  BENCH_ITERS=$(BENCH_ITERS) CLVM_SHARED=$(SHARED) sh bench/run.sh $(BUILD)

.PHONY: bench

# tests/threads/run.sh (make test) writes the benchmarks' inputs with gen.
test: $(BUILD)/bench/gen

# make bench-insns: interpreter instruction counts under callgrind (BASE=
# another build directory to compare with).
bench-insns: $(BUILD)/clvm $(BUILD)/bench/gen
	@sh bench/insns.sh $(if $(BASE),$(BASE) )$(BUILD)

.PHONY: bench-insns

# make bench-scaling: bench and loop on 1..16 threads against plain C with
# OpenMP (bench/scaling.sh), native_omp built for this machine.
$(BUILD)/bench/native_omp: bench/native.c bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) -I. -O3 -march=native -fopenmp -g -std=c11 $(WARN) -ffp-contract=off \
	  -D_GNU_SOURCE $< -lm -o $@

bench-scaling: $(BUILD)/clvm $(BUILD)/bench/gen $(BUILD)/bench/native_omp
	@BENCH_RUNS=$(BENCH_SCALING_RUNS) sh bench/scaling.sh $(BUILD)

BENCH_SCALING_RUNS ?= 3

.PHONY: bench-scaling
