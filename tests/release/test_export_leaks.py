"""Every export of every task holds DP outputs and public facts only.

Each task is released from the CLI on a private file that holds a planted canary value; every byte of the
export folder is then searched for the private file's raw SHA-256 (any case), the absolute paths of the
private, public and query files and of their folder, and the canary. The keyed fingerprint stands in for
the hash, and file names for paths.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.data.fingerprint import keyed_fingerprint, sha256_file
from tests.conftest import CANARY, holds_canary

COMMON = ["--epsilon", "2", "--delta", "1e-6"]
TASKS: dict[str, list[str]] = {
    "median": ["--column", "wage", "--bounds", "0", "5000"],
    "interior-point": ["--column", "wage", "--bounds", "0", "5000"],
    "quantiles": ["--column", "wage", "--bounds", "0", "5000", "--q", "0.25,0.5"],
    "cdf": ["--column", "wage", "--bounds", "0", "5000", "--bins", "256"],
    "histogram": ["--column", "wage", "--bounds", "0", "5000", "--bins", "64"],
    "synthetic": ["--column", "wage", "--bounds", "0", "5000", "--bins", "256", "--rows", "50"],
    "threshold": ["--feature", "education", "--label", "label", "--positive", "yes", "--bounds", "0", "20"],
    "point": ["--feature", "education", "--label", "label", "--positive", "yes", "--bounds", "0", "20"],
    "rectangle": [
        *("--features", "education,wage", "--label", "label", "--positive", "yes"),
        *("--bounds", "0", "20", "0", "5000"),
    ],
    "distance": ["--columns", "education,wage", "--bounds", "0", "20", "0", "5000"],
    "table": ["--rows", "200", "--max-rounds", "2"],
}
TABLE_DOMAINS = {
    "wage": {"lower": 0, "upper": 5000, "bins": 10},
    "education": {"lower": 0, "upper": 20, "bins": 5},
    "label": {"categories": ["no", "yes"]},
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    rng = np.random.default_rng(8)
    education = rng.integers(0, 21, size=3000)
    wage = np.round(rng.lognormal(6.0, 0.5, size=3000), 2)
    wage[17] = CANARY
    label = np.where(education >= 12, "yes", "no")
    folder = tmp_path / "custodian-private-folder"
    folder.mkdir()
    private = folder / "survey.csv"
    pd.DataFrame({"wage": wage, "education": education, "label": label}).to_csv(private, index=False)
    public = folder / "sample.csv"
    pd.DataFrame({"wage": wage[:200] * 1.1, "education": education[:200], "label": label[:200]}).to_csv(
        public, index=False
    )
    queries = folder / "queries.csv"
    pd.DataFrame({"education": [3.0, 12.0, 18.0], "wage": [100.0, 700.0, 2000.0]}).to_csv(
        queries, index=False
    )
    return {"private": private, "public": public, "queries": queries, "folder": folder}


@pytest.mark.parametrize("task", sorted(TASKS))
def test_no_export_byte_holds_the_raw_hash_a_path_or_a_planted_value(task, files, tmp_path):
    private = files["private"]
    assert main(["budget", "set", "--data", str(private), "--epsilon", "100", "--delta", "1e-3"]) == 0
    out = tmp_path / "export"
    extra = ["--queries", str(files["queries"])] if task == "distance" else []
    if task == "table":
        domains = files["folder"] / "domains.json"
        domains.write_text(json.dumps(TABLE_DOMAINS))
        extra = ["--domains", str(domains)]
    public = [] if task == "table" else ["--public", str(files["public"])]  # no table algorithm reads one
    argv = ["release", task, "--data", str(private), *public, "--out", str(out)]
    assert main([*argv, *COMMON, *TASKS[task], *extra]) == 0
    raw = sha256_file(private)
    forbidden = [raw, raw.upper(), str(private), str(files["folder"]), str(files["queries"])]
    exported = {path.name: path.read_bytes() for path in out.iterdir()}
    assert {"manifest.json", "report.html"} <= set(exported) and len(exported) >= 3
    for name, content in exported.items():
        for marker in forbidden:
            assert marker.encode() not in content, f"{marker!r} in {name}"
        assert not holds_canary(content), f"the canary in {name}"
    manifest = json.loads(exported["manifest.json"])
    assert manifest["dataset"]["fingerprint"] == keyed_fingerprint(raw)  # the custodian can still match it
    assert manifest["dataset"]["file_name"] == "survey.csv"
    assert holds_canary(private.read_text()) and raw == sha256_file(private)  # controls: the plants exist


def test_the_canary_search_finds_the_canary_as_a_number_only():
    for written in ("987654.321", "x,987654\n", "987,654", "9.87654321e+05"):
        assert holds_canary(written), written
    for chance in (f"{80 / 81!r}", "1987654", "123.987654"):  # digits of a released fraction, by chance
        assert not holds_canary(chance), chance
