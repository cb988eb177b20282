"""An old Feather version 1 file: the in-memory engine reads it, ``auto`` never sends it to the out-of-core
engine, and that engine names the format instead of calling the file damaged."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pytest

from dpgui.data import DataError
from dpgui.data.backends import Engine, choose_engine, open_aggregator


@pytest.fixture
def feather_v1(tmp_path):
    path = tmp_path / "old.feather"
    with pytest.warns(DeprecationWarning):
        feather.write_feather(pa.Table.from_pandas(pd.DataFrame({"x": [1.0, 2.0, 3.0]})), path, version=1)
    return path


def test_auto_reads_a_large_feather_v1_file_in_memory(feather_v1):
    assert choose_engine(feather_v1, threshold=0) is Engine.MEMORY


def test_the_out_of_core_engine_names_the_old_format(feather_v1):
    assert open_aggregator(feather_v1, Engine.MEMORY).dataset.n_rows == 3
    with pytest.raises(DataError, match="Feather version 1"):
        open_aggregator(feather_v1, Engine.EMBEDDED)
