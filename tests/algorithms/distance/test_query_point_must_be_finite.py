"""A released distance structure refuses a query point with nan or inf instead of answering nan or inf.

Observed: ``dpgui query distance --release DIR --point nan,1`` printed ``nan,1.0,nan,nan`` and exit 0
(``inf,1`` answered inf); ``--point 1,x`` refused with "could not convert string to float: 'x'".
Answering is post-processing (no privacy at stake), but nan is no answer.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, PrivacyBudget, support_points
from dpgui.cli import main
from tests.algorithms.distance.test_cdf_route import structure


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_non_finite_coordinate_is_refused(bad: float):
    grid = np.linspace(0, 1, 11)
    released = structure(
        np.array([[0.1, 0.2], [0.5, 0.9]]), [support_points(grid, 16)] * 2, PrivacyBudget(1e9)
    )
    assert np.isfinite(released.answer(np.array([[0.3, 0.4]]))).all()
    with pytest.raises(ValueError, match="finite number"):
        released.answer(np.array([[0.3, bad]]))


@pytest.mark.parametrize("point", ["nan,1", "1,inf", "1,x", ""])
def test_the_query_command_refuses_it_with_exit_2(tmp_path, capsys, point: str):
    grid = np.linspace(0, 1, 11)
    released = structure(
        np.array([[0.1, 0.2], [0.5, 0.9]]), [support_points(grid, 16)] * 2, PrivacyBudget(1e9)
    )
    (tmp_path / STRUCTURE_FILE).write_text(json.dumps(released.to_json()), encoding="utf-8")
    assert main(["query", "distance", "--release", str(tmp_path), f"--point={point}"]) == 2
    err = capsys.readouterr().err
    assert "finite number" in err or "comma-separated numbers" in err
    assert "could not convert" not in err
