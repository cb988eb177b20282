"""The out-of-core engine reads the file again after the pre-charge check: a file changed in between is
refused, never released as if it were the file that was checked, counted (n) and fingerprinted. A change
found before the run touches the data is refunded: nothing was read, nothing released."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main, release_cmd
from dpgui.privacy.ledger import Ledger


@pytest.mark.parametrize("change", ["append", "delete"])
def test_a_file_changed_after_the_check_is_not_released(tmp_path, capsys, monkeypatch, change):
    path = tmp_path / "data.csv"
    pd.DataFrame({"x": np.random.default_rng(0).integers(0, 100, 300)}).to_csv(path, index=False)
    assert main(["budget", "set", "--data", str(path), "--epsilon", "5"]) == 0
    review = release_cmd.review_gate.review_or_refuse

    def review_then_change(*args, **kwargs):
        result = review(*args, **kwargs)
        if change == "append":
            with path.open("a") as handle:
                handle.write("5\n" * 1000)  # n was counted as 300
        else:
            path.unlink()
        return result

    monkeypatch.setattr(release_cmd.review_gate, "review_or_refuse", review_then_change)
    out = tmp_path / "out"
    code = main(
        ["release", "cdf", "--data", str(path), "--column", "x", "--bounds", "0", "100", "--epsilon", "1",
         "--engine", "embedded", "--out", str(out)]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "changed on disk after it was opened" in err, err
    assert not out.exists()
    (record,) = Ledger().datasets()
    assert Ledger().state(record.id).spent.epsilon == 0  # refunded: refused before the run read a row
