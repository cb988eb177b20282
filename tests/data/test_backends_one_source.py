"""open_aggregator reads one source: a file given together with a Spark table was silently dropped (the
table was read). It is refused before anything is opened (and Spark is never started)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.data.backends import open_aggregator
from dpgui.data.errors import DataError


def test_a_file_and_a_spark_table_together_are_refused(tmp_path: Path):
    path = tmp_path / "small.csv"
    path.write_text("x\n1\n2\n3\n")
    with pytest.raises(DataError, match=r"\(--data\) or a Spark table \(--table people\), not both"):
        open_aggregator(path, table="people")
