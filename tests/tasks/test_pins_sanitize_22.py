"""Pins of dpgui/tasks/sanitize.py found by the t22 mutation scan: the histogram's stated error, the tree's
requested branching (in its run and its stated bound), the noise each tree's title names, parameter defaults
the GUI's editors can show unchanged, the quantile sanitizers' refusal of a categorical column, and the
histogram's post-processing note."""

from __future__ import annotations

import math

import pytest

import dpgui.tasks.sanitize as sanitize
from dpgui.algorithms.histogram import histogram_error_bound
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tree_cdf import TreeNoise, best_branching, cdf_error_bound
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import ParameterSpec, get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec

EPSILON, DELTA = 0.7, 3e-7


def sanitizer(name: str, kind: TaskKind = TaskKind.CDF, **parameters: object) -> TaskSpec:
    grid = NumericDomain(0, 500, 1)
    return TaskSpec(kind, ("wage",), (grid,), EPSILON, DELTA, name, parameters=tuple(parameters.items()))


def test_the_histogram_predicts_its_bound_at_the_requested_epsilon_and_beta_per_record() -> None:
    spec = sanitizer("geometric", TaskKind.HISTOGRAM, beta=0.02)
    bound = float(histogram_error_bound(501, EPSILON, 0.02))
    info = get_algorithm("geometric")
    assert info.predicted_error(spec, 2000) == bound / 2000
    for n in (0, 1):  # a frequency over at least one record
        assert info.predicted_error(spec, n) == bound


def test_the_tree_is_built_and_bounded_with_the_requested_branching(wages_csv) -> None:
    assert best_branching(501, TreeNoise.LAPLACE) != 3
    spec = sanitizer("tree-laplace", branching=3, beta=0.02)
    expected = cdf_error_bound(501, 2001, EPSILON, 0.02, noise=TreeNoise.LAPLACE, rho=None, branching=3)
    assert get_algorithm("tree-laplace").predicted_error(spec, 2001) == expected
    assert expected != get_algorithm("tree-laplace").predicted_error(
        sanitizer("tree-laplace", beta=0.02), 2001
    )
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("tree-laplace").run(spec, data, SeededRandom(0)))
    assert "3-ary tree, 6 noisy levels" in table.notes
    assert f"a-priori: with probability >= 0.98 every CDF value is within {expected:.4g}" in table.notes


def test_each_tree_names_its_noise_in_its_title() -> None:
    assert get_algorithm("tree-gaussian").title == "Tree of counts (discrete Gaussian, zCDP)"
    assert get_algorithm("tree-laplace").title == "Tree of counts (discrete Laplace)"


@pytest.mark.parametrize(
    "parameter", [p for p in vars(sanitize).values() if isinstance(p, ParameterSpec)], ids=lambda p: p.name
)
def test_each_parameter_default_lies_in_its_range(parameter: ParameterSpec) -> None:
    """The GUI's spin boxes clamp to the range: a default outside it would be silently replaced."""
    if parameter.minimum is not None:
        assert parameter.minimum <= parameter.default <= parameter.maximum


def test_the_default_branching_is_the_best_one() -> None:
    default = sanitizer("tree-laplace", branching=sanitize.BRANCHING.default)
    auto = sanitizer("tree-laplace")
    assert get_algorithm("tree-laplace").predicted_error(default, 2001) == get_algorithm(
        "tree-laplace"
    ).predicted_error(auto, 2001)
    assert math.isfinite(get_algorithm("tree-laplace").predicted_error(auto, 2001))


@pytest.mark.parametrize("name", ["aq", "em-each", "tree-cdf"])
def test_the_quantile_sanitizers_refuse_a_categorical_column(name: str) -> None:
    numeric = sanitizer(name, TaskKind.QUANTILES, q="0.5")
    categorical = TaskSpec(
        TaskKind.QUANTILES,
        ("wage",),
        (CategoricalDomain(("a", "b")),),
        EPSILON,
        DELTA,
        name,
        parameters=(("q", "0.5"),),
    )
    refusal = "column 'wage' needs a numeric domain (bounds and granularity)"
    assert refusal not in [f.message for f in get_algorithm(name).preconditions(numeric, 2000)]
    assert refusal in [f.message for f in get_algorithm(name).preconditions(categorical, 2000)]


@pytest.mark.parametrize("normalise", [False, True])
def test_the_histogram_notes_fractions_only_when_it_releases_them(normalise: bool, wages_csv) -> None:
    spec = sanitizer("geometric", TaskKind.HISTOGRAM, normalise=normalise)
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("geometric").run(spec, data, SeededRandom(0)))
    assert table.notes[0] == "post-processing: noisy counts clipped at 0" + (
        ", fractions of the released total" if normalise else ""
    )
    assert ("fraction" in table.columns) is normalise
