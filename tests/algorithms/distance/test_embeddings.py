"""Embeddings: distortion within its bound on fixed seeds, expansion <= 1, 1-sensitivity, round trip."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dpgui.algorithms.distance.cdf_route import DistanceStructure, PrivacyBudget, cdf_route, support_points
from dpgui.algorithms.distance.embeddings import (
    BourgainEmbedding,
    Metric,
    RandomProjection,
    embedding_from_json,
    measured_distortion,
    metric_distances,
)
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom


def test_random_projection_ratio_within_3_5_over_sqrt_dimension_on_fixed_seed():
    g = np.random.default_rng(1)
    embedding = RandomProjection.draw(10, 1024, public_seed=7)
    a, b = g.random((2000, 10)), g.random((2000, 10))
    ratio = np.abs(embedding.embed(a) - embedding.embed(b)).sum(axis=1) / np.linalg.norm(a - b, axis=1)
    t = 3.5 / math.sqrt(1024)
    assert 1 - t <= ratio.min() and ratio.max() <= 1 + t
    assert abs(ratio.mean() - 1) < 0.01


def test_random_projection_box_holds_every_embedded_point_of_the_declared_box():
    embedding = RandomProjection.draw(4, 64, public_seed=1)
    corners = np.array(np.meshgrid(*[[0.0, 1.0]] * 4)).reshape(4, -1).T
    z = embedding.embed(corners)
    assert np.all(z >= embedding.lower - 1e-12) and np.all(z <= embedding.upper + 1e-12)
    assert (
        np.isclose(z.min(axis=0), embedding.lower).all() and np.isclose(z.max(axis=0), embedding.upper).all()
    )


@pytest.mark.parametrize("metric", [Metric.LINF, Metric.L2, Metric.L1, Metric.HAMMING])
def test_bourgain_expansion_at_most_one_and_contraction_reported(metric):
    g = np.random.default_rng(2)
    queries = g.integers(0, 4, (60, 3)) / 3 if metric is Metric.HAMMING else g.random((60, 3))
    points = g.integers(0, 4, (80, 3)) / 3 if metric is Metric.HAMMING else g.random((80, 3))
    embedding = BourgainEmbedding.draw(metric, queries, repetitions=8, public_seed=3)
    spread = np.abs(embedding.embed(points)[:, None, :] - embedding.embed(queries)[None, :, :]).sum(axis=2)
    dbar = metric_distances(points, queries, metric) / embedding.diameter
    assert np.all(spread <= dbar + 1e-12)  # expansion <= 1, deterministically
    keep = dbar > 0
    assert (spread[keep] / dbar[keep]).min() >= 1 / (64 * embedding.levels)  # Thm 11 (fixed seed)
    d = measured_distortion(embedding, queries, metric)
    assert 0 < d.minimum <= d.median <= d.maximum <= 1 + 1e-12


def test_bourgain_embedding_of_a_row_does_not_depend_on_the_other_rows():
    g = np.random.default_rng(3)
    embedding = BourgainEmbedding.draw(Metric.L2, g.random((30, 2)), repetitions=4, public_seed=0)
    data = g.random((50, 2))
    other = data.copy()
    other[1:] = g.random((49, 2))
    assert np.array_equal(embedding.embed(data)[0], embedding.embed(other)[0])


def test_embeddings_round_trip_through_json_bit_for_bit():
    g = np.random.default_rng(4)
    points = g.random((20, 3))
    for embedding in (
        RandomProjection.draw(3, 16, 5),
        BourgainEmbedding.draw(Metric.LINF, g.random((20, 3)), 4, 6, debias=True),
    ):
        again = embedding_from_json(embedding.to_json())
        assert np.array_equal(again.embed(points), embedding.embed(points))
        assert again.answer_factor == embedding.answer_factor


def test_l2_structure_through_projection_is_close_at_huge_epsilon_and_survives_save_load(tmp_path):
    g = np.random.default_rng(5)
    points, queries = g.random((300, 3)), g.random((50, 3))
    embedding = RandomProjection.draw(3, 512, 9)
    supports = [support_points(None, 512)] * embedding.dimension
    knots, values = run_to_end(cdf_route(points, embedding, supports, PrivacyBudget(1e9), SeededRandom(0)))
    s = DistanceStructure(("a", "b", "c"), np.zeros(3), np.ones(3), "l2", embedding, knots, values)
    truth = np.linalg.norm(points[None] - queries[:, None], axis=2).mean(axis=1)
    assert np.max(np.abs(s.answer(queries) - truth) / truth) < 3.5 / math.sqrt(512)
    assert np.array_equal(
        DistanceStructure.from_json(json.loads(s.to_bytes())).answer(queries), s.answer(queries)
    )
