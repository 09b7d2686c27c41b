"""A throwaway PostgreSQL server for the tests: initdb into a temporary folder, a server
listening on a Unix socket only (no TCP port), one scratch database, all removed at the end.

    with throwaway_postgres() as url:      # postgresql+psycopg://rs@/rstest?host=...&port=...
        ...

Uses the distribution's server binaries (Debian: the `postgresql` package, which
`python dev.py test` installs when run as root). initdb and the server refuse to run as
root, so as root they run as the `postgres` user. `unavailable()` says why a server cannot
be started here (the tests are skipped with that reason), or "" if it can.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

PORT = 54329  # only names the socket file: the server listens on no TCP port


def _bindir() -> Path | None:
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True).stdout.strip()
        if out and (Path(out) / "initdb").exists():
            return Path(out)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _run_as() -> tuple[int, int] | None:
    """(uid, gid) to run the server as when we are root; None when we are not root."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    import pwd

    u = pwd.getpwnam("postgres")
    return u.pw_uid, u.pw_gid


def unavailable() -> str:
    if os.name != "posix":
        return "the throwaway PostgreSQL server needs a POSIX system"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return 'the PostgreSQL driver is missing (pip install "psycopg[binary]")'
    if _bindir() is None:
        return "no PostgreSQL server installed (Debian: apt-get install postgresql)"
    try:
        _run_as()
    except KeyError:
        return "running as root and there is no `postgres` user to run the server as"
    return ""


def _call(cmd: list[str], who: tuple[int, int] | None, **kw) -> subprocess.CompletedProcess:
    def drop() -> None:
        if who is not None:
            os.setgid(who[1])
            os.setuid(who[0])

    return subprocess.run(cmd, capture_output=True, text=True, preexec_fn=drop, timeout=120,
                          env={**os.environ, "LC_ALL": "C"}, **kw)


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    why = unavailable()
    if why:
        raise RuntimeError(why)
    bindir, who = _bindir(), _run_as()
    assert bindir is not None
    root = Path(tempfile.mkdtemp(prefix="rs-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    os.chmod(root, 0o755)
    if who is not None:
        for p in (root, sock):
            os.chown(p, *who)
    started = False
    try:
        r = _call([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "rs",
                   "-E", "UTF8", "--locale=C", "--no-sync"], who)
        if r.returncode != 0:
            raise RuntimeError(f"initdb failed: {r.stderr.strip() or r.stdout.strip()}")
        opts = f"-p {PORT} -k {sock} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        r = _call([str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(root / "log"),
                   "-w", "-t", "60", "start"], who)
        if r.returncode != 0:
            log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
            raise RuntimeError(f"the server did not start: {r.stderr.strip()} {log[-2000:]}")
        started = True
        import psycopg

        for _ in range(50):
            try:
                with psycopg.connect(host=str(sock), port=PORT, user="rs", dbname="postgres",
                                     autocommit=True) as c:
                    c.execute("CREATE DATABASE rstest")
                break
            except psycopg.OperationalError:
                time.sleep(0.1)
        yield f"postgresql+psycopg://rs@/rstest?host={sock}&port={PORT}"
    finally:
        if started:
            _call([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], who)
        shutil.rmtree(root, ignore_errors=True)
