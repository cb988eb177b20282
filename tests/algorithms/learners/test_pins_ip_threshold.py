"""Pins the learning -> interior point reduction's noisy count, its margin and its budget split, observed
from the code (mutation scan 18: COUNT_SHARE = 1/8 and a margin ln(2/beta)/eps1 survived).

Spec 002 s7 [derived], with REVIEW-000-002 s7 item 1 and the module's correction: m1~ = m1 + Z with Z
discrete Laplace of scale 1/eps1, eps1 = eps/4 (COUNT_SHARE, public); release "always negative" when
m1~ < k + c and "always positive" when n - m1~ < k + c, c = ln(1/beta)/eps1; otherwise the interior point
of S at eps2/2 = (3/8) eps (group privacy over two substitutions). The error bound (2k + 2c)/n the app
reports is built from these same constants.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.interior_point import em_interior_point_min_n
from dpgui.algorithms.learners import ip_threshold as module
from dpgui.algorithms.learners.ip_threshold import InteriorSolver, IPThresholdParameters, ip_threshold
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import treelog_min_n
from tests.recording import RecordingRandom, smallest_releasing_noise

EPSILON, BETA, SIZE = 2.0, 0.05, 99


def params_for(n: int) -> IPThresholdParameters:
    return IPThresholdParameters(n, SIZE, EPSILON, 0.0, BETA, InteriorSolver.EM)


def run(positives_at_10: int, negatives_at_50: int, z: int) -> tuple[RecordingRandom, int]:
    """The released cut when the count noise is z (realizable data: positives at 10, negatives at 50)."""
    n = positives_at_10 + negatives_at_50
    rng = RecordingRandom(zero=True, noise=[z])
    values = np.array([10, 50], dtype=np.uint64)
    release = run_to_end(
        ip_threshold(
            values, np.array([positives_at_10, 0]), np.array([0, negatives_at_50]), params_for(n), rng
        )
    )
    return rng, release.hypothesis.cut


def test_count_noise_has_scale_4_over_eps() -> None:
    """The one noise draw is the positive count's, at scale 1/eps1 = 1/(eps/4)."""
    rng, _ = run(400, 400, 0)
    assert rng.requests[0].kind == "laplace" and rng.requests[0].size == 1
    assert rng.requests[0].scale == pytest.approx(4 / EPSILON, rel=1e-12)


def test_constants_are_the_specs() -> None:
    """k = ceil(n_IP / 2) with n_IP the EM interior point's requirement at eps2/2 = 3 eps / 8 and beta/2 over
    the size + 1 cuts; c = ln(1/beta) / (eps/4); the error bound (2k + 2c)/n."""
    p = params_for(800)
    n_ip = math.ceil(2 + 4 / (3 * EPSILON / 8) * math.log((SIZE + 1) / (BETA / 2)))
    assert em_interior_point_min_n(SIZE + 1, 3 * EPSILON / 8, BETA / 2) == n_ip
    assert p.k == math.ceil(n_ip / 2)
    assert p.step_epsilon == pytest.approx(3 * EPSILON / 8, rel=1e-12)
    assert p.count_margin == pytest.approx(math.log(1 / BETA) / (EPSILON / 4), rel=1e-12)
    assert p.error_rate == pytest.approx((2 * p.k + 2 * p.count_margin) / 800, rel=1e-12)
    small = params_for(100)  # (2k + 2c)/n above 1/2 is reported as it is, above 1 capped at 1
    assert small.error_rate == pytest.approx((2 * small.k + 2 * small.count_margin) / 100, rel=1e-12)
    assert 0.5 < small.error_rate < 1 and params_for(50).error_rate == 1.0


@pytest.mark.parametrize(("positives", "negatives"), [(400, 400), (90, 700)])
def test_always_negative_below_k_plus_c(positives: int, negatives: int) -> None:
    """The smallest noise that does not release the always-negative cut 0 puts m1~ at ceil(k + c)."""
    p = params_for(positives + negatives)
    z = smallest_releasing_noise(lambda z: run(positives, negatives, z)[1] != 0, -2000, 0)
    assert positives + z == math.ceil(p.k + math.log(1 / BETA) / (EPSILON / 4))


@pytest.mark.parametrize(("positives", "negatives"), [(400, 400), (700, 90)])
def test_always_positive_when_the_negatives_fall_below_k_plus_c(positives: int, negatives: int) -> None:
    """n - m1~ < k + c releases the always-positive cut ``size``: the largest noise that does not is the
    one with n - m1~ = ceil(k + c)."""
    p = params_for(positives + negatives)
    n = positives + negatives
    z = smallest_releasing_noise(lambda z: run(positives, negatives, z)[1] == SIZE, 0, 2000)
    assert n - (positives + z - 1) == math.ceil(p.k + math.log(1 / BETA) / (EPSILON / 4))


def test_the_interior_point_runs_at_three_eighths_of_eps(monkeypatch) -> None:
    """eps2 = eps - eps/4, halved for the two substitutions a replaced record can make in S."""
    seen: list[float] = []
    real = module.em_interior_point

    def em(values, counts, domain_size, epsilon, rng):
        seen.append(epsilon)
        return real(values, counts, domain_size, epsilon, rng)

    monkeypatch.setattr(module, "em_interior_point", em)
    run(400, 400, 0)
    assert seen == [pytest.approx(3 * EPSILON / 8, rel=1e-12)]


def test_treelog_solver_runs_at_the_group_privacy_split() -> None:
    """With TreeLog, the solver's (eps2/2, delta/(1 + e^{eps2/2})) per substitution of S (module doc: two
    substitutions per replaced record), its requirement at beta/2 over the cuts' bit-width."""
    p = IPThresholdParameters(10**6, SIZE, EPSILON, 1e-6, BETA, InteriorSolver.TREELOG)
    step = 3 * EPSILON / 8
    assert p.step_delta == pytest.approx(1e-6 / (1 + math.exp(step)), rel=1e-12)
    assert p.bits == 7  # cuts 0..99
    assert p.solver_min_n == treelog_min_n(step, 1e-6 / (1 + math.exp(step)), BETA / 2, 7)
    assert p.k == math.ceil(p.solver_min_n / 2)
