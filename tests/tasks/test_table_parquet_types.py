"""synthetic.parquet types a categorical column as text even when every synthetic cell of it is blank (a
column almost all missing, or a one-row table): pyarrow wrote such a column with the null type, so the
Parquet file disagreed with the CSV and with the column's declared categories (sweep of unseen tables)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import TaskKind, TaskSpec
from dpgui.tasks.table import synthetic_frame, synthetic_parquet

LETTERS = CategoricalDomain(("a", "b"), other=True)


def test_a_categorical_column_of_blanks_is_written_as_text():
    spec = TaskSpec(
        TaskKind.TABLE,
        ("letter", "years", "code"),
        (LETTERS, NumericDomain(0, 9, 1), CategoricalDomain(("1", "2"))),
        1.0,
        missing=MissingPolicy(MissingKind.KEEP),
    )
    rows = np.array([[LETTERS.size, 3, 0], [LETTERS.size, 10, 1]])  # every letter blank (kept missing)
    content = synthetic_parquet(spec, synthetic_frame(spec, rows))
    schema = pq.read_schema(io.BytesIO(content))
    assert [schema.field(name).type for name in spec.columns] == [pa.string(), pa.int64(), pa.string()]
    read = pd.read_parquet(io.BytesIO(content))
    assert read["letter"].isna().all() and read["years"].tolist()[0] == 3 and pd.isna(read["years"][1])
    assert read["code"].tolist() == ["1", "2"]
