"""A column declared twice in DOMAINS.json is refused: JSON keeps the last of two equal keys, so the first
declaration was dropped without a word and the table released on a grid the custodian did not choose."""

from __future__ import annotations

import pytest

from dpgui.data.domains_file import read_domains
from dpgui.data.errors import DataError


def test_a_column_declared_twice_is_refused_naming_it(tmp_path):
    path = tmp_path / "domains.json"
    path.write_text(
        '{"a": {"lower": 0, "upper": 10, "granularity": 1}, "b": {"categories": ["x", "y"]},'
        ' "a": {"lower": 0, "upper": 5, "bins": 5}}',
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="'a' is declared twice"):
        read_domains(path)


def test_the_same_key_in_two_columns_entries_is_not_a_duplicate_column(tmp_path):
    path = tmp_path / "domains.json"
    path.write_text('{"a": {"lower": 0, "upper": 1, "bins": 2}, "b": {"lower": 0, "upper": 1, "bins": 4}}')
    assert read_domains(path)[0] == ("a", "b")
