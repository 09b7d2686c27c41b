"""Running a turn (or any long job on the game) off the GUI thread.

The worker opens its own GameService on the game file (a database connection belongs to
the thread that uses it) and calls service.run with a progress callback and a cancel
event. service.run is one transaction: a failure or a cancel leaves the game as it was,
so Cancel is safe at every progress point the service reports.
"""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QObject, QThread, Signal, Slot


class RunWorker(QObject):
    progress = Signal(float, str)
    finished = Signal(object)      # RunResult
    failed = Signal(str)           # why, in the service's words
    cancelled = Signal(str)

    def __init__(self, where: str, game: str | None = None, job=None):
        super().__init__()
        self.where = where
        self.game = game
        # job(service, progress, cancel_event) -> result; default: run the turn
        self.job = job or (lambda svc, progress, cancel: svc.run(progress, cancel))
        self.cancel_event = threading.Event()
        self.seconds = 0.0

    @Slot()
    def run(self) -> None:
        from engine.service import GameService, RunCancelled

        t0 = time.perf_counter()
        try:
            with GameService.open(self.where, self.game) as svc:
                result = self.job(svc, self.progress.emit, self.cancel_event)
        except RunCancelled as e:
            self.seconds = time.perf_counter() - t0
            self.cancelled.emit(str(e))
            return
        except Exception as e:  # noqa: BLE001 (every failure is shown to the GM)
            self.seconds = time.perf_counter() - t0
            self.failed.emit(str(e) or type(e).__name__)
            return
        self.seconds = time.perf_counter() - t0
        self.finished.emit(result)


class TurnRunner(QObject):
    """Owns the thread and the worker for one run at a time."""

    progress = Signal(float, str)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.thread: QThread | None = None
        self.worker: RunWorker | None = None
        self.seconds = 0.0  # how long the last run took in its thread
        self.kind = ""      # 'run' or 'export': what the running (or last) job is

    @property
    def running(self) -> bool:
        return self.thread is not None

    def start(self, where: str, game: str | None = None, job=None, kind: str = "run") -> None:
        if self.running:
            raise RuntimeError("a job is running already")
        self.kind = kind
        self.thread = QThread()
        self.worker = RunWorker(where, game, job)
        self.worker.moveToThread(self.thread)
        self.thread.started.connect(self.worker.run)
        self.worker.progress.connect(self.progress)
        for sig, out in ((self.worker.finished, self.finished), (self.worker.failed, self.failed),
                         (self.worker.cancelled, self.cancelled)):
            sig.connect(self._done)
            sig.connect(out)
        self.thread.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel_event.set()

    @Slot()
    def _done(self, *_args) -> None:
        thread, self.thread = self.thread, None
        if self.worker is not None:
            self.seconds = self.worker.seconds
        if thread is not None:
            thread.quit()
            thread.wait()
            thread.deleteLater()
        if self.worker is not None:
            self.worker.deleteLater()
            self.worker = None

    def wait(self) -> None:
        if self.thread is not None:
            self.thread.quit()
            self.thread.wait()
