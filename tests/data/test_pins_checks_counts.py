"""Pins from a mutation scan of dpgui/data/checks.py: the pre-charge data check counts every column it reads,
the label included, and refuses bad cells with a message naming file, row and column.

Rule (checks.py): "ColumnCheck: Counts for one column over every row"; "The pass reads every row of the
columns a task uses ... so a file the aggregation would refuse is refused here, before the ledger reserves
anything"."""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.data import DataError, NumericDomain
from dpgui.data.backends import open_aggregator
from dpgui.data.checks import MARKER_HINT, check_data
from dpgui.data.missing import MissingPolicy
from tests.data.checking import check_frames

DOMAIN = NumericDomain(0, 10, 1)


def test_the_label_column_is_counted_over_every_row_with_its_missing_cells() -> None:
    frame = pd.DataFrame({"x": [1, 2, 3, 4], "y": ["1", None, "0", "1"]})
    check = check_frames("f.csv", [(0, frame)], ("x",), (DOMAIN,), MissingPolicy(), label="y", positive="1")
    label = check.columns[1]
    assert (label.column, label.role, label.rows, label.missing) == ("y", "label", 4, 1)
    assert check.lines()[1] == "f.csv: column 'y': 1 missing (25.0%), 0 invalid of 4 rows"


def test_a_missing_or_unknown_label_is_refused_by_the_check_naming_its_row() -> None:
    """Without --positive the aggregation refuses a missing label or a value that is none of 0/1, true/false,
    yes/no (validation.binary_labels), so the pre-charge check must refuse it first, naming file, row and
    column, and count the unknown label."""
    frame = pd.DataFrame({"x": [1, 2, 3], "y": ["1", None, "maybe"]})
    check = check_frames("f.csv", [(0, frame)], ("x",), (DOMAIN,), MissingPolicy(), label="y")
    label = check.columns[1]
    assert (label.rows, label.missing, label.unknown) == (3, 1, 1)
    assert check.refusals == ("f.csv, row 2, column 'y': the label is missing",)
    assert check.lines()[1] == "f.csv: column 'y': 1 missing (33.3%), 0 invalid, 1 unknown of 3 rows"


def test_valid_labels_pass_the_check_and_only_value_columns_show_out_of_bounds() -> None:
    """ColumnCheck.describe: out-of-bounds counts belong to value columns (read through a domain); unknown
    counts are shown only when there are some."""
    frame = pd.DataFrame({"x": [1, 20, 3], "y": ["1", "0", "yes"]})
    check = check_frames("f.csv", [(0, frame)], ("x",), (DOMAIN,), MissingPolicy(), label="y")
    assert check.refusals == ()
    assert check.lines() == [
        "f.csv: column 'x': 0 missing (0.0%), 0 invalid, 1 out of bounds of 3 rows",
        "f.csv: column 'y': 0 missing (0.0%), 0 invalid of 3 rows",
        "warning: 33.3% of column 'x' lies outside its declared bounds [0, 10] and counts at the nearer "
        "bound: check the bounds (and their unit) against the column; a release reflects the clipped values",
    ]


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_check_data_names_an_unknown_column_before_reading_any_row(tmp_path, engine) -> None:
    """check_data refuses a column the file does not have with a DataError naming it and the file's columns
    (require_columns), not a KeyError."""
    path = tmp_path / "data.csv"
    path.write_text("x,y\n1,2\n3,4\n")
    opened = open_aggregator(path, engine)
    with pytest.raises(DataError, match=r"data.csv: no column 'z'; the columns are 'x', 'y'"):
        check_data(opened.dataset, opened.aggregator, ("z",), (DOMAIN,), MissingPolicy())


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_check_data_reads_every_row_with_every_engine(tmp_path, engine) -> None:
    """checks.py: 'The pass reads every row of the columns a task uses ... so a file the aggregation would
    refuse is refused here, before the ledger reserves anything; every engine gives the same verdict on the
    same file'."""
    path = tmp_path / "data.csv"
    path.write_text("x,y\n1,2\nbad,4\n30,5\n")
    opened = open_aggregator(path, engine)
    check = check_data(opened.dataset, opened.aggregator, ("x",), (DOMAIN,), MissingPolicy())
    (column,) = check.columns
    assert (column.rows, column.invalid, column.out_of_bounds) == (3, 1, 1)
    assert check.refusals == ("data.csv, row 2, column 'x': 'bad' is not a finite number" + MARKER_HINT,)


def test_the_refusal_names_the_first_bad_cell_across_batches() -> None:
    """ColumnCheck.first_problem: 'Where the first refused cell is' -- a later batch's bad cell does not
    replace it."""
    batches = [(0, pd.DataFrame({"x": ["bad", 1]})), (2, pd.DataFrame({"x": [2, "worse"]}))]
    check = check_frames("f.csv", batches, ("x",), (DOMAIN,), MissingPolicy())
    assert check.columns[0].invalid == 2
    assert check.refusals == ("f.csv, row 1, column 'x': 'bad' is not a finite number" + MARKER_HINT,)


def test_missing_labels_with_a_named_positive_are_negatives_not_missing_values_to_impute() -> None:
    """validation.binary_labels: with ``positive`` given 'a missing cell is therefore negative' -- the
    missing-value policy (impute or fail) applies to value columns, not to the label, so the check neither
    warns about imputing labels nor refuses them."""
    from dpgui.data.missing import MissingKind

    frame = pd.DataFrame({"x": [1, 2, 3, 4], "y": ["1", None, None, "0"]})
    for policy in (MissingPolicy(), MissingPolicy(MissingKind.FAIL)):
        check = check_frames("f.csv", [(0, frame)], ("x",), (DOMAIN,), policy, label="y", positive="1")
        assert (check.refusals, check.warnings) == ((), ())


def test_a_partition_summary_counts_every_frame_of_the_partition() -> None:
    """checks._partition_summary (the Spark engine's per-partition pass): 'Run a fresh checker over one
    partition's frames; its counts' -- every frame is counted, so the Spark engine refuses what the others
    refuse."""
    from functools import partial

    from dpgui.data.checks import FrameChecker, _partition_summary

    make = partial(FrameChecker, "f.csv", ("x",), (DOMAIN,), MissingPolicy())
    frames = [pd.DataFrame({"x": [1, None]}), pd.DataFrame({"x": ["bad", 11]})]
    summary = _partition_summary(make, iter(frames))
    row = summary.iloc[0]
    assert (row["rows"], row["missing"], row["invalid"], row["out_of_bounds"]) == (4, 1, 1, 1)
    assert row["first_problem"] == "f.csv, row 3, column 'x': 'bad' is not a finite number" + MARKER_HINT


def test_a_column_mostly_outside_its_declared_categories_warns() -> None:
    """checks.UNDECLARED_WARNING: 'Above this fraction of cells outside a column's declared categories (all
    counted as "other"), the check warns: the list most likely does not match how the file writes the
    values'."""
    from dpgui.data import CategoricalDomain

    frame = pd.DataFrame({"c": ["1", "0", "1", "true"]})
    domain = CategoricalDomain(("true", "false"), other=True)
    check = check_frames("f.csv", [(0, frame)], ("c",), (domain,), MissingPolicy())
    assert check.refusals == ()
    assert len(check.warnings) == 1
    assert check.warnings[0].startswith("75.0% of column 'c' is none of the declared categories")
    half = check_frames(
        "f.csv", [(0, pd.DataFrame({"c": ["1", "0", "true", "false"]}))], ("c",), (domain,), MissingPolicy()
    )
    assert half.warnings == ()  # exactly half: not above the fraction


def test_values_on_the_declared_bounds_are_in_bounds() -> None:
    """ColumnCheck.out_of_bounds: 'Finite numbers outside the declared bounds (clipped to the nearest bound)'
    -- the bounds themselves are inside [lower, upper]."""
    check = check_frames("f.csv", frame_of([0, 10, -1, 11, 5]), ("x",), (DOMAIN,), MissingPolicy())
    assert check.columns[0].out_of_bounds == 2


def frame_of(values: list[object]) -> list[tuple[int, pd.DataFrame]]:
    return [(0, pd.DataFrame({"x": values}))]


def test_the_imputation_warning_starts_above_five_percent_missing() -> None:
    """checks.IMPUTED_WARNING: 'Above this fraction of imputed cells in a column, the check warns' -- exactly
    5% (1 of 20) does not warn, 10% does."""
    one = check_frames("f.csv", frame_of([None] + [1] * 19), ("x",), (DOMAIN,), MissingPolicy())
    assert one.warnings == ()
    two = check_frames("f.csv", frame_of([None, None] + [1] * 18), ("x",), (DOMAIN,), MissingPolicy())
    assert len(two.warnings) == 1 and two.warnings[0].startswith("10.0% of column 'x' is missing")
