#!/usr/bin/env python3
"""One-step set-up for Realmsmith: `python dev.py demo` or `python dev.py test`.

Creates .venv beside this file (once), installs Realmsmith with its test extras into it,
adds the few system libraries Qt needs on a bare Debian/Ubuntu when run as root, then
runs the demo or the test suite. Safe to run again: finished steps are skipped.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("REALMSMITH_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".realmsmith-installed"
# Libraries the Qt wheels load that a minimal Debian lacks, plus a virtual X server for the
# screenshot tests (Qt names libxcb-cursor0 even when libxcb-icccm4 is the one missing).
QT_DEBS = ["libegl1", "libgl1", "libxkbcommon0", "libfontconfig1", "libglib2.0-0",
           "libdbus-1-3", "fonts-dejavu-core", "xvfb", "xauth", "libxcb-icccm4",
           "libxcb-keysyms1", "libxcb-cursor0", "libxkbcommon-x11-0"]
# A throwaway PostgreSQL server for tests/test_db_postgres.py (started and stopped by the
# test itself, on a Unix socket only); without it those tests are skipped with a reason.
TEST_DEBS = ["postgresql"]


def say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


def ensure_system_libs() -> None:
    if not sys.platform.startswith("linux") or not shutil.which("dpkg-query"):
        return
    groups = [("Qt system libraries", QT_DEBS), ("PostgreSQL for the tests", TEST_DEBS)]
    todo = [(what, [p for p in debs if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True
    ).stdout.find("install ok installed") < 0]) for what, debs in groups]
    todo = [(what, missing) for what, missing in todo if missing]
    if not todo:
        return
    if os.geteuid() != 0:
        for what, missing in todo:
            say(f"{what} may be missing: sudo apt-get install -y {' '.join(missing)}")
        return
    subprocess.run(["apt-get", "update", "-qq"], check=False)
    for what, missing in todo:  # one group failing does not stop the other
        say(f"installing {what}: {' '.join(missing)}")
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing],
                       check=False, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def _installed(debs: list[str]) -> bool:
    return bool(shutil.which("dpkg-query")) and all(subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True
    ).stdout.find("install ok installed") >= 0 for p in debs)


def ensure_venv() -> None:
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    want = hashlib.sha256(pyproject).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want and PY.exists():
        return
    if not PY.exists():
        say(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    say("installing Realmsmith and its dependencies (first run takes a minute)")
    pip = [str(PY), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "uv"], check=False)
    uv = BIN / ("uv.exe" if os.name == "nt" else "uv")
    if uv.exists():
        cmd = [str(uv), "pip", "install", "-q", "--python", str(PY), "-e", f"{ROOT}[test,installer]"]
    else:
        cmd = [*pip, "-e", f"{ROOT}[test,installer]"]
    subprocess.run(cmd, check=True)
    STAMP.write_text(want)


def run(args: list[str], env: dict[str, str] | None = None) -> int:
    return subprocess.run(args, cwd=ROOT, env={**os.environ, **(env or {})}).returncode


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else "help"
    if cmd not in ("demo", "test", "bench", "setup", "lint", "screenshots"):
        print(__doc__)
        print("commands: demo [ARGS] | test [PYTEST ARGS] | bench | lint | screenshots [RULESET] | setup")
        return 0 if cmd in ("help", "-h", "--help") else 2
    ensure_system_libs()
    ensure_venv()
    if cmd == "setup":
        return 0
    realmsmith = str(BIN / "realmsmith")
    if cmd == "demo":
        return run([realmsmith, "demo", "--open", *argv[1:]])
    if cmd == "screenshots":  # docs/screenshots/*.png, every workspace of every ruleset
        return run([str(PY), str(ROOT / "docs" / "screenshots" / "make_screenshots.py"), *argv[1:]])
    if cmd == "lint":
        return run([str(PY), "-m", "ruff", "check", "engine", "app", "tests", "benchmarks"])
    if cmd == "bench":
        return run([str(PY), "-m", "pytest", "benchmarks",
                    "--benchmark-only", *argv[1:]], {"QT_QPA_PLATFORM": "offscreen"})
    env = {"QT_QPA_PLATFORM": "offscreen"}
    if _installed(TEST_DEBS):  # the server is here: its tests must run, not skip
        env["REALMSMITH_REQUIRE_PG"] = os.environ.get("REALMSMITH_REQUIRE_PG", "1")
    rc = run([str(PY), "-m", "pytest", "-q", *argv[1:]], env)
    return 1 if rc == 5 else rc  # pytest's 5 = no tests ran: that is a failure here


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
