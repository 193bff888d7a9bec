#!/bin/sh
# Drives the libFuzzer targets for tests/fuzz/fuzz.mk.
# usage: tests/fuzz/fuzz.sh BUILD MODE N TARGET...
#   replay     every file of tests/fuzz/corpus/T and tests/fuzz/regress/T
#              through fuzz_T; one result per file
#   run N      fuzz each target N seconds (corpus grows in BUILD/corpus/T)
#   ci "T=N ..."  each target with -seed=1 and N runs from the committed
#              corpus
#   seed       seeds from examples/ and tests/ merged into the corpus
#   merge      BUILD/corpus/T merged into tests/fuzz/corpus/T (-merge=1)
# replay, run and ci end with "fuzz: N passed, N failed, N skipped".
b=$1; mode=$2; n=$3; shift 3
pass=0; fail=0; skip=0
opts="-timeout=10 -max_len=8192 -rss_limit_mb=2048"
mkdir -p "$b/logs"

# The control block fuzz.h's runners read first (64 bytes): kernel 0, one
# dimension of 16 work-items, warp 64, 4096 steps; or two dimensions (8x4),
# warp 1, warn_impl on. Then every buffer 48 elements of a byte ramp.
ctl() {
    { if [ "$1" = 0 ]; then printf '\000\000\017\000\000\077\377\377\000'
      else printf '\000\001\007\003\000\003\000\000\000\377\377\200'; fi
      i=0
      while [ $i -lt 20 ]; do printf '\060\000\001'; i=$((i + 1)); done
    } | head -c 64
}

result() {  # result OK WHAT
    if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $2"; fi
}

# fuzz_repl's setups (tests/fuzz/fuzz_repl.c, setups[]): the kernel each
# selector byte loads, in order; the last loads nothing.
repl_kernels="reduce saxpy as_type convert half_modes pixel hello vload sum shift"
repl_none=10

# The commands of a REPL session: the options of tests/repl/X.repl's RUN
# line as the commands of the same name (a FILE to load first; --native
# and --max-steps have none), then the lines after it.
repl_script() {
    # shellcheck disable=SC2046
    set -- $(head -n 1 "$1" | sed -n 's,^[;#/]*[ 	]*RUN:[ 	]*repl,,p') "$1"
    cmds=
    while [ $# -gt 1 ]; do
        case $1 in
        --native|--max-steps) shift ;;
        --*) cmds="$cmds${1#--} $2
"; shift ;;
        *) printf 'load %s\n' "$1" ;;
        esac
        shift
    done
    printf '%s' "$cmds"
    tail -n +2 "$1"
}

# One byte of value $1 (0..255).
byte() {
    # shellcheck disable=SC2059
    printf "\\$(printf %o "$1")"
}

seed_repl() {
    d=$1
    for f in tests/repl/*.repl; do
        { byte $repl_none; repl_script "$f"; } \
            >"$d/$(basename "$f" .repl)"
    done
    # every setup, stopped at each warp's start, stepped, looked at
    i=0
    for k in $repl_kernels; do
        for w in 0 1; do
            { byte $((i + w * (repl_none + 1)))
              printf 'break %s\nrun\ninfo breakpoints\nstep\nstep 3\nnext\n' "$k"
              printf 'list\ninfo registers\nworkitem 1\ncontinue\ndelete\n'
              printf 'continue\nrun\nrun x\n'
            } >"$d/setup_$k.$w"
        done
        i=$((i + 1))
    done
    cp tests/fuzz/regress/repl/* "$d/" 2>/dev/null
}

# SPIR-V seeds: the .cl kernels of examples/ and tests/run/ compiled as
# clvm compiles them (docs/opencl-c.md), with and without line tables.
seed_spirv() {
    for f in examples/*.cl tests/run/cl_*.cl; do
        id=$(printf '%s' "$f" | tr '/.' '__')
        for g in -gline-tables-only -g0; do
            clang-14 -cl-std=CL1.2 -target spir64 -cl-kernel-arg-info \
                -fno-discard-value-names $g -O0 -emit-llvm -c "$f" \
                -o "$b/seeds/x.bc" 2>/dev/null &&
            llvm-spirv-14 --spirv-replace-fmuladd-with-ocl-mad=false \
                --preserve-ocl-kernel-arg-type-metadata-through-string \
                "$b/seeds/x.bc" -o "$1/$id$g.spv" 2>/dev/null
        done
    done
}

seed() {
    t=$1; d=$b/seeds/$t
    rm -rf "$d"; mkdir -p "$d"
    if [ "$t" = repl ]; then seed_repl "$d"; merge "$t" "$d"; return; fi
    if [ "$t" = spirv ]; then seed_spirv "$d"; merge "$t" "$d"; return; fi
    find examples tests -name '*.clasm' ! -path 'tests/fuzz/*' | LC_ALL=C sort |
    while IFS= read -r f; do
        id=$(printf '%s' "$f" | tr '/.' '__')
        case $t in
        asm) cp "$f" "$d/$id" ;;
        asmrun) for v in 0 1; do { ctl $v; cat "$f"; } >"$d/$id.$v"; done ;;
        bc|run)
            "$b/mkseed" "$f" "$b/seeds/x.bc" >/dev/null 2>&1 || continue
            if [ $t = bc ]; then cp "$b/seeds/x.bc" "$d/$id.bc"
            else for v in 0 1; do { ctl $v; cat "$b/seeds/x.bc"; } >"$d/$id.$v"; done
            fi ;;
        esac
    done
    merge "$t" "$d"
}

# tests/golden/run.sh takes any file under tests/ whose first line is a
# "RUN:" directive for a golden case; a seed copied from one must not be.
defuse() {
    for f in "$@"; do
        head -n 1 "$f" | grep -q '^[;#/]*[ 	]*RUN:' || continue
        sed -i '1s/RUN:/RUN;/' "$f"
    done
}

# Keeps the fewest inputs that reach every edge the corpus and the given
# directories reach (-use_counters=0: hit counts do not count, which keeps
# the committed corpus small; BUILD/corpus/T keeps everything).
merge() {
    t=$1; shift
    new=$b/merged/$t
    rm -rf "$new"; mkdir -p "$new" "tests/fuzz/corpus/$t" "$b/artifacts/$t"
    # an input that crashes is left out, and kept in artifacts/ (not in
    # the working directory, the repository)
    "$b/fuzz_$t" -merge=1 -use_counters=0 $opts -artifact_prefix="$b/artifacts/$t/" \
        "$new" "tests/fuzz/corpus/$t" "$@" \
        >"$b/logs/merge_$t.log" 2>&1 || { echo "merge $t failed: $b/logs/merge_$t.log"; return 1; }
    if grep -q 'ERROR: \|runtime error' "$b/logs/merge_$t.log"; then
        grep -m3 'ERROR: \|runtime error' "$b/logs/merge_$t.log"
        echo "merge $t: an input crashed, left out (kept in $b/artifacts/$t)"
    fi
    rm -f "tests/fuzz/corpus/$t"/*
    cp "$new"/* "tests/fuzz/corpus/$t/"
    defuse "tests/fuzz/corpus/$t"/*
    echo "corpus $t: $(ls "tests/fuzz/corpus/$t" | wc -l) files"
}

for t in "$@"; do
    bin=$b/fuzz_$t
    case $mode in
    replay)
        files=$(find "tests/fuzz/corpus/$t" "tests/fuzz/regress/$t" -type f 2>/dev/null | LC_ALL=C sort)
        [ -n "$files" ] || continue
        count=$(printf '%s\n' "$files" | wc -l)
        if [ ! -x "$bin" ]; then echo "SKIP $t: no $bin"; skip=$((skip + count)); continue; fi
        # One process for them all; only if it fails, one per file to name
        # the culprits.
        # shellcheck disable=SC2086
        if "$bin" $opts $files >"$b/logs/replay_$t.log" 2>&1; then
            pass=$((pass + count))
        else
            for f in $files; do
                "$bin" $opts "$f" >"$b/logs/replay_one.log" 2>&1
                rc=$?; result $rc "$t $f"
                [ $rc = 0 ] || grep -m3 'ERROR\|runtime error\|fuzz check' "$b/logs/replay_one.log"
            done
        fi ;;
    run|ci)
        if [ ! -x "$bin" ]; then echo "SKIP $t: no $bin"; skip=$((skip + 1)); continue; fi
        if [ $mode = run ]; then
            c=$b/corpus/$t; lim="-max_total_time=$n"
        else
            runs=$(printf '%s\n' $n | sed -n "s/^$t=//p")
            c=$b/ci/$t; lim="-seed=1 -runs=${runs:-10000}"; rm -rf "$c"
        fi
        mkdir -p "$c" "$b/artifacts/$t"
        log=$b/logs/${mode}_$t.log
        # shellcheck disable=SC2086
        "$bin" $opts $lim -print_final_stats=1 -artifact_prefix="$b/artifacts/$t/" \
            "$c" "tests/fuzz/corpus/$t" >"$log" 2>&1
        rc=$?
        echo "fuzz $t: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') runs, exit $rc"
        [ $rc = 0 ] || { grep -m5 'ERROR\|runtime error\|fuzz check\|Test unit written' "$log"; }
        result $rc "$t (log: $log)" ;;
    seed) seed "$t" ;;
    merge) merge "$t" "$b/corpus/$t" ;;
    esac
done
case $mode in
replay|run|ci) echo "fuzz: $pass passed, $fail failed, $skip skipped"; [ $fail = 0 ] ;;
esac
