"""A folder of Parquet parts is one table: a part with other columns or types is refused by name before
anything is counted (a loader fuzz, session 36: a part without the column was read as missing cells, and the
release imputed it without a word)."""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.data.backends import open_aggregator
from dpgui.data.errors import DataError


@pytest.mark.parametrize(
    ("second", "said"),
    [
        (pd.DataFrame({"z": [1.0]}), r"part-1.parquet has z \(double\), part-0.parquet has x \(double\)"),
        (pd.DataFrame({"x": [1]}), r"part-1.parquet has x \(int64\), part-0.parquet has x \(double\)"),
        (pd.DataFrame({"x": [1.0], "y": [2.0]}), "its parts hold different columns"),
    ],
)
def test_a_part_with_other_columns_or_types_is_refused_by_name(tmp_path, second, said):
    folder = tmp_path / "table"
    folder.mkdir()
    pd.DataFrame({"x": [1.0, 2.0]}).to_parquet(folder / "part-0.parquet")
    second.to_parquet(folder / "part-1.parquet")
    with pytest.raises(DataError, match=said):
        open_aggregator(folder, "embedded").aggregator.count()


def test_parts_that_agree_are_one_table(tmp_path):
    folder = tmp_path / "table"
    folder.mkdir()
    for k in range(3):
        pd.DataFrame({"x": [float(k)] * (k + 1)}).to_parquet(folder / f"part-{k}.parquet")
    (folder / "_SUCCESS").write_text("")  # Spark's marker is not a part
    assert open_aggregator(folder, "embedded").aggregator.count() == 6
