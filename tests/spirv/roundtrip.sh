#!/bin/sh
# The OpenCL C front end's round trip: every .cl kernel of examples/ and
# tests/run/ is compiled (clvm cc), printed as IR (clvm dis) and assembled
# again (clvm asm); the two modules must be identical, byte for byte
# (docs/opencl-c.md). Without clang-14 and llvm-spirv-14 the cases are
# skipped.
# usage: tests/spirv/roundtrip.sh BUILD_DIR
# The last line is "spirv roundtrip: N passed, N failed, N skipped".
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$build" in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/roundtrip.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0; fail=0; skip=0
tools=1
command -v clang-14 >/dev/null 2>&1 && command -v llvm-spirv-14 >/dev/null 2>&1 || tools=0
for f in examples/*.cl tests/run/cl_*.cl; do
    [ -f "$f" ] || continue
    if [ $tools = 0 ]; then
        skip=$((skip + 1)); continue
    fi
    if "$build/clvm" cc "$f" -o "$tmp/a.bc" >"$tmp/log" 2>&1 &&
       "$build/clvm" dis "$tmp/a.bc" >"$tmp/a.clasm" 2>>"$tmp/log" &&
       "$build/clvm" asm "$tmp/a.clasm" -o "$tmp/b.bc" >>"$tmp/log" 2>&1 &&
       cmp -s "$tmp/a.bc" "$tmp/b.bc"; then
        pass=$((pass + 1))
    else
        echo "FAIL $f"; cat "$tmp/log"; fail=$((fail + 1))
    fi
done
echo "spirv roundtrip: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
