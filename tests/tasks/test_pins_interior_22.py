"""Pins of dpgui/tasks/interior.py found by the t22 mutation scan: the refusals the interior-point learners
give before a run (no label column, a direction they do not learn, TreeLog and HeavyPaths without delta, a
grid too narrow for TreeLog, stating its width), the table of a run that returned no point, and the positives
the quantile box is computed from."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import dpgui.tasks.interior as interior_module
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.interior import _interior_table
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

EPSILON, DELTA = 0.7, 3e-7


def labelled(name: str, delta: float = DELTA, columns: int = 1, **parameters: object) -> TaskSpec:
    kind = TaskKind.RECTANGLE if name == "quantile-box" else TaskKind.THRESHOLD
    names = ("a", "b")[:columns]
    grid = (NumericDomain(0, 99, 1),) * columns
    return TaskSpec(
        kind, names, grid, EPSILON, delta, algorithm=name, label="t", parameters=tuple(parameters.items())
    )


def messages(name: str, spec: TaskSpec, n: int = 10**6) -> list[str]:
    return [failure.message for failure in get_algorithm(name).preconditions(spec, n)]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ip-reduction-em", "threshold learning needs a label column."),
        ("ip-reduction-treelog", "threshold learning needs a label column."),
        ("quantile-box", "rectangle learning needs a label column."),
    ],
)
def test_a_learner_without_a_label_column_is_refused(name: str, message: str) -> None:
    spec = labelled(name, columns=2 if name == "quantile-box" else 1)
    assert message not in messages(name, spec)
    assert message in messages(name, dataclasses.replace(spec, label=None))


@pytest.mark.parametrize("name", ["ip-reduction-em", "ip-reduction-treelog"])
def test_the_reduction_refuses_a_direction_other_than_le(name: str) -> None:
    """Under 'auto' (the task's default) it released 'x <= t' for data positive above a cut, 58% wrong
    against a predicted 0.375: it cannot choose the direction, so the custodian must say le."""
    refusal = "the interior-point reduction learns only 'le' thresholds (positive iff x <= t)"

    def refused(direction: str) -> bool:
        return any(m.startswith(refusal) for m in messages(name, labelled(name, direction=direction)))

    assert not refused("le") and refused("auto") and refused("ge")


def test_the_treelog_reduction_is_refused_without_delta() -> None:
    refusal = "TreeLog is (ε, δ)-DP: give δ > 0, or use the exponential mechanism (em-interior)."
    assert refusal in messages("ip-reduction-treelog", labelled("ip-reduction-treelog", delta=0.0))
    assert refusal not in messages("ip-reduction-treelog", labelled("ip-reduction-treelog"))


def test_heavypaths_is_refused_without_delta() -> None:
    grid = NumericDomain(0, 2**16 - 1, 1)
    spec = TaskSpec(TaskKind.INTERIOR_POINT, ("x",), grid, EPSILON, 0.0, algorithm="heavypaths")
    assert messages("heavypaths", spec) == [
        "HeavyPaths is (ε, δ)-DP: give δ > 0, or use the exponential mechanism (em-interior)."
    ]


@pytest.mark.parametrize(("points", "width"), [(2, "1 bit"), (3, "2 bits"), (8, "3 bits")])
def test_treelog_refuses_a_narrow_grid_stating_its_width(points: int, width: str) -> None:
    grid = NumericDomain(0, points - 1, 1)
    spec = TaskSpec(TaskKind.INTERIOR_POINT, ("x",), grid, EPSILON, DELTA, algorithm="treelog")
    assert messages("treelog", spec) == [
        f"the grid's {points} points fit in {width}: TreeLog needs a grid of more than 3 bits "
        "(more than 8 points); use em-interior."
    ]


def test_a_run_that_returned_no_point_releases_none_and_says_the_budget_is_spent() -> None:
    spec = TaskSpec(TaskKind.INTERIOR_POINT, ("x",), NumericDomain(0, 255, 1), EPSILON, DELTA, "treelog")
    table = _interior_table(spec, None, "TreeLog")
    assert table.rows == (("interior point", "x", "none"),)
    assert table.notes == ("TreeLog returned ⊥: no release; the budget is spent (never retried).",)


def test_the_quantile_box_is_computed_from_every_positive_and_only_the_positives(
    tmp_path, monkeypatch
) -> None:
    """Axis a: positives at 3 (once) and 5 (twice); negatives at 7 and 9 are not part of the axis input."""
    path = tmp_path / "rows.csv"
    pd.DataFrame({"a": [3, 5, 5, 7, 9], "b": [1, 2, 2, 4, 8], "t": [1, 1, 1, 0, 0]}).to_csv(path, index=False)
    data = InMemoryAggregator(open_dataset(path))
    spec = labelled("quantile-box", columns=2)
    run = lambda: get_algorithm("quantile-box").run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, interior_module, "quantile_box", run)
    first, second = args[0]
    assert (first.values.tolist(), first.counts.tolist(), first.size) == ([3, 5], [1, 2], 100)
    assert (second.values.tolist(), second.counts.tolist()) == ([1, 2], [1, 2])
    assert np.issubdtype(first.counts.dtype, np.integer)
