#!/bin/sh
# Runs the Khronos OpenCL CTS (the shared folder's copy, built with its
# cts.sh) on clvm's platform library and counts its sub-tests.
# usage: tests/cts/run.sh BUILD [ci|all]
#   ci   (default) the suites and shares CI runs: tests/cts/ci.list
#   all  every suite of the shared SUITES file, whole (make cts)
# The CTS is built once into BUILD/cts (about 5 minutes on 2 cores). A
# sub-test named in tests/cts/known.list fails for the reason given there
# and is counted as skipped while it does; one that passes there is
# reported, so that the list is kept true. Without the shared folder
# every suite is skipped, counted.
build=${1:-build}
mode=${2:-ci}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shared=${CLVM_SHARED:-$root/../shared}
shared=$(cd "$shared" 2>/dev/null && pwd || echo "$shared")
lib=$root/$build/libclvm-icd.so
list=$here/ci.list
[ "$mode" = all ] && list=$shared/cts/SUITES
known=$here/known.list
out=$root/$build/cts
p=0; f=0; s=0

suites() { grep -v '^#' "$list" | awk 'NF'; }

if [ ! -x "$shared/cts/cts.sh" ] || [ ! -d "$shared/third_party/OpenCL-CTS" ]; then
    n=$(suites 2>/dev/null | wc -l)
    echo "cts: no CTS in $shared (set CLVM_SHARED): every suite skipped"
    echo "cts: 0 passed, 0 failed, $n skipped"
    exit 0
fi
targets=$(suites | awk '{print $2}' | sort -u)
missing=
for t in $targets; do
    [ -n "$(find "$out/test_conformance" -type f -name "$t" -perm -u+x 2>/dev/null | head -1)" ] ||
        missing="$missing $t"
done
if [ -n "$missing" ]; then
    echo "cts: building$missing into $out"
    # shellcheck disable=SC2086
    "$shared/cts/cts.sh" build "$out" $missing >"$out.build.log" 2>&1 ||
        { tail -20 "$out.build.log"; echo "cts: the CTS did not build (log: $out.build.log)";
          echo "cts: 0 passed, 1 failed, 0 skipped"; exit 1; }
fi

# Each suite alone, with clvm as the only platform the ICD loader sees.
vend=$(mktemp -d)
trap 'rm -rf "$vend"' EXIT
echo "$lib" >"$vend/clvm.icd"
suites | while read -r name target args; do
    exe=$(find "$out/test_conformance" -type f -name "$target" -perm -u+x | head -1)
    start=$(date +%s)
    log=$out/$name.log
    # shellcheck disable=SC2086
    (cd "$(dirname "$exe")" && OCL_ICD_VENDORS=$vend ./"$target" $args) >"$log" 2>&1
    rc=$?
    # the verdict: "PASSED n of N sub-tests." / "FAILED k of N tests.", or
    # "PASSED test." / "FAILED test." when one sub-test ran (the others
    # not supported on the device), and a line ending "NAME FAILED" per
    # failed sub-test
    total=$(grep -E '^(PASSED|FAILED) [0-9]+ of [0-9]+ ' "$log" | tail -n 1 | awk '{print $4}')
    [ -z "$total" ] && grep -qE '^(PASSED|FAILED) test\.$' "$log" && total=1
    failed=$(grep -E '[A-Za-z0-9_]+ FAILED\.?$' "$log" |
             sed -E 's/^(.*[^A-Za-z0-9_])?([A-Za-z0-9_]+) FAILED\.?$/\2/' | sort -u)
    sf=0; sk=0
    for t in $failed; do
        if grep -qE "^$name $t( |$)" "$known"; then
            sk=$((sk + 1))
        else
            sf=$((sf + 1)); echo "FAIL cts $name $t (log: $log)"
        fi
    done
    sp=$(( ${total:-0} - sf - sk ))
    [ $sp -ge 0 ] || sp=0
    for t in $(awk -v n="$name" '$1 == n {print $2}' "$known"); do
        echo "$failed" | grep -qx "$t" || [ -z "$total" ] ||
            echo "cts: $name $t passes now: take it out of tests/cts/known.list"
    done
    if [ $((sp + sf + sk)) -eq 0 ]; then
        sf=1; echo "FAIL cts $name: no sub-test verdicts (exit $rc); the log's end:"; tail -5 "$log"
    elif [ $rc -ne 0 ] && [ $sf -eq 0 ] && [ $sk -eq 0 ]; then
        sf=1; echo "FAIL cts $name: exit status $rc with no failed sub-test"
    fi
    echo "cts $name: $sp passed, $sf failed, $sk known, $(($(date +%s) - start)) s"
    echo "$sp $sf $sk" >>"$vend/counts"
done
if [ -f "$vend/counts" ]; then
    set -- $(awk '{p += $1; f += $2; s += $3} END {print p, f, s}' "$vend/counts")
    p=$1; f=$2; s=$3
fi
echo "cts: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
