#!/bin/sh
# The host examples (examples/host/) run on clvm's OpenCL platform through
# `clvm exec`, their output compared with examples/host/NAME.out. The
# pyopencl one is skipped, counted, where Python cannot load the library:
# no pyopencl, or a sanitizer build (an ASan library cannot be loaded into
# an uninstrumented interpreter).
# usage: tests/ocl/host.sh BUILD_DIR
build=${1:-build}
pass=0; fail=0; skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/host.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# check NAME COMMAND...: runs it, compares with examples/host/NAME.out
check() {
    name=$1; shift
    "$@" >"$tmp/out" 2>&1
    echo "exit: $?" >>"$tmp/out"
    if cmp -s "$tmp/out" "examples/host/$name.out"; then
        pass=$((pass + 1))
    else
        echo "FAIL $name"
        diff -u "examples/host/$name.out" "$tmp/out" | head -20
        fail=$((fail + 1))
    fi
}

check scale_c "$build/clvm" exec "$build/examples/host_scale"
if nm -D "$build/libclvm-icd.so" 2>/dev/null | grep -q __asan_init; then
    echo "SKIP scale_py: a sanitizer build of the library"; skip=$((skip + 1))
elif ! /usr/bin/python3 -c 'import pyopencl' 2>/dev/null; then
    echo "SKIP scale_py: no pyopencl (python3-pyopencl)"; skip=$((skip + 1))
else
    PYOPENCL_NO_CACHE=1 check scale_py "$build/clvm" exec /usr/bin/python3 \
        examples/host/scale.py
fi
echo "host: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
