"""A synthetic table's ``"bins": m`` declares m equal bins, each released at its middle.

It declared the m + 1 points lower, lower + step, ..., upper (what ``--bins`` gives a CDF's thresholds):
30 bins of wage gave 31 synthetic values, 0 and 3000 among them, each point standing for half of two bins,
so a value sat on the edge between two of the custodian's bins, and a count of the synthetic rows in the
declared bins moved half of each bin into the next. An audit asked for "a value inside its bin".
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.data.domain import NumericDomain, declared_grid
from dpgui.data.domains_file import domain_entry, entry_of
from dpgui.release.project import spec_from_json, spec_to_json
from dpgui.tasks.spec import TaskKind, TaskSpec


def test_bins_hold_the_values_from_their_lower_edge_and_release_their_middles() -> None:
    binned = declared_grid(0, 10, bins=5, binned=True)
    assert binned.size == 5 and binned.binned
    assert binned.values_of(range(5)) == [1, 3, 5, 7, 9]  # whole middles are whole numbers
    assert binned.to_grid(np.arange(11.0)).tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4]
    assert binned.to_grid(np.array([-3.0, 2.0 - 1e-12, 12.0])).tolist() == [0, 1, 4]  # clipped; an edge
    points = declared_grid(0, 10, bins=5)
    assert points.size == 6 and not points.binned and points != binned  # other tasks keep the points


def test_uniform_whole_numbers_fill_every_bin_alike() -> None:
    """The audit's column: whole numbers 0 to 9, 1,000 each, declared [0, 10] in 5 bins."""
    counts = np.bincount(declared_grid(0, 10, bins=5, binned=True).to_grid(np.repeat(np.arange(10.0), 1000)))
    assert counts.tolist() == [2000] * 5


def test_a_bin_with_a_fractional_middle_and_a_value_on_each_bins_middle() -> None:
    ages = declared_grid(18, 90, bins=72, binned=True)
    assert not ages.whole_points and ages.value_of(0) == 18.5 and ages.value_of(71) == 89.5
    thirds = declared_grid(0, 1, bins=3, binned=True)
    middles = thirds.plain_values(np.arange(3, dtype=np.uint64))
    assert middles.tolist() == pytest.approx([1 / 6, 1 / 2, 5 / 6])
    assert thirds.to_grid(middles).tolist() == [0, 1, 2]


def test_domains_json_bins_are_binned_and_a_granularity_is_points_both_round_trip() -> None:
    binned = domain_entry("wage", {"lower": 0, "upper": 3000, "bins": 30})
    stepped = domain_entry("wage", {"lower": 0, "upper": 3000, "granularity": 100})
    assert binned.binned and binned.size == 30 and not stepped.binned and stepped.size == 31
    for domain in (binned, stepped):
        assert domain_entry("wage", entry_of(domain)) == domain
    assert entry_of(binned) == {"lower": 0.0, "upper": 3000.0, "bins": 30}
    spec = TaskSpec(TaskKind.TABLE, ("wage",), binned, 1.0, 1e-6)
    loaded = spec_from_json(json.loads(json.dumps(spec_to_json(spec))))
    assert loaded == spec and isinstance(loaded.domains[0], NumericDomain) and loaded.domains[0].binned


def test_a_released_table_puts_every_value_inside_its_declared_bin(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    data, domains = tmp_path / "t.csv", tmp_path / "domains.json"
    pd.DataFrame({"score": rng.integers(0, 10, 4000), "const": np.full(4000, 5.0)}).to_csv(data, index=False)
    declared = {"score": {"lower": 0, "upper": 10, "bins": 5}, "const": {"lower": 0, "upper": 10, "bins": 5}}
    domains.write_text(json.dumps(declared), encoding="utf-8")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    assert main(["release", "table", "--data", str(data), "--domains", str(domains), "--epsilon", "5",
                 "--algorithm", "independent", "--out", str(out), "--accept-warnings"]) == 0  # fmt: skip
    synthetic = pd.read_csv(out / "synthetic.csv")
    assert set(synthetic["score"].dropna()) <= {1, 3, 5, 7, 9}  # one value per bin, at its middle
    assert set(synthetic["const"].dropna()) <= {1, 3, 5, 7, 9}
    assert (synthetic["const"] == 5).mean() > 0.98  # a constant 5 in the bin [4, 6) (points: 4 or 6)
    shares = np.histogram(synthetic["score"].dropna(), bins=5, range=(0, 10))[0] / len(synthetic)
    assert shares == pytest.approx([0.2] * 5, abs=0.05)  # the declared bins, counted as anyone would
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["parameters"]["domains"]["score"]["bins"] == 5
    assert any('declared with "bins" (score, const)' in note for note in manifest["notes"])
    one_bin = {"const": {"lower": 4, "upper": 6, "bins": 1}}
    domains.write_text(json.dumps(one_bin), encoding="utf-8")
    assert main(["release", "table", "--data", str(data), "--domains", str(domains), "--epsilon", "1",
                 "--algorithm", "independent", "--out", str(tmp_path / "one")]) == 2  # fmt: skip
