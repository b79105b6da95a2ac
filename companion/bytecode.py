"""Compile the bytecode of what the companion imports, where Python will look for it:
``python -m companion.bytecode`` with the service's ``PYTHONPYCACHEPREFIX``
(firmware/install.sh does this after installing or updating).

Without it the first start after an install compiles every module it imports, and the
compiler's memory comes on top of the app's: the peak of a demo race was 43.9 MiB against
the 40 MB budget, 38.7 MiB with the bytecode already there (docs/performance.md).

It imports every module of the companion and the libraries the device paths load (an
import writes the module's bytecode), then compiles the companion's own files. A library
that is not installed (lgpio off a Pi) is passed over. Prints one line.
"""

from __future__ import annotations

import compileall
import importlib
import importlib.util
import os
import pkgutil
import py_compile
import sys

# Loaded lazily by the device paths, the receipts and the demo (not by importing companion.*).
LIBRARIES = (
    "luma.oled.device", "luma.core.interface.serial", "luma.core.render", "gpiozero", "gpiozero.pins.lgpio",
    "gpiozero.pins.mock", "lgpio", "serial", "serial.tools.list_ports", "PIL.Image", "PIL.ImageDraw",
    "PIL.ImageFont", "PIL.ImageChops", "PIL.PngImagePlugin", "encodings.cp437", "encodings.cp850", "encodings.cp858", "encodings.cp1252",
    "sqlite3", "tomllib", "json", "zlib", "pickle",
    "socket", "selectors", "tty", "termios", "fcntl", "select", "struct", "tempfile", "unicodedata", "hashlib",
    "argparse", "logging", "dataclasses", "collections", "queue", "threading", "segno",
)


def warm(packages: tuple[str, ...] = ("companion",), libraries: tuple[str, ...] = LIBRARIES) -> tuple[int, int]:
    """Import everything named; (modules imported, modules that could not be)."""
    done = failed = 0
    loaded_before = set(sys.modules)
    names = list(libraries)
    for package in packages:
        module = importlib.import_module(package)
        names += [info.name for info in pkgutil.walk_packages(module.__path__, package + ".")]
    for name in names:
        try:
            importlib.import_module(name)
            done += 1
        except Exception:       # an optional library missing here, or a platform module
            failed += 1
    try:
        from PIL import Image
        Image.init()            # the image plugins Pillow loads on the first save
    except Exception:
        pass
    # Modules the interpreter had loaded before this ran (re, typing, encodings...) were
    # not written by their import: compile their source explicitly, and any other loaded
    # module's whose bytecode is still missing. The imports above wrote the rest (compiling
    # those a second time was 1.4 of the 5 CPU-seconds this took).
    for name, module in list(sys.modules.items()):
        source = getattr(module, "__file__", None)
        if not (source and source.endswith(".py")):
            continue
        cfile = importlib.util.cache_from_source(source)
        if name in loaded_before or not os.path.exists(cfile):
            try:
                py_compile.compile(source, cfile=cfile, doraise=True,
                                   invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
            except (py_compile.PyCompileError, OSError):
                failed += 1
    for package in packages:   # and every file of the companion, imported or not
        for folder in importlib.import_module(package).__path__:
            compileall.compile_dir(folder, quiet=2)
    return done, failed


def main() -> int:
    sys.dont_write_bytecode = False     # this is the one run that must write it
    done, failed = warm()
    where = sys.pycache_prefix or "__pycache__ folders"
    note = f" ({failed} not installed here)" if failed else ""
    print(f"bytecode ready for {done} modules in {where}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
