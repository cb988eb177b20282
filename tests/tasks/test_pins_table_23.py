"""Pins of the synthetic-table task (``dpgui/tasks/table.py``): the marginals' memory limit (8 bytes a
cell, the limit itself allowed), the preconditions before any charge, and what each algorithm is charged
and asked for."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.marginal_table import Accounting, AimRound, Measured, Selected, TableRelease
from dpgui.algorithms.progress import Progress, run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import SeededRandom
from dpgui.tasks import table
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import Guarantee, get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from dpgui.tasks.table_error import coarse_levels, ordered_columns, table_sizes
from tests.recording import captured_call
from tests.tasks.test_table_missing import YEARS
from tests.tasks.test_table_missing import _spec as missing_spec


@pytest.fixture(autouse=True)
def made_up_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The releases built by hand below exercise the notes and the merging; their noise scales do not add
    up to the totals they are given, so the check that a release spent no more than it was charged
    (tests/tasks/test_table_spent_within_charged.py) is switched off here."""
    monkeypatch.setattr(TableRelease, "check_spent_within", lambda self, charged: None)


LIMIT_CELLS = table.MARGINAL_MEMORY_LIMIT // 8
"""2^25 int64 cells: MST on columns of a and b cells counts a + b + a * b = (a + 1)(b + 1) - 1 of them."""


def _spec(*sizes: int, algorithm: str = "mst", delta: float = 1e-6, **parameters: object) -> TaskSpec:
    domains = tuple(NumericDomain(0, size - 1, 1) for size in sizes)
    columns = tuple(f"c{i}" for i in range(len(sizes)))
    return TaskSpec(
        TaskKind.TABLE, columns, domains, 1.0, delta, algorithm, parameters=tuple(parameters.items())
    )


def test_marginals_of_exactly_the_memory_limit_fit_and_one_cell_more_does_not():
    """(8282 + 1)(4050 + 1) - 1 = 2^25 cells of 8 bytes are exactly the 256 MB limit: accepted; a column
    one cell larger is refused, with the MB it needs (8 bytes a cell) and the limit."""
    assert LIMIT_CELLS == (8282 + 1) * (4050 + 1) - 1
    mst = get_algorithm("mst")
    assert mst.preconditions(_spec(8282, 4050), 1000) == ()
    failures = mst.preconditions(_spec(8282, 4051), 1000)
    assert len(failures) == 1
    needed = 8 * ((8282 + 1) * (4051 + 1) - 1) / 2**20
    assert f"need {needed:.0f} MB of counts, over the 256 MB limit" in failures[0].message
    assert failures[0].message.startswith("MST's 2-way marginals")


@pytest.fixture
def data(tmp_path) -> InMemoryAggregator:
    """40 rows of three small whole-number columns c0, c1, c2 (4, 5 and 6 cells)."""
    g = np.random.default_rng(0)
    frame = pd.DataFrame({f"c{i}": g.integers(0, size, 40) for i, size in enumerate((4, 5, 6))})
    frame.to_csv(tmp_path / "t.csv", index=False)
    return InMemoryAggregator(open_dataset(tmp_path / "t.csv"))


def _asked(monkeypatch, data, spec: TaskSpec, engine: str) -> tuple[tuple, dict]:
    run = lambda: get_algorithm(spec.algorithm).run(spec, data, None)  # noqa: E731
    return captured_call(monkeypatch, table, engine, run)


def test_aim_is_asked_for_the_rho_of_the_specs_epsilon_and_delta_and_every_parameter(monkeypatch, data):
    """AIM gets the table's cells, its marginals, n, the rho (epsilon, delta) converts to, the rows to draw
    and the workload, round cap and time limit the user set (with the ordered columns and coarse levels)."""
    spec = _spec(4, 5, 6, algorithm="aim", rows=7, workload=3, max_rounds=5, time_limit=12.5)
    args, kwargs = _asked(monkeypatch, data, spec, "aim_table")
    assert args[0] == table_sizes(spec) == [4, 5, 6]
    assert args[2:5] == (40, zcdp_rho_for(PrivacyCost(1.0, 1e-6)), 7)
    assert [m.tolist() for m in args[1]([(0,), (1, 2)])] == [
        m.tolist() for m in data.marginals(spec.columns, spec.domains, [spec.missing] * 3, [(0,), (1, 2)])
    ]
    assert kwargs == {
        "way": 3, "max_rounds": 5, "ordered": ordered_columns(spec), "levels": coarse_levels(spec),
        "time_limit": 12.5,
    }  # fmt: skip


def test_aims_defaults_are_the_public_row_count_no_round_cap_and_its_time_limit(monkeypatch, data):
    """Without parameters AIM draws n rows, has no round cap (None: the paper's), 2-way marginals and the
    default time limit; a time limit of 0 is no limit (None)."""
    args, kwargs = _asked(monkeypatch, data, _spec(4, 5, 6, algorithm="aim"), "aim_table")
    assert args[4] == 40 and kwargs["max_rounds"] is None and kwargs["way"] == 2
    assert kwargs["time_limit"] == table.AIM_SECONDS == 100.0
    _, kwargs = _asked(monkeypatch, data, _spec(4, 5, 6, algorithm="aim", time_limit=0.0), "aim_table")
    assert kwargs["time_limit"] is None


@pytest.mark.parametrize(
    ("algorithm", "engine", "budget"),
    [
        ("mst", "mst_table", zcdp_rho_for(PrivacyCost(1.0, 1e-6))),
        ("independent", "independent_table", 1.0),
    ],
)
def test_mst_and_independent_are_asked_for_their_budget_and_the_rows(
    monkeypatch, data, algorithm, engine, budget
):
    """MST gets the rho of (epsilon, delta), independent marginals the pure epsilon; both the rows asked
    for (or n)."""
    args, _ = _asked(monkeypatch, data, _spec(4, 5, 6, algorithm=algorithm, rows=9), engine)
    assert args[0] == [4, 5, 6] and args[2:5] == (40, budget, 9)
    args, _ = _asked(monkeypatch, data, _spec(4, 5, 6, algorithm=algorithm), engine)
    assert args[4] == 40


@pytest.mark.parametrize("algorithm", ["aim", "mst"])
def test_aim_and_mst_need_a_positive_delta_and_independent_does_not(algorithm):
    """AIM and MST are zCDP, refused at delta = 0 before any charge (no bound stated); independent
    marginals are pure DP and run at delta = 0."""
    info = get_algorithm(algorithm)
    failures = info.preconditions(_spec(4, 5, algorithm=algorithm, delta=0.0), 100)
    assert [f.message for f in failures] == [
        "this algorithm is approximate DP (zCDP): give a δ > 0 (e.g. 1e-6)"
    ]
    assert info.predicted_error(_spec(4, 5, algorithm=algorithm, delta=0.0), 100) == float("inf")
    assert info.preconditions(_spec(4, 5, algorithm=algorithm), 100) == ()
    assert (
        get_algorithm("independent").preconditions(_spec(4, 5, algorithm="independent", delta=0.0), 100) == ()
    )


@pytest.mark.parametrize("algorithm", ["aim", "mst", "independent"])
def test_a_column_may_have_at_most_65536_cells_and_appear_once(algorithm):
    """A column of 65,537 cells is refused by name (65,536 is accepted), and so is a repeated column."""
    info = get_algorithm(algorithm)
    assert info.preconditions(_spec(1 << 16, algorithm=algorithm), 100) == ()
    failures = info.preconditions(_spec((1 << 16) + 1, algorithm=algorithm), 100)
    assert len(failures) == 1 and failures[0].message.startswith("column 'c0' has 65537 cells")
    twice = TaskSpec(TaskKind.TABLE, ("c0", "c0"), (NumericDomain(0, 3, 1),) * 2, 1.0, 1e-6, algorithm)
    assert [f.message for f in info.preconditions(twice, 100)] == [
        "each column may appear once; c0 is repeated"
    ]


def test_aims_memory_check_counts_the_workload_the_user_chose():
    """Four columns of 400 cells: their 2-way marginals fit in memory, their 3-way ones (4 x 400^3 cells) do
    not, and the refusal names the workload, the three largest columns (largest first) and --workload."""
    aim = get_algorithm("aim")
    assert aim.preconditions(_spec(400, 400, 400, 401, algorithm="aim", workload=2), 100) == ()
    failures = aim.preconditions(_spec(400, 400, 400, 401, algorithm="aim", workload=3), 100)
    assert len(failures) == 1
    message = failures[0].message
    assert message.startswith("AIM's 3-way marginals need") and message.endswith(" or a smaller --workload")
    assert "(c3 (401 cells), c0 (400 cells), c1 (400 cells))" in message
    assert "--workload" not in get_algorithm("mst").preconditions(_spec(8282, 4051), 100)[0].message
    assert get_algorithm("mst").preconditions(_spec(400, 400, 400, 401), 100) == ()  # MST counts 2-way only


YEARS_LETTER = TaskSpec(
    TaskKind.TABLE,
    ("years", "letter"),
    (NumericDomain(0, 9, 1), CategoricalDomain(("a", "b"))),
    1.0,
    1e-6,
    "aim",
)
MEASURED = (
    Measured((0,), "discrete Gaussian", 10.0, 0.01),
    Measured((1,), "discrete Gaussian", 8.0, 0.015),
    Measured((0, 1), "discrete Gaussian", 4.0, 0.02, (2, 2)),
)


def _released(
    accounting: Accounting = Accounting.ZCDP, spec: TaskSpec = YEARS_LETTER, **fields: object
) -> ReleaseTable:
    """The task's table of a release of 30 rows: three measurements and one selection, of total 0.05."""
    rows = np.stack([np.arange(30) % 10, np.arange(30) % 2], axis=1)
    selected = (Selected((0, 1), 0.2, 0.005, (2, 2)),)
    release = TableRelease(rows, MEASURED, selected, (0.1, 0.25, 0.5), accounting, **fields)
    return table._table(spec, release, 0.05, "AIM", 30, SeededRandom(0))


def test_the_rows_note_mentions_blanks_only_when_missing_values_are_kept():
    """Under KEEP a blank cell is a kept missing value (and the note says so); otherwise no blank is
    mentioned."""
    assert "blank" not in _released().notes[3]
    assert "; a blank cell is a kept missing value" in _released(spec=missing_spec()).notes[3]


def test_the_release_lists_each_selection_and_measurement_with_its_share_of_the_total():
    """One row per selection (its epsilon) and per measurement (its noise scale and TV vs noisy), each
    with its cost over the total budget; the notes repeat each measurement's scale and percentage."""
    released = _released()
    assert released.rows == (
        ("years × letter (2 × 2 bins)", "selected", "exponential mechanism", 0.2, pytest.approx(0.1), ""),
        ("years", "measured", "discrete Gaussian", 10.0, pytest.approx(0.2), "0.1"),
        ("letter", "measured", "discrete Gaussian", 8.0, pytest.approx(0.3), "0.25"),
        ("years × letter (2 × 2 bins)", "measured", "discrete Gaussian", 4.0, pytest.approx(0.4), "0.5"),
    )
    assert released.notes[0] == (
        "AIM: 3 marginals measured, 1 chosen by the exponential mechanism; shares are of the total rho = 0.05"
        " (from ε, δ by the zCDP conversion)"
    )
    assert "measured letter: discrete Gaussian scale 8, 30.00% of the budget" in released.notes
    assert released.notes[3].startswith("30 synthetic rows in synthetic.csv and synthetic.parquet")


def test_a_pure_release_does_not_claim_a_zcdp_conversion():
    """The total of independent marginals is an epsilon: no "(from ε, δ by the zCDP conversion)"."""
    notes = _released(Accounting.PURE).notes
    assert notes[0].endswith("shares are of the total ε = 0.05")


def test_the_parquet_attachment_holds_the_same_rows_as_the_csv():
    """synthetic.parquet is the synthetic rows (no index column), as synthetic.csv."""
    released = _released()
    parquet = next(a for a in released.attachments if a.file_name == "synthetic.parquet")
    frame = pd.read_parquet(io.BytesIO(parquet.content))
    assert frame.columns.tolist() == ["years", "letter"] and len(frame) == 30
    assert frame.equals(pd.read_csv(io.BytesIO(table.synthetic_csv(released).content)))


def test_only_aim_offers_finish_now():
    """AIM's rounds can be ended on request (the GUI's Finish now); MST and independent marginals cannot."""
    assert get_algorithm("aim").finishes_on_request
    assert (
        not get_algorithm("mst").finishes_on_request and not get_algorithm("independent").finishes_on_request
    )


def test_the_synthetic_rows_are_the_csv_attachment_and_other_releases_have_none():
    """``synthetic_csv`` finds the synthetic rows' CSV (not the parquet file) and None without one."""
    attachment = table.synthetic_csv(_released())
    assert attachment is not None and attachment.file_name == "synthetic.csv"
    assert attachment.content.decode().splitlines()[:2] == ["years,letter", "0,a"]
    assert table.synthetic_csv(ReleaseTable(("a",), ((1,),))) is None


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({}, None),
        ({"time_limited": True, "last_picks": 1},
         "; the time limit (100 s) made round 1 the last, which spent what was left on 1 marginal"),
        ({"time_limited": True, "last_picks": 2},
         "; the time limit (100 s) made round 0 the last, which spent what was left on 2 marginals (the Run "
         "page's rounds 0 to 1)"),
        ({"finished_on_request": True, "last_picks": 1}, "; Finish now made round 1 the last"),
        ({"time_limited": True, "finished_on_request": True}, "; the time limit (100 s) made"),
    ],
)  # fmt: skip
def test_the_notes_say_what_ended_aims_rounds_early(fields, words):
    """Nothing when AIM ended by its budget; the time limit (its seconds) or Finish now otherwise, with the
    last round and how many marginals it measured."""
    first = _released(**fields).notes[0]
    if words is None:
        assert first.endswith("(from ε, δ by the zCDP conversion)")
    elif words.endswith(("marginal", "marginals", ")")):
        assert first.endswith(words)
    else:
        assert words in first


@pytest.mark.parametrize(
    ("blanks", "kept", "n", "sigma"),
    [
        (14, False, 1000, 10.0),
        (15, True, 1000, 10.0),
        (16, True, 1000, 10.0),
        (10, False, 1, 0.01),
        (10, False, 0, 0.01),
    ],
)
def test_the_catch_all_limit_scales_from_n_to_the_synthetic_rows_and_uses_the_most_precise_measurement(
    blanks, kept, n, sigma
):
    """500 synthetic rows of n = 1000 records, sigma 10 (the column's most precise unbinned 1-way
    measurement; a noisier one, a binned one and another column's are ignored): the limit is
    3 * 10 * 500 / 1000 = 15 rows, so 14 blanks are noise and filled, 15 and 16 are kept. Of n = 1 or 0
    records the rows are divided by one record: at sigma 0.01 the limit is 15 rows again."""
    rows = np.zeros((500, 2), dtype=np.int64)
    rows[:, 0] = np.arange(500) % YEARS.size
    rows[:blanks, 0] = YEARS.size
    measured = (
        Measured((0,), "discrete Gaussian", 40.0, 0.01),
        Measured((0,), "discrete Gaussian", sigma, 0.01),
        Measured((0,), "discrete Gaussian", sigma / 10, 0.01, (2,)),
        Measured((1,), "discrete Gaussian", 20.0, 0.01),
    )
    release = TableRelease(rows, measured, (), (0.0,) * 4, Accounting.ZCDP)
    out = table.without_noise_catch_alls(missing_spec(), release, n, SeededRandom(1))
    assert (out[:, 0] == YEARS.size).sum() == (blanks if kept else 0)


@pytest.mark.parametrize(("kept", "merged"), [((), None), ((10, 2), None), ((8, 2), "years 10 → 8")])
def test_the_merged_note_names_only_columns_that_lost_cells(kept, merged):
    """After the 1-way measurements a column measured on fewer cells than declared is named with both
    counts; none (or no kept cells, as for independent marginals) means no note."""
    notes = [n for n in _released(kept_cells=kept).notes if n.startswith("cells merged")]
    if merged is None:
        assert notes == []
    else:
        assert len(notes) == 1 and notes[0].startswith(
            f"cells merged after the 1-way measurements ({merged} cells, counting a column's 'other' and "
            "'missing' cells)"
        )


def test_aims_rounds_are_reported_by_their_columns_names():
    """Each AIM round's progress names its marginal by the columns (and bins), with its sigma and the
    model's fit; other steps pass unchanged; the run's result is AIM's."""

    def rounds():
        yield Progress(0.1, "counting")
        yield Progress(0.5, "", AimRound(3, (0, 1), (2, 2), 2.5, 0.125))
        return "released"

    named = table._named_rounds(YEARS_LETTER, rounds())
    assert next(named) == Progress(0.1, "counting")
    step = next(named)
    assert step.fraction == 0.5
    assert step.message == "round 3: measured years × letter (2 × 2 bins) (σ 2.5, model's TV vs noisy 0.125)"
    assert step.partial.name == "years × letter (2 × 2 bins)" and step.partial.sigma == 2.5
    with pytest.raises(StopIteration) as stop:
        next(named)
    assert stop.value.value == "released"


def test_each_algorithm_is_charged_its_budget_and_independent_shares_are_of_epsilon(data):
    """AIM and MST are approximate DP, charged (epsilon, delta); independent marginals are pure, charged
    epsilon alone; a run of independent marginals states its shares of that epsilon (summing to 1)."""
    for algorithm in ("aim", "mst"):
        assert get_algorithm(algorithm).cost(_spec(4, 5, algorithm=algorithm)) == PrivacyCost(1.0, 1e-6)
        assert get_algorithm(algorithm).guarantee is Guarantee.APPROXIMATE
    independent = get_algorithm("independent")
    assert independent.guarantee is Guarantee.PURE
    spec = _spec(4, 5, 6, algorithm="independent", delta=0.0)
    assert independent.cost(spec) == PrivacyCost(1.0)
    released = run_to_end(independent.run(spec, data, SeededRandom(0)))
    assert released.notes[0].endswith("shares are of the total ε = 1")
    assert sum(row[4] for row in released.rows) == pytest.approx(1.0)


def test_a_column_all_in_noise_catch_alls_keeps_its_rows_for_want_of_donors():
    """Every row of the column is a blank within the noise (limit 3 * 500 = 1500 rows of 1000): there is
    no other synthetic value to take, so the rows stay as drawn."""
    rows = np.zeros((1000, 2), dtype=np.int64)
    rows[:, 0] = YEARS.size
    measured = (
        Measured((0,), "discrete Gaussian", 500.0, 0.01),
        Measured((1,), "discrete Gaussian", 1.0, 0.01),
    )
    release = TableRelease(rows, measured, (), (0.0,) * 2, Accounting.ZCDP)
    out = table.without_noise_catch_alls(missing_spec(), release, 1000, SeededRandom(1))
    assert (out == rows).all()


def test_the_table_parameters_allow_their_automatic_zero_and_their_stated_ranges():
    """rows 0 (the public row count), max_rounds 0 (the paper's cap) and time_limit 0 (no limit) are
    allowed and are the rows' and rounds' defaults; the workload is k = 1, 2 or 3 (default 2)."""
    ranges = {p.name: (p.default, p.minimum, p.maximum) for p in get_algorithm("aim").parameters}
    assert ranges["rows"] == (0, 0, table.MAX_ROWS) and table.MAX_ROWS == 10**7
    assert ranges["max_rounds"] == (0, 0, 1000)
    assert ranges["time_limit"] == (100.0, 0.0, 86400.0)
    assert ranges["workload"] == (2, 1, 3)


def test_a_kept_blank_in_a_one_category_column_is_a_blank():
    """A column of one declared category under KEEP has cells 0 ("a") and 1 (missing): the missing cell is
    written blank, never looked up as a second category."""
    values = table.cell_values(CategoricalDomain(("a",)), np.array([0, 1, 0]), missing_spec().missing)
    assert values.iloc[0] == "a" and pd.isna(values.iloc[1]) and values.iloc[2] == "a"
