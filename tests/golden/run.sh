#!/bin/sh
# Golden tests. A case is any file under tests/ whose first line is a
# directive comment (after ';', '//' or '#'):
#
#   RUN: asm          clvm asm FILE -o TMP.bc
#   RUN: dis [ARGS]   clvm asm FILE -o TMP.bc, then clvm dis ARGS TMP.bc
#   RUN: clvm ARGS    clvm with ARGS split at spaces; %s is the case file,
#                     %t a temporary path, %b the build folder
#   RUN: repl ARGS    clvm repl --echo ARGS with the case file on stdin (a
#                     scripted session: its output is the transcript)
#
# Its expected output is NAME.out next to it (NAME: the file name without
# its last extension): stdout and stderr together, then "exit: N". Cases
# run from the repository root, so the paths in messages are stable.
#
# usage: tests/golden/run.sh [--rebase] BUILD_DIR [FILE_OR_DIR...]
#   --rebase   write the actual output to the .out files instead of
#              comparing (review the diff before committing)
# The last line is "golden: N passed, N failed, N skipped".
rebase=0
if [ "$1" = "--rebase" ]; then rebase=1; shift; fi
if [ $# -lt 1 ]; then
    echo "usage: tests/golden/run.sh [--rebase] BUILD_DIR [FILE_OR_DIR...]" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1; shift
case "$build" in /*) ;; *) build=$root/$build ;; esac
clvm=$build/clvm
cd "$root" || exit 2
[ $# -eq 0 ] && set -- tests
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0; fail=0; skip=0

# The directive of file $1 on stdout (empty if it has none).
directive() {
    head -n 1 "$1" 2>/dev/null | sed -n 's,^[;#/]*[ 	]*RUN:[ 	]*,,p'
}

# Runs case $1 with directive $2; output into $tmp/actual.
run_case() {
    f=$1; cmd=$2
    rm -f "$tmp/x.bc"
    case "$cmd" in
    asm)
        "$clvm" asm "$f" -o "$tmp/x.bc" >"$tmp/actual" 2>&1
        echo "exit: $?" >>"$tmp/actual" ;;
    dis|dis\ *)
        # shellcheck disable=SC2086
        { "$clvm" asm "$f" -o "$tmp/x.bc" && "$clvm" dis ${cmd#dis} "$tmp/x.bc"; } \
            >"$tmp/actual" 2>&1
        echo "exit: $?" >>"$tmp/actual" ;;
    clvm|clvm\ *)
        args=$(printf '%s\n' "${cmd#clvm}" | sed "s|%s|$f|g; s|%t|$tmp/t|g; s|%b|$build|g")
        # shellcheck disable=SC2086
        "$clvm" $args >"$tmp/actual" 2>&1
        echo "exit: $?" >>"$tmp/actual" ;;
    repl|repl\ *)
        args=$(printf '%s\n' "${cmd#repl}" | sed "s|%t|$tmp/t|g")
        # shellcheck disable=SC2086
        NO_COLOR=1 "$clvm" repl --echo $args <"$f" >"$tmp/actual" 2>&1
        echo "exit: $?" >>"$tmp/actual" ;;
    *)
        return 3 ;;
    esac
}

for arg in "$@"; do
    if [ -d "$arg" ]; then find "$arg" -path tests/fuzz -prune -o -type f ! -name '*.out' -print; else echo "$arg"; fi
done | LC_ALL=C sort >"$tmp/cases"

while IFS= read -r f; do
    cmd=$(directive "$f")
    [ -n "$cmd" ] || continue
    exp=${f%.*}.out
    if [ ! -x "$clvm" ]; then
        echo "SKIP $f: no $clvm"; skip=$((skip + 1)); continue
    fi
    echo "$exp" >>"$tmp/expected"
    run_case "$f" "$cmd"
    if [ $? -eq 3 ]; then
        echo "FAIL $f: unknown directive '$cmd'"; fail=$((fail + 1)); continue
    fi
    if [ $rebase -eq 1 ]; then
        if ! cmp -s "$tmp/actual" "$exp" 2>/dev/null; then
            cp "$tmp/actual" "$exp" && echo "REBASED $exp"
        fi
        pass=$((pass + 1))
    elif [ ! -f "$exp" ]; then
        echo "FAIL $f: no expected output $exp (run with --rebase)"
        fail=$((fail + 1))
    elif diff -u "$exp" "$tmp/actual" >"$tmp/diff"; then
        pass=$((pass + 1))
    else
        echo "FAIL $f"
        cat "$tmp/diff"
        fail=$((fail + 1))
    fi
done <"$tmp/cases"

# An expected output whose case lost its directive (or the case itself) is
# a case that no longer runs: fail, so no edit empties a suite quietly.
for arg in "$@"; do
    [ -d "$arg" ] && find "$arg" -path tests/fuzz -prune -o -type f -name '*.out' -print
done | LC_ALL=C sort >"$tmp/outs"
touch "$tmp/expected"
for o in $(LC_ALL=C sort "$tmp/expected" | comm -23 "$tmp/outs" -); do
    echo "FAIL $o: no case runs it (no file ${o%.out}.* with a RUN: directive)"
    fail=$((fail + 1))
done
if [ $((pass + fail + skip)) -eq 0 ]; then
    echo "FAIL: no golden cases in $*"; fail=1
fi
echo "golden: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
