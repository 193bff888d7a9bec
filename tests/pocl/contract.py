#!/usr/bin/python3
"""Contraction against live PoCL: tests/run/cl_contract.cl and
cl_contract_off.cl run on PoCL (pyopencl, the ICD pinned to PoCL) and
under `clvm run --profile pocl`; every output word must be the same, and
the same as docs/opencl-c.md's table says (a * b + c fused, mad() and a
product added by a later statement rounded twice, nothing fused under
FP_CONTRACT OFF). Skipped, counted, without pyopencl or a PoCL device.
usage: tests/pocl/contract.py BUILD_DIR
The last line is "pocl contract: N passed, N failed, N skipped"."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
A, C = "0x1.001p0", "-0x1.002p0"          # a = b = 1 + 2^-12, c = -(1 + 2^-11)
CASES = [  # file, outputs, what the table says PoCL gives
    ("tests/run/cl_contract.cl", 6,
     [0x33800000, 0, 0, 0x40001000, 0xc0001000, 0x33800000]),
    ("tests/run/cl_contract_off.cl", 3, [0, 0, 0]),
]


def pocl_run(path, n):
    import numpy as np
    import pyopencl as cl
    plats = [p for p in cl.get_platforms() if "PoCL" in p.version]
    if not plats:
        return None
    ctx = cl.Context(plats[0].get_devices()[:1])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, open(os.path.join(ROOT, path)).read()).build()
    o = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 4 * n)
    ab, c = np.float32(float.fromhex(A)), np.float32(float.fromhex(C))
    prg.k(q, (1,), None, o, ab, ab, c)
    r = np.empty(n, np.uint32)
    cl.enqueue_copy(q, r, o)
    q.finish()
    return [int(x) for x in r]


def clvm_run(build, path, n):
    out = subprocess.run(
        [os.path.join(build, "clvm"), "run", path, "--profile", "pocl",
         "--global", "1", "--arg", "o=zeros:%d" % (4 * n), "--arg", "a=" + A,
         "--arg", "b=" + A, "--arg", "c=" + C, "--print", "o:hex"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [int(l.split("=")[1], 16) for l in out.splitlines() if "=" in l]


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    os.environ.setdefault("OCL_ICD_VENDORS",
                          "/usr/lib/x86_64-linux-gnu/libpocl.so.2")
    passed = failed = skipped = 0
    for path, n, table in CASES:
        try:
            dev = pocl_run(path, n)
        except Exception as e:  # no pyopencl, no device, no ICD
            print("skip %s: %s" % (path, e))
            dev = None
        if dev is None:
            skipped += 1
            continue
        ours = clvm_run(build, path, n)
        if dev == table and ours == table:
            passed += 1
        else:
            failed += 1
            print("FAIL %s: PoCL %s, clvm --profile pocl %s, table %s" % (
                path, [hex(x) for x in dev], [hex(x) for x in ours],
                [hex(x) for x in table]))
    print("pocl contract: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
