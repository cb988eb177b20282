"""A float32 column counts where its values were written: 12.3 stored in single precision is
12.300000190734863 as a double, beyond the grid's snapping tolerance, and a Parquet file's 12.3 counted at the
grid point 12.4 where a CSV's counted at 12.3 (a loader fuzz, session 36)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.data.backends import open_aggregator
from dpgui.data.domain import NumericDomain
from dpgui.data.missing import MissingPolicy
from dpgui.data.validation import as_numbers, as_written

VALUES = [12.3, 50.1, 0.7, 99.9]


@pytest.mark.parametrize("engine", ["memory", "embedded"])
@pytest.mark.parametrize("dtype", ["float32", "Float32", "float64"])
def test_a_single_precision_column_counts_at_its_written_grid_points(tmp_path, engine, dtype):
    path = tmp_path / "x.parquet"
    pd.DataFrame({"x": pd.Series(VALUES * 25, dtype=dtype)}).to_parquet(path)
    domain = NumericDomain(0.0, 100.0, 0.1)
    counts = open_aggregator(path, engine).aggregator.histogram("x", domain, MissingPolicy())
    expected = np.zeros(domain.size, dtype=np.int64)
    np.add.at(expected, [123, 501, 7, 999], 25)
    assert np.array_equal(counts, expected)


def test_as_written_gives_each_value_its_shortest_decimal_and_keeps_missing_cells():
    single = np.array([12.3, np.nan, 1e-8, 16777217.0, -0.7], dtype=np.float32)
    assert as_written(single)[[0, 2, 3, 4]].tolist() == [12.3, 1e-08, 16777216.0, -0.7]
    assert np.isnan(as_written(single)[1])
    assert as_numbers(pd.Series(single)).dtype == np.float64
    assert float(np.float32(12.3)) != 12.3  # the double the plain widening gives, beyond the tolerance
