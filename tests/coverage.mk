# make coverage: the test suite on a --coverage build (build/cov), then the
# line and branch coverage of vm/, asm/ and stdlib/ from gcovr, a summary
# per directory and in all; HTML in build/cov/html/index.html.
COV_BUILD := build/cov
COV_DIRS  := vm asm stdlib

coverage:
	@$(MAKE) -s --no-print-directory BUILD=$(COV_BUILD) OPT=-O0 VEC=-O0 \
	  CFLAGS="-O0 -g --coverage -fprofile-update=atomic" \
	  LDFLAGS="--coverage" all
	@find $(COV_BUILD) -name '*.gcda' -delete
	@CLVM_SHARED=$(SHARED) sh tests/run.sh $(COV_BUILD) >$(COV_BUILD)/tests.log 2>&1; \
	  echo "suite: $$(tail -n 1 $(COV_BUILD)/tests.log) (log: $(COV_BUILD)/tests.log)"
	@mkdir -p $(COV_BUILD)/html
	@gcovr -r . --object-directory $(COV_BUILD)/obj $(COV_DIRS:%=-f %/) \
	  --json $(COV_BUILD)/cov.json --html-details $(COV_BUILD)/html/index.html
	@for d in $(COV_DIRS) all; do \
	  f=$$( [ $$d = all ] && echo "$(COV_DIRS:%=-f %/)" || echo "-f $$d/"); \
	  gcovr -a $(COV_BUILD)/cov.json $$f --print-summary -o $(COV_BUILD)/summary.txt | \
	    awk -v d=$$d '/^lines:/{l=$$2" "$$3" "$$4" "$$5" "$$6} \
	                  /^branches:/{b=$$2" "$$3" "$$4" "$$5" "$$6} \
	                  END{printf "coverage %-7s lines %s  branches %s\n", d, l, b}'; \
	done

.PHONY: coverage
