"""The data problems of a release's columns, found in one pass before anything is charged.

Custodian-only: the counts (missing, invalid, out of bounds, unknown categories or labels) are shown to
whoever holds the data, on stderr or in the app, and never enter a release or its manifest. The pass reads
every row of the columns a task uses, with the same parsing as the aggregators
(``dpgui.data.validation``), so a file the aggregation would refuse is refused here, before the ledger
reserves anything; every engine gives the same verdict on the same file (a row with more fields than the
header is refused by all of them when they count the rows).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from dpgui.data.aggregate import Aggregator
from dpgui.data.backends import COLUMNAR_SUFFIXES
from dpgui.data.backends.embedded import EmbeddedAggregator
from dpgui.data.dataset import Dataset, DatasetHandle
from dpgui.data.domain import (
    UNDECLARED_CATEGORY_HINT,
    CategoricalDomain,
    NumericDomain,
    canonical_text,
)
from dpgui.data.errors import POSITIVE_FIELD, DataError, cell_location, shown
from dpgui.data.missing import MissingKind, MissingPolicy, missing_spelt_categories
from dpgui.data.text_format import (
    DELIMITED_SUFFIXES,
    mixed_decimal_mark_columns,
    sampled_columns,
    thousands_separator_columns,
)
from dpgui.data.validation import (
    BOOLEAN_HINT,
    INFINITE_HINT,
    as_numbers,
    distinct_text,
    first_position,
    invalid_cells,
    is_boolean,
    is_infinite,
    positive_texts,
    require_columns,
)

IMPUTED_WARNING = 0.05
"""Above this fraction of imputed cells in a column, the check warns (the release describes imputed data)."""

DOUBT_SHARE = 0.99
"""From this share of a column outside its declared bounds or categories, the declaration is almost surely
wrong (another unit, another spelling of the categories): a doubt, not only a warning."""
UNDECLARED_WARNING = 0.5
"""Above this fraction of cells outside a column's declared categories (all counted as "other"), the check
warns: the list most likely does not match how the file writes the values (1/0 against true/false)."""

OUTSIDE_WARNING = 0.05
"""Above this fraction of a numeric column's values outside its declared bounds (each counted at the nearer
bound), the check warns: the declaration most likely does not describe the column (a GUI audit declared
the demo's weekly wages on [0, 49], the hourly public sample's range, and every check stayed green while
the median released was the bound)."""

_TRUTH = frozenset({"0", "1", "false", "true", "no", "yes"})

_COMMA_NUMBER = re.compile(r"\s*[+-]?\d[\d.]*(?:,\d[\d.]*)+\s*")
"""12,5, 1,200, and numbers with several separators (1,234,567) or a point as well (3,011.89)."""
COMMA_NUMBER_HINT = (
    "; a number is read with one decimal mark and no thousands separator (a point, or in a file not "
    "separated by commas a point or a comma), so a comma there makes it text: write every number with one "
    "decimal mark and no thousands separator"
)
"""Why 1,200 in a comma-separated file, or 1.234,5 in any, is refused (``TextFormat.decimal_marks``)."""

MARKER_HINT = (
    "; if it marks a missing value (as '?' does in UCI files), leave those cells blank or write NA, which "
    "every reader takes as missing, and open the file again"
)
"""Why '?' or 'unknown' in a numeric column is refused: only pandas' missing spellings read as missing."""

COLUMNAR_MARKER_HINT = (
    "; if it marks a missing value, write those cells as null (missing) when saving the file (Parquet and "
    "Feather keep text such as NA as text), and open it again"
)
"""The same for a Parquet or Feather file, whose readers take no text for a missing value."""


CATEGORY_HINT = (
    "; if the column holds categories (codes or names), declare it by its categories, not by bounds (a "
    'histogram of categories, or "categories" in DOMAINS.json)'
)
"""Why text in a column declared with bounds is refused when it may be a column of categories (a table
audit's custodian was told only that 'Город_139' is not a finite number)."""


DATE_HINT = (
    "; dates and times are not numbers to dpgui: save the column as a number (a year, or days since a "
    "fixed date) and declare its bounds in that unit, or declare its values as categories"
)
"""Why a date in a numeric column is refused, and what to do instead (an audit's custodian was told only
that '2021-10-09 12:06:00' is not a finite number)."""

_DATE_TEXT = re.compile(r"\s*\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\s*")
"""2021-10-09, 09/10/2021, 9.10.2021, with an optional time of day."""


def _is_date(value: object) -> bool:
    """Whether a cell is a date or time: a datetime (Parquet, Feather, Excel) or text written as one."""
    if isinstance(value, datetime.date | datetime.time | np.datetime64):
        return True
    return isinstance(value, str) and bool(_DATE_TEXT.fullmatch(value))


def _not_a_number(value: object, file_name: str = "") -> str:
    if is_infinite(value):
        return f"is not a finite number{INFINITE_HINT}"
    if is_boolean(value):
        return f"is not a finite number{BOOLEAN_HINT}"
    if _is_date(value):
        return f"is not a finite number{DATE_HINT}"
    if isinstance(value, str) and _COMMA_NUMBER.fullmatch(value):
        return f"is not a finite number{COMMA_NUMBER_HINT}"
    if not isinstance(value, str) or _is_float(value):
        return "is not a finite number"
    if any(c.isdigit() for c in value):  # a code such as 'Город_139' or 'A12'
        return f"is not a finite number{CATEGORY_HINT}"
    columnar = Path(file_name).suffix.lower() in COLUMNAR_SUFFIXES
    return f"is not a finite number{COLUMNAR_MARKER_HINT if columnar else MARKER_HINT}"


def _is_float(text: str) -> bool:
    """Whether ``float`` reads ``text`` ('inf' is a number, just not a finite one)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class ColumnCheck:
    """Counts for one column over every row (custodian-only, never released)."""

    column: str
    role: str
    """'value' (a column the task reads through a domain) or 'label'."""
    rows: int = 0
    missing: int = 0
    invalid: int = 0
    """Cells present but not usable: unparseable text, ±inf, NaN written out."""
    out_of_bounds: int = 0
    """Finite numbers outside the declared bounds (clipped to the nearest bound)."""
    unknown: int = 0
    """Undeclared categories, or labels that are none of 0/1, true/false, yes/no."""
    near_miss: int = 0
    """Undeclared categories spelt like a declared one but for case ("ny" beside a declared "NY")."""
    positives: int = 0
    """Label cells that read the named positive value (with ``positive`` given)."""
    first_problem: str | None = None
    """Where the first refused cell is, and why (a message for the custodian)."""

    @property
    def missing_fraction(self) -> float:
        return self.missing / self.rows if self.rows else 0.0

    def describe(self) -> str:
        parts = [f"{self.missing} missing ({100 * self.missing_fraction:.1f}%)", f"{self.invalid} invalid"]
        if self.role == "value":
            parts.append(f"{self.out_of_bounds} out of bounds")
        if self.unknown:
            parts.append(f"{self.unknown} unknown")
        return f"column {self.column!r}: " + ", ".join(parts) + f" of {self.rows} rows"


@dataclass(frozen=True)
class DataCheck:
    """The verdict on a file for one task: per-column counts, refusals (the release stops) and warnings."""

    file_name: str
    columns: tuple[ColumnCheck, ...]
    refusals: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    doubts: tuple[str, ...] = ()
    """The warnings that are almost surely a mistake (a label value no cell holds; a column all but
    entirely outside its declared bounds or categories): the command line refuses them unless the
    custodian accepts warnings, as the app asks to acknowledge every warning."""

    def lines(self, *, with_refusals: bool = True) -> list[str]:
        """What the custodian is shown (stderr or a dialog): counts, warnings, then refusals."""
        shown_lines = [f"{self.file_name}: {column.describe()}" for column in self.columns]
        shown_lines += [f"warning: {warning}" for warning in self.warnings]
        return shown_lines + [f"refused: {refusal}" for refusal in self.refusals if with_refusals]

    def raise_if_refused(self) -> None:
        if self.refusals:
            others = len(self.refusals) - 1
            more = f" (and {others} more problem{'s' if others > 1 else ''})" if others else ""
            raise DataRefused(self.refusals[0] + more, further=self.refusals[1:])


class DataRefused(DataError):
    """A data check's refusal: the first problem (and how many more) as the message, the others in
    ``further`` (the command line lists them above its error line; the app's dialog under the first: a GUI
    audit read "(and 1 more problem)" and never learnt which)."""

    def __init__(self, message: str, further: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.further = further


@dataclass
class _Counter:
    check: ColumnCheck

    def add(self, **counts: int) -> None:
        self.check = replace(self.check, **{k: getattr(self.check, k) + v for k, v in counts.items()})

    def problem(self, message: str) -> None:
        if self.check.first_problem is None:
            self.check = replace(self.check, first_problem=message)


def _first(file_name: str, offset: int, mask: np.ndarray, values: pd.Series, why: str) -> str:
    position = first_position(mask)
    return f"{cell_location(file_name, offset + position, values.name)}: {shown(values.iloc[position])} {why}"


def _value_column(
    counter: _Counter, values: pd.Series, domain: NumericDomain | CategoricalDomain, offset: int, name: str
) -> None:
    missing = values.isna().to_numpy()
    counter.add(rows=len(values), missing=int(missing.sum()))
    if isinstance(domain, CategoricalDomain):
        codes, texts = distinct_text(values)
        known = np.array([*map(domain.declares, texts), True], dtype=bool)[codes]
        unknown = ~known
        folded = np.array([*map(domain.declares_but_for_case, texts), False], dtype=bool)[codes]
        counter.add(unknown=int(unknown.sum()), near_miss=int((unknown & folded).sum()))
        if unknown.any() and not domain.other:
            counter.problem(
                _first(
                    name,
                    offset,
                    unknown,
                    values,
                    f"is not a declared category; {UNDECLARED_CATEGORY_HINT}",
                )
            )
        return
    parsed = as_numbers(values)
    invalid = invalid_cells(values, parsed)
    numbers = parsed.to_numpy(dtype=np.float64, na_value=np.nan)
    with np.errstate(invalid="ignore"):
        outside = np.isfinite(numbers) & ((numbers < domain.lower) | (numbers > domain.upper))
    counter.add(invalid=int(invalid.sum()), out_of_bounds=int(outside.sum()))
    if invalid.any():
        why = _not_a_number(values.iloc[first_position(invalid)], name)
        counter.problem(_first(name, offset, invalid, values, why))


def _label_column(counter: _Counter, values: pd.Series, positive: str | None, offset: int, name: str) -> None:
    codes, texts = distinct_text(values)
    missing = codes < 0
    counter.add(rows=len(values), missing=int(missing.sum()))
    if positive is not None:
        named = positive_texts(positive)
        reads_positive = np.array([text in named for text in texts] + [False], dtype=bool)
        counter.add(positives=int(reads_positive[codes].sum()))
        return
    valid = np.array([text.lower() in _TRUTH for text in texts] + [True], dtype=bool)[codes]
    unknown = ~valid
    counter.add(unknown=int(unknown.sum()))
    if missing.any():
        counter.problem(
            f"{cell_location(name, offset + first_position(missing), values.name)}: the label is missing"
        )
    if unknown.any():
        why = f"is not a label (0/1, true/false, yes/no); name the positive value ({POSITIVE_FIELD})"
        counter.problem(_first(name, offset, unknown, values, why))


class FrameChecker:
    """Counts the problems of ``columns`` (and ``label``) batch by batch: :meth:`add` each (row offset,
    frame) covering the file once, then :meth:`result`."""

    def __init__(
        self,
        file_name: str,
        columns: tuple[str, ...],
        domains: tuple[NumericDomain | CategoricalDomain, ...],
        missing: MissingPolicy,
        *,
        label: str | None = None,
        positive: str | None = None,
    ) -> None:
        self._file_name = file_name
        self._domains = dict(zip(columns, domains, strict=True))
        self._missing = missing
        self._positive = positive
        self._values = {c: _Counter(ColumnCheck(c, "value")) for c in columns}
        self._label = (label, _Counter(ColumnCheck(label, "label"))) if label is not None else None

    def add(self, offset: int, frame: pd.DataFrame) -> None:
        for column, domain in self._domains.items():
            _value_column(self._values[column], frame[column], domain, offset, self._file_name)
        if self._label is not None:
            label, counter = self._label
            _label_column(counter, frame[label], self._positive, offset, self._file_name)

    def checks(self) -> tuple[ColumnCheck, ...]:
        """The counts so far, value columns first, then the label."""
        checks = [counter.check for counter in self._values.values()]
        if self._label is not None:
            checks.append(self._label[1].check)
        return tuple(checks)

    def result(self, checks: tuple[ColumnCheck, ...] | None = None) -> DataCheck:
        """The verdict on these counts (by default the ones this checker gathered)."""
        return _verdict(
            self._file_name, checks or self.checks(), self._domains, self._missing, self._positive
        )


SUMMARY_SCHEMA = (
    "column string, role string, rows long, missing long, invalid long, out_of_bounds long, unknown long, "
    "near_miss long, positives long, first_problem string"
)
"""One partition's counts, one row per column (a Spark schema): what crosses from the executors."""
_COUNTS = ("rows", "missing", "invalid", "out_of_bounds", "unknown", "near_miss", "positives")


def _partition_summary(
    make_checker: Callable[[], FrameChecker], frames: Iterator[pd.DataFrame]
) -> pd.DataFrame:
    """Run a fresh checker over one partition's frames; its counts as a frame of ``SUMMARY_SCHEMA``."""
    checker, offset = make_checker(), 0
    for frame in frames:
        checker.add(offset, frame)
        offset += len(frame)
    return pd.DataFrame([asdict(check) for check in checker.checks()])


def combine_summaries(summaries: pd.DataFrame, order: tuple[ColumnCheck, ...]) -> tuple[ColumnCheck, ...]:
    """Add the partitions' counts column by column; the first problem of any partition names "a row" (a
    partition does not know its rows' numbers in the file)."""
    combined = []
    for check in order:
        rows = summaries[(summaries["column"] == check.column) & (summaries["role"] == check.role)]
        problems = [p for p in rows["first_problem"].tolist() if isinstance(p, str)]
        first = re.sub(r", row \d+,", ", a row,", problems[0]) if problems else None
        combined.append(
            replace(check, **{name: int(rows[name].sum()) for name in _COUNTS}, first_problem=first)
        )
    return tuple(combined)


def _imputed_without_other(
    check: ColumnCheck, domain: NumericDomain | CategoricalDomain, missing: MissingPolicy
) -> bool:
    """Missing cells the aggregation cannot count: imputed as 'other' in a category list without one."""
    return (
        bool(check.missing)
        and missing.kind is MissingKind.IMPUTE
        and isinstance(domain, CategoricalDomain)
        and not domain.other
    )


def _verdict(
    file_name: str,
    checks: tuple[ColumnCheck, ...],
    domains: dict[str, NumericDomain | CategoricalDomain],
    missing: MissingPolicy,
    positive: str | None = None,
) -> DataCheck:
    refusals: list[str] = []
    warnings: list[str] = []
    doubts: list[str] = []
    for check in checks:
        if check.first_problem is not None:
            refusals.append(check.first_problem)
        if check.role == "label" and positive is not None and check.rows and not check.positives:
            doubts.append(  # all negative can be the truth (a point learner then answers "none")
                f"no cell of label column {check.column!r} reads {positive.strip()!r}, so every row counts "
                "as negative: if that is not so, check its spelling (labels are compared as text, so 'Yes' "
                f"is not 'yes'), or leave the positive value out ({POSITIVE_FIELD}) for 0/1, true/false or "
                "yes/no labels"
            )
        if check.role != "value":
            continue
        if check.rows and check.missing == check.rows:
            refusals.append(
                f"{file_name}: every cell of column {check.column!r} is missing; nothing to release: leave "
                "it out (for a table, remove it from DOMAINS.json)"
            )
        elif check.missing and missing.kind is MissingKind.FAIL:
            refusals.append(
                f"{file_name}: column {check.column!r} has {check.missing} missing cells and the policy "
                "refuses missing values; fill them in or choose to replace missing values"
            )
        elif _imputed_without_other(check, domains[check.column], missing):
            refusals.append(
                f"{file_name}: column {check.column!r} has {check.missing} missing cells, which imputing "
                "counts as 'other', but its categories declare no 'other': declare one (a histogram: "
                '--other; a table\'s DOMAINS.json: "other": true), or, in a synthetic table, keep missing '
                "values as a cell of their own (--missing keep, its default)"
            )
        elif check.missing_fraction > IMPUTED_WARNING and missing.kind is MissingKind.IMPUTE:
            domain = domains[check.column]
            fill = "'other'" if isinstance(domain, CategoricalDomain) else f"{missing.fill_for(domain):g}"
            warnings.append(
                f"{100 * check.missing_fraction:.1f}% of column {check.column!r} is missing and will be "
                f"replaced by {fill}: the release describes the imputed data"
            )
        if check.near_miss:
            warnings.append(
                f"{check.near_miss} cells of column {check.column!r} differ from a declared category only by "
                "case (ny beside NY) and count as 'other': categories are compared as written, so declare "
                "those spellings too or write them alike in the file"
            )
        domain = domains[check.column]
        if isinstance(domain, NumericDomain) and check.out_of_bounds > OUTSIDE_WARNING * check.rows:
            (doubts if check.out_of_bounds >= DOUBT_SHARE * check.rows else warnings).append(
                f"{100 * check.out_of_bounds / check.rows:.1f}% of column {check.column!r} lies outside its "
                f"declared bounds [{domain.lower:g}, {domain.upper:g}] and counts at the nearer bound: check "
                "the bounds (and their unit) against the column; a release reflects the clipped values"
            )
        if check.rows and check.unknown > UNDECLARED_WARNING * check.rows:
            (doubts if check.unknown >= DOUBT_SHARE * check.rows else warnings).append(
                f"{100 * check.unknown / check.rows:.1f}% of column {check.column!r} is none of the declared "
                "categories and counts as 'other': check the list against how the file writes the values "
                "(they are compared as text, so 1 is not true)"
            )
    return DataCheck(file_name, checks, tuple(refusals), (*warnings, *doubts), tuple(doubts))


def check_data(
    dataset: Dataset | DatasetHandle,
    aggregator: Aggregator,
    columns: tuple[str, ...],
    domains: tuple[NumericDomain | CategoricalDomain, ...],
    missing: MissingPolicy,
    *,
    label: str | None = None,
    positive: str | None = None,
) -> DataCheck:
    """The problems of ``columns`` (and ``label``) in the private data, read in one pass ahead of a run."""
    wanted = list(dict.fromkeys([*columns, *([label] if label is not None else [])]))
    require_columns(dataset.header, wanted, file_name=dataset.name)
    checker = FrameChecker(dataset.name, columns, domains, missing, label=label, positive=positive)
    if isinstance(dataset, Dataset):
        checker.add(0, dataset.frame)
        verdict = checker.result()
    elif isinstance(aggregator, EmbeddedAggregator):
        aggregator.scan(wanted, checker.add)  # with the engine's progress and cancel
        verdict = checker.result()
    else:
        from dpgui.data.backends.spark import SparkAggregator

        if not isinstance(aggregator, SparkAggregator):
            raise TypeError(f"no data check for the {aggregator.name!r} engine")
        make_checker = partial(
            FrameChecker, dataset.name, columns, domains, missing, label=label, positive=positive
        )
        summaries = aggregator.summarise_partitions(
            wanted, partial(_partition_summary, make_checker), SUMMARY_SCHEMA
        )
        verdict = checker.result(combine_summaries(summaries, checker.checks()))
    warnings = _how_the_file_is_read(Path(dataset.path), dataset.encoding, columns, domains)
    return replace(verdict, warnings=verdict.warnings + warnings) if warnings else verdict


_READ_WITH_MISSING_SPELLINGS = frozenset({*DELIMITED_SUFFIXES, ".xlsx", ".xls"})


THOUSANDS_WARNING = (
    "is written like 1.047 and 999 (every number with a decimal mark has exactly three digits after it): if "
    "the mark separates thousands (1.047 or 1,047 meaning 1047, as spreadsheets write), the values are read "
    "1,000 times too small; remove the separators and open the file again. Carry on only if the mark is a "
    "decimal mark"
)
MIXED_MARKS_WARNING = (
    "writes numbers with a decimal point and with a decimal comma (4,898 beside 915.0): dpgui reads both as "
    "decimal marks, so if the comma separates thousands (4,898 meaning 4898) those values are read 1,000 "
    "times too small; write every number one way and open the file again"
)


def _how_the_file_is_read(
    path: Path,
    encoding: str | None,
    columns: tuple[str, ...],
    domains: tuple[NumericDomain | CategoricalDomain, ...],
) -> tuple[str, ...]:
    """Warnings about what the readers make of this file's cells that a release would be charged for in
    full: a numeric column written like 1.047 and 999 (``text_format.thousands_separator_columns``), read
    1,000 times too small if the mark separates thousands, or with both decimal marks
    (``text_format.mixed_decimal_mark_columns``); and a declared category spelt as a missing
    value ("NA"), whose cells a text or Excel file delivers as missing."""
    numeric = [
        column for column, domain in zip(columns, domains, strict=True) if isinstance(domain, NumericDomain)
    ]
    sample = sampled_columns(path, encoding)  # the file's first 64 KiB, read once for every warning
    flagged = [
        (set(thousands_separator_columns(sample)), THOUSANDS_WARNING),
        (set(mixed_decimal_mark_columns(sample)), MIXED_MARKS_WARNING),
    ]
    warnings = [
        f"column {column!r} {warning}"
        for suspects, warning in flagged
        for column in numeric
        if column in suspects
    ]
    if path.suffix.lower() in _READ_WITH_MISSING_SPELLINGS:
        warnings += [
            f"category {category!r} of column {column!r} is how files write a missing value: its cells are "
            "read as missing, never as this category; rename it in the file (e.g. 'N.A.') or save the "
            "table as Parquet"
            for column, category in missing_spelt_categories(columns, domains)
        ]
        warnings += _categories_read_alike(sample.text_format.decimal_marks, columns, domains)
    return tuple(warnings)


def _categories_read_alike(
    marks: str, columns: tuple[str, ...], domains: tuple[NumericDomain | CategoricalDomain, ...]
) -> list[str]:
    """Warnings of declared categories that a text or Excel cell cannot tell apart (``canonical_text`` with
    the file's decimal ``marks``: 007 and 7 both read 7, TRUE and true both true): every such cell counts
    as the one declared as that reading, else as none of them (``CategoricalDomain._positions``: a table
    audit read "counts as one of them" above cells that all went to 'other'), and the others are released
    from noise alone (a table audit)."""
    warnings = []
    for column, domain in zip(columns, domains, strict=True):
        if not isinstance(domain, CategoricalDomain):
            continue
        readings: dict[str, list[str]] = {}
        for category in domain.categories:
            readings.setdefault(canonical_text(category, marks), []).append(category)
        warnings += [
            f"categories {', '.join(map(repr, alike))} of column {column!r} are one cell value to this file "
            f"(each reads {reading!r}): a cell written any of these ways counts as "
            + (f"{reading!r}" if reading in alike else "none of them (an undeclared value)")
            + ", and the others count nothing; declare one of them"
            for reading, alike in readings.items()
            if len(alike) > 1
        ]
    return warnings
