"""Pins found by the mutation scan of the export (dpgui/release/export.py and release.py,
notes/mutscan_rel17.md): which files a release folder holds, and how its parameters are stated.

The existing tests export one median (one row, no meaning line, no attachment, no path parameter), so a
meaning comment written for the wrong tables, no Parquet for a two-row table, attachments left unwritten,
and a numeric parameter stated as text all passed them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pandas as pd

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SecureRandom
from dpgui.release.export import export_release, table_csv
from dpgui.release.release import Release
from dpgui.tasks.outputs import Attachment, ReleaseTable
from dpgui.tasks.registry import ParameterSpec
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec


def _released(wages_csv: Path) -> Release:
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0))
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), NumericDomain(0, 20000, 1), 1.0)
    return run_to_end(execute(spec, dataset, ledger, SecureRandom()))


def test_release_csv_starts_with_the_meaning_line_only_when_there_is_a_meaning() -> None:
    """Rule: release.csv's first line is "# <meaning>" when the table has one (read back with
    ``comment="#"``), and the header otherwise. Kills the condition negated."""
    rows = (("a", 1), ("b", 2))
    meant = ReleaseTable(("bin", "count"), rows, meaning="noisy counts of each bin")
    assert table_csv(meant).decode("utf-8") == "# noisy counts of each bin\nbin,count\na,1\nb,2\n"
    assert table_csv(ReleaseTable(("bin", "count"), rows)).decode("utf-8") == "bin,count\na,1\nb,2\n"


def test_a_table_of_two_rows_is_also_exported_as_parquet(wages_csv: Path, tmp_path: Path) -> None:
    """Rule: every table of more than one row gets release.parquet beside release.csv (test_report.py
    checks 1 and 1,000 rows only). Kills ``> 1`` -> ``> 2``."""
    release = dataclasses.replace(
        _released(wages_csv), table=ReleaseTable(("bin", "count"), (("a", 1), ("b", 2)))
    )
    exported = export_release(release, tmp_path)
    assert tmp_path / "release.parquet" in exported.files
    assert pd.read_parquet(tmp_path / "release.parquet").to_dict("list") == {
        "bin": ["a", "b"],
        "count": [1, 2],
    }


def test_attachments_are_written_and_fingerprinted(wages_csv: Path, tmp_path: Path) -> None:
    """Rule: a table's attachments (a further DP output, such as a released distance structure) are written
    beside release.csv and fingerprinted in the manifest. Kills ``contents.update(...attachments)``
    removed."""
    content = b'{"released": "structure"}\n'
    table = ReleaseTable(
        ("statistic", "value"), (("median", 1.0),), attachments=(Attachment("tree.json", content),)
    )
    exported = export_release(dataclasses.replace(_released(wages_csv), table=table), tmp_path)
    assert (tmp_path / "tree.json").read_bytes() == content
    assert tmp_path / "tree.json" in exported.files
    outputs = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    assert {"file": "tree.json", "sha256": hashlib.sha256(content).hexdigest()} in outputs


def test_parameters_are_stated_as_given_and_a_file_by_its_name(wages_csv: Path) -> None:
    """Rule: the exported parameters are the chosen algorithm's, each with its value as given, except a
    path parameter, stated by the file's name only (a path names the custodian's folders). Kills the path
    test ``and`` -> ``or`` (every value turned into text) and the path exported whole."""
    release = _released(wages_csv)
    algorithm = dataclasses.replace(
        release.algorithm,
        parameters=(
            ParameterSpec("queries", str, "", "public query points", path=True),
            ParameterSpec("beta", float, 0.05, "failure probability"),
        ),
    )
    spec = dataclasses.replace(
        release.spec,
        parameters=(("queries", "/custodian/folders/queries.csv"), ("beta", 0.01), ("levels", 3)),
    )
    exported = dict(dataclasses.replace(release, algorithm=algorithm, spec=spec).exported_parameters())
    assert exported == {"queries": "queries.csv", "beta": 0.01}
    assert isinstance(exported["beta"], float)
