#!/usr/bin/python3
"""The house rules of docs/architecture.md, checked from the code itself.

usage: tests/arch/arch.py BUILD_DIR [--graph]

- floors: a file in a folder only includes and calls files of its own
  folder or of the floors below it (stdlib < vm < asm < tools);
- no circles: no two files call or include each other, directly or round a
  longer loop (file-level graph of #include lines and of the calls that
  `nm` sees between the library's objects);
- size: no .c file over 1,000 lines, no function over 150 lines, except
  the dispatch tables named in BIG_OK;
- every .c file opens with a comment saying its job;
- the REPL and the other tools include only vm/'s public headers.

--graph prints the file-level graph (one "a -> b" per line) and exits.
"""
import glob
import os
import re
import subprocess
import sys

FLOORS = ["stdlib", "vm", "asm", "tools"]
# Headers of vm/ that only the VM itself may include.
VM_PRIVATE = {"vm/interp.h", "vm/warp.h", "vm/decode.h", "vm/handlers.h",
              "vm/dispatch.inc", "vm/trap.h", "vm/sched.h", "vm/race.h"}
# Functions allowed over 150 lines: the interpreter's dispatch loop is one
# label per opcode, a table rather than a function.
BIG_OK = {"vm/dispatch.inc"}
MAX_FILE, MAX_FUNC = 1000, 150

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(root)
build = sys.argv[1] if len(sys.argv) > 1 else "build"


# Each rule counts once in the summary, failed if any place breaks it;
# every place that breaks it is printed.
RULES = ["floors", "private headers", "circles", "file size", "job comment",
         "function size", "docs name files"]
broken = set()
def check(ok, what, rule):
    if not ok:
        broken.add(rule)
        print("FAIL " + what)


def floor(path):
    top = path.split("/")[0]
    return FLOORS.index(top) if top in FLOORS else None


files = sorted(f for f in subprocess.check_output(
    ["git", "ls-files", "--cached", "--others", "--exclude-standard"] + FLOORS,
    text=True).split() if re.search(r"\.(c|h|def|inc)$", f) and os.path.exists(f))
text = {f: open(f, encoding="utf-8").read() for f in files}

# The file graph: calls between .c files (what one object uses of
# another's), and includes between headers. A .c including headers is
# the call graph's business: a .c that only includes b.h for its types
# depends on no code of b.c.
edges = {}
def edge(a, b, why):
    if a != b:
        edges.setdefault(a, {}).setdefault(b, why)

for f in files:
    for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text[f], re.M):
        if not f.endswith(".c"):
            edge(f, inc, "includes " + inc)
        if floor(f) is not None and floor(inc) is not None:
            check(floor(inc) <= floor(f), f"floors: {f} includes {inc}, a floor above it", "floors")
        if f.split("/")[0] != "vm" and inc in VM_PRIVATE:
            check(False, f"{f} includes {inc}, private to vm/", "private headers")

# Calls, from the objects: who defines each global symbol, who uses it.
defs, uses = {}, {}
for f in files:
    if not f.endswith(".c"):
        continue
    obj = os.path.join(build, "obj", f[:-2] + ".o")
    if not os.path.exists(obj):
        continue
    out = subprocess.check_output(["nm", obj], text=True)
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRC":
            defs[parts[2]] = f
        elif len(parts) == 2 and parts[0] == "U":
            uses.setdefault(f, set()).add(parts[1])
for f, syms in uses.items():
    for s in sorted(syms):
        if s in defs:
            edge(f, defs[s], "calls " + s)
            if floor(f) is not None and floor(defs[s]) is not None:
                check(floor(defs[s]) <= floor(f),
                      f"floors: {f} uses {s} of {defs[s]}, a floor above it", "floors")

if "--graph" in sys.argv:
    for a in sorted(edges):
        for b in sorted(edges[a]):
            print(f"{a} -> {b}  ({edges[a][b]})")
    sys.exit(0)

# Strongly connected components (Tarjan): any with two or more files is a
# circle.
index, low, stack, on, sccs = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in edges.get(v, {}):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        sccs.append(comp)
sys.setrecursionlimit(10000)
for v in sorted(set(edges) | {b for a in edges for b in edges[a]}):
    if v not in index:
        visit(v)
for comp in sccs:
    if len(comp) > 1:
        comp = sorted(comp)
        detail = "; ".join(f"{a} {edges[a][b]}" for a in comp
                           for b in edges.get(a, {}) if b in comp)
        check(False, "circle: " + " <-> ".join(comp) + ": " + detail, "circles")

# Sizes, and the opening comment.
def strip(src):
    """The source with comments, strings and character constants blanked,
    newlines kept, so braces can be counted."""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)

def functions(src):
    """(name, first line, lines) of every function definition: a top-level
    brace block whose preamble (since the last top-level ; or }) looks
    like a declarator with parameters, not an initialiser."""
    s, depth, pre, start = strip(src), 0, 0, None
    for i, ch in enumerate(s):
        if ch == "{":
            if depth == 0:
                head = s[pre:i]
                m = re.search(r"(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$", head)
                hl = [l for l in head.split("\n") if l.strip() and not l.lstrip().startswith("#")]
                start = (m.group(1), s.count("\n", 0, pre + len(head) - len(head.lstrip())) + 1) \
                    if m and "=" not in head else None
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if start:
                    yield start[0], start[1], s.count("\n", 0, i) + 2 - start[1]
                start, pre = None, i + 1
        elif ch == ";" and depth == 0:
            pre = i + 1
        elif ch == "\n" and depth == 0 and s[pre:i].lstrip().startswith("#"):
            pre = i + 1

for f in files:
    lines = text[f].split("\n")
    if f.endswith(".c"):
        check(len(lines) <= MAX_FILE, f"{f}: {len(lines)} lines (at most {MAX_FILE})", "file size")
        check(lines[0].startswith("/*") or lines[0].startswith("//"),
              f"{f}: does not open with a comment saying its job", "job comment")
    if f in BIG_OK or not re.search(r"\.(c|inc|h)$", f):
        continue
    for name, line, n in functions(text[f]):
        check(n <= MAX_FUNC, f"{f}:{line}: {name} is {n} lines (at most {MAX_FUNC})", "function size")

# Docs name only files a user has: every repository path (vm/x.c,
# docs/y.md, examples/z.clasm) and every capitalised .md named in
# README.md and docs/ must exist here; the project's shared folder is not
# something a user has.
docs = ["README.md", "bench/README.md"] + sorted(
    "docs/" + f for f in os.listdir("docs") if f.endswith(".md"))
tops = ("vm", "asm", "stdlib", "tools", "tests", "docs", "examples", "bench")
path_re = re.compile(r"(?<![\w/.$-])((?:\.\./)?(?:[\w.-]+/)+[\w.-]+|[A-Z][A-Z_]+\.md)\b")
for d in docs:
    src = open(d, encoding="utf-8").read()
    for m in path_re.finditer(src):
        name = m.group(1).rstrip(".")
        if src[m.end():m.end() + 1] == "*":   # a pattern: tests/run/ex_*.out
            name = glob.glob(name + "*")[0] if glob.glob(name + "*") else name
        first = name.split("/")[0]
        if "/" in name and first not in tops and first not in ("shared", ".."):
            continue
        if re.search(r"[A-Z]{4,}", name.split("/")[-1]) and "/" in name:
            continue   # placeholders: tests/run/NAME.out
        check(os.path.exists(name) or os.path.exists(os.path.join("docs", name)),
              f"{d} names {name}, which is not in the repository", "docs name files")

for r in RULES:
    print(("FAIL " if r in broken else "ok   ") + r)
failed = len(broken)
print(f"arch: {len(RULES) - failed} passed, {failed} failed, 0 skipped")
sys.exit(1 if failed else 0)
