#!/bin/sh
# Runs every test suite and adds up their summary lines. Each suite prints
# "NAME: N passed, N failed, N skipped" last; a suite that crashes or
# prints no summary counts as one failure.
# usage: tests/run.sh BUILD_DIR [SWITCH_BUILD_DIR]
# With a second build (the switch-dispatch interpreter), its VM tests and
# the kernel-running golden tests run again on it.
build=${1:-build}
switch=${2:-}
tp=0; tf=0; ts=0

# suite NAME COMMAND...: runs one suite and adds its summary line.
suite() {
    name=$1; shift
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out"
    line=$(printf '%s\n' "$out" | tail -n 1)
    case "$line" in
    *": "*" passed, "*" failed, "*" skipped")
        set -- $(printf '%s\n' "$line" | sed 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped/\1 \2 \3/')
        tp=$((tp + $1)); tf=$((tf + $2)); ts=$((ts + $3))
        if [ $(($1 + $2 + $3)) -eq 0 ]; then
            echo "$name: ran no cases"; tf=$((tf + 1))
        elif [ $rc -ne 0 ] && [ "$2" -eq 0 ]; then
            echo "$name: exit status $rc"; tf=$((tf + 1))
        fi ;;
    *)  echo "$name: no summary (exit status $rc)"; tf=$((tf + 1)) ;;
    esac
}

for t in "$build"/tests/test_*; do
    [ -x "$t" ] && suite "$t" "$t"
done
suite golden sh tests/golden/run.sh "$build"
suite threads sh tests/threads/run.sh "$build"
suite arch /usr/bin/python3 tests/arch/arch.py "$build"
suite host sh tests/ocl/host.sh "$build"
suite "spirv roundtrip" sh tests/spirv/roundtrip.sh "$build"
suite "pocl contract" /usr/bin/python3 tests/pocl/contract.py "$build"
suite "spirv cache" sh tests/spirv/cache.sh "$build"
suite "sync pocl" /usr/bin/python3 tests/spirv/sync_pocl.py
suite "repl tour" sh tests/repl/tour.sh "$build"
suite "repl tmux" sh tests/repl/tmux.sh "$build"
suite "cl vs pocl" /usr/bin/python3 tests/pocl/clkernels.py "$build"
suite "race threads" sh tests/race/threads.sh "$build"
suite "difftest timeout" sh tests/diff/timeout.sh "$build"
suite "cts offline" /usr/bin/python3 tests/cts/offline_test.py "$build"
suite oclgrind /usr/bin/python3 tests/oclgrind/run.py "$build"
suite "oclgrind selftest" /usr/bin/python3 tests/oclgrind/selftest.py "$build"
if [ -n "$switch" ]; then
    for t in "$switch"/tests/test_vm*; do
        [ -x "$t" ] && suite "switch $t" "$t"
    done
    for d in tests/run tests/conform; do
        [ -d "$d" ] && suite "switch golden $d" sh tests/golden/run.sh "$switch" "$d"
    done
fi
echo "$tp passed, $tf failed, $ts skipped"
[ $tf -eq 0 ]
