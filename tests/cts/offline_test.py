#!/usr/bin/python3
"""The CTS's offline compiler for clvm (tests/cts/offline.sh): a binary it
writes is what clCreateProgramWithBinary takes on clvm's platform (the
build option reached clang), and a mode, argument or source it cannot
compile is an error, not an empty file.
usage: tests/cts/offline_test.py BUILD_DIR"""
import os
import subprocess
import sys
import tempfile

build = sys.argv[1] if len(sys.argv) > 1 else "build"
lib = os.path.abspath(os.path.join(build, "libclvm-icd.so"))
here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "offline.sh")
counts = [0, 0, 0]


def check(name, ok, why=""):
    counts[0 if ok else 1] += 1
    if not ok:
        print(f"FAIL cts offline {name}: {why}")


def offline(tmp, *args):
    env = dict(os.environ, CLVM=os.path.abspath(os.path.join(build, "clvm")))
    return subprocess.run(["sh", script, *args], cwd=tmp, env=env,
                          capture_output=True, text=True, timeout=120)


def sanitized():
    """An ASan library loads only into an instrumented program: not Python."""
    r = subprocess.run(["nm", "-D", lib], capture_output=True, text=True)
    return "__asan_init" in r.stdout


def main():
    if not os.path.exists(lib):
        print(f"cts offline: {lib} not built: skipped")
        print("cts offline: 0 passed, 0 failed, 4 skipped")
        return 0
    os.environ["OCL_ICD_VENDORS"] = lib
    import numpy as np
    import pyopencl as cl
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "k.cl"), "w") as f:
            f.write("__kernel void k(__global int *o) { o[get_global_id(0)] = X + 1; }\n")
        with open(os.path.join(tmp, "bad.cl"), "w") as f:
            f.write("__kernel void k(__global int *o)\n{ o[0] = nosuch; }\n")

        r = offline(tmp, "--mode=binary", "--source=k.cl", "--output=k.bin",
                    "--cl-device-info=info.txt", "--", "-DX=41", "-cl-std=CL1.2")
        ok = r.returncode == 0 and os.path.getsize(os.path.join(tmp, "k.bin")) > 0
        check("binary", ok, r.stderr)
        if ok and sanitized():
            print("SKIP cts offline binary runs: a sanitizer build of the library")
            counts[2] += 1
        elif ok:
            ctx = cl.Context(cl.get_platforms()[0].get_devices())
            q = cl.CommandQueue(ctx)
            with open(os.path.join(tmp, "k.bin"), "rb") as f:
                binary = f.read()
            prg = cl.Program(ctx, ctx.devices, [binary]).build()
            out = np.zeros(4, np.int32)
            buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
            prg.k(q, (4,), None, buf)
            cl.enqueue_copy(q, out, buf)
            check("binary runs", list(out) == [42] * 4, f"got {list(out)}")
        else:
            counts[2] += 1

        r = offline(tmp, "--mode=spir-v", "--source=k.cl", "--output=k.spv")
        check("spir-v refused", r.returncode == 2 and "spir-v" in r.stderr
              and not os.path.exists(os.path.join(tmp, "k.spv")),
              f"exit {r.returncode}: {r.stderr}")

        r = offline(tmp, "--mode=binary", "--source=bad.cl", "--output=bad.bin")
        check("bad source", r.returncode != 0 and "bad.cl:2" in r.stderr
              and "nosuch" in r.stderr, f"exit {r.returncode}: {r.stderr}")
    print(f"cts offline: {counts[0]} passed, {counts[1]} failed, {counts[2]} skipped")
    return 1 if counts[1] else 0


if __name__ == "__main__":
    sys.exit(main())
