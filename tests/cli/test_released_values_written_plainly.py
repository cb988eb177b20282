"""Released grid values are written as a person writes them: 0.35, not 0.35000000000000003 (lower +
k * step in binary floating point), in every sanitizer's CSV and in the domain's table values."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest

from dpgui.cli import main
from dpgui.data.domain import NumericDomain

BINARY_NOISE = re.compile(r"\d\.\d*(?:0{6,}|9{6,})\d")
"""A decimal written with a run of six zeros or nines before a last digit: 0.35000000000000003."""


@pytest.fixture
def budget(wages_csv: Path) -> Path:
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "20", "--delta", "1e-5"]) == 0
    return wages_csv


@pytest.mark.parametrize(
    ("task", "extra"),
    [
        ("cdf", ()),
        ("histogram", ()),
        ("synthetic", ("--rows", "500")),
        ("quantiles", ("--q", "0.1,0.5,0.9")),
        ("median", ()),
    ],
)
def test_a_fine_grid_is_released_without_binary_noise(budget, tmp_path, task, extra):
    out = tmp_path / "o"
    common = ["--data", str(budget), "--column", "wage", "--epsilon", "1", "--out", str(out)]
    grid = ["--bounds", "0", "20", "--bins", "2000", "--accept-warnings"]  # every wage beyond 20: clipped
    assert main(["release", task, *common, *grid, *extra]) == 0
    lines = [line for line in (out / "release.csv").read_text().splitlines() if not line.startswith("#")]
    rows = list(csv.DictReader(lines))
    # the grid values; a CDF's shares are sums of noisy counts over n, any real number (0.0026250000000000006)
    written = [cell for row in rows for name, cell in row.items() if name != "cdf"]
    assert rows and not [cell for cell in written if BINARY_NOISE.search(cell)]


@pytest.mark.parametrize(
    "domain",
    [NumericDomain(0, 100, 0.01), NumericDomain(-0.1, 1.1, 0.35), NumericDomain(1e6, 1e6 + 1, 0.05)],
)
def test_table_values_are_plain_and_stay_in_their_cells(domain: NumericDomain):
    indices = np.arange(domain.size, dtype=np.uint64)
    values = domain.values_of(indices)
    assert not any(BINARY_NOISE.search(repr(v)) for v in values)
    assert np.array_equal(domain.to_grid(np.array(values)), indices)
    middle = domain.size // 2
    assert domain.value_of(middle) == values[middle]
    assert all(domain.lower <= v <= domain.upper for v in values)
