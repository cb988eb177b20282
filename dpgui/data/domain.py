"""Declared value domains: the grid a numeric column is snapped to, and declared category lists.

Privacy: a domain is public. Its bounds and granularity are declared by the user, or suggested by
``suggest_domain`` from a *public* sample, and never read off the private data.
"""

from __future__ import annotations

import csv
import enum
import math
import operator
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from dpgui.data.errors import DataError, cell_location, shown

if TYPE_CHECKING:  # pandas is imported where cells are read, so planning with domains does not load it
    import pandas as pd

MAX_GRID_SIZE = 1 << 64
"""The largest number of grid points a numeric domain may have (indices are uint64)."""

EXACT_FLOAT_LIMIT = 1 << 53
"""Beyond this many grid points a domain needs whole-number bounds and granularity 1 (exact integers)."""

_TOLERANCE = 1e-9
_INT64_MIN = -(1 << 63)
_INT64_END = 1 << 63
_NICE_MANTISSAS = (1, 2, 5)
SUGGESTED_INTERVALS = 1000
"""Intervals a public sample suggests for a numeric column by default (a CDF's or a quantile's grid)."""
_SUGGESTED_PADDING = 0.1
UNDECLARED_CATEGORY_HINT = "add it to the category list or count undeclared values as 'other'"
"""What to do about a cell outside the declared categories (the refusal's advice, wherever it is raised)."""
TABLE_SUGGESTED_INTERVALS = 32
"""Intervals a public sample suggests for a numeric column of a synthetic table: a pair's cells multiply,
so a table wants tens of cells per column, not the thousand a CDF wants (the demo benchmark uses 30)."""
_MIN_RELATIVE_SPAN = 1e-6
_MIN_SPAN = 1e-100


def _integral(value: float) -> bool:
    return isinstance(value, int) or float(value).is_integer()


def _finite(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def _round_half_up(steps: np.ndarray) -> None:
    """Round ``steps`` (>= 0) in place to the nearest whole number, halves up. Not ``floor(x + 0.5)``,
    which past 2^52 rounds the sum itself (2^52 + 1 would become 2^52 + 2)."""
    whole = np.floor(steps)
    steps -= whole  # the fractional part, exact
    np.greater_equal(steps, 0.5, out=steps, casting="unsafe")
    steps += whole


class Snap(enum.Enum):
    """How a value between two grid points is encoded."""

    NEAREST = "nearest"
    """To the nearest grid point, a value halfway between two going up (the cell of a point p is
    [p - step/2, p + step/2)): the default, least distortion. Ties to even, as ``np.rint`` breaks them,
    sent whole numbers on a grid of step 2 alternately down and up (1 to 0, 3 to 4, 5 to 4, 7 to 8): a
    sawtooth the data does not have."""
    UP = "up"
    """To the smallest grid point >= the value (ceil), so that the count of indices <= i is exactly the
    count of values <= grid point i: what a CDF released at the grid points must mean."""


@dataclass(frozen=True)
class NumericDomain:
    """The grid ``lower + i * granularity`` for ``i = 0 .. size - 1``.

    ``size = floor((upper - lower) / granularity + 1e-9) + 1``, so the last grid point may fall short of
    ``upper`` (by less than one granularity) when the range is not a multiple of the granularity; values
    between the last point and ``upper`` snap to the last point. When ``lower``, ``upper`` and
    ``granularity`` are all whole numbers the size is computed exactly with Python ints.

    A domain has at most 2^64 points. Beyond 2^53 points floats cannot tell neighbouring points apart,
    so such a domain needs a whole-number ``lower``, granularity 1 and all points within the int64 or
    the uint64 range; its indices are then converted exactly (``from_grid``, ``value_of``).

    ``snap`` says how ``to_grid`` encodes a value between grid points; it is not part of the declaration
    (equality and hashing ignore it): a task sets it, as CDF tasks set ``Snap.UP``.

    ``unit`` is the declared unit of the values ("USD", "years"; empty when none is declared): a label for
    axes, tables and the manifest, which changes no count (equality and hashing ignore it too).

    ``binned``: the grid points are instead the middles of ``size`` equal bins of width ``granularity``
    covering [lower, upper], each holding the values from its lower edge up to the next bin's (the last one
    its upper edge too): what a synthetic table's ``"bins": m`` declares, so that its m released values
    each lie inside their bin (the points ``lower + i * step`` gave m + 1 values, the bounds among them,
    each standing for half of two bins). ``snap`` does not apply to it.
    """

    lower: float
    upper: float
    granularity: float
    snap: Snap = field(default=Snap.NEAREST, compare=False)
    unit: str = field(default="", compare=False)
    binned: bool = False

    def __post_init__(self) -> None:
        for name in ("lower", "upper", "granularity"):
            value = getattr(self, name)
            if not _finite(value):
                raise DataError(f"domain {name} must be a finite number, got {value!r}")
        if not self.lower < self.upper:
            raise DataError(f"domain lower bound {self.lower!r} must be below the upper bound {self.upper!r}")
        if not self.granularity > 0:
            raise DataError(f"domain granularity must be > 0, got {self.granularity!r}")
        object.__setattr__(self, "unit", checked_unit(self.unit))
        if not math.isfinite((float(self.upper) - float(self.lower)) / float(self.granularity)):
            raise DataError("the domain has far too many grid points; use a coarser granularity")
        if self.size > MAX_GRID_SIZE:
            raise DataError(
                f"the domain has about 10^{len(str(self.size)) - 1} grid points, more than 2^64; "
                "use a coarser granularity or tighter bounds"
            )
        if self.size > EXACT_FLOAT_LIMIT and not self._exact_integers():
            raise DataError(
                f"a domain of more than 2^53 grid points ({self.size}) needs a whole-number lower bound, "
                "granularity 1 and all points within the 64-bit integer range"
            )

    def _exact_integers(self) -> bool:
        if self.binned or not (_integral(self.lower) and self.granularity == 1):
            return False
        lower, top = int(self.lower), int(self.lower) + self.size - 1
        return (lower >= 0 and top < MAX_GRID_SIZE) or (lower >= _INT64_MIN and top < _INT64_END)

    @cached_property
    def size(self) -> int:
        """Number of grid points (a Python int, up to 2^64); of bins when ``binned`` (at least one)."""
        points = 0 if self.binned else 1
        if _integral(self.lower) and _integral(self.upper) and _integral(self.granularity):
            return max(1, (int(self.upper) - int(self.lower)) // int(self.granularity) + points)
        steps = (float(self.upper) - float(self.lower)) / float(self.granularity)
        return max(1, math.floor(steps + _TOLERANCE) + points)

    def grid_words(self) -> str:
        """'step 100 (31 grid points)', or for a binned domain '30 bins of 100 (a value at each middle)'."""
        if self.binned:
            return f"{self.size:,} bins of {self.granularity:g} (a value at each middle)"
        return f"step {self.granularity:g} ({self.size:,} grid points)"

    @property
    def whole_points(self) -> bool:
        """Whether every grid point is a whole number (bounds and step whole; a bin's middle too)."""
        first = float(self.lower) + (float(self.granularity) / 2 if self.binned else 0.0)
        return _integral(first) and _integral(self.granularity)

    @property
    def bits(self) -> int:
        """ceil(log2(size)): bits needed to name a grid point."""
        return (self.size - 1).bit_length()

    def snapped_up(self) -> NumericDomain:
        """The same grid encoding values up to the next grid point (``Snap.UP``)."""
        return replace(self, snap=Snap.UP)

    def to_grid(self, values: np.ndarray) -> np.ndarray:
        """uint64 grid indices: values are clipped to [lower, upper] and rounded to the nearest point
        (``Snap.NEAREST``) or up to the next point (``Snap.UP``; within 1e-9 of a step counts as on it).

        Values above the last grid point map to it. NaN is refused (ValueError): apply the missing-value
        policy first. Monotone: x <= y implies to_grid(x) <= to_grid(y).
        """
        x = np.asarray(values, dtype=np.float64)
        if np.isnan(x).any():
            raise ValueError("to_grid got NaN; apply the missing-value policy before gridding")
        lower = float(self.lower)
        steps = np.maximum(x, lower)  # np.maximum/np.minimum: several times faster than np.clip
        np.minimum(steps, float(self.upper), out=steps)
        steps -= lower
        steps /= float(self.granularity)
        if self.binned:  # the bin holding the value; an edge within 1e-9 steps below counts as reached
            steps += _TOLERANCE
            np.floor(steps, out=steps)
        elif self.snap is Snap.UP:
            steps -= _TOLERANCE
            np.ceil(steps, out=steps)
            np.maximum(steps, 0.0, out=steps)
        else:
            _round_half_up(steps)
        top = self.size - 1
        if top < EXACT_FLOAT_LIMIT:  # then int64 holds every index and converts faster than uint64
            return np.minimum(steps, float(top), out=steps).astype(np.int64).view(np.uint64)
        at_top = steps >= float(top)  # float(top) may round up to 2^64, which uint64 cannot hold
        steps[at_top] = 0.0
        indices = steps.astype(np.uint64)
        indices[at_top] = top
        return indices

    def _checked_indices(self, indices: np.ndarray | Iterable[int]) -> np.ndarray:
        if isinstance(indices, np.ndarray):
            if indices.dtype.kind not in "iu":
                raise ValueError(f"grid indices must be integers, got dtype {indices.dtype}")
            if indices.dtype.kind == "i" and indices.size and indices.min() < 0:
                raise ValueError("grid indices must be >= 0")
            checked = indices.astype(np.uint64)
        else:
            try:
                checked = np.array([operator.index(i) for i in indices], dtype=np.uint64)
            except OverflowError as exc:
                raise ValueError("grid indices must lie in [0, 2^64)") from exc
        if checked.size and checked.max() > np.uint64(self.size - 1):
            raise ValueError(f"grid index {int(checked.max())} is outside [0, {self.size - 1}]")
        return checked

    def from_grid(self, indices: np.ndarray | Iterable[int]) -> np.ndarray:
        """float64 values of grid points (an integer array, or Python ints up to 2^64 - 1).

        For domains beyond 2^53 points the sum ``lower + index`` is formed exactly in 64-bit integers and
        rounded to float64 once.
        """
        checked = self._checked_indices(indices)
        if self.binned:
            return float(self.lower) + (checked.astype(np.float64) + 0.5) * float(self.granularity)
        if self.size <= EXACT_FLOAT_LIMIT:
            return float(self.lower) + checked.astype(np.float64) * float(self.granularity)
        exact = checked + np.uint64(int(self.lower) % MAX_GRID_SIZE)  # wraps modulo 2^64 on purpose
        return (exact if self.lower >= 0 else exact.view(np.int64)).astype(np.float64)

    def value_of(self, index: int) -> float | int:
        """The value of one grid point; an exact Python int when the points are whole (``whole_points``)."""
        index = operator.index(index)
        if not 0 <= index < self.size:
            raise ValueError(f"grid index {index} is outside [0, {self.size - 1}]")
        if self.whole_points:  # the lower bound as an int: exact past 2^53
            first = int(float(self.lower) + float(self.granularity) / 2) if self.binned else int(self.lower)
            return first + index * int(self.granularity)
        return float(self.plain_values(np.array([index], dtype=np.uint64))[0])

    def values_of(self, indices: np.ndarray | Iterable[int]) -> list[float | int]:
        """Grid values of many indices (for tables): exact ints on whole-number grids, floats written
        plainly otherwise (``plain_values``)."""
        if self.whole_points:
            return [self.value_of(int(i)) for i in indices]
        return self.plain_values(
            np.asarray(list(indices) if not isinstance(indices, np.ndarray) else indices, dtype=np.uint64)
        ).tolist()

    def plain_values(self, indices: np.ndarray) -> np.ndarray:
        """float64 grid points as a person writes them, for released tables: lower + k * step gives
        0.30000000000000004 for 0.3 and 0.35000000000000003 for 0.35. Each point is rounded to ten decimal
        places finer than the step, kept only where that stays within 1e-9 steps of the point, inside the
        bounds and in the same cell (``to_grid`` gives its index back); otherwise the point is left as is."""
        checked = self._checked_indices(indices)
        grid = self.from_grid(checked)
        step = float(self.granularity)
        decimals = min(17, max(0, 10 - math.floor(math.log10(step))))
        plain = np.clip(np.round(grid, decimals), float(self.lower), float(self.upper))
        same = (np.abs(plain - grid) <= 1e-9 * step) & (self.to_grid(plain) == checked)
        return np.where(same, plain, grid)


def _nice(target: float, *, at_least: bool) -> float:
    """The smallest (at_least) or largest 1, 2 or 5 times a power of ten on the given side of target."""
    exponent = math.floor(math.log10(target))
    candidates = sorted(
        float(Decimal(mantissa).scaleb(power))
        for power in (exponent - 1, exponent, exponent + 1)
        for mantissa in _NICE_MANTISSAS
    )
    if at_least:
        return min(c for c in candidates if c >= target)
    return max(c for c in candidates if c <= target)


def _multiple(count: int, unit: float) -> float:
    """count * unit formed in decimal, so that 3 * 0.1 is 0.3."""
    return float(Decimal(count) * Decimal(repr(unit)))


def _outward(low: float, high: float, unit: float) -> tuple[float, float]:
    """[low, high] widened to multiples of unit (and to one unit at least)."""
    below = math.floor(low / unit + _TOLERANCE)
    if _multiple(below, unit) > low:
        below -= 1
    above = max(math.ceil(high / unit - _TOLERANCE), below + 1)
    if _multiple(above, unit) < high:
        above += 1
    return _multiple(below, unit), _multiple(above, unit)


def _padded(low: float, high: float, pad: float) -> tuple[float, float]:
    """[low - pad, high + pad], without crossing zero where the sample does not."""
    lower, upper = low - pad, high + pad
    if low >= 0:
        lower = max(lower, 0.0)
    if high <= 0:
        upper = min(upper, 0.0)
    return lower, upper


def suggest_domain(
    public_values: np.ndarray, granularity: float | None = None, *, intervals: int = SUGGESTED_INTERVALS
) -> NumericDomain:
    """Propose a domain covering a PUBLIC sample. Never call this on the private data.

    Reading bounds off the private data would leak it (the released grid would reveal its minimum and
    maximum). A sample rarely holds the population's extremes, so its finite min and max are first
    padded by a tenth of their span on each side (never across zero: a sample of non-negative values keeps
    a lower bound >= 0), then rounded outward to a "nice" number (a multiple of a tenth of the sample's
    order of magnitude). Without ``granularity``, a sample of whole numbers (padded, up to 2^20 apart) keeps
    granularity 1, so a whole-number column stays whole; otherwise the step is the largest 1, 2 or 5
    times a power of ten giving at least ``intervals`` intervals (by default 1,000: 1,001 to 2,501 grid
    points). With fewer ``intervals`` (a synthetic table's TABLE_SUGGESTED_INTERVALS), whole numbers keep
    granularity 1 only up to 4 x ``intervals`` of them. The bounds are multiples of the step, so the last
    grid point is the upper bound.
    """
    sample = np.asarray(public_values, dtype=np.float64)
    sample = sample[np.isfinite(sample)]
    if sample.size == 0:
        raise DataError("the public sample has no finite values; declare the domain bounds by hand")
    low, high = float(sample.min()), float(sample.max())
    if high > low:  # a span far below the values' magnitude would need a step floats cannot resolve
        span = max(high - low, _MIN_RELATIVE_SPAN * max(abs(low), abs(high)), _MIN_SPAN)
    else:
        span = max(abs(low), 1.0)
    unit = 10.0 ** (math.floor(math.log10(span)) - 1)
    low, high = _padded(low, high, _SUGGESTED_PADDING * span)
    whole = bool(np.all(sample == np.round(sample)))
    whole_span = DEFAULT_INTEGER_SPAN if intervals >= SUGGESTED_INTERVALS else 4 * intervals
    if granularity is None and whole and high - low <= whole_span:
        granularity = 1.0
    if granularity is None:
        lower, upper = _outward(low, high, unit)
        return NumericDomain(lower, upper, _nice((upper - lower) / intervals, at_least=False))
    if not (_finite(granularity) and granularity > 0):
        raise DataError(f"domain granularity must be a finite number > 0, got {granularity!r}")
    step = _multiple(1, granularity) * _nice(max(unit / granularity, 1.0), at_least=True)
    lower, upper = _outward(low, high, step)
    return NumericDomain(lower, upper, granularity)


DEFAULT_INTEGER_SPAN = 1 << 20
DEFAULT_POINTS = 10_000
DEFAULT_MIN_WHOLE_POINTS = 1000
"""Granularity 1 by default only when the bounds hold at least this many whole numbers."""


MIN_STEP_ULPS = 4
"""A grid step spans at least this many float64 spacings at the bounds' magnitude, so every grid point is
its own number (an audit: [1e15, 1e15 + 0.25] at step 2e-5 released 12,501 CDF rows with 3 distinct values;
the pre-flight refuses a declared step below it, the default never chooses one)."""


def default_granularity(lower: float, upper: float) -> float:
    """A granularity for declared bounds when the user gives none (public: depends on the bounds only).

    Whole-number bounds holding 1,000 to 2^20 + 1 whole numbers get granularity 1 (every integer);
    otherwise the largest 1, 2 or 5 times a power of ten that gives at least 10,000 intervals, so a
    default grid never has fewer than 1,000 points (``--bounds 0 1`` once gave a 2-point grid); unless
    bounds far from 0 lie so close together that such a step is finer than float64 tells apart there
    (``MIN_STEP_ULPS``): then the smallest such step it tells apart (epoch milliseconds 1.7e12 to 1.7e12 + 1:
    0.001, where 1e-4 gave 10,001 points holding 4,097 values).
    """
    if not (_finite(lower) and _finite(upper) and lower < upper):
        raise DataError(f"bounds must be finite with lower < upper, got {lower!r} and {upper!r}")
    whole = _integral(lower) and _integral(upper)
    if whole and DEFAULT_MIN_WHOLE_POINTS - 1 <= upper - lower <= DEFAULT_INTEGER_SPAN:
        return 1.0
    target = (upper - lower) / DEFAULT_POINTS
    if not target >= sys.float_info.min:  # 0 or subnormal: "math domain error" from log10 (a CLI fuzz)
        raise DataError(
            f"bounds {lower!r} and {upper!r} are too close together for a grid of {DEFAULT_POINTS:,} steps: "
            "declare wider bounds (or a granularity)"
        )
    resolvable = MIN_STEP_ULPS * math.ulp(max(abs(lower), abs(upper)))
    if target < resolvable:  # bounds far from 0 and close together (epoch milliseconds): a step floats tell
        return _nice(resolvable, at_least=True)
    return _nice(target, at_least=False)


def declared_grid(
    lower: float,
    upper: float,
    *,
    granularity: float | None = None,
    bins: int | None = None,
    unit: str = "",
    binned: bool = False,
) -> NumericDomain:
    """The numeric domain declared by bounds and either a granularity or a number of bins (public inputs).

    ``bins`` B gives the grid step (upper - lower) / B; with neither, the step is ``default_granularity``.
    ``binned`` (a synthetic table's declaration): B bins of that width with a value at each middle, in
    place of B + 1 points from lower to upper (``NumericDomain.binned``); a granularity stays points.
    Raises DataError when both are given or B < 1.
    """
    if bins is None:
        step = default_granularity(lower, upper) if granularity is None else granularity
        return NumericDomain(lower, upper, step, unit=unit)
    if granularity is not None:
        raise DataError("give the number of bins or the granularity, not both")
    if bins < 1:
        raise DataError(f"the number of bins must be >= 1, got {bins}")
    return NumericDomain(lower, upper, (upper - lower) / bins, unit=unit, binned=binned)


MAX_UNIT_LENGTH = 40


def checked_unit(unit: str) -> str:
    """A declared unit, stripped; a DataError when it is not one short line of text."""
    if not isinstance(unit, str):
        raise DataError(f"a unit must be text, got {unit!r}")
    text = unit.strip()
    if len(text) > MAX_UNIT_LENGTH or not text.isprintable():
        raise DataError(f"a unit must be one line of at most {MAX_UNIT_LENGTH} printable characters")
    return text


def common_unit(domains: Iterable[object]) -> str:
    """The unit every one of ``domains`` declares, or "" when some declare none or they differ."""
    units = {getattr(domain, "unit", "") for domain in domains}
    return units.pop() if len(units) == 1 else ""


def axis_title(column: str, domain: object) -> str:
    """``column`` with its declared unit, as axes and headers show it: "wage (USD)", or just "wage"."""
    unit = getattr(domain, "unit", "")
    return f"{column} ({unit})" if unit else column


def parse_categories(text: str) -> tuple[str, ...]:
    """Declared categories from comma-separated text ("a, b,c" -> ("a", "b", "c")), blanks dropped.

    The text is read as one CSV line, so a category holding a comma is declared in quotes ('"a, b",c' ->
    ("a, b", "c")), as ``--columns`` takes a column name; ``categories_text`` writes such a line.
    """
    fields = next(csv.reader([text], skipinitialspace=True), [])
    return tuple(part.strip() for part in fields if part.strip())


def categories_text(categories: tuple[str, ...] | list[str]) -> str:
    """The comma-separated text ``parse_categories`` reads back as ``categories`` (quoting a category that
    holds a comma or starts with a quote)."""
    return ", ".join(
        '"' + name.replace('"', '""') + '"' if "," in name or name.startswith('"') else name
        for name in categories
    )


def cell_text(value: object) -> str:
    """A cell's value as categories are compared: stripped text, booleans as true and false, a number as
    its nearest float64 is written, a whole one as an integer ("3", not "3.0").

    Whole numbers beyond 2^53 are rounded to that float64 too (9007199254740993 reads 9007199254740992):
    ``pandas.read_csv`` keeps such a cell exact in a column of integers, but rounds it in a column with an
    empty cell or a decimal, so only the rounded text is the same whatever the other cells hold."""
    if isinstance(value, bool | np.bool_):  # the file's own spelling is gone: a boolean reads true or false
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        value = _nearest_float(int(value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _nearest_float(value: int) -> float:
    """The float64 nearest to ``value`` (infinite beyond the largest float, as a text cell parses)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


_NUMBER_TEXT = {
    mark: re.compile(
        rf"[+-]?(?:(?:[0-9]+(?:{re.escape(mark)}[0-9]*)?|{re.escape(mark)}[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity)",
        re.IGNORECASE,
    )
    for mark in (".", ",")
}
"""Text a CSV reader parses as a number, by decimal mark: ASCII digits with an optional sign, decimal mark
and exponent, or an infinity (``pandas.read_csv`` accepts no more: not 1_000, 0x1A nor other digits)."""

POINT = "."
"""The decimal marks of a comma-separated file: a point only (an unquoted comma separates fields, and a
quoted "1,200" is text)."""
POINT_OR_COMMA = ".,"
"""The decimal marks of every other delimited file, cell by cell: 12.5 and 12,5 both read 12.5."""


def canonical_text(text: str, marks: str = POINT) -> str:
    """What a cell of delimited text reads as a category or label, from its own text alone.

    ``pandas.read_csv`` types a column from all of its cells: TRUE is a boolean, 007 and 1.0 are numbers
    only while every other cell of the column is one too. Each cell is read here as such a column reads it
    (a true/false spelling in any case as the boolean, a number written with one of the decimal ``marks``
    as its value, both through ``cell_text``), so its category is the same whatever the other records
    hold, and replacing one record moves one count. Other text is only stripped.

    The marks are the file's layout (``TextFormat.decimal_marks``, from its delimiter), never a guess from
    its numbers: one record holding 0.5 once made a semicolon file's 1,3 read as text in every other
    record, and moved them all to another category."""
    stripped = text.strip()
    if stripped.lower() in ("true", "false"):
        return stripped.lower()
    number = number_of_text(stripped, marks)
    return stripped if number is None else cell_text(number)


def number_of_text(text: str, marks: str = POINT) -> float | None:
    """The float64 a cell's text reads as a number with one of the decimal ``marks`` (correctly rounded,
    as Python reads it), None when it is no number."""
    stripped = text.strip()
    for mark in marks:
        if _NUMBER_TEXT[mark].fullmatch(stripped):
            return float(stripped.replace(mark, "."))
    return None


OTHER = "other"
"""The label of a categorical domain's catch-all cell (every undeclared value) in plots and synthetic rows."""


@dataclass(frozen=True)
class CategoricalDomain:
    """A declared list of categories; with ``other`` an extra last index counts every other value.

    Cells are compared as stripped text (``cell_text``; a cell of delimited text as its ``canonical_text``),
    so a code 3 read as 3.0 or written 003 matches "3", and booleans match true and false in any case.
    Index ``i < len(categories)`` is ``categories[i]``; the other index is ``len(categories)``.
    """

    categories: tuple[str, ...]
    other: bool = False

    def __post_init__(self) -> None:
        if not self.categories:
            raise DataError("declare at least one category")
        if not all(isinstance(category, str) for category in self.categories):
            raise DataError("categories must be strings")
        if len(set(self.categories)) != len(self.categories):
            raise DataError(f"categories must be distinct, got {list(self.categories)}")

    @property
    def size(self) -> int:
        """Number of indices: the categories, plus one if ``other`` is declared."""
        return len(self.categories) + int(self.other)

    @property
    def labels(self) -> tuple[str, ...]:
        """The label of every index: the categories, then ``OTHER`` when declared."""
        return (*self.categories, *((OTHER,) if self.other else ()))

    @cached_property
    def _positions(self) -> dict[str, int]:
        """Each category's index by its text and by what a cell spelling it reads (``canonical_text``): a
        declared TRUE matches a cell TRUE (read "true"), a declared 007 the cells 007 and 7 (read "7"), a
        declared 1.0 the cells 1.0 and 1, a declared 1,5 the cells 1,5 of a semicolon file (which read 1.5).
        Not when that reading is declared itself, or two categories read as it ("07" and "007")."""
        positions = {category: i for i, category in enumerate(self.categories)}
        readings = [canonical_text(category, POINT_OR_COMMA) for category in self.categories]
        for i, reading in enumerate(readings):
            if readings.count(reading) == 1:
                positions.setdefault(reading, i)
        return positions

    @property
    def _fallback(self) -> int:
        """The index of an undeclared or missing value: the other index, or -1 when there is none."""
        return len(self.categories) if self.other else -1

    def _index(self, text: str) -> int:
        return self._positions.get(text, self._fallback)

    def declares(self, text: str) -> bool:
        """Whether a cell reading ``text`` (``distinct_text``) is one of the declared categories."""
        return text in self._positions

    @cached_property
    def _folded(self) -> frozenset[str]:
        return frozenset(text.casefold() for text in self._positions)

    def declares_but_for_case(self, text: str) -> bool:
        """Whether a cell reading ``text`` would be declared if case were ignored (the data check's hint;
        the counts compare as written)."""
        return text.casefold() in self._folded

    def to_indices(
        self, values: pd.Series, *, file_name: str, missing_index: int | None = None
    ) -> np.ndarray:
        """int64 index of every cell. A cell outside the list goes to the other index, and so does a missing
        one unless ``missing_index`` is given (a synthetic table's kept "missing" cell); without ``other``
        it raises ``DataError`` naming the file, column and first such row. Any dtype: cells are compared as
        text, missing ones found by pandas (no value is written into the column)."""
        import pandas as pd

        from dpgui.data.validation import distinct_text, first_position

        codes, texts = distinct_text(values)
        missing = self._fallback if missing_index is None else missing_index
        indices = np.array([*map(self._index, texts), missing], dtype=np.int64)[codes]
        unknown = indices < 0
        if unknown.any():
            position = first_position(unknown)
            cell = values.iloc[position]
            what = "the cell is missing" if pd.isna(cell) else f"{shown(cell)} is not a declared category"
            raise DataError(
                f"{cell_location(file_name, position, values.name)}: {what}; {UNDECLARED_CATEGORY_HINT}"
            )
        return indices


def describe_outside(columns: Sequence[str], domains: Sequence[object]) -> str:
    """What becomes of values outside the declared domains, in the manifest's and the report's words: a
    numeric column's are clipped to its bounds; a categorical column's count in its "other" cell, if it
    has one (without one, such a value stops the release before any charge)."""
    numeric = [c for c, d in zip(columns, domains, strict=True) if isinstance(d, NumericDomain)]
    named = f" ({', '.join(numeric)})" if len(numeric) < len(columns) else ""
    parts = [f"clipped to the declared bounds{named}"] if numeric else []
    parts += [
        f"{column}: counted as 'other'" if domain.other else f"{column}: none allowed (no 'other' cell)"
        for column, domain in zip(columns, domains, strict=True)
        if isinstance(domain, CategoricalDomain)
    ]
    return "; ".join(parts)
