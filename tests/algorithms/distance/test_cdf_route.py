"""The CDF route: exact identity, exact answers at huge epsilon, sensitivity, exact privacy, save/load."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms.distance.cdf_route import (
    STRUCTURE_FILE,
    DistanceStructure,
    PrivacyBudget,
    cdf_route,
    certified_max_error,
    masses_to_function,
    nearest_support,
    predicted_max_error,
    support_points,
)
from dpgui.algorithms.distance.embeddings import IdentityEmbedding, RandomProjection
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tree_cdf import TreeNoise, TreeShape, best_branching
from dpgui.privacy.random import SeededRandom
from tests.exact import discrete_laplace_pmf, max_log_ratio
from tests.recording import RecordingRandom


def brute_force(points: np.ndarray, queries: np.ndarray) -> np.ndarray:
    return np.abs(points[None, :, :] - queries[:, None, :]).sum(axis=2).mean(axis=1)


def structure(points: np.ndarray, supports, budget: PrivacyBudget, seed: int = 0) -> DistanceStructure:
    dims = points.shape[1]
    embedding = IdentityEmbedding(dims)
    knots, values = run_to_end(cdf_route(points, embedding, supports, budget, SeededRandom(seed)))
    names = tuple(f"c{j}" for j in range(dims))
    return DistanceStructure(
        names, np.zeros(dims), np.ones(dims), "l1", embedding, knots, values, {"n": len(points)}
    )


def test_cdf_identity_matches_brute_force_on_random_data_with_ties():
    g = np.random.default_rng(3)
    for _ in range(20):
        support = np.unique(g.choice(np.linspace(0, 1, 9), 6))
        data = g.choice(support, 30)
        mass = np.array([(data == s).mean() for s in support])
        knots, values = masses_to_function(support, mass)
        v = np.concatenate([g.random(40), support, [0.0, 1.0]])
        expected = np.abs(data[:, None] - v[None, :]).mean(axis=0)
        assert np.max(np.abs(np.interp(v, knots, values) - expected)) < 1e-12


def test_huge_epsilon_answers_are_exact_on_tiny_grid_data_including_out_of_box_queries():
    g = np.random.default_rng(4)
    grid = np.linspace(0, 1, 11)
    points = g.choice(grid, (7, 3))
    queries = g.random((50, 3)) * 1.6 - 0.3
    s = structure(points, [support_points(grid, 256)] * 3, PrivacyBudget(1e9))
    assert np.max(np.abs(s.answer(queries) - brute_force(points, queries))) < 1e-9


def test_a_wrong_support_is_detected_control():
    """Control: binning off the data grid (4 bins) is clearly wrong, so the check above can fail."""
    g = np.random.default_rng(4)
    points = g.choice(np.linspace(0, 1, 11), (7, 3))
    queries = g.random((50, 3))
    s = structure(points, [support_points(None, 4)] * 3, PrivacyBudget(1e9))
    assert np.max(np.abs(s.answer(queries) - brute_force(points, queries))) > 1e-3


def test_released_structure_answers_identically_after_save_and_load(tmp_path):
    g = np.random.default_rng(5)
    points = g.random((500, 4))
    s = structure(points, [support_points(None, 64)] * 4, PrivacyBudget(1.0, 0.05))
    (tmp_path / STRUCTURE_FILE).write_bytes(s.to_bytes())
    loaded = DistanceStructure.load(tmp_path)
    queries = g.random((200, 4)) * 2 - 0.5
    assert np.array_equal(loaded.answer(queries), s.answer(queries))
    assert loaded.columns == s.columns and loaded.metadata == s.metadata


def test_a_structure_parses_from_its_bytes_as_an_attachment_holds_them():
    g = np.random.default_rng(5)
    s = structure(g.random((300, 2)), [support_points(None, 32)] * 2, PrivacyBudget(1.0))
    parsed = DistanceStructure.from_bytes(s.to_bytes())
    queries = g.random((50, 2)) * 2 - 0.5
    assert np.array_equal(parsed.answer(queries), s.answer(queries))
    assert parsed.columns == s.columns and parsed.metadata == s.metadata


def test_realised_error_at_moderate_epsilon_is_below_the_prediction():
    g = np.random.default_rng(6)
    points = np.clip(g.normal(0.5, 0.2, (5000, 5)), 0, 1)
    supports = [support_points(None, 128)] * 5
    budget = PrivacyBudget(1.0)
    queries = g.random((100, 5))
    truth = brute_force(points, queries)
    errors = [
        np.abs(structure(points, supports, budget, seed).answer(queries) - truth).max() for seed in range(5)
    ]
    bound = predicted_max_error(supports, np.ones(5), 5000, budget, 100, 0.05)
    assert max(errors) <= bound
    assert max(errors) > bound / 100  # the noise is real: a zero-noise bug would fail here


def node_vector(histogram: np.ndarray, shape: TreeShape) -> np.ndarray:
    """Every non-root node count of the tree (the vector tree_cdf noises)."""
    padded = np.zeros(shape.padded_leaves, dtype=np.int64)
    padded[: histogram.size] = histogram
    return np.concatenate(
        [padded.reshape(-1, shape.level_width(level)).sum(axis=1) for level in range(1, shape.height + 1)]
    )


def neighbour_pairs(universe: int, dims: int, n: int):
    rows = list(itertools.product(range(universe), repeat=dims))
    for data in itertools.product(rows, repeat=n):
        for i in range(n):
            for replacement in rows:
                if replacement != data[i]:
                    other = list(data)
                    other[i] = replacement
                    yield np.array(data), np.array(other)


def test_joint_node_vector_sensitivity_is_at_most_2_l_h_by_brute_force():
    bins, dims = 4, 2
    shape = TreeShape.for_grid(bins, best_branching(bins))
    worst = 0
    for a, b in neighbour_pairs(bins, dims, 2):
        va = np.concatenate([node_vector(np.bincount(a[:, j], minlength=bins), shape) for j in range(dims)])
        vb = np.concatenate([node_vector(np.bincount(b[:, j], minlength=bins), shape) for j in range(dims)])
        worst = max(worst, int(np.abs(va - vb).sum()))
    assert worst == 2 * dims * shape.height


def test_nearest_support_indices_change_one_count_per_coordinate_under_replace_one():
    support = support_points(None, 8)
    g = np.random.default_rng(7)
    for _ in range(200):
        a = g.random((20, 3))
        b = a.copy()
        b[g.integers(20)] = g.random(3)
        for j in range(3):
            ha = np.bincount(nearest_support(a[:, j], support), minlength=8)
            hb = np.bincount(nearest_support(b[:, j], support), minlength=8)
            assert np.abs(ha - hb).sum() <= 2


def test_exact_privacy_of_the_per_coordinate_noisy_trees_on_tiny_neighbours():
    """Exact max log-ratio of the joint node-vector law at the noise scale the code draws (the route run on
    tiny data with recorded randomness): discrete Laplace, eps split over the coordinates."""
    bins, dims, epsilon = 4, 2, 1.0
    shape = TreeShape.for_grid(bins, best_branching(bins))
    rng = RecordingRandom(0)
    points = np.array([[0.1, 0.9], [0.4, 0.4]])
    run_to_end(
        cdf_route(
            points, IdentityEmbedding(dims), [support_points(None, bins)] * dims, PrivacyBudget(epsilon), rng
        )
    )
    nodes = node_vector(np.zeros(bins, dtype=np.int64), shape).size
    assert [(r.kind, r.size) for r in rng.requests] == [("laplace", nodes)] * dims  # one tree per coordinate
    scale = rng.requests[0].scale
    assert {r.scale for r in rng.requests} == {scale}
    wrong = scale / 2
    outputs = range(-4, 7)
    worst, worst_wrong = 0.0, 0.0
    seen = set()
    for a, b in neighbour_pairs(bins, dims, 1):
        va = np.concatenate([node_vector(np.bincount(a[:, j], minlength=bins), shape) for j in range(dims)])
        vb = np.concatenate([node_vector(np.bincount(b[:, j], minlength=bins), shape) for j in range(dims)])
        key = (tuple(va), tuple(vb))
        if key in seen:
            continue
        seen.add(key)
        for s, store in ((scale, "right"), (wrong, "wrong")):
            # The law factorises over nodes: the max log ratio is the sum of per-node exact maxima.
            total = 0.0
            for ca, cb in zip(va, vb, strict=True):
                p = {z: float(discrete_laplace_pmf(np.array(z - ca), s)) for z in outputs}
                q = {z: float(discrete_laplace_pmf(np.array(z - cb), s)) for z in outputs}
                total += max_log_ratio(p, q)
            if store == "right":
                worst = max(worst, total)
            else:
                worst_wrong = max(worst_wrong, total)
    assert worst <= epsilon + 1e-9
    assert worst_wrong > epsilon  # control: half the noise breaks the guarantee
    assert math.isclose(worst, epsilon)


def test_certified_bound_holds_for_every_query_in_every_run_and_a_four_times_smaller_noise_fails_control():
    """REVIEW s1.2 (*) by noise-only Monte Carlo: all queries at once, including out-of-box ones."""
    g = np.random.default_rng(11)
    n = 300
    points = np.clip(g.normal(0.4, 0.25, (n, 2)), 0, 1)
    supports = [support_points(None, 256)] * 2
    grid = np.stack(np.meshgrid(np.linspace(0, 1, 21), np.linspace(0, 1, 21)), -1).reshape(-1, 2)
    queries = np.concatenate([g.random((200, 2)) * 1.4 - 0.2, grid])
    truth = brute_force(points, queries)
    errors = [
        np.abs(structure(points, supports, PrivacyBudget(1.0), seed).answer(queries) - truth).max()
        for seed in range(20)
    ]
    bound = certified_max_error(supports, np.ones(2), n, PrivacyBudget(1.0), 0.05)
    assert max(errors) <= bound
    assert max(errors) > certified_max_error(supports, np.ones(2), n, PrivacyBudget(4.0), 0.05)


def test_certified_bound_never_grows_with_epsilon_or_n_and_is_exactly_one_over_n_in_its_noise_part():
    supports = [support_points(None, 64)] * 2
    bounds = [
        certified_max_error(supports, np.ones(2), 1000, PrivacyBudget(e), 0.05) for e in (0.25, 0.5, 1, 2)
    ]
    assert bounds == sorted(bounds, reverse=True) and len(set(bounds)) == 4
    binning = 2 * (1 / 128)
    at = [
        certified_max_error(supports, np.ones(2), n, PrivacyBudget(1.0), 0.05) - binning for n in (100, 1000)
    ]
    assert math.isclose(at[0], 10 * at[1], rel_tol=1e-9)


def test_l1_answers_in_the_columns_units_are_exact_at_huge_epsilon_for_unequal_ranges():
    """Columns on [10, 30] and [0, 2000]: the data-unit answer is the l1 distance in those units."""
    g = np.random.default_rng(5)
    grid = np.linspace(0, 1, 11)
    unit = g.choice(grid, (9, 2))
    lower, upper = np.array([10.0, 0.0]), np.array([30.0, 2000.0])
    s = dataclasses.replace(
        structure(unit, [support_points(grid, 256)] * 2, PrivacyBudget(1e9)), lower=lower, upper=upper
    )
    queries = lower + g.random((40, 2)) * (upper - lower) * 1.4 - 0.2 * (upper - lower)
    points = lower + unit * (upper - lower)
    assert s.in_data_units
    assert np.max(np.abs(s.answer_in_data_units(queries) - brute_force(points, queries))) < 1e-6
    assert np.max(np.abs(s.answer(queries) - brute_force(unit, s.normalise(queries)))) < 1e-9


def test_other_metrics_answer_in_data_units_only_when_every_column_has_the_same_range():
    s = structure(np.zeros((3, 2)), [support_points(np.linspace(0, 1, 5), 256)] * 2, PrivacyBudget(1.0))
    projected = dataclasses.replace(s, metric="l2", embedding=RandomProjection.draw(2, 2, 0))
    same = dataclasses.replace(projected, lower=np.array([0.0, 5.0]), upper=np.array([50.0, 55.0]))
    query = np.array([[10.0, 20.0]])
    assert same.in_data_units
    assert same.answer_in_data_units(query) == same.answer(query) * 50.0
    different = dataclasses.replace(projected, lower=np.array([0.0, 0.0]), upper=np.array([50.0, 9.0]))
    assert not different.in_data_units
    with pytest.raises(ValueError, match="normalised units only"):
        different.answer_in_data_units(query)


def test_the_gaussian_trees_drawn_spend_rho_in_all():
    """zCDP of what the code draws: a replacement moves two nodes of every level of every coordinate's tree
    by 1 each (L2 squared 2 per level), so a level's draws at sigma cost 2 / (2 sigma^2); over the c trees'
    levels that must add up to the rho asked."""
    bins, dims, rho = 16, 3, 0.2
    shape = TreeShape.for_grid(bins, best_branching(bins, TreeNoise.GAUSSIAN))
    rng = RecordingRandom(0)
    points = np.random.default_rng(5).uniform(size=(30, dims))
    supports = [support_points(None, bins)] * dims
    run_to_end(cdf_route(points, IdentityEmbedding(dims), supports, PrivacyBudget(1.0, rho), rng))
    levels = [shape.padded_leaves // shape.level_width(level) for level in range(shape.height, 0, -1)]
    assert [(r.kind, r.size) for r in rng.requests] == [("gaussian", nodes) for nodes in levels] * dims
    spent = sum(2 / (2 * r.scale**2) for r in rng.requests)
    assert rho * 0.999 <= spent <= rho * (1 + 1e-9)
