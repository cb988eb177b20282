"""Two releases into one ``--out`` at once must not replace each other's files silently.

Rules checked: nothing is charged without a result (privacy rule 5), and an earlier release is replaced
only with ``--overwrite``. Two ``dpgui release`` processes given the same new ``--out`` both passed the
pre-flight (the folder was empty for each), both were charged, and the second moved its files over the
first's: exit 0 for both, the first release's values gone from disk. The second publish should find the
release that appeared meanwhile and keep its own files in its staging folder (PublishFailed names it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.release.export import ExportedFiles
from dpgui.release.staging import PublishFailed, prepare_out, publish


def stage(out, task: str) -> ExportedFiles:
    """What the exporter leaves in a staging folder: a release table and its manifest (written last)."""
    table = out.staging / "release.csv"
    table.write_text(f"statistic,value\n{task},1\n")
    manifest = out.staging / "manifest.json"
    manifest.write_text(json.dumps({"task": task, "outputs": [{"file": "release.csv"}]}))
    return ExportedFiles(out.staging, (table, manifest))


def test_a_release_published_meanwhile_into_the_same_out_is_not_replaced(tmp_path: Path):
    target = tmp_path / "out"
    first, second = prepare_out(target), prepare_out(target)  # both pre-flights see an empty folder
    publish(first, stage(first, "median"))
    staged = stage(second, "cdf")
    with pytest.raises(PublishFailed) as failure:
        publish(second, staged)
    assert json.loads((target / "manifest.json").read_text())["task"] == "median"
    assert (target / "release.csv").read_text() == "statistic,value\nmedian,1\n"
    assert failure.value.staging == second.staging
    assert all(path.is_file() for path in staged.files)  # the second release's files are kept, in staging
