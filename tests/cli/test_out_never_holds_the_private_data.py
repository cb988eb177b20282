"""A release folder never holds the private data: it is refused as ``--out`` before any charge.

The release folder is what the custodian hands out; a private file inside it would go with it. And
``--overwrite`` removes an earlier release's files by name, so a data file named like one (``--data
out/release.csv --out out``) would be deleted as a stale output.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dpgui.release.staging import OutFolderError, prepare_out, refuse_near_private_files
from tests.cli.test_preflight import budget, median, reservations


@pytest.mark.parametrize("where", ["the data's folder", "a folder above it"])
def test_a_folder_holding_the_data_is_refused_as_out_before_any_charge(
    where: str, wages_csv: Path, tmp_path: Path, isolated_home: Path, capsys
) -> None:
    data = tmp_path / "project" / "data" / "wages.csv"
    data.parent.mkdir(parents=True)
    shutil.copyfile(wages_csv, data)
    budget(data)
    out = data.parent if where == "the data's folder" else data.parent.parent
    assert median(data, out, "--overwrite") == 2
    err = capsys.readouterr().err
    assert "holds the private data wages.csv" in err and "Traceback" not in err
    assert reservations(isolated_home) == 0
    assert sorted(p.name for p in data.parent.iterdir()) == ["wages.csv"]  # no staging folder left either
    assert median(data, tmp_path / "project" / "release") == 0  # a folder beside the data is fine


def test_a_data_file_named_like_an_output_is_never_overwritten(wages_csv: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    data = out / "release.csv"
    shutil.copyfile(wages_csv, data)
    with pytest.raises(OutFolderError, match=r"holds the private data release\.csv"):
        prepare_out(out, overwrite=True, private=data)
    assert data.read_bytes() == wages_csv.read_bytes()
    prepare_out(tmp_path / "elsewhere", overwrite=True, private=data)  # the check is about where, not what


def test_a_folder_inside_a_data_folder_is_refused(tmp_path: Path) -> None:
    """A folder of Parquet parts is read whole: a release written inside it would be read as data next
    time (red team 18 L4, through the app's plan export)."""
    data = tmp_path / "parts"
    (data / "nested").mkdir(parents=True)
    with pytest.raises(OutFolderError, match=r"inside the private data folder parts"):
        prepare_out(data / "release", private=data)
    with pytest.raises(OutFolderError, match=r"inside the private data folder parts"):
        refuse_near_private_files(data / "nested" / "release", data)
    refuse_near_private_files(tmp_path / "release", data)  # beside the folder is fine
    refuse_near_private_files(data / "release", tmp_path / "wages.csv")  # a data file not there: no check
