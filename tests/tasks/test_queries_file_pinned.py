"""A distance release's PUBLIC queries file is priced, charged and answered with the same bytes.

The file's rows give the number of queries k, and with it each answer's noise and the privacy curve the
ledger records (k rounds of discrete Laplace noise). Before, the file was read through a cache keyed by
its path: a file edited in an app session was answered from its first copy, and once that copy left the
cache (16 entries) a run could answer another file than it was priced on. Now ``prepare`` pins the
file's SHA-256 in the spec it prices (``public_files.pinned``): a file changed since is refused before the
charge, or before the run reads the private data (refunded), and the run never reads other bytes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import Dataset, open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, ReservationStatus
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.batch_run import NamedRun, reserve_plan
from dpgui.tasks.public_files import PublicFileChanged
from dpgui.tasks.runner import prepare, reserve, run_reserved
from dpgui.tasks.spec import TaskKind, TaskSpec


def write_queries(path: Path, count: int) -> Path:
    pd.DataFrame({"x": np.linspace(0, 10, count), "y": np.linspace(10, 0, count)}).to_csv(path, index=False)
    return path


def distance_spec(queries: Path) -> TaskSpec:
    domains = (NumericDomain(0, 10, 1), NumericDomain(0, 10, 1))
    parameters = (("queries", str(queries)),)
    algorithm = "laplace-per-query"
    return TaskSpec(TaskKind.DISTANCE, ("x", "y"), domains, 1.0, 0.0, algorithm, parameters=parameters)


def rounds(spec: TaskSpec) -> int:
    """k as the ledger's recorded curve counts it."""
    (noise,) = prepare(spec, 200).curve.noise
    return noise.count


@pytest.fixture
def private(tmp_path: Path) -> Dataset:
    rng = np.random.default_rng(0)
    path = tmp_path / "private.csv"
    pd.DataFrame({"x": rng.integers(0, 11, 200), "y": rng.integers(0, 11, 200)}).to_csv(path, index=False)
    return open_dataset(path)


def ledger_for(dataset: Dataset) -> tuple[Ledger, object]:
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(5.0))
    return ledger, record


def test_a_queries_file_rewritten_in_a_session_is_priced_on_its_new_rows(tmp_path):
    queries = write_queries(tmp_path / "q.csv", 3)
    assert rounds(distance_spec(queries)) == 3
    write_queries(queries, 5)
    assert rounds(distance_spec(queries)) == 5


def test_the_priced_spec_pins_the_files_bytes_and_a_run_never_reads_others(tmp_path, private):
    queries = write_queries(tmp_path / "q.csv", 3)
    prepared = prepare(distance_spec(queries), private.n_rows)
    assert prepared.spec.pinned_sha256(str(queries)) is not None
    write_queries(queries, 5)
    run = prepared.algorithm.run(prepared.spec, InMemoryAggregator(private), SeededRandom(0))
    with pytest.raises(PublicFileChanged, match=r"q\.csv changed since the release was priced"):
        run_to_end(run)


def test_a_file_changed_after_the_pricing_is_refused_before_the_charge(tmp_path, private):
    queries = write_queries(tmp_path / "q.csv", 3)
    ledger, record = ledger_for(private)
    prepared = prepare(distance_spec(queries), private.n_rows)
    write_queries(queries, 5)
    with pytest.raises(PublicFileChanged, match="review the release again"):
        reserve(prepared, ledger, record)
    with pytest.raises(
        PublicFileChanged, match="split the plan again"
    ):  # its releases were priced at the split
        reserve_plan([NamedRun("d", prepared)], private, ledger)
    assert ledger.entries(record.id) == []


def test_a_file_changed_after_the_charge_is_refused_before_the_data_is_read_and_refunded(tmp_path, private):
    queries = write_queries(tmp_path / "q.csv", 3)
    ledger, record = ledger_for(private)
    prepared = prepare(distance_spec(queries), private.n_rows)
    reservation = reserve(prepared, ledger, record)
    before = ledger.state(record.id)
    queries.unlink()  # a file gone is changed too
    run = run_reserved(
        prepared, private, ledger, SeededRandom(1), record=record, reservation=reservation,
        budget_before=before, cancelled=lambda: False, aggregator=None, engine_choice=None, stage=None,
    )  # fmt: skip
    with pytest.raises(PublicFileChanged):
        run_to_end(run)
    (entry,) = ledger.entries(record.id)
    assert entry.status is ReservationStatus.REFUNDED


def test_an_unchanged_file_runs_and_answers_its_rows(tmp_path, private):
    queries = write_queries(tmp_path / "q.csv", 3)
    ledger, record = ledger_for(private)
    prepared = prepare(distance_spec(queries), private.n_rows)
    reservation = reserve(prepared, ledger, record)
    run = run_reserved(
        prepared, private, ledger, SeededRandom(1), record=record, reservation=reservation,
        budget_before=ledger.state(record.id), cancelled=lambda: False, aggregator=None, engine_choice=None,
        stage=None,
    )  # fmt: skip
    assert len(run_to_end(run).table.rows) == 3
    (entry,) = ledger.entries(record.id)
    assert entry.status is ReservationStatus.COMMITTED


def test_a_file_changed_while_it_is_read_is_refused(tmp_path, monkeypatch):
    """Its hash is taken before the read: rows read after a rewrite would be cached under the old bytes."""
    from dpgui.data import loaders
    from dpgui.tasks.distance import load_queries

    queries = write_queries(tmp_path / "q.csv", 3)
    real = loaders.load_table

    def rewritten_meanwhile(path, *args, **kwargs):
        frame = real(path, *args, **kwargs)
        write_queries(queries, 4)
        return frame

    monkeypatch.setattr(loaders, "load_table", rewritten_meanwhile)
    with pytest.raises(PublicFileChanged):
        load_queries(queries, ("x", "y"))
    monkeypatch.setattr(loaders, "load_table", real)
    assert len(load_queries(queries, ("x", "y"))) == 4  # control: read at rest
