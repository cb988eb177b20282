"""Exported text as UTF-8 bytes, whatever the command line handed in."""

from __future__ import annotations


def utf8(text: str) -> bytes:
    """``text`` encoded as UTF-8, a lone surrogate written as its escape (``\\udcff``).

    Python reads a command-line byte that is not UTF-8 (a file named ``\\xff.csv``, a ``--positive`` or
    ``--categories`` value typed in another code page) as a lone surrogate, which strict UTF-8 refuses: a
    fuzzed release was charged, then failed writing its report. The escape keeps the file valid UTF-8 and
    says which byte it was."""
    return text.encode("utf-8", "backslashreplace")


def escaped(text: str) -> str:
    """``text`` with any lone surrogate written as its escape: a string every UTF-8 writer accepts
    (pyarrow's Parquet strings, which ``utf8`` cannot reach)."""
    return utf8(text).decode("utf-8")
