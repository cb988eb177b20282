"""Registration of TreeLog, the interior-point reduction and the quantile box: guarantees, units, auto,
refusal before the data is read, and end-to-end releases through the runner."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import treelog_min_n
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import Guarantee, algorithms, get_algorithm
from dpgui.tasks.runner import PreconditionFailed, execute, prepare
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec


def interior_spec(bits: int = 32, algorithm: str = AUTO, delta: float = 1e-6) -> TaskSpec:
    return TaskSpec(
        TaskKind.INTERIOR_POINT, ("wage",), NumericDomain(0, 2**bits - 1, 1), 1.0, delta, algorithm=algorithm
    )


def test_registered_names_guarantees_and_units() -> None:
    names = [a.name for a in algorithms(TaskKind.INTERIOR_POINT)]
    assert names[:3] == ["em-interior", "treelog", "heavypaths"]
    assert get_algorithm("treelog").guarantee is Guarantee.APPROXIMATE
    assert get_algorithm("heavypaths").guarantee is Guarantee.APPROXIMATE
    assert get_algorithm("treelog").error_unit == get_algorithm("em-interior").error_unit
    assert get_algorithm("ip-reduction-em").guarantee is Guarantee.PURE
    assert get_algorithm("ip-reduction-treelog").guarantee is Guarantee.APPROXIMATE
    assert get_algorithm("quantile-box").task is TaskKind.RECTANGLE
    assert get_algorithm("quantile-box").guarantee is Guarantee.PURE
    assert {info.task for info in algorithms() if info.name in ("treelog", "heavypaths")} == {
        TaskKind.INTERIOR_POINT
    }


def test_treelog_charges_the_users_epsilon_delta_and_predicts_its_n_required() -> None:
    spec = interior_spec(algorithm="treelog")
    info = get_algorithm("treelog")
    assert info.cost(spec) == PrivacyCost(1.0, 1e-6)
    assert info.predicted_error(spec, 10**6) == treelog_min_n(1.0, 1e-6, 0.05, 32)


def test_auto_picks_the_smaller_requirement_which_is_em_on_a_32_bit_grid() -> None:
    prepared = prepare(interior_spec(), n=10**5)
    assert prepared.algorithm.name == "em-interior"


def test_heavypaths_is_a_research_option_whose_precondition_states_its_large_n_required() -> None:
    with pytest.raises(PreconditionFailed) as failure:
        prepare(interior_spec(algorithm="heavypaths"), n=50_000)
    assert failure.value.min_n > 100_000 and "research option" in str(failure.value)


def test_treelog_refuses_below_n_required_with_min_n_and_without_delta() -> None:
    need = treelog_min_n(1.0, 1e-6, 0.05, 32)
    with pytest.raises(PreconditionFailed) as failure:
        prepare(interior_spec(algorithm="treelog"), n=need - 1)
    assert failure.value.min_n == need
    with pytest.raises(PreconditionFailed):
        prepare(interior_spec(algorithm="treelog", delta=0.0), n=10**6)
    with pytest.raises(PreconditionFailed):
        prepare(interior_spec(bits=3, algorithm="treelog"), n=10**6)


def ledger_for(dataset, epsilon: float, delta: float) -> Ledger:
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(epsilon, delta))
    return ledger


def test_treelog_release_end_to_end_is_interior(tmp_path) -> None:
    gen = np.random.default_rng(0)
    n = treelog_min_n(1.0, 1e-6, 0.05, 16) + 10
    path = tmp_path / "x.csv"
    pd.DataFrame({"x": gen.integers(1000, 2000, n)}).to_csv(path, index=False)
    dataset = open_dataset(path)
    spec = TaskSpec(
        TaskKind.INTERIOR_POINT, ("x",), NumericDomain(0, 2**16 - 1, 1), 1.0, 1e-6, algorithm="treelog"
    )
    result = run_to_end(execute(spec, dataset, ledger_for(dataset, 5.0, 1e-5), SeededRandom(1)))
    (value,) = result.table.column("value")
    assert value == "none" or 1000 <= value < 2000
    assert result.cost == PrivacyCost(1.0, 1e-6)


def test_rectangle_and_reduction_release_end_to_end(tmp_path) -> None:
    gen = np.random.default_rng(1)
    n = 4000
    a, b = gen.integers(0, 100, n), gen.integers(0, 50, n)
    label = ((a >= 20) & (a <= 70) & (b >= 10) & (b <= 30)).astype(int)
    path = tmp_path / "r.csv"
    pd.DataFrame({"a": a, "b": b, "y": label, "t": (a <= 40).astype(int)}).to_csv(path, index=False)
    dataset = open_dataset(path)
    ledger = ledger_for(dataset, 10.0, 1e-5)
    box = TaskSpec(
        TaskKind.RECTANGLE,
        ("a", "b"),
        (NumericDomain(0, 99, 1), NumericDomain(0, 49, 1)),
        4.0,
        algorithm="quantile-box",
        label="y",
    )
    rows = run_to_end(execute(box, dataset, ledger, SeededRandom(2))).table.rows
    assert rows[0][0] == "a" and 20 <= rows[0][1] <= rows[0][2] <= 70
    assert rows[1][0] == "b" and 10 <= rows[1][1] <= rows[1][2] <= 30
    learn = TaskSpec(
        TaskKind.THRESHOLD,
        ("a",),
        (NumericDomain(0, 99, 1),),
        2.0,
        algorithm="ip-reduction-em",
        label="t",
        parameters=(("direction", "le"),),
    )
    (row,) = run_to_end(execute(learn, dataset, ledger, SeededRandom(3))).table.rows
    assert row[1] == "le" and 30 <= row[0] <= 50
