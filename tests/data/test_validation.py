"""Column checks point at the offending cell; labels understand the usual binary spellings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.data import (
    ColumnKind,
    ColumnSummary,
    DataError,
    binary_labels,
    numeric_column,
    require_columns,
    summarize_columns,
)
from dpgui.data.loaders import load_table


def test_numeric_column_converts_text_numbers_and_keeps_missing_as_nan() -> None:
    frame = pd.DataFrame({"x": ["1.5", None, "3"]})
    column = numeric_column(frame, "x", file_name="f.csv")
    assert column.dtype == np.float64
    assert column.iloc[0] == 1.5 and np.isnan(column.iloc[1]) and column.iloc[2] == 3.0


def test_bad_numeric_cell_message_names_file_row_column_and_value() -> None:
    frame = pd.DataFrame({"wage": ["1.5", "2", "12 dollars"]})
    with pytest.raises(DataError) as info:
        numeric_column(frame, "wage", file_name="cps.csv")
    message = str(info.value)
    assert "cps.csv" in message and "row 3" in message and "'wage'" in message and "12 dollars" in message


def test_bad_numeric_cell_is_shown_truncated_to_40_characters() -> None:
    frame = pd.DataFrame({"x": ["y" * 100]})
    with pytest.raises(DataError) as info:
        numeric_column(frame, "x", file_name="f.csv")
    assert "y" * 38 not in str(info.value) and "y" * 37 + "..." in str(info.value)


def test_unknown_column_lists_the_available_ones() -> None:
    frame = pd.DataFrame({"wage": [1], "region": ["a"]})
    with pytest.raises(DataError, match=r"f\.csv: no column 'age'; the columns are 'wage', 'region'"):
        require_columns(frame, ["wage", "age"], file_name="f.csv")


def test_a_title_row_or_an_empty_first_row_is_named_as_what_hides_the_header() -> None:
    """An audit's workbooks: a title in A1 above the table, or a table starting at C3. The refusal listed
    'My Survey Title', 'Unnamed: 1', ... without a word on why."""
    titled = pd.DataFrame(columns=["My Survey Title", "Unnamed: 1", "Unnamed: 2"])
    with pytest.raises(DataError, match=r"first row holds a title \('My Survey Title'\) and empty cells"):
        require_columns(titled, ["x"], file_name="title.xlsx")
    offset = pd.DataFrame(columns=["Unnamed: 0", "Unnamed: 1"])
    with pytest.raises(DataError, match=r"first row holds only empty cells.*header seems to be on a later"):
        require_columns(offset, ["x"], file_name="offset.xlsx")
    with pytest.raises(DataError) as plain:  # control: a header with names says nothing of the kind
        require_columns(pd.DataFrame(columns=["wage", "Unnamed: 1"]).assign(age=[]), ["x"], file_name="f")
    assert "first row" not in str(plain.value)


def test_a_comment_line_above_a_csv_header_is_named(tmp_path) -> None:
    path = tmp_path / "comment.csv"
    path.write_text("# exported by tool\nx,y\n1,2\n3,4\n")
    with pytest.raises(DataError, match=r"the first line, '# exported by tool', looks like a comment"):
        load_table(path)


def test_a_column_the_header_writes_with_spaces_is_named_as_written(tmp_path) -> None:
    """A header typed "wage, age" names the column ' age': asked for 'age', the refusal listed ' age'
    among the columns, the space hidden inside the quotes."""
    from dpgui.data.loaders import load_table

    path = tmp_path / "typed.csv"
    path.write_text("wage, age\n1, 30\n2, 40\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"\(the header writes it ' age', with spaces: name it so, or remove"):
        require_columns(load_table(path), ["wage", "age"], file_name=path.name)
    with pytest.raises(DataError, match=r"writes it 'wage', without the spaces around ' wage'\)"):
        require_columns(load_table(path), [" wage"], file_name=path.name)  # the spaces typed, not written


@pytest.mark.parametrize(
    "cells",
    [[0, 1, 1, 0], [0.0, 1.0, 1.0, 0.0], ["no", "Yes", "YES", "no"], ["false", "true", "True", " false"]],
)
def test_binary_labels_understand_0_1_true_false_yes_no(cells: list[object]) -> None:
    frame = pd.DataFrame({"y": cells})
    assert binary_labels(frame, "y", None, file_name="f").tolist() == [False, True, True, False]


def test_boolean_column_is_its_own_label() -> None:
    frame = pd.DataFrame({"y": [True, False]})
    assert binary_labels(frame, "y", None, file_name="f").tolist() == [True, False]


def test_positive_value_decides_the_label_and_missing_is_negative() -> None:
    frame = pd.DataFrame({"region": ["south", "west", None, "south "]})
    assert binary_labels(frame, "region", "south", file_name="f").tolist() == [True, False, False, True]


def test_positive_value_matches_numbers_written_as_text() -> None:
    frame = pd.DataFrame({"grade": [1.0, 2.0, np.nan]})
    assert binary_labels(frame, "grade", "2", file_name="f").tolist() == [False, True, False]


def test_many_label_values_without_positive_list_the_first_and_suggest_positive() -> None:
    frame = pd.DataFrame({"region": ["a", "b", "c", "d", "e", "f", "a"]})
    with pytest.raises(DataError) as info:
        binary_labels(frame, "region", None, file_name="f.csv")
    message = str(info.value)
    assert "6 distinct values" in message and "'a', 'b', 'c', 'd', 'e', ..." in message
    assert "--positive" in message and "'f'" not in message


def test_missing_label_without_positive_names_the_row() -> None:
    frame = pd.DataFrame({"y": ["yes", None]})
    with pytest.raises(DataError, match=r"f\.csv, row 2, column 'y': the label is missing"):
        binary_labels(frame, "y", None, file_name="f.csv")


def test_summary_gives_kind_and_missing_count_per_column() -> None:
    frame = pd.DataFrame(
        {
            "wage": [1.0, np.nan, 3.0],
            "region": ["a", None, None],
            "flag": [True, False, True],
            "when": pd.to_datetime(["2020-01-01"] * 3),
        }
    )
    assert summarize_columns(frame) == [
        ColumnSummary("wage", ColumnKind.NUMERIC, 1),
        ColumnSummary("region", ColumnKind.CATEGORICAL, 2),
        ColumnSummary("flag", ColumnKind.CATEGORICAL, 0),
        ColumnSummary("when", ColumnKind.OTHER, 0),
    ]


def test_a_parquet_decimal_column_is_numeric_in_the_summary_as_numeric_column_reads_it(tmp_path) -> None:
    """A decimal column (money from a database) reaches pandas as Decimal objects: the summary called it
    'other', so the app offered it neither as a number nor declared bounds for it, while the CLI read it."""
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    from dpgui.data.loaders import load_table

    cents = [decimal.Decimal("12.50"), None, decimal.Decimal("7.25")]
    path = tmp_path / "pay.parquet"
    table = pa.table({"pay": pa.array(cents, type=pa.decimal128(10, 2)), "who": ["a", "b", "c"]})
    pq.write_table(table, path)
    frame = load_table(path)
    assert summarize_columns(frame) == [
        ColumnSummary("pay", ColumnKind.NUMERIC, 1),
        ColumnSummary("who", ColumnKind.CATEGORICAL, 0),
    ]
    assert numeric_column(frame, "pay", file_name=path.name).tolist()[::2] == [12.5, 7.25]


@pytest.mark.parametrize(
    "cells",
    [
        pd.Series([True, False, True]),
        pd.Series([True, None, False], dtype="boolean"),
        pd.Series([1.5, None, True], dtype=object),
    ],
)
def test_true_false_cells_are_not_numbers(cells) -> None:
    """Loader fuzz (session 36): a TRUE/FALSE column was released as 0 and 1 by a CDF over [0, 100]."""
    with pytest.raises(DataError, match=r"'True' is not a finite number \(a true/false value: count such"):
        numeric_column(pd.DataFrame({"y": cells}), "y", file_name="f.csv")
    assert numeric_column(pd.DataFrame({"y": [1.0, None, 0.0]}), "y", file_name="f.csv").tolist()[::2] == [
        1,
        0,
    ]


def test_a_text_column_of_mostly_numbers_is_numeric_and_an_empty_one_is_neither():
    """GUI audit (session 39): an age column with 2% 'unknown' was typed categorical, so no numeric task
    offered it (a release of it names the text cells and how to mark them missing), and a column with
    every cell empty was typed numeric and offered to every numeric task."""
    import numpy as np
    import pandas as pd

    from dpgui.data.validation import ColumnKind, summarize_columns

    frame = pd.DataFrame(
        {
            "age": pd.Series([str(i) for i in range(98)] + ["unknown"] * 2, dtype=object),
            "codes": pd.Series([str(i) for i in range(80)] + ["n/a"] * 20, dtype=object),
            "notes": [np.nan] * 100,
        }
    )
    kinds = {summary.name: summary.kind for summary in summarize_columns(frame)}
    assert kinds == {"age": ColumnKind.NUMERIC, "codes": ColumnKind.CATEGORICAL, "notes": ColumnKind.OTHER}
