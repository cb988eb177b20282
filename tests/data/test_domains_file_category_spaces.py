"""Categories in DOMAINS.json are read as stripped text, as cells are compared (``CategoricalDomain``) and
as the Task page reads typed ones (``parse_categories``). A declared " x" matched no cell, not even a cell
written " x", so every such row became 'other' (fuzz: 1,291 of 5,000 rows); a blank category, which no
cell can be (a blank cell is missing), is refused."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dpgui.data.domain import CategoricalDomain
from dpgui.data.domains_file import read_domains
from dpgui.data.errors import DataError


def test_declared_categories_are_stripped_like_the_cells(tmp_path):
    path = tmp_path / "domains.json"
    path.write_text(json.dumps({"region": {"categories": [" x", "y ", " other "]}}), encoding="utf-8")
    (domain,) = read_domains(path)[1]
    assert domain == CategoricalDomain(("x", "y"), other=True)
    cells = pd.Series([" x", "x", "y", "z"], name="region")
    assert domain.to_indices(cells, file_name="t.csv").tolist() == [0, 0, 1, 2]


def test_a_blank_category_is_refused(tmp_path):
    path = tmp_path / "domains.json"
    path.write_text(json.dumps({"region": {"categories": ["x", " "]}}), encoding="utf-8")
    with pytest.raises(DataError, match="domain of 'region': a category cannot be blank"):
        read_domains(path)
