"""The synthetic-table task (issue 16, spec 005): a DP synthetic version of the whole table.

Every column is discretised on its declared public domain (numeric: the declared grid; categorical: the
declared list, plus "other" when declared), marginals are measured with noise by AIM, MST or independent
marginals (``dpgui/algorithms/marginal_table.py``), and rows drawn from the fitted model are mapped back
to values: a numeric cell becomes its grid point (the middle of the values that snap to it, inside the
declared bounds; a whole number on a whole-number grid; a declared bin's middle), a categorical cell its
declared category.

The released table (release.csv) lists what was measured, with its noise and share of the budget, and how
far the synthetic table's marginals are from the NOISY measurements (never from the true data). The
synthetic rows are the attachments synthetic.csv and synthetic.parquet.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from dpgui.algorithms.marginal_table import (
    L1_SENSITIVITY,
    MAX_MODEL_MB,
    RARE_SIGMAS,
    Accounting,
    AimRound,
    Bins,
    Marginals,
    TableRelease,
    aim_table,
    cells,
    downward_closure,
    independent_table,
    mst_table,
    workload,
)
from dpgui.algorithms.pgm import Clique
from dpgui.algorithms.progress import AlgorithmRun, Progress, map_steps
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.missing import MissingPolicy, missing_spelt_categories
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.outputs import Attachment, ReleaseTable
from dpgui.tasks.registry import (
    AlgorithmInfo,
    Guarantee,
    ParameterSpec,
    PreconditionFailure,
    each_column_once,
    register,
)
from dpgui.tasks.spec import Domain, TaskKind, TaskSpec
from dpgui.tasks.table_error import (
    COARSE_BINS,
    TABLE_UNIT,
    MarginalPlan,
    aim_plans,
    coarse_levels,
    error_parts,
    independent_plans,
    mst_plans,
    ordered_columns,
    table_sizes,
    workload_error,
)

if TYPE_CHECKING:
    import pandas as pd

    from dpgui.data.aggregate import Aggregator

SYNTHETIC_CSV = "synthetic.csv"
SYNTHETIC_PARQUET = "synthetic.parquet"

MARGINAL_MEMORY_LIMIT = 256 * 2**20
"""Bytes the counted marginals may take (int64 cells); a larger workload is refused before any charge."""

MAX_ROWS = 10**7

ROWS = ParameterSpec(
    "rows",
    int,
    0,
    "Synthetic rows to draw (0: the public row count; any number costs the same).",
    0,
    MAX_ROWS,
)
WORKLOAD = ParameterSpec("workload", int, 2, "AIM's workload: all k-way marginals (k = 1, 2 or 3).", 1, 3)
MAX_ROUNDS = ParameterSpec(
    "max_rounds",
    int,
    0,
    "Cap on AIM's adaptive rounds (0: the paper's 16 per column).",
    0,
    1000,
    advanced=True,
)


AIM_SECONDS = 100.0
"""AIM's default time limit, toward issue 16's two minutes a table: at epsilon <= 1 the demo's seven columns
end their rounds before it (21-44 s in all; at epsilon 3, with rare cells merged, 113 s on average and
at most 178 s without a limit, benchmarks/synthetic_table.md); wide tables and large epsilons, whose
rounds ran for ten minutes (569 s at epsilon 10 on the demo), end them here. The final refit
(marginal_table.FIT_ITERS) and the rows' draw come on top (20 s on a 50k x 20 table under load)."""

TIME_LIMIT = ParameterSpec(
    "time_limit",
    float,
    AIM_SECONDS,
    "AIM: seconds, counted once the marginals are counted, after which it stops choosing marginals and "
    "spends what is left of the budget in one last round (on up to one marginal per column), so it ends "
    "near then (0: no limit; on the command line at most --max-seconds). AIM's time cannot be predicted: "
    "its rounds and model depend on what it measures, and 25 columns of 100,000 rows ran for more than 15 "
    "minutes. Which round is last depends on this machine's speed, never on the data beyond what the "
    "rounds released.",
    0.0,
    86400.0,
    advanced=True,
)


def _columns_to_coarsen(spec: TaskSpec) -> str:
    ranked = sorted(zip(spec.columns, spec.domains, strict=True), key=lambda pair: -pair[1].size)
    return ", ".join(f"{column} ({domain.size} cells)" for column, domain in ranked[:3])


def _memory_fits(spec: TaskSpec, cliques: list[Clique], what: str) -> tuple[PreconditionFailure, ...]:
    sizes = table_sizes(spec)
    needed = 8 * sum(cells(sizes, clique) for clique in cliques)
    if needed <= MARGINAL_MEMORY_LIMIT:
        return ()
    return (
        PreconditionFailure(
            f"{what} need {needed / 2**20:.0f} MB of counts, over the "
            f"{MARGINAL_MEMORY_LIMIT // 2**20} MB limit: coarsen the largest columns "
            f"({_columns_to_coarsen(spec)}) with fewer bins"
            + (" or a smaller --workload" if what.startswith("AIM") else ""),
            parameter=True,  # the declared domains' doing, whatever n: a usage error (exit 2), as documented
        ),
    )


def synthetic_rows(spec: TaskSpec, n: int) -> int:
    """The rows a table release draws: the ``rows`` parameter, or the public row count n when it is 0."""
    return int(spec.parameter("rows", ROWS.default)) or n


def synthetic_csv(table: ReleaseTable) -> Attachment | None:
    """The synthetic rows' CSV of a table release (a DP output), or None for any other release."""
    return next((a for a in table.attachments if a.file_name == SYNTHETIC_CSV), None)


def _common(spec: TaskSpec) -> tuple[PreconditionFailure, ...]:
    failures = []
    for column, domain in zip(spec.columns, spec.domains, strict=True):
        if domain.size > 1 << 16:
            failures.append(
                PreconditionFailure(
                    f"column {column!r} has {domain.size} cells; a synthetic table needs at most 65536 per "
                    'column: declare fewer bins (e.g. "bins": 50) or a coarser granularity',
                    parameter=True,
                )
            )
    return (*failures, *each_column_once(spec.columns))


def _needs_delta(spec: TaskSpec) -> tuple[PreconditionFailure, ...]:
    if spec.delta <= 0:
        return (PreconditionFailure("this algorithm is approximate DP (zCDP): give a δ > 0 (e.g. 1e-6)"),)
    return ()


def _aim_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = _needs_delta(spec) + _common(spec)
    if failures:
        return failures
    way = int(spec.parameter("workload", WORKLOAD.default))
    return _memory_fits(
        spec, downward_closure(workload(len(spec.columns), way)), f"AIM's {way}-way marginals"
    )


def _mst_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = _needs_delta(spec) + _common(spec)
    if failures:
        return failures
    return _memory_fits(spec, downward_closure(workload(len(spec.columns), 2)), "MST's 2-way marginals")


def _independent_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    return _common(spec)


def _predicted(
    spec: TaskSpec,
    n: int,
    fits: Callable[[TaskSpec, int], tuple[PreconditionFailure, ...]],
    plans: Callable[[TaskSpec, int], list[MarginalPlan]],
) -> float:
    """The plans' mean expected TV over the workload (``table_error``); inf when the spec does not fit."""
    return math.inf if fits(spec, n) else workload_error(spec, plans(spec, n))


def _approx_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon, spec.delta)


def _pure_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon)


def cell_values(domain: Domain, indices: np.ndarray, missing: MissingPolicy) -> pd.Series:
    """Values in the data's units: a numeric cell's grid point (whole numbers on whole-number grids), a
    categorical cell's declared category ("other" for the extra index); under KEEP the "missing" cell
    (index ``domain.size``) is a blank (and whole numbers nullable integers)."""
    import pandas as pd  # the rows' frame: built by a run, not by importing the registry

    blank = indices >= domain.size if missing.extra_cells else None
    present = indices if blank is None else np.where(blank, 0, indices)
    if isinstance(domain, CategoricalDomain):
        labels = np.array(domain.labels, dtype=object)
        values = pd.Series(labels[present], dtype=object)
    else:
        grid = domain.plain_values(present.astype(np.uint64))
        values = pd.Series(grid.astype(np.int64) if domain.whole_points else grid)
    if blank is None or not blank.any():
        return values
    return (values.astype("Int64") if values.dtype.kind == "i" else values).mask(blank)


def _binned_note(spec: TaskSpec) -> str:
    """'; the columns declared by "bins" (wage) are counted in their bins, each released at its middle'."""
    pairs = zip(spec.columns, spec.domains, strict=True)
    binned = [c for c, d in pairs if isinstance(d, NumericDomain) and d.binned]
    if not binned:
        return ""
    return (
        f'; a column declared with "bins" ({", ".join(binned)}) counts a record in its bin (from its lower '
        "edge up to the next bin's) and releases the bin's middle"
    )


def synthetic_frame(spec: TaskSpec, rows: np.ndarray) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(
        {
            column: cell_values(domain, rows[:, j], spec.missing)
            for j, (column, domain) in enumerate(zip(spec.columns, spec.domains, strict=True))
        }
    )


def synthetic_parquet(spec: TaskSpec, frame: pd.DataFrame) -> bytes:
    """The synthetic rows as Parquet, a categorical column typed as text: left to pyarrow, a column whose
    cells are all blank (kept missing values) was written with the null type, not as strings."""
    import pyarrow as pa

    schema = pa.Schema.from_pandas(frame, preserve_index=False)
    for j, (column, domain) in enumerate(zip(spec.columns, spec.domains, strict=True)):
        if isinstance(domain, CategoricalDomain):
            schema = schema.set(j, pa.field(column, pa.string()))
    parquet = io.BytesIO()
    frame.to_parquet(parquet, index=False, engine="pyarrow", schema=schema)
    return parquet.getvalue()


def _name(spec: TaskSpec, clique: Clique, bins: Bins = None) -> str:
    """ "wage × age", or "wage × age (8 × 8 bins)" for a coarsened marginal."""
    name = " × ".join(spec.columns[i] for i in clique)
    return name if bins is None else f"{name} ({' × '.join(map(str, bins))} bins)"


CATCH_ALL_NOISE_MULTIPLE = 3.0
"""A catch-all cell (a categorical column's "other", or "missing" under KEEP) holding fewer synthetic rows
than this many standard deviations of its column's 1-way measurement noise is taken to be empty
(``without_noise_catch_alls``)."""


def catch_all_cells(domain: Domain, missing: MissingPolicy) -> tuple[int, ...]:
    """The cells a declared domain adds for values it does not name: a categorical column's "other" (its
    last category index) and, under KEEP, the "missing" cell (index ``domain.size``)."""
    other = (domain.size - 1,) if isinstance(domain, CategoricalDomain) and domain.other else ()
    return other + ((domain.size,) if missing.extra_cells else ())


def without_noise_catch_alls(spec: TaskSpec, release: TableRelease, n: int, rng: PrivateRandom) -> np.ndarray:
    """The synthetic rows with a column's catch-all cells (``catch_all_cells``) emptied where they hold fewer
    rows than CATCH_ALL_NOISE_MULTIPLE standard deviations of the column's most precise 1-way measurement
    (scaled from n to the synthetic rows): such a count is noise on an empty cell, so each of its rows takes
    the value of a random synthetic row of that column outside every such cell. A column without missing
    values gets no blanks, and a boolean declared as two categories no "other", while a column with
    missing or undeclared values keeps them. Post-processing of the DP rows with public scales. The
    release's "TV vs noisy" is of the rows before this step (at most that many rows per column differ)."""
    rows = release.rows.copy()
    for j, domain in enumerate(spec.domains):
        cells = catch_all_cells(domain, spec.missing)
        if not cells:
            continue
        stddev = min(m.stddev for m in release.measured if m.clique == (j,) and m.bins is None)
        limit = CATCH_ALL_NOISE_MULTIPLE * stddev * rows.shape[0] / max(n, 1)
        noise = [cell for cell in cells if np.count_nonzero(rows[:, j] == cell) < limit]
        emptied = np.isin(rows[:, j], noise)
        donors = np.flatnonzero(~emptied)
        if emptied.any() and donors.size:
            rows[emptied, j] = rows[donors[rng.uniform_ints(donors.size, int(emptied.sum()))], j]
    return rows


def catch_all_note(spec: TaskSpec) -> str:
    """The manifest's words for ``without_noise_catch_alls``, naming only the catch-alls this table has."""
    kinds = [
        *(['an "other"'] if any(isinstance(d, CategoricalDomain) and d.other for d in spec.domains) else []),
        *(["a blank"] if spec.missing.extra_cells else []),
    ]
    if not kinds:
        return ""
    return (
        f"; {' or '.join(kinds)} cell holding fewer rows than {CATCH_ALL_NOISE_MULTIPLE:g} standard "
        "deviations of its column's noise is taken to be empty (its rows take other synthetic values)"
    )


def _free_choices(release: TableRelease) -> str:
    """How many choices had a single candidate, so were made without a mechanism (``_aim_pick``,
    ``mst_edge_rho``)."""
    free = sum(s.free for s in release.selected)
    return f" and {free} without one (a single candidate, public)" if free else ""


def _table(
    spec: TaskSpec, release: TableRelease, total: float, algorithm: str, n: int, rng: PrivateRandom
) -> ReleaseTable:
    release.check_spent_within(total)
    frame = synthetic_frame(spec, without_noise_catch_alls(spec, release, n, rng))
    csv_bytes = frame.to_csv(index=False, lineterminator="\n").encode("utf-8")
    unit = release.accounting.value
    rows: list[tuple[float | int | str, ...]] = []
    for s in release.selected:
        name = _name(spec, s.clique, s.bins)
        how = "the only candidate (no mechanism, no cost)" if s.free else "exponential mechanism"
        rows.append((name, "selected", how, s.epsilon, s.cost / total, ""))
    for m, fit in zip(release.measured, release.fit, strict=True):
        rows.append(
            (_name(spec, m.clique, m.bins), "measured", m.noise, m.scale, m.cost / total, f"{fit:.4g}")
        )
    scale = "noise scale (σ or Laplace scale; ε for a selection)"
    notes = (
        f"{algorithm}: {len(release.measured)} marginals measured, "
        f"{sum(not s.free for s in release.selected)} chosen by the exponential mechanism"
        f"{_free_choices(release)}; shares are of the total {unit} = {total:.6g}"
        + (" (from ε, δ by the zCDP conversion)" if release.accounting is Accounting.ZCDP else "")
        + _cut_short(spec, release),
        "neighbouring relation: replace one record, row count public (marginals move by L1 = 2, L2 = √2)",
        "TV vs noisy: total-variation distance between the synthetic table's marginal and the noisy "
        "measurement (clipped at 0, normalised); never compared with the true data",
        f"{frame.shape[0]} synthetic rows in {SYNTHETIC_CSV} and {SYNTHETIC_PARQUET}; numeric cells are "
        "their grid points (inside the declared bounds; whole numbers on whole-number grids): a record "
        "counted at its nearest grid point, one outside the bounds at the nearer bound's"
        + _binned_note(spec)
        + ("; a blank cell is a kept missing value" if spec.missing.extra_cells else "")
        + catch_all_note(spec),
        *_merged_note(spec, release),
        *_coarse_note(release),
        *_missing_spelling_note(spec),
        *(
            f"measured {_name(spec, m.clique, m.bins)}: {m.noise} scale {m.scale:.4g}, "
            f"{100 * m.cost / total:.2f}% of the budget"
            for m in release.measured
        ),
    )
    return ReleaseTable(
        ("marginal", "role", "mechanism", scale, "budget share", "TV vs noisy"),
        tuple(rows),
        notes,
        (Attachment(SYNTHETIC_CSV, csv_bytes), Attachment(SYNTHETIC_PARQUET, synthetic_parquet(spec, frame))),
    )


def _marginals(spec: TaskSpec, data: Aggregator) -> Marginals:
    missings = [spec.missing] * len(spec.columns)
    return lambda cliques: data.marginals(spec.columns, spec.domains, missings, cliques)


def _named_rounds(spec: TaskSpec, run: AlgorithmRun[TableRelease]) -> AlgorithmRun[TableRelease]:
    """AIM's progress with each round's marginal named by its columns (for the log and the live view); a
    request sent in (FINISH_NOW) is passed on to AIM (``map_steps``)."""

    def named(step: Progress) -> Progress:
        partial = step.partial
        if not isinstance(partial, AimRound):
            return step
        name = _name(spec, partial.clique, partial.bins)
        fit = f"σ {partial.sigma:.3g}, model's TV vs noisy {partial.fit:.3g}"
        message = f"round {partial.round}: measured {name} ({fit})"
        return Progress(step.fraction, message, dataclasses.replace(partial, name=name))

    return map_steps(run, named)


def _merged_note(spec: TaskSpec, release: TableRelease) -> tuple[str, ...]:
    """The note's line on the columns whose rare cells were merged after the 1-way measurements, if any."""
    if not release.kept_cells:  # independent marginals merge nothing
        return ()
    merged = [
        f"{column} {declared} → {kept}"
        for column, declared, kept in zip(spec.columns, table_sizes(spec), release.kept_cells, strict=True)
        if kept < declared
    ]
    if not merged:
        return ()
    return (
        f"cells merged after the 1-way measurements ({', '.join(merged)} cells, counting a column's 'other' "
        f"and 'missing' cells): cells whose noisy 1-way count is below {RARE_SIGMAS:g} standard deviations "
        "of their noise are one cell for the later measurements and the model (MST's domain compression; "
        "post-processing). A categorical column's rare cells become one cell, and so do every column's in "
        "MST; a numeric column's become one cell only where they are adjacent. A synthetic row in a merged "
        "cell takes one of its cells in proportion to their noisy counts",
    )


def _coarse_note(release: TableRelease) -> tuple[str, ...]:
    """The note's line explaining a marginal named with bins ("wage × education (16 × 16 bins)"), if any
    was measured so."""
    coarse = [m.bins for m in release.measured if m.bins is not None]
    if not coarse:
        return ()
    return (
        f"a marginal named with bins (as in '{' × '.join(map(str, coarse[0]))} bins') was measured "
        "coarsened: each numeric column's cells merged into that many groups of adjacent cells, so each "
        "group's count carries the noise one declared cell's would",
    )


def _missing_spelling_note(spec: TaskSpec) -> tuple[str, ...]:
    """The note's line on declared categories spelt as a missing value ("NA"): synthetic.csv writes them
    as they are, and pandas and spreadsheets read such a cell back as missing
    (``missing_spelt_categories``)."""
    spelt = [
        f"{category!r} of {column}"
        for column, category in missing_spelt_categories(spec.columns, spec.domains)
    ]
    if not spelt:
        return ()
    return (
        f"categories spelt as a missing value ({', '.join(spelt)}): {SYNTHETIC_CSV} writes them as they are, "
        f"and pandas and spreadsheets read such a cell back as missing unless told otherwise (pandas: "
        f"keep_default_na=False); {SYNTHETIC_PARQUET} keeps them as text",
    )


def _cut_short(spec: TaskSpec, release: TableRelease) -> str:
    """The note's words on what ended AIM's rounds early (the time limit or Finish now), if anything."""
    if not (release.time_limited or release.finished_on_request):
        return ""
    limit = f"the time limit ({float(spec.parameter('time_limit', TIME_LIMIT.default)):g} s)"
    cause = limit if release.time_limited else "Finish now"
    marginals = "1 marginal" if release.last_picks == 1 else f"{release.last_picks} marginals"
    shown = (  # the Run page numbers each measured marginal as a round (a GUI audit: "9 rounds or 10?")
        f" (the Run page's rounds {release.last_round} to {len(release.selected)})"
        if release.last_picks > 1
        else ""
    )
    return (
        f"; {cause} made round {release.last_round} the last, which spent what was left on {marginals}{shown}"
    )


def _run_aim(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    n, rho = data.count(), zcdp_rho_for(_approx_cost(spec))
    rounds = int(spec.parameter("max_rounds", MAX_ROUNDS.default)) or None
    time_limit = float(spec.parameter("time_limit", TIME_LIMIT.default)) or None
    way = int(spec.parameter("workload", WORKLOAD.default))
    release = yield from _named_rounds(
        spec,
        aim_table(
            table_sizes(spec),
            _marginals(spec, data),
            n,
            rho,
            synthetic_rows(spec, n),
            rng,
            way=way,
            max_rounds=rounds,
            ordered=ordered_columns(spec),
            levels=coarse_levels(spec),
            time_limit=time_limit,
        ),
    )
    return _table(spec, release, rho, "AIM", n, rng)


def _run_mst(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    n, rho = data.count(), zcdp_rho_for(_approx_cost(spec))
    release = yield from mst_table(
        table_sizes(spec), _marginals(spec, data), n, rho, synthetic_rows(spec, n), rng
    )
    return _table(spec, release, rho, "MST", n, rng)


def _run_independent(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    n = data.count()
    release = yield from independent_table(
        table_sizes(spec), _marginals(spec, data), n, spec.epsilon, synthetic_rows(spec, n), rng
    )
    return _table(spec, release, spec.epsilon, "independent marginals", n, rng)


def _zcdp_curve(spec: TaskSpec) -> PrivacyCurve | None:
    """AIM and MST are rho-zCDP in all (Gaussian measurements, bounded-range selections) at the rho their
    (epsilon, delta) converts to; the ledger composes that rho."""
    return PrivacyCurve(rho=zcdp_rho_for(_approx_cost(spec))) if spec.delta > 0 else None


def _independent_curve(spec: TaskSpec) -> PrivacyCurve:
    """d marginals of discrete Laplace noise of scale 2d/eps; replacing a record moves 2 cells of each by 1,
    so 2d rounds of sensitivity 1 (their pure epsilon is eps)."""
    d = len(spec.columns)
    scale = L1_SENSITIVITY * d / spec.epsilon
    return PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, scale, 1, L1_SENSITIVITY * d),))


AIM = register(
    AlgorithmInfo(
        name="aim",
        title="AIM (adaptive marginals, Private-PGM)",
        task=TaskKind.TABLE,
        paper="McKenna, Mullins, Sheldon, Miklau 2022 (PVLDB 15(11)), Algorithm 1; spec 005",
        section="spec 005 s2, s4",
        guarantee=Guarantee.APPROXIMATE,
        summary="Measures every 1-way marginal (a quarter of ρ) and merges the cells whose noisy counts are "
        "rare, then round by round picks the workload "
        "marginal (and, while a pair is too noisy cell by cell, that pair merged to coarse_bins bins) the "
        "model gets most wrong "
        "(exponential mechanism, score sensitivity 2·w under replace-one), measures it with "
        "discrete Gaussian noise (σ = 1/√ρ per round) and refits a graphical model; the per-round budget "
        f"doubles when a round teaches the model little. Model size ≤ {MAX_MODEL_MB:g} MB. zCDP, "
        "converted to (ε, δ).",
        cost=_approx_cost,
        predicted_error=lambda spec, n: _predicted(spec, n, _aim_fits, aim_plans),
        error_unit=TABLE_UNIT,
        error_parts=lambda spec, n: error_parts(spec, aim_plans(spec, n)),
        run=_run_aim,
        parameters=(ROWS, WORKLOAD, MAX_ROUNDS, COARSE_BINS, TIME_LIMIT),
        finishes_on_request=True,
        preconditions=_aim_fits,
        curve=_zcdp_curve,
    )
)
MST = register(
    AlgorithmInfo(
        name="mst",
        title="MST (maximum spanning tree of pairs, Private-PGM)",
        task=TaskKind.TABLE,
        paper="McKenna, Miklau, Sheldon 2021 (JPC 11(3)); spec 005",
        section="spec 005 s2, s3",
        guarantee=Guarantee.APPROXIMATE,
        summary="ρ/3 measures every 1-way marginal, ρ/3 picks a spanning tree of column pairs (Kruskal, each "
        "edge by the exponential mechanism, sensitivity 2), ρ/3 measures the tree's 2-way marginals; rows "
        "are drawn from the tree-structured model. zCDP, converted to (ε, δ).",
        cost=_approx_cost,
        predicted_error=lambda spec, n: _predicted(spec, n, _mst_fits, mst_plans),
        error_unit=TABLE_UNIT,
        error_parts=lambda spec, n: error_parts(spec, mst_plans(spec, n)),
        run=_run_mst,
        parameters=(ROWS,),
        preconditions=_mst_fits,
        curve=_zcdp_curve,
    )
)
INDEPENDENT = register(
    AlgorithmInfo(
        name="independent",
        title="Independent marginals (discrete Laplace)",
        task=TaskKind.TABLE,
        paper="Dwork, McSherry, Nissim, Smith 2006 (the baseline of spec 005 s5)",
        section="spec 005 s5",
        guarantee=Guarantee.PURE,
        summary="Each of the d 1-way marginals with discrete Laplace noise of scale 2d/ε, projected to the "
        "simplex; columns drawn independently (no correlations kept). Pure ε-DP.",
        cost=_pure_cost,
        predicted_error=lambda spec, n: _predicted(spec, n, _independent_fits, independent_plans),
        error_unit=TABLE_UNIT,
        error_parts=lambda spec, n: error_parts(spec, independent_plans(spec, n)),
        run=_run_independent,
        parameters=(ROWS,),
        preconditions=_independent_fits,
        curve=_independent_curve,
    )
)
