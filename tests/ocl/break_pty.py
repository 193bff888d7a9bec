#!/usr/bin/python3
"""`clvm exec --break KERNEL` on a real pseudo-terminal: the REPL opens on
the host program's launch of the kernel and reads its lines through libedit
(a line edited with backspace and a line recalled with the up arrow run as
edited), and once the REPL says continue the host program goes on and
prints its results. tests/ocl/host.sh drives the same session with
scripted input; this one is what a user at a terminal gets.

usage: tests/ocl/break_pty.py BUILD_DIR
The last line is "break pty: N passed, N failed, N skipped"."""
import os
import pty
import re
import select
import shutil
import signal
import sys
import tempfile
import time

build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
clvm, host = build + "/clvm", build + "/examples/host_scale"
passed = failed = 0
seen = ""            # everything the terminal showed, escapes removed


def read_until(fd, text, limit=30.0):
    """Reads the terminal until text appears after the last match (what
    came before it is consumed); False when it does not within limit
    seconds or the program ends."""
    global seen
    end = time.time() + limit
    while text not in seen:
        left = end - time.time()
        if left <= 0:
            return False
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            return False
        try:
            data = os.read(fd, 4096)
        except OSError:      # EIO: the program ended
            return False
        if not data:
            return False
        seen += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "",
                       data.decode("utf-8", "replace"))
    seen = seen[seen.index(text) + len(text):]
    return True


def check(name, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL break pty: %s; the terminal showed after the last "
              "match:\n%s" % (name, seen[-2000:]))
    return ok


# What is typed at each prompt, and what must show before the next
# prompt (the last: before the program ends).
STEPS = [
    ("the REPL opens on kernel 'saxpy'", None,
     ["launches kernel 'saxpy'", "breakpoint at kernel 'saxpy'", "clvm> "]),
    ("a line edited with backspace", b"print b\x7fa\r",
     ["a = 0.1", "clvm> "]),
    ("step", b"step\r", ["LD_B32 _t1, x, i", "clvm> "]),
    ("a line recalled with the up arrow", b"\x1b[A\x1b[A\r",  # print a
     ["a = 0.1", "clvm> "]),
    ("the kernel finishes", b"continue\r",
     ["kernel 'saxpy' finished", "clvm> "]),
    ("the host program continues", b"continue\r",
     ["the host program continues", "y[7] = 1.70000005 (0x1.b33334p+0)"]),
]


def session(fd):
    """The steps, up to the first that fails."""
    for name, keys, want in STEPS:
        if keys:
            os.write(fd, keys)
        if not check(name, all(read_until(fd, w) for w in want)):
            return


def main():
    if not os.access(host, os.X_OK):
        print("SKIP break pty: no %s" % host)
        print("break pty: 0 passed, 0 failed, 1 skipped")
        return 0
    home = tempfile.mkdtemp(prefix="breakpty.")
    env = dict(os.environ, HOME=home, NO_COLOR="1", TERM="xterm")
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(clvm, [clvm, "exec", "--break", "saxpy", "--", host], env)
    try:
        session(fd)
    finally:
        status = None
        for _ in range(100):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            try:
                os.read(fd, 4096)
            except OSError:
                pass
            time.sleep(0.1)
        else:                # still at the REPL, or hung: its own child
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = None
        os.close(fd)
        shutil.rmtree(home)
    check("the host program exits with 0",
          status is not None and os.WIFEXITED(status) and
          os.WEXITSTATUS(status) == 0)
    print("break pty: %d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


sys.exit(main())
