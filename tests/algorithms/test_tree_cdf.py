"""The tree CDF: shape of the release, exact privacy of the node vector, consistency, a-priori accuracy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tree_cdf import (
    CdfSoFar,
    TreeNoise,
    TreeShape,
    best_branching,
    cdf_error_bound,
    isotonic_increasing,
    node_variance_proxy,
    predicted_max_variance,
    real_nodes,
    tree_cdf,
    tree_level_counts,
)
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import PrivateRandom, SeededRandom
from tests.exact import binomial_upper, discrete_gaussian_delta, discrete_laplace_pmf, max_log_ratio
from tests.recording import RecordingRandom


class FixedNoise(SeededRandom):
    """Hands out a fixed noise vector, level by level (leaves first, as the tree asks)."""

    def __init__(self, noise: np.ndarray) -> None:
        super().__init__(0)
        self.noise = list(noise)

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        taken, self.noise = self.noise[:size], self.noise[size:]
        return np.array(taken, dtype=np.int64)


def release(histogram: np.ndarray, epsilon: float, rng: PrivateRandom, **kwargs: object) -> np.ndarray:
    counts = np.asarray(histogram)
    return run_to_end(tree_cdf(counts, int(counts.sum()), epsilon, rng, **kwargs)).cdf  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=1, max_size=300),
    st.floats(0.05, 5.0),
    st.integers(0, 2**32),
    st.sampled_from([None, 2, 3, 7]),
)
def test_released_cdf_is_monotone_in_unit_interval_and_ends_at_one(counts, epsilon, seed, branching):
    cdf = release(np.array(counts), epsilon, SeededRandom(seed), branching=branching)
    assert cdf.shape == (len(counts),)
    assert np.all(np.diff(cdf) >= 0)
    assert cdf.min() >= 0 and cdf.max() <= 1
    assert cdf[-1] == 1.0


def test_huge_epsilon_releases_the_exact_cdf():
    counts = np.random.default_rng(1).integers(0, 20, size=777)
    cdf = release(counts, 1e9, SeededRandom(2))
    np.testing.assert_allclose(cdf, np.cumsum(counts) / counts.sum(), atol=1e-12)


def test_every_real_node_gets_noise_of_one_scale():
    rng = RecordingRandom(3)
    release(np.ones(100, dtype=np.int64), 0.7, rng, branching=4)
    shape = TreeShape.for_grid(100, 4)
    assert shape.height == 4
    assert len({(kind, scale) for kind, scale, _ in rng.requests}) == 1
    assert sum(size for *_, size in rng.requests) == sum(
        int(real_nodes(shape, lv).sum()) for lv in range(1, 5)
    )


def _node_vector_log_ratio(scale: float, first: np.ndarray, second: np.ndarray, shape: TreeShape) -> float:
    """Exact max log-likelihood ratio of the noisy node vectors: a product law, so per-node maxima add."""
    a, b = tree_level_counts(first, shape), tree_level_counts(second, shape)
    outputs = np.arange(-60, 61)
    total = 0.0
    for level in range(1, shape.height + 1):
        for x, y in zip(a[level], b[level], strict=True):
            p = dict(zip(outputs.tolist(), discrete_laplace_pmf(outputs - x, scale), strict=True))
            q = dict(zip(outputs.tolist(), discrete_laplace_pmf(outputs - y, scale), strict=True))
            total += max_log_ratio(p, q)
    return total


def test_node_vector_is_epsilon_dp_on_replace_one_neighbours_and_half_the_scale_is_not():
    """Grid of 4 points, b = 2: moving one record from the first to the last point changes 4 nodes."""
    epsilon = 0.9
    shape = TreeShape.for_grid(4, 2)
    rng = RecordingRandom(4)
    first, second = np.array([2, 1, 0, 1]), np.array([1, 1, 0, 2])
    release(first, epsilon, rng, branching=2)
    scale = rng.requests[0][1]
    assert _node_vector_log_ratio(scale, first, second, shape) <= epsilon * (1 + 1e-9)
    assert _node_vector_log_ratio(scale, first, second, shape) == pytest.approx(epsilon)
    assert _node_vector_log_ratio(scale / 2, first, second, shape) > 1.5 * epsilon  # control


@pytest.mark.parametrize(("epsilon", "delta"), [(1.0, 1e-6), (0.5, 1e-9), (2.0, 1e-5)])
def test_gaussian_node_vector_is_eps_delta_dp_at_the_asked_budget(epsilon, delta):
    """Grid of 4 points, b = 2, rho from the asked (eps, delta) as the sanitize task does: the exact
    hockey-stick of the noisy node vectors at the recorded sigma, for a record moved end to end."""
    shape = TreeShape.for_grid(4, 2)
    first, second = np.array([2, 1, 0, 1]), np.array([1, 1, 0, 2])
    rng = RecordingRandom(5)
    rho = zcdp_rho_for(PrivacyCost(epsilon, delta))
    release(first, epsilon, rng, branching=2, noise=TreeNoise.GAUSSIAN, rho=rho)
    [sigma] = set(rng.scales("gaussian"))
    a, b = tree_level_counts(first, shape), tree_level_counts(second, shape)
    shift = np.concatenate([a[lv] - b[lv] for lv in range(1, shape.height + 1)])
    assert np.count_nonzero(shift) == 2 * shape.height  # the worst case: two nodes per level
    assert discrete_gaussian_delta(shift, sigma, epsilon) <= delta


def test_consistency_is_the_least_squares_estimate_with_the_root_fixed_at_n():
    """Leaves of a 9-point, b = 3 tree against a direct constrained least-squares solve."""
    shape = TreeShape.for_grid(9, 3)
    counts = np.array([400, 300, 500, 200, 600, 100, 700, 350, 450])
    noise = np.random.default_rng(6).integers(-9, 10, size=12)
    cdf = release(counts, 1.0, FixedNoise(noise), branching=3)
    # Design: 9 leaf rows then 3 parent rows; noise is drawn leaves first.
    design = np.vstack([np.eye(9), np.kron(np.eye(3), np.ones(3))])
    observed = np.concatenate([counts, counts.reshape(3, 3).sum(axis=1)]) + noise
    n = counts.sum()
    kkt = np.block([[design.T @ design, np.ones((9, 1))], [np.ones((1, 9)), np.zeros((1, 1))]])
    solution = np.linalg.solve(kkt, np.concatenate([design.T @ observed, [n]]))[:9]
    assert shape.height == 2
    np.testing.assert_allclose(cdf * n, np.cumsum(solution), atol=1e-8)


def test_padding_nodes_are_exact_zeros_and_get_no_noise():
    rng = RecordingRandom(7, zero=True)
    counts = np.arange(1, 11)
    cdf = release(counts, 1.0, rng, branching=4)  # 10 leaves padded to 12 (r = 3 root children)
    shape = TreeShape.for_grid(10, 4)
    assert shape.padded_leaves == 12
    assert sum(size for *_, size in rng.requests) == 10 + 3
    np.testing.assert_allclose(cdf, np.cumsum(counts) / counts.sum())


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=40))
def test_isotonic_regression_matches_sequential_pool_adjacent_violators(values):
    blocks: list[list[float]] = []
    for value in values:
        blocks.append([value, 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, weight = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += weight
    expected = [s / w for s, w in blocks for _ in range(int(w))]
    np.testing.assert_allclose(isotonic_increasing(np.array(values)), expected, atol=1e-9)


def test_best_branching_minimises_the_predicted_variance():
    for leaves in (5, 1000, 65536, 10**6):
        chosen = best_branching(leaves)
        best = predicted_max_variance(leaves, chosen, TreeNoise.LAPLACE, 1.0, None)
        assert all(
            best <= predicted_max_variance(leaves, b, TreeNoise.LAPLACE, 1.0, None) for b in range(2, 65)
        )
    assert best_branching(65536) == 16


def test_partials_are_monotone_cdfs_at_node_ends_up_to_the_last_grid_point():
    counts = np.random.default_rng(8).integers(0, 9, size=500)
    run = tree_cdf(counts, int(counts.sum()), 1.0, SeededRandom(9), branching=5)
    partials = []
    while True:
        try:
            step = next(run)
        except StopIteration:
            break
        if isinstance(step.partial, CdfSoFar):
            partials.append(step.partial)
    assert [p.level for p in partials] == [1, 2, 3, 4]
    for partial in partials:
        assert partial.indices[-1] == 499 and np.all(np.diff(partial.cdf) >= 0)
        assert partial.cdf.min() >= 0 and partial.cdf.max() <= 1


def test_grids_above_two_to_the_26_are_refused():
    with pytest.raises(ValueError, match="coarser granularity"):
        run_to_end(tree_cdf(np.zeros((1 << 26) + 1, dtype=np.int8), 0, 1.0, SeededRandom(0)))


def test_discrete_laplace_mgf_is_below_the_continuous_bound_used_by_the_error_bound():
    for scale in (0.3, 1.0, 2.5, 8.0, 40.0):
        r = math.exp(-1 / scale)
        for lam in np.linspace(-1, 1, 41) / (math.sqrt(2) * scale):
            mgf = (1 - r) ** 2 / ((1 - r * math.exp(lam)) * (1 - r * math.exp(-lam)))
            assert (
                mgf
                <= 1 / (1 - (lam * scale) ** 2) * (1 + 1e-12)
                <= math.exp(2 * (lam * scale) ** 2) * (1 + 1e-12)
            )


@pytest.mark.parametrize("noise", [TreeNoise.LAPLACE, TreeNoise.GAUSSIAN])
def test_max_cdf_error_stays_within_the_a_priori_bound(noise):
    """Failures within beta + a binomial margin; the control (bound / 8) fails far more often."""
    rng_data = np.random.default_rng(10)
    leaves, n, epsilon, beta, trials = 2000, 3000, 1.0, 0.2, 30
    rho = 0.1 if noise is TreeNoise.GAUSSIAN else None
    alpha = cdf_error_bound(leaves, n, epsilon, beta, noise=noise, rho=rho)
    failures = control = 0
    for trial in range(trials):
        counts = np.bincount(rng_data.integers(0, leaves, size=n), minlength=leaves)
        error = np.abs(
            release(counts, epsilon, SeededRandom(trial), noise=noise, rho=rho) - np.cumsum(counts) / n
        )
        failures += error.max() > alpha
        control += error.max() > alpha / 8
    assert failures <= binomial_upper(trials, beta)
    assert control > binomial_upper(trials, beta)


@pytest.mark.parametrize(("leaves", "beta"), [(1025, 0.05), (3, 0.9), (2, 0.9)])
def test_the_a_priori_bound_is_the_module_docs_formula(leaves: int, beta: float):
    """The bound test above passes any bound up to 8 times too large; this one pins the formula: the
    Laplace tail's u (both branches of g) and the Gaussian's sigma sqrt(2 D ln(2(N - 1)/beta)), over n."""
    n, epsilon, rho, b = 5000, 0.7, 0.05, 16
    shape = TreeShape.for_grid(leaves, b)
    nodes, target = shape.decomposition_nodes, math.log(2 * (leaves - 1) / beta)
    s = 2 * shape.height / epsilon
    u = math.sqrt(8 * target) if target <= 1 else math.sqrt(2) * (target + 1)
    assert cdf_error_bound(leaves, n, epsilon, beta, branching=b) == pytest.approx(
        u * s * math.sqrt(nodes) / n
    )
    sigma = math.sqrt(2 * shape.height / (2 * rho))
    gaussian = cdf_error_bound(leaves, n, epsilon, beta, noise=TreeNoise.GAUSSIAN, rho=rho, branching=b)
    assert gaussian == pytest.approx(sigma * math.sqrt(2 * nodes * target) / n)


def test_a_nodes_variance_proxy_is_the_noises_variance():
    """2 s^2 for the Laplace of scale s, sigma^2 for the Gaussian (its sub-Gaussian proxy): the distance
    task's CDF route adds these across columns with different noises, so their constants matter."""
    assert node_variance_proxy(TreeNoise.LAPLACE, 3.0) == pytest.approx(18.0)
    assert node_variance_proxy(TreeNoise.GAUSSIAN, 3.0) == pytest.approx(9.0)


def test_consistency_is_the_constrained_least_squares_estimate():
    """Hay et al. 2010 / Honaker 2015: with equal noise per node and the root fixed at the public n, the
    released leaf counts are the least-squares fit to every noisy node count subject to summing to n (the
    bottom-up weights child_var / (child_var + 1) are that solution's; other weights stay private, as
    post-processing, but fit worse). Checked against the explicit solution on a 2-level binary tree."""
    counts = np.array([30, 20, 25, 25, 12, 18, 40, 30])
    n, leaves = int(counts.sum()), counts.size
    noise = [3, -2, 1, -1, 2, 0, -4, 5, 1, -3, 2, -1, 4, 2]
    release = run_to_end(tree_cdf(counts, n, 1.0, RecordingRandom(noise=noise), branching=2))
    shape = release.shape
    rows, observed, drawn = [], [], iter(noise)
    for level in range(shape.height, 0, -1):  # the order the levels are noised in
        width = shape.level_width(level)
        for start in range(0, leaves, width):
            rows.append([1.0 if start <= k < start + width else 0.0 for k in range(leaves)])
            observed.append(counts[start : start + width].sum() + next(drawn))
    a, y = np.array(rows), np.array(observed, dtype=float)
    kkt = np.block([[2 * a.T @ a, np.ones((leaves, 1))], [np.ones((1, leaves)), np.zeros((1, 1))]])
    fitted = np.linalg.solve(kkt, np.concatenate([2 * a.T @ y, [n]]))[:leaves]
    assert np.all(fitted > 0)  # no clipping or isotonic step in play
    np.testing.assert_allclose(release.cdf, np.cumsum(fitted) / n, atol=1e-12)
