"""Build the Realmsmith bundles with PyInstaller (one folder each) and check them.

    python installer/build.py                 # the viewer (default)
    python installer/build.py --studio        # the GM studio
    python installer/build.py --all --check   # both, then run each one's --selftest
    python installer/build.py --dist out --work /tmp/rs-build

Same command on Linux, Windows and macOS (run it with the Python that has Realmsmith
and the `installer` extra installed). Bundles land in DIST/realmsmith-viewer/ and
DIST/realmsmith/ (plus .app bundles on macOS). See docs/installer.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

INSTALLER = Path(__file__).resolve().parent
ROOT = INSTALLER.parent
TARGETS = {"viewer": "realmsmith-viewer", "studio": "realmsmith"}


@dataclass
class Built:
    name: str
    folder: Path
    seconds: float

    @property
    def executable(self) -> Path:
        exe = self.name + (".exe" if sys.platform == "win32" else "")
        return self.folder / exe

    def size_bytes(self) -> int:
        # lstat: symlinks inside the bundle (macOS, some Linux libraries) counted once
        return sum(p.lstat().st_size for p in self.folder.rglob("*") if not p.is_dir())


def build(target: str, dist: Path, work: Path, console: bool = False,
          quiet: bool = False) -> Built:
    """Run PyInstaller on installer/<name>.spec; raises CalledProcessError if it fails
    (with PyInstaller's output in .stdout/.stderr when quiet)."""
    name = TARGETS[target]
    # No --clean: PyInstaller reuses what it analysed in WORK when nothing changed.
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm",
           "--distpath", str(dist), "--workpath", str(work / name),
           "--log-level", "WARN", str(INSTALLER / f"{name}.spec")]
    if console and target == "viewer":
        cmd += ["--", "--console"]
    start = time.perf_counter()
    if quiet:  # keep PyInstaller's log, show it only if the build fails
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, errors="replace")
        if proc.returncode:
            raise subprocess.CalledProcessError(proc.returncode, cmd, proc.stdout, proc.stderr)
    else:
        subprocess.run(cmd, check=True, cwd=ROOT)
    return Built(name, dist / name, time.perf_counter() - start)


def selftest(built: Built, timeout: float = 120) -> tuple[int, str, float]:
    """Run the bundle's --selftest offscreen: (exit code, output, seconds)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    start = time.perf_counter()
    proc = subprocess.run([str(built.executable), "--selftest"], env=env, timeout=timeout,
                          capture_output=True, text=True, encoding="utf-8", errors="replace")
    return proc.returncode, proc.stdout + proc.stderr, time.perf_counter() - start


def weigh(folder: Path, depth: int = 2) -> list[str]:
    """Where a bundle's bytes go: the biggest files and folders `depth` levels below
    _internal/ (or the bundle), biggest first, as 'NN.N MB  path' lines."""
    base = folder / "_internal" if (folder / "_internal").is_dir() else folder
    sizes: dict[str, int] = {}
    for p in base.rglob("*"):
        if not p.is_dir():
            key = "/".join(p.relative_to(base).parts[:depth])
            sizes[key] = sizes.get(key, 0) + p.lstat().st_size
    return [f"{n / 1e6:6.1f} MB  {k}" for k, n in sorted(sizes.items(), key=lambda kv: -kv[1])]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="installer/build.py", description=__doc__.splitlines()[0])
    which = p.add_mutually_exclusive_group()
    which.add_argument("--viewer", action="store_true", help="build the player viewer (default)")
    which.add_argument("--studio", action="store_true", help="build the GM studio")
    which.add_argument("--all", action="store_true", help="build both")
    p.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    p.add_argument("--work", type=Path, default=ROOT / "build",
                   help="PyInstaller's work folder (default build/); reuse it for faster rebuilds")
    p.add_argument("--check", action="store_true", help="run each bundle's --selftest afterwards")
    p.add_argument("--console", action="store_true",
                   help="Windows/macOS: give the viewer a console window (to read --selftest)")
    args = p.parse_args(argv)
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        print("PyInstaller is not installed: pip install 'realmsmith[installer]'", file=sys.stderr)
        return 2
    targets = ["viewer", "studio"] if args.all else ["studio"] if args.studio else ["viewer"]
    status = 0
    for target in targets:
        try:
            built = build(target, args.dist.resolve(), args.work.resolve(), args.console)
        except subprocess.CalledProcessError as e:
            print(f"{TARGETS[target]}: PyInstaller failed (exit {e.returncode})", file=sys.stderr)
            return 1
        mb = built.size_bytes() / 1e6
        print(f"{built.name}: built {built.folder} in {built.seconds:.0f} s, {mb:.0f} MB")
        if args.check:
            code, out, took = selftest(built)
            print(out.rstrip())
            print(f"{built.name}: --selftest exit {code} in {took:.2f} s")
            status = status or (1 if code else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
