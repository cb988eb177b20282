"""``--encoding`` and ``--public-encoding``: a release reads a file in another code page as written and its
manifest states the declaration; a name that is no text encoding is refused before anything is read."""

from __future__ import annotations

import json

import pytest

from dpgui.cli import main
from tests.data.test_declared_encoding import CITIES, _cyrillic_file


def test_a_table_release_reads_the_declared_code_page_and_states_it(tmp_path, capsys):
    data = _cyrillic_file(tmp_path / "ru.csv")
    domains = tmp_path / "domains.json"
    domains.write_text(
        json.dumps({"город": {"categories": list(CITIES)}}, ensure_ascii=False), encoding="utf-8"
    )
    assert main(["budget", "set", "--data", str(data), "--epsilon", "5"]) == 0
    out = tmp_path / "out"
    code = main(
        ["release", "table", "--data", str(data), "--encoding", "windows-1251", "--domains", str(domains),
         "--epsilon", "1", "--algorithm", "independent", "--out", str(out)]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["dataset"]["declared_text_encoding"] == "cp1251"
    synthetic = (out / "synthetic.csv").read_text(encoding="utf-8").splitlines()
    assert synthetic[0] == "город" and set(synthetic[1:]) <= set(CITIES)


@pytest.mark.parametrize("flag", ["--encoding", "--public-encoding"])
def test_a_name_that_is_no_text_encoding_is_refused_as_usage(tmp_path, capsys, flag):
    data = _cyrillic_file(tmp_path / "ru.csv")
    with pytest.raises(SystemExit) as exit_:
        main(["release", "median", "--data", str(data), "--column", "доход", "--bounds", "0", "50",
              "--epsilon", "1", flag, "klingon", "--out", str(tmp_path / "o")])  # fmt: skip
    assert exit_.value.code == 2
    assert "'klingon' is not a text encoding" in capsys.readouterr().err
