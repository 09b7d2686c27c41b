"""Independent pieces of one job shared between this process and forked copies of it.

A turn's reports (one a faction) and an import's checks (one an orders set) depend only on
the state read before them: on a 2-core machine a copy of the process made by fork() does
half of them while this process does the other half. Only where fork is safe: Linux, no
other thread running (a lock held by a thread at the fork stays held in the copy forever),
no Qt loaded. Elsewhere, and for small jobs, everything runs here as before. A copy only
computes and sends its results back through a pipe; it writes no file and touches no
database connection, and leaves with os._exit (nothing of the parent's is torn down).
The results are the same as one process's, in the same order: every caller's function
depends on its item alone (tests/test_parallel.py runs jobs both ways and compares).

REALMSMITH_WORKERS=1 turns it off; =N: N processes (default: one a core, at most 4).
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MOST = 4  # processes: beyond this, copying the state costs more than the cores give


def workers() -> int:
    """How many processes may share a job here and now (1: this one alone)."""
    env = os.environ.get("REALMSMITH_WORKERS", "").strip()
    try:
        wanted = int(env) if env else MOST
    except ValueError:
        wanted = 1
    if wanted <= 1 or not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return 1
    if threading.active_count() > 1 or "PySide6" in sys.modules or _in_copy:
        return 1
    if env:  # asked for: as asked (a test on a one-core machine forks too)
        return min(wanted, MOST)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MOST))


_in_copy = False  # a forked copy never forks again


def in_copy() -> bool:
    """True in a forked copy: it says nothing (progress) and only computes."""
    return _in_copy


class CopyFailed(RuntimeError):
    """A forked copy died without sending its results (killed, out of memory)."""


class NeedsParent(Exception):  # noqa: N818 - a request, not an error
    """Raised in a copy by what only the parent can do (read from its open database): the
    parent does that copy's share itself."""


def fork_map(fn: Callable[[T], R], items: Sequence[T], *, least: int = 64, warm: int = 1,
             procs: int | None = None) -> list[R]:
    """[fn(x) for x in items], shared with forked copies when the job is big enough
    (`least` items) and workers() allows (Shared)."""
    return Shared(fn, items, least=least, warm=warm, procs=procs).results()


class Shared(Generic[T, R]):
    """[fn(x) for x in items] begun at once in forked copies; results() gathers them.

    The first `warm` items run here before the fork, so what they build and cache (an
    index of the state) is shared, not built again in every copy. With here=True this
    process takes a share too when results() is asked for; with here=False it leaves all
    of it to the copies and is free for other work meanwhile (a turn saves its state while
    its reports are made). A job smaller than `least` items, or where workers() says 1, is
    done here, all of it, in results(). An exception fn raises in a copy is raised here
    (the first share's first); a copy that dies raises CopyFailed."""

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], *, least: int = 64,
                 warm: int = 1, procs: int | None = None, here: bool = True) -> None:
        self._fn = fn
        n = workers() if procs is None else procs
        items = list(items)
        self._done: list[R] = []
        self._mine: list[T] = items
        self._copies: list[tuple[int, int, list[T]]] = []  # (pid, read end, share)
        self._received: list[list[bytes]] = []
        self._readers: list[threading.Thread] = []
        if n <= 1 or len(items) < max(least, 2):
            return
        self._done = [fn(x) for x in items[:warm]]
        rest = items[warm:]
        size = -(-len(rest) // n)
        chunks = [rest[i:i + size] for i in range(0, len(rest), size)]
        self._mine = chunks.pop(0) if here else []
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            for chunk in chunks:
                pid, fd = _fork(fn, chunk)
                self._copies.append((pid, fd, chunk))
            self._received = [[] for _ in self._copies]
            self._readers = [threading.Thread(target=_drain, args=(fd, got), daemon=True)
                             for (_pid, fd, _c), got in zip(self._copies, self._received, strict=True)]
            for t in self._readers:
                t.start()
        except BaseException:
            self.abandon()
            raise

    def __enter__(self) -> Shared[T, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abandon()  # results() taken: nothing left; else the copies are not wanted

    @property
    def copies(self) -> int:
        """How many forked copies share the job (0: all of it is done here)."""
        return len(self._copies)

    def results(self) -> list[R]:
        try:
            out = self._done + [self._fn(x) for x in self._mine]
            for t in self._readers:
                t.join()
        except BaseException:
            self.abandon()
            raise
        copies, self._copies = self._copies, []
        failed: BaseException | None = None
        for (pid, fd, chunk), got in zip(copies, self._received, strict=True):
            os.close(fd)
            _pid, status = os.waitpid(pid, 0)
            data = b"".join(got)
            if failed is not None:
                continue
            if not data or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
                failed = CopyFailed(f"a copy of this process sharing the work ended without "
                                    f"its results (status {status}); nothing of it was used")
                continue
            ok, value = pickle.loads(data)
            if ok:
                out += value
            elif isinstance(value, NeedsParent):
                out += [self._fn(x) for x in chunk]
            else:
                failed = value
        if failed is not None:
            raise failed
        return out

    def abandon(self) -> None:
        """Stop the copies (the job is not wanted any more, or this process failed)."""
        copies, self._copies = self._copies, []
        for pid, _fd, _c in copies:
            _kill(pid)
        for t in self._readers:  # the copies are gone: their pipes are at their end
            if t.ident is not None:
                t.join()
        for _pid, fd, _c in copies:
            os.close(fd)


def _fork(fn: Callable[[T], R], chunk: list[T]) -> tuple[int, int]:
    """(pid, read end of the pipe) of a copy that computes fn over chunk."""
    r, w = os.pipe()
    pid = os.fork()
    if pid:
        os.close(w)
        return pid, r
    # the copy: compute, send, leave at once
    global _in_copy
    _in_copy = True
    code = 0
    try:
        os.close(r)
        gc.disable()  # a collection would touch (and so copy) every page of the state
        try:
            data = pickle.dumps((True, [fn(x) for x in chunk]), pickle.HIGHEST_PROTOCOL)
        except BaseException as e:  # noqa: BLE001 - sent to the parent, which raises it
            try:
                data = pickle.dumps((False, e), pickle.HIGHEST_PROTOCOL)
            except Exception:  # noqa: BLE001 - an exception that does not pickle
                data = pickle.dumps((False, RuntimeError(f"{type(e).__name__}: {e}")))
        view = memoryview(data)
        while view:
            view = view[os.write(w, view):]
        os.close(w)
    except BaseException:  # noqa: BLE001 - never return into the parent's code
        code = 1
    finally:
        os._exit(code)


def _drain(fd: int, into: list[bytes]) -> None:
    while True:
        block = os.read(fd, 1 << 20)
        if not block:
            return
        into.append(block)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
