"""RecConcave's recursion bound N (paper 000 Fig. 5; spec 000 s4.3): a public parameter of the app that
sets how many levels run, how the budget is split over their mechanisms and the sample size it needs."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from dpgui.algorithms import recconcave
from dpgui.algorithms.learners.thresholds import learn_thresholds_min_n
from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import Guarantee, get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec

RECCONCAVE = get_algorithm("recconcave")
GRID = NumericDomain(0, 2000, 1)  # 2,001 points: two levels without a bound


def _spec(delta: float, bound: int) -> TaskSpec:
    return TaskSpec(
        TaskKind.THRESHOLD, ("age",), (GRID,), 1.0, delta, "recconcave",
        parameters=(("direction", "ge"), ("recursion_bound", bound)), label="retired",
    )  # fmt: skip


def test_the_bound_is_offered_in_the_form_and_the_command_line():
    (bound,) = [p for p in RECCONCAVE.parameters if p.name == "recursion_bound"]
    assert (bound.default, bound.minimum, bound.kind) == (0, 0, int)


def test_a_bound_of_one_runs_one_exponential_mechanism_at_the_whole_epsilon_and_charges_no_delta(
    tmp_path, monkeypatch
):
    seen: list[tuple[int, float]] = []
    real = recconcave.exponential_mechanism_step

    def recording(quality, epsilon, rng, windows=None):
        seen.append((quality.top, epsilon))
        return real(quality, epsilon, rng, windows)

    monkeypatch.setattr(recconcave, "exponential_mechanism_step", recording)
    ages = pd.Series(range(3000)) % 2001
    path = tmp_path / "people.csv"
    pd.DataFrame({"age": ages, "retired": (ages >= 1500).astype(int)}).to_csv(path, index=False)
    spec = _spec(0.0, 1)
    assert RECCONCAVE.preconditions(spec, 3000) == ()
    assert RECCONCAVE.cost(spec) == PrivacyCost(1.0)
    run_to_end(RECCONCAVE.run(spec, InMemoryAggregator(open_dataset(path)), SeededRandom(0)))
    assert seen == [(GRID.size, 1.0)]


def test_without_a_bound_the_grid_needs_delta_and_two_levels_split_the_budget():
    assert RECCONCAVE.preconditions(_spec(0.0, 0), 3000)
    assert RECCONCAVE.cost(_spec(1e-6, 0)) == PrivacyCost(1.0, 1e-6)
    assert recconcave.per_mechanism_cost(PrivacyCost(1.0, 1e-6), GRID.size).epsilon == pytest.approx(1 / 4)


def test_the_needed_sample_follows_the_levels_the_bound_leaves():
    total = PrivacyCost(1.0, 1e-6)
    one_level = learn_thresholds_min_n(GRID.size, total, 0.05, 0.05, 1)
    generalisation = (200 / 0.05**2) * math.log(4 / (0.05 * 0.05))
    assert one_level == math.ceil(max(generalisation, (2 / (0.025 * 1.0)) * math.log2(GRID.size / 0.0125)))
    assert learn_thresholds_min_n(GRID.size, total, 0.05, 0.05, 2) == learn_thresholds_min_n(
        GRID.size, total, 0.05, 0.05
    )
    assert (
        RECCONCAVE.predicted_error(_spec(0.0, 1), 10**6)
        < 0.05
        < RECCONCAVE.predicted_error(_spec(1e-6, 0), 10**6)
    )


@pytest.mark.parametrize("delta", [0.0, 1e-6])
def test_one_level_is_labelled_pure_wherever_the_guarantee_is_stated(delta):
    """The manifest, report, review and planner read ``guarantee_for``: one exponential mechanism is pure,
    even when the custodian typed a δ (it is not charged)."""
    assert RECCONCAVE.guarantee_for(_spec(delta, 1)) is Guarantee.PURE
    assert RECCONCAVE.cost(_spec(delta, 1)).is_pure


def test_two_levels_are_labelled_approximate_even_at_delta_zero_where_they_are_refused():
    assert RECCONCAVE.guarantee_for(_spec(1e-6, 0)) is Guarantee.APPROXIMATE
    assert RECCONCAVE.guarantee_for(_spec(0.0, 0)) is Guarantee.APPROXIMATE
    assert RECCONCAVE.guarantee_for(_spec(1e-6, 2)) is Guarantee.APPROXIMATE
