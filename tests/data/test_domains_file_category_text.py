"""DOMAINS.json categories given as JSON numbers or booleans read as cells are compared: 3.0 is the code
3, true is true. Before, 3.0 stayed "3.0" and matched no cell, so every such cell silently counted as
'other' (fuzz of unseen tables, item 13)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from dpgui.data.aggregate import cell_indices
from dpgui.data.domains_file import domain_entry
from dpgui.data.missing import MissingKind, MissingPolicy


def test_json_numbers_and_booleans_become_the_text_cells_are_compared_as():
    domain = domain_entry("x", {"categories": [3.0, 2.5, True, " a "]})
    assert domain.categories == ("3", "2.5", "true", "a")


def test_a_code_declared_as_a_json_float_counts_its_cells(tmp_path: Path):
    path = tmp_path / "codes.csv"
    pd.DataFrame({"code": [1, 3, None, 3]}).to_csv(path, index=False)  # a gap: pandas reads floats
    frame = pd.read_csv(path)
    domain = domain_entry("code", {"categories": [1.0, 3.0]})
    indices = cell_indices(frame, "code", domain, MissingPolicy(MissingKind.KEEP), file_name=path.name)
    assert list(indices[[0, 1, 3]]) == [0, 1, 1]  # not 'other' (index 2)
