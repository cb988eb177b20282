"""Shared fixtures: an isolated DPGUI_HOME for every test, a per-test time limit on demand, and small
private datasets on disk."""

from __future__ import annotations

import os
import re
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

settings.register_profile("dpgui", deadline=None, derandomize=True)
settings.load_profile("dpgui")
"""Property tests draw the same examples on every run (a failure reproduces; a pass is not luck) and are
never failed for their speed: Hypothesis' 200 ms deadline failed a domain test on a loaded 2-core machine."""

CANARY = 987_654.321
"""A value planted in private test data; it must never appear in any exported byte."""

_CANARY_AS_A_NUMBER = re.compile(
    r"(?<![\d.])987[,_ ]?654(?!\d)"  # 987654.321, 987654, 987,654 and their roundings
    r"|(?<![\d.])9\.87654\d*[eE]\+?0*5(?!\d)"  # 9.87654321e+05
)


def holds_canary(content: str | bytes) -> bool:
    """Whether `content` writes the CANARY as a number, in any usual format.

    A bare substring search for "987654" is wrong: a released fraction such as 80/81 = 0.98765432 holds
    those digits by chance, and made the export test fail at random.
    """
    text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
    return _CANARY_AS_A_NUMBER.search(text) is not None


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("dpgui-home")
    monkeypatch.setenv("DPGUI_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def time_limit() -> Iterator[None]:
    """With DPGUI_TEST_TIME_LIMIT=<seconds> set (tools/planted_errors.py sets it), a test that runs longer
    fails with TimeoutError: a planted error that makes the code loop (a wrong zCDP rho) counts as caught."""
    seconds = float(os.environ.get("DPGUI_TEST_TIME_LIMIT", "0"))
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"the test ran longer than DPGUI_TEST_TIME_LIMIT={seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def wages_csv(tmp_path: Path) -> Path:
    """A private table of 2,001 wages with one canary row, as CSV."""
    rng = np.random.default_rng(5)
    wages = np.round(rng.lognormal(6.2, 0.6, size=2000), 2)
    frame = pd.DataFrame({"wage": np.append(wages, CANARY), "education": rng.integers(0, 19, size=2001)})
    path = tmp_path / "wages.csv"
    frame.to_csv(path, index=False)
    return path
