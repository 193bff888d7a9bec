#!/bin/sh
# The race check on several threads: every golden case under tests/run
# that runs with --check races or the strict profile runs again at
# --threads 1, 2 and 4. At 1 its output must be its .out (the groups in
# order: the same report every run); at 2 and 4 too where it finds no race,
# and where it does, a data race in the same kernel with the same exit
# status (which race of several, and from which side of a race between
# two work-groups, is found first depends on the threads' timing).
# usage: tests/race/threads.sh BUILD_DIR
# The last line is "race threads: N passed, N failed, N skipped".
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: tests/race/threads.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/racethreads.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0; fail=0
# same_race EXPECTED: both $tmp/actual and EXPECTED report a data race in
# one kernel, with one exit status.
same_race() {
    k=$(sed -n "s/^trap: data race in kernel '\([^']*\)'.*/\1/p" "$1")
    [ -n "$k" ] && grep -q "^trap: data race in kernel '$k'" "$tmp/actual" &&
        [ "$(tail -n 1 "$1")" = "$(tail -n 1 "$tmp/actual")" ]
}
for f in tests/run/*race*; do
    case $f in *.out) continue ;; esac
    cmd=$(head -n 1 "$f" | sed -n 's,^[;#/]*[ 	]*RUN:[ 	]*clvm ,,p')
    case "$cmd" in *"--check races"*|*"--profile strict"*) ;; *) continue ;; esac
    args=$(printf '%s\n' "$cmd" | sed "s|%s|$f|g; s/--threads [0-9]*//")
    for t in 1 2 4; do
        # shellcheck disable=SC2086
        "$build/clvm" $args --threads $t >"$tmp/actual" 2>&1
        echo "exit: $?" >>"$tmp/actual"
        exp=${f%.*}.out
        if cmp -s "$tmp/actual" "$exp" || { [ $t -gt 1 ] && same_race "$exp"; }; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $f --threads $t:"
            diff "${f%.*}.out" "$tmp/actual" | head -n 5
        fi
    done
done
echo "race threads: $pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
