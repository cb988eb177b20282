"""A learning task's label is a column of its own, and a named positive value is not empty.

Observed: ``dpgui release threshold --feature age --label age`` reached the data pass and refused there
with "'26.2' is not a label (0/1, true/false, yes/no); name the positive value with --positive", advice
that would have made it run, learning the feature against itself; and ``--positive ''`` released (and
charged) a threshold for a label column with no positive row, since no cell reads the empty text. Both are
facts of the request alone, refused before the data is opened.
"""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.data.domain import NumericDomain
from dpgui.tasks.spec import TaskKind, TaskSpec

AGE = NumericDomain(0, 100, 1)


def test_a_label_that_is_also_a_feature_is_refused():
    with pytest.raises(ValueError, match="both a feature and the label"):
        TaskSpec(TaskKind.THRESHOLD, ("age",), (AGE,), 1.0, label="age")
    with pytest.raises(ValueError, match="both a feature and the label"):
        TaskSpec(TaskKind.RECTANGLE, ("age", "hours"), (AGE, AGE), 1.0, label="hours")
    TaskSpec(TaskKind.THRESHOLD, ("age",), (AGE,), 1.0, label="retired")


@pytest.mark.parametrize("positive", ["", "  "])
def test_an_empty_positive_value_is_refused(positive: str):
    with pytest.raises(ValueError, match="positive label value is empty"):
        TaskSpec(TaskKind.THRESHOLD, ("age",), (AGE,), 1.0, label="retired", positive=positive)


@pytest.mark.parametrize(
    ("label", "positive"), [("age", None), ("retired", ""), ("retired", " ")], ids=["same", "empty", "blank"]
)
def test_the_cli_refuses_them_before_any_charge(tmp_path, isolated_home, capsys, label, positive):
    data = tmp_path / "people.csv"
    pd.DataFrame({"age": list(range(20, 80)) * 5, "retired": [0, 1] * 150}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    argv = ["release", "threshold", "--data", str(data), "--feature", "age", "--label", label]
    argv += [] if positive is None else [f"--positive={positive}"]
    code = main([*argv, "--bounds", "0", "100", "--epsilon", "1", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "both a feature and the label" in err or "positive label value is empty" in err
    assert main(["budget", "show", "--data", str(data)]) == 0
    assert "spent ε=0" in capsys.readouterr().out
