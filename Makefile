# clvm — plain Makefile. `make help` lists the targets.
#   make                  build everything under build/
#   make test             run the whole test suite (summary line last)
#   make sanitize         the whole suite under ASan+UBSan (build/san/)
#   make warn CC=clang    every C file through the compiler's checks alone
#   make check-exhaustive all 2^32 floats against the reference (long)
#   make DISPATCH=switch  the switch-dispatch build (build/switch/)
#   make bench            clvm vs PoCL vs plain C, RATIO lines (bench/)
#   make bench-insns      interpreter instruction counts (BASE=dir compares)
#   make difftest         generated kernels on clvm and PoCL, bit for bit
#   make fuzz             libFuzzer targets (FUZZ_SECONDS=n); fuzz-replay
#   make coverage         line and branch coverage of vm/ asm/ stdlib/
#   make pocl-table       the PoCL measurements behind --profile pocl
#   make cts              the Khronos CTS suites on clvm's platform (cts-ci: CI's share)
#   make pyopencl         pyopencl's own tests on clvm's platform

CC       ?= cc
OPT      ?= -O2
DISPATCH ?= goto
SHARED   ?= $(if $(CLVM_SHARED),$(CLVM_SHARED),../shared)

ifeq ($(DISPATCH),switch)
BUILD ?= build/switch
else
BUILD ?= build
endif

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS += -D_GNU_SOURCE -I.
CFLAGS  ?= $(OPT) -g
# CFLAGS is the user's (a sanitizer build sets it); what the project needs
# is added here so no command line can drop it. No FP contraction anywhere:
# a*b+c must round twice, as our documented mad and the vectors expect.
# -fPIC: the same objects make the ICD library; hidden visibility keeps
# that library's exports to the ICD entry points (and costs the
# executables nothing).
ALL_CFLAGS = $(CFLAGS) -std=c11 $(WARN) -ffp-contract=off -fPIC \
           -fvisibility=hidden \
           $(if $(filter switch,$(DISPATCH)),-DCLVM_SWITCH_DISPATCH)
# The interpreter's handler loops must vectorise (ARCHITECTURE.md).
VEC     ?= -O3
# libffi (host calls), libedit (the REPL's line editor), dlopen (--native).
PKGS    := libffi libedit
CPPFLAGS += $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lffi -ledit) \
           -ldl -lm -lpthread

LIB_SRC  := $(wildcard stdlib/*.c vm/*.c asm/*.c asm/spirv/*.c) \
            $(filter-out tools/main.c tools/demo.c,$(wildcard tools/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TLIB_SRC := $(wildcard tests/lib/*.c)
TLIB_OBJ := $(TLIB_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIB      := $(BUILD)/libclvm.a

# The library the host-call tests load with --native: one fixed path (the
# golden cases name it), built without sanitizers so every build can load
# it.
NATIVE_LIB := tests/native/libclvmtest.so

# The OpenCL platform (tools/ocl/): a vendor library for the ICD loader.
# -Bsymbolic: its own calls (the dispatch table too) must reach its own
# functions, not the loader's exports of the same names.
OCL_SRC  := $(wildcard tools/ocl/*.c)
OCL_OBJ  := $(OCL_SRC:%.c=$(BUILD)/obj/%.o)
ICD      := $(BUILD)/libclvm-icd.so

all: $(LIB) $(BUILD)/clvm $(BUILD)/demo $(UNIT_BIN) $(NATIVE_LIB) $(ICD) \
     $(BUILD)/examples/host_scale

$(ICD): $(OCL_OBJ) $(LIB)
	$(CC) -shared $(ALL_CFLAGS) $(LDFLAGS) -Wl,-z,defs -Wl,-Bsymbolic \
	  $(OCL_OBJ) $(LIB) \
	  $(LDLIBS) -o $@

$(NATIVE_LIB): $(wildcard tests/native/*.c)
	$(CC) -std=c11 $(WARN) -O1 -fPIC -shared $^ -o $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(EXTRA) -MMD -MP -c $< -o $@

$(BUILD)/obj/vm/helpers.o $(BUILD)/obj/vm/quiet.o: EXTRA = $(VEC)
# (the dispatch loops: LOOP_VEC, VEC unless a build says otherwise)
LOOP_VEC ?= $(VEC)
$(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard vm/loop_*.c)): EXTRA = $(LOOP_VEC)
# and vm/interp.c, which picks a loop: VEC may say -DCLVM_NO_AVX2
$(BUILD)/obj/vm/interp.o: EXTRA = $(VEC)
# the race check's per-warp loops (vm/race.c) vectorise too
$(BUILD)/obj/vm/race.o: EXTRA = $(VEC)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/clvm: $(BUILD)/obj/tools/main.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/demo: $(BUILD)/obj/tools/demo.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(TLIB_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The platform's test is a host program: through the ICD loader.
$(BUILD)/tests/test_ocl $(BUILD)/tests/test_ocl_api: LDLIBS += -lOpenCL

# The C host example (examples/host/), a golden case runs it on clvm.
$(BUILD)/examples/host_scale: examples/host/scale.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $< -lOpenCL -o $@

# The exhaustive check is always optimised: it walks 2^32 inputs.
$(BUILD)/exhaustive: tests/exhaustive.c $(TLIB_SRC) $(LIB)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) -O2 -g $^ $(LDLIBS) -o $@

# The tests also run the switch-dispatch interpreter (build/switch).
ifeq ($(DISPATCH),switch)
test: all
	@CLVM_SHARED=$(SHARED) sh tests/run.sh $(BUILD)
else
SWITCH_BUILD = $(BUILD)/switch
test: all
	@$(MAKE) -s DISPATCH=switch BUILD=$(SWITCH_BUILD) \
	  $(if $(SWITCH_VEC),VEC="$(SWITCH_VEC)") all
	@CLVM_SHARED=$(SHARED) sh tests/run.sh $(BUILD) $(SWITCH_BUILD)
endif

# The interpreter at -O1 here: what the sanitizers check is the source,
# and its three ISA copies with ASan at -O3 took 5 min of CI per build.
# The switch-dispatch copy is built for the base instruction set only
# (the switch is the point of that build, the ISAs are the main one's).
sanitize:
	$(MAKE) -s BUILD=build/san OPT="-O1" VEC="-O1" \
	  SWITCH_VEC="-O1 -DCLVM_NO_AVX2" \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" test

check-exhaustive: $(BUILD)/exhaustive check-exhaustive-half
	$(BUILD)/exhaustive

# Half arithmetic on every input (and every pair of halves) against MPFR
# and tests/lib/ref.c; one thread per CPU (-j N, -s STRIDE: see the file).
$(BUILD)/exhaustive-half: tests/exhaustive_half.c $(TLIB_SRC) $(LIB)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) -O2 -g -ffp-contract=off $^ $(LDLIBS) -lmpfr -lgmp -o $@

check-exhaustive-half: $(BUILD)/exhaustive-half
	$(BUILD)/exhaustive-half

# Its fixed-seed sample in make test also links MPFR.
$(BUILD)/tests/test_fp16: $(BUILD)/obj/tests/unit/test_fp16.o $(TLIB_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -lmpfr -lgmp -o $@

demo: $(BUILD)/demo
	$(BUILD)/demo

# make warn [CC=clang]: every C file of the project through the compiler's
# checks alone (-fsyntax-only, the build's flags): CI proves clang's
# warnings this way, as a whole clang build spent 9 min optimising code
# nothing runs.
WARN_SRC := $(LIB_SRC) tools/main.c tools/demo.c $(OCL_SRC) $(TLIB_SRC) \
            $(UNIT_SRC) $(wildcard tests/native/*.c tests/*.c bench/*.c) \
            examples/host/scale.c
warn:
	@printf '%s\n' $(WARN_SRC) | xargs -P $(or $(JOBS),2) -n 1 \
	  $(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fsyntax-only

# Debian packages the build and the tests need (run as root or with sudo).
DEPS := build-essential clang libffi-dev libedit-dev libmpfr-dev pkg-config \
        pocl-opencl-icd ocl-icd-opencl-dev libclang-rt-14-dev \
        python3-pyopencl python3-pytest python3-numpy \
        tmux lcov gcovr clinfo clang-14 llvm-spirv-14 llvm-14 spirv-headers \
        spirv-tools cmake ninja-build g++
deps:
	$(if $(filter 0,$(shell id -u)),,sudo) env DEBIAN_FRONTEND=noninteractive \
	  sh -c 'apt-get update -qq && apt-get install -y -qq $(DEPS)'

# make install [PREFIX=/usr/local] [DESTDIR=]: the command, the platform
# library, the man pages, and the ICD loader's vendor file, which goes to
# /etc/OpenCL/vendors whatever PREFIX is (where the loader looks).
PREFIX ?= /usr/local
ICD_FILE := $(DESTDIR)/etc/OpenCL/vendors/clvm.icd
INSTALLED := $(DESTDIR)$(PREFIX)/bin/clvm \
             $(DESTDIR)$(PREFIX)/lib/clvm/libclvm-icd.so \
             $(DESTDIR)$(PREFIX)/share/man/man1/clvm.1 \
             $(DESTDIR)$(PREFIX)/share/man/man1/clvm-repl.1 $(ICD_FILE)
install: $(BUILD)/clvm $(ICD)
	install -D -m 755 $(BUILD)/clvm $(DESTDIR)$(PREFIX)/bin/clvm
	install -D -m 644 $(ICD) $(DESTDIR)$(PREFIX)/lib/clvm/libclvm-icd.so
	install -D -m 644 docs/man/clvm.1 $(DESTDIR)$(PREFIX)/share/man/man1/clvm.1
	install -D -m 644 docs/man/clvm-repl.1 \
	  $(DESTDIR)$(PREFIX)/share/man/man1/clvm-repl.1
	mkdir -p $(dir $(ICD_FILE))
	echo $(PREFIX)/lib/clvm/libclvm-icd.so > $(ICD_FILE)

uninstall:
	rm -f $(INSTALLED)
	-rmdir $(DESTDIR)$(PREFIX)/lib/clvm 2>/dev/null

clean:
	rm -rf build

# Regenerates the built-in tables of docs/ir.md and docs/semantics.md from
# stdlib/mathfn.h and asm/asmint.h. splice MARK DOC: the lines between
# <!-- MARK --> and <!-- /MARK --> of DOC become $(BUILD)/MARK.md.
splice = awk -v t=$(BUILD)/$(1).md '/<!-- \/$(1) -->/{while((getline l < t)>0) print l; skip=0} !skip{print} /<!-- $(1) -->/{skip=1}' $(2) > $(BUILD)/doc.tmp && mv $(BUILD)/doc.tmp $(2)
docs: $(BUILD)/clvm
	$(BUILD)/clvm dis --opcodes-md > $(BUILD)/opcodes.md
	$(call splice,opcodes,docs/ir.md)
	$(BUILD)/clvm dis --mathfn-md > $(BUILD)/mathfn.md
	$(call splice,mathfn,docs/semantics.md)
	$(BUILD)/clvm dis --builtins-md > $(BUILD)/builtins.md
	$(call splice,builtins,docs/ir.md)

# make cts: the Khronos CTS suites of the shared folder, whole, on clvm's
# platform (tests/cts/run.sh; CI runs the share in tests/cts/ci.list).
cts: all
	@CLVM_SHARED=$(SHARED) sh tests/cts/run.sh $(BUILD) all
cts-ci: all
	@CLVM_SHARED=$(SHARED) sh tests/cts/run.sh $(BUILD) ci
# make pyopencl: pyopencl's own tests on clvm's platform, file by file,
# checked against PoCL's passes (docs/platform.md; CI runs
# test_wrapper.py alone: tests/ocl/pyopencl.sh BUILD ci).
pyopencl: all
	@CLVM_SHARED=$(SHARED) sh tests/ocl/pyopencl.sh $(BUILD) all

# make bench: the two reference benchmarks against PoCL and plain C.
include bench/bench.mk
# make difftest, make fuzz, make coverage: see each file.
-include tests/diff/diff.mk
-include tests/fuzz/fuzz.mk
-include tests/pocl/pocl.mk
-include tests/coverage.mk
-include tests/unit/libm.mk

help:
	@sed -n '2,16p' Makefile

.PHONY: install uninstall all test sanitize warn check-exhaustive check-exhaustive-half demo deps docs clean help cts cts-ci pyopencl
.SECONDARY:
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
