"""Reads an Oclgrind kernel test: its .sim run file (the NDRange and the
arguments), its .ref expectations, and prints buffers as Oclgrind does.

The formats are those of the suite's README.md (third_party/oclgrind-tests).
"""
import math
import re
import struct

# element type: (bytes, struct code); integers are read and printed by
# their bits, so the code only matters for floating types
TYPES = {
    "char": (1, "b"), "uchar": (1, "B"), "short": (2, "h"),
    "ushort": (2, "H"), "int": (4, "i"), "uint": (4, "I"),
    "long": (8, "q"), "ulong": (8, "Q"), "float": (4, "f"),
    "double": (8, "d"),
}
FLOATING = {"float", "double"}
SIGNED = {"char", "short", "int", "long"}


class SimError(Exception):
    """A .sim file clvm's runner cannot read (says what and where)."""


class Arg:
    """One kernel argument of a .sim file: its header and its values."""

    def __init__(self, header, where):
        self.where = where
        self.size = None
        self.type = None
        self.fill = None
        self.range = None
        self.flags = set()
        for tok in header.split():
            self._option(tok)
        if self.size is None and "null" in self.flags:
            self.size = 0
        if self.size is None:
            raise SimError(f"{where}: <{header}> has no size=N")
        self.values = []

    def _option(self, tok):
        key, eq, val = tok.partition("=")
        if key == "size" and eq:
            self.size = int(val, 0)
        elif key == "fill" and eq:
            self.fill = val
        elif key == "range" and eq:
            parts = val.split(":")
            if len(parts) != 3:
                raise SimError(f"{self.where}: range={val}: not START:STEP:END")
            self.range = parts
        elif not eq and tok in TYPES:
            self.type = tok
        elif not eq and tok in ("dump", "hex", "noinit", "null", "ro", "wo"):
            self.flags.add(tok)
        else:
            raise SimError(f"{self.where}: unknown argument option '{tok}'")


class Sim:
    """A parsed .sim file: build arguments, program, kernel, sizes, and the
    arguments (each Arg with its value tokens)."""

    def __init__(self, path):
        self.path = path
        self.build_args = ""
        self.tokens = []   # (token, line)
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if n == 1 and line.startswith("# ARGS:"):
                    self.build_args = line[len("# ARGS:"):].strip()
                line = line.split("#", 1)[0]
                for tok in re.findall(r"<[^>]*>|[^\s<]+", line):
                    self.tokens.append((tok, n))
        self.pos = 0
        self.program = self._next("the program file")
        self.kernel = self._next("the kernel name")
        self.glob = [self._int("a global size") for _ in range(3)]
        self.local = [self._int("a local size") for _ in range(3)]
        self.args = []
        for tok, n in self.tokens[self.pos:]:
            if tok.startswith("<") and tok.endswith(">"):
                self.args.append(Arg(tok[1:-1], f"{path}:{n}"))
            elif not self.args:
                raise SimError(f"{path}:{n}: '{tok}' before the first "
                               "argument's <header>")
            else:
                self.args[-1].values.append(tok)

    def _next(self, what):
        if self.pos >= len(self.tokens):
            raise SimError(f"{self.path}: ends before {what}")
        tok = self.tokens[self.pos][0]
        self.pos += 1
        return tok

    def _int(self, what):
        tok = self._next(what)
        try:
            return int(tok, 0)
        except ValueError:
            raise SimError(f"{self.path}:{self.tokens[self.pos - 1][1]}: "
                           f"'{tok}' is not {what}") from None


# ---- values to bytes ----

def number(tok, ty, hexa, where):
    """The value of token tok as element type ty (bits for integers)."""
    try:
        if ty in FLOATING:
            return float.fromhex(tok) if hexa else float(tok)
        v = int(tok, 16) if hexa else int(tok, 0)
    except ValueError:
        raise SimError(f"{where}: '{tok}' is not a {ty} value") from None
    bits = TYPES[ty][0] * 8
    if not -(1 << bits) < v < (1 << bits):
        raise SimError(f"{where}: {tok} does not fit a {ty}")
    return v & ((1 << bits) - 1)


def pack(values, ty):
    """Little-endian bytes of values (ints as bits) of element type ty."""
    size, code = TYPES[ty]
    if ty in FLOATING:
        return b"".join(struct.pack("<" + code, v) for v in values)
    return b"".join(v.to_bytes(size, "little") for v in values)


def arg_bytes(arg, ty, is_local):
    """The initial contents of arg (None where it takes none)."""
    size = TYPES[ty][0]
    count = arg.size // size
    hexa = "hex" in arg.flags
    if is_local or arg.flags & {"null"}:
        return None
    if "noinit" in arg.flags:
        return bytes(arg.size)
    if arg.fill is not None:
        vals = [number(arg.fill, ty, hexa, arg.where)] * count
    elif arg.range:
        start, step, _ = (number(t, ty, hexa, arg.where) if ty in FLOATING
                          else int(t, 16 if hexa else 0) for t in arg.range)
        vals = [start + i * step for i in range(count)]
        if ty not in FLOATING:
            mask = (1 << (size * 8)) - 1
            vals = [v & mask for v in vals]
    else:
        if len(arg.values) != count:
            raise SimError(f"{arg.where}: {count} values expected, "
                           f"{len(arg.values)} given")
        vals = [number(t, ty, hexa, arg.where) for t in arg.values]
    data = pack(vals, ty)
    return data + bytes(arg.size - len(data))


# ---- bytes to Oclgrind's text ----

def show(bits, ty, hexa):
    """One element as Oclgrind prints it (C++ stream defaults)."""
    size, code = TYPES[ty]
    if hexa:
        return "0x%0*x" % (size * 2, bits)
    if ty in FLOATING:
        v = struct.unpack("<" + code, bits.to_bytes(size, "little"))[0]
        if math.isnan(v):
            return "-nan" if bits >> (size * 8 - 1) else "nan"
        return "%g" % v
    if ty in SIGNED and bits >> (size * 8 - 1):
        return str(bits - (1 << (size * 8)))
    return str(bits)


def dump_lines(name, nbytes, elems, ty, hexa):
    """The lines Oclgrind prints for a dumped buffer."""
    out = ["", f"Argument '{name}': {nbytes} bytes"]
    out += [f"  {name}[{i}] = {show(b, ty, hexa)}" for i, b in enumerate(elems)]
    return out


# ---- .ref ----

def read_ref(path):
    """The (KIND, TEXT) checks of a .ref file, blank lines left out."""
    checks = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line.strip():
                    continue
                kind = line[:5].strip()
                if kind not in ("EXACT", "MATCH", "ERROR"):
                    raise SimError(f"{path}:{n}: unknown check '{kind}'")
                checks.append((kind, line[6:]))
    except FileNotFoundError:
        pass
    return checks


def match_output(checks, lines):
    """None if lines (non-blank) meet the EXACT/MATCH checks in order with
    nothing left over, else what differs."""
    lines = [l for l in lines if l.strip()]
    checks = [c for c in checks if c[0] != "ERROR"]
    for i, (kind, text) in enumerate(checks):
        if i >= len(lines):
            return f"missing line: {kind} {text}"
        ok = lines[i] == text if kind == "EXACT" else text in lines[i]
        if not ok:
            return f"line {i + 1}: expected {kind} '{text}', got '{lines[i]}'"
    if len(lines) > len(checks):
        return f"unexpected line: '{lines[len(checks)]}'"
    return None
