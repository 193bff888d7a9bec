#!/bin/sh
# `make bench-scaling`: bench and loop on 1, 2, 4, 8 and 16 threads, clvm
# (--threads N, buffers from files) against plain C built with -O3
# -march=native -fopenmp (bench/native_omp, OMP_NUM_THREADS=N), bench
# with its output buffer a zeros: buffer against a file's, bench under
# --check races against it unchecked on as many threads, and bench's
# bytes per second against a plain copy of the same bytes (native_omp
# copy: the memory's bound on the same threads), and loop against as
# many one-thread runs of it at once (alone: the CPUs' own bound, as busy
# as the threads, which under a VM host's other load differ twofold in
# speed from one another and from run to run). Every output
# must hash to the reference value (the published one, else the first
# run's), whatever the thread count. Self-contained: it needs only the
# build folder's clvm, bench/gen and (for the native line) bench/native_omp,
# and writes its inputs itself.
#
# usage: bench/scaling.sh BUILD_DIR
# environment: BENCH_RUNS (3), BENCH_N (2^22), BENCH_LOOP_N (2^16),
#   BENCH_ITERS (1000), BENCH_THREADS ("1 2 4 8 16")
set -u
name=bench-scaling
runs=${BENCH_RUNS:-3}
n=${BENCH_N:-4194304}
ln=${BENCH_LOOP_N:-65536}
iters=${BENCH_ITERS:-1000}
threads=${BENCH_THREADS:-1 2 4 8 16}
. "$(dirname "$0")/setup.sh"
omp=$build/bench/native_omp

impls=clvm
if [ -x "$omp" ]; then impls="clvm omp copy"; else
    echo "native-omp: skipped ($omp not built: make bench-scaling builds it)"; fi
ref_bench "$n" >"$tmp/bench.ref"
ref_loop "$ln" "$iters" >"$tmp/loop.ref"

# run BENCH IMPL THREADS: one run; appends its time to $tmp/BENCH.IMPL.T
# and checks its output's hash.
run() {
    b=$1 impl=$2 t=$3 o=$tmp/out.bin e=$tmp/err
    rm -f "$o"
    case $b.$impl in
    bench.clvm|bench.zeros|bench.races)
        [ $impl = zeros ] && out=zeros:$((16 * n)) || out=@$tmp/zero16.bin
        [ $impl = races ] && chk="--check races" || chk=
        # shellcheck disable=SC2086
        "$clvm" run bench/bench.clasm --global "$n" --threads "$t" --time $chk \
            --arg in=@"$tmp/in.bin" --arg out="$out" --arg scale=1.5 \
            --arg bias=0.5 --arg key=0x9E3779B9 --arg mask=0xFFFF0FFF \
            --out out="$o" >/dev/null 2>"$e" ;;
    loop.clvm)
        "$clvm" run bench/loop.clasm --global "$ln" --threads "$t" --time \
            --arg seed=@"$tmp/seed.bin" --arg out=@"$tmp/zero4.bin" \
            --arg iters="$iters" --out out="$o" >/dev/null 2>"$e" ;;
    bench.omp) OMP_NUM_THREADS=$t "$omp" bench "$n" >"$tmp/so" 2>"$e" ;;
    loop.omp) OMP_NUM_THREADS=$t "$omp" loop "$ln" "$iters" >"$tmp/so" 2>"$e" ;;
    loop.alone)   # t one-thread runs at once: what the host's CPUs give
        # the interpreter's code when t of them are busy (vCPUs' speeds
        # differ twofold under the host's other load), as 1 / the sum of
        # their speeds: the time t threads would take sharing the work
        # out as they go
        j=0
        while [ $j -lt "$t" ]; do
            "$clvm" run bench/loop.clasm --global "$ln" --threads 1 --time \
                --arg seed=@"$tmp/seed.bin" --arg out=@"$tmp/zero4.bin" \
                --arg iters="$iters" >/dev/null 2>"$e.$j" &
            j=$((j + 1))
        done
        wait
        j=0
        while [ $j -lt "$t" ]; do timeof "$e.$j"; j=$((j + 1)); done |
            awk '$1 > 0 { s += 1 / $1; k++ } END { if (k) printf "%.9g\n", 1 / s }' \
            >"$e" && [ -s "$e" ] && cat "$e" >>"$tmp/$b.$impl.$t" ||
            fail "loop alone on $t threads: no time"
        return ;;
    bench.copy)   # bench's bytes in and out alone: the memory's bound
        OMP_NUM_THREADS=$t "$omp" copy "$n" >/dev/null 2>"$e" &&
            timeof "$e" >>"$tmp/$b.$impl.$t"
        return ;;
    *) return 0 ;;
    esac || { fail "$b on $impl, $t threads:"; sed 's/^/    /' "$e" | head -n 5; return 1; }
    if [ $impl != omp ]; then "$gen" hash "$o" >"$tmp/so" || return 1; fi
    h=$(hashof "$tmp/so")
    [ -s "$tmp/$b.ref" ] || echo "$h" >"$tmp/$b.ref"
    [ "$h" = "$(cat "$tmp/$b.ref")" ] ||
        fail "HASH MISMATCH: $b on $impl, $t threads: $h, expected $(cat "$tmp/$b.ref")"
    timeof "$e" >>"$tmp/$b.$impl.$t"
}

i=0
while [ $i -lt "$runs" ]; do
    for t in $threads; do
        for impl in $impls zeros races alone; do
            for b in bench loop; do run $b $impl "$t"; done
        done
    done
    i=$((i + 1))
done

# The table: per thread count, each benchmark's time per unit, its speedup
# over one thread, native-omp's time and clvm / native-omp.
echo "bench-scaling: bench $n work-items (ns per work-item), loop $ln x $iters" \
     "(ns per iteration), median of $runs runs; speedup over 1 thread"
printf '%-8s %10s %8s %10s %8s %10s %6s %7s %7s %10s %8s %10s %8s %10s %11s\n' \
    threads bench speedup omp clvm/omp zeros/file races GB/s copy loop \
    speedup omp clvm/omp alone clvm/alone
prev_b= prev_l=
for t in $threads; do
    line=$(printf '%-8s' "$t") warn=
    for b in bench loop; do
        [ $b = bench ] && d=$n || d=$((ln * iters))
        c=$(median "$tmp/$b.clvm.$t") || continue
        c1=$(median "$tmp/$b.clvm.$(echo $threads | cut -d' ' -f1)")
        o=$(median "$tmp/$b.omp.$t" 2>/dev/null || echo 0)
        line=$line$(awk -v c="$c" -v c1="$c1" -v o="$o" -v d="$d" 'BEGIN {
            printf " %10.3f %7.2fx", c * 1e9 / d, c1 / c
            if (o > 0) printf " %10.3f %8.2f", o * 1e9 / d, c / o
            else printf " %10s %8s", "-", "-" }')
        if [ $b = bench ]; then   # and bench's bytes per second, a copy's
            z=$(median "$tmp/bench.zeros.$t")
            r=$(median "$tmp/bench.races.$t")
            k=$(median "$tmp/bench.copy.$t" 2>/dev/null || echo 0)
            line=$line$(awk -v z="$z" -v r="$r" -v c="$c" -v k="$k" -v d="$d" 'BEGIN {
                printf " %10.2f %6.2f %7.1f", z / c, r / c, 32 * d / c * 1e-9
                if (k > 0) printf " %7.1f", 32 * d / k * 1e-9
                else printf " %7s", "-" }')
        else   # and loop's against the host's one-thread runs at once
            a=$(median "$tmp/loop.alone.$t" 2>/dev/null || echo 0)
            line=$line$(awk -v a="$a" -v c="$c" -v d="$d" 'BEGIN {
                if (a > 0) printf " %10.3f %11.2f", a * 1e9 / d, c / a
                else printf " %10s %11s", "-", "-" }')
        fi
        p=$(eval echo "\${prev_$(echo $b | cut -c1)}")
        [ -n "$p" ] && awk -v c="$c" -v p="$p" 'BEGIN { exit !(c > p * 1.05) }' &&
            warn="$warn
bench-scaling: WARNING: $b slower on $t threads than on fewer"
        eval "prev_$(echo $b | cut -c1)=$c"
    done
    echo "$line$warn"
done
[ $status = 0 ] && echo "bench-scaling: all outputs hash to the reference values" ||
    echo "bench-scaling: FAILED (see the errors above)"
exit $status
