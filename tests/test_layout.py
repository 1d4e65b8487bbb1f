"""The firmware's layout rules (ARCHITECTURE.md), checked by parsing imports.

- On a device every module sits in one flat /lib: names under firmware/ (all
  subfolders) and boards/ are unique and shadow no MicroPython module.
- Imports point down only: the engine imports no app, driver, board or boot
  module and no hardware, I/O or clock module; drivers import no app, engine,
  board or boot module; the app imports no board or boot module; boards
  import no app, engine or boot module. Imports inside functions count too.
"""
import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "boards"

# MicroPython's own modules (with and without the u prefix): a firmware
# module of the same name would shadow one of them on a device.
MICROPYTHON_MODULES = {
    "array", "binascii", "bluetooth", "builtins", "cmath", "collections",
    "cryptolib", "deflate", "errno", "esp", "esp32", "framebuf", "gc",
    "hashlib", "heapq", "io", "json", "machine", "math", "micropython",
    "microbit", "neopixel", "network", "os", "platform", "pyb", "random", "re",
    "rp2", "select", "socket", "ssl", "struct", "sys", "time", "uasyncio",
    "asyncio", "uctypes", "zlib", "_thread", "onewire", "dht", "uio", "ujson",
    "uos", "urandom", "ure", "uselect", "usocket", "ustruct", "utime", "uzlib",
    "ucollections", "ubinascii", "uhashlib", "uheapq", "uerrno", "uarray",
}
# What the engine ("no hardware, no I/O, no clock") may not touch.
HARDWARE_IO_CLOCK = {
    "machine", "time", "utime", "os", "uos", "network", "socket", "usocket",
    "select", "uselect", "pyb", "microbit", "framebuf", "esp", "esp32", "rp2",
    "neopixel", "bluetooth", "io", "uio", "onewire", "dht",
}


def layer_of(path):
    rel = path.relative_to(ROOT).parts
    if rel[0] == "boards":
        return "boards"
    if len(rel) == 2:                    # firmware/main.py and friends
        return "main"
    return rel[1]                        # engine, app, drivers, ...


def modules():
    """{module name: [paths]} for every firmware and board module."""
    found = defaultdict(list)
    for base in (FIRMWARE, BOARDS):
        for path in sorted(base.rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[path.stem].append(path)
    return found


MODULES = modules()
LAYER = {name: layer_of(paths[0]) for name, paths in MODULES.items()}
FILES = sorted(p for paths in MODULES.values() for p in paths)


def imports(path):
    """(line, top-level module name) for every import in the file."""
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                out.append((node.lineno, "." * node.level + (node.module or "")))
            elif node.module:
                out.append((node.lineno, node.module.split(".")[0]))
    return out


# layer -> layers whose modules it may not import
FORBIDDEN_LAYERS = {
    "engine": {"app", "drivers", "boards", "main"},
    "drivers": {"app", "engine", "boards", "main"},
    "app": {"boards", "main"},
    "boards": {"app", "engine", "main"},
    "main": set(),
}


def test_firmware_and_boards_have_modules():
    assert {"engine", "boards"} <= set(LAYER.values())


def test_module_names_are_unique_in_the_flat_namespace():
    clashes = {name: [str(p.relative_to(ROOT)) for p in paths]
               for name, paths in MODULES.items() if len(paths) > 1}
    assert clashes == {}


def test_no_module_shadows_a_micropython_module():
    shadows = sorted(name for name in MODULES if name in MICROPYTHON_MODULES)
    assert shadows == []


def violations(path, layer):
    bad = []
    for line, name in imports(path):
        if name.startswith("."):
            bad.append("line %d: relative import %s (the device namespace is flat)"
                       % (line, name))
        elif LAYER.get(name) in FORBIDDEN_LAYERS[layer]:
            bad.append("line %d: %s imports %s (%s layer)" % (line, layer, name, LAYER[name]))
        elif layer == "engine" and name in HARDWARE_IO_CLOCK:
            bad.append("line %d: the engine imports %s (no hardware, I/O or clock)"
                       % (line, name))
    return bad


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down_only(path):
    layer = layer_of(path)
    assert layer in FORBIDDEN_LAYERS, "unknown firmware folder for %s" % path
    assert violations(path, layer) == []


# The checker itself, on made-up sources: it must catch what it is for.
@pytest.mark.parametrize("source,names", [
    ("import machine\nfrom app import x\n", [(1, "machine"), (2, "app")]),
    ("def f():\n    import menu.sub as m\n", [(2, "menu")]),
    ("from . import board\n", [(1, ".")]),
    ("try:\n    from micropython import const\nexcept ImportError:\n    pass\n",
     [(2, "micropython")]),
])
def test_the_import_parser(tmp_path, source, names):
    p = tmp_path / "m.py"
    p.write_text(source)
    assert imports(p) == names


def _first_module(layer):
    return next(name for name, lay in sorted(LAYER.items()) if lay == layer)


def test_the_rule_catches_imports_that_point_up(tmp_path):
    p = tmp_path / "m.py"
    engine_mod = _first_module("engine")
    if "drivers" in LAYER.values():
        driver = _first_module("drivers")
        p.write_text("import %s\n" % driver)
        assert len(violations(p, "engine")) == 1
        assert violations(p, "app") == []
    p.write_text("import machine\ndef f():\n    import utime\n")
    assert len(violations(p, "engine")) == 2
    assert violations(p, "drivers") == []
    p.write_text("from %s import x\n" % engine_mod)
    assert len(violations(p, "drivers")) == 1
    assert violations(p, "app") == []
