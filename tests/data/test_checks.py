"""The data pass before a charge: counts per column, refusals, and one verdict whatever the engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.data import DataError, NumericDomain
from dpgui.data.aggregate import cell_indices
from dpgui.data.backends import open_aggregator
from dpgui.data.checks import CATEGORY_HINT
from dpgui.data.domain import UNDECLARED_CATEGORY_HINT, CategoricalDomain
from dpgui.data.missing import MissingKind, MissingPolicy
from tests.data.checking import check_frames

DOMAIN = NumericDomain(0, 10, 1)


def frame(values: list[object]) -> list[tuple[int, pd.DataFrame]]:
    return [(0, pd.DataFrame({"x": values}))]


def test_counts_missing_invalid_and_out_of_bounds_with_infinities_invalid():
    check = check_frames(
        "f.csv", frame([1, None, "abc", np.inf, -np.inf, 11, -1, 5]), ("x",), (DOMAIN,), MissingPolicy()
    )
    (column,) = check.columns
    assert (column.rows, column.missing, column.invalid, column.out_of_bounds) == (8, 1, 3, 2)
    assert check.refusals and "row 3, column 'x': 'abc' is not a finite number" in check.refusals[0]
    with pytest.raises(DataError, match="'abc' is not a finite number"):
        check.raise_if_refused()


def test_rows_are_numbered_across_batches():
    batches = [(0, pd.DataFrame({"x": [1, 2]})), (2, pd.DataFrame({"x": [3, "bad"]}))]
    check = check_frames("f.csv", batches, ("x",), (DOMAIN,), MissingPolicy())
    assert "row 4, column 'x'" in check.refusals[0]


def test_more_than_five_percent_imputed_warns_and_a_fully_missing_column_is_refused():
    check = check_frames("f.csv", frame([1] * 90 + [None] * 10), ("x",), (DOMAIN,), MissingPolicy())
    assert (
        not check.refusals and "10.0% of column 'x' is missing and will be replaced by 0" in check.warnings[0]
    )
    kept = check_frames(
        "f.csv", frame([1] * 90 + [None] * 10), ("x",), (DOMAIN,), MissingPolicy(MissingKind.KEEP)
    )
    assert not kept.warnings  # kept as blanks (a synthetic table): nothing is replaced
    empty = check_frames("f.csv", frame([None] * 5), ("x",), (DOMAIN,), MissingPolicy())
    assert "every cell of column 'x' is missing" in empty.refusals[0]
    fail = check_frames("f.csv", frame([1, None]), ("x",), (DOMAIN,), MissingPolicy(MissingKind.FAIL))
    assert "refuses missing values" in fail.refusals[0]


def test_more_than_five_percent_outside_the_bounds_warns_before_the_charge():
    """A declaration on another scale (weekly wages on the hourly sample's [0, 49]) clipped nearly every
    value to the bound, with every check green."""
    clipped = check_frames("f.csv", frame([5] * 94 + [11] * 6), ("x",), (DOMAIN,), MissingPolicy())
    assert not clipped.refusals
    assert clipped.warnings == (
        "6.0% of column 'x' lies outside its declared bounds [0, 10] and counts at the nearer bound: check "
        "the bounds (and their unit) against the column; a release reflects the clipped values",
    )
    few = check_frames("f.csv", frame([5] * 95 + [-1] * 5), ("x",), (DOMAIN,), MissingPolicy())
    assert few.columns[0].out_of_bounds == 5 and not few.warnings  # 5%: a cap the custodian chose


def test_a_column_all_but_entirely_outside_its_declaration_is_a_doubt_not_only_a_warning():
    """99% or more outside the bounds or the categories is another unit or spelling, almost surely: the
    command line refuses it unless warnings are accepted (an audit's histogram, 99.9% 'other', charged)."""
    shifted = check_frames("f.csv", frame([50] * 99 + [5]), ("x",), (DOMAIN,), MissingPolicy())
    assert shifted.doubts == shifted.warnings and len(shifted.doubts) == 1
    assert "99.0% of column 'x' lies outside its declared bounds" in shifted.doubts[0]
    clipped = check_frames("f.csv", frame([5] * 94 + [11] * 6), ("x",), (DOMAIN,), MissingPolicy())
    assert clipped.warnings and not clipped.doubts  # 6% clipped: said, and the release goes on
    other = CategoricalDomain(("a", "b"), other=True)
    cells = [(0, pd.DataFrame({"c": ["z"] * 999 + ["a"]}))]
    assert check_frames("f.csv", cells, ("c",), (other,), MissingPolicy()).doubts
    half = [(0, pd.DataFrame({"c": ["z"] * 600 + ["a"] * 400}))]
    assert not check_frames("f.csv", half, ("c",), (other,), MissingPolicy()).doubts


def test_undeclared_categories_are_refused_unless_there_is_an_other_category():
    values = frame(["a", "b", "z"])
    strict = check_frames("f.csv", values, ("x",), (CategoricalDomain(("a", "b")),), MissingPolicy())
    assert "'z' is not a declared category" in strict.refusals[0]
    loose = check_frames(
        "f.csv", values, ("x",), (CategoricalDomain(("a", "b"), other=True),), MissingPolicy()
    )
    assert not loose.refusals and loose.columns[0].unknown == 1


@pytest.mark.parametrize("spelling", ["INF", "Infinity", "1e309", "-1e400"])
def test_an_infinite_cell_says_what_it_read_as(spelling: str, tmp_path):
    """The reader parses the cell, so the message quotes 'inf' whatever the file wrote (a fuzz run: 'INF'
    was refused as 'inf'); it says which spellings read so."""
    path = tmp_path / "data.csv"
    path.write_text("x\n1\n" + spelling + "\n")
    with pytest.raises(DataError, match="reads as infinity: the cell holds inf, Infinity or a number beyond"):
        cell_indices(pd.read_csv(path), "x", DOMAIN, MissingPolicy(), file_name="data.csv")
    check = check_frames("data.csv", [(0, pd.read_csv(path))], ("x",), (DOMAIN,), MissingPolicy())
    assert "is not a finite number (it reads as infinity" in check.refusals[0]


def test_labels_other_than_two_classes_are_refused():
    batches = [(0, pd.DataFrame({"x": [1, 2, 3], "y": ["yes", "no", "maybe"]}))]
    check = check_frames("f.csv", batches, ("x",), (DOMAIN,), MissingPolicy(), label="y")
    assert "'maybe' is not a label" in check.refusals[0]
    named = check_frames("f.csv", batches, ("x",), (DOMAIN,), MissingPolicy(), label="y", positive="yes")
    assert not named.refusals


@pytest.mark.parametrize(
    ("content", "expected"),
    [("x,y\n1,2\n3,4,5\n6,7\n", "line 3 has 3 fields"), ("x,x\n1,2\n", "names the column 'x' twice")],
)
@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_every_engine_refuses_ragged_rows_and_duplicate_names_when_opening(
    content: str, expected: str, engine: str, tmp_path: Path
):
    path = tmp_path / "data.csv"
    path.write_text(content)
    with pytest.raises(DataError, match=expected):
        open_aggregator(path, engine)


def test_the_refusal_names_the_first_problem_counts_the_rest_and_says_how_to_fix_a_category():
    batches = [(0, pd.DataFrame({"x": ["bad", 1, 2], "y": ["a", "z", "a"], "w": ["bad", 1, 2]}))]
    domains = (DOMAIN, CategoricalDomain(("a",)), DOMAIN)
    check = check_frames("f.csv", batches, ("x", "y", "w"), domains, MissingPolicy())
    assert UNDECLARED_CATEGORY_HINT in check.refusals[1]
    with pytest.raises(DataError, match=r"'bad' is not a finite number.*\(and 2 more problems\)$") as raised:
        check.raise_if_refused()
    assert raised.value.further == check.refusals[1:]  # the app's dialog names them (a GUI audit)
    single = check_frames("f.csv", batches, ("x", "y"), domains[:2], MissingPolicy())
    with pytest.raises(DataError, match=r"\(and 1 more problem\)$"):
        single.raise_if_refused()


def test_a_column_of_dates_is_not_numbers_and_a_missing_date_is_missing():
    """Parquet, Feather and Excel keep datetimes; pandas would read them as nanoseconds since 1970 (and a
    missing one as -2^63), which a numeric domain would silently clip to its bounds."""
    dates = pd.DataFrame({"x": pd.to_datetime(["2020-01-01", None, "2020-02-01"])})
    check = check_frames("f.parquet", [(0, dates)], ("x",), (DOMAIN,), MissingPolicy())
    (column,) = check.columns
    assert (column.missing, column.invalid, column.out_of_bounds) == (1, 2, 0)
    assert "row 1, column 'x': '2020-01-01 00:00:00' is not a finite number" in check.refusals[0]
    with pytest.raises(DataError, match="is not a finite number"):
        cell_indices(dates, "x", DOMAIN, MissingPolicy(), file_name="f.parquet")


@pytest.mark.parametrize("declared", [("false", "true"), ("FALSE", "TRUE")])
def test_the_check_counts_a_boolean_column_as_its_release_does(declared):
    """The pre-charge check and the release map a cell to a category the same way: a boolean column
    declared false/true in any case has no undeclared cell, no warning, no refusal."""
    values = frame([True, False, True])
    checked = check_frames("f.parquet", values, ("x",), (CategoricalDomain(declared),), MissingPolicy())
    assert not checked.refusals and not checked.warnings and checked.columns[0].unknown == 0


@pytest.mark.parametrize("written", ["38,41", "1,200", "-1.047,5"])
def test_a_number_with_a_comma_is_refused_with_the_files_decimal_mark(written: str) -> None:
    """A comma in a number a reader left as text (1,200 quoted in a comma-separated file, or beside a
    point): the refusal says why the comma made it text (fuzz report item 14)."""
    check = check_frames("f.csv", frame([1, written]), ("x",), (DOMAIN,), MissingPolicy())
    refusal = check.refusals[0]
    assert f"{written!r} is not a finite number; a number is read with one decimal mark" in refusal
    plain = check_frames("f.csv", frame([1, "12abc"]), ("x",), (DOMAIN,), MissingPolicy())
    assert plain.refusals[0].endswith(f"'12abc' is not a finite number{CATEGORY_HINT}")


def test_cells_declared_but_for_case_are_counted_and_warned_of() -> None:
    """Unseen-tables audit, session 34: " ny" and "ny" beside a declared "NY" were 6.7% of a column, counted
    as 'other' with only "1337 unknown" said (the warning starts at half a column)."""
    states = CategoricalDomain(("NY", "CA"), other=True)
    cells = ["NY", " ny", "ny", "Ca", "CA", "TX", None]
    check = check_frames("f.csv", frame(cells), ("x",), (states,), MissingPolicy(MissingKind.KEEP))
    (column,) = check.columns
    assert (column.unknown, column.near_miss) == (4, 3)  # ny twice and Ca; TX is simply undeclared
    assert check.warnings[0].startswith("3 cells of column 'x' differ from a declared category only by case")
    exact = check_frames("f.csv", frame(["NY", "TX"]), ("x",), (states,), MissingPolicy())
    assert exact.columns[0].near_miss == 0 and not exact.warnings
