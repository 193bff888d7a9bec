"""tests/run/cl_atomic.cl, cl_async.cl and cl_printf.cl on PoCL: every
buffer their golden outputs print (tests/run/NAME.out) must be what PoCL
computes, and every line work-item 0 prints what PoCL prints, but for
s[14] and s[15] of cl_atomic, which count work-items that saw the
work-group's order otherwise than clvm defines it (OpenCL leaves it open),
and three printf lines that tests/run/cl_printf.cl explains.
usage: python3 tests/spirv/sync_pocl.py   (from the repository root)
Prints "sync pocl: N passed, N failed, N skipped" last; skips where
pyopencl or PoCL is missing."""
import os
import subprocess
import sys

os.environ.setdefault("OCL_ICD_VENDORS",
                      "/usr/lib/x86_64-linux-gnu/libpocl.so.2")
try:
    import numpy as np
    import pyopencl as cl
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
except Exception as e:  # no pyopencl, no PoCL: nothing to compare
    print("SKIP: %s" % e)
    print("sync pocl: 0 passed, 0 failed, 1 skipped")
    sys.exit(0)

def golden(name):
    want = {}
    for line in open("tests/run/%s.out" % name):
        if " = " in line:
            k, v = line.strip().split(" = ")
            want[k] = v
    return want


if sys.argv[1:] == ["--printf"]:   # the child: cl_printf on PoCL
    prg = cl.Program(ctx, open("tests/run/cl_printf.cl").read()).build()
    q = cl.CommandQueue(ctx)
    prg.k(q, (1,), (1,), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16))
    q.finish()
    sys.exit(0)

src = open("tests/run/cl_atomic.cl").read()
q = cl.CommandQueue(ctx)
prg = cl.Program(ctx, src).build()
mf = cl.mem_flags
host = {
    "cnt": np.zeros(4, np.uint32), "s": np.zeros(16, np.int32),
    "m": np.full(3, -1, np.int32), "f": np.zeros(4, np.float32),
    "big": np.zeros(3, np.int64), "u": np.full(3, 0xffffffff, np.uint32),
    "tiles": np.zeros(4, np.uint32),
}
bufs = {k: cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=v)
        for k, v in host.items()}
prg.atomics(q, (512,), (128,), bufs["cnt"], bufs["s"], bufs["m"], bufs["f"],
            bufs["big"], cl.LocalMemory(12), bufs["u"], bufs["tiles"])
for k, v in host.items():
    cl.enqueue_copy(q, v, bufs[k])
q.finish()


def text(name, i, v):
    if name == "m":
        return "0x%08x" % (int(v) & 0xffffffff)
    if name == "f":
        return repr(float(v))
    return str(int(v))


want = golden("cl_atomic")
npass = nfail = 0
for name, arr in host.items():
    for i, v in enumerate(arr):
        key = "%s[%d]" % (name, i)
        if key in ("s[14]", "s[15]"):
            continue
        got = text(name, i, v)
        if want.get(key) == got:
            npass += 1
        else:
            nfail += 1
            print("FAIL %s: clvm %s, PoCL %s" % (key, want.get(key), got))
# cl_async: the ramp 0..31 in, out printed as floats
g = np.arange(32, dtype=np.float32)
out = np.zeros(64, np.float32)
prg = cl.Program(ctx, open("tests/run/cl_async.cl").read()).build()
bg = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=g)
bo = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
prg.tiles(q, (32,), (16,), bg, bo, cl.LocalMemory(80))
cl.enqueue_copy(q, out, bo)
q.finish()
want = golden("cl_async")
for i, v in enumerate(out):
    got = "%g" % v
    if want.get("out[%d]" % i) == got:
        npass += 1
    else:
        nfail += 1
        print("FAIL cl_async out[%d]: clvm %s, PoCL %s"
              % (i, want.get("out[%d]" % i), got))
# cl_printf: work-item 0's lines (PoCL prints a host address for %p)
got = subprocess.run([sys.executable, __file__, "--printf"],
                     capture_output=True, text=True).stdout.splitlines()
want = open("tests/run/cl_printf.out").read().splitlines()
want = want[:[w.startswith("p: ") for w in want].index(True)]
skip = ("p: ", "d: ", "w: ")   # see tests/run/cl_printf.cl
got = [g for g in got if not g.startswith(skip)]
want = [w for w in want if not w.startswith(skip)]
for k, w in enumerate(want):
    if k < len(got) and got[k] == w:
        npass += 1
    else:
        nfail += 1
        print("FAIL cl_printf line %d: clvm %r, PoCL %r"
              % (k + 1, w, got[k] if k < len(got) else None))
print("sync pocl: %d passed, %d failed, 0 skipped" % (npass, nfail))
sys.exit(1 if nfail else 0)
