#!/bin/sh
# `make bench`, the OpenCL C front end's cost (bench/README.md): `clvm
# run` of a small .cl kernel (examples/saxpy.cl) cold, with the compile
# cache bypassed, and repeated, from a warm cache; each the median of
# BENCH_RUNS runs of the whole process, in ms. clvm --time says how much
# of a cold run clang-14 and llvm-spirv-14 took; the rest is clvm's own.
# Goals (docs/opencl-c.md): cold <= the tools' time + 30 ms, repeat
# <= 20 ms. Prints "CC ..." lines; skipped without the tools.
# usage: bench/cc.sh BUILD_DIR
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: bench/cc.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2
runs=${BENCH_RUNS:-5}
clvm=$build/clvm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/benchcc.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! command -v clang-14 >/dev/null 2>&1 ||
   ! command -v llvm-spirv-14 >/dev/null 2>&1; then
    echo "CC skipped: no clang-14 or llvm-spirv-14"; exit 0
fi
k=examples/saxpy.cl
set -- run "$k" --global 4 --arg a=2 --arg x=@examples/data/ramp.bin \
    --arg y=@examples/data/ramp.bin --time
ms() { echo $(($(date +%s%N) / 1000)); }   # microseconds
export XDG_CACHE_HOME="$tmp/cache"
i=0
while [ $i -lt "$runs" ]; do
    t0=$(ms); CLVM_NO_CACHE=1 "$clvm" "$@" >/dev/null 2>"$tmp/err"; t1=$(ms)
    echo $((t1 - t0)) >>"$tmp/cold"
    sed -n 's/^time: load=\([0-9.]*\) .* tools=\([0-9.]*\)$/\1 \2/p' \
        "$tmp/err" | awk '{ printf "%d\n", $2 * 1e6 >> "'"$tmp/tools"'"
                            printf "%d\n", ($1 - $2) * 1e6 >> "'"$tmp/own"'" }'
    "$clvm" "$@" >/dev/null 2>&1           # fills the cache
    t0=$(ms); "$clvm" "$@" >/dev/null 2>&1; t1=$(ms)
    echo $((t1 - t0)) >>"$tmp/repeat"
    i=$((i + 1))
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] / 1000 }'; }
cold=$(median "$tmp/cold"); tools=$(median "$tmp/tools"); own=$(median "$tmp/own")
rep=$(median "$tmp/repeat")
echo "cc ($k, median of $runs runs, ms): cold clvm run (no cache), of it" \
     "clang-14 + llvm-spirv-14, repeat from the cache"
awk -v c="$cold" -v t="$tools" -v r="$rep" -v o="$own" 'BEGIN {
    printf "CC ms cold %.1f\nCC ms tools %.1f\nCC ms cold-minus-tools %.1f (goal <= 30)\n", c, t, c - t
    printf "CC ms load-minus-tools %.1f (in clvm: reading, translating, caching)\n", o
    printf "CC ms repeat %.1f (goal <= 20)\nRATIO cc cold/tools %.2f\n", r, c / t }'
