#!/bin/sh
# The race check's report does not depend on --threads: every golden case
# under tests/run that runs with --check races or the strict profile runs
# again at --threads 1, 2 and 4, and each output must be its .out.
# usage: tests/race/threads.sh BUILD_DIR
# The last line is "race threads: N passed, N failed, N skipped".
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: tests/race/threads.sh BUILD_DIR}
case "$build" in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/racethreads.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0; fail=0
for f in tests/run/*race*; do
    case $f in *.out) continue ;; esac
    cmd=$(head -n 1 "$f" | sed -n 's,^[;#/]*[ 	]*RUN:[ 	]*clvm ,,p')
    case "$cmd" in *"--check races"*|*"--profile strict"*) ;; *) continue ;; esac
    args=$(printf '%s\n' "$cmd" | sed "s|%s|$f|g; s/--threads [0-9]*//")
    for t in 1 2 4; do
        # shellcheck disable=SC2086
        "$build/clvm" $args --threads $t >"$tmp/actual" 2>&1
        echo "exit: $?" >>"$tmp/actual"
        if cmp -s "$tmp/actual" "${f%.*}.out"; then
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
