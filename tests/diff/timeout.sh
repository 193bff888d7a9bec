#!/bin/sh
# The difftest's time limit (docs/difftest.md, "Time limits"): four
# kernels of seed 1 on clvm's own OpenCL platform (no PoCL needed), one of
# them made to hang (DIFFTEST_HANG) on the OpenCL side, in clvm's front
# end or in clvm's IR. A hang on OpenCL is counted as PoCL's fault 14 and
# the kernel passes; a hang in clvm is a failure naming kernel and seed.
# After each run no process of the hang is left and the temporary folder
# is empty.
# usage: tests/diff/timeout.sh BUILD_DIR
build=${1:-build}
pass=0; fail=0; skip=0
dt=$build/diff/difftest
if [ ! -x "$dt" ] || [ ! -f "$build/libclvm-icd.so" ]; then
    echo "difftest timeout: $dt or $build/libclvm-icd.so not built (no OpenCL headers)"
    echo "difftest timeout: 0 passed, 0 failed, 4 skipped"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dttime.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
icd=$(cd "$(dirname "$build/libclvm-icd.so")" && pwd)/libclvm-icd.so

# case NAME HANG STATUS PATTERN...: runs the four kernels with
# DIFFTEST_HANG=HANG, expects exit status STATUS and every PATTERN (a
# fixed string) in the output
case_() {
    name=$1; hang=$2; want=$3; shift 3
    mkdir -p "$tmp/t"
    start=$(date +%s)
    TMPDIR=$tmp/t OCL_ICD_VENDORS=$icd DIFFTEST_TIMEOUT=1 DIFFTEST_HANG=$hang \
        timeout 60 "$dt" --seed 1 --count 4 --batch 4 --show 0 --out "$tmp/out" >"$tmp/log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    bad=""
    [ "$rc" = "$want" ] || bad="exit status $rc, not $want"
    for p in "$@"; do
        grep -qF -- "$p" "$tmp/log" || bad="$bad; no line with '$p'"
    done
    pgrep -f "sleep 86399" >/dev/null && bad="$bad; the hang's sleep is still running"
    [ -z "$(ls -A "$tmp/t")" ] || bad="$bad; left in TMPDIR: $(ls -A "$tmp/t")"
    [ "$took" -le 30 ] || bad="$bad; took ${took} s"
    if [ -z "$bad" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: $bad"
        grep "^difftest\|^FAIL\|^HANG" "$tmp/log" | head -10
        fail=$((fail + 1))
    fi
}

case_ none none 0 "difftest: 4 passed, 0 failed, 0 skipped"
case_ opencl OpenCL:t1 0 \
    "HANG t1 (seed 1): OpenCL: ran over the time limit of 1 s" \
    "difftest: PoCL hangs (fault 14, docs/difftest.md): 1 kernels ran past the time limit of 1 s there" \
    "difftest: 4 passed, 0 failed, 0 skipped"
case_ ir ir:t2 1 \
    "FAIL t2 (seed 1): clvm IR: ran over the time limit of 1 s" \
    "1 clvm IR, 0 OpenCL vs IR" "difftest: 3 passed, 1 failed, 0 skipped"
case_ frontend cc:t0 1 \
    "FAIL t0 (seed 1): clvm's front end: ran over the time limit of 1 s" \
    "1 clvm front end build or run" "difftest: 3 passed, 1 failed, 0 skipped"
echo "difftest timeout: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
