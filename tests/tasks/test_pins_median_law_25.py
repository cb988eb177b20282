"""The median and interior-point tasks sample a law whose privacy loss stays within the epsilon they charge.

Mutation scan h25a: the median task running ``em_quantile`` (or the interior-point task running
``em_interior_point``) at 2 eps while charging eps went unnoticed: the algorithms' own exact checks call
them with the right epsilon, and no task test looked at what the task's run samples. Here each task runs on
two neighbouring data sets (one record moved from the bottom of the grid to its top) in which every grid
point holds a record, so each piece of the piecewise sampler is one grid point and the recorded Gumbel-max
log-weights are the law over points; its largest log-ratio must stay within the charged epsilon (and come
close to it: the pair is near the worst case).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import RecordingRandom, chosen_law

TOP = 6
FIRST = [0, 0, 0, *range(1, TOP + 1)]  # every grid point 0..TOP holds a record
SECOND = [0, 0, *range(1, TOP + 1), TOP]  # one record moved from 0 to TOP (replace-one)


def sampled_law(tmp_path: Path, name: str, kind: TaskKind, values: list[int], epsilon: float) -> np.ndarray:
    path = tmp_path / f"{name}-{values.count(0)}.csv"  # FIRST and SECOND differ in their zeros
    path.write_text("wage\n" + "".join(f"{v}\n" for v in values), encoding="utf-8")
    spec = TaskSpec(kind, ("wage",), (NumericDomain(0, TOP, 1),), epsilon, 0.0, name)
    rng = RecordingRandom()
    run_to_end(get_algorithm(name).run(spec, InMemoryAggregator(open_dataset(path)), rng))
    [log_weights] = rng.log_weights
    assert log_weights.size == TOP + 1  # one piece per grid point
    return chosen_law(log_weights)


@pytest.mark.parametrize(
    ("name", "kind"), [("em", TaskKind.MEDIAN), ("em-interior", TaskKind.INTERIOR_POINT)]
)
@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_the_task_samples_within_the_epsilon_it_charges(
    tmp_path: Path, name: str, kind: TaskKind, epsilon: float
) -> None:
    spec = TaskSpec(kind, ("wage",), (NumericDomain(0, TOP, 1),), epsilon, 0.0, name)
    charged = get_algorithm(name).cost(spec)
    assert charged.delta == 0.0
    p = sampled_law(tmp_path, name, kind, FIRST, epsilon)
    q = sampled_law(tmp_path, name, kind, SECOND, epsilon)
    loss = float(np.max(np.abs(np.log(p) - np.log(q))))
    assert loss <= charged.epsilon * (1 + 1e-9)
    assert loss >= 0.45 * charged.epsilon
