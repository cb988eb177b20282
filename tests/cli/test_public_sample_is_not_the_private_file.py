"""The private file itself given as the public sample.

Rules checked: domains, cut points and previews come from public data only, never from the private data
(privacy rule 3), and no export holds a hash of the private data (rule 6). A "public" sample whose bytes
are the private file's (the same path, a symlink or a copy) is the private data: a release must refuse it
before anything is charged, and before the review prints figures read from it, instead of cutting PAP's
cells at the private values and writing the private file's raw SHA-256 into the manifest and the report as
the public sample's.
"""

from __future__ import annotations

import hashlib
import shutil

import pytest

from dpgui.cli import main
from tests.cli.test_preflight import reservations


@pytest.mark.parametrize("how", ["same path", "copy"])
def test_the_private_file_as_public_sample_is_refused_before_any_charge(
    how, wages_csv, tmp_path, isolated_home, capsys
):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "10"]) == 0
    public = wages_csv
    if how == "copy":
        public = tmp_path / "public.csv"
        shutil.copyfile(wages_csv, public)
    out = tmp_path / "out"
    code = main(
        [
            "release", "cdf", "--data", str(wages_csv), "--public", str(public), "--column", "wage",
            "--bounds", "0", "20000", "--bins", "1000", "--algorithm", "pap", "--epsilon", "1",
            "--out", str(out), "--accept-warnings",
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    raw = hashlib.sha256(wages_csv.read_bytes()).hexdigest()
    exported = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert not [p.name for p in exported if raw in p.read_text(errors="replace")], "raw SHA-256 exported"
    assert code == 2, err
    assert "public sample" in err
    assert "Review before charging" not in err, "the review read the private file as a public sample"
    assert reservations(isolated_home) == 0
    assert not out.exists() and not list(tmp_path.glob(".out.staging-*"))  # refused: nothing left behind
