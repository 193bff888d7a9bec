#!/bin/sh
# `make bench-insns`: instructions the interpreter executes (callgrind,
# counted inside vm_run only) for small runs of the two reference kernels
# (and of their OpenCL C versions, compiled by clvm cc, as a ratio):
# a machine-independent speed measure for refactors, where wall-clock
# ratios on a shared machine are too noisy. Compare two builds with
#   bench/insns.sh BUILD_A BUILD_B     (prints both and B/A)
# bench: 65,536 work-items; loop: 1,024 work-items x 100 iterations.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
[ $# -ge 1 ] || { echo "usage: bench/insns.sh BUILD_DIR [BUILD_DIR2]"; exit 2; }
command -v valgrind >/dev/null || { echo "bench-insns: skipped (no valgrind)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/insns.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
gen=$1/bench/gen
"$gen" bench 65536 "$tmp/in.bin" && "$gen" loop 1024 "$tmp/seed.bin" &&
    "$gen" zeros $((16 * 65536)) "$tmp/z16.bin" &&
    "$gen" zeros $((4 * 1024)) "$tmp/z4.bin" || exit 2

# count BUILD KERNEL [FILE]: prints the instruction count of one run
# (FILE: another module of the same kernel, as the .cl versions' .bc).
count() {
    f=${3:-bench/$2.clasm}
    case $2 in
    bench) set -- "$1" "$f" --global 65536 --arg in=@"$tmp/in.bin" \
               --arg out=@"$tmp/z16.bin" --arg scale=1.5 --arg bias=0.5 \
               --arg key=0x9E3779B9 --arg mask=0xFFFF0FFF ;;
    loop)  set -- "$1" "$f" --global 1024 --arg seed=@"$tmp/seed.bin" \
               --arg out=@"$tmp/z4.bin" --arg iters=100 ;;
    esac
    b=$1; shift
    valgrind --tool=callgrind --toggle-collect=vm_run \
        --callgrind-out-file="$tmp/cg.out" "$b/clvm" run "$@" --threads 1 \
        >/dev/null 2>"$tmp/err" || { sed 's/^/    /' "$tmp/err" >&2; exit 1; }
    sed -n 's/^summary: //p' "$tmp/cg.out"
}

for k in bench loop; do
    a=$(count "$1" $k) || exit 1
    if [ $# -ge 2 ]; then
        b=$(count "$2" $k) || exit 1
        awk -v k=$k -v a="$a" -v b="$b" 'BEGIN {
            printf "INSNS %s %d -> %d  ratio %.4f\n", k, a, b, b / a }' ||
        echo "INSNS $k $1 $a $2 $b"
    else
        echo "INSNS $k $a"
    fi
done
# The OpenCL C versions through clvm's front end against the IR ones
# (goal: at most 1.15), when clang-14 and llvm-spirv-14 are at hand.
b=${2:-$1}
for k in bench loop; do
    CLVM_NO_CACHE=1 "$b/clvm" cc bench/$k.cl -o "$tmp/$k.cl.bc" 2>/dev/null ||
        { echo "INSNS $k.cl skipped (clvm cc failed)"; continue; }
    a=$(count "$b" $k) && c=$(count "$b" $k "$tmp/$k.cl.bc") || exit 1
    awk -v k=$k -v a="$a" -v c="$c" 'BEGIN {
        printf "INSNS %s.cl %d  ratio to .clasm %.4f\n", k, c, c / a }'
done
