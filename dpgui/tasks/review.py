"""The review before every charge: what will run, what it costs, what to expect, and sanity checks.

The CLI prints it on stderr before the reservation and the app shows it in a sheet before "Charge and
run"; both build it here (issue 15, "spend safely"). Every number in it comes from PUBLIC information
only: the task spec (declared domains, ε, δ), the public row count n, the optional public sample and the
ledger's budget state. Nothing here reads the private data, so showing the review spends nothing.

A check either passes or fails. A failed check does not block by itself: the CLI refuses unless
``--accept-warnings`` is given and the app needs the failure acknowledged. Checks that concern how one
algorithm uses the public sample (:func:`algorithm_checks`) also keep ``auto`` from choosing that
algorithm (:func:`algorithm_check_failures`, used by ``runner.choose_auto``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dpgui.data.domain import NumericDomain
from dpgui.data.errors import DataError
from dpgui.data.missing import MissingKind
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.plain_words import plain_words
from dpgui.tasks.public_files import named_files
from dpgui.tasks.registry import AlgorithmInfo
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.tasks.runner import PreparedRun

MIN_GRID_POINTS = 100
"""A numeric grid with fewer points rounds every value to a coarse step: worth a second look."""

MIN_LATTICE_VALUES = 10
"""A public sample with fewer distinct values inside the bounds lies on many coarse steps by chance: no
advice on the granularity (``coarser_public_step``)."""

MAX_OUTSIDE_SHARE = 0.01
"""Above this share of the public sample outside the declared bounds, the bounds probably cut the data."""

MIN_SAMPLE_COVERAGE = 0.05
"""A public sample whose central 98% fills less of the declared range is shifted from (or on another
scale than) the grid: algorithms that cut the grid at the sample's values then see one cell."""

MAX_SAMPLE_OUTSIDE_FOR_PUBLIC_USE = 0.05
"""Above this share outside the bounds, the public sample does not describe the declared grid."""

MAX_ONE_WAY_TV = 0.5
"""A synthetic table's 1-way marginal predicted further than this (total variation) from the data is noise:
half of the records' values misplaced. The advice aims at a quarter (``ONE_WAY_TV_AIM``)."""
ONE_WAY_TV_AIM = 0.25
MAX_IMPUTED_SHARE = 0.1
"""Above this share of missing cells (in the public sample), imputation shapes the release."""

TRIVIAL_ERRORS = {
    "max |CDF error|": 0.5,
    "rank error / n": 0.5,
    "realizable error α at β": 0.5,
    "max error of the normalised average distance": 0.5,
    "max |frequency error| (count error / n)": 1.0,
}
"""The error a release without data achieves, per error unit: the constant CDF 1/2, the bound in the
middle of the ranks, a constant hypothesis, the middle distance, an all-zero histogram."""

RANK_UNIT = "rank error / n"
RECORDS_NEEDED = "records needed"

SHARE_UNITS = frozenset(TRIVIAL_ERRORS) - {"max error of the normalised average distance"}
"""Error units that are a share of the n records, so error × n is a number of records."""


@dataclass(frozen=True)
class Check:
    """One sanity check: its title, whether it passed, and a sentence a custodian can act on."""

    title: str
    passed: bool
    detail: str

    def line(self) -> str:
        return f"[{'ok' if self.passed else 'FAILED'}] {self.title}: {self.detail}"


@dataclass(frozen=True)
class ReleaseReview:
    """Everything shown before a charge."""

    spec: TaskSpec
    algorithm: AlgorithmInfo
    why: str
    cost: PrivacyCost
    n: int
    remaining_before: PrivacyCost | None
    predicted_error: float
    checks: tuple[Check, ...]
    error_kind: str
    """How ``predicted_error`` was found (``simulation.ErrorEstimate.kind``): the a-priori bound, or a
    simulated mean (what auto ranked by)."""
    over_budget: str | None = None
    """The ledger's refusal if the release does not fit the budget left (``runner.over_budget``): no charge
    can follow this review."""
    composed_after: PrivacyCost | None = None
    """The ledger's budget left once this release is booked, composed (``Ledger.remaining_with``); None
    where no ledger was asked."""

    @property
    def failures(self) -> tuple[Check, ...]:
        return tuple(check for check in self.checks if not check.passed)

    @property
    def remaining_after(self) -> PrivacyCost | None:
        """The budget left once this release is charged (None: no total set, the ledger will refuse): the
        ledger's composition when it was asked (with a delta to share, epsilon can fall by more than this
        release's own), else the remainder minus the cost."""
        if self.remaining_before is None:
            return None
        if self.composed_after is not None:
            return self.composed_after
        epsilon = max(self.remaining_before.epsilon - self.cost.epsilon, 0.0)
        delta = min(max(self.remaining_before.delta - self.cost.delta, 0.0), 1 - 1e-12)
        return PrivacyCost(epsilon, delta)

    def summary(self) -> list[tuple[str, str]]:
        """(label, text) rows: the same words in the CLI and in the app's review sheet."""
        after = self.remaining_after
        return [
            ("Task", f"{self.spec.kind.title} ({self.spec.kind.value})"),
            ("Columns", _columns(self.spec)),
            (
                "Algorithm",
                f"{self.algorithm.name}: {self.algorithm.title} "
                f"({self.algorithm.guarantee_for(self.spec).value})",
            ),
            ("Why", self.why),
            *_public_inputs(self.spec, self.algorithm),
            (
                "Privacy cost",
                f"ε = {self.cost.epsilon:.6g}, δ = {self.cost.delta:.3g}" + self._unspent_delta(),
            ),
            ("Budget after", self._budget_after(after)),
            (
                "Predicted error",
                f"{self.error_kind}: "
                + predicted_error_text(self.predicted_error, self.algorithm.error_unit, self.n)
                + _in_value_units(self.spec, self.predicted_error, self.algorithm.error_unit),
            ),
        ]

    def _unspent_delta(self) -> str:
        """Says so when the algorithm spends less δ than the custodian gave (a pure ε-DP one spends none),
        so a δ typed into the form is not dropped without a word."""
        if self.cost.delta >= self.spec.delta:
            return ""
        given = f"the δ = {self.spec.delta:.3g} given"
        if self.cost.delta == 0:
            return f" ({given} is not spent: this algorithm is pure ε-DP)"
        return f" (of {given})"

    def _budget_after(self, after: PrivacyCost | None) -> str:
        if self.over_budget is not None:
            return f"does not fit, so nothing can be charged: {self.over_budget}"
        if after is None:
            return "no total budget is set: the ledger will refuse the release"
        return (
            f"ε = {after.epsilon:.6g}, δ = {after.delta:.3g} left" + self.algorithm.account(self.spec).named()
        )

    def lines(self) -> list[str]:
        """The review as text lines (the CLI prints them on stderr)."""
        rows = [f"{label}: {text}" for label, text in self.summary()]
        checks = [f"  {check.line()}" for check in self.checks] or ["  none apply"]
        verdict = f"{len(self.failures)} check(s) FAILED" if self.failures else "all checks passed"
        return ["Review before charging:", *[f"  {row}" for row in rows], "Checks (public information only):",
                *checks, verdict]  # fmt: skip


def build_review(
    prepared: PreparedRun,
    remaining: PrivacyCost | None,
    over_budget: str | None = None,
    composed_after: PrivacyCost | None = None,
) -> ReleaseReview:
    """The review of a prepared run (``runner.prepare``) against the budget ``remaining`` before it, the
    ledger's refusal when it does not fit (``runner.over_budget``) and its budget left after it, composed."""
    spec, algorithm = prepared.spec, prepared.algorithm
    why = prepared.auto_reason or f"chosen by you; good for: {plain_words(algorithm).good_for}"
    from dpgui.tasks.simulation import error_estimate  # runs registered algorithms: not at import time

    estimate = error_estimate(algorithm, spec, prepared.n)
    predicted = estimate.value
    checks = (
        *task_checks(spec),
        *delta_checks(prepared.cost.delta, prepared.n),
        *error_checks(predicted, algorithm.error_unit, prepared.n),
        *algorithm_checks(spec, algorithm),
        *one_way_checks(spec, algorithm, prepared.n),
    )
    return ReleaseReview(
        spec, algorithm, why, prepared.cost, prepared.n, remaining, predicted, checks, estimate.kind,
        over_budget, composed_after,
    )  # fmt: skip


def predicted_error_text(error: float, unit: str, n: int) -> str:
    """The predicted error in the data's terms: for shares of the records, also as a number of records."""
    if not math.isfinite(error):
        return f"no accuracy guarantee at n = {n:,} ({unit})"
    if unit == RECORDS_NEEDED:
        return f"needs about {error:,.0f} records for its guarantee; the data has {n:,}"
    text = f"{error:.4g} ({unit})"
    if unit in SHARE_UNITS:
        text += f", about {error * n:,.0f} of the {n:,} records"
    return text


def _in_value_units(spec: TaskSpec, error: float, unit: str) -> str:
    """A rank error as a spread of the column's values around the median, read off the PUBLIC sample
    when it describes the declared grid (``sample_fit``): the demo's hourly wages under a weekly grid said
    "ranks within that error of the median all hold wage 7.78 USD per week" of a median near 520."""
    if unit != RANK_UNIT or not math.isfinite(error) or not isinstance(spec.domains[0], NumericDomain):
        return ""
    values = _public_values(spec, spec.columns[0])
    fit = sample_fit(spec)
    if values is None or values.size == 0 or fit is None or not fit.passed:
        return ""
    domain = spec.domains[0]
    clipped = np.clip(values, domain.lower, domain.upper)
    low, high = np.quantile(clipped, [max(0.5 - error, 0.0), min(0.5 + error, 1.0)])
    column, unit = spec.columns[0], f" {domain.unit}" if domain.unit else ""
    if high == low:
        return (
            f"; on the public sample, ranks within that error of the median all hold {column} "
            f"{float(low):g}{unit}"
        )
    return (
        f"; on the public sample, ranks within that error of the median span {column} {low:g} to "
        f"{high:g}{unit}"
    )


def task_checks(spec: TaskSpec) -> tuple[Check, ...]:
    """Checks of the declaration against public facts, whatever the algorithm."""
    checks: list[Check] = []
    for column, domain in zip(spec.columns, spec.domains, strict=True):
        if not isinstance(domain, NumericDomain):
            continue
        values, unreadable = _public_column(spec, column)
        if unreadable is not None:
            checks.append(Check(f"public sample's {column} is numbers", False, unreadable))
        if spec.kind not in (TaskKind.HISTOGRAM, TaskKind.TABLE):  # their few bins are the point
            checks.append(_grid_check(column, domain, values))
        if values is not None and values.size:
            outside = _outside_share(values, domain)
            checks.append(
                Check(
                    f"public sample inside the bounds of {column}",
                    outside <= MAX_OUTSIDE_SHARE,
                    f"{outside:.1%} of the public sample's {column} lies outside [{domain.lower:g}, "
                    f"{domain.upper:g}] (at most {MAX_OUTSIDE_SHARE:.0%} expected); values outside are "
                    "clipped to the bounds",
                )
            )
    checks.extend(_imputation_checks(spec))
    return tuple(checks)


def delta_checks(delta: float, n: int) -> tuple[Check, ...]:
    """δ against 1/n (none for pure DP): an (ε, δ) guarantee with δ near 1/n allows a release that hands
    out some record outright with probability about δ·n, so δ must lie far below it (an audit released a
    CDF at δ = 0.5 of 300 rows: "all checks passed", and the manifest stated (1, 0.5)-DP)."""
    if delta <= 0:
        return ()
    limit = 1 / max(n, 1)
    return (
        Check(
            "δ below 1/n",
            delta < limit,
            f"δ = {delta:.3g} against 1/n = {limit:.3g}"
            + ("" if delta < limit else ": it allows a release that exposes a record outright; choose δ of "
               "1e-6 or less"),
        ),
    )  # fmt: skip


def error_checks(predicted: float, unit: str, n: int) -> tuple[Check, ...]:
    """The predicted error against what a release that ignores the data achieves."""
    trivial = TRIVIAL_ERRORS.get(unit)
    if not math.isfinite(predicted):
        return (
            Check("better than a trivial answer", False, "the algorithm guarantees no accuracy at this n"),
        )
    if unit == RECORDS_NEEDED:
        return (
            Check(
                "enough records for the guarantee",
                predicted <= n,
                f"needs about {predicted:,.0f} records; the data has {n:,}",
            ),
        )
    if trivial is None:
        return ()
    return (
        Check(
            "better than a trivial answer",
            predicted < trivial,
            f"predicted {predicted:.4g} against {trivial:g} for an answer that ignores the data"
            + ("" if predicted < trivial else ": raise ε, coarsen the grid or pick another algorithm"),
        ),
    )


@dataclass(frozen=True)
class SampleFit:
    """How the public sample's values of the task's column sit on its declared range."""

    coverage: float
    """The share of the declared range the sample's central 98% fills."""
    outside: float
    """The share of the sample outside the declared bounds."""

    @property
    def passed(self) -> bool:
        return self.coverage >= MIN_SAMPLE_COVERAGE and self.outside <= MAX_SAMPLE_OUTSIDE_FOR_PUBLIC_USE

    def detail(self) -> str:
        return (
            f"the central 98% of the public sample fills {self.coverage:.1%} of the declared range and "
            f"{self.outside:.1%} of it lies outside"
        )


@functools.lru_cache(maxsize=64)
def sample_fit(spec: TaskSpec) -> SampleFit | None:
    """The fit of the public sample to the first column's numeric grid; None without a sample, a numeric
    column or any value of it in the sample. Cached: auto's ranking, each simulation and the review ask it
    for the same spec, and the sample is identified by its content (``PublicSample`` holds its SHA-256)."""
    column, domain = spec.columns[0], spec.domains[0]
    values = _public_values(spec, column)
    if not isinstance(domain, NumericDomain) or values is None or values.size == 0:
        return None
    return column_fit(values, domain)


def column_fit(values: np.ndarray, domain: NumericDomain) -> SampleFit:
    """The fit of a public column's finite ``values`` (at least one) to ``domain``'s declared range."""
    low, high = np.quantile(np.clip(values, domain.lower, domain.upper), [0.01, 0.99])
    coverage = float(high - low) / float(domain.upper - domain.lower)
    return SampleFit(coverage, _outside_share(values, domain))


def algorithm_checks(spec: TaskSpec, algorithm: AlgorithmInfo) -> tuple[Check, ...]:
    """Checks of how ``algorithm`` would use the public sample (auto skips an algorithm failing one)."""
    fit = sample_fit(spec) if algorithm.public_assisted else None
    if fit is None:
        return ()
    column = spec.columns[0]
    return (
        Check(
            f"public sample matches the grid of {column} (used by {algorithm.name})",
            fit.passed,
            fit.detail()
            + (
                ""
                if fit.passed
                else f": the sample looks shifted from the grid or on another scale, so {algorithm.name}'s "
                "cut points would not describe the private data"
            ),
        ),
    )


def one_way_checks(spec: TaskSpec, algorithm: AlgorithmInfo, n: int) -> tuple[Check, ...]:
    """A synthetic table: each column's 1-way marginal, as the algorithm plans to measure it, must carry
    more signal than noise (predicted TV <= MAX_ONE_WAY_TV); else the advice says how many cells would
    bring it to ONE_WAY_TV_AIM under the same plan. Public arithmetic on the declared domains."""
    if spec.kind is not TaskKind.TABLE:
        return ()
    checks = []
    for column, error in _one_way_errors(spec, algorithm, n).items():
        domain = spec.domains[spec.columns.index(column)]
        measurable = error <= MAX_ONE_WAY_TV
        advice = ""
        if not measurable:
            cells = _cells_for(spec, algorithm, n, column)
            if isinstance(domain, NumericDomain):
                what = "grid points"
                spread = "cell (whole numbers on a finer grid, or values heaped on a few cells, fare better)"
            else:
                what = "categories (rare ones as 'other')"
                spread = "category (a column with a few common categories fares better)"
            advice = (
                f" if its values spread over every {spread}: declare {column} with at most about {cells:,} "
                f"{what}, or raise ε"
            )
        checks.append(
            Check(
                f"the 1-way marginal of {column} is measurable",
                measurable,
                f"predicted TV {error:.3g} over its {domain.size:,} cells at ε = {spec.epsilon:g} and "
                f"n = {n:,}{advice}",
            )
        )
    return tuple(checks)


def _one_way_errors(spec: TaskSpec, algorithm: AlgorithmInfo, n: int) -> dict[str, float]:
    """The algorithm's predicted TV of each column's 1-way marginal (its planner rows named by a column)."""
    return {p.part: p.error for p in algorithm.error_parts(spec, n) if p.part in spec.columns}


def _cells_for(spec: TaskSpec, algorithm: AlgorithmInfo, n: int, column: str) -> int:
    """The most cells ``column`` can have for its 1-way marginal to be predicted at ONE_WAY_TV_AIM or less,
    by bisection on a stand-in grid of that many points (the prediction depends on the cell count only)."""
    index = spec.columns.index(column)

    def error(cells: int) -> float:
        domains = list(spec.domains)
        domains[index] = NumericDomain(0, cells - 1, 1)
        return _one_way_errors(replace(spec, domains=tuple(domains)), algorithm, n)[column]

    low, high = 2, int(spec.domains[index].size)
    if error(low) > ONE_WAY_TV_AIM:
        return low
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if error(middle) <= ONE_WAY_TV_AIM else (low, middle)
    return low


def algorithm_check_failures(spec: TaskSpec, algorithm: AlgorithmInfo) -> tuple[Check, ...]:
    """The failed algorithm-specific checks (what keeps ``auto`` from choosing ``algorithm``)."""
    return tuple(check for check in algorithm_checks(spec, algorithm) if not check.passed)


def _public_inputs(spec: TaskSpec, algorithm: AlgorithmInfo) -> list[tuple[str, str]]:
    """A row naming the PUBLIC files the release reads besides the private data (none: no row). Names only:
    a path may say more about the custodian's folders than the review needs."""
    files = [f"public sample {spec.public.path.name}"] if spec.public is not None else []
    files += [f"{name} file {Path(path).name}" for name, path in named_files(spec, algorithm)]
    if not files:
        return []
    return [("Public inputs", "; ".join(files))]


def _columns(spec: TaskSpec) -> str:
    parts = []
    for column, domain in zip(spec.columns, spec.domains, strict=True):
        if isinstance(domain, NumericDomain):
            unit = f" {domain.unit}" if domain.unit else ""
            parts.append(f"{column} in [{domain.lower:g}, {domain.upper:g}]{unit} {domain.grid_words()}")
        else:
            parts.append(f"{column} ({domain.size} categories)")
    if spec.label is not None:
        positive = "" if spec.positive is None else f" = {spec.positive}"
        parts.append(f"label {spec.label}{positive}")
    return "; ".join(parts)


def _grid_check(column: str, domain: NumericDomain, public: np.ndarray | None) -> Check:
    """A grid under MIN_GRID_POINTS points fails, unless the public sample shows the column takes only
    grid values (whole years of education on a step of 1): then nothing is rounded. A finer grid passes,
    with advice when the public sample lies on a coarser step (``coarser_public_step``)."""
    title = f"grid of {column}"
    if domain.size >= MIN_GRID_POINTS:
        step = None if public is None else coarser_public_step(domain, public)
        if step is None:
            return Check(title, True, f"{domain.size:,} grid points")
        coarse = replace(domain, granularity=step)
        return Check(
            title,
            True,
            f"{domain.size:,} grid points; every public sample value lies on a step of {step:g} "
            f"({coarse.size:,} points): declaring granularity {step:g} spreads the noise over fewer points "
            "and lowers the error, unless the private column takes values between them",
        )
    if public is not None and public.size and _on_grid(public, domain):
        return Check(
            title, True, f"{domain.size:,} grid points, and every public sample value lies on one of them"
        )
    return Check(
        title,
        False,
        f"{domain.size:,} grid points (under {MIN_GRID_POINTS}): every value is rounded to a step of "
        f"{domain.granularity:g}; declare a finer granularity or more bins unless the column really takes "
        "so few values",
    )


def coarser_public_step(domain: NumericDomain, public: np.ndarray) -> float | None:
    """The coarsest step, 1, 2 or 5 times a power of ten and at least twice the declared granularity, whose
    grid from the same lower bound holds every public sample value inside the bounds; None when none does or
    the sample holds fewer than MIN_LATTICE_VALUES distinct values there. The step need not be a multiple of
    the granularity: a grid of 1,024 bins on [0, 100] (a step of 0.098) gets the advice for whole numbers too.

    Whole-number ages declared on a step of 0.01 (the default granularity of bounds 0 to 100) put 100 grid
    points between two values the column takes: a tree CDF over them has more levels, each adding its
    noise, and a data-adaptive partition spreads each whole number's records over its leaf. On 20,000
    generated ages (benchmarks/cdf_accuracy.md, "columns nobody tuned for") a step of 1 in place of about
    0.1 halved the tree's and PrivTree's maximum rank error. Public facts only: the declaration and the
    public sample."""
    inside = np.unique(public[(public >= domain.lower) & (public <= domain.upper)])
    if inside.size < MIN_LATTICE_VALUES:
        return None
    granularity, span = float(domain.granularity), float(domain.upper - domain.lower)
    for power in range(math.floor(math.log10(span)), math.floor(math.log10(granularity)) - 1, -1):
        for mantissa in (5, 2, 1):
            step = float(Decimal(mantissa).scaleb(power))
            if (
                step >= 2 * granularity
                and step * 2 <= span
                and _on_grid(inside, replace(domain, granularity=step))
            ):
                return step
    return None


def _on_grid(values: np.ndarray, domain: NumericDomain) -> bool:
    inside = values[(values >= domain.lower) & (values <= domain.upper)]
    snapped = domain.from_grid(domain.to_grid(inside))
    return bool(np.all(np.abs(snapped - inside) <= 1e-9 * max(1.0, float(domain.granularity))))


def _public_values(spec: TaskSpec, column: str) -> np.ndarray | None:
    """The public sample's finite values of ``column`` (unclipped), or None without one."""
    return _public_column(spec, column)[0]


def _public_column(spec: TaskSpec, column: str) -> tuple[np.ndarray | None, str | None]:
    """The public sample's finite values of ``column`` (None without one), or why it holds no numbers: a
    task whose algorithm never reads the sample (quantiles) recorded such a sample in the manifest while a
    CDF refused the same file (a loader fuzz), so the review says so for every numeric task."""
    if spec.public is None or column not in spec.public.frame.columns:
        return None, None
    try:
        return spec.public.column_values(column), None
    except DataError as error:
        return None, (
            f"{error}; it can inform nothing: correct the public sample's column, or leave the sample out"
        )


def _outside_share(values: np.ndarray, domain: NumericDomain) -> float:
    return float(np.mean((values < domain.lower) | (values > domain.upper)))


def _imputation_checks(spec: TaskSpec) -> Iterable[Check]:
    """The share of missing cells per column in the PUBLIC sample (the private one is not looked at)."""
    if spec.public is None or spec.missing.kind is not MissingKind.IMPUTE:
        return
    frame = spec.public.frame
    for column in spec.columns:
        if column not in frame.columns or not len(frame):
            continue
        share = float(frame[column].isna().mean())
        yield Check(
            f"imputed share of {column}",
            share <= MAX_IMPUTED_SHARE,
            f"{share:.1%} of the public sample's {column} is missing and would be imputed"
            + ("" if share <= MAX_IMPUTED_SHARE else "; the imputed value would shape the release"),
        )
