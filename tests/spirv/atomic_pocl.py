"""tests/run/cl_atomic.cl on PoCL: every buffer its golden output prints
(tests/run/cl_atomic.out) must be what PoCL computes, but for s[14] and
s[15], which count work-items that saw the work-group's order otherwise
than clvm defines it (OpenCL leaves that order open).
usage: python3 tests/spirv/atomic_pocl.py   (from the repository root)
Prints "atomic pocl: N passed, N failed, N skipped" last; skips where
pyopencl or PoCL is missing."""
import os
import sys

os.environ.setdefault("OCL_ICD_VENDORS",
                      "/usr/lib/x86_64-linux-gnu/libpocl.so.2")
try:
    import numpy as np
    import pyopencl as cl
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
except Exception as e:  # no pyopencl, no PoCL: nothing to compare
    print("SKIP: %s" % e)
    print("atomic pocl: 0 passed, 0 failed, 1 skipped")
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


want = {}
for line in open("tests/run/cl_atomic.out"):
    if " = " in line:
        k, v = line.strip().split(" = ")
        want[k] = v
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
print("atomic pocl: %d passed, %d failed, 0 skipped" % (npass, nfail))
sys.exit(1 if nfail else 0)
