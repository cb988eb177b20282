"""open_dataset loads the table and fingerprints the file it came from."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd

from dpgui.data import open_dataset


def test_open_dataset_loads_and_fingerprints(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_text("age,city\n31,Oslo\n45,Lima\n")
    dataset = open_dataset(path)
    assert dataset.name == "people.csv"
    assert dataset.n_rows == 2
    assert dataset.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    pd.testing.assert_frame_equal(dataset.frame, pd.DataFrame({"age": [31, 45], "city": ["Oslo", "Lima"]}))


def test_datasets_compare_by_path_and_fingerprint_and_repr_hides_the_data(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_text("age\n31\n")
    first, second = open_dataset(path), open_dataset(path)
    assert first == second
    assert "frame" not in repr(first)
