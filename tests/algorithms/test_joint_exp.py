"""JointExp: its exact output law is the exponential mechanism over sorted tuples, and it is eps-DP."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms import joint_exp
from dpgui.algorithms.joint_exp import joint_exp_fits, joint_exp_quantiles
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom
from tests.exact import max_log_ratio
from tests.explore import ScriptedRandom, output_law

DOMAIN = 5


def utility(data: tuple[int, ...], outputs: tuple[int, ...], qs: tuple[float, ...]) -> float:
    """The paper's utility, computed independently: minus the L1 miss of every gap's count."""
    n = len(data)
    counts = [0, *(sum(x < o for x in data) for o in outputs), n]
    targets = np.diff([0.0, *qs, 1.0]) * n
    return -sum(abs(counts[j + 1] - counts[j] - targets[j]) for j in range(len(qs) + 1))


def brute_force_law(data: tuple[int, ...], qs: tuple[float, ...], epsilon: float) -> dict:
    tuples = list(itertools.combinations_with_replacement(range(DOMAIN), len(qs)))
    weights = np.array([math.exp(epsilon * utility(data, t, qs) / 4) for t in tuples])
    return dict(zip(tuples, weights / weights.sum(), strict=True))


def code_law(data: tuple[int, ...], qs: tuple[float, ...], epsilon: float, monkeypatch) -> dict:
    """The exact law of the code's own draws: every Gumbel-max and every uniform integer enumerated."""
    monkeypatch.setattr(joint_exp, "gumbel_max", lambda weights, rng: rng.gumbel_max(weights))
    values, counts = np.unique(np.array(data, dtype=np.uint64), return_counts=True)

    def run(rng: ScriptedRandom) -> tuple[int, ...]:
        release = run_to_end(joint_exp_quantiles(values, counts, DOMAIN, qs, epsilon, rng))
        return tuple(sorted(release.indices))

    return output_law(run)[0]


@pytest.fixture(params=["linear products", "log-sum-exp"])
def summing(request, monkeypatch) -> str:
    """Both ways ``_Moves.into`` sums: products in linear space (the default here) or the log-sum-exp."""
    if request.param == "log-sum-exp":
        monkeypatch.setattr(joint_exp, "LINEAR_SPAN", -1.0)
    return request.param


@pytest.mark.parametrize(
    ("data", "qs"), [((0, 2, 2, 4), (0.25, 0.75)), ((1, 1, 3), (0.2, 0.5, 0.9)), ((4, 0), (0.5,))]
)
def test_the_code_samples_exactly_the_exponential_mechanism_with_sensitivity_two(
    data, qs, monkeypatch, summing
):
    law = code_law(data, qs, 2.0, monkeypatch)
    expected = brute_force_law(data, qs, 2.0)
    assert set(law) <= set(expected)
    for output, p in expected.items():
        assert law.get(output, 0.0) == pytest.approx(p, rel=1e-9, abs=1e-15)


def test_every_replace_one_neighbour_pair_is_within_epsilon_and_the_bound_is_nearly_tight(monkeypatch):
    epsilon, qs = 1.5, (0.3, 0.6)
    datasets = list(itertools.combinations_with_replacement(range(DOMAIN), 3))
    laws = {d: code_law(d, qs, epsilon, monkeypatch) for d in datasets}
    worst = 0.0
    for d in datasets:
        for i, replacement in itertools.product(range(3), range(DOMAIN)):
            neighbour = tuple(sorted((*d[:i], replacement, *d[i + 1 :])))
            worst = max(worst, max_log_ratio(laws[d], laws[neighbour]))
    assert worst <= epsilon * (1 + 1e-9)
    assert worst > 0.5 * epsilon


def test_quantiles_are_released_in_the_order_asked_and_sorted_by_target():
    rng = np.random.default_rng(0)
    values, counts = np.unique(rng.integers(0, 10_000, 500).astype(np.uint64), return_counts=True)
    release = run_to_end(joint_exp_quantiles(values, counts, 10_000, (0.9, 0.1, 0.5), 2.0, SeededRandom(1)))
    high, low, middle = release.indices
    assert low <= middle <= high and release.qs == (0.9, 0.1, 0.5)
    assert abs(middle - 5000) < 800 and abs(low - 1000) < 800 and abs(high - 9000) < 800


def test_huge_domains_and_the_work_limit():
    values = np.array([2**63, 2**64 - 2], dtype=np.uint64)
    release = run_to_end(
        joint_exp_quantiles(values, np.array([3, 3]), 2**64, (0.25, 0.75), 1.0, SeededRandom(2))
    )
    assert all(0 <= i < 2**64 for i in release.indices)
    assert joint_exp_fits(1000, 200_001, 29) and not joint_exp_fits(1000, 200_001, 119)
