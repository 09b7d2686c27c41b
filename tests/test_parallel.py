"""engine.parallel: a job shared with forked copies gives what one process gives, in the
same order; what goes wrong in a copy is raised here. Forking is tried in a fresh
interpreter (a test process may have Qt and its threads loaded, where the engine never
forks)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from engine import parallel

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")


def _probe(body: str, env: dict[str, str] | None = None) -> dict:
    code = "import json, os, sys\nfrom engine.parallel import *\n" + textwrap.dedent(body)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **(env or {})})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_shared_job_gives_the_serial_results_made_by_several_processes():
    got = _probe("""
        def f(x):
            return [x * x, os.getpid()]
        res = fork_map(f, range(200), procs=3, least=10)
        print(json.dumps({"values": [v for v, _ in res], "pids": sorted({p for _, p in res}),
                          "me": os.getpid()}))
    """)
    assert got["values"] == [x * x for x in range(200)]
    assert len(got["pids"]) == 3 and got["me"] in got["pids"]


def test_left_to_the_copies_this_process_makes_only_the_warm_items():
    got = _probe("""
        def f(x):
            return os.getpid()
        with Shared(f, range(100), procs=2, least=10, here=False) as job:
            n = job.copies
            res = job.results()
        print(json.dumps({"copies": n, "me": os.getpid(), "first": res[0],
                          "rest": sorted(set(res[1:]))}))
    """)
    assert got["copies"] == 2 and got["first"] == got["me"]
    assert len(got["rest"]) == 2 and got["me"] not in got["rest"]


def test_an_exception_in_a_copy_is_raised_here():
    got = _probe("""
        def f(x):
            if x == 150 and in_copy():
                raise ValueError(f"item {x} is bad")
            return x
        try:
            fork_map(f, range(200), procs=2, least=10)
            print(json.dumps({"raised": None}))
        except ValueError as e:
            print(json.dumps({"raised": str(e)}))
    """)
    assert got["raised"] == "item 150 is bad"


def test_a_copy_that_dies_is_reported_not_taken_for_results():
    got = _probe("""
        def f(x):
            if x == 150 and in_copy():
                os._exit(3)
            return x
        try:
            fork_map(f, range(200), procs=2, least=10)
            print(json.dumps({"raised": None}))
        except CopyFailed as e:
            print(json.dumps({"raised": str(e)}))
    """)
    assert got["raised"] and "without its results" in got["raised"]


def test_what_only_the_parent_can_do_is_done_here():
    got = _probe("""
        def f(x):
            if x == 190 and in_copy():
                raise NeedsParent()
            return [x, os.getpid()]
        res = fork_map(f, range(200), procs=2, least=10)
        print(json.dumps({"values": [v for v, _ in res], "me": os.getpid(),
                          "last": sorted({p for v, p in res if v >= 101})}))
    """)
    assert got["values"] == list(range(200))
    assert got["last"] == [got["me"]]  # the copy's whole share, done again here


def test_abandoned_copies_are_stopped_and_reaped():
    got = _probe("""
        import time
        def f(x):
            if in_copy():
                time.sleep(60)
            return x
        job = Shared(f, range(100), procs=2, least=10, here=False)
        pids = [p for p, _fd, _c in job._copies]
        t = time.monotonic()
        job.abandon()
        gone = []
        for p in pids:
            try:
                os.kill(p, 0)
                gone.append(False)
            except ProcessLookupError:
                gone.append(True)
        print(json.dumps({"gone": gone, "quick": time.monotonic() - t < 30}))
    """)
    assert got["gone"] == [True, True] and got["quick"]


def test_a_small_job_or_one_worker_stays_in_this_process():
    got = _probe("""
        res = fork_map(lambda x: os.getpid(), range(10))
        print(json.dumps({"pids": sorted(set(res)), "me": os.getpid(), "n": workers()}))
    """, env={"REALMSMITH_WORKERS": "1"})
    assert got["pids"] == [got["me"]] and got["n"] == 1


def test_workers_forbids_forking_beside_a_thread_or_qt(monkeypatch):
    monkeypatch.setenv("REALMSMITH_WORKERS", "2")
    if "PySide6" not in sys.modules:
        assert parallel.workers() == 2
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert parallel.workers() == 1  # a thread's locks would stay held in the copy
    finally:
        stop.set()
        t.join()
    monkeypatch.setitem(sys.modules, "PySide6", sys.modules.get("PySide6", object()))
    assert parallel.workers() == 1
    monkeypatch.setenv("REALMSMITH_WORKERS", "x")
    assert parallel.workers() == 1
