# libFuzzer targets (clang -fsanitize=fuzzer,address,undefined), built in
# build/fuzz from a library compiled with the same sanitizers:
#   make fuzz [FUZZ_SECONDS=n]  fuzz each target n seconds (default 60),
#                               growing build/fuzz/corpus/T; crashes go to
#                               build/fuzz/artifacts/T/
#   make fuzz-replay            committed corpus and regression inputs
#                               through every target (CI gates on it)
#   make fuzz-ci [FUZZ_RUNS=n]  each target with a fixed seed and a fixed
#                               number of runs (about a minute each on two
#                               cores; FUZZ_RUNS sets them all)
#   make fuzz-seed              seeds from examples/ and tests/, merged into
#                               the committed corpus tests/fuzz/corpus/T
#   make fuzz-merge             build/fuzz/corpus/T merged into it (-merge=1)
# Targets: asm (IR text), bc (.bc bytes), run (control block + .bc bytes),
# asmrun (control block + IR text); tests/fuzz/fuzz.h has the details.
# repl (a selector byte + REPL command lines against an example kernel;
# tests/fuzz/fuzz_repl.c has the details); spirv (SPIR-V modules into the
# reader and translator of asm/spirv/, seeded with the examples' .cl files
# compiled by clang-14 and llvm-spirv-14).
FUZZ_BUILD   := build/fuzz
FUZZ_CC      ?= clang
FUZZ_TARGETS := asm bc run asmrun repl spirv
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_CFLAGS  := -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_SECONDS ?= 60
# Text targets run 2000-4000 inputs a second, byte targets 50000-80000
# (two busy cores: 50000 text runs took 30 s, 2000000 byte runs 26-38 s);
# repl 300-400 (each input loads a kernel and runs commands against it:
# 20000 runs took 62 s).
FUZZ_RUNS_asm    ?= $(or $(FUZZ_RUNS),120000)
FUZZ_RUNS_asmrun ?= $(or $(FUZZ_RUNS),120000)
FUZZ_RUNS_bc     ?= $(or $(FUZZ_RUNS),5000000)
FUZZ_RUNS_run    ?= $(or $(FUZZ_RUNS),5000000)
FUZZ_RUNS_repl   ?= $(or $(FUZZ_RUNS),20000)
FUZZ_RUNS_spirv  ?= $(or $(FUZZ_RUNS),100000)

# The code under test (vm/, asm/, stdlib/, and of tools/ the REPL and what
# it stands on) compiled by the main Makefile's rule into build/fuzz.
# fuzz-lib is always asked for, so an edit anywhere in it is picked up.
FUZZ_TOOLS := tools/cmd_repl.c $(wildcard tools/repl_*.c) tools/runargs.c \
              tools/value.c tools/structarg.c tools/file.c tools/npy.c \
              tools/cc.c tools/cccache.c tools/ccscan.c tools/prefault.c
FUZZ_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,\
              $(wildcard vm/*.c asm/*.c asm/spirv/*.c stdlib/*.c) \
              $(FUZZ_TOOLS))
$(FUZZ_BUILD)/code.a: fuzz-lib
	@if [ ! -f $@ ] || [ -n "$$(find $(FUZZ_OBJ) -newer $@)" ]; then \
	  rm -f $@; $(AR) rcs $@ $(FUZZ_OBJ); fi
# The interpreter, quiet and race checks built for the base instruction
# set only (CLVM_NO_AVX2): the AVX2 and AVX-512 copies are the same source
# for another target, and with them clang's coverage and ASan build of the
# dispatch loops took over half an hour of CPU. The base loop
# (vm/loop_base.c) is built at -O0: at -O1 that one file took 25 of CI's
# minutes, at -O0 3.
fuzz-lib:
	@$(MAKE) -s --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) \
	  OPT=-O1 VEC="-O1 -DCLVM_NO_AVX2" LOOP_VEC="-O0 -DCLVM_NO_AVX2" \
	  CFLAGS="$(FUZZ_CFLAGS)" $(FUZZ_OBJ)

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.c tests/fuzz/fuzz.h \
                      $(FUZZ_BUILD)/code.a
	$(FUZZ_CC) $(CPPFLAGS) -std=c11 $(WARN) -ffp-contract=off \
	  -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer tests/fuzz/fuzz_$*.c \
	  tests/fuzz/fuzz.c $(FUZZ_BUILD)/code.a $(LDLIBS) -o $@

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-replay: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) replay 0 $(FUZZ_TARGETS)

fuzz-ci: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) ci \
	  "$(foreach t,$(FUZZ_TARGETS),$(t)=$(FUZZ_RUNS_$(t)))" $(FUZZ_TARGETS)

fuzz-seed: fuzz-build $(FUZZ_BUILD)/mkseed
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) seed 0 $(FUZZ_TARGETS)

fuzz-merge: fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_BUILD) merge 0 $(FUZZ_TARGETS)

$(FUZZ_BUILD)/mkseed: tests/fuzz/mkseed.c $(FUZZ_BUILD)/code.a
	$(FUZZ_CC) $(CPPFLAGS) -std=c11 $(WARN) -O1 -g $(FUZZ_SAN) \
	  -fsanitize=fuzzer-no-link $^ $(LDLIBS) -o $@

.PHONY: fuzz fuzz-lib fuzz-build fuzz-replay fuzz-ci fuzz-seed fuzz-merge
