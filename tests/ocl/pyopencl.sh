#!/bin/sh
# Runs pyopencl's own tests (the shared folder's copy, pyopencl 2022.3.1 as
# Debian packages it) with clvm as the only platform, through Debian's
# Python, and prints one summary line.
# usage: tests/ocl/pyopencl.sh BUILD [ci|all]
#   ci   (default) test_wrapper.py, as CI runs it
#   all  the six files of the platform issue (make pyopencl; ~15 minutes)
# Image tests skip themselves (clvm has no images). Without the shared
# folder, Debian's pytest or pyopencl, every file is skipped, counted.
build=${1:-build}
mode=${2:-ci}
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${CLVM_SHARED:-$root/../shared}
shared=$(cd "$shared" 2>/dev/null && pwd || echo "$shared")
dir=$shared/third_party/pyopencl-tests
files=test_wrapper.py
[ "$mode" = all ] && files="test_wrapper.py test_array.py test_algorithm.py test_clmath.py test_enqueue_copy.py test_arrays_in_structs.py"
py=/usr/bin/python3
if [ ! -d "$dir" ] || ! "$py" -c 'import pyopencl, pytest' 2>/dev/null; then
    echo "pyopencl: no tests in $dir, or no pyopencl/pytest for $py: skipped"
    echo "pyopencl: 0 passed, 0 failed, $(echo $files | wc -w) skipped"
    exit 0
fi
lib=$root/$build/libclvm-icd.so
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086
(cd "$dir" && OCL_ICD_VENDORS=$lib PYOPENCL_NO_CACHE=1 PYOPENCL_TEST= \
    "$py" -m pytest -p no:cacheprovider -q -rfE $files) >"$out" 2>&1
rc=$?
grep -E '^(FAILED|ERROR) ' "$out"
last=$(tail -n 1 "$out")
echo "pyopencl: $last"
n() { printf '%s\n' "$last" | grep -oE "[0-9]+ $1" | head -1 | cut -d' ' -f1; }
p=$(n passed); f=$(n failed); e=$(n error); s=$(n skipped); x=$(n xfailed); xp=$(n xpassed)
f=$(( ${f:-0} + ${e:-0} ))
s=$(( ${s:-0} + ${x:-0} + ${xp:-0} ))
p=${p:-0}
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    tail -20 "$out"; f=1
fi
echo "pyopencl: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
