"""The threshold and point learning tasks: registration, auto choice, refusals and release tables."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.learners.label_private import LABEL_PRIVACY_NOTE
from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetExceeded, Ledger
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import _REGISTRY, Guarantee, algorithms, get_algorithm
from dpgui.tasks.runner import PreconditionFailed, choose_auto, execute, prepare
from dpgui.tasks.spec import TaskKind, TaskSpec


@pytest.fixture
def labelled_csv(tmp_path: Path) -> Path:
    gen = np.random.default_rng(0)
    age = gen.integers(18, 90, 3000)
    frame = pd.DataFrame(
        {"age": age, "retired": (age >= 65).astype(int), "flag": np.where(age == 40, "yes", "no")}
    )
    path = tmp_path / "people.csv"
    frame.to_csv(path, index=False)
    return path


def threshold_spec(algorithm: str = "auto", direction: str = "ge", **extra) -> TaskSpec:
    """A threshold task; the label-private learner gets its explicit labels-only opt-in."""
    opt_in = (("accept_labels_only", True),) if algorithm == "label-private" else ()
    return TaskSpec(
        TaskKind.THRESHOLD, ("age",), (NumericDomain(0, 120, 1),), 1.0, extra.pop("delta", 1e-6), algorithm,
        parameters=(("direction", direction), *opt_in), label="retired", **extra,
    )  # fmt: skip


def release(spec: TaskSpec, path: Path, seed: int = 0):
    dataset = open_dataset(path)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(100, 0.1))
    return run_to_end(execute(spec, dataset, ledger, SeededRandom(seed)))


def test_registered_learners_and_their_guarantees() -> None:
    names = {info.name: info for info in algorithms(TaskKind.THRESHOLD) + algorithms(TaskKind.POINT)}
    assert {
        "em-threshold",
        "recconcave",
        "label-private",
        "public-em",
        "learn-points",
        "hashing",
    } <= names.keys()
    pure = {"em-threshold", "label-private", "public-em", "hashing"}
    assert all(names[n].guarantee is Guarantee.PURE for n in pure)
    assert names["recconcave"].guarantee is names["learn-points"].guarantee is Guarantee.APPROXIMATE
    assert "LABELS ONLY" in names["label-private"].summary


def test_auto_picks_the_exponential_mechanism_on_a_64_bit_grid() -> None:
    spec = TaskSpec(
        TaskKind.THRESHOLD, ("x",), (NumericDomain(0, 2**64 - 1, 1),), 1.0, 1e-6, label="y",
        parameters=(("direction", "ge"),),
    )  # fmt: skip
    prepared = prepare(spec, n=10_000)
    assert prepared.spec.algorithm == "em-threshold"
    em, rec = get_algorithm("em-threshold"), get_algorithm("recconcave")
    assert em.predicted_error(spec, 10_000) < 0.05 < rec.predicted_error(spec, 10_000)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (threshold_spec("recconcave", direction="auto"), "direction"),
        (threshold_spec("recconcave", delta=0.0), "δ > 0"),
        (threshold_spec("public-em"), "public sample"),
        (
            TaskSpec(
                TaskKind.POINT,
                ("age",),
                (NumericDomain(0, 120, 1),),
                1.0,
                0.0,
                "learn-points",
                label="retired",
            ),
            "δ > 0",
        ),
    ],
)
def test_refusals_happen_before_the_data_is_read(spec: TaskSpec, message: str) -> None:
    with pytest.raises(PreconditionFailed, match=message):
        prepare(spec, n=3000)


@pytest.mark.parametrize("algorithm", ["em-threshold", "recconcave", "label-private"])
def test_threshold_release_table_names_the_rule(labelled_csv: Path, algorithm: str) -> None:
    result = release(threshold_spec(algorithm), labelled_csv)
    table = result.table
    assert table.columns == ("threshold", "direction")
    ((value, direction),) = table.rows
    assert direction == "ge" and abs(int(value) - 65) <= 3
    assert f"age >= {value}" in table.notes[0]
    assert (LABEL_PRIVACY_NOTE in table.notes) is (algorithm == "label-private")
    assert any("more rows than the best" in note for note in table.notes) is (algorithm == "em-threshold")


def test_public_sample_drives_the_public_em_and_semi_private_learners(
    labelled_csv: Path, tmp_path: Path
) -> None:
    public_path = tmp_path / "public.csv"
    pd.DataFrame({"age": np.arange(18, 90, 3)}).to_csv(public_path, index=False)
    public = PublicSample.from_file(public_path)
    for algorithm in ("public-em", "label-private"):
        table = release(threshold_spec(algorithm, public=public), labelled_csv).table
        ((value, _),) = table.rows
        assert (int(value) - 18) % 3 == 0 and abs(int(value) - 65) <= 3
        assert LABEL_PRIVACY_NOTE not in table.notes


def test_point_tables_release_a_value_or_none(labelled_csv: Path) -> None:
    point = TaskSpec(
        TaskKind.POINT,
        ("age",),
        (NumericDomain(0, 120, 1),),
        1.0,
        1e-6,
        "learn-points",
        label="flag",
        positive="yes",
    )
    assert release(point, labelled_csv).table.rows == ((40,),)
    nobody = TaskSpec(
        TaskKind.POINT,
        ("age",),
        (NumericDomain(0, 120, 1),),
        1.0,
        1e-6,
        "learn-points",
        label="flag",
        positive="maybe",
    )
    table = release(nobody, labelled_csv).table
    assert table.rows == (("none",),) and "no confident point" in table.notes[0]
    hashed = release(
        TaskSpec(
            TaskKind.POINT,
            ("age",),
            (NumericDomain(0, 120, 1),),
            1.0,
            0.0,
            "hashing",
            label="flag",
            positive="yes",
        ),
        labelled_csv,
    )
    assert hashed.table.columns == ("point",) and "parities of x & R" in hashed.table.notes[0]
    assert hashed.table.notes[1].startswith(("predicts positive", "no value"))


def test_label_private_learner_reads_text_labels(labelled_csv):
    """Row-level labels come through labelled_rows, so yes/no labels work (not only numeric 0/1)."""
    dataset = open_dataset(labelled_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(5.0, 1e-5))
    spec = TaskSpec(
        TaskKind.THRESHOLD, ("age",), (NumericDomain(0, 120, 1),), 1.0, 0.0, "label-private",
        parameters=(("direction", "ge"), ("accept_labels_only", True)), label="flag", positive="no",
    )  # fmt: skip
    release = run_to_end(execute(spec, dataset, ledger, SeededRandom(9)))
    assert release.table.columns[0] == "threshold"
    assert any(LABEL_PRIVACY_NOTE in note for note in release.table.notes)


def test_label_private_manifest_states_the_label_only_relation(labelled_csv, tmp_path):
    import json

    from dpgui.release.export import export_release

    dataset = open_dataset(labelled_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(5.0))
    spec = threshold_spec("label-private", delta=0.0)
    export_release(run_to_end(execute(spec, dataset, ledger, SeededRandom(4))), tmp_path)
    relation = json.loads((tmp_path / "manifest.json").read_text())["neighbouring_relation"]
    assert "label" in relation and "NOT protected" in relation


def test_the_label_private_learner_without_a_public_sample_needs_an_explicit_opt_in():
    spec = threshold_spec("label-private")
    refused = dataclasses.replace(spec, parameters=(("direction", "ge"),))
    with pytest.raises(PreconditionFailed, match="labels only") as failure:
        prepare(refused, n=3000)
    assert failure.value.parameters_unusable  # the CLI's usage error (exit 2), before any charge
    assert prepare(spec, n=3000).account is Account.LABELS_ONLY


def test_auto_never_picks_a_labels_only_learner_even_when_it_predicts_the_smallest_error(monkeypatch):
    info = get_algorithm("label-private")
    monkeypatch.setitem(
        _REGISTRY, "label-private", dataclasses.replace(info, predicted_error=lambda s, n: 0.0)
    )
    opted_in = dataclasses.replace(threshold_spec(), parameters=(("accept_labels_only", True),))
    for spec in (threshold_spec(), opted_in):
        chosen, reason = choose_auto(spec, 10**6)
        assert chosen.name != "label-private" and "label-private" not in reason


def test_labels_only_releases_are_booked_on_their_own_account(labelled_csv):
    dataset = open_dataset(labelled_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(2.5, 1e-5))
    run_to_end(execute(threshold_spec("label-private", delta=0.0), dataset, ledger, SeededRandom(2)))
    assert ledger.state(record.id).spent.epsilon == 0  # the replace-one total still bounds replace-one loss
    assert ledger.state(record.id, Account.LABELS_ONLY).spent.epsilon == 1.0
    (entry,) = ledger.entries(record.id)
    assert entry.account is Account.LABELS_ONLY
    run_to_end(execute(threshold_spec("em-threshold", delta=0.0), dataset, ledger, SeededRandom(3)))
    assert ledger.state(record.id).spent.epsilon == 1.0
    assert ledger.state(record.id, Account.LABELS_ONLY).spent.epsilon == pytest.approx(2.0)  # both count
    with pytest.raises(BudgetExceeded, match="labels-only"):
        run_to_end(execute(threshold_spec("label-private", delta=0.0), dataset, ledger, SeededRandom(4)))


def test_a_hashed_point_hypothesis_names_the_grid_values_it_predicts_positive():
    """GUI audit: "hash bucket 32203" alone named no value. Parity of x & 1 = 1 is every odd grid index."""
    from dpgui.algorithms.learners.points import HashedPointRelease
    from dpgui.tasks.learning import _hashed_positives

    spec = TaskSpec(TaskKind.POINT, ("x",), NumericDomain(100, 130, 2), 1.0, label="y")  # 16 grid values
    odd = HashedPointRelease(rows=(1,), bucket=1)
    assert _hashed_positives(spec, odd) == (
        "predicts positive 8 of the grid's 16 values: 102, 106, 110, 114, 118, 122, 126, 130"
    )
    wide = dataclasses.replace(spec, domains=(NumericDomain(0, 99, 1),))
    assert _hashed_positives(wide, odd) == (
        "predicts positive 50 of the grid's 100 values (the first 10 listed): 1, 3, 5, 7, 9, 11, 13, 15, "
        "17, 19"
    )
    assert _hashed_positives(spec, HashedPointRelease(rows=(0,), bucket=1)).startswith("no value")


def test_a_hashed_hypothesis_on_a_huge_grid_names_positives_among_its_first_values_only(monkeypatch):
    """The learner's cost does not grow with the grid (2^40 values are allowed): its note hashes at most
    SCANNED_VALUES of them and says so, instead of hashing the whole grid after the charge."""
    from dpgui.algorithms.learners.points import HashedPointRelease
    from dpgui.tasks import learning

    monkeypatch.setattr(learning, "SCANNED_VALUES", 8)
    spec = TaskSpec(TaskKind.POINT, ("x",), NumericDomain(0, 99, 1), 1.0, label="y")
    odd = HashedPointRelease(rows=(1,), bucket=1)
    assert learning._hashed_positives(spec, odd) == (
        "predicts positive 4 of the grid's first 8 values (of 100): 1, 3, 5, 7"
    )
