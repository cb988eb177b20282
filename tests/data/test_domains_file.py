"""DOMAINS.json, shared by the CLI (release and plan table) and the Task page: read, refused, written back."""

from __future__ import annotations

import json

import pytest

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.domains_file import domain_entry, read_domains, write_domains
from dpgui.data.errors import DataError


def test_entries_read_as_declared_and_a_listed_other_names_the_catch_all():
    assert domain_entry("w", {"lower": 0, "upper": 10, "bins": 5}) == NumericDomain(0, 10, 2, binned=True)
    assert domain_entry("w", {"lower": 0, "upper": 10, "granularity": 1, "unit": "h"}) == NumericDomain(
        0, 10, 1, unit="h"
    )
    assert domain_entry("c", {"categories": ["a", "other"]}) == CategoricalDomain(("a",), other=True)
    closed = CategoricalDomain(("a", "other"), other=False)  # without the catch-all, "other" is a category
    assert domain_entry("c", {"categories": ["a", "other"], "other": False}) == closed


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"categories": ["other"]}, 'lists no category besides "other"'),
        ({"categories": ["a"], "other": "yes"}, '"other" must be true or false'),
        ({"categories": ["a"], "bins": 3}, 'takes "categories" and "other" only'),
        ({"categories": []}, "must be a non-empty list"),
        ({"categories": ["a", "a", "b"]}, "categories must be distinct"),
        ({"categories": ["a", None]}, "a category must be a text, a number or true/false, got null"),
        ({"categories": [["a"], "b"]}, 'got \\["a"\\]'),
        ({"categories": ["a", {"b": 1}]}, "a category must be a text"),
        ({"categories": ["a", float("nan")]}, "got NaN"),
        ({"categories": [float("inf")]}, r"got Infinity \(a number too large"),  # JSON 1e400: was "inf"
        ({"lower": 0}, 'give "lower", "upper"'),
        ({"lower": "a", "upper": 3}, "must be numbers"),
        ({"lower": None, "upper": 3}, "must be numbers"),
        ({"lower": 0, "upper": 3, "bins": 2.5}, "bins must be a whole number"),
        ({"lower": 5, "upper": 3, "bins": 2}, "must be below the upper bound"),
        ({"lower": 0, "upper": 3, "unit": 5}, "a unit must be text"),
        ([0, 1], "expected an object"),
    ],
)
def test_bad_entries_are_refused_naming_the_column(entry, message):
    with pytest.raises(DataError, match=message) as refused:
        domain_entry("col", entry)
    assert "'col'" in str(refused.value)


def test_written_domains_read_back_equal_in_the_same_order(tmp_path):
    columns = ("z", "a", "c")
    domains = (
        NumericDomain(-5, 65, 1, unit="years"),
        NumericDomain(0, 1, 1 / 7),
        CategoricalDomain(("x", "y"), other=False),
    )
    path = tmp_path / "domains.json"
    write_domains(path, columns, domains)
    assert read_domains(path) == (columns, domains)
    assert list(json.loads(path.read_text(encoding="utf-8"))) == ["z", "a", "c"]


def test_an_unreadable_file_is_a_data_error(tmp_path):
    path = tmp_path / "domains.json"
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(DataError, match="cannot read the domains"):
        read_domains(path)


def test_a_byte_order_mark_is_read_past_and_another_encoding_is_named(tmp_path):
    """Notepad saves UTF-8 with a byte-order mark, which JSON readers may skip (RFC 8259 s8.1): it was
    refused as "Unexpected UTF-8 BOM". A file in another encoding is told to be saved as UTF-8."""
    path = tmp_path / "domains.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"c": {"categories": ["\u00e9"]}}).encode())
    assert read_domains(path) == (("c",), (CategoricalDomain(("\u00e9",), other=True),))
    path.write_bytes('{"c": {"categories": ["\u00e9"]}}'.encode("latin-1"))
    with pytest.raises(DataError, match=r"not UTF-8 text .*; save it as UTF-8"):
        read_domains(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"x": {"lower": 0, "upper": 1' + "0" * 400 + ', "bins": 10}}', "too large for a bound or a count"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_numbers_and_nesting_beyond_python_are_refused_naming_the_file(tmp_path, text, message):
    """A CLI fuzz: a 400-digit bound raised OverflowError and deep nesting RecursionError ("unexpected")."""
    path = tmp_path / "DOMAINS.json"
    path.write_text(text)
    with pytest.raises(DataError, match=message) as refused:
        read_domains(path)
    assert str(path) in str(refused.value)


def test_bounds_too_close_for_a_default_grid_are_refused_in_words():
    from dpgui.data.domain import default_granularity

    with pytest.raises(DataError, match="too close together for a grid"):
        default_granularity(0.0, 1e-320)  # was "math domain error"
