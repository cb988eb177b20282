"""Cells the readers make something else of are flagged before the charge: a numeric column written like
1.047 and 999 (German and Dutch spreadsheets write 1047 as 1.047, and dpgui, reading a decimal point, would
release values 1,000 times too small), and a declared category spelt like a missing value ("NA")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.data import NumericDomain
from dpgui.data.backends import open_aggregator
from dpgui.data.checks import check_data
from dpgui.data.domain import CategoricalDomain
from dpgui.data.missing import MISSING_SPELLINGS, MissingPolicy
from dpgui.data.text_format import mixed_decimal_mark_columns, sampled_columns, thousands_separator_columns

WAGES = NumericDomain(0, 5000, 1)


def write(tmp_path: Path, text: str, name: str = "data.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "suspects"),
    [
        ("wage;age\n1.047;31\n999;45\n2.310;28\n", ("wage",)),  # German export: the point between thousands
        ("wage,age\n1.047,31\n2.310,45\n", ("wage",)),  # every wage above 1,000
        ("wage,age\n1.047,31\n12.34,45\n", ()),  # 12.34 has two decimals: the point is a decimal mark
        ("wage,age\n1.047,31\n1047,45\n", ()),  # 1047 is written without a separator
        ("wage,age\n1.047,31\n", ()),  # one number says too little
        ("wage,age\n-1.250,31\n+999,45\n", ("wage",)),  # signs allowed
        ("wage;age\n1,5;31\n2,25;45\n", ()),  # decimal commas with fewer than three digits
        ("wage;age\n1,047;31\n999;45\n", ("wage",)),  # a comma between thousands, outside a comma file
        ("wage,age\n1.047,31\n,45\n3.100,28\n", ("wage",)),  # a blank cell says nothing
    ],
)
def test_columns_written_with_three_digits_after_every_point_are_suspects(
    tmp_path: Path, text: str, suspects: tuple[str, ...]
):
    assert thousands_separator_columns(sampled_columns(write(tmp_path, text))) == suspects


def test_binary_formats_are_not_sniffed(tmp_path: Path):
    assert sampled_columns(write(tmp_path, "wage\n1.047\n999\n", "data.parquet")).columns == ()


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_the_data_check_warns_for_a_numeric_column_only(tmp_path: Path, engine: str):
    path = write(tmp_path, "wage;code\n1.047;1.100\n999;2.200\n2.310;3.300\n")
    opened = open_aggregator(path, engine)
    check = check_data(
        opened.dataset,
        opened.aggregator,
        ("wage", "code"),
        (WAGES, CategoricalDomain(("1.1", "2.2", "3.3"))),  # a category written 1.100 is no number
        MissingPolicy(),
    )
    (warning,) = check.warnings
    assert warning.startswith("column 'wage' is written like 1.047 and 999")
    assert "read 1,000 times too small" in warning and not check.refusals
    assert "2.310" not in warning  # the example is the message's own, never a value of the file


def test_a_file_with_ordinary_decimals_gets_no_warning(tmp_path: Path):
    path = write(tmp_path, "wage\n1047.5\n999\n2310.25\n")
    opened = open_aggregator(path, "memory")
    check = check_data(opened.dataset, opened.aggregator, ("wage",), (WAGES,), MissingPolicy())
    assert check.warnings == ()


@pytest.mark.parametrize(
    ("text", "mixed"),
    [
        ("x;y\n4,898;a\n915.0;b\n12;c\n", ("x",)),  # a loader fuzz: read 4.898 and 915
        ("x;y\n4,5;1.5\n3,25;2.5\n", ()),  # one mark per column, whichever it is
        ("x;y\n-,5;1\n+.5;2\n", ("x",)),  # signs and a bare fraction
        ("x,y\n4.5,1\n915.0,2\n", ()),  # a comma file: the point is its only decimal mark
    ],
)
def test_a_column_written_with_both_decimal_marks_is_a_suspect(tmp_path: Path, text: str, mixed):
    assert mixed_decimal_mark_columns(sampled_columns(write(tmp_path, text))) == mixed


def test_the_data_check_warns_of_both_decimal_marks_in_one_column(tmp_path: Path):
    path = write(tmp_path, "x;y\n7,125;a\n310.5;b\n")
    opened = open_aggregator(path, "memory")
    check = check_data(opened.dataset, opened.aggregator, ("x",), (WAGES,), MissingPolicy())
    (warning,) = check.warnings
    assert warning.startswith("column 'x' writes numbers with a decimal point and with a decimal comma")
    assert "7,125" not in warning and "310.5" not in warning  # its examples are its own, not the file's


def test_the_missing_spellings_are_pandas_own():
    from pandas._libs.parsers import STR_NA_VALUES

    assert MISSING_SPELLINGS == STR_NA_VALUES


@pytest.mark.parametrize(("suffix", "warned"), [(".csv", True), (".parquet", False)])
def test_a_category_spelt_like_a_missing_value_is_flagged_where_the_readers_take_it_for_one(
    tmp_path: Path, suffix: str, warned: bool
):
    """Pandas reads "NA" in a CSV (or a workbook) as missing, so a category "NA" never counts; a Parquet
    file keeps the text."""
    import pandas as pd

    path = tmp_path / f"data{suffix}"
    frame = pd.DataFrame({"region": ["NA", "EU", "NA", "EU"]})
    frame.to_csv(path, index=False) if suffix == ".csv" else frame.to_parquet(path)
    opened = open_aggregator(path, "memory")
    domain = CategoricalDomain(("EU", "NA"), other=True)
    check = check_data(opened.dataset, opened.aggregator, ("region",), (domain,), MissingPolicy())
    flagged = [w for w in check.warnings if w.startswith("category 'NA' of column 'region'")]
    assert bool(flagged) is warned


@pytest.mark.parametrize(("suffix", "warned"), [(".csv", True), (".parquet", False)])
def test_declared_categories_one_text_cell_cannot_tell_apart_are_warned_of(tmp_path: Path, suffix, warned):
    """Table audit (session 36): TRUE and true, 007 and 7 both declared; a text file's cell reads one value
    (true, 7), so one of each pair counts nothing. A Parquet string column keeps 007 apart from 7."""
    import pandas as pd

    path = tmp_path / f"data{suffix}"
    frame = pd.DataFrame({"flag": ["TRUE", "FALSE"] * 5, "code": ["007", "12"] * 5})
    frame.to_csv(path, index=False) if suffix == ".csv" else frame.to_parquet(path)
    opened = open_aggregator(path, "memory")
    domains = (CategoricalDomain(("TRUE", "true", "FALSE")), CategoricalDomain(("007", "7", "12")))
    check = check_data(opened.dataset, opened.aggregator, ("flag", "code"), domains, MissingPolicy())
    alike = [warning for warning in check.warnings if "are one cell value to this file" in warning]
    if not warned:
        assert alike == []
        return
    assert alike == [
        "categories 'TRUE', 'true' of column 'flag' are one cell value to this file (each reads 'true'): a "
        "cell written any of these ways counts as 'true', and the others count nothing; declare one of them",
        "categories '007', '7' of column 'code' are one cell value to this file (each reads '7'): a cell "
        "written any of these ways counts as '7', and the others count nothing; declare one of them",
    ]


def test_declared_categories_reading_alike_are_said_to_count_none_of_their_cells(tmp_path: Path):
    """Table audit (session 39): '01' and '1.0' declared, cells 01, 1 and 1.0 (each reading 1) all counted as
    'other' (neither declared spelling is the reading: ``test_domain_leading_zeros``), while the warning
    said that one of the two counts them."""
    import numpy as np
    import pandas as pd

    from dpgui.data.loaders import load_table

    path = tmp_path / "codes.csv"
    pd.DataFrame({"code": ["01"] * 3 + ["1"] * 2 + ["1.0"] + ["7"]}).to_csv(path, index=False)
    opened = open_aggregator(path, "memory")
    domain = CategoricalDomain(("01", "1.0"), other=True)
    check = check_data(opened.dataset, opened.aggregator, ("code",), (domain,), MissingPolicy())
    assert any("counts as none of them (an undeclared value)" in warning for warning in check.warnings)
    frame = load_table(path)  # as a release reads it: every cell of 01, 1 and 1.0 reads 1
    counts = np.bincount(domain.to_indices(frame["code"], file_name=path.name), minlength=3)
    assert list(counts) == [0, 0, 7]
