"""InMemoryAggregator: aggregates over declared domains equal hand-computed values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpgui.data import (
    Aggregator,
    CategoricalDomain,
    DataError,
    Dataset,
    InMemoryAggregator,
    MissingKind,
    MissingPolicy,
    NumericDomain,
)
from dpgui.data.aggregate import GridCountsAggregator, cell_count, cell_indices

IMPUTE = MissingPolicy()
FAIL = MissingPolicy(MissingKind.FAIL)
HOURS = NumericDomain(0.0, 10.0, 1.0)
EDUCATION = NumericDomain(10.0, 14.0, 2.0)


def aggregator(frame: pd.DataFrame) -> InMemoryAggregator:
    return InMemoryAggregator(Dataset(path=Path("hand.csv"), sha256="0" * 64, frame=frame))


# hours: ties at 3, clipped below (-2 -> 0) and above (12 -> 10), missing imputed to the lower bound 0
HAND = aggregator(
    pd.DataFrame(
        {
            "hours": [3.0, 3.0, -2.0, 12.0, np.nan, 4.4, 3.0, 9.6],
            "education": [12, 10, 16, 11.2, 9, 12, np.nan, 14],
            "full": ["yes", "no", "yes", "yes", "no", "no", "yes", "yes"],
            "region": ["south", "west", "west", None, "north", "south", "west", "south"],
        }
    )
)


def test_in_memory_aggregator_satisfies_the_protocol_and_names_its_backend() -> None:
    backend: Aggregator = HAND
    assert backend.name == "memory"
    assert backend.count() == 8


def test_sorted_distinct_counts_with_ties_clipping_and_imputation() -> None:
    values, counts = HAND.sorted_distinct_counts("hours", HOURS, IMPUTE)
    assert values.dtype == np.uint64 and counts.dtype == np.int64
    assert values.tolist() == [0, 3, 4, 10]
    assert counts.tolist() == [2, 3, 1, 2]


def test_histogram_with_ties_clipping_and_imputation() -> None:
    assert HAND.histogram("hours", HOURS, IMPUTE).tolist() == [2, 0, 0, 3, 1, 0, 0, 0, 0, 0, 2]


def test_imputed_fill_value_is_clipped_like_any_value() -> None:
    values, counts = HAND.sorted_distinct_counts("hours", HOURS, MissingPolicy(MissingKind.IMPUTE, 50.0))
    assert values.tolist() == [0, 3, 4, 10] and counts.tolist() == [1, 3, 1, 3]


def test_missing_value_under_fail_names_the_row() -> None:
    with pytest.raises(DataError, match=r"hand\.csv, row 5, column 'hours'"):
        HAND.sorted_distinct_counts("hours", HOURS, FAIL)


def test_labelled_distinct_counts_split_each_point_by_label() -> None:
    values, positives, negatives = HAND.labelled_distinct_counts("hours", HOURS, IMPUTE, "full", None)
    assert values.tolist() == [0, 3, 4, 10]
    assert positives.tolist() == [1, 2, 0, 2]
    assert negatives.tolist() == [1, 1, 1, 0]


def test_labelled_distinct_counts_with_a_declared_positive_value() -> None:
    values, positives, negatives = HAND.labelled_distinct_counts("hours", HOURS, IMPUTE, "region", "south")
    assert values.tolist() == [0, 3, 4, 10]
    assert positives.tolist() == [0, 1, 1, 1]
    assert negatives.tolist() == [2, 2, 0, 1]


def test_a_two_way_marginal_counts_pairs_of_grid_points() -> None:
    # education: 12, 10, 16->14, 11.2->12 (index 1), 9->10, 12, nan->10, 14
    (joint,) = HAND.marginals(["hours", "education"], [HOURS, EDUCATION], [IMPUTE, IMPUTE], [(0, 1)])
    expected = np.zeros((11, 3), dtype=np.int64)
    for hour, education in [(3, 1), (3, 0), (0, 2), (10, 1), (0, 0), (4, 1), (3, 0), (10, 2)]:
        expected[hour, education] += 1
    np.testing.assert_array_equal(joint, expected)


def test_category_counts_put_missing_and_undeclared_values_in_other() -> None:
    domain = CategoricalDomain(("south", "west"), other=True)
    assert HAND.category_counts("region", domain, IMPUTE).tolist() == [3, 3, 2]


def test_category_counts_keep_an_empty_other_cell() -> None:
    counts = aggregator(pd.DataFrame({"region": ["south", "west", "south"]})).category_counts(
        "region", CategoricalDomain(("south", "west"), other=True), IMPUTE
    )
    assert counts.tolist() == [2, 1, 0]  # one count per index, 'other' too, though nobody sits there


def test_category_counts_refuse_missing_cells_under_fail() -> None:
    with pytest.raises(DataError, match=r"row 4, column 'region'"):
        HAND.category_counts("region", CategoricalDomain(("south", "west"), other=True), FAIL)


def test_category_counts_refuse_a_numeric_fill_value() -> None:
    with pytest.raises(DataError, match="categorical"):
        HAND.category_counts(
            "region", CategoricalDomain(("south",), other=True), MissingPolicy(fill_value=1.0)
        )


def test_column_matrix_holds_clipped_gridded_values() -> None:
    matrix = HAND.column_matrix(["hours", "education"], [HOURS, EDUCATION], [IMPUTE, IMPUTE])
    assert matrix.shape == (8, 2) and matrix.dtype == np.float64
    assert matrix[:, 0].tolist() == [3, 3, 0, 10, 0, 4, 3, 10]
    assert matrix[:, 1].tolist() == [12, 10, 14, 12, 10, 12, 10, 14]


def test_column_matrix_needs_one_domain_and_policy_per_column() -> None:
    with pytest.raises(ValueError, match="one domain"):
        HAND.column_matrix(["hours", "education"], [HOURS], [IMPUTE])


def test_dense_aggregates_refuse_grids_beyond_2_pow_26_cells() -> None:
    fine = NumericDomain(0.0, 10.0, 1e-7)
    with pytest.raises(DataError, match="sorted distinct counts"):
        HAND.histogram("hours", fine, IMPUTE)
    with pytest.raises(DataError, match="too large"):
        HAND.marginals(
            ["hours", "education"], [NumericDomain(0, 10_000, 1), fine], [IMPUTE, IMPUTE], [(0, 1)]
        )


def test_sorted_distinct_counts_work_on_a_2_pow_64_point_domain() -> None:
    values, counts = HAND.sorted_distinct_counts("hours", NumericDomain(0, 2**64 - 1, 1), IMPUTE)
    assert values.tolist() == [0, 3, 4, 10, 12] and counts.tolist() == [2, 3, 1, 1, 1]


def test_unknown_column_is_refused_with_the_available_ones() -> None:
    with pytest.raises(DataError, match="the columns are 'hours'"):
        HAND.histogram("age", HOURS, IMPUTE)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.floats(-20, 120, allow_nan=False)), min_size=1, max_size=200),
    st.sampled_from(
        [
            NumericDomain(0.0, 100.0, 0.5),
            NumericDomain(-5.0, 5.0, 0.3),
            NumericDomain(0, 7, 1),
            NumericDomain(0.0, 100.0, 0.001),  # more points than n and 2^16: counted by sorting
        ]
    ),
)
def test_sorted_distinct_counts_agree_with_the_histogram_on_small_and_sorted_paths(
    cells: list[float | None], domain: NumericDomain
) -> None:
    backend = aggregator(pd.DataFrame({"x": pd.array(cells, dtype="Float64")}))
    values, counts = backend.sorted_distinct_counts("x", domain, IMPUTE)
    histogram = backend.histogram("x", domain, IMPUTE)
    assert np.all(np.diff(values.astype(np.int64)) > 0)
    assert values.tolist() == np.flatnonzero(histogram).tolist()
    assert counts.tolist() == histogram[histogram > 0].tolist()
    assert counts.sum() == len(cells)


def test_kept_missing_values_count_in_one_more_cell_of_every_marginal() -> None:
    """Under KEEP (a synthetic table) a missing number or category is the extra cell ``domain.size``; the
    present values keep their cells, and a marginal's shape grows by one per column (``cell_count``)."""
    frame = pd.DataFrame({"h": [1.0, np.nan, 3.0], "c": ["a", "zzz", None]})
    keep, categories = MissingPolicy(MissingKind.KEEP), CategoricalDomain(("a",), other=True)
    assert cell_indices(frame, "h", HOURS, keep, file_name="f.csv").tolist() == [1, HOURS.size, 3]
    assert cell_indices(frame, "c", categories, keep, file_name="f.csv").tolist() == [0, 1, 2]
    assert cell_count(HOURS, keep) == HOURS.size + 1 and cell_count(HOURS, IMPUTE) == HOURS.size
    data = InMemoryAggregator(Dataset(path=Path("f.csv"), sha256="0" * 64, frame=frame))
    (joint,) = data.marginals(["h", "c"], [HOURS, categories], [keep, keep], [(0, 1)])
    assert joint.shape == (HOURS.size + 1, 3)
    assert joint[1, 0] == 1 and joint[HOURS.size, 1] == 1 and joint[3, 2] == 1 and joint.sum() == 3


def test_grid_counts_serve_what_the_same_rows_counted_in_memory_serve():
    values = np.random.default_rng(4).normal(5, 2, 500)
    rows = aggregator(pd.DataFrame({"hours": values}))
    counts = rows.histogram("hours", HOURS, IMPUTE)
    counted = GridCountsAggregator("hours", HOURS, counts)
    assert counted.count() == rows.count() == 500
    assert np.array_equal(counted.histogram("hours", HOURS, IMPUTE), counts)
    for got, want in zip(
        counted.sorted_distinct_counts("hours", HOURS, IMPUTE),
        rows.sorted_distinct_counts("hours", HOURS, IMPUTE),
        strict=True,
    ):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    with pytest.raises(DataError, match="only 'hours'"):
        counted.histogram("education", EDUCATION, IMPUTE)
