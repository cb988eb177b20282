"""The hand-written reading of a benchmark's output file, which a rerun keeps below its regenerated tables."""

from __future__ import annotations

from pathlib import Path

READING = "## Reading"
"""The heading the hand-written part of an output file starts at."""


def kept_reading(path: Path) -> str:
    """The part of an earlier output from its "## Reading" heading on ("" when there is none)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    start = text.find(READING)
    return text[start:] if start >= 0 else ""
