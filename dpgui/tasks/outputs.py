"""The released values of a run, as a small table (what release.csv holds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dpgui.numbers import readable

if TYPE_CHECKING:
    from dpgui.data.domain import NumericDomain


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


def cdf_meaning(column: str, domain: NumericDomain | None = None) -> str:
    """What a released (value, cdf) row means: exact at every released value because CDF tasks snap
    values UP to the grid (``Snap.UP``), not to the nearest grid point.

    When the upper bound is not a grid point (bounds 0 and 100 at step 30: the grid ends at 90), the values
    above the last grid point have no grid point above them and count at the last one, so its row is the
    share of records <= the upper bound: the sentence says so instead of claiming <= 90.
    """
    meaning = (
        f"cdf = share of records with {column} <= value, at every released value (values between grid "
        "points count at the next grid point above; values outside the declared bounds count at the "
        "nearest bound)"
    )
    if domain is None:
        return meaning
    last = domain.value_of(domain.size - 1)
    if float(domain.upper) - float(last) <= 1e-9 * float(domain.granularity):
        return meaning
    return (
        f"{meaning}; the upper bound {readable(float(domain.upper))} is not a grid point, so values above "
        f"the last grid point {readable(float(last))} count at it: its row is the share of records with "
        f"{column} <= {readable(float(domain.upper))}"
    )
