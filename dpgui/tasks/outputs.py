"""The released values of a run, as a small table (what release.csv holds)."""

from __future__ import annotations

from collections.abc import Callable
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


def beyond_last_grid_point(domain: NumericDomain, consequence: Callable[[str], str]) -> str:
    """When the declared upper bound is not a grid point (bounds 0 and 1000 at step 3: the grid ends at
    999), the sentence saying that the values above the last grid point count at it, ending in
    ``consequence`` of the readable upper bound (what that means for the released row or value); '' when
    the upper bound is a grid point. Every task that grids a column says it this way (``*_meaning``)."""
    last = domain.value_of(domain.size - 1)
    if domain.binned or float(domain.upper) - float(last) <= 1e-9 * float(domain.granularity):
        return ""  # bins cover the bounds to their upper edge
    upper = readable(float(domain.upper))
    return (
        f"the upper bound {upper} is not a grid point, so values above the last grid point "
        f"{readable(float(last))} count at it: {consequence(upper)}"
    )


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
    beyond = beyond_last_grid_point(
        domain, lambda upper: f"its row is the share of records with {column} <= {upper}"
    )
    return f"{meaning}; {beyond}" if beyond else meaning


def histogram_meaning(column: str, domain: NumericDomain) -> str:
    """What a numeric histogram's (value, count) row counts: the records whose value is nearest to it
    (``Snap.NEAREST``), the first and last rows also those outside the declared bounds (clipped); and, when
    the upper bound is not a grid point, that the last row also counts the records above it."""
    meaning = (
        f"count = records whose {column} is nearest to value; the first and last rows also count the "
        "records below and above the declared bounds (clipped to them)"
    )
    beyond = beyond_last_grid_point(
        domain, lambda upper: f"its row also counts the records above it, up to {upper}"
    )
    return f"{meaning}; {beyond}" if beyond else meaning


def quantile_meaning(column: str, domain: NumericDomain) -> str:
    """What a released quantile, median or interior point stands for: a grid point, at which the records
    nearest to it count, the first and last also the records outside the declared bounds (clipped); and,
    when the upper bound is not a grid point, the values above the last grid point too."""
    meaning = (
        f"values are grid points of {column}: a record counts at its nearest grid point, and one outside the "
        "declared bounds at the first or last, so a value released there may stand for values beyond the "
        "bounds"
    )
    beyond = beyond_last_grid_point(
        domain, lambda upper: f"a value released at it may stand for any {column} above it"
    )
    return f"{meaning}; {beyond}" if beyond else meaning


def statistic_table(statistic: str, column: str, domain: NumericDomain, value: object) -> ReleaseTable:
    """One released point of a gridded column (a median, an interior point) as a (statistic, column, value)
    row, saying what a value at the last grid point stands for (``quantile_meaning``)."""
    what = (
        f"an interior point is a value between the smallest and the largest {column} of the records; "
        if statistic == "interior point"
        else ""
    )
    return ReleaseTable(
        ("statistic", "column", "value"),
        ((statistic, column, value),),
        meaning=what + quantile_meaning(column, domain),
    )
