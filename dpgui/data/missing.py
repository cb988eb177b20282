"""What to do with missing cells, keeping the public row count n fixed.

Under the neighbouring relation "replace one record, n public", dropping rows would change n in a
data-dependent way, so a missing cell is replaced by a declared value, stops the release, or (a synthetic
table only) is counted in a "missing" cell of its own, so the synthetic rows leave cells blank as often
as the noisy counts say.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.errors import DataError, cell_location

if TYPE_CHECKING:  # cells arrive as pandas Series; declaring a policy does not need pandas
    import pandas as pd

_ROW_COUNT_KEPT = "row count unchanged"


MISSING_SPELLINGS = frozenset(
    {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A"}
    | {"NA", "NULL", "NaN", "None", "n/a", "nan", "null"}
)
"""The cell texts pandas' CSV and Excel readers (every engine's) read as a missing value: the default
``na_values`` of ``pandas.read_csv``'s documentation."""


def missing_spelt_categories(
    columns: Sequence[str], domains: Sequence[NumericDomain | CategoricalDomain]
) -> list[tuple[str, str]]:
    """(column, category) of every declared category spelt as a missing value ("NA"): a text or Excel cell
    reads it as missing, and so does pandas reading a CSV dpgui writes."""
    return [
        (column, category)
        for column, domain in zip(columns, domains, strict=True)
        if isinstance(domain, CategoricalDomain)
        for category in domain.categories
        if category in MISSING_SPELLINGS
    ]


class MissingKind(enum.Enum):
    """Replace a missing cell by a declared value, refuse the file, or keep it as a cell of its own."""

    IMPUTE = "impute"
    FAIL = "fail"
    KEEP = "keep"
    """Only for a synthetic table: one more cell per column holds the missing values (``extra_cells``)."""


def _number(value: float | int) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True)
class MissingPolicy:
    """How missing cells are handled; never by dropping rows.

    IMPUTE with ``fill_value=None`` uses the numeric domain's lower bound. For a categorical domain
    IMPUTE counts a missing cell in the declared 'other' category (``fill_value`` must stay None).
    """

    kind: MissingKind = MissingKind.IMPUTE
    fill_value: float | None = None

    def __post_init__(self) -> None:
        if self.fill_value is None:
            return
        if self.kind is not MissingKind.IMPUTE:
            raise DataError("a fill value only makes sense with the impute policy")
        if not math.isfinite(self.fill_value):
            raise DataError(f"the fill value must be a finite number, got {self.fill_value!r}")

    @property
    def extra_cells(self) -> int:
        """Cells a column's domain gains under this policy: the "missing" cell under KEEP, else none."""
        return int(self.kind is MissingKind.KEEP)

    def fill_for(self, domain: NumericDomain) -> float:
        """The value a missing cell of a column with this domain becomes (IMPUTE only)."""
        return float(domain.lower if self.fill_value is None else self.fill_value)

    def describe(self, domain: NumericDomain | CategoricalDomain) -> str:
        """The sentence written to the manifest, e.g. 'missing values replaced by 0 (the declared lower
        bound); row count unchanged'."""
        if self.kind is MissingKind.FAIL:
            return f"a missing value stops the release; {_ROW_COUNT_KEPT}"
        if self.kind is MissingKind.KEEP:
            return f"missing values kept: counted in a 'missing' cell and left blank; {_ROW_COUNT_KEPT}"
        if isinstance(domain, CategoricalDomain):
            if not domain.other:  # a run with a missing cell is refused (no 'other' to count it in)
                return f"a missing value stops the release (no 'other' category declared); {_ROW_COUNT_KEPT}"
            return f"missing values counted as 'other'; {_ROW_COUNT_KEPT}"
        if self.fill_value is None:
            replacement = f"{_number(domain.lower)} (the declared lower bound)"
        else:
            replacement = _number(self.fill_value)
        return f"missing values replaced by {replacement}; {_ROW_COUNT_KEPT}"


def describe_columns(
    policy: MissingPolicy,
    columns: Sequence[str],
    domains: Sequence[NumericDomain | CategoricalDomain],
) -> str:
    """``policy.describe`` for every released column: one sentence when they agree, else column by column
    (a table mixes numeric columns, whose missing cells are imputed, with categorical ones, "other")."""
    sentences = [policy.describe(domain) for domain in domains]
    if len(set(sentences)) == 1:
        return sentences[0]
    return "; ".join(f"{column}: {s.split(';')[0]}" for column, s in zip(columns, sentences, strict=True)) + (
        f"; {_ROW_COUNT_KEPT}"
    )


def cell_count(domain: NumericDomain | CategoricalDomain, missing: MissingPolicy) -> int:
    """Cells of a column in a marginal: its domain's, plus the "missing" cell under KEEP (declared)."""
    return int(domain.size) + missing.extra_cells


def missing_mask(values: pd.Series, policy: MissingPolicy, *, file_name: str) -> np.ndarray:
    """Boolean mask of the missing cells; under FAIL the first one raises ``DataError`` naming its row."""
    from dpgui.data.validation import first_position

    mask = values.isna().to_numpy()
    if policy.kind is MissingKind.FAIL and mask.any():
        raise DataError(
            f"{cell_location(file_name, first_position(mask), values.name)}: the value is missing and the "
            "policy refuses missing values; fill in the cell or choose to replace missing values"
        )
    return mask


def apply_missing(
    values: pd.Series, policy: MissingPolicy, domain: NumericDomain, *, file_name: str
) -> np.ndarray:
    """float64 copy of a numeric column with every missing cell handled by the policy (no NaN, same n).

    KEEP has no value to put there: it is for the marginals of a synthetic table (``aggregate.cell_indices``),
    whose task is the only one that accepts it (``TaskSpec``)."""
    if policy.kind is MissingKind.KEEP:
        raise DataError("keeping missing values as a cell of their own is for a synthetic table only")
    filled = values.to_numpy(dtype=np.float64, na_value=np.nan, copy=True)
    mask = missing_mask(values, policy, file_name=file_name)
    filled[mask] = policy.fill_for(domain)
    return filled
