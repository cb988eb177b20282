"""The one error type of the data layer, and the wording shared by its messages."""

from __future__ import annotations

from pathlib import Path

_SHOWN_CHARS = 40


class DataError(ValueError):
    """A problem with an input file or a declaration about it; the message says what to do."""


def shown(value: object) -> str:
    """A cell value as quoted in a message, truncated to 40 characters."""
    text = str(value)
    return repr(text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "...")


def cell_location(file_name: str, position: int, column: object) -> str:
    """'<file>, row <r>, column '<c>'' for the 0-based frame position ``position``.

    Rows are numbered 1-based over the data rows: the line in the file minus the header.
    """
    return f"{file_name}, row {position + 1}, column {str(column)!r}"


def refuse_non_file(path: Path) -> None:
    """Raise ``DataError`` for a path that exists but is not a regular file or folder (a named pipe, a
    socket, a device): reading one could wait forever for a writer."""
    if path.exists() and not path.is_file() and not path.is_dir():
        raise DataError(
            f"{path.name}: is not a regular file (a named pipe, socket or device), which dpgui cannot read "
            "or fingerprint; save the table to a file and open that"
        )


POSITIVE_FIELD = "the Task page's Positive label, --positive on the command line"
"""Where the positive label value is named, in words for the app and the command line alike (the app's
messages named the flag alone, a GUI audit found)."""
