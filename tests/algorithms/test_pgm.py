"""The Private-PGM wrapper: numpy marginals equal mbi's, and sampled rows follow the model."""

from __future__ import annotations

import functools

import numpy as np

from dpgui.algorithms.pgm import GraphicalModel, NoisyMarginal, _names, conditional_cdfs, stratified_draw
from dpgui.privacy.random import SeededRandom

SIZES = (4, 4, 4, 3)


@functools.cache
def _model() -> GraphicalModel:
    generator = np.random.default_rng(0)
    n = 4000
    x = generator.integers(0, 4, size=(n, 4))
    x[:, 1] = (x[:, 0] + generator.integers(0, 2, n)) % 4
    x[:, 3] = (x[:, 2] + x[:, 1]) % 3
    measurements = []
    for clique in [(0,), (1,), (2,), (3,), (0, 1), (1, 2), (2, 3)]:
        shape = tuple(SIZES[i] for i in clique)
        flat = np.ravel_multi_index(tuple(x[:, i] for i in clique), shape)
        counts = np.bincount(flat, minlength=int(np.prod(shape))).reshape(shape)
        measurements.append(NoisyMarginal(clique, counts + generator.normal(0, 5, shape), 5.0))
    return GraphicalModel(SIZES).fit(measurements, n, 200)


def test_numpy_variable_elimination_equals_mbis_for_in_and_out_of_model_marginals():
    model = _model()
    for clique in [(0,), (3,), (0, 1), (3, 0), (0, 2), (1, 3), (0, 1, 3)]:
        theirs = np.asarray(model._model.project(_names(clique)).datavector(flatten=False))
        np.testing.assert_allclose(model.marginal(clique), theirs, rtol=1e-9, atol=1e-9)


def test_sampled_rows_follow_the_model():
    model = _model()
    rows = model.sample(4000, SeededRandom(3))
    for clique in [(0, 1), (2, 3), (1, 3)]:
        shape = tuple(SIZES[i] for i in clique)
        flat = np.ravel_multi_index(tuple(rows[:, i] for i in clique), shape)
        sampled = np.bincount(flat, minlength=int(np.prod(shape))).reshape(shape)
        assert 0.5 * np.abs(sampled - model.marginal(clique)).sum() / 4000 < 0.03


def test_stratified_draws_put_each_cell_within_one_of_its_expected_count():
    cdf = conditional_cdfs(np.array([[1.0, 2.0, 7.0], [5.0, 0.0, 5.0]]))
    keys = np.repeat([0, 1], [101, 37])
    drawn = stratified_draw(cdf, keys, SeededRandom(1))
    for key, expected in ((0, np.array([0.1, 0.2, 0.7]) * 101), (1, np.array([0.5, 0.0, 0.5]) * 37)):
        counts = np.bincount(drawn[keys == key], minlength=3)
        assert (np.abs(counts - expected) < 1).all()


def test_stratified_draws_from_a_wide_grid_need_no_rows_times_cells_memory():
    """A 1-way column of 2^16 cells and 50,000 rows: the draw searches each key's cdf, so its working memory
    is a few arrays of the rows (a rows x cells comparison would take gigabytes)."""
    import tracemalloc

    weights = np.zeros((1, 1 << 16))
    weights[0, [3, 40_000, 65_535]] = [1.0, 3.0, 6.0]
    cdf, keys = conditional_cdfs(weights), np.zeros(50_000, dtype=np.intp)
    tracemalloc.start()
    drawn = stratified_draw(cdf, keys, SeededRandom(2))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * 50_000 * 8
    assert np.bincount(drawn, minlength=1 << 16)[[3, 40_000, 65_535]].tolist() == [5_000, 15_000, 30_000]


def test_compiled_programs_are_dropped_only_past_half_the_kernels_map_cap(monkeypatch):
    """A 25-column AIM compiled programs until the process passed Linux's 65,530 memory mappings and
    crashed after its charge; past half the cap JAX's caches are cleared, below it they are kept."""
    import jax

    from dpgui.algorithms.pgm import release_compiled_programs_near_the_map_cap

    cleared = []
    monkeypatch.setattr(jax, "clear_caches", lambda: cleared.append(True))
    assert not release_compiled_programs_near_the_map_cap(lambda: 32_764, lambda: 65_530)
    assert not release_compiled_programs_near_the_map_cap(lambda: 10**6, lambda: None)  # no cap: not Linux
    assert not release_compiled_programs_near_the_map_cap(lambda: None, lambda: 65_530)
    assert cleared == []
    assert release_compiled_programs_near_the_map_cap(lambda: 32_765, lambda: 65_530)
    assert cleared == [True]


def test_a_fit_checks_the_map_cap(monkeypatch):
    import dpgui.algorithms.pgm as pgm

    checks = []
    monkeypatch.setattr(pgm, "release_compiled_programs_near_the_map_cap", lambda: checks.append(1))
    measurements = [
        NoisyMarginal((0,), np.array([5.0, 5.0]), 1.0),
        NoisyMarginal((1,), np.array([3.0, 7.0]), 1.0),
    ]
    GraphicalModel([2, 2]).fit(measurements, 10.0, 10)
    assert checks == [1]


def test_a_refit_of_the_same_weighted_measurements_reuses_the_compiled_program(caplog):
    """AIM's final fit repeats its last round's measurements: with merged cells (weighted queries) the
    program JAX compiled for that round must serve again, not be compiled a second time."""
    import logging

    from dpgui.algorithms.pgm import _jax

    measurements = [
        NoisyMarginal((0,), np.array([30.0, 50.0, 20.0]), 2.0, np.array([1.0, 0.5, 1.0])),
        NoisyMarginal((0, 1), np.full((3, 2), 100 / 6), 3.0),
    ]
    model = GraphicalModel((3, 2)).fit(measurements, 100, 50)
    jax = _jax()
    jax.config.update("jax_log_compiles", True)
    try:
        with caplog.at_level(logging.WARNING, logger="jax"):
            model.fit(measurements, 100, 50)
    finally:
        jax.config.update("jax_log_compiles", False)
    compiled = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Compiling")]
    assert not [message for message in compiled if "_multi_step" in message]
