"""More pins of the CDF route (spec 004 s7; REVIEW-001-003-004 s1.2 and s6.2), from the session-20 scan.

The certified bound (``certified_max_error``) was checked as "it holds in every run" and "it never grows
with epsilon or n"; a coordinate whose noise is left out, or a noise reading taken after the isotonic
regression acted, keeps both. These tests pin which coordinates are simulated, the exactness check on the
reference release, and the budget's per-coordinate split and progress.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.stats import binom

from dpgui.algorithms.distance import cdf_route
from dpgui.algorithms.distance.cdf_route import PrivacyBudget, certified_max_error, discretisation_error
from dpgui.algorithms.distance.embeddings import BourgainEmbedding, Metric
from dpgui.algorithms.progress import Progress, run_to_end
from dpgui.privacy.random import SeededRandom

REF = float(cdf_route._REFERENCE_COUNT)


def _fake_tree(prefix: np.ndarray) -> Callable[..., Iterator[Progress]]:
    """A tree_cdf stand-in whose release has the given prefix counts (cdf = prefix / n)."""

    def release(histogram: np.ndarray, n: int, *args: object, **kwargs: object) -> Iterator[Progress]:
        yield Progress(1.0, "released")
        return SimpleNamespace(cdf=np.asarray(prefix, dtype=np.float64) / n)

    return release


def test_noise_mass_is_the_l1_distance_of_the_reference_release_from_the_true_prefix_counts(
    monkeypatch,
) -> None:
    """REVIEW s6.2 item 2: on the public reference histogram (2^30 counts per point) the released prefix
    counts minus the true ones are exactly the noise, read as sum_b |N_b| when the release is strictly
    increasing and positive (so the isotonic regression and the clipping did nothing)."""
    noise = np.array([5.0, -7.0, 0.0, 3.0])
    truth = np.arange(1, 5) * REF
    monkeypatch.setattr(cdf_route, "tree_cdf", _fake_tree(truth + noise))
    mass = cdf_route._noise_mass(4, PrivacyBudget(1.0), SeededRandom(0))
    assert mass == pytest.approx(15.0, abs=0.05)
    tiny = np.array([0.5, 1.0, 1.5, 2.0])  # strictly increasing and positive, if only by half a count
    monkeypatch.setattr(cdf_route, "tree_cdf", _fake_tree(tiny))
    assert cdf_route._noise_mass(4, PrivacyBudget(1.0), SeededRandom(0)) == pytest.approx(
        float(np.abs(tiny - truth).sum()), rel=1e-12
    )


@pytest.mark.parametrize(
    "prefix",
    [
        [1 * REF, 1 * REF, 3 * REF],  # a flat step: the isotonic regression pooled
        [2 * REF, 1.5 * REF, 3 * REF],  # decreasing: not a released CDF's shape
        [0.0, 2 * REF, 3 * REF],  # the first point clipped to zero
        [-1.0, 2 * REF, 3 * REF],
    ],
)
def test_noise_mass_certifies_nothing_when_the_reference_release_was_pooled_or_clipped(
    monkeypatch, prefix: list[float]
) -> None:
    """A reference release that is not strictly increasing and positive is not "truth plus noise" (the
    isotonic regression or the clipping acted, a vanishing budget): the draw is inf, never a smaller
    reading that would under-certify."""
    monkeypatch.setattr(cdf_route, "tree_cdf", _fake_tree(np.array(prefix)))
    assert cdf_route._noise_mass(3, PrivacyBudget(1.0), SeededRandom(0)) == float("inf")


def test_a_two_point_support_carries_noise_in_the_certified_bound() -> None:
    """A binary column (two support points) is released by a noisy tree like any other: its noise is part
    of the certified bound (REVIEW s1.2 (*)), so the bound exceeds the binning term alone; a one-point
    support releases nothing to be noisy."""
    binary = np.array([0.0, 1.0])
    budget = PrivacyBudget(1.0)
    bound = certified_max_error([binary], np.array([1.0]), 1_000, budget, 0.05)
    noise = cdf_route._certified_noise(((2, 1.0),), cdf_route._rounded_down(budget), 0.05)
    assert noise > 0
    assert bound == pytest.approx(noise / 1_000 + discretisation_error(binary), rel=1e-12)
    single = np.array([0.5])
    assert certified_max_error([single], np.array([1.0]), 1_000, budget, 0.05) == pytest.approx(0.5)


def test_coordinate_cdfs_split_the_budget_evenly_and_report_each_coordinate_done() -> None:
    """Spec 004 s7 / module doc: no parallel composition, so each of the c trees gets eps/c (rho/c); the
    progress after coordinate j is j/c, ending at exactly 1."""
    indices = np.array([[0, 1, 2], [1, 1, 0], [2, 0, 1]])
    run = cdf_route.coordinate_cdfs(indices, [3, 2, 3], 3, PrivacyBudget(3.0, 1.5), SeededRandom(1))
    fractions = []
    while True:
        try:
            fractions.append(next(run).fraction)
        except StopIteration as stop:
            cdfs = stop.value
            break
    assert fractions == pytest.approx([1 / 3, 2 / 3, 1.0], rel=1e-15)
    assert [c.size for c in cdfs] == [3, 2, 3]
    assert PrivacyBudget(3.0, 1.5).split(3) == PrivacyBudget(1.0, 0.5)
    assert PrivacyBudget(3.0).split(4) == PrivacyBudget(0.75, None)


def test_upper_rank_is_one_when_the_smallest_draw_already_bounds_the_quantile() -> None:
    """REVIEW s6.2 item 2: k = 1 qualifies when P(Bin(draws, 1 - beta) <= 0) = beta^draws >= 0.99, i.e. a
    quantile so low that even the smallest of the draws is above it."""
    assert cdf_route._upper_rank(2, 0.999) == 1
    assert cdf_route._upper_rank(2, 0.99) == 2


def test_the_structure_file_is_format_version_1_and_other_versions_are_refused() -> None:
    """Spec 004 s7 released object: ``distance_structure.json`` is "dpgui-distance-structure" version 1. A
    hand-written version-1 file (as earlier releases wrote it) loads; a writer's version is 1; another
    version is refused rather than misread."""
    data = {
        "format": "dpgui-distance-structure",
        "version": 1,
        "columns": ["a"],
        "lower": [0.0],
        "upper": [2.0],
        "metric": "l1",
        "answer_scale": cdf_route.ANSWER_SCALE,
        "embedding": {"kind": "identity", "dims": 1},
        "knots": [[0.0, 0.5, 1.0]],
        "values": [[0.5, 0.25, 0.5]],
        "metadata": {"n": 10},
    }
    structure = cdf_route.DistanceStructure.from_json(data)
    assert structure.answer(np.array([[1.0]]))[0] == pytest.approx(0.25)
    assert structure.to_json()["version"] == 1
    with pytest.raises(ValueError, match="version-1"):
        cdf_route.DistanceStructure.from_json({**data, "version": 2})


def test_the_default_support_is_256_bin_centres() -> None:
    """Spec 004 s7: B = 2^h bins, default 256; without a declared grid the support is the bin centres."""
    assert cdf_route.DEFAULT_SUPPORT == 256
    support = cdf_route.support_points(None, cdf_route.DEFAULT_SUPPORT)
    np.testing.assert_allclose(support, (np.arange(256) + 0.5) / 256, rtol=0, atol=1e-15)


@pytest.mark.parametrize(("metric", "scale"), [("l2", 5.0), ("linf", 5.0), ("l1", 5.0), ("hamming", None)])
def test_one_column_has_a_uniform_scale_its_own_range(metric: str, scale: float | None) -> None:
    """A single column trivially has one common range: its l1/l2/l-inf answers go back to data units by
    that range (Hamming counts columns, no range changes it)."""
    assert cdf_route.uniform_scale(np.array([1.0]), np.array([6.0]), metric) == scale
    assert cdf_route.uniform_scale(np.array([0.0, 1.0]), np.array([3.0, 4.0]), "l2") == 3.0
    assert cdf_route.uniform_scale(np.array([0.0, 1.0]), np.array([3.0, 5.0]), "l2") is None


def test_certified_noise_is_the_upper_rank_order_statistic_of_the_public_simulation() -> None:
    """REVIEW s6.2 item 2: the certified quantile is the k-th smallest of CERTIFY_DRAWS noise-only draws
    from the public seed, k = _upper_rank(draws, beta) (one rank lower under-certifies), each draw scaled by
    the coordinate's coefficient w_j g_j."""
    budget, beta, coefficient = PrivacyBudget(0.5), 0.05, 0.25
    rng = SeededRandom(cdf_route.CERTIFY_SEED)
    draws = np.array([cdf_route._noise_mass(5, budget, rng) for _ in range(cdf_route.CERTIFY_DRAWS)])
    rank = cdf_route._upper_rank(cdf_route.CERTIFY_DRAWS, beta)
    expected = np.sort(coefficient * draws)[rank - 1]
    assert cdf_route._certified_noise(((5, coefficient),), budget, beta) == pytest.approx(expected, rel=1e-12)


def test_a_declared_grid_of_exactly_bins_points_is_the_support() -> None:
    """Spec 004 s7 (module doc): the support is the declared grid when it has AT MOST ``bins`` points (so
    grid data are represented exactly), else the ``bins`` bin centres."""
    grid = np.array([0.0, 0.2, 0.7, 1.0])
    np.testing.assert_array_equal(cdf_route.support_points(grid, 4), grid)
    np.testing.assert_array_equal(cdf_route.support_points(grid, 5), grid)
    np.testing.assert_allclose(cdf_route.support_points(grid, 3), [1 / 6, 1 / 2, 5 / 6], rtol=1e-15)


@pytest.mark.parametrize("beta", [0.05, 0.1])
def test_the_certified_order_statistic_overshoots_the_quantile_with_probability_99_percent(
    beta: float,
) -> None:
    """certified_max_error's contract: the simulated order statistic is >= the true (1 - beta)-quantile with
    probability >= 0.99 (CERTIFY_CONFIDENCE = 0.01), the smallest rank that does so among 100 draws."""
    draws = cdf_route.CERTIFY_DRAWS
    k = cdf_route._upper_rank(draws, beta)
    assert binom.cdf(k - 1, draws, 1 - beta) >= 0.99
    assert binom.cdf(k - 2, draws, 1 - beta) < 0.99


def test_a_bourgain_structure_answers_in_the_embeddings_answer_factor() -> None:
    """Spec 004 s5.1/s5.3: the answer at pi(y) is the l1 mechanism's answer times the embedding's answer
    factor (diameter x debias for Bourgain), so at a huge budget it is the factor times the average embedded
    l1 distance (up to the binning of 1/1024 per coordinate's box)."""
    g = np.random.default_rng(12)
    points, queries = g.random((200, 2)), g.random((10, 2))
    embedding = BourgainEmbedding.draw(Metric.L1, queries, 2, public_seed=3, debias=True)
    assert embedding.answer_factor > 4.0
    supports = [cdf_route.support_points(None, 512)] * embedding.dimension
    knots, values = run_to_end(
        cdf_route.cdf_route(points, embedding, supports, PrivacyBudget(1e9), SeededRandom(0))
    )
    structure = cdf_route.DistanceStructure(
        ("a", "b"), np.zeros(2), np.ones(2), "l1", embedding, knots, values
    )
    spread = np.abs(embedding.embed(queries)[:, None, :] - embedding.embed(points)[None, :, :]).sum(axis=2)
    np.testing.assert_allclose(
        structure.answer(queries), embedding.answer_factor * spread.mean(axis=1), rtol=0.02
    )
