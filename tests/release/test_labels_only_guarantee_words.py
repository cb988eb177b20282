"""The report's plain words of a labels-only release must not promise record-level privacy.

Rule checked: the neighbouring relation is stated in every export (privacy rule 4), and the export must
not mislead about it. The label-private learner protects the labels only ("change one label; features
... NOT protected"), yet its report.html went on "In plain words: an observer's odds about any one person
change by at most x e^eps, whatever that person's record is": the features of a record are not protected.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd

from dpgui.cli import main


def test_a_labels_only_report_does_not_promise_odds_whatever_the_record(tmp_path):
    rng = np.random.default_rng(2)
    x = rng.uniform(0, 100, 400)
    data = tmp_path / "labels.csv"
    pd.DataFrame({"x": np.round(x, 2), "y": (x > 40).astype(int)}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    code = main(
        [
            "release", "threshold", "--data", str(data), "--feature", "x", "--label", "y", "--bounds", "0",
            "100", "--bins", "100", "--algorithm", "label-private", "--accept-labels-only", "--epsilon", "1",
            "--out", str(out), "--accept-warnings",
        ]
    )  # fmt: skip
    assert code == 0
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", (out / "report.html").read_text())))
    assert "change one label" in text
    assert "whatever that person's record is" not in text
    assert "label" in text.split("In plain words:")[1].split(".")[0]
