"""A release is never written into dpgui's own folder, nor into a folder that holds it.

An audit released with --out $DPGUI_HOME: the manifest, release.csv and report.html landed beside
``fingerprint.key`` and ``ledger.jsonl`` (the private file's path and raw SHA-256), a folder a custodian
would then hand out whole. Refused before any charge, with the folder named.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.cli.main import main
from dpgui.privacy.ledger import Ledger


@pytest.mark.parametrize("where", ["home", "inside", "holding"])
def test_an_out_folder_at_inside_or_around_the_home_is_refused_before_the_charge(
    where: str, wages_csv: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    places = {"home": isolated_home, "inside": isolated_home / "releases", "holding": isolated_home.parent}
    out = places[where]
    code = main(["release", "median", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "20000",
                 "--epsilon", "1", "--out", str(out), "--accept-warnings"])  # fmt: skip
    assert code == 2
    assert "dpgui's own folder" in capsys.readouterr().err
    assert not (out / "manifest.json").exists()
    ledger = Ledger()
    (record,) = ledger.datasets()
    assert ledger.entries(record.id) == []  # nothing reserved, nothing charged


def test_a_folder_beside_the_home_is_a_release_folder(
    wages_csv: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Control: the check is not a refusal of everything near it."""
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    out = isolated_home.parent / "beside"
    assert main(["release", "median", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "20000",
                 "--epsilon", "1", "--out", str(out), "--accept-warnings"]) == 0  # fmt: skip
    assert (out / "manifest.json").exists()
