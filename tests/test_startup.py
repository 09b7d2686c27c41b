"""The command line starts without the heavy libraries a command does not need
(docs/performance.md): `--help` imports neither SQLAlchemy nor numpy, `status` no numpy
(it reads no map), and no command imports SQLModel or pydantic, which the game database
does not use."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("sqlalchemy", "numpy", "sqlmodel", "pydantic", "jinja2", "PySide6")


def _imported_by(code: str) -> set[str]:
    probe = (f"import sys\n{code}\n"
             "import json\n"
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_help_imports_no_heavy_library():
    code = ("import contextlib, io\nfrom app.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['--help']) == 0")
    assert _imported_by(code) == set()


def test_error_classes_alone_are_light():
    assert _imported_by("import engine.db.errors, engine.db") == set()


def test_status_needs_no_numpy_or_sqlmodel_or_pydantic(tmp_path):
    from app.cli import main

    assert main(["new", str(tmp_path / "g.db"), "--ruleset", "kok"]) == 0
    code = ("import contextlib, io\nfrom app.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['status', {str(tmp_path / 'g.db')!r}]) == 0")
    got = _imported_by(code)
    assert "sqlalchemy" in got  # the probe does see what a command imports
    assert not got & {"sqlmodel", "pydantic", "PySide6", "numpy"}  # no map read for status
