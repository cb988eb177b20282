"""Replacing one record of a text file never changes how the other records read (the DP guarantee assumes
each record moves at most its own count): no file-wide guess of a code page decides their letters.

Before: a UTF-8 file was read as cp1250 (charset-normalizer's guess) once one record held a Windows-1252
byte, and every other record's "Zürich" read as another text and left its declared category."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.data.backends.embedded import FileSource
from dpgui.data.loaders import load_table
from dpgui.data.text_format import TextFormat, sniff_text

HEADER = b"city;wage\n"
RECORDS = [f"{city};{wage}\n".encode() for wage, city in enumerate(["Zürich", "Genève", "Basel"] * 100)]


def write(path: Path, records: list[bytes]) -> Path:
    path.write_bytes(HEADER + b"".join(records))
    return path


def both_engines(path: Path) -> list[list[str]]:
    """The city column as the in-memory loader and the embedded engine read it."""
    batches = FileSource(path).batches(["city"])
    return [load_table(path)["city"].tolist(), [city for batch in batches for city in batch.frame["city"]]]


@pytest.mark.parametrize("replacement", ["Genève;7\n".encode("cp1252"), "Gen\x8ave;7\n".encode("latin-1")])
def test_a_record_in_another_encoding_changes_only_its_own_text(tmp_path: Path, replacement: bytes) -> None:
    original = write(tmp_path / "d.csv", RECORDS)
    neighbour = write(tmp_path / "d2.csv", [*RECORDS[:-1], replacement])
    for before, after in zip(both_engines(original), both_engines(neighbour), strict=True):
        assert after[:-1] == before[:-1]
        assert after[:-1].count("Zürich") == 100
    assert both_engines(neighbour)[0][-1] == both_engines(neighbour)[1][-1]


def test_a_windows_1252_byte_after_a_utf8_byte_order_mark_reads_in_its_own_cell(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + HEADER + b"".join(RECORDS[:-1]) + "Genève;7\n".encode("cp1252"))
    for cities in both_engines(path):
        assert cities[-1] == "Genève" and cities[:-1] == [r.decode().split(";")[0] for r in RECORDS[:-1]]


def test_a_windows_1252_file_and_its_later_bytes_read_as_windows_1252(tmp_path: Path) -> None:
    """A file saved from a Western spreadsheet reads with its accents, even past the sampled 64 KiB, and a
    UTF-8 file with such a byte far down is read, not refused."""
    many = [f"{city};{wage}\n".encode("cp1252") for wage, city in enumerate(["Zürich", "Köln"] * 5000)]
    legacy = write(tmp_path / "legacy.csv", many)
    assert set(load_table(legacy)["city"]) == {"Zürich", "Köln"}
    mixed = write(
        tmp_path / "mixed.csv", [*(r.decode("cp1252").encode() for r in many), "Genève;1\n".encode("cp1252")]
    )
    assert sniff_text(mixed).looks_like is None  # the sample is all UTF-8
    for cities in both_engines(mixed):
        assert cities[-1] == "Genève" and set(cities[:-1]) == {"Zürich", "Köln"}


def test_a_file_that_looks_like_another_code_page_is_told_to_be_saved_as_utf8(tmp_path: Path) -> None:
    """Its letters outside UTF-8 read as Windows-1252 (the same for every record), and the Data page's words
    say so; whether charset-normalizer names cp1250 for a small sample is its business, not this test's."""
    path = tmp_path / "pl.csv"
    path.write_bytes("town;wage\nŁódź;1\nGdańsk;2\n".encode("cp1250"))
    assert sniff_text(path).encoding == "utf-8"
    assert load_table(path)["town"].tolist() == ["£ódŸ", "Gdañsk"]
    described = TextFormat("utf-8", ";", looks_like="cp1250").describe()
    assert described.startswith("cp1250 text") and "save it as UTF-8" in described
    assert "save it" not in TextFormat("utf-8", ";", looks_like="cp1252").describe()
