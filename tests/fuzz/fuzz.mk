# libFuzzer targets (clang -fsanitize=fuzzer,address,undefined), built in
# build/fuzz from a library compiled with the same sanitizers:
#   make fuzz [FUZZ_SECONDS=n]  fuzz each target n seconds (default 60),
#                               growing build/fuzz/corpus/T; crashes go to
#                               build/fuzz/artifacts/T/
#   make fuzz-replay            committed corpus and regression inputs
#                               through every target (CI gates on it)
#   make fuzz-ci [FUZZ_RUNS=n]  each target with a fixed seed, n runs
#   make fuzz-seed              seeds from examples/ and tests/, merged into
#                               the committed corpus tests/fuzz/corpus/T
#   make fuzz-merge             build/fuzz/corpus/T merged into it (-merge=1)
# Targets: asm (IR text), bc (.bc bytes), run (control block + .bc bytes),
# asmrun (control block + IR text); tests/fuzz/fuzz.h has the details.
FUZZ_BUILD   := build/fuzz
FUZZ_CC      ?= clang
FUZZ_TARGETS := asm bc run asmrun
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_CFLAGS  := -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= 20000

# The library is the main Makefile's, built by it into build/fuzz; always
# asked for, so an edit anywhere in the tree is picked up.
$(FUZZ_BUILD)/libclvm.a: fuzz-lib
fuzz-lib:
	@$(MAKE) -s --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) \
	  OPT=-O1 VEC=-O1 CFLAGS="$(FUZZ_CFLAGS)" $(FUZZ_BUILD)/libclvm.a

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.c tests/fuzz/fuzz.h \
                      $(FUZZ_BUILD)/libclvm.a
	$(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz -std=c11 $(WARN) -ffp-contract=off \
	  -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer tests/fuzz/fuzz_$*.c \
	  tests/fuzz/fuzz.c $(FUZZ_BUILD)/libclvm.a $(LDLIBS) -o $@

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-replay: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) replay 0 $(FUZZ_TARGETS)

fuzz-ci: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) ci $(FUZZ_RUNS) $(FUZZ_TARGETS)

fuzz-seed: fuzz-build $(FUZZ_BUILD)/clvm-plain
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) seed 0 $(FUZZ_TARGETS)

fuzz-merge: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) merge 0 $(FUZZ_TARGETS)

# Seeds are assembled by an unsanitized clvm (faster, and independent of
# the code under test's instrumentation).
$(FUZZ_BUILD)/clvm-plain: fuzz-plain
	@:
fuzz-plain:
	@$(MAKE) -s --no-print-directory BUILD=$(FUZZ_BUILD)/plain OPT=-O1 \
	  VEC=-O1 $(FUZZ_BUILD)/plain/clvm
	@ln -sf plain/clvm $(FUZZ_BUILD)/clvm-plain

.PHONY: fuzz fuzz-lib fuzz-build fuzz-replay fuzz-ci fuzz-seed fuzz-merge \
        fuzz-plain
