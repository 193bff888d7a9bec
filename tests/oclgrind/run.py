#!/usr/bin/python3
"""Runs Oclgrind's kernel test suite on clvm: each test's .sim becomes a
`clvm run` command line, its dumped buffers are printed as Oclgrind prints
them and matched against its .ref; a diagnostic the .ref expects must be
clvm's trap for the same event.

usage: tests/oclgrind/run.py [-v] [--strict] [--suite DIR] BUILD_DIR [TEST...]

The suite is $CLVM_SHARED/third_party/oclgrind-tests, else
../shared/third_party/oclgrind-tests beside the repository; without it
every test is skipped, counted. TEST names a test as in its TESTS file
(misc/vecadd); --suite DIR runs another suite of the same form
(tests/oclgrind/selftest.py gives it one whose tests must fail). Tests
that cannot pass yet are in XFAIL below with the reason: they count as
skipped and are listed as such (--strict counts them as failures; a
listed test that passes is reported, so the table can be trimmed). The last line is "oclgrind: N passed, N failed, N skipped".
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sim as S  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Not for clvm: they test Oclgrind itself or another language version.
NOT_FOR_CLVM = {
    "interactive/pointers": "drives Oclgrind's interactive debugger",
    "interactive/struct_member": "drives Oclgrind's interactive debugger",
    "misc/global_variables": "needs -cl-std=CL2.0 (clvm is OpenCL C 1.2)",
    "misc/non_uniform_work_groups": "needs -cl-std=CL2.0 (clvm is OpenCL C 1.2)",
}

# The diagnostics of the .ref files, by what clvm must do about them:
# the trap kind (clvm run --json's trap.kind) that reports the same
# event, or None where only the output is checked (clvm has no check for
# uninitialised values or buffer access flags; the run must give the
# right output).
EVENTS = [
    ("Invalid read of size", "BOUNDS"),
    ("Invalid write of size", "BOUNDS"),
    ("exceeds static array size", "BOUNDS"),
    ("not aligned", "ALIGN"),
    ("Work-group divergence detected (barrier)", "BARRIER"),
    ("data race", "RACE"),
    ("Work-group divergence detected (async copy)", "ASYNC"),
    ("Work-item finished without waiting for events", "ASYNC"),
    ("Invalid wait event", "ASYNC"),
    ("Uninitialized", None),
    ("read-only buffer", None),
    ("write-only buffer", None),
]

# Known failures, each with its reason. Keep it true: a test that passes
# is reported as such ("now passes") and should leave the table.
XFAIL = {
}


SUITE_SIZE = 90   # tests in the suite's TESTS, counted as skipped without it


def suite_dir():
    shared = os.environ.get("CLVM_SHARED") or os.path.join("..", "shared")
    return os.path.join(ROOT, shared, "third_party", "oclgrind-tests")


class Fail(Exception):
    """A test's failure, with its one-line reason."""


def events(checks, where):
    """The trap kinds the ERROR checks ask for (empty: output only)."""
    kinds = set()
    for kind, text in checks:
        if kind != "ERROR":
            continue
        for key, trap in EVENTS:
            if key in text:
                if trap:
                    kinds.add(trap)
                break
        else:
            raise S.SimError(f"{where}: unknown diagnostic '{text}'")
    return kinds


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def first_error(text):
    """The first line of a diagnostic that says what went wrong."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l:
            return l
    return lines[0] if lines else "(no message)"


PARAM = re.compile(r"^(?:(global|local|constant|private) )?(?:const )?"
                   r"([a-z_]+?)(\d*) (\*?)(\w+)$")


def signature(clvm, bc, kernel):
    """The kernel's parameters from `clvm dis`: (space, elem, width,
    is_pointer, name) each."""
    r = run([clvm, "dis", bc])
    if r.returncode:
        raise Fail("clvm dis: " + first_error(r.stderr))
    for line in r.stdout.splitlines():
        # reqd_work_group_size(X, Y, Z) may end the header (docs/ir.md)
        m = re.match(r"^kernel (\w+)\((.*?)\)"
                     r"(?: reqd_work_group_size\(\d+, \d+, \d+\))?$", line)
        if not m or m.group(1) != kernel:
            continue
        params = []
        # a struct by value, `constant const uchar *s byval(...)`: its bytes
        heads = re.sub(r" byval\(\d+, [^)]*\)", "#", m.group(2))
        for p in filter(None, heads.split(", ")):
            if p.endswith("#"):
                params.append(("byval", "uchar", None, "*",
                               p[:-1].split("*")[-1]))
                continue
            pm = PARAM.match(p)
            if not pm:
                raise Fail(f"parameter '{p}': a type the runner cannot read")
            params.append(pm.groups())
        return params
    raise Fail(f"no kernel '{kernel}' in the module")


def literal(arg, elem, width):
    """A value parameter's --arg literal, exact, from the .sim values."""
    ty = arg.type or elem
    if ty != elem:
        raise Fail(f"{arg.where}: {ty} values for a {elem} parameter")
    size, code = S.TYPES[ty]
    n = max(width, 1)
    slots = 4 if width == 3 else n   # a 3-vector takes a 4-vector's room
    if arg.size != slots * size:
        raise Fail(f"{arg.where}: size={arg.size} for a {elem}"
                   f"{width or ''} parameter")
    data = S.arg_bytes(arg, ty, False)
    vals = []
    for i in range(n):
        raw = data[i * size:(i + 1) * size]
        if ty in S.FLOATING:
            vals.append(S.struct.unpack("<" + code, raw)[0].hex())
        else:
            vals.append(S.show(int.from_bytes(raw, "little"), ty, False))
    if width:
        return f"({elem}{width})({', '.join(vals)})"
    return vals[0]


def command(clvm, bc, sim, params, tmp):
    """The clvm run command line, and the dumps: (name, type, hex, size)."""
    if len(params) != len(sim.args):
        raise Fail(f"{len(sim.args)} arguments for {len(params)} parameters")
    # Oclgrind checks for data races in every run, and so does this one
    cmd = [clvm, "run", bc, "--kernel", sim.kernel, "--json", "--threads", "1",
           "--check", "races",
           "--global", ",".join(map(str, sim.glob)),
           "--local", ",".join(map(str, sim.local))]
    dumps = []
    for i, (arg, (space, elem, width, ptr, name)) in enumerate(zip(sim.args, params)):
        if ptr and elem == "void":
            elem = "uchar"
        if elem not in S.TYPES:
            raise Fail(f"parameter '{name}': type {elem} not known to the runner")
        ty = arg.type or elem
        if space == "byval":
            path = os.path.join(tmp, f"arg{i}.bin")
            with open(path, "wb") as f:
                f.write(S.arg_bytes(arg, ty, False) or b"")
            value = "@" + path
        elif not ptr:
            value = literal(arg, elem, int(width or 0))
        elif space == "local":
            value = f"local:{arg.size}"
        else:
            data = S.arg_bytes(arg, ty, False)
            if data is None or not any(data):
                value = f"zeros:{0 if data is None else arg.size}"
            else:
                path = os.path.join(tmp, f"arg{i}.bin")
                with open(path, "wb") as f:
                    f.write(data)
                value = "@" + path
            if "dump" in arg.flags:
                dumps.append((name, ty, "hex" in arg.flags, arg.size))
                cmd += ["--print", f"{name}:{ty}"]
        cmd += ["--arg", f"{name}={value}"]
    return cmd, dumps


def outcome(cmd, dumps):
    """Runs clvm: (output lines as Oclgrind prints them, trap or None)."""
    r = run(cmd, timeout=120)
    try:
        res = json.loads(r.stdout)
    except ValueError:
        raise Fail("clvm run: no JSON: " + first_error(r.stderr)) from None
    if res.get("status") == "error":
        raise Fail("clvm run: " + first_error(res.get("message", "")))
    lines = res.get("printf", "").splitlines()
    for name, ty, hexa, size in dumps:
        elems = [int(h, 16) for h in res["buffers"][name]["hex"]]
        lines += S.dump_lines(name, size, elems, ty, hexa)
    return lines, res.get("trap")


def one(clvm, base, tmp):
    """Runs test base (path without extension); raises Fail if it fails."""
    sim = S.Sim(base + ".sim")
    checks = S.read_ref(base + ".ref")
    want = events(checks, base + ".ref")
    src = os.path.join(os.path.dirname(base), sim.program)
    bc = os.path.join(tmp, "k.bc")
    r = run([clvm, "cc", src, "-o", bc])
    if r.returncode:
        raise Fail("refused: " + first_error(r.stderr).replace(src, sim.program))
    cmd, dumps = command(clvm, bc, sim, signature(clvm, bc, sim.kernel), tmp)
    lines, trap = outcome(cmd, dumps)
    if want:
        if not trap:
            raise Fail(f"expected a {'/'.join(sorted(want))} trap, ran without one")
        if trap["kind"] not in want:
            raise Fail(f"expected a {'/'.join(sorted(want))} trap, got: "
                       + trap["message"])
        return
    if trap:
        raise Fail(trap["message"])
    diff = S.match_output(checks, lines)
    if diff:
        raise Fail(diff)


def tests_of(root, names):
    with open(os.path.join(root, "TESTS"), encoding="utf-8") as f:
        listed = f.read().split()
    for n in names:
        if n not in listed:
            sys.exit(f"tests/oclgrind/run.py: no test '{n}' in {root}/TESTS")
    return names or listed


def kind_of(base):
    """The test's class in the issue's terms, from its .ref."""
    checks = S.read_ref(base + ".ref")
    want = events(checks, base + ".ref")
    if want & {"RACE", "ASYNC"}:
        return "race/async diagnostic"
    if want:
        return "trap diagnostic"
    if any(k == "ERROR" for k, _ in checks):
        return "output-only diagnostic"
    return "no diagnostic"


def attempt(clvm, root, name):
    """None if test name passes, else why not."""
    with tempfile.TemporaryDirectory(prefix="oclgrind.") as tmp:
        try:
            one(clvm, os.path.join(root, name), tmp)
        except (Fail, S.SimError, subprocess.TimeoutExpired) as e:
            return str(e)
    return None


def main(argv):
    verbose = "-v" in argv
    strict = "--strict" in argv
    argv = [a for a in argv if a not in ("-v", "--strict")]
    root = suite_dir()
    if argv[:1] == ["--suite"] and len(argv) > 1:
        root, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__.strip().splitlines()[4])
    clvm = os.path.join(argv[0], "clvm")
    if not os.access(clvm, os.X_OK):
        print(f"SKIP all {SUITE_SIZE} tests: no {clvm}")
        print(f"oclgrind: 0 passed, 0 failed, {SUITE_SIZE} skipped")
        return 0
    if not os.path.isfile(os.path.join(root, "TESTS")):
        print(f"SKIP all {SUITE_SIZE} tests: no suite at {root} (set CLVM_SHARED)")
        print(f"oclgrind: 0 passed, 0 failed, {SUITE_SIZE} skipped")
        return 0
    table = {}   # class -> {outcome: count}
    nfail = 0
    for name in tests_of(root, argv[1:]):
        if name in NOT_FOR_CLVM:
            res, cls, why = "skip", "not for clvm", NOT_FOR_CLVM[name]
        else:
            cls = kind_of(os.path.join(root, name))
            why = attempt(clvm, root, name)
            res = "pass" if why is None else "fail"
            if name in XFAIL:
                res = "xpass" if why is None else "fail" if strict else "xfail"
        row = table.setdefault(cls, {})
        row[res] = row.get(res, 0) + 1
        if res == "fail":
            nfail += 1
            print(f"FAIL {name}: {why}")
        elif res == "xpass":
            print(f"XPASS {name}: now passes; remove it from XFAIL "
                  f"({XFAIL[name]})")
        elif verbose:
            print(f"{res.upper()} {name}" + (f": {why}" if why else "")
                  + (f" [{XFAIL[name]}]" if res == "xfail" else ""))
    total = {}
    for cls in sorted(table):
        row = table[cls]
        print(f"  {cls}: {sum(row.values())} tests: " + ", ".join(
            f"{row[k]} {k}" for k in ("pass", "xpass", "fail", "xfail", "skip")
            if k in row))
        for k, v in row.items():
            total[k] = total.get(k, 0) + v
    print("oclgrind: xfail (known failures, XFAIL in tests/oclgrind/run.py) "
          "and skip (not for clvm) count as skipped")
    passed = total.get("pass", 0) + total.get("xpass", 0)
    skipped = total.get("xfail", 0) + total.get("skip", 0)
    print(f"oclgrind: {passed} passed, {nfail} failed, {skipped} skipped")
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
