#!/bin/sh
# Runs pyopencl's own tests (the shared folder's copy, pyopencl 2022.3.1 as
# Debian packages it) with clvm as the only platform, through Debian's
# Python, one file at a time, and checks them against PoCL's results.
# usage: tests/ocl/pyopencl.sh BUILD [ci|all|pocl]
#   ci   (default) test_wrapper.py, as CI runs it
#   all  the six files of the platform issue (make pyopencl; ~25 minutes)
#   pocl the six files on PoCL 3.1 (pinned), writing the list of those that
#        pass there to tests/ocl/pyopencl-pocl.list
# Prints a line per file (its counts and time), then one summary line. A
# failure is a test that fails on clvm, or one of pyopencl-pocl.list (those
# that pass on PoCL) that does not pass on clvm and is not in
# pyopencl-known.list (those clvm cannot pass, each with why), or one of
# pyopencl-known.list that passes (the list must stay true). Without the
# shared folder, Debian's pytest or pyopencl, every file is skipped, counted.
build=${1:-build}
mode=${2:-ci}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/ocl
shared=${CLVM_SHARED:-$root/../shared}
shared=$(cd "$shared" 2>/dev/null && pwd || echo "$shared")
dir=$shared/third_party/pyopencl-tests
files=test_wrapper.py
[ "$mode" = ci ] || files="test_wrapper.py test_array.py test_algorithm.py test_clmath.py test_enqueue_copy.py test_arrays_in_structs.py"
py=/usr/bin/python3
if [ ! -d "$dir" ] || ! "$py" -c 'import pyopencl, pytest' 2>/dev/null; then
    echo "pyopencl: no tests in $dir, or no pyopencl/pytest for $py: skipped"
    echo "pyopencl: 0 passed, 0 failed, $(echo $files | wc -w) skipped"
    exit 0
fi
lib=$root/$build/libclvm-icd.so
platform=clvm
if [ "$mode" = pocl ]; then
    lib=/usr/lib/x86_64-linux-gnu/libpocl.so.2
    platform="Portable Computing Language"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the platform pytest will see must be the one meant (PoCL stays PoCL)
got=$(OCL_ICD_VENDORS=$lib "$py" -c \
    'import pyopencl as cl; print(",".join(p.name for p in cl.get_platforms()))' 2>&1)
if [ "$got" != "$platform" ]; then
    echo "pyopencl: platforms through $lib are '$got', not '$platform'"
    echo "pyopencl: 0 passed, 1 failed, 0 skipped"
    exit 1
fi

# count WORD LINE: the number before WORD in pytest's last line, or 0
count() { printf '%s\n' "$2" | grep -oE "[0-9]+ $1" | head -1 | cut -d' ' -f1 | grep . || echo 0; }
# the passed tests of pytest -rA output, device and platform names made CTX
# and PLATFORM so that the lists of two platforms compare
passed() {
    sed -n 's/^PASSED //p' "$1" | sed -E \
        -e "s/<context factory for <pyopencl.Device '[^']*' on '[^']*'>>/CTX/g" \
        -e "s/<pyopencl.Platform '[^']*'>/PLATFORM/g"
}
# the entries of a list file, comments and blank lines left out
entries() { grep -vE '^(#|$)' "$1"; }

tp=0; tf=0; ts=0; t0=$(date +%s)
: >"$tmp/passed"
for f in $files; do
    start=$(date +%s)
    (cd "$dir" && OCL_ICD_VENDORS=$lib PYOPENCL_NO_CACHE=1 PYOPENCL_TEST= \
        "$py" -m pytest -p no:cacheprovider -q -rA "$f") >"$tmp/out" 2>&1
    rc=$?
    grep -E '^(FAILED|ERROR) ' "$tmp/out"
    passed "$tmp/out" >>"$tmp/passed"
    last=$(tail -n 1 "$tmp/out")
    p=$(count passed "$last"); fl=$(count failed "$last"); e=$(count error "$last")
    s=$(count skipped "$last"); x=$(count xfailed "$last"); xp=$(count xpassed "$last")
    fl=$((fl + e)); s=$((s + x + xp))
    if [ "$rc" -ne 0 ] && [ "$fl" -eq 0 ]; then
        tail -n 20 "$tmp/out"; fl=1
    fi
    echo "pyopencl: $f: $p passed, $fl failed, $s skipped ($(($(date +%s) - start)) s)"
    tp=$((tp + p)); tf=$((tf + fl)); ts=$((ts + s))
done
sort -u "$tmp/passed" -o "$tmp/passed"

if [ "$mode" = pocl ]; then
    {
        echo "# pyopencl 2022.3.1's tests that pass on PoCL 3.1 on this project's machine"
        echo "# (OCL_ICD_VENDORS=$lib; device ids as CTX,"
        echo "# platforms as PLATFORM). tests/ocl/pyopencl.sh BUILD pocl writes it again."
        cat "$tmp/passed"
    } >"$here/pyopencl-pocl.list"
    echo "pyopencl: $(wc -l <"$tmp/passed") tests pass on PoCL, written to tests/ocl/pyopencl-pocl.list"
    echo "pyopencl: on PoCL, $tp passed, $tf failed, $ts skipped in $(($(date +%s) - t0)) s"
    exit 0
fi

# PoCL's passes among the files run, against clvm's
pat=$(echo $files | sed 's/ /|/g; s/\./\\./g')
entries "$here/pyopencl-pocl.list" | grep -E "^($pat)::" | sort -u >"$tmp/pocl"
entries "$here/pyopencl-known.list" | grep -E "^($pat)::" | sort -u >"$tmp/known"
comm -23 "$tmp/pocl" "$tmp/passed" >"$tmp/missing"
comm -23 "$tmp/missing" "$tmp/known" >"$tmp/lost"
comm -12 "$tmp/known" "$tmp/passed" >"$tmp/stale"
sed 's/^/pyopencl: passes on PoCL, not on clvm: /' "$tmp/lost"
sed 's/^/pyopencl: passes on clvm, yet in tests\/ocl\/pyopencl-known.list: /' "$tmp/stale"
lost=$(wc -l <"$tmp/lost"); stale=$(wc -l <"$tmp/stale")
echo "pyopencl: of PoCL's $(wc -l <"$tmp/pocl") passes, $(comm -12 "$tmp/pocl" "$tmp/passed" | wc -l) pass on clvm," \
    "$(comm -12 "$tmp/missing" "$tmp/known" | wc -l) known not to (tests/ocl/pyopencl-known.list), $lost lost;" \
    "$(comm -13 "$tmp/pocl" "$tmp/passed" | wc -l) pass on clvm alone; $(($(date +%s) - t0)) s"
tf=$((tf + lost + stale))
echo "pyopencl: $tp passed, $tf failed, $ts skipped"
[ "$tf" -eq 0 ]
