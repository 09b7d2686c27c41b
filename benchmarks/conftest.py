"""Benchmarks: run on their own, never as part of the tests and never as timed asserts.

    python -m pytest benchmarks --benchmark-only -s

Figures that pytest-benchmark does not time (peak memory, counts) are collected with
`record(...)` and printed at the end of the session.
"""

from __future__ import annotations

import os

import pytest
from kok_games import kok_game  # noqa: F401  (generated King of Kings games, a fixture)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

FIGURES: list[str] = []


@pytest.fixture(scope="session")
def record():
    def add(line: str) -> None:
        FIGURES.append(line)
        print(line)
    return add


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("benchmark figures")
        for line in FIGURES:
            terminalreporter.write_line(line)
