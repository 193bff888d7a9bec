#!/bin/sh
# Outputs bit for bit the same on 1, 2 and 4 threads: every benchmark of
# bench/ (bench, loop, math and blur in the IR; bench and loop in OpenCL C
# when clang-14 is at hand), at sizes of many work-groups, and every example
# as its golden case (tests/run/ex_*.test, excl_*.test) runs it, and a
# group's warps run apart (workitem_apart.cl, loop in one group). A case
# fails when any thread count's output (stdout, stderr, exit status, the
# --out buffers) differs from one thread's, or when one thread's run fails.
# usage: tests/threads/run.sh BUILD_DIR
# The last line is "threads: N passed, N failed, N skipped".
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2
clvm=$build/clvm gen=$build/bench/gen
tmp=$(mktemp -d "${TMPDIR:-/tmp}/threads.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 failn=0 skip=0

# check NAME CMD...: runs CMD with --threads 1, 2, 4 and --out out=FILE
# (when CMD writes a buffer named by OUT) and compares.
check() {
    name=$1; shift
    for t in 1 2 4; do
        if [ -n "${OUT:-}" ]; then
            "$@" --threads $t --out "$OUT=$tmp/buf.$t" >"$tmp/log.$t" 2>&1
        else
            "$@" --threads $t >"$tmp/log.$t" 2>&1
        fi
        echo "exit: $?" >>"$tmp/log.$t"
    done
    if [ -n "${WANT_OK:-}" ] && ! tail -n 1 "$tmp/log.1" | grep -q 'exit: 0'; then
        echo "FAIL $name: exited $(tail -n 1 "$tmp/log.1") on 1 thread:"
        head -n 5 "$tmp/log.1" | sed 's/^/    /'
        failn=$((failn + 1)); return
    fi
    for t in 2 4; do
        if ! cmp -s "$tmp/log.1" "$tmp/log.$t" ||
           { [ -n "${OUT:-}" ] && ! cmp -s "$tmp/buf.1" "$tmp/buf.$t"; }; then
            echo "FAIL $name: $t threads differ from 1"
            diff "$tmp/log.1" "$tmp/log.$t" | head -n 5 | sed 's/^/    /'
            failn=$((failn + 1)); return
        fi
    done
    pass=$((pass + 1))
}

# The benchmarks: 256 groups of bench, 64 of loop and math, 4096 of blur.
"$gen" bench 65536 "$tmp/in.bin" && "$gen" loop 16384 "$tmp/seed.bin" &&
    "$gen" math 16384 "$tmp/min.bin" && "$gen" zeros 1048576 "$tmp/z16.bin" &&
    head -c 262144 "$tmp/in.bin" >"$tmp/img.bin" || exit 2
bargs="--arg in=@$tmp/in.bin --arg out=zeros:1048576 --arg scale=1.5
    --arg bias=0.5 --arg key=0x9E3779B9 --arg mask=0xFFFF0FFF"
largs="--arg seed=@$tmp/seed.bin --arg out=zeros:65536 --arg iters=100"
export OUT=out WANT_OK=1
check bench "$clvm" run bench/bench.clasm --global 65536 $bargs
check "bench --local 16" "$clvm" run bench/bench.clasm --global 65536 --local 16 $bargs
check loop "$clvm" run bench/loop.clasm --global 16384 $largs
check "loop, one group" "$clvm" run bench/loop.clasm --global 1024 --local 1024 $largs
check math "$clvm" run bench/math.clasm --global 16384 --arg in=@"$tmp/min.bin" \
    --arg out=zeros:65536
check blur "$clvm" run bench/blur.clasm --global 256,256 --arg in=@"$tmp/img.bin" \
    --arg out=zeros:262144
check "blur --warn-impl" "$clvm" run bench/blur.clasm --global 256,256 --warn-impl \
    --arg in=@"$tmp/img.bin" --arg out=zeros:262144
if "$clvm" cc bench/bench.cl -o "$tmp/bench_cl.bc" 2>/dev/null &&
   "$clvm" cc bench/loop.cl -o "$tmp/loop_cl.bc" 2>/dev/null; then
    check bench.cl "$clvm" run "$tmp/bench_cl.bc" --global 65536 $bargs
    check loop.cl "$clvm" run "$tmp/loop_cl.bc" --global 16384 $largs
else
    echo "SKIP bench.cl, loop.cl: clvm cc failed (no clang-14?)"
    skip=$((skip + 2))
fi

# The examples, as their golden cases run them (those that fail on
# purpose must fail the same way).
unset OUT WANT_OK
for f in tests/run/ex_*.test tests/run/excl_*.test tests/run/workitem_apart.cl; do
    cmd=$(sed -n '1s|^// RUN: clvm ||p' "$f" | sed "s|%s|$f|g")
    case $cmd in
    run\ *) ;;
    *) continue ;;
    esac
    # shellcheck disable=SC2086
    check "$(basename "$f" .test)" "$clvm" $cmd
done

echo "threads: $pass passed, $failn failed, $skip skipped"
[ $failn = 0 ]
