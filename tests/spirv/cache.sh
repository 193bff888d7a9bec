#!/bin/sh
# The compile cache of OpenCL C (docs/opencl-c.md, "The compile cache"):
# clang-14 is replaced by a wrapper that counts its runs, so each case can
# tell a hit (no clang run) from a compilation. Cases: a repeat is a hit
# and gives the same output and clang's warning again; another -D option,
# other source bytes and another toolchain binary are misses; a corrupt
# entry is compiled again (and replaced); CLVM_NO_CACHE=1 bypasses it; a
# source with #include is not cached; concurrent runs all succeed and
# leave no temporary file; the OpenCL library's builds from source and
# clCompileProgram's objects hit;
# a missing clang-14 or llvm-spirv-14 is named
# with its Debian package. Skipped without clang-14 and llvm-spirv-14.
# usage: tests/spirv/cache.sh BUILD_DIR
# The last line is "spirv cache: N passed, N failed, N skipped".
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$build" in /*) ;; *) build=$root/$build ;; esac
clvm=$build/clvm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cache.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0; fail=0
if ! command -v clang-14 >/dev/null 2>&1 ||
   ! command -v llvm-spirv-14 >/dev/null 2>&1; then
    echo "spirv cache: 0 passed, 0 failed, 1 skipped"; exit 0
fi
real=$(command -v clang-14)
printf '#!/bin/sh\necho run >> "%s/runs"\nexec "%s" "$@"\n' "$tmp" "$real" \
    > "$tmp/clang"
chmod +x "$tmp/clang"
export XDG_CACHE_HOME="$tmp/cache" CLVM_CLANG="$tmp/clang"
unset CLVM_NO_CACHE
cat > "$tmp/k.cl" <<'CL'
#warning cached or not, this warning is shown
kernel void k(global int *o)
{
    o[0] = N;
}
CL
runs() { [ -f "$tmp/runs" ] && wc -l < "$tmp/runs" | tr -d ' ' || echo 0; }
# check NAME EXPECTED_RUNS EXPECTED_VALUE [clvm run options...]
check() {
    name=$1 want=$2 val=$3; shift 3
    "$clvm" run "$tmp/k.cl" --global 1 --arg o=zeros:4 --print o "$@" \
        > "$tmp/out" 2> "$tmp/err"
    got=$(runs)
    if [ "$got" = "$want" ] && grep -q "o\[0\] = $val\$" "$tmp/out" &&
       grep -q 'k.cl:1:2: warning: cached or not' "$tmp/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: clang ran $got times (want $want)"
        cat "$tmp/out" "$tmp/err"; fail=$((fail + 1))
    fi
}
check "first run compiles" 1 4 -DN=4
check "repeat is a hit" 1 4 -DN=4
check "another option misses" 2 5 -DN=5
check "the first entry stays" 2 4 -DN=4
sed -i 's/o\[0\] = N;/o[0] = N + 1;/' "$tmp/k.cl"
check "other source bytes miss" 3 5 -DN=4
for f in "$tmp"/cache/clvm/*.cc; do   # every entry's module damaged
    printf 'garbage' | dd of="$f" bs=1 seek=$(($(wc -c < "$f") - 40)) \
        conv=notrunc 2>/dev/null
done
check "a corrupt entry is compiled again" 4 5 -DN=4
check "... and replaced" 4 5 -DN=4
CLVM_NO_CACHE=1 check "CLVM_NO_CACHE=1 bypasses it" 5 5 -DN=4
cp "$tmp/clang" "$tmp/clang2"
CLVM_CLANG="$tmp/clang2" check "another clang misses" 6 5 -DN=4
printf '#include "h.h"\n' > "$tmp/i.cl"; cat "$tmp/k.cl" >> "$tmp/i.cl"
echo '#define N 7' > "$tmp/h.h"
for i in 1 2; do
    "$clvm" run "$tmp/i.cl" --global 1 --arg o=zeros:4 --print o \
        > "$tmp/out" 2>/dev/null
done
if [ "$(runs)" = 8 ] && grep -q 'o\[0\] = 8$' "$tmp/out"; then
    pass=$((pass + 1))
else
    echo "FAIL #include is not cached: clang ran $(runs) times"; fail=$((fail + 1))
fi
rm -rf "$tmp/cache"
for i in 1 2 3 4; do
    "$clvm" run "$tmp/k.cl" --global 1 --arg o=zeros:4 --print o -DN=9 \
        > "$tmp/par$i" 2>/dev/null &
done
wait
ok=1
for i in 1 2 3 4; do grep -q 'o\[0\] = 10$' "$tmp/par$i" || ok=0; done
left=$(ls "$tmp/cache/clvm" | grep -vc '\.cc$')
if [ $ok = 1 ] && [ "$left" = 0 ] && [ "$(ls "$tmp/cache/clvm" | wc -l)" = 1 ]; then
    pass=$((pass + 1))
else
    echo "FAIL concurrent writers: outputs ok=$ok, $left stray files"
    ls -la "$tmp/cache/clvm"; fail=$((fail + 1))
fi
# the OpenCL library: a host program building and compiling
# (clCompileProgram) the same sources again, its programs compiled in
# temporary folders of their own, runs clang again only in its
# compile_cache test, whose cache is a folder of its own made afresh
# each run (6 runs of clang); 8 more the first time (7 compilations and
# the preprocessing of a kernel a macro declares, for its attributes)
runs0=$(runs)
"$build/tests/test_ocl_api" > "$tmp/out" 2>&1
runs1=$(runs)
"$build/tests/test_ocl_api" > "$tmp/out2" 2>&1
if [ $((runs1 - runs0)) = 14 ] && [ $(($(runs) - runs1)) = 6 ] &&
   grep -q ' 0 failed' "$tmp/out2"; then
    pass=$((pass + 1))
else
    echo "FAIL the OpenCL library's builds: clang ran $((runs1 - runs0)) then" \
         "$(($(runs) - runs1)) times"; cat "$tmp/out2"; fail=$((fail + 1))
fi
# a missing tool: the message names the Debian package
for t in CLANG:clang-14 LLVM_SPIRV:llvm-spirv-14; do
    if env "CLVM_${t%%:*}=$tmp/none/${t#*:}" CLVM_NO_CACHE=1 "$clvm" run \
         "$tmp/k.cl" --global 1 --arg o=zeros:4 -DN=1 2> "$tmp/err" ||
       true; grep -q "not found: .*(Debian package ${t#*:}: apt-get install ${t#*:})" "$tmp/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL missing ${t#*:}:"; cat "$tmp/err"; fail=$((fail + 1))
    fi
done
echo "spirv cache: $pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
