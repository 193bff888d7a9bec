#!/usr/bin/python3
"""Checks that tests/oclgrind/run.py can fail: it runs the small suite in
tests/oclgrind/selftest/, whose ok/ tests must pass and whose bad/ tests
(a wrong value, a line too many or too few, a missing, wrong or unwanted
trap) must fail, and a suite folder that does not exist, whose tests must
all be skipped.

usage: tests/oclgrind/selftest.py BUILD_DIR
The last line is "oclgrind selftest: N passed, N failed, N skipped".
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def runner(args, env=None):
    r = subprocess.run([sys.executable, os.path.join(HERE, "run.py")] + args,
                       capture_output=True, text=True, env=env)
    return r.returncode, r.stdout


def main(argv):
    if len(argv) != 1:
        sys.exit("usage: tests/oclgrind/selftest.py BUILD_DIR")
    suite = os.path.join(HERE, "selftest")
    with open(os.path.join(suite, "TESTS"), encoding="utf-8") as f:
        names = f.read().split()
    rc, out = runner(["-v", "--suite", suite, argv[0]])
    got = {n: r for r, n in re.findall(r"^(PASS|FAIL) ([^\s:]+)", out, re.M)}
    ok = bad = 0
    for n in names:
        want = "PASS" if n.startswith("ok/") else "FAIL"
        if got.get(n) == want:
            ok += 1
        else:
            bad += 1
            print(f"FAIL {n}: the runner said {got.get(n, 'nothing')}, "
                  f"not {want}")
    if rc != 1:
        bad += 1
        print(f"FAIL the runner's exit status is {rc} with failures, not 1")
    env = dict(os.environ, CLVM_SHARED="/nonexistent/clvm-shared")
    rc, out = runner([argv[0]], env)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    if rc == 0 and re.fullmatch(r"oclgrind: 0 passed, 0 failed, [1-9]\d* skipped", last):
        ok += 1
    else:
        bad += 1
        print(f"FAIL without the suite: exit {rc}, last line '{last}'")
    print(f"oclgrind selftest: {ok} passed, {bad} failed, 0 skipped")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
