"""Pins preflight's documented input limits: epsilon in [1e-6, 100] (both ends included), and numeric bounds
strictly inside +-2^63; and the synthetic-rows estimate growing by SYNTHETIC_ROW_BYTES per row."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks import preflight
from dpgui.tasks.preflight import PreflightError, check_parameters, estimate
from dpgui.tasks.sanitize import ROWS as SANITIZE_ROWS
from dpgui.tasks.spec import TaskKind, TaskSpec


def spec(epsilon: float = 1.0, domain: NumericDomain | None = None) -> TaskSpec:
    return TaskSpec(TaskKind.MEDIAN, ("wage",), (domain or NumericDomain(0, 5000, 1),), epsilon, 0.0, "em")


@pytest.mark.parametrize("epsilon", [1e-6, 100.0])
def test_epsilon_limits_are_accepted(epsilon: float) -> None:
    check_parameters(spec(epsilon))


@pytest.mark.parametrize("epsilon", [0.9e-6, 101.0])
def test_epsilon_beyond_the_limits_is_refused(epsilon: float) -> None:
    with pytest.raises(PreflightError, match="epsilon"):
        check_parameters(spec(epsilon))


def test_bounds_at_two_to_the_63_are_refused() -> None:
    check_parameters(spec(domain=NumericDomain(-(2**62), 2**62, 2**52)))
    with pytest.raises(PreflightError, match="2\\^63"):
        check_parameters(spec(domain=NumericDomain(0, 2**63, 2**53)))


def test_synthetic_rows_cost_their_bytes_each() -> None:
    def synthetic(rows: int | None) -> TaskSpec:
        parameters = () if rows is None else (("rows", rows),)
        grid = (NumericDomain(0, 5000, 1),)
        kind = TaskKind.SYNTHETIC
        return TaskSpec(kind, ("wage",), grid, 1.0, 0.0, "tree-synthetic", parameters=parameters)

    base, more = estimate(synthetic(1000), 2000), estimate(synthetic(3000), 2000)
    assert more.memory - base.memory == 2000 * preflight.SYNTHETIC_ROW_BYTES
    assert more.seconds - base.seconds == pytest.approx(2000 * preflight.SYNTHETIC_ROW_SECONDS)
    assert more.output_bytes - base.output_bytes == 2000 * preflight.OUTPUT_BYTES_PER_ROW
    assert estimate(synthetic(None), 2000) == base  # preflight's default: 1000 rows
    assert estimate(synthetic(SANITIZE_ROWS.default), 2000) == base  # ... the algorithm's default too


@pytest.mark.parametrize(("kind", "name", "low", "high"), [
    (TaskKind.SYNTHETIC, "tree-synthetic", 1, 10**7),
    (TaskKind.TABLE, "aim", 0, 10**7),
])  # fmt: skip
def test_synthetic_rows_parameter_range(kind: TaskKind, name: str, low: int, high: int) -> None:
    def with_rows(rows: int) -> TaskSpec:
        columns = ("wage",) if name == "tree-synthetic" else ("wage", "education")
        domains = tuple(NumericDomain(0, 5000, 1) for _ in columns)
        return TaskSpec(kind, columns, domains, 1.0, 1e-6, name, parameters=(("rows", rows),))

    check_parameters(with_rows(low))
    check_parameters(with_rows(high))
    for bad in (low - 1, high + 1):
        with pytest.raises(PreflightError, match="rows"):
            check_parameters(with_rows(bad))


@pytest.mark.parametrize("name", ["aq", "joint-exp"])
def test_the_algorithms_that_break_ties_count_each_records_offset_before_the_charge(name: str) -> None:
    """AQ and JointExp hold one tie-breaking offset per record (tie_breaking.jitter, 48 bytes measured):
    uncounted, 10^8 records would pass the 4 GiB check and fail after the charge."""
    from dpgui.algorithms.tie_breaking import BYTES_PER_RECORD
    from dpgui.tasks.preflight import DEFAULT_MAX_MEMORY, Limits, check_limits

    quantiles = TaskSpec(TaskKind.QUANTILES, ("wage",), (NumericDomain(0, 100, 1),), 1.0, 0.0, name,
                         parameters=(("q", "0.5"),))  # fmt: skip
    each = quantiles.with_algorithm("em-each")
    n = 10**8
    assert estimate(quantiles, n).memory - estimate(each, n).memory == n * BYTES_PER_RECORD
    assert estimate(quantiles.with_algorithm("auto"), n).memory == estimate(quantiles, n).memory
    with pytest.raises(PreflightError):
        check_limits(quantiles, estimate(quantiles, n), Limits(max_memory=DEFAULT_MAX_MEMORY))
    check_limits(each, estimate(each, n), Limits(max_memory=DEFAULT_MAX_MEMORY))
