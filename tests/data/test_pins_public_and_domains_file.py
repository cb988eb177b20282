"""Pins from a mutation scan of dpgui/data/public.py and dpgui/data/domains_file.py.

Rules: public.py -- "A public file, identified by path and SHA-256": a sample that changed since it was
chosen is refused; ``column_values`` gives 'The column's finite values ..., clipped to ``domain``'.
domains_file.py -- DOMAINS.json is 'an object mapping each column to its domain'; ``entry_of`` is 'The
DOMAINS.json entry that ``domain_entry`` reads back as ``domain``' (a numeric entry 'optionally "unit"')."""

from __future__ import annotations

import json

import pytest

from dpgui.data import DataError, NumericDomain, public
from dpgui.data.domains_file import entry_of, read_domains, write_domains
from dpgui.data.public import PublicSample


def test_a_public_sample_that_changed_since_it_was_chosen_is_refused(tmp_path) -> None:
    """While remembered, the sample is the bytes chosen (their SHA-256 pinned), not the file rewritten
    since; read again (it left the cache), the rewritten file is refused."""
    path = tmp_path / "public_changed.csv"
    path.write_text("x,c\n1,a\n2,b\n")
    sample = PublicSample.from_file(path)
    path.write_text("x,c\n1,a\n2,b\n999,z\n")
    assert len(sample.frame) == 2
    public._load.cache_clear()
    with pytest.raises(DataError, match=r"public_changed.csv changed since it was chosen"):
        _ = sample.frame


def test_public_values_are_finite_and_clipped_to_the_declared_domain(tmp_path) -> None:
    path = tmp_path / "public_clip.csv"
    path.write_text("x,c\n-5,a\n3,b\n,c\n50,d\n")
    sample = PublicSample.from_file(path)
    assert sample.column_values("x").tolist() == [-5.0, 3.0, 50.0]
    assert sample.column_values("x", NumericDomain(0, 10, 1)).tolist() == [0.0, 3.0, 10.0]


def test_public_categories_of_an_unknown_column_are_refused_naming_it(tmp_path) -> None:
    path = tmp_path / "public_cats.csv"
    path.write_text("x,c\n1,b\n2,a\n")
    sample = PublicSample.from_file(path)
    assert sample.column_categories("c") == ("a", "b")
    with pytest.raises(DataError, match="no column 'nope'"):
        sample.column_categories("nope")


@pytest.mark.parametrize("content", ["[]", "{}", "[1, 2]", '"x"'])
def test_domains_json_must_be_a_non_empty_object(tmp_path, content) -> None:
    path = tmp_path / "DOMAINS.json"
    path.write_text(content)
    with pytest.raises(DataError, match="expected an object mapping each column to its domain"):
        read_domains(path)


def test_a_declared_unit_is_written_only_when_declared_and_read_back(tmp_path) -> None:
    with_unit = NumericDomain(0, 10, 1, unit="USD")
    without = NumericDomain(0, 5, 0.5)
    assert entry_of(with_unit)["unit"] == "USD"
    assert "unit" not in entry_of(without)
    path = tmp_path / "DOMAINS.json"
    write_domains(path, ["wage", "hours"], [with_unit, without])
    columns, domains = read_domains(path)
    assert columns == ("wage", "hours") and domains == (with_unit, without)
    assert [d.unit for d in domains] == ["USD", ""]
    assert json.loads(path.read_text())["hours"] == {"lower": 0.0, "upper": 5.0, "granularity": 0.5}


def test_a_public_sample_opened_again_after_its_file_changed_holds_the_new_content(tmp_path) -> None:
    path = tmp_path / "public_rewritten.csv"
    path.write_text("x\n1\n2\n")
    first = PublicSample.from_file(path)
    assert list(first.column_values("x")) == [1.0, 2.0]
    path.write_text("x\n1\n2\n3\n")
    again = PublicSample.from_file(path)
    assert again.sha256 != first.sha256 and list(again.column_values("x")) == [1.0, 2.0, 3.0]
