"""Pins of the embeddings' constants (paper 004 s4; spec 004 s5.2, s5.3 and s8; REVIEW-001-003-004 s3).

test_embeddings checks the embeddings' guarantees on fixed seeds (the random projection's distortion, the
Bourgain expansion <= 1 and contraction >= 1/(64 L), 1-sensitivity, the JSON round trip). A wrong constant
that keeps those guarantees passes it: a Bourgain level count or subset probability off by a factor, a
wrong public box, a debias factor applied the wrong way or to the plain embedding, normals whose halves are
dependent. These tests pin the spec's construction itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.distance import embeddings as emb
from dpgui.algorithms.distance.embeddings import (
    BourgainEmbedding,
    Metric,
    metric_distances,
    query_pair_ratios,
)


def _spec_bourgain(
    points: np.ndarray, queries: np.ndarray, uniforms: np.ndarray, metric: Metric
) -> np.ndarray:
    """Spec 004 s5.3 "fixed, implementable version", written out literally: L = floor(log2 k) + 1,
    S_ij = {y : U[j, y] < 2^-(i-1)}, pi_ij(x) = min(d(x, S_ij) / diameter, 1) / (K L), 0 for an empty
    S_ij."""
    k, dims = queries.shape
    levels = math.floor(math.log2(k)) + 1
    reps = uniforms.shape[0]
    diameter = metric.diameter(dims)
    out = np.zeros((len(points), reps, levels))
    for j in range(reps):
        for i in range(1, levels + 1):
            members = [y for y in range(k) if uniforms[j, y] < 2.0 ** -(i - 1)]
            if members:
                d = metric_distances(points, queries[members], metric).min(axis=1) / diameter
                out[:, j, i - 1] = np.minimum(d, 1.0)
    return out.reshape(len(points), -1) / (reps * levels)


@pytest.mark.parametrize("metric", [Metric.L1, Metric.L2, Metric.LINF])
def test_bourgain_embedding_is_the_spec_construction_on_drawn_uniforms(metric: Metric) -> None:
    """Spec 004 s5.3: the prefix-min fast path equals the literal nested-subset definition (levels, subset
    probabilities 2^-(i-1), the cube diameter of the columns, the 1/(K L) normalisation)."""
    g = np.random.default_rng(11)
    queries = g.random((40, 3))
    points = np.vstack([g.random((25, 3)), [[2.0, 2.0, 2.0], [-1.0, 0.5, 0.5]]])  # out-of-box: dbar > 1
    embedding = BourgainEmbedding.draw(metric, queries, repetitions=5, public_seed=2)
    expected = _spec_bourgain(points, queries, embedding.uniforms, metric)
    np.testing.assert_allclose(embedding.embed(points), expected, rtol=0, atol=1e-15)


def test_bourgain_subsets_keep_a_query_only_strictly_below_the_level_probability() -> None:
    """Spec 004 s5.3: S_ij = {y : U[j, y] < p_i}, strict. Hand-set uniforms sit exactly on p_2 = 1/2 and p_3 =
    1/4, and one repetition has empty levels 2-4 (so its coordinates there are 0)."""
    queries = np.array([[0.0], [0.1], [0.3], [0.6], [0.9], [1.0], [0.45], [0.75], [0.2]])  # k = 9: L = 4
    uniforms = np.array(
        [
            [0.5, 0.25, 0.125, 0.9, 0.3, 0.6, 0.7, 0.8, 0.51],
            [0.6, 0.7, 0.8, 0.9, 0.95, 0.55, 0.65, 0.75, 0.5],
        ]
    )
    embedding = BourgainEmbedding(Metric.L1, queries, uniforms, seed=0)
    points = np.array([[0.05], [0.35], [0.5], [0.8], [1.0]])
    expected = _spec_bourgain(points, queries, uniforms, Metric.L1)
    np.testing.assert_allclose(embedding.embed(points), expected, rtol=0, atol=1e-15)
    assert np.all(embedding.embed(points)[:, 5:] == 0.0)  # repetition 2, levels 2-4: empty subsets


@pytest.mark.parametrize(
    ("k", "levels"), [(1, 1), (2, 2), (3, 2), (4, 3), (7, 3), (8, 4), (9, 4), (1000, 10)]
)
def test_bourgain_has_floor_log2_k_plus_one_levels(k: int, levels: int) -> None:
    """Spec 004 s5.3: L = floor(log2 k) + 1 (level 1 is all of Q, the last keeps about one query); the
    dimension is K L."""
    embedding = BourgainEmbedding.draw(Metric.LINF, np.linspace(0, 1, k)[:, None], 3, public_seed=1)
    assert embedding.levels == levels
    assert embedding.dimension == 3 * levels


@pytest.mark.parametrize(
    ("metric", "diameter"), [(Metric.L1, 3.0), (Metric.L2, math.sqrt(3)), (Metric.LINF, 1.0)]
)
def test_bourgain_diameter_is_the_metric_diameter_of_the_columns(metric: Metric, diameter: float) -> None:
    """Spec 004 s5.3: dbar = d / Delta_X with Delta_X the metric's diameter on [0, 1]^l, l = the number of
    columns (not the number of queries)."""
    embedding = BourgainEmbedding.draw(metric, np.random.default_rng(0).random((50, 3)), 2, public_seed=1)
    assert embedding.diameter == pytest.approx(diameter, rel=1e-15)
    assert embedding.answer_factor == pytest.approx(diameter, rel=1e-15)


def test_bourgain_public_box_is_zero_to_one_over_k_l_and_its_top_is_reached() -> None:
    """Spec 004 s5.3: every coordinate lies in [0, 1/(K L)] (public bounds, W = 1). The CDF route normalises
    each coordinate by this box, so a wider or narrower box shifts every released value. A point at the far
    corner from every query (dbar = 1), or beyond the box (dbar clipped to 1), reaches the top in every
    non-empty coordinate."""
    queries = np.zeros((6, 2))
    embedding = BourgainEmbedding.draw(Metric.L1, queries, repetitions=4, public_seed=5)
    top = 1.0 / embedding.dimension
    np.testing.assert_array_equal(embedding.lower, np.zeros(embedding.dimension))
    np.testing.assert_allclose(embedding.upper, np.full(embedding.dimension, top), rtol=1e-15)
    far, beyond = embedding.embed(np.array([[1.0, 1.0], [2.0, 2.0]]))
    levels = embedding.levels
    nonempty = np.array([(u < 2.0**-i).any() for u in embedding.uniforms for i in range(levels)])
    np.testing.assert_allclose(far[nonempty], top, rtol=1e-15)
    np.testing.assert_array_equal(beyond, far)
    assert np.all(far[~nonempty] == 0.0)


def test_plain_bourgain_answers_at_the_diameter_and_debiased_at_the_measured_factor() -> None:
    """Spec 004 s5.3 [beyond]: without debiasing the answer factor is the diameter (debias 1, so expansion
    <= 1 holds in answer units); with it, answers are scaled UP by s = median of d(y, y') /
    ||pi(y) - pi(y')||_1 over public query pairs, so the debiased median ratio is exactly 1."""
    queries = np.random.default_rng(7).random((30, 2))
    plain = BourgainEmbedding.draw(Metric.L2, queries, 6, public_seed=3)
    debiased = BourgainEmbedding.draw(Metric.L2, queries, 6, public_seed=3, debias=True)
    assert plain.debias == 1.0 and plain.answer_factor == plain.diameter
    assert debiased.debias == pytest.approx(plain.measured_debias(), rel=1e-15)
    assert debiased.debias > 2.0  # the spec measured answers about 6x too small before debiasing
    assert debiased.answer_factor == pytest.approx(debiased.diameter * debiased.debias, rel=1e-15)
    first, second = np.triu_indices(len(queries), 1)
    z = debiased.embed(queries)
    answered = np.abs(z[first] - z[second]).sum(axis=1) * debiased.answer_factor
    true = np.linalg.norm(queries[first] - queries[second], axis=1)
    assert np.median(answered / true) == pytest.approx(1.0, rel=1e-12)


def test_public_normals_pair_into_independent_standard_normals() -> None:
    """Spec 004 s5.2: G is i.i.d. N(0, 1) (E|N(0, 1)| = sqrt(2/pi) gives the unbiased l2 -> l1 scale).
    Box-Muller pairs the first half (R cos 2 pi U) with the second (R sin 2 pi U): the pair's angle is uniform
    and the halves' squares are uncorrelated (a wrong angle factor keeps each half normal but ties the
    halves)."""
    z = emb.public_normals(17, 200_000)
    a, b = z[:100_000], z[100_000:]
    assert abs(z.mean()) < 0.01 and abs(z.var() - 1.0) < 0.01
    assert abs(np.corrcoef(a * a, b * b)[0, 1]) < 0.02
    angles = np.histogram(np.arctan2(b, a), bins=8, range=(-math.pi, math.pi))[0] / a.size
    np.testing.assert_allclose(angles, 1 / 8, atol=0.005)


@pytest.mark.parametrize("size", [1, 5, 15, 16])
def test_public_normals_returns_exactly_size_values_for_odd_and_even_sizes(size: int) -> None:
    """An odd target_dimension x dims (for example l = 3 columns to l' = 5) reshapes size values: half is
    ceil(size/2) pairs, not floor."""
    assert emb.public_normals(3, size).shape == (size,)
    assert emb.RandomProjection.draw(3, 5, public_seed=4).matrix.shape == (5, 3)


def test_bourgain_embeds_in_row_blocks_of_at_most_2_to_the_23_distance_terms(monkeypatch) -> None:
    """Spec 004 s8 (memory trap: never broadcast huge tensors; chunk to about 10^7 elements): rows are
    embedded in blocks of max(1, 2^23 // (k l)) rows, so each block's (rows, k, l) difference tensor holds at
    most 2^23 terms (64 MB) and blocks are not needlessly small."""
    k, dims, n = 1000, 3, 6000
    queries = np.random.default_rng(1).random((k, dims))
    embedding = BourgainEmbedding.draw(Metric.L1, queries, repetitions=1, public_seed=1)
    blocks: list[int] = []

    def recording(points: np.ndarray, queries: np.ndarray, metric: Metric) -> np.ndarray:
        blocks.append(len(points))
        return np.zeros((len(points), len(queries)))

    monkeypatch.setattr(emb, "metric_distances", recording)
    embedding.embed(np.zeros((n, dims)))
    rows = (1 << 23) // (k * dims)
    assert blocks == [rows, rows, n - 2 * rows]
    assert rows * k * dims <= 1 << 23


def test_debias_is_one_when_no_query_pair_has_a_positive_distance() -> None:
    """Spec 004 s5.3 [beyond]: the debias factor is a median over query pairs of positive distance; with none
    (one query, or all queries equal) there is nothing to measure and the factor stays 1 (not 0, which would
    answer 0 to every query)."""
    for queries in (np.array([[0.3, 0.4]]), np.full((5, 2), 0.5)):
        embedding = BourgainEmbedding.draw(Metric.L1, queries, 3, public_seed=2, debias=True)
        assert embedding.debias == 1.0


def test_distortion_is_measured_before_debiasing_over_the_first_20000_distinct_pairs() -> None:
    """Spec 004 s5.3 / REVIEW s3b: the reported distortion is ||pi(y) - pi(y')||_1 / dbar(y, y') of the
    embedding itself (before the heuristic debias scaling), over the pairs (i < j) of the public queries,
    the first 20,000 of them in row-major order."""
    g = np.random.default_rng(9)
    small = g.random((12, 2))
    plain = BourgainEmbedding.draw(Metric.LINF, small, 4, public_seed=6)
    debiased = BourgainEmbedding.draw(Metric.LINF, small, 4, public_seed=6, debias=True)
    assert debiased.debias != 1.0
    np.testing.assert_allclose(
        emb.query_pair_ratios(debiased, small, Metric.LINF),
        emb.query_pair_ratios(plain, small, Metric.LINF),
        rtol=1e-15,
    )
    assert emb.measured_distortion(plain, small, Metric.LINF).pairs == 12 * 11 // 2
    large = g.random((201, 2))  # 20,100 distinct pairs
    wide = BourgainEmbedding.draw(Metric.LINF, large, 1, public_seed=6)
    assert emb.measured_distortion(wide, large, Metric.LINF).pairs == 20_000


def test_pair_ratios_are_embedded_l1_over_true_distance_in_cube_units() -> None:
    """The distortion diagnostic (spec 004 s5.1 weak distortion, on public pairs): for the random projection
    ||pi(y) - pi(y')||_1 / ||y - y'||_2 (answer factor 1), for Bourgain ||pi(y) - pi(y')||_1 / dbar(y, y')
    (dbar = d / diameter)."""
    g = np.random.default_rng(4)
    queries = g.random((9, 3))
    first, second = np.triu_indices(9, 1)
    projection = emb.RandomProjection.draw(3, 32, public_seed=8)
    z = projection.embed(queries)
    expected = np.abs(z[first] - z[second]).sum(axis=1) / np.linalg.norm(
        queries[first] - queries[second], axis=1
    )
    np.testing.assert_allclose(emb.query_pair_ratios(projection, queries, Metric.L2), expected, rtol=1e-12)
    bourgain = BourgainEmbedding.draw(Metric.L1, queries, 3, public_seed=8)
    z = bourgain.embed(queries)
    dbar = np.abs(queries[first] - queries[second]).sum(axis=1) / 3.0
    expected = np.abs(z[first] - z[second]).sum(axis=1) / dbar
    np.testing.assert_allclose(emb.query_pair_ratios(bourgain, queries, Metric.L1), expected, rtol=1e-12)
    d = emb.measured_distortion(bourgain, queries, Metric.L1)
    assert (d.minimum, d.median, d.maximum, d.pairs) == (
        pytest.approx(expected.min()),
        pytest.approx(np.median(expected)),
        pytest.approx(expected.max()),
        36,
    )


def test_distortion_of_a_single_pair_is_its_ratio_and_of_no_pair_is_one() -> None:
    """With one measurable pair the distortion is that pair's ratio; with none it is reported as (1, 1, 1)
    over 0 pairs (nothing measured), never 0 or a made-up spread."""
    two = np.array([[0.0, 0.0], [1.0, 0.5]])
    projection = emb.RandomProjection.draw(2, 16, public_seed=1)
    ratio = emb.query_pair_ratios(projection, two, Metric.L2)
    assert ratio.size == 1
    d = emb.measured_distortion(projection, two, Metric.L2)
    assert (d.minimum, d.median, d.maximum, d.pairs) == (ratio[0], ratio[0], ratio[0], 1)
    assert emb.measured_distortion(projection, two[:1], Metric.L2) == emb.Distortion(1.0, 1.0, 1.0, 0)


def test_a_debias_over_pairs_the_embedding_collapses_is_none() -> None:
    """Two public queries and one repetition (seed 1): the embedding maps both to one point, the median
    ratio is 0 and its inverse was an infinite factor that made every answer infinite (an audit's case).
    The factor is then 1 (no debiasing) and answers stay finite."""
    queries = np.array([[0.0], [1.0]])
    plain = BourgainEmbedding.draw(Metric.L1, queries, 1, public_seed=1)
    assert np.median(query_pair_ratios(plain, queries, Metric.L1)) == 0.0  # the case
    debiased = BourgainEmbedding.draw(Metric.L1, queries, 1, public_seed=1, debias=True)
    assert debiased.debias == 1.0 and np.isfinite(debiased.answer_factor)
