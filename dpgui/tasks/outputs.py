"""The released values of a run, as a small table (what release.csv holds)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Attachment:
    """A further DP output exported beside release.csv and fingerprinted in the manifest
    (for example a released distance structure that answers queries later)."""

    file_name: str
    content: bytes = field(repr=False)


@dataclass(frozen=True)
class ReleaseTable:
    """Differentially private outputs only: never a raw value or a non-private statistic."""

    columns: tuple[str, ...]
    rows: tuple[tuple[float | int | str, ...], ...]
    notes: tuple[str, ...] = ()
    attachments: tuple[Attachment, ...] = ()
    meaning: str = ""
    """One sentence saying what the released numbers mean (the CSV's header comment, the manifest)."""

    def __post_init__(self) -> None:
        if any(len(row) != len(self.columns) for row in self.rows):
            raise ValueError("every row must have one value per column")

    def column(self, name: str) -> list[float | int | str]:
        i = self.columns.index(name)
        return [row[i] for row in self.rows]


def cdf_meaning(column: str) -> str:
    """What a released (value, cdf) row means: exact at every released value because CDF tasks snap
    values UP to the grid (``Snap.UP``), not to the nearest grid point."""
    return (
        f"cdf = share of records with {column} <= value, at every released value (values between grid "
        "points count at the next grid point above; values outside the declared bounds count at the "
        "nearest bound)"
    )
