"""Pins from a mutation scan of dpgui/data/aggregate.py: categorical columns follow the declared
missing-value policy.

Rule (missing.py): 'For a categorical domain IMPUTE counts a missing cell in the declared 'other' category
(fill_value must stay None)'; under FAIL 'a missing value stops the release'; unknown columns are refused
naming the file's columns (validation.require_columns)."""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.data import CategoricalDomain, DataError
from dpgui.data.aggregate import InMemoryAggregator, cell_indices
from dpgui.data.dataset import open_dataset
from dpgui.data.missing import MissingKind, MissingPolicy

DOMAIN = CategoricalDomain(("a", "b"), other=True)
FRAME = pd.DataFrame({"c": ["a", None, "z", "b"]})


def test_a_numeric_fill_value_for_a_categorical_column_is_refused() -> None:
    with pytest.raises(DataError, match="column 'c' is categorical"):
        cell_indices(FRAME, "c", DOMAIN, MissingPolicy(fill_value=1.0), file_name="f.csv")


def test_a_missing_categorical_cell_counts_as_other_under_impute() -> None:
    assert cell_indices(FRAME, "c", DOMAIN, MissingPolicy(), file_name="f.csv").tolist() == [0, 2, 2, 1]


def test_an_unknown_categorical_column_is_refused_naming_the_columns() -> None:
    with pytest.raises(DataError, match=r"f.csv: no column 'nope'; the columns are 'c'"):
        cell_indices(FRAME, "nope", DOMAIN, MissingPolicy(), file_name="f.csv")


def test_category_counts_refuse_a_missing_cell_under_fail(tmp_path) -> None:
    path = tmp_path / "data.csv"
    path.write_text("c,x\na,1\n,2\nb,3\n")
    aggregator = InMemoryAggregator(open_dataset(path))
    assert aggregator.category_counts("c", DOMAIN, MissingPolicy()).tolist() == [1, 1, 1]
    with pytest.raises(DataError, match="row 2, column 'c': the value is missing and the policy refuses"):
        aggregator.category_counts("c", DOMAIN, MissingPolicy(MissingKind.FAIL))


def test_grid_counts_serve_only_their_own_column_and_grid() -> None:
    """GridCountsAggregator: 'over one numeric column already counted on its grid' -- asking for another
    column or grid is refused, for the histogram and the sorted distinct counts alike."""
    import numpy as np

    from dpgui.data import NumericDomain
    from dpgui.data.aggregate import GridCountsAggregator

    grid = NumericDomain(0, 3, 1)
    aggregator = GridCountsAggregator("x", grid, np.array([2, 0, 1, 0]))
    values, counts = aggregator.sorted_distinct_counts("x", grid, MissingPolicy())
    assert (values.tolist(), counts.tolist()) == ([0, 2], [2, 1])
    for column, domain in (("y", grid), ("x", NumericDomain(0, 4, 1))):
        with pytest.raises(DataError, match="only 'x' on its own grid was counted here"):
            aggregator.sorted_distinct_counts(column, domain, MissingPolicy())
        with pytest.raises(DataError, match="only 'x' on its own grid was counted here"):
            aggregator.histogram(column, domain, MissingPolicy())


@pytest.mark.parametrize("clique", [(), (0, 0)])
def test_a_marginal_clique_names_distinct_columns(clique) -> None:
    """MarginalCounter: 'a clique names distinct columns' (an empty or repeated clique is refused)."""
    from dpgui.data.aggregate import MarginalCounter

    with pytest.raises(ValueError, match="a clique names distinct columns"):
        MarginalCounter([3, 3], [clique])


def test_a_marginal_over_the_dense_limit_is_refused_before_counting(monkeypatch) -> None:
    """aggregate.DENSE_LIMIT (2^26): a dense marginal over more cells than the limit is refused ('too
    large'), not allocated. The limit is lowered here so that the test allocates nothing large."""
    from dpgui.data import aggregate
    from dpgui.data.aggregate import MarginalCounter

    monkeypatch.setattr(aggregate, "DENSE_LIMIT", 100)
    assert MarginalCounter([10, 10], [(0, 1)]).counts[0].size == 100
    with pytest.raises(DataError, match="a marginal over 2 columns of 110 cells is too large"):
        MarginalCounter([11, 10], [(0, 1)])


def test_category_counts_of_an_unknown_column_are_refused_naming_the_columns(tmp_path) -> None:
    path = tmp_path / "data.csv"
    path.write_text("c,x\na,1\n")
    with pytest.raises(DataError, match=r"data.csv: no column 'nope'; the columns are 'c', 'x'"):
        InMemoryAggregator(open_dataset(path)).category_counts("nope", DOMAIN, MissingPolicy())
