#!/bin/sh
# docs/repl.md is a tested transcript: each ```repl block is one session,
# its "clvm> " lines the commands and the whole block the expected output
# of `clvm repl --echo` fed those commands.
# usage: tests/repl/tour.sh [--rebase] BUILD_DIR
#   --rebase   rewrite the blocks of docs/repl.md with the actual output
rebase=0
if [ "$1" = "--rebase" ]; then rebase=1; shift; fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
case "$build" in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tour.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
# split the blocks into $tmp/block.N
awk -v d="$tmp" '/^```repl$/ {n++; f=d "/block." n; printf "" > f; on=1; next}
                 /^```$/ {on=0; next}
                 on {print > f}' docs/repl.md
pass=0; fail=0
for b in "$tmp"/block.*; do
    [ -f "$b" ] || continue
    sed -n 's/^clvm> //p' "$b" | NO_COLOR=1 "$build/clvm" repl --echo \
        >"$tmp/actual" 2>&1
    cp "$tmp/actual" "$b.new"
    if [ $rebase -eq 1 ]; then
        pass=$((pass + 1))
    elif diff -u "$b" "$tmp/actual" >"$tmp/diff"; then
        pass=$((pass + 1))
    else
        echo "FAIL docs/repl.md block ${b##*.}"; cat "$tmp/diff"
        fail=$((fail + 1))
    fi
done
if [ $rebase -eq 1 ]; then
    awk -v d="$tmp" '/^```repl$/ {print; n++; on=1
                         while ((getline l < (d "/block." n ".new")) > 0) print l
                         next}
                     /^```$/ {on=0}
                     !on {print}' docs/repl.md >"$tmp/repl.md" &&
        cp "$tmp/repl.md" docs/repl.md && echo "REBASED docs/repl.md"
fi
[ $pass -gt 0 ] || { echo "FAIL: no repl blocks in docs/repl.md"; fail=$((fail + 1)); }
echo "tour: $pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
