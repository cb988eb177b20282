"""A table release's notes: which columns had rare cells merged after the 1-way measurements (nothing when
none was), which choices needed no mechanism, and which declared categories synthetic.csv cannot keep."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, declared_grid
from dpgui.privacy.random import SeededRandom
from dpgui.tasks import table
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec

LETTERS = CategoricalDomain(tuple("abcdefghijklmnopqrst"), other=True)
"""20 declared categories and "other": 21 cells, of which the data uses 3."""


def _notes(tmp_path, spec: TaskSpec) -> tuple[str, ...]:
    """The release's notes on 3,000 rows whose letter is a, b or c and whose x follows the letter."""
    path = tmp_path / "t.csv"
    g = np.random.default_rng(0)
    code = g.integers(0, 3, 3000)
    pd.DataFrame({"x": code * 3 + g.integers(0, 3, 3000), "letter": np.array(["a", "b", "c"])[code]}).to_csv(
        path, index=False
    )
    run = get_algorithm(spec.algorithm).run(spec, InMemoryAggregator(open_dataset(path)), SeededRandom(1))
    return run_to_end(run).notes


def _spec(algorithm: str, letters: CategoricalDomain = LETTERS, upper: int = 11) -> TaskSpec:
    grid = declared_grid(0, upper, granularity=1)  # x takes 0 to 8: up to 11, cells 9-11 are an empty tail
    spec = TaskSpec(TaskKind.TABLE, ("x", "letter"), (grid, letters), 1.0, 1e-6, algorithm=algorithm)
    return dataclasses.replace(spec, parameters=(("rows", 200), ("max_rounds", 2)))


@pytest.mark.parametrize("algorithm", ["aim", "mst"])
def test_the_note_names_the_merged_columns_with_their_cells_before_and_after(tmp_path, algorithm):
    merged = [n for n in _notes(tmp_path, _spec(algorithm)) if n.startswith("cells merged")]
    assert len(merged) == 1
    assert re.search(r"letter 21 → [45]\b", merged[0])  # a, b, c (and "other" if noisy) + rare
    assert "x 12 → 10" in merged[0]  # AIM: the tail as one cell; MST: every rare cell as one
    assert f"below {table.RARE_SIGMAS:g} standard deviations" in merged[0]


def test_no_note_when_no_cell_was_merged(tmp_path):
    notes = _notes(tmp_path, _spec("aim", CategoricalDomain(("a", "b", "c")), upper=8))
    assert not any(n.startswith("cells merged") for n in notes)


def test_two_columns_mst_says_its_one_edge_was_chosen_without_a_mechanism(tmp_path):
    (summary,) = [n for n in _notes(tmp_path, _spec("mst")) if n.startswith("MST:")]
    assert "0 chosen by the exponential mechanism and 1 without one (a single candidate, public)" in summary


def test_a_category_spelt_as_missing_is_said_to_read_back_as_missing_from_the_csv(tmp_path):
    spelt = CategoricalDomain(("a", "b", "NA", "null"), other=True)
    (note,) = [n for n in _notes(tmp_path, _spec("mst", spelt)) if n.startswith("categories spelt")]
    assert "'NA' of letter, 'null' of letter" in note and "keep_default_na=False" in note
    assert not any(n.startswith("categories spelt") for n in _notes(tmp_path, _spec("mst")))


def test_a_coarsened_marginal_is_explained_by_its_own_bins():
    from dpgui.algorithms.marginal_table import Accounting, Measured, TableRelease

    def release(*bins):
        measured = tuple(Measured((0, 1), "discrete Gaussian", 20.0, 0.01, b) for b in bins)
        return TableRelease(np.zeros((0, 2), np.int64), measured, (), (0.0,) * len(bins), Accounting.ZCDP)

    (note,) = table._coarse_note(release(None, (16, 4)))
    assert note.startswith("a marginal named with bins (as in '16 × 4 bins') was measured coarsened")
    assert table._coarse_note(release(None, None)) == ()
