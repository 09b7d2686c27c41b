"""The PyInstaller bundles (installer/): what the specs put in, and a real viewer build
whose --selftest runs from the frozen executable."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALLER = ROOT / "installer"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"installer_{name}", INSTALLER / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


specsupport = _load("specsupport")


def test_viewer_data_has_samples_palettes_and_ruleset_tables():
    dests = {(Path(src).name, dest.replace("\\", "/")) for src, dest in specsupport.datas(False)}
    assert ("default.json", "resources/palettes") in dests
    assert any(d == "resources/samples" and n.endswith(".rsbundle") for n, d in dests)
    for ruleset in ("kok", "artnes", "coi"):
        assert any(d == f"resources/{ruleset}" and n.endswith(".csv") for n, d in dests)
    assert ("report.html.j2", "engine/rulesets/kok/templates") in dests
    assert not any(d.startswith("maps") for _, d in dests)  # the viewer needs no demo maps


def test_studio_data_adds_demo_maps_but_not_their_generators():
    dests = {(Path(src).name, dest.replace("\\", "/")) for src, dest in specsupport.datas(True)}
    assert ("map.rsmap", "maps/kok-demo") in dests
    assert ("demo-thread.txt", "maps/coi") in dests
    assert not any(n == "make_map.py" for n, _ in dests)


def test_every_ruleset_module_is_a_hidden_import():
    # Rulesets and their parts are imported by name (registry.BUILTIN, kok's _part()).
    names = set(specsupport.hiddenimports(studio=False))
    for module in ("engine.rulesets.kok", "engine.rulesets.kok.check", "engine.rulesets.coi.rules",
                   "engine.rulesets.artnes.turn", "engine.registry"):
        assert module in names
    assert "app.cli.demo_cmd" in specsupport.hiddenimports(studio=True)  # found by pkgutil


def test_viewer_leaves_out_pyqtgraph_opengl_and_openssl_but_the_studio_keeps_them():
    viewer, studio = set(specsupport.excludes(studio=False)), set(specsupport.excludes())
    for name in ("pyqtgraph", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "ssl", "_hashlib"):
        assert name in viewer and name not in studio
    assert "PySide6.QtOpenGL" not in specsupport.hiddenimports(studio=False)
    assert "PySide6.QtOpenGL" in specsupport.hiddenimports(studio=True)
    kinds = {d.split("/")[0] for d in specsupport.VIEWER_DROP_BINARIES}
    assert kinds == {"platformthemes", "platforms", "egldeviceintegrations", "generic",
                     "imageformats"}  # plugins only, never a library the viewer links
    assert not any(p.endswith(("libqxcb.so", "libqwayland.so", "libqoffscreen.so", "libqpng.so"))
                   for p in specsupport.VIEWER_DROP_BINARIES)


def test_sqlalchemy_speedups_are_swapped_for_its_pure_python_modules(tmp_path):
    pkg = tmp_path / "sqlalchemy" / "engine"
    pkg.mkdir(parents=True)
    so = pkg / "_row_cy.cpython-311-x86_64-linux-gnu.so"
    so.write_bytes(b"")
    (pkg / "_row_cy.py").write_text("")
    lone = pkg / "_other_cy.cpython-311-x86_64-linux-gnu.so"  # no .py beside it: kept
    lone.write_bytes(b"")
    binaries = [("sqlalchemy/engine/" + so.name, str(so), "EXTENSION"),
                ("sqlalchemy/engine/" + lone.name, str(lone), "EXTENSION"),
                ("numpy/_core/x.so", "/x.so", "EXTENSION")]
    kept, pure = specsupport.pure_python_sqlalchemy(binaries, [("a", "/a.py", "PYMODULE")])
    assert [b[0] for b in kept] == ["sqlalchemy/engine/" + lone.name, "numpy/_core/x.so"]
    assert pure[-1] == ("sqlalchemy.engine._row_cy", str(pkg / "_row_cy.py"), "PYMODULE")


def test_qt_excludes_leave_every_module_the_app_imports():
    excluded = {m.split(".", 1)[1] for m in specsupport.qt_excludes()}
    used = specsupport.qt_modules_used()
    assert {"QtCore", "QtGui", "QtWidgets", "QtOpenGL", "QtOpenGLWidgets"} <= used
    assert not used & excluded
    assert {"QtWebEngineCore", "QtQml", "QtQuick", "Qt3DCore", "QtMultimedia", "QtPdf",
            "QtCharts"} <= excluded


@pytest.mark.slow
def test_built_viewer_runs_its_selftest(tmp_path):
    pytest.importorskip("PyInstaller", reason="PyInstaller not installed: "
                        "pip install 'realmsmith[installer]' to build and test the bundles")
    build = _load("build")
    start = time.perf_counter()
    # Windows: a windowed (no console) executable may print nowhere; build a console one.
    try:
        built = build.build("viewer", tmp_path / "dist", tmp_path / "work",
                            console=sys.platform == "win32", quiet=True)
    except subprocess.CalledProcessError as e:
        pytest.fail(f"PyInstaller failed (exit {e.returncode}):\n{(e.stderr or '')[-3000:]}")
    build_s = time.perf_counter() - start
    assert built.executable.is_file()
    internal = built.folder / "_internal"
    assert sorted(p.name for p in (internal / "resources" / "samples").glob("*.rsbundle"))
    assert (internal / "resources" / "kok" / "troops.csv").is_file()
    files = {p.relative_to(internal).as_posix() for p in internal.rglob("*")}
    for unwanted in ("QtWebEngine", "QtQml", "QtQuick", "Qt3D", "QtMultimedia", "QtPdf",
                     "tkinter", "pytest", "hypothesis", "psycopg", "libqgtk3", "pyqtgraph",
                     "QtOpenGL.abi3", "libqvnc", "libssl", "libqtuiotouchplugin", "_cy.cpython"):
        assert not [f for f in files if unwanted in f], unwanted
    if sys.platform.startswith("linux"):
        icu = list(internal.rglob("libicudata.so.*"))
        if icu and specsupport.shutil_which_cc():
            assert icu[0].stat().st_size < 1_000_000  # the empty stand-in, not 32 MB of data

    code, out, startup_s = build.selftest(built)
    assert code == 0, out
    ok = [line for line in out.splitlines() if line.startswith("OK ")]
    assert ok and ".rsbundle" in ok[0] and "checker ok" in ok[0], out

    # A missing bundle is a clear failure, not a crash.
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    bad = subprocess.run([str(built.executable), "--selftest", str(tmp_path / "nope.rsbundle")],
                         env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1
    assert "nope.rsbundle" in bad.stdout + bad.stderr

    print(f"\nviewer bundle: build {build_s:.0f} s, {built.size_bytes() / 1e6:.0f} MB, "
          f"--selftest {startup_s:.2f} s ({sys.platform})")
