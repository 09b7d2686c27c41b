"""What the two PyInstaller specs share: the data files, hidden imports and exclusions.

The specs import this module (they put their own folder on sys.path first). Every path
here is computed from this file's place in the source tree, so a spec runs the same
from any working directory and on Linux, Windows and macOS.

Why the data files land where they do: engine and app find their files relative to
their own modules (`Path(__file__).parents[N] / "resources"`). In a one-folder bundle a
module's `__file__` is `<bundle>/_internal/<package path>.pyc`, so putting resources/,
maps/ and the package data at the same relative places under `_internal/` keeps every
one of those paths working frozen, with no `sys._MEIPASS` special cases in the app.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

INSTALLER = Path(__file__).resolve().parent
ROOT = INSTALLER.parent

# Package data next to modules (setuptools package-data in pyproject.toml says the same).
PACKAGE_DATA = {".csv", ".json", ".txt", ".html", ".j2"}
# Files under maps/ that the studio's demos open; the make_map.py generators stay out.
MAP_DATA = {".rsmap", ".gz", ".txt", ".json", ".tmj", ".tmx"}

# Qt modules the app needs even though no `import` line names them: pyqtgraph loads
# QtOpenGL and QtOpenGLWidgets with importlib.import_module when its plot items are
# imported (pyqtgraph/Qt/OpenGLHelpers.py, graphicsItems/PlotCurveItem.py); the frozen
# studio segfaults without them. Only the studio's GM console charts import pyqtgraph: the
# viewer leaves pyqtgraph and both OpenGL modules out (tests/test_installer.py checks that
# no viewer module imports it).
QT_ALWAYS = {"QtCore", "QtGui", "QtWidgets", "QtOpenGL", "QtOpenGLWidgets"}
QT_VIEWER = {"QtCore", "QtGui", "QtWidgets"}
# OpenSSL (libssl, libcrypto: 5.4 MB) too: the viewer opens files and sends nothing;
# asyncio (imported by SQLAlchemy) does without ssl, and hashlib falls back to Python's
# own md5/sha modules.
VIEWER_EXCLUDES = ["pyqtgraph", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets",
                   "ssl", "_ssl", "_hashlib"]

PYTHON_EXCLUDES = [
    "tkinter", "_tkinter", "turtledemo", "idlelib", "lib2to3", "pydoc_data",
    "pytest", "_pytest", "pytestqt", "pytest_benchmark", "hypothesis", "py", "pluggy",
    "IPython", "matplotlib", "scipy", "pandas", "PyQt5", "PyQt6", "PySide2",
    "numpy.f2py", "numpy.tests", "numpy.testing.tests", "numpy._core.tests", "numpy.distutils",
    "pyqtgraph.examples", "pyqtgraph.opengl", "pyqtgraph.jupyter",
    "setuptools", "pkg_resources", "distutils",
    "tests", "benchmarks",
    # SQLAlchemy's hook asks for every database driver; Realmsmith only uses SQLite.
    "psycopg", "psycopg_binary", "psycopg2", "pymysql", "MySQLdb", "pysqlite2", "asyncpg",
    "oracledb", "cx_Oracle", "pyodbc", "sqlalchemy.dialects.postgresql",
    "sqlalchemy.dialects.mysql", "sqlalchemy.dialects.mssql", "sqlalchemy.dialects.oracle",
]


def _files(base: Path, suffixes: set[str]) -> list[tuple[str, str]]:
    """(source file, folder inside the bundle) for every file under base with a suffix."""
    out = []
    for path in sorted(base.rglob("*")):
        if path.is_file() and path.suffix.lower() in suffixes and "__pycache__" not in path.parts:
            out.append((str(path), str(path.parent.relative_to(ROOT))))
    return out


def datas(with_maps: bool) -> list[tuple[str, str]]:
    """resources/ whole (palettes, samples, ruleset CSVs), package data of engine and app,
    and for the studio the demo maps."""
    out = [(str(p), str(p.parent.relative_to(ROOT)))
           for p in sorted((ROOT / "resources").rglob("*"))
           if p.is_file() and "__pycache__" not in p.parts]
    out += _files(ROOT / "engine", PACKAGE_DATA)
    out += _files(ROOT / "app", PACKAGE_DATA)
    if with_maps:
        out += _files(ROOT / "maps", MAP_DATA)
    return out


def _submodules(package: str) -> list[str]:
    """Dotted names of every module of a package in the source tree (no import needed)."""
    base = ROOT.joinpath(*package.split("."))
    names = []
    for path in sorted(base.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(ROOT).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        names.append(".".join(parts))
    return names


def hiddenimports(studio: bool) -> list[str]:
    """Rulesets are imported by name (engine.registry.BUILTIN / entry points), and the CLI
    discovers its app/cli/*_cmd.py modules with pkgutil: PyInstaller sees neither."""
    names = _submodules("engine")
    names += ["PySide6." + m for m in sorted(QT_ALWAYS if studio else QT_VIEWER)]
    if studio:
        names += _submodules("app")
    return names


def qt_modules_used() -> set[str]:
    """Qt modules named anywhere under app/ (the engine never imports Qt)."""
    used = set(QT_ALWAYS)
    pattern = re.compile(r"PySide6\.(Qt\w+)|from PySide6 import ([\w, ()]+)")
    for path in (ROOT / "app").rglob("*.py"):
        for m in pattern.finditer(path.read_text(encoding="utf-8", errors="replace")):
            if m.group(1):
                used.add(m.group(1))
            else:
                used.update(n.strip() for n in m.group(2).strip("()").split(",") if n.strip())
    return {m for m in used if m.startswith("Qt")}


def qt_excludes() -> list[str]:
    """Every PySide6 module the app does not use. The list comes from the installed PySide6
    (its .pyi stubs name all modules, even those not in the Essentials wheel), so it stays
    right as the app starts using another module."""
    import PySide6

    every = {p.name.split(".")[0] for p in Path(PySide6.__file__).parent.glob("Qt*.pyi")}
    return ["PySide6." + m for m in sorted(every - qt_modules_used())]


def excludes(studio: bool = True) -> list[str]:
    return PYTHON_EXCLUDES + qt_excludes() + ([] if studio else VIEWER_EXCLUDES)


# Qt's own translations (qtbase_de.qm ...) only matter with a QTranslator installed, which
# the app does not do; they are ~6 MB.
def lean(datas_toc: list) -> list:
    """Analysis.datas without the files the app never reads."""
    return [d for d in datas_toc if not re.search(r"[\\/]translations[\\/]", d[0])]


# Qt's GTK3 platform theme plugin drags in cairo, pango, gio, harfbuzz ... (~8 MB on Debian)
# while libgtk-3 itself is not bundled, so on another distribution it would mix the
# bundled libraries with the system's GTK. Without it Qt uses its own Fusion look.
DROP_BINARIES = ("platformthemes/libqgtk3.so",)
# The viewer is a desktop program: no framebuffer, VNC, EGL-fullscreen or Vulkan-display
# platforms (they bring QtNetwork and the EGLFS libraries along).
VIEWER_DROP_BINARIES = DROP_BINARIES + (
    "platforms/libqvnc.so", "platforms/libqlinuxfb.so", "platforms/libqeglfs.so",
    "platforms/libqminimalegl.so", "platforms/libqvkkhrdisplay.so",
    "egldeviceintegrations/libqeglfs-emu-integration.so",
    "egldeviceintegrations/libqeglfs-kms-egldevice-integration.so",
    "egldeviceintegrations/libqeglfs-kms-integration.so",
    "egldeviceintegrations/libqeglfs-x11-integration.so",
    # TUIO touch input over the network: brings QtNetwork and Kerberos (3.6 MB)
    "generic/libqtuiotouchplugin.so",
    # image formats a report never shows (PNG, JPEG, GIF, SVG and ICO stay)
    "imageformats/libqtiff.so", "imageformats/libqwebp.so", "imageformats/libqicns.so",
    "imageformats/libqtga.so", "imageformats/libqwbmp.so")


def lean_binaries(binaries: list, drop: tuple[str, ...] = DROP_BINARIES,
                  prune_qt: bool = False) -> list:
    """Analysis.binaries without `drop` and the top-level libraries only they need (with
    prune_qt, Qt libraries only they need too)."""
    dropped = [b for b in binaries if b[0].replace("\\", "/").endswith(drop)]
    if not dropped or not sys.platform.startswith("linux"):
        return [b for b in binaries if b not in dropped]
    from PyInstaller.depend.bindepend import get_imports

    by_name = {os.path.basename(b[0]): b for b in binaries}

    def closure(roots: list) -> set:
        seen: set = set()
        stack = list(roots)
        while stack:
            for name, _ in get_imports(stack.pop()[1]):
                dep = by_name.get(os.path.basename(name))
                if dep is not None and dep not in seen:
                    seen.add(dep)
                    stack.append(dep)
        return seen

    # Roots: extension modules, Qt libraries and plugins (in sub-folders) and libpython.
    # With prune_qt, Qt's own libraries are not roots: they stay only if something else
    # links them (QtNetwork goes with the TUIO plugin, the EGLFS libraries with EGLFS).
    def is_root(b) -> bool:
        dest = b[0].replace("\\", "/")
        if prune_qt and "/Qt/lib/" in "/" + dest:
            return False
        return "/" in dest or dest.startswith("libpython")

    roots = [b for b in binaries if b not in dropped and is_root(b)]
    needed = closure(roots) | set(roots)
    only_dropped = {b for b in closure(dropped) if b not in needed}
    return [b for b in binaries if b not in dropped and b not in only_dropped]


def _elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def shutil_which_cc() -> str | None:
    """The C compiler slim_binaries builds the ICU stand-in with, if any."""
    import shutil

    return shutil.which("cc") or shutil.which("gcc")


def slim_binaries(binaries: list, work: str) -> list:
    """Linux viewer: libpython and the standard library's extension modules without their
    debug sections (24 MB of them; `strip --strip-debug` keeps every symbol) and ICU's 32 MB data library replaced
    by an empty one built from installer/stubs/icudata_stub.c. Needs binutils' strip and a C
    compiler; without them the binaries are left as they are."""
    import shutil
    import subprocess

    if not sys.platform.startswith("linux"):
        return binaries
    out_dir = Path(work) / "slim"
    out_dir.mkdir(parents=True, exist_ok=True)
    strip, cc = shutil.which("strip"), shutil_which_cc()
    out = []
    for entry in binaries:
        dest, src, kind = entry[0], entry[1], entry[2]
        name = os.path.basename(dest)
        target = out_dir / dest.replace("/", "__")
        m = re.fullmatch(r"libicudata\.so\.(\d+)", name)
        if m and cc:
            done = subprocess.run([cc, "-shared", "-O2", "-fPIC", f"-DICUV={m.group(1)}",
                                   f"-Wl,-soname,{name}", "-o", str(target),
                                   str(INSTALLER / "stubs" / "icudata_stub.c")],
                                  capture_output=True)
            out.append((dest, str(target), kind) if done.returncode == 0 else entry)
            continue
        # libpython and the standard library's extension modules only: wheels' libraries
        # (numpy.libs/...) are patched by auditwheel and strip breaks their program headers
        ours = name.startswith("libpython") or "lib-dynload" in dest.replace("\\", "/")
        if strip and ours and _elf(src):
            shutil.copyfile(src, target)
            done = subprocess.run([strip, "--strip-debug", str(target)], capture_output=True)
            if done.returncode == 0 and target.stat().st_size < os.path.getsize(src):
                out.append((dest, str(target), kind))
                continue
        out.append(entry)
    return out


def pure_python_sqlalchemy(binaries: list, pure: list) -> tuple[list, list]:
    """SQLAlchemy's optional Cython speed-ups (8.5 MB) swapped for the pure-Python modules
    it ships beside them (same names; SQLAlchemy runs on either). The viewer reads one small
    bundle database, where their speed does not show."""
    out, extra = [], []
    for entry in binaries:
        dest, src = entry[0].replace("\\", "/"), entry[1]
        m = re.fullmatch(r"(sqlalchemy/(?:\w+/)*\w+_cy)\.[^/]+\.(?:so|pyd)", dest)
        py = Path(src).parent / (Path(m.group(1)).name + ".py") if m else None
        if py is not None and py.is_file():
            extra.append((m.group(1).replace("/", "."), str(py), "PYMODULE"))
        else:
            out.append(entry)
    return out, pure + extra
