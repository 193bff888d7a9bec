#!/bin/sh
# `make bench`: the reference benchmarks (bench/README.md)
# run by clvm (the IR and, compiled by clvm cc, the OpenCL C versions;
# the IR again with --check races),
# PoCL on one thread and plain C, alternating, RUNS times
# each. Prints the medians and the RATIO lines; every output must hash to
# the reference value (a mismatch is an error: exit 1).
#
# usage: bench/run.sh BUILD_DIR
# environment: BENCH_RUNS (5), BENCH_N (work-items of `bench`, 2^22),
#   BENCH_LOOP_N (work-items of `loop`, 2^14), BENCH_ITERS (1000),
#   BENCH_MATH_N (work-items of `math`, 2^18), BENCH_LOCAL_SMALL (16) and
#   BENCH_LOCAL_LARGE (1024): the --local of the clvm-local runs,
#   CLVM_SHARED (where conformance/*.tsv are, for the conform rate),
#   BENCH_ENQ_N (launches of the enqueue benchmark, 20000)
set -u
name=bench
runs=${BENCH_RUNS:-5}
n=${BENCH_N:-4194304}
ln=${BENCH_LOOP_N:-16384}
iters=${BENCH_ITERS:-1000}
mn=${BENCH_MATH_N:-262144}
lsmall=${BENCH_LOCAL_SMALL:-16}
llarge=${BENCH_LOCAL_LARGE:-1024}
. "$(dirname "$0")/setup.sh"
native=$build/bench/native
pocl=$build/bench/pocl_host
enq=$build/bench/enqueue_host
enqn=${BENCH_ENQ_N:-20000}

# math: clvm's own libm gives the same bits everywhere; PoCL's differs within
# OpenCL's bounds, so its output is compared with clvm's in ulp instead.
ref_math() {
    case $1 in 262144) echo 6c86ec30142be503 ;; esac
}
# Runs implementation $2 of benchmark $1 once; appends its time to
# $tmp/$1.$2 and checks its hash against $tmp/$1.ref. Returns 3 when
# the implementation cannot run here (no OpenCL device).
run_one() {
    b=$1 impl=$2 o=$tmp/out.bin e=$tmp/err h=
    rm -f "$o"
    case $b.$impl in
    bench.clvm)
        "$clvm" run bench/bench.clasm --global "$n" --threads 1 --time \
            --arg in=@"$tmp/in.bin" --arg out=@"$tmp/zero16.bin" \
            --arg scale=1.5 --arg bias=0.5 --arg key=0x9E3779B9 \
            --arg mask=0xFFFF0FFF --out out="$o" >"$tmp/so" 2>"$e" ;;
    loop.clvm)
        "$clvm" run bench/loop.clasm --global "$ln" --threads 1 --time \
            --arg seed=@"$tmp/seed.bin" --arg out=@"$tmp/zero4.bin" \
            --arg iters="$iters" --out out="$o" >"$tmp/so" 2>"$e" ;;
    bench.clvmcl)
        "$clvm" run "$tmp/bench_cl.bc" --global "$n" --threads 1 --time \
            --arg in=@"$tmp/in.bin" --arg out=@"$tmp/zero16.bin" \
            --arg scale=1.5 --arg bias=0.5 --arg key=0x9E3779B9 \
            --arg mask=0xFFFF0FFF --out out="$o" >"$tmp/so" 2>"$e" ;;
    loop.clvmcl)
        "$clvm" run "$tmp/loop_cl.bc" --global "$ln" --threads 1 --time \
            --arg seed=@"$tmp/seed.bin" --arg out=@"$tmp/zero4.bin" \
            --arg iters="$iters" --out out="$o" >"$tmp/so" 2>"$e" ;;
    math.clvmcl) return 0 ;; # math.cl needs arrays in the translator
    bench.clvmls|bench.clvmll)
        [ $impl = clvmls ] && l=$lsmall || l=$llarge
        "$clvm" run bench/bench.clasm --global "$n" --local $l --threads 1 \
            --time --arg in=@"$tmp/in.bin" --arg out=@"$tmp/zero16.bin" \
            --arg scale=1.5 --arg bias=0.5 --arg key=0x9E3779B9 \
            --arg mask=0xFFFF0FFF --out out="$o" >"$tmp/so" 2>"$e" ;;
    loop.clvmls|loop.clvmll)
        [ $impl = clvmls ] && l=$lsmall || l=$llarge
        "$clvm" run bench/loop.clasm --global "$ln" --local $l --threads 1 \
            --time --arg seed=@"$tmp/seed.bin" --arg out=@"$tmp/zero4.bin" \
            --arg iters="$iters" --out out="$o" >"$tmp/so" 2>"$e" ;;
    blur.clvm|blur.strict)
        [ $impl = strict ] && p=strict || p=clvm
        "$clvm" run bench/blur.clasm --global 1024,1024 --threads 1 --time \
            --profile $p --arg in=@"$tmp/img.bin" --arg out=@"$tmp/zero4b.bin" \
            --out out="$o" >"$tmp/so" 2>"$e" ;;
    bench.race)   # clvm with the data race check (docs/semantics.md)
        "$clvm" run bench/bench.clasm --global "$n" --threads 1 --time \
            --check races --arg in=@"$tmp/in.bin" --arg out=@"$tmp/zero16.bin" \
            --arg scale=1.5 --arg bias=0.5 --arg key=0x9E3779B9 \
            --arg mask=0xFFFF0FFF --out out="$o" >"$tmp/so" 2>"$e" ;;
    loop.race)
        "$clvm" run bench/loop.clasm --global "$ln" --threads 1 --time \
            --check races --arg seed=@"$tmp/seed.bin" --arg out=@"$tmp/zero4.bin" \
            --arg iters="$iters" --out out="$o" >"$tmp/so" 2>"$e" ;;
    math.race)
        "$clvm" run bench/math.clasm --global "$mn" --threads 1 --time \
            --check races --arg in=@"$tmp/min.bin" --arg out=@"$tmp/zero4m.bin" \
            --out out="$o" >"$tmp/so" 2>"$e" ;;
    bench.pocl)
        POCL_MAX_PTHREAD_COUNT=1 "$pocl" bench/bench.cl bench "$n" >"$tmp/so" 2>"$e" ;;
    loop.pocl)
        POCL_MAX_PTHREAD_COUNT=1 "$pocl" bench/loop.cl loop "$ln" "$iters" >"$tmp/so" 2>"$e" ;;
    math.clvm)
        "$clvm" run bench/math.clasm --global "$mn" --threads 1 --time \
            --arg in=@"$tmp/min.bin" --arg out=@"$tmp/zero4m.bin" \
            --out out="$o" >"$tmp/so" 2>"$e" && cp "$o" "$tmp/math.clvm.out" ;;
    math.pocl)
        POCL_MAX_PTHREAD_COUNT=1 "$pocl" bench/math.cl math "$mn" "$tmp/math.pocl.out" \
            >"$tmp/so" 2>"$e" ;;
    math.native) return 0 ;; # no plain C version: the host's libm differs
    bench.native) "$native" bench "$n" >"$tmp/so" 2>"$e" ;;
    loop.native) "$native" loop "$ln" "$iters" >"$tmp/so" 2>"$e" ;;
    *) return 0 ;; # not run this way (blur: clvm alone, default and strict)
    esac
    rc=$?
    [ $rc = 3 ] && [ "$impl" = pocl ] && return 3
    if [ $rc != 0 ]; then
        fail "$b on $impl exited with status $rc:"
        sed 's/^/    /' "$e" | head -n 20
        return 1
    fi
    t=$(timeof "$e")
    if [ -z "$t" ]; then
        fail "$b on $impl printed no 'time: kernel=SECONDS' line"
        return 1
    fi
    if [ "$impl" != pocl ] && [ "$impl" != native ]; then
        "$gen" hash "$o" >"$tmp/so" || { fail "$b on $impl wrote no output"; return 1; }
    fi
    if [ "$b.$impl" = math.pocl ]; then
        # 16 dependent calls, each within OpenCL's bound: a few hundred ulp
        # at most; a wrong built-in gives far more
        if [ -s "$tmp/math.clvm.out" ] &&
           ! "$gen" close "$tmp/math.pocl.out" "$tmp/math.clvm.out" 4096 >"$tmp/close"; then
            fail "math on pocl: $(cat "$tmp/close") from clvm's output"
            return 1
        fi
        [ -s "$tmp/close" ] && cp "$tmp/close" "$tmp/math.close"
        echo "$t" >>"$tmp/$b.$impl"
        return 0
    fi
    h=$(hashof "$tmp/so")
    ref=$(cat "$tmp/$b.ref")
    if [ "$ref" = first ]; then
        echo "$h" >"$tmp/$b.ref"
        ref=$h
    fi
    if [ "$h" != "$ref" ]; then
        fail "HASH MISMATCH: $b on $impl: output hash $h, expected $ref"
        return 1
    fi
    echo "$t" >>"$tmp/$b.$impl"
}

"$gen" math "$mn" "$tmp/min.bin" && "$gen" zeros $((4 * mn)) "$tmp/zero4m.bin" &&
    "$gen" bench 262144 "$tmp/img.bin" &&   # any 1024x1024 uchar4 (4 MiB)
    "$gen" zeros 4194304 "$tmp/zero4b.bin" || exit 2
for b in bench loop math blur; do
    case $b in
    bench) ref=$(ref_bench "$n") ;;
    loop) ref=$(ref_loop "$ln" "$iters") ;;
    math) ref=$(ref_math "$mn")
        # other sizes: clvm's first output is the reference for the later runs
        [ -n "$ref" ] || ref=first ;;
    blur) ref=first ;;   # strict must give the default run's bits
    esac
    if [ -z "$ref" ]; then
        # No published hash for this size: plain C's output is the reference.
        if [ $b = bench ]; then "$native" bench "$n"; else "$native" loop "$ln" "$iters"; fi \
            2>/dev/null >"$tmp/so"
        ref=$(hashof "$tmp/so")
        echo "bench: no published hash for $b at this size; checking against plain C ($ref)"
    fi
    echo "$ref" >"$tmp/$b.ref"
done

impls="clvm clvmls clvmll strict race native"
if [ ! -x "$pocl" ]; then
    echo "pocl: skipped (bench/pocl_host not built: no CL/cl.h when building)"
else
    impls="clvm clvmls clvmll strict race pocl native"
fi
# The OpenCL C versions through clvm's own front end (clang-14,
# llvm-spirv-14, the SPIR-V translator), compiled once: clvm-cl.
if "$clvm" cc bench/bench.cl -o "$tmp/bench_cl.bc" 2>"$tmp/err" &&
   "$clvm" cc bench/loop.cl -o "$tmp/loop_cl.bc" 2>>"$tmp/err"; then
    impls="$impls clvmcl"
else
    echo "clvm-cl: skipped ($(head -n 1 "$tmp/err"))"
fi

# Alternate: every run runs each implementation once, rotating the order so
# no implementation always follows the same one.
i=0
while [ $i -lt "$runs" ]; do
    set -- $impls
    k=0
    while [ $k -lt $((i % $#)) ]; do x=$1; shift; set -- "$@" "$x"; k=$((k + 1)); done
    for impl; do
        for b in bench loop math blur; do
            run_one $b "$impl"
            if [ $? = 3 ]; then
                echo "pocl: skipped (no OpenCL platform or device)"
                impls=$(echo "$impls" | sed 's/ pocl//')
                break
            fi
        done
    done
    i=$((i + 1))
done

# enqueue: the OpenCL platform's overhead for a tiny kernel, through the
# ICD loader: clvm's library and PoCL, each the only platform, alternating.
# Appends "THROUGHPUT LATENCY" (seconds per launch) of global size $2 on
# platform $1 (clvm, pocl) to $tmp/enq.$1.$2; returns 3 when PoCL cannot
# run here.
enq_one() {
    if [ "$1" = clvm ]; then v=$build/libclvm-icd.so name=clvm
    else v=/usr/lib/x86_64-linux-gnu/libpocl.so.2 name=Portable
    fi
    OCL_ICD_VENDORS=$v "$enq" $name "$enqn" "$2" \
        >"$tmp/so" 2>"$tmp/err"
    rc=$?
    [ $rc = 3 ] && [ "$1" = pocl ] && return 3
    if [ $rc != 0 ]; then
        fail "enqueue on $1 exited with status $rc:"
        sed 's/^/    /' "$tmp/err" | head -n 20
        return 1
    fi
    sed -n 's/^time: .*throughput=\([^ ]*\) latency=\([^ ]*\).*/\1 \2/p' \
        "$tmp/err" >>"$tmp/enq.$1.$2"
}
enqs=
if [ -x "$enq" ]; then
    enqs="clvm pocl"
    i=0
    while [ $i -lt "$runs" ]; do
        for p in $enqs; do
            for g in 1 1024; do
                enq_one $p $g
                [ $? = 3 ] && { echo "enqueue: pocl skipped (no platform)"; enqs=clvm; }
            done
        done
        i=$((i + 1))
    done
else
    echo "enqueue: skipped (bench/enqueue_host not built: no CL/cl.h when building)"
fi
# The median in microseconds of column $2 (1 throughput, 2 latency) of
# file $1.
enq_med() {
    [ -s "$1" ] || { echo -; return; }
    awk -v c="$2" '{print $c * 1e6}' "$1" >"$tmp/col" && median "$tmp/col"
}

# Prints "name  value" per implementation of benchmark $1, per-unit divisor $2.
report() {
    for impl in clvm clvmls clvmll clvmcl strict race pocl native; do
        [ -s "$tmp/$1.$impl" ] || continue
        m=$(median "$tmp/$1.$impl")
        echo "$m" >"$tmp/$1.$impl.median"
        awk -v m="$m" -v d="$2" -v name="$impl" -v ls="$lsmall" \
            -v ll="$llarge" 'BEGIN {
            if (name == "clvmcl") name = "clvm-cl"
            if (name == "clvmls") name = "clvm-local" ls
            if (name == "clvmll") name = "clvm-local" ll
            if (name == "strict") name = "clvm-strict"
            if (name == "race") name = "clvm-races"
            if (name == "pocl") name = "pocl-1thread"
            if (name == "native") name = "native-O2"
            printf "  %-14s %10.3f\n", name, m * 1e9 / d }'
    done
}

ratio() {   # benchmark, implementation, label[, numerator implementation[, name]]
    num=${4:-clvm}
    [ -s "$tmp/$1.$num.median" ] && [ -s "$tmp/$1.$2.median" ] || return 0
    awk -v a="$(cat "$tmp/$1.$num.median")" -v b="$(cat "$tmp/$1.$2.median")" \
        -v l="RATIO ${5:-$1} $3" 'BEGIN { printf "%s %.2f\n", l, a / b }'
}

echo "bench (convert pipeline): $n work-items," \
     "median of $runs runs, ns per work-item"
report bench "$n"
echo "loop (scalar loop): $ln work-items x $iters iterations," \
     "median of $runs runs, ns per loop iteration"
report loop $((ln * iters))
echo "math (16 math built-ins per work-item, float): $mn work-items," \
     "median of $runs runs, ns per work-item"
report math "$mn"
echo "blur (3x3, 1024x1024 uchar4): the default profile and strict," \
     "median of $runs runs, ns per work-item"
report blur 1048576
[ -s "$tmp/math.close" ] && echo "  pocl vs clvm: $(sed 's/^close: //' "$tmp/math.close")"
ratio bench pocl clvm/pocl-1thread
ratio bench native clvm/native-O2
ratio loop native clvm/native-O2
ratio loop pocl clvm/pocl-1thread
ratio math pocl clvm/pocl-1thread
ratio bench pocl clvm/pocl-1thread clvmls bench-local$lsmall
ratio bench pocl clvm/pocl-1thread clvmll bench-local$llarge
ratio loop native clvm/native-O2 clvmls loop-local$lsmall
ratio loop native clvm/native-O2 clvmll loop-local$llarge
ratio blur clvm strict/default strict
ratio bench clvm races/unchecked race
ratio loop clvm races/unchecked race
ratio math clvm races/unchecked race
ratio bench clvm clvm-cl/clvm-clasm clvmcl
ratio loop clvm clvm-cl/clvm-clasm clvmcl
if [ -n "$enqs" ]; then
    echo "enqueue (work-item 0 adds 1 to an int): $enqn launches, median of" \
         "$runs runs, microseconds per launch"
    for g in 1 1024; do
        for p in $enqs; do
            printf '  %-5s global %-5s enqueue+finish each %9.2f  stream %9.2f\n' \
                $p $g "$(enq_med "$tmp/enq.$p.$g" 2)" "$(enq_med "$tmp/enq.$p.$g" 1)"
        done
    done
    # the overhead a host program waits for: enqueue, then clFinish
    echo "ENQUEUE us clvm $(enq_med "$tmp/enq.clvm.1" 2) pocl $(enq_med "$tmp/enq.pocl.1" 2)"
    echo "ENQUEUE-STREAM us clvm $(enq_med "$tmp/enq.clvm.1" 1)" \
         "pocl $(enq_med "$tmp/enq.pocl.1" 1)"
    echo "ENQUEUE-1024 us clvm $(enq_med "$tmp/enq.clvm.1024" 2)" \
         "pocl $(enq_med "$tmp/enq.pocl.1024" 2)"
    [ -s "$tmp/enq.pocl.1" ] &&
        awk -v a="$(enq_med "$tmp/enq.clvm.1" 2)" -v b="$(enq_med "$tmp/enq.pocl.1" 2)" \
            'BEGIN { printf "RATIO enqueue clvm/pocl %.2f\n", a / b }'
fi
sh bench/cc.sh "$build"

# The conformance rate, where clvm conform and the vectors are at hand.
shared=${CLVM_SHARED:-$root/../shared}
if "$clvm" conform --help 2>/dev/null | grep -q -- --stats &&
   ls "$shared"/conformance/*.tsv >/dev/null 2>&1; then
    "$clvm" conform --stats "$shared"/conformance/*.tsv 2>&1 >/dev/null | grep '^conform:'
fi
[ $status = 0 ] && echo "bench: all outputs hash to the reference values" ||
    echo "bench: FAILED (see the errors above)"
exit $status
