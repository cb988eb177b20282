"""Every engine reads a file the same way: encoding and delimiter sniffed, non-tables named in plain words."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.data.backends.embedded import FileSource
from dpgui.data.errors import DataError
from dpgui.data.loaders import load_table
from dpgui.data.text_format import TextFormat, refuse_non_table, sniff_text

ROWS = "name;wage;town\nAndré;12,5;Zürich\nJosé;7;Köln\nRenée;9;Besançon\n"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_semicolon_file_in_cp1252_loads_with_its_accents(tmp_path: Path) -> None:
    path = write(tmp_path, "wages.csv", ROWS.encode("cp1252"))
    assert sniff_text(path).delimiter == ";"
    frame = load_table(path)
    assert list(frame.columns) == ["name", "wage", "town"]
    assert frame["name"].tolist() == ["André", "José", "Renée"]
    assert frame["town"].tolist()[2] == "Besançon"


@pytest.mark.parametrize(
    ("encoding", "expected"), [("utf-8", "utf-8"), ("utf-8-sig", "utf-8-sig"), ("utf-16", "utf-16")]
)
def test_unicode_encodings_are_recognised(tmp_path: Path, encoding: str, expected: str) -> None:
    path = write(tmp_path, "wages.csv", ROWS.replace(";", ",", 1).replace(";", "|").encode(encoding))
    text_format = sniff_text(path)
    assert text_format.encoding == expected
    assert load_table(path).columns[0] == "name"


def test_the_suffix_delimiter_wins_when_it_splits_the_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", b"a,b\n1;2,3\n4;5,6\n")
    assert sniff_text(path) == TextFormat("utf-8", ",")
    tab = write(tmp_path, "a.tsv", b"a\tb\n1,5\t2\n")
    assert sniff_text(tab).delimiter == "\t"


def test_decimal_commas_are_read_as_numbers_by_every_engine(tmp_path: Path) -> None:
    path = write(tmp_path, "wages.csv", ROWS.encode("cp1252"))
    assert sniff_text(path) == TextFormat("utf-8", ";", looks_like="cp1252")
    assert load_table(path)["wage"].tolist() == [12.5, 7.0, 9.0]
    batch = next(FileSource(path).batches(["wage"]))  # pandas leaves 12,5 text: the cells as their numbers
    assert pd.to_numeric(batch.frame["wage"]).tolist() == [12.5, 7.0, 9.0]


@pytest.mark.parametrize(
    ("rows", "marks", "values"),
    [
        (b"a;b\n1,5;2\n-3,25;4\n", ".,", [1.5, -3.25]),
        (b"a;b\n1.5;2\n3;4\n", ".,", [1.5, 3.0]),
        (b"a;b\n1,5;2\n3.5;4\n", ".,", [1.5, 3.5]),  # both marks: each cell reads its own
        (b"a\tb\n1,5\t2.5e-3\n", ".,", [1.5]),
        (b'a,b\n"1.5",2\n2,4\n', ".", [1.5, 2.0]),  # a comma-separated file reads a point only
    ],
)
def test_the_decimal_marks_follow_from_the_delimiter_never_from_the_numbers(
    tmp_path: Path, rows: bytes, marks: str, values: list[float]
) -> None:
    """A point or a comma outside comma-separated files, cell by cell: a mark guessed from the sample's
    numbers let one record's 0.5 turn every other record's 1,3 into text (privacy review, session 34)."""
    path = write(tmp_path, "numbers" + (".tsv" if b"\t" in rows else ".csv"), rows)
    assert sniff_text(path).decimal_marks == marks
    assert load_table(path)["a"].astype(float).tolist() == values


def test_a_quoted_decimal_comma_in_a_comma_separated_file_is_text(tmp_path: Path) -> None:
    assert load_table(write(tmp_path, "text.csv", b'a,b\n"1,5",2\n'))["a"].tolist() == ["1,5"]


def test_a_single_column_file_keeps_the_suffix_delimiter(tmp_path: Path) -> None:
    path = write(tmp_path, "one.csv", b"wage\n1\n2\n")
    assert sniff_text(path).delimiter == ","
    assert load_table(path)["wage"].tolist() == [1, 2]


def test_the_embedded_engine_reads_the_same_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "wages.csv", ROWS.encode("cp1252"))
    source = FileSource(path)
    assert source.columns == ("name", "wage", "town")
    batch = next(source.batches(["name", "town"]))
    assert batch.frame["name"].tolist() == load_table(path)["name"].tolist()


XLS_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 200


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("old.xls", XLS_MAGIC, "Excel 97-2003"),
        ("old.csv", XLS_MAGIC, "Excel 97-2003"),
        ("page.csv", b"<!DOCTYPE html>\n<html><body>Not found</body></html>", "web page"),
        ("data.csv", json.dumps([{"wage": 1}, {"wage": 2}]).encode(), "JSON document"),
        ("lines.csv", b'{"wage": 1, "age": 30}\n{"wage": 2, "age": 41}\n', "JSON document"),  # JSON Lines
        ("long.csv", b'{"wage": 17, "age": 30}\n' * 6000, "JSON document"),  # beyond the sample
        ("data.csv", gzip.compress(b"wage\n1\n", mtime=0), "gzip"),
        ("data.csv", b"PK\x03\x04" + b"\x00" * 100, "zip archive"),
        ("data.csv", b"PAR1" + b"\x00" * 100, "Parquet"),
        ("binary.csv", b"wage\n1\x00\x00\x02\x03\x00\n", "binary data"),
        ("text.xlsx", b"wage,age\n1,2\n", r"text \(perhaps a CSV file\)"),
        ("empty.csv", b"", "empty"),
    ],
)
def test_a_file_that_is_not_a_table_is_named_in_plain_words(
    tmp_path: Path, name: str, data: bytes, words: str
) -> None:
    path = write(tmp_path, name, data)
    with pytest.raises(DataError, match=words):
        refuse_non_table(path)
    with pytest.raises(DataError, match=words):
        load_table(path)
    if path.suffix == ".csv":
        with pytest.raises(DataError, match=words):
            FileSource(path)


def test_a_header_only_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no data rows"):
        load_table(write(tmp_path, "header.csv", b"wage,age\n"))


def test_the_format_is_described_for_the_custodian() -> None:
    assert TextFormat("cp1252", ";").describe() == "cp1252 text, semicolon-separated, decimal point or comma"
    assert TextFormat("utf-8-sig", ",").describe() == "UTF-8 with BOM text, comma-separated"


def test_the_data_page_names_how_the_file_is_read(tmp_path: Path) -> None:
    from dpgui.data.text_format import describe_file_format

    cp1252 = write(tmp_path, "w.csv", ROWS.encode("cp1252"))
    assert describe_file_format(cp1252) == "cp1252 text, semicolon-separated, decimal point or comma"
    assert describe_file_format(write(tmp_path, "w.parquet", b"PAR1")) == "Parquet"
    assert describe_file_format(tmp_path / "missing.csv") == "—"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read_as_text_by_both_engines(tmp_path, encoding):
    from dpgui.data.backends import Engine, open_aggregator

    frame = pd.DataFrame({"x": range(50), "name": ["Zoë", "Ana"] * 25})
    path = tmp_path / "unicode.csv"
    path.write_bytes(frame.to_csv(index=False).encode(encoding))
    assert sniff_text(path).encoding == encoding
    pd.testing.assert_frame_equal(load_table(path), frame)
    assert open_aggregator(path, Engine.EMBEDDED).dataset.n_rows == 50


@pytest.mark.parametrize("first", ["sep=;", '"sep=;"', "\ufeffsep=;"])
def test_excels_separator_line_is_refused_with_what_to_do(tmp_path: Path, first: str) -> None:
    """Excel writes "sep=;" above the header; no reader skips it, so the file would be one column named
    after it. Refused in words (what it is, what to do), before any engine reads the file."""
    path = tmp_path / "excel.csv"
    path.write_text(f"{first}\nwage;education\n500;12\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"Excel's hint that the file is semicolon-separated.*delete"):
        sniff_text(path)


def test_a_header_that_only_starts_like_a_separator_line_is_read(tmp_path: Path) -> None:
    path = tmp_path / "columns.csv"
    path.write_text("sep=x,b\n1,2\n", encoding="utf-8")
    assert sniff_text(path).delimiter == ","


def test_a_password_protected_workbook_is_called_so(tmp_path: Path) -> None:
    """Excel keeps an encrypted .xlsx in a compound file (the old .xls container) with an
    "EncryptedPackage" stream; calling it an .xls would send the custodian the wrong way."""
    directory_entry = "EncryptedPackage".encode("utf-16-le")
    path = tmp_path / "locked.xlsx"
    path.write_bytes(XLS_MAGIC + b"\0" * 504 + directory_entry + b"\0" * 100)
    with pytest.raises(DataError, match="password-protected"):
        refuse_non_table(path)


def _latin1_table(path: Path) -> Path:
    """An audit's file: 300 rows, an accented header and one-letter accented categories, in Latin-1."""
    rng = np.random.default_rng(1)
    x = rng.integers(0, 100, 300)
    frame = pd.DataFrame(
        {
            "âge": x,
            "y": rng.integers(0, 10, 300),
            "label": (x > 50).astype(int),
            "cat": rng.choice(["a"], 300),
        }
    )
    frame["cat"] = rng.choice(["é", "ü", "ñ"], 300)
    path.write_bytes(frame.to_csv(index=False).encode("latin-1"))
    return path


def test_a_latin1_file_is_read_as_cp1252_without_advice_to_declare_a_dos_code_page(tmp_path: Path) -> None:
    """charset-normalizer named the audit's Latin-1 file cp437, and the data check advised declaring it:
    cp437 read every é as Θ, and the histogram of its categories was refused. cp1252 reads its letters."""
    text_format = sniff_text(_latin1_table(tmp_path / "latin1.csv"))
    assert text_format.looks_like == "cp1252" and "declare its encoding" not in text_format.describe()


def test_cyrillic_in_cp1251_still_gets_the_advice_to_declare_its_encoding(tmp_path: Path) -> None:
    """Control: cp1252 reads cp1251's Cyrillic as runs of accented Latin letters ("Ìîñêâà"), not a Western
    language's one or two at a time; such a file keeps the advice."""
    rng = np.random.default_rng(2)
    cities = rng.choice(["Москва", "Казань", "Пермь"], 300)
    path = tmp_path / "cities.csv"
    path.write_bytes(
        pd.DataFrame({"город": cities, "x": rng.integers(0, 9, 300)}).to_csv(index=False).encode("cp1251")
    )
    assert "declare its encoding" in sniff_text(path).describe()
