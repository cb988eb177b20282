"""Argument types every command shares.

An ``ArgumentParser`` that reads negative numbers (``-1e3``, ``-.5``, ``-1_000``, ``-inf``) as values, not
options: argparse only recognises ``-5`` and ``-.5`` as numbers; ``--bounds -1e3 0`` was refused with
"expected 2 arguments", and ``--bounds=-1e3 0`` too, since an ``=`` attaches exactly one value. A path
argument that is never empty (``Path("")`` is the current folder).
"""

from __future__ import annotations

import argparse
import csv
import math
import re
from collections.abc import Sequence
from pathlib import Path

DIGITS = r"\d(?:_?\d)*"
"""Digits as Python's float() reads them, with single underscores between them (``1_000``)."""
NEGATIVE_NUMBER = re.compile(
    rf"^-({DIGITS}\.?(?:{DIGITS})?|\.{DIGITS})([eE][-+]?{DIGITS})?$|^-(inf|infinity|nan)$", re.IGNORECASE
)


class NumberFriendlyParser(argparse.ArgumentParser):
    """argparse with scientific and non-finite negative numbers as values (subparsers inherit it)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._negative_number_matcher = NEGATIVE_NUMBER


def split_negative_assignments(argv: Sequence[str]) -> list[str]:
    """``--bounds=-1e3`` becomes ``--bounds -1e3`` so that a following second value is taken too."""
    split: list[str] = []
    for token in argv:
        option, equals, value = token.partition("=")
        if token.startswith("--") and equals and NEGATIVE_NUMBER.match(value):
            split.extend((option, value))
        else:
            split.append(token)
    return split


def add_encoding_argument(parser: argparse.ArgumentParser, *, public: bool = False) -> None:
    """``--encoding`` (of ``--data``) or ``--public-encoding`` (of ``--public``): a declared text encoding,
    checked before anything is read (``text_format.declared_encoding``)."""

    def encoding(name: str) -> str:
        from dpgui.data.text_format import declared_encoding  # the data layer: only when the flag is given

        try:
            return declared_encoding(name)
        except ValueError as error:  # DataError
            raise argparse.ArgumentTypeError(str(error)) from error

    parser.add_argument(
        "--public-encoding" if public else "--encoding",
        type=encoding,
        metavar="CODEC",
        help=f"the text encoding of the {'--public' if public else '--data'} CSV/TSV file when it is not "
        "UTF-8 (e.g. cp1251, shift_jis); default: UTF-8, any other byte read as Windows-1252, cell by cell",
    )


def record_count(text: str) -> int:
    """A number of records as people write it: 28155, 1e9 or 1_000_000 (a whole number; an audit's
    ``--n 1e9`` was an argparse error)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of records, got {text!r}") from None
    if not (math.isfinite(value) and value.is_integer()):
        raise argparse.ArgumentTypeError(f"a whole number of records, got {text!r}")
    return int(value)


def given_path(text: str) -> Path:
    """A path argument: refused when empty, which ``Path`` reads as the current folder (``--out ''`` wrote a
    release into it, ``budget show --data ''`` looked up the folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; give a file or folder name")
    return Path(text)


def column_list(text: str) -> tuple[str, ...]:
    """``--columns`` / ``--features``: names separated by commas, read as one CSV line so that a quoted name
    may hold one (``'"pay, weekly",age'``); the tasks refuse a name given twice (``each_column_once``)."""
    names = tuple(name.strip() for name in next(csv.reader([text]), []) if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("no column named")
    return names
