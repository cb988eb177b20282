"""Invariants of the layering: the core never imports Qt, and private randomness has one source."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dpgui"
QT_IMPORT = re.compile(r"^\s*(from|import)\s+(PySide6|pyqtgraph|superqt|shiboken6)\b", re.MULTILINE)
GLOBAL_NUMPY_RANDOM = re.compile(
    r"np\.random\.(seed|rand|randn|randint|random|normal|laplace|choice|uniform|exponential|gumbel|default_rng)\("
)


def python_files(*exclude: str) -> list[Path]:
    return [
        p for p in PACKAGE.rglob("*.py") if not any(p.relative_to(PACKAGE).parts[0] == e for e in exclude)
    ]


def test_core_modules_do_not_import_qt():
    offenders = [str(p) for p in python_files("ui", "jobs") if QT_IMPORT.search(p.read_text())]
    assert offenders == []


def test_no_module_draws_from_numpy_global_random_state():
    offenders = [str(p) for p in python_files() if GLOBAL_NUMPY_RANDOM.search(p.read_text())]
    assert offenders == []


def test_only_the_random_module_creates_generators_or_reads_os_entropy():
    allowed = PACKAGE / "privacy" / "random.py"
    pattern = re.compile(r"np\.random\.Generator\(|os\.urandom|\bsecrets\.")
    offenders = [str(p) for p in python_files() if p != allowed and pattern.search(p.read_text())]
    assert offenders == []
