#!/bin/sh
# make install / uninstall into a DESTDIR, and the host examples
# (examples/host/) run on clvm's OpenCL platform through
# `clvm exec` (and `clvm exec --break`, scripted and on a pseudo-terminal),
# their output compared with examples/host/NAME.out. The
# pyopencl one is skipped, counted, where Python cannot load the library:
# no pyopencl, or a sanitizer build (an ASan library cannot be loaded into
# an uninstrumented interpreter).
# usage: tests/ocl/host.sh BUILD_DIR
build=${1:-build}
pass=0; fail=0; skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/host.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# check NAME COMMAND...: runs it (its input: tests/ocl/NAME.in if there
# is one), compares with examples/host/NAME.out, else tests/ocl/NAME.expect
check() {
    name=$1; shift
    exp=examples/host/$name.out; in=/dev/null
    [ -f "$exp" ] || exp=tests/ocl/$name.expect
    [ -f "tests/ocl/$name.in" ] && in=tests/ocl/$name.in
    "$@" <"$in" >"$tmp/out" 2>&1
    echo "exit: $?" >>"$tmp/out"
    if cmp -s "$tmp/out" "$exp"; then
        pass=$((pass + 1))
    else
        echo "FAIL $name"
        diff -u "$exp" "$tmp/out" | head -20
        fail=$((fail + 1))
    fi
}

check scale_c "$build/clvm" exec "$build/examples/host_scale"
# clvm exec --break: the REPL on the host's launch, on clvm exec's
# standard input and output; continue once the kernel has finished, or
# quit in the middle, and the launch runs as the host asked
check break "$build/clvm" exec --break saxpy -- "$build/examples/host_scale"
check break_quit "$build/clvm" exec --break saxpy -- "$build/examples/host_scale"
# the same on a real pseudo-terminal (tests/ocl/break_pty.py): the REPL
# reads through libedit, and the host program goes on after it
/usr/bin/python3 tests/ocl/break_pty.py "$build" >"$tmp/pty" 2>&1
set -- $(sed -n 's/^break pty: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$tmp/pty")
if [ $# = 3 ]; then
    pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3))
    [ "$2" = 0 ] || cat "$tmp/pty"
else
    echo "FAIL break pty: no summary"; cat "$tmp/pty"; fail=$((fail + 1))
fi
# an ASan library loads only into an instrumented program
san=0
nm -D "$build/libclvm-icd.so" 2>/dev/null | grep -q __asan_init && san=1
if [ $san = 1 ]; then
    echo "SKIP scale_py: a sanitizer build of the library"; skip=$((skip + 1))
elif ! /usr/bin/python3 -c 'import pyopencl' 2>/dev/null; then
    echo "SKIP scale_py: no pyopencl (python3-pyopencl)"; skip=$((skip + 1))
else
    PYOPENCL_NO_CACHE=1 check scale_py "$build/clvm" exec /usr/bin/python3 \
        examples/host/scale.py
fi
# make install into a DESTDIR: every file there, the vendor file naming
# the library by its installed path, the installed clvm finding it (clinfo
# is not instrumented: not on a sanitizer build); and
# make uninstall leaving nothing behind.
d=$tmp/dest
if make -s install BUILD="$build" PREFIX=/opt/clvm DESTDIR="$d" >"$tmp/inst" 2>&1 &&
   [ -x "$d/opt/clvm/bin/clvm" ] && [ -f "$d/opt/clvm/lib/clvm/libclvm-icd.so" ] &&
   [ -f "$d/opt/clvm/share/man/man1/clvm.1" ] &&
   [ "$(cat "$d/etc/OpenCL/vendors/clvm.icd")" = /opt/clvm/lib/clvm/libclvm-icd.so ] &&
   { [ $san = 1 ] ||
     "$d/opt/clvm/bin/clvm" exec clinfo -l 2>&1 | grep -q 'Platform #0: clvm'; } &&
   make -s uninstall BUILD="$build" PREFIX=/opt/clvm DESTDIR="$d" >>"$tmp/inst" 2>&1 &&
   [ -z "$(find "$d" -type f)" ]; then
    pass=$((pass + 1))
else
    echo "FAIL install"; cat "$tmp/inst"; find "$d" -type f
    fail=$((fail + 1))
fi
echo "host: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
