"""A declared text encoding: a file saved in a code page other than UTF-8 and Windows-1252 reads as written
on every engine, and the declaration, not the records, decides how (``text_format.declared_encoding``)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pandas as pd
import pytest

from dpgui.data.backends import open_aggregator
from dpgui.data.domain import CategoricalDomain
from dpgui.data.errors import DataError
from dpgui.data.missing import MissingPolicy
from dpgui.data.text_format import UNNAMED_CODE_PAGE, declared_encoding, describe_file_format, sniff_text

CITIES = ("Москва", "Казань", "Омск")


def _cyrillic_file(path: Path, rows: int = 1_200, tail: bytes = b"") -> Path:
    lines = ["город,доход", *(f"{CITIES[i % 3]},{i % 50}" for i in range(rows))]
    path.write_bytes(("\n".join(lines) + "\n").encode("cp1251") + tail)
    return path


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_a_declared_code_page_reads_the_categories_as_written(tmp_path, engine):
    path = _cyrillic_file(tmp_path / "ru.csv")
    opened = open_aggregator(path, engine, encoding="cp1251")
    assert list(opened.dataset.header.columns) == ["город", "доход"]
    assert opened.dataset.encoding == "cp1251"
    counts = opened.aggregator.category_counts(
        "город", CategoricalDomain(CITIES, other=True), MissingPolicy()
    )
    assert list(counts) == [400, 400, 400, 0]  # every cell in its declared category, none in 'other'


def test_without_the_declaration_the_same_file_reads_byte_by_byte_and_says_so(tmp_path):
    """charset-normalizer names no code page for these short cells: the file was refused as "not text in
    any encoding"; it reads as Windows-1252, and the Data page asks for the encoding."""
    path = _cyrillic_file(tmp_path / "ru.csv")
    assert sniff_text(path).looks_like == UNNAMED_CODE_PAGE
    described = describe_file_format(path)
    assert "declare its encoding" in described and described.startswith("non-UTF-8 text")
    assert describe_file_format(path, "cp1251") == "cp1251 text (declared), comma-separated"


def test_one_record_cannot_change_how_the_others_read_under_a_declaration(tmp_path):
    """The declared code page reads every cell, whatever the other records hold: a record of UTF-8 bytes
    reads as cp1251 letters in its own cell, and the others keep their categories."""
    path = _cyrillic_file(tmp_path / "ru.csv", tail="Пермь,7\n".encode())
    opened = open_aggregator(path, "memory", encoding="cp1251")
    cells = opened.dataset.frame["город"]
    assert (cells.isin(CITIES)).sum() == 1_200
    assert cells.iloc[-1] == "Пермь".encode().decode("cp1251")


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_a_byte_the_declared_code_page_lacks_is_refused_in_words(tmp_path, engine):
    """0x98 is undefined in cp1251: refused on opening (before any charge), naming the encoding; the
    out-of-core engine's header read decoded the whole small file and raised the codec's own error."""
    path = _cyrillic_file(tmp_path / "ru.csv", tail=b"\xc0\x98,5\n")
    with pytest.raises(DataError, match="not cp1251 text throughout"):
        open_aggregator(path, engine, encoding="cp1251")


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_a_declaration_the_byte_order_mark_contradicts_is_refused(tmp_path, engine):
    """The mark decides how the file reads: a release read it as UTF-16 while its manifest stated the
    declared cp1251 (a fuzz run). A declaration of the mark's own family reads as the mark says."""
    path = tmp_path / "bom.csv"
    path.write_bytes(codecs.BOM_UTF8 + "город,доход\nОмск,3\n".encode())
    with pytest.raises(DataError, match=r"starts with a UTF-8 byte-order mark.*not the declared cp1251"):
        open_aggregator(path, engine, encoding="cp1251")
    for declared in ("utf-8", "utf-8-sig"):
        text_format = sniff_text(path, declared)
        assert text_format.encoding == "utf-8-sig" and "(declared)" in text_format.describe()
        frame = open_aggregator(path, "memory", encoding=declared).dataset.frame
        assert list(frame.columns) == ["город", "доход"] and frame["город"].tolist() == ["Омск"]
    utf16 = tmp_path / "utf16.csv"
    utf16.write_bytes("город,доход\nОмск,3\n".encode("utf-16"))  # with its mark
    with pytest.raises(DataError, match="starts with a UTF-16 byte-order mark"):
        open_aggregator(utf16, engine, encoding="cp1251")
    assert open_aggregator(utf16, "memory", encoding="utf-16-le").dataset.frame["доход"].tolist() == [3]


@pytest.mark.parametrize(
    ("name", "codec"), [("windows-1251", "cp1251"), ("Latin-1", "iso8859-1"), (" sjis ", "shift_jis")]
)
def test_declared_names_are_python_codecs_by_any_alias(name, codec):
    assert declared_encoding(name) == codec


@pytest.mark.parametrize("name", ["klingon", "rot13", "base64", "", "idna", "punycode"])
def test_a_name_that_is_not_a_text_encoding_is_refused(name, tmp_path):
    with pytest.raises(DataError, match="not a text encoding"):
        declared_encoding(name)
    with pytest.raises(DataError, match="not a text encoding"):  # as a project file may carry it
        open_aggregator(_cyrillic_file(tmp_path / "ru.csv"), "memory", encoding=name)


def test_binary_bytes_are_still_refused_without_a_declaration(tmp_path):
    path = tmp_path / "binary.csv"
    path.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(DataError, match="not text in any encoding"):
        sniff_text(path)


def test_a_public_sample_keeps_its_declared_encoding(tmp_path):
    from dpgui.data.public import PublicSample

    sample = PublicSample.from_file(_cyrillic_file(tmp_path / "public.csv"), "cp1251")
    assert sample.encoding == "cp1251"
    assert sample.column_categories("город") == tuple(sorted(CITIES))
    assert isinstance(sample.frame, pd.DataFrame)


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_utf16_declared_for_a_file_without_its_mark_is_refused_in_words(tmp_path, engine):
    """CLI fuzz (session 36): the codec's bare "UTF-16 stream does not start with BOM" reached the user."""
    with pytest.raises(DataError, match=r"ru.csv: cannot be read as UTF-16 text .*declare the encoding"):
        open_aggregator(_cyrillic_file(tmp_path / "ru.csv"), engine, encoding="utf-16")


@pytest.mark.parametrize("engine", ["memory", "embedded"])
@pytest.mark.parametrize("codec", ["utf-32", "utf-32-be"])
def test_a_utf32_file_is_read_as_utf32_not_as_utf16(tmp_path, engine, codec):
    """Loader fuzz (session 36): UTF-32's byte-order mark starts with UTF-16's, and the column 'город' came
    out as '\\x00г...'."""
    path = tmp_path / "u32.csv"
    text = "город,доход\nОмск,3\nКазань,4\n"
    path.write_bytes(
        (codecs.BOM_UTF32_BE + text.encode("utf-32-be")) if codec == "utf-32-be" else text.encode(codec)
    )
    opened = open_aggregator(path, engine)
    counts = opened.aggregator.category_counts(
        "город", CategoricalDomain(("Омск", "Казань")), MissingPolicy()
    )
    assert counts.tolist() == [1, 1] and sniff_text(path).encoding == "utf-32"
