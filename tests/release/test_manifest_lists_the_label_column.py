"""The manifest's ``columns_used`` lists every column the release read, the label column too.

Observed: a threshold release of feature 'age' against label 'retired' stated ``"columns_used": ["age"]``,
though the run read (and its guarantee covers) the label column as well; a reader auditing which columns
of the private file a release touched was told one too few.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SecureRandom
from dpgui.release.export import export_release
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec


def _manifest(tmp_path, spec: TaskSpec, frame: pd.DataFrame) -> dict:
    path = tmp_path / "people.csv"
    frame.to_csv(path, index=False)
    dataset = open_dataset(path)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0))
    release = run_to_end(execute(spec, dataset, ledger, SecureRandom()))
    export_release(release, tmp_path / "out")
    return json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))


def test_a_threshold_release_names_its_label_column(tmp_path, isolated_home):
    age = np.random.default_rng(0).integers(0, 100, 400)
    frame = pd.DataFrame({"age": age, "retired": (age >= 65).astype(int), "unused": 0})
    spec = TaskSpec(TaskKind.THRESHOLD, ("age",), (NumericDomain(0, 100, 1),), 1.0, 0.0, "em-threshold",
                    label="retired")  # fmt: skip
    manifest = _manifest(tmp_path, spec, frame)
    assert manifest["dataset"]["columns_used"] == ["age", "retired"]


def test_an_unlabelled_release_names_its_columns_only(tmp_path, isolated_home):
    frame = pd.DataFrame({"wage": np.arange(300), "unused": 0})
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), (NumericDomain(0, 1000, 1),), 1.0, 0.0, "em")
    assert _manifest(tmp_path, spec, frame)["dataset"]["columns_used"] == ["wage"]
