# Sourced by bench/run.sh and bench/scaling.sh: the setup they share (the
# build folder, a scratch folder removed on exit, the reference hashes, the
# inputs of bench and loop, medians). The sourcing script sets `name` (its
# error prefix) and the sizes n (bench), ln (loop) and iters first; $1 is
# its BUILD_DIR argument.
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: $0 BUILD_DIR}
case "$build" in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2
clvm=$build/clvm
gen=$build/bench/gen
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

fail() { echo "$name: ERROR: $*"; status=1; }

# Reference hashes (published with the benchmarks) of bench at $1 work-items
# and loop at $1 work-items of $2 iterations; nothing for other sizes.
ref_bench() {
    case $1 in 4194304) echo e4e722c0960ebcbf ;; 33554432) echo d2f4b07453c76661 ;; esac
}
ref_loop() {
    [ "$2" = 1000 ] || return 0
    case $1 in 16384) echo bc65aa02af92f0cc ;; 262144) echo 3c55ec9a43fd3348 ;; esac
}

# The kernel time of a "time: ... kernel=SECONDS" line, and the hash of a
# "hash: H" line, in file $1.
timeof() { sed -n 's/^time: .*kernel=\([^ ]*\).*/\1/p' "$1" | head -n 1; }
hashof() { sed -n 's/^hash: \([0-9a-f]*\)$/\1/p' "$1" | head -n 1; }

# Median of the numbers in file $1 (mean of the middle two if even).
median() {
    sort -g "$1" | awk '{v[NR] = $1} END {
        if (NR == 0) exit 1
        m = int((NR + 1) / 2)
        printf "%.9g\n", NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2 }'
}

# bench's input and loop's seeds, and files of zeros for their outputs
# (clvm's output buffers come from files rather than zeros:BYTES, which
# callocs: its pages would be faulted in by the kernel, inside the timing).
"$gen" bench "$n" "$tmp/in.bin" && "$gen" loop "$ln" "$tmp/seed.bin" &&
    "$gen" zeros $((16 * n)) "$tmp/zero16.bin" &&
    "$gen" zeros $((4 * ln)) "$tmp/zero4.bin" || exit 2
