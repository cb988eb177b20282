"""Pins of dpgui/tasks/sanitize_papers.py found by the t22 mutation scan: the approximate-DP sanitizers
(SanThresholds, SanPoints, k-POINT) refuse a categorical column before a run, PAP's stated error when refused,
the k-value-set note only for sets of more than one value, and every parameter default lies in the range the
GUI's editors clamp to."""

from __future__ import annotations

import pytest

import dpgui.tasks.sanitize_papers as sanitize_papers
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.san_thresholds import SanThresholdsPlan
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import ParameterSpec, get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec

EPSILON, DELTA = 0.7, 3e-7
KINDS = {"san-thresholds": TaskKind.CDF, "san-points": TaskKind.HISTOGRAM, "k-point": TaskKind.HISTOGRAM}
NUMERIC = "this algorithm needs a numeric domain (bounds and granularity)"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_approximate_sanitizers_refuse_a_categorical_column(name: str) -> None:
    def spec(domain) -> TaskSpec:
        return TaskSpec(KINDS[name], ("wage",), (domain,), EPSILON, DELTA, name)

    info = get_algorithm(name)
    assert NUMERIC not in [f.message for f in info.preconditions(spec(NumericDomain(0, 5000, 10)), 2000)]
    assert NUMERIC in [f.message for f in info.preconditions(spec(CategoricalDomain(("a", "b"))), 2000)]


@pytest.mark.parametrize(
    "parameter",
    [p for p in vars(sanitize_papers).values() if isinstance(p, ParameterSpec)],
    ids=lambda p: p.name,
)
def test_each_parameter_default_lies_in_its_range(parameter: ParameterSpec) -> None:
    """The GUI's spin boxes clamp to the range: a default outside it would be silently replaced."""
    if parameter.minimum is not None:
        assert parameter.minimum <= parameter.default <= parameter.maximum


def test_pap_without_a_public_sample_states_the_trivial_cdf_error() -> None:
    spec = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 5000, 10),), EPSILON, 0.0, "pap")
    assert get_algorithm("pap").preconditions(spec, 2000)
    assert get_algorithm("pap").predicted_error(spec, 2000) == 1.0


@pytest.mark.parametrize(("k", "noted"), [(1, False), (2, True)])
def test_k_point_notes_how_to_add_a_value_set_only_for_sets_of_several_values(k, noted, wages_csv) -> None:
    grid = NumericDomain(0, 5000, 10)
    spec = TaskSpec(TaskKind.HISTOGRAM, ("wage",), (grid,), EPSILON, DELTA, "k-point", parameters=(("k", k),))
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("k-point").run(spec, data, SeededRandom(0)))
    note = f"a set of {k} values: add their frequencies (error at most {k} times a value's)"
    assert (note in table.notes) is noted


@pytest.mark.parametrize(("need", "verdict"), [(2001, "guarantee met"), (2002, "guarantee not met")])
def test_san_thresholds_calls_its_guarantee_met_from_n_equal_to_the_papers_need(
    need, verdict, wages_csv, monkeypatch
) -> None:
    """The paper's sufficient n runs into the billions, so the boundary is reached by stubbing it: 2,001
    records meet a need of 2,001 and miss one of 2,002."""
    monkeypatch.setattr(SanThresholdsPlan, "min_n_for_guarantee", lambda self, size, beta: need)
    spec = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 5000, 10),), EPSILON, DELTA, "san-thresholds")
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("san-thresholds").run(spec, data, SeededRandom(0)))
    assert (
        f"accuracy {verdict}" in table.notes[0]
        and f"needs n >= {need:,}; the data has 2,001" in table.notes[0]
    )
