"""Pins of dpgui/tasks/distance.py found by the t22 mutation scan: the Huang-Roth releases warn the user
when their calibrated alpha is no better than the trivial answer; each structure file states the budget it
was released under (the offline one its calibration too) and the notes name it; an unknown metric and
declared counts below one are refused before a run; the private rows and the queries are normalised to the
declared box; the answer-rescaling heuristic is off unless asked for; the online session's note on its
updates; the embedding distortion note; the predicted error through an embedding; and the noise each
per-query baseline draws."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import dpgui.tasks.distance as distance
from dpgui.algorithms.distance import baselines, huang_roth
from dpgui.algorithms.distance.cdf_route import DistanceStructure
from dpgui.algorithms.distance.embeddings import IdentityEmbedding, Metric, RandomProjection
from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.preflight import PreflightError, check_parameters
from dpgui.tasks.registry import ParameterSpec, get_algorithm
from dpgui.tasks.spec import TaskSpec
from tests.recording import RecordingRandom, captured_call
from tests.tasks.test_pins_distance_21 import DELTA, EPSILON, RHO, queries_file, release

STRUCTURE_NOTE = f"structure: {distance.STRUCTURE_FILE} (answers any query with 'dpgui query distance')"
TRIVIAL = "warning: alpha >= W/2, no better than the trivial answer; prefer cdf-route"
BOX = (NumericDomain(1000, 5000, 10), NumericDomain(2, 18, 1))
"""A declared box whose lower bounds are not 0 (every earlier test's were)."""


def boxed(name: str, **parameters: object) -> TaskSpec:
    """``release`` over BOX."""
    return dataclasses.replace(release(name, **parameters), domains=BOX)


def test_huang_roth_offline_warns_of_a_trivial_alpha_and_states_its_budget_and_calibration(wages_csv):
    """2,001 records are far too few: the calibrated alpha is at least W/2, which the notes say; the
    structure file records the budget and the calibration (alpha, update cap, updates used, beta) its
    answers carry."""
    calibration = huang_roth.calibrate(2001, 2, EPSILON, DELTA, 0.02, online=False)
    assert calibration.trivial
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(
        get_algorithm("huang-roth-offline").run(
            release("huang-roth-offline", beta=0.02), data, SeededRandom(0)
        )
    )
    assert TRIVIAL in table.notes
    (attachment,) = table.attachments
    metadata = DistanceStructure.from_bytes(attachment.content).metadata
    assert (metadata["alpha"], metadata["cap"], metadata["beta"]) == (
        calibration.alpha,
        calibration.cap,
        0.02,
    )
    assert (metadata["epsilon"], metadata["delta"]) == (EPSILON, DELTA)
    assert 0 <= metadata["updates"] <= calibration.cap
    fires = metadata["updates"]
    (accuracy,) = [note for note in table.notes if note.startswith(f"accuracy α = {calibration.alpha:.4g}:")]
    assert "with probability ≥ 0.98, every answer" in accuracy and accuracy.endswith(f"; {fires} updates")
    assert STRUCTURE_NOTE in table.notes


def test_the_cdf_route_structure_states_its_budget_and_beta(wages_csv) -> None:
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("cdf-route").run(release("cdf-route", beta=0.02), data, SeededRandom(0)))
    assert STRUCTURE_NOTE in table.notes
    (attachment,) = table.attachments
    metadata = DistanceStructure.from_bytes(attachment.content).metadata
    assert (metadata["epsilon"], metadata["delta"], metadata["rho"], metadata["beta"]) == (
        EPSILON,
        DELTA,
        RHO,
        0.02,
    )


def test_huang_roth_online_warns_of_a_trivial_alpha(tmp_path, wages_csv) -> None:
    queries = queries_file(tmp_path, 3)
    assert huang_roth.calibrate(2001, 2, EPSILON, DELTA, 0.05, online=True, k_max=3).trivial
    data = InMemoryAggregator(open_dataset(wages_csv))
    spec = release("huang-roth-online", queries=str(queries))
    table = run_to_end(get_algorithm("huang-roth-online").run(spec, data, SeededRandom(0)))
    assert TRIVIAL in table.notes
    (session,) = [note for note in table.notes if note.startswith("accuracy α = ")]
    assert session.endswith(" updates used")  # 3 queries cannot exhaust the update cap: no halt


@pytest.mark.parametrize("name", ["cdf-route", "huang-roth-offline", "bourgain"])
def test_an_unknown_metric_is_refused_before_a_run(name: str) -> None:
    failures = get_algorithm(name).preconditions(release(name, metric="manhattan"), 2000)
    assert "unknown metric 'manhattan'" in [f.message for f in failures]


@pytest.mark.parametrize(
    ("algorithm", "name"),
    [("cdf-route", "query_count"), ("cdf-route", "dimension"), ("bourgain", "repetitions")],
)
def test_a_declared_query_count_dimension_or_repetition_count_below_one_is_refused(algorithm, name) -> None:
    """Zero queries, a zero-dimensional l2 embedding or no random subsets break the embeddings and the
    budget split: refused before the run."""
    check_parameters(release(algorithm, metric="l2", **{name: 1}))
    with pytest.raises(PreflightError, match=f"{name} must be in"):
        check_parameters(release(algorithm, metric="l2", **{name: 0}))


@pytest.mark.parametrize(
    "parameter", [p for p in vars(distance).values() if isinstance(p, ParameterSpec)], ids=lambda p: p.name
)
def test_each_parameter_default_lies_in_its_range(parameter: ParameterSpec) -> None:
    """The GUI's spin boxes clamp to the range: a default outside it would be silently replaced."""
    if parameter.minimum is not None:
        assert parameter.minimum <= parameter.default <= parameter.maximum


def test_the_private_rows_and_the_queries_are_normalised_to_the_declared_box(tmp_path, monkeypatch) -> None:
    """Box [1000, 5000] x [2, 18]: a point maps to ((wage - 1000) / 4000, (education - 2) / 16)."""
    rows = tmp_path / "rows.csv"
    rows.write_text("wage,education\n1100,2\n3000,10\n5000,18\n")
    queries = tmp_path / "queries.csv"
    queries.write_text("wage,education\n2000,6\n")
    spec = boxed("huang-roth-online", queries=str(queries))
    data = InMemoryAggregator(open_dataset(rows))
    run = lambda: get_algorithm("huang-roth-online").run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, huang_roth, "online_answers", run)
    assert np.allclose(args[0], [[0.025, 0.0], [0.5, 0.5], [1.0, 1.0]], rtol=0, atol=1e-12)
    assert np.allclose(args[1], [[0.25, 0.25]], rtol=0, atol=1e-12)


def test_the_answer_rescaling_heuristic_is_off_by_default() -> None:
    """Debiasing rescales released answers by a median of the public queries: only when the user asks."""
    (debias,) = [p for p in get_algorithm("bourgain").parameters if p.name == "debias"]
    assert debias.default is False


def test_a_small_column_grid_is_supported_on_its_normalised_values() -> None:
    """education on [2, 18] (17 points, 17 support points): its support is (education - 2) / 16."""
    spec = boxed("cdf-route", support=17)
    support = distance._supports(spec, IdentityEmbedding(2))[1]
    assert np.allclose(support, [i / 16 for i in range(17)], rtol=0, atol=1e-12)


def test_bourgain_with_a_queries_file_is_accepted_and_predicts_a_bound(tmp_path) -> None:
    spec = release("bourgain", metric="linf", queries=str(queries_file(tmp_path, 2)))
    info = get_algorithm("bourgain")
    assert info.preconditions(spec, 2000) == ()
    assert 0 < info.predicted_error(spec, 2000) < 1


def test_the_online_session_note_counts_the_updates_of_its_last_answer_and_says_when_it_halted(
    tmp_path, wages_csv, monkeypatch
) -> None:
    """A stand-in session of three answers (1, 2 then 3 updates, halted at the last): the note reports the
    last answer's count and the halt."""
    cal = huang_roth.calibrate(2001, 2, EPSILON, DELTA, 0.05, online=True, k_max=3)

    def session(points, queries, calibration, rng, delta):
        yield from ()
        return tuple(
            huang_roth.OnlineAnswer(i, tuple(q), 0.1, True, i + 1, i == 2, calibration.cap)
            for i, q in enumerate(queries)
        )

    monkeypatch.setattr(huang_roth, "online_answers", session)
    spec = release("huang-roth-online", queries=str(queries_file(tmp_path, 3)))
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("huang-roth-online").run(spec, data, SeededRandom(0)))
    (note,) = [note for note in table.notes if note.startswith("accuracy α = ")]
    assert note.endswith(f"; 3 of {cal.cap} updates used; halted at the cap")


@pytest.mark.parametrize(
    ("metric", "count", "noted"), [("l2", 3, True), ("l2", 2, True), ("l2", 1, False), ("l1", 3, False)]
)
def test_the_distortion_note_appears_for_an_embedding_with_several_queries(
    metric, count, noted, tmp_path, wages_csv
):
    spec = release("cdf-route", metric=metric, dimension=4, queries=str(queries_file(tmp_path, count)))
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("cdf-route").run(spec, data, SeededRandom(0)))
    pairs = [note for note in table.notes if note.startswith("embedding distortion on public query pairs")]
    assert len(pairs) == (1 if noted else 0)


@pytest.mark.parametrize(("name", "metric"), [("cdf-route", "l2"), ("bourgain", "l1")])
def test_the_predicted_error_through_an_embedding_weighs_each_coordinate_by_its_answer_range(
    name, metric, tmp_path, monkeypatch
):
    """Each coordinate's CDF error counts with the width of its range times the embedding's answer factor
    (Bourgain on l1: the diameter 2)."""
    spec = release(name, metric=metric, dimension=4, query_count=7, queries=str(queries_file(tmp_path, 3)))
    embedding = distance._embedding(spec, name)
    if name == "cdf-route":
        assert isinstance(embedding, RandomProjection)
    else:
        assert embedding.answer_factor == 2
    args, _ = captured_call(
        monkeypatch, distance, "predicted_max_error", lambda: get_algorithm(name).predicted_error(spec, 2000)
    )
    expected = (embedding.upper - embedding.lower) * embedding.answer_factor
    assert np.allclose(args[1], expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize(
    ("name", "kind", "rho"), [("laplace-per-query", "laplace", None), ("gaussian-per-query", "gaussian", RHO)]
)
def test_each_per_query_baseline_draws_its_own_noise(name, kind, rho, tmp_path, wages_csv) -> None:
    """The Laplace baseline (pure epsilon) draws discrete Laplace noise, the Gaussian one discrete Gaussian
    noise at the rho of the requested (epsilon, delta): one draw per query, at the stated scale."""
    spec = release(name, queries=str(queries_file(tmp_path, 3)))
    noise = baselines.per_query_noise(Metric.L1, 2, 3, epsilon=EPSILON, rho=rho)
    rng = RecordingRandom(0)
    table = run_to_end(get_algorithm(name).run(spec, InMemoryAggregator(open_dataset(wages_csv)), rng))
    assert [(r.kind, r.scale, r.size) for r in rng.requests] == [(kind, noise.scale, 3)]
    assert f"per-query noise scale {noise.scale:.4g} x {noise.resolution:.3g}" in table.notes
