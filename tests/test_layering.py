"""engine/ must never import Qt (DESIGN: the model never imports the GUI)."""

import ast
import pathlib

ENGINE = pathlib.Path(__file__).resolve().parents[1] / "engine"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "app")


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_engine_never_imports_qt_or_app():
    offenders = {str(p.relative_to(ENGINE.parent)): sorted(_imports(p) & set(FORBIDDEN))
                 for p in ENGINE.rglob("*.py")}
    offenders = {k: v for k, v in offenders.items() if v}
    assert offenders == {}


def test_the_check_sees_a_qt_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6 import QtCore\nimport engine\n")
    assert "PySide6" in _imports(bad)
