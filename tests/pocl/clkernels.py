#!/usr/bin/python3
"""Runs every OpenCL C golden kernel (tests/run/cl_*.cl) on PoCL with the
arguments of its RUN line and compares the buffers it prints, byte for
byte, with what `clvm run` writes for the same line.

usage: tests/pocl/clkernels.py BUILD_DIR [FILE.cl...]

PoCL is pinned through the ICD loader (OCL_ICD_VENDORS, the library of
DIFF_ICD in the Makefile). Without pyopencl or PoCL every kernel is
skipped, counted; so is a kernel whose run traps on clvm (a divergent
barrier, an out-of-bounds access: OpenCL C gives it no result to compare).
The last line is "cl vs pocl: N passed, N failed, N skipped".
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

POCL = "/usr/lib/x86_64-linux-gnu/libpocl.so.2"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCALARS = {  # OpenCL C element type: numpy dtype name
    "char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16",
    "int": "int32", "uint": "uint32", "long": "int64", "ulong": "uint64",
    "float": "float32", "double": "float64",
}


# Differences that are PoCL's fault (docs/difftest.md, "PoCL's faults
# found"): the file, the elements that differ, and why. Only exactly these
# elements may differ.
POCL_FAULTS = {
    "tests/run/cl_misc.cl": ({"out[3]", "out[7]"},
        "PoCL 3.1 gives 0 for get_local_size(3) (and get_global_size, "
        "get_num_groups), where OpenCL C says 1 for a dimension past "
        "get_work_dim() - 1"),
    "tests/run/cl_workitem_range.cl": ({f"out[{i}]" for i in range(4)},
        "PoCL 3.1 gives 0 for get_global_size(3), get_local_size(7) and "
        "get_num_groups(5), where OpenCL C says 1 past get_work_dim() - 1"),
    "tests/run/cl_macros.cl": ({"out[0]", "out[3]"},
        "not faults: PoCL's device has images, so __IMAGE_SUPPORT__ is 1 "
        "there (clvm's has none), and is OpenCL 3.0 (__OPENCL_VERSION__ "
        "300; clvm's is 1.2)"),
}

# Bytes whose values OpenCL C leaves open, which may differ: the padding of
# a struct written whole (cl_structs: a Rec's bytes 1-3 after its char and
# 28-31, a float3's fourth component).
UNSPECIFIED = {
    "tests/run/cl_structs.cl": {f"recs[{32 * k + j}]" for k in range(4)
                                for j in (1, 2, 3, 28, 29, 30, 31)},
}


class Skip(Exception):
    """This kernel cannot be compared; the reason."""


def run_line(path):
    """The `clvm run` arguments of path's RUN line (None: not a run)."""
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    m = re.match(r"^//\s*RUN:\s*clvm\s+run\s+%s\s+(.*)$", first)
    return shlex.split(m.group(1)) if m else None


def options(args):
    """--global, --local, --offset, --kernel, --arg and --print of args."""
    opt = {"arg": [], "print": []}
    i = 0
    while i < len(args):
        key = args[i].lstrip("-")
        if i + 1 >= len(args):
            raise Skip(f"option {args[i]} without a value")
        val = args[i + 1]
        if key in ("arg", "print"):
            opt[key].append(val)
        elif key in ("global", "local", "offset", "kernel", "warp"):
            opt[key] = val
        else:
            raise Skip(f"option {args[i]} the comparison does not know")
        i += 2
    return opt


def signature(clvm, path, kernel):
    """{name: (space, element, width, pointer)} of the kernel, and its name."""
    r = subprocess.run([clvm, "dis", path], capture_output=True, text=True)
    # the header may end in reqd_work_group_size(X, Y, Z) (docs/ir.md)
    heads = re.findall(r"^kernel (\w+)\((.*?)\)"
                       r"(?: reqd_work_group_size\(\d+, \d+, \d+\))?$",
                       r.stdout, re.M)
    for name, params in heads:
        if kernel and name != kernel:
            continue
        sig = {}
        # a struct by value, `constant const uchar *s byval(...)`: "byval"
        params = re.sub(r" byval\(\d+, [^)]*\)", "#", params)
        for p in filter(None, params.split(", ")):
            if p.endswith("#"):
                sig[p[:-1].split("*")[-1]] = ("byval", "uchar", 1, True)
                continue
            m = re.match(r"^(?:(global|local|constant) )?(?:const )?"
                         r"([a-z]+?)(\d*) (\*?)(\w+)$", p)
            if not m:
                raise Skip(f"parameter '{p}'")
            sig[m.group(5)] = (m.group(1), m.group(2), int(m.group(3) or 1),
                               bool(m.group(4)))
        return name, sig
    raise Skip("no kernel in `clvm dis` " + r.stderr.strip())


def value_bytes(np, text, elem, width):
    """The bytes of a value parameter's literal (1.5, (float4)(1, 2))."""
    m = re.match(r"^\(\w+\)\((.*)\)$", text.strip())
    parts = [p.strip() for p in (m.group(1) if m else text).split(",")]
    if len(parts) == 1:
        parts = parts * width
    if len(parts) != width:
        raise Skip(f"literal {text} for a {elem}{width}")
    dt = np.dtype(SCALARS[elem])
    conv = float if dt.kind == "f" else lambda s: int(s, 0)
    vals = [conv(p) for p in parts] + ([0] if width == 3 else [])
    return np.array(vals, dtype=dt).tobytes()


def local_size(glob_):
    """clvm's default work-group size: dimension 0 the largest divisor up
    to 256, the others 1."""
    first = max(d for d in range(1, min(glob_[0], 256) + 1) if glob_[0] % d == 0)
    return [first] + [1] * (len(glob_) - 1)


def pocl_run(cl, np, ctx, queue, path, name, sig, opt, byval):
    """The printed buffers' bytes, as PoCL computes them."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    for ext in re.findall(r"\bcl_khr_\w+", src):
        if ext not in ctx.devices[0].extensions:
            raise Skip(f"PoCL's device has no {ext}")
    prog = cl.Program(ctx, src).build(options="-cl-std=CL1.2")
    kern = getattr(prog, name)
    bufs = {}
    for a in opt["arg"]:
        pname, _, val = a.partition("=")
        space, elem, width, ptr = sig[pname]
        if space == "byval":   # its bytes as clvm read them (clvm_run)
            kern.set_arg(list(sig).index(pname),
                         np.frombuffer(byval[pname], np.uint8))
            continue
        if not ptr:
            host = value_bytes(np, val, elem, width)
            kern.set_arg(list(sig).index(pname), np.frombuffer(host, np.uint8))
            continue
        if val.startswith("local:"):
            kern.set_arg(list(sig).index(pname), cl.LocalMemory(int(val[6:])))
            continue
        if val.startswith("zeros:"):
            data = bytes(int(val[6:]))
        elif val.startswith("@"):
            with open(os.path.join(ROOT, val[1:]), "rb") as f:
                data = f.read()
        else:
            raise Skip(f"argument {a}")
        host = np.frombuffer(bytearray(data) or bytearray(1), np.uint8).copy()
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                        hostbuf=host)
        bufs[pname] = (host, buf, len(data))
        kern.set_arg(list(sig).index(pname), buf)
    glob_ = [int(g) for g in opt["global"].split(",")]
    loc = ([int(x) for x in opt["local"].split(",")] if "local" in opt
           else local_size(glob_))
    off = [int(x) for x in opt["offset"].split(",")] if "offset" in opt else None
    cl.enqueue_nd_range_kernel(queue, kern, glob_, loc, global_work_offset=off)
    out = {}
    for p in opt["print"]:
        pname = p.split(":")[0]
        if pname in byval:   # an argument by value: as given
            out[pname] = byval[pname]
            continue
        host, buf, n = bufs[pname]
        cl.enqueue_copy(queue, host, buf)
        out[pname] = host.tobytes()[:n]
    queue.finish()
    return out


def clvm_run(clvm, path, args, opt, tmp, sig):
    """The printed buffers' bytes, as clvm computes them, and the bytes of
    the structs passed by value, as clvm reads them."""
    outs = []
    for p in opt["print"]:
        pname = p.split(":")[0]
        outs += ["--out", f"{pname}={os.path.join(tmp, pname)}.bin"]
    byval = [n for n, s in sig.items() if s[0] == "byval"]
    for pname in byval:
        outs += ["--out", f"{pname}={os.path.join(tmp, pname)}.arg"]
    r = subprocess.run([clvm, "run", os.path.relpath(path, ROOT)] + args + outs,
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode == 1:
        trap = r.stderr.strip().splitlines()[-1]
        raise Skip("it traps on clvm: " + trap.split(": work-item")[0])
    if r.returncode:
        raise Skip("clvm run: " + r.stderr.strip()[:200])
    res = {}
    for p in opt["print"]:
        pname = p.split(":")[0]
        with open(os.path.join(tmp, pname) + ".bin", "rb") as f:
            res[pname] = f.read()
    args = {}
    for pname in byval:
        with open(os.path.join(tmp, pname) + ".arg", "rb") as f:
            args[pname] = f.read()
    return res, args


def differences(np, sig, ours, theirs):
    """{element: what differs} where clvm and PoCL differ (empty: the same
    bytes)."""
    lines = {}
    for pname, mine in ours.items():
        other = theirs[pname]
        if mine == other:
            continue
        dt = np.dtype(SCALARS.get(sig[pname][1], "uint8"))
        if len(mine) != len(other) or len(mine) % dt.itemsize:
            dt = np.dtype("uint8")
        a = np.frombuffer(mine, dt)
        b = np.frombuffer(other, dt)
        u = f"u{dt.itemsize}"
        for i in np.nonzero(a.view(u) != b.view(u))[0]:
            lines[f"{pname}[{i}]"] = f"clvm {a[i]!r}, PoCL {b[i]!r}"
    return lines


def main(argv):
    if not argv:
        sys.exit("usage: tests/pocl/clkernels.py BUILD_DIR [FILE.cl...]")
    clvm = os.path.abspath(os.path.join(argv[0], "clvm"))
    files = argv[1:] or sorted(glob.glob(os.path.join(ROOT, "tests/run/cl_*.cl")))
    passed = failed = skipped = 0
    try:
        if not os.access(clvm, os.X_OK):
            raise ImportError("no " + clvm)
        if not os.path.exists(POCL):
            raise ImportError("no " + POCL)
        os.environ["OCL_ICD_VENDORS"] = POCL
        import numpy as np
        import pyopencl as cl
        ctx = cl.Context(cl.get_platforms()[0].get_devices())
        queue = cl.CommandQueue(ctx)
    except Exception as e:   # no pyopencl, numpy or PoCL: all skipped
        print(f"SKIP every kernel: {e}")
        print(f"cl vs pocl: 0 passed, 0 failed, {len(files)} skipped")
        return 0
    for path in files:
        rel = os.path.relpath(path, ROOT)
        try:
            args = run_line(path)
            if args is None:
                raise Skip("no `clvm run` RUN line")
            opt = options(args)
            name, sig = signature(clvm, path, opt.get("kernel"))
            with tempfile.TemporaryDirectory(prefix="clpocl.") as tmp:
                ours, byval = clvm_run(clvm, path, args, opt, tmp, sig)
            try:
                theirs = pocl_run(cl, np, ctx, queue, path, name, sig, opt,
                                  byval)
            except cl.Error as e:
                theirs = {"": f"PoCL: {e}"}
        except Skip as e:
            print(f"SKIP {rel}: {e}")
            skipped += 1
            continue
        diff = ({"build": theirs[""]} if "" in theirs
                else differences(np, sig, ours, theirs))
        known, why = POCL_FAULTS.get(rel, (set(), ""))
        for k in UNSPECIFIED.get(rel, set()):
            diff.pop(k, None)
        if set(diff) == known and known:
            passed += 1
            print(f"PASS {rel}: differs from PoCL only where PoCL is wrong "
                  f"({', '.join(sorted(known))}: {why})")
        elif diff:
            failed += 1
            print(f"FAIL {rel}: " + "; ".join(
                f"{k}: {v}" for k, v in list(diff.items())[:5]))
        else:
            passed += 1
    print(f"cl vs pocl: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
