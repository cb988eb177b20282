"""Pins found by the mutation scan of report.html (notes/mutscan_rel17.md): each public fact the report
states in plain words is there, with the release's own value.

test_report.py checks a handful of phrases of one median release. A report that dropped its first
released row, its notes, its not-private warning, a domain's unit or 'other' category, or stated the row
count or grid size one off, passed it.
"""

from __future__ import annotations

import dataclasses
import html
from pathlib import Path

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import PrivateRandom, SecureRandom, SeededRandom
from dpgui.release.release import Release
from dpgui.release.report import MAX_REPORT_ROWS, build_report
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import Guarantee, get_algorithm
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec

WAGE = NumericDomain(0, 20000, 5, unit="USD")


def _released(wages_csv: Path, rng: PrivateRandom | None = None) -> Release:
    """A median of wage (declared in USD, steps of 5) released on a fresh ledger."""
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0))
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), WAGE, 1.0)
    return run_to_end(execute(spec, dataset, ledger, rng or SecureRandom()))


def _report(release: Release) -> str:
    return build_report(release).decode("utf-8")


def test_the_report_shows_every_released_row_and_every_note(wages_csv: Path) -> None:
    """Figures: the released values table of report.html, first row included, and the table's notes (what a
    reader needs to use the values). Kills the shown rows sliced from 1, and the notes replaced by
    "none"."""
    release = _released(wages_csv)
    table = ReleaseTable(
        ("value", "cdf"), ((100, 0.25), (200, 0.5), (300, 0.75)), notes=("noisy, then made monotone",)
    )
    text = _report(dataclasses.replace(release, table=table))
    for value, share in table.rows:
        assert f"<tr><td>{value}</td><td>{share}</td></tr>" in text
    assert "<li>noisy, then made monotone</li>" in text
    assert "<li>none</li>" not in text


def test_a_seeded_release_is_marked_not_private_in_its_report(wages_csv: Path) -> None:
    """Rule: a release drawn from seeded randomness (tests, demos) says so at the top of its report, as its
    manifest does; a private one carries no warning. Kills the warning removed."""
    seeded = _released(wages_csv, SeededRandom(4))
    text = _report(seeded)
    assert f'<p class="warning">{seeded.randomness}</p>' in text and "NOT PRIVATE" in seeded.randomness
    assert 'class="warning"' not in _report(_released(wages_csv))


def test_the_report_states_the_row_count_and_the_declared_domain(wages_csv: Path) -> None:
    """Figures: the public row count and the declared domain, with its unit and grid size ((20000 - 0) / 5
    + 1 = 4,001 points). Kills the row count or grid size one off and the unit dropped."""
    text = _report(_released(wages_csv))
    assert "<tr><th>rows (public)</th><td>2,001</td></tr>" in text
    assert "[0, 20000] USD in steps of 5 (4,001 grid points; declared, not read from the data)" in text


def test_the_report_names_a_categorical_domains_other_category(wages_csv: Path) -> None:
    """Fact: a categorical column declared with an 'other' category says so: its values outside the list
    are counted there, which changes what each released count means. Kills "plus 'other'" dropped."""
    release = _released(wages_csv)
    spec = dataclasses.replace(
        release.spec,
        kind=TaskKind.HISTOGRAM,
        columns=("region",),
        domains=(CategoricalDomain(("north", "south"), other=True),),
        algorithm="geometric",
    )
    text = _report(dataclasses.replace(release, spec=spec, algorithm=get_algorithm("geometric")))
    assert html.escape("categories north, south plus 'other'") in text


def test_the_reports_guarantee_row_is_resolved_for_the_spec(wages_csv: Path) -> None:
    """Fact: the guarantee row states the guarantee of this run, resolved for its spec ("pure ε-DP" for a
    pure cost), not the algorithm's general "pure or zCDP" label. Kills algorithm.guarantee for
    algorithm.guarantee_for(spec) in the report."""
    release = _released(wages_csv)
    either = dataclasses.replace(release.algorithm, guarantee=Guarantee.PURE_OR_ZCDP)
    text = _report(dataclasses.replace(release, algorithm=either))
    assert "<tr><th>guarantee</th><td>pure ε-DP</td></tr>" in text


def test_the_reports_parameter_table_states_the_rules_and_the_algorithms_parameters(wages_csv: Path) -> None:
    """Facts: the parameter table's out-of-bounds rule, its missing-values rule and each parameter the
    algorithm took, with its value. Kills any of those rows dropped from build_report."""
    release = _released(wages_csv)
    assert "beta" in {parameter.name for parameter in release.algorithm.parameters}
    release = dataclasses.replace(
        release, spec=dataclasses.replace(release.spec, parameters=(("beta", 0.01),))
    )
    taken = release.exported_parameters()
    assert taken == [("beta", 0.01)]
    text = _report(release)
    assert "<tr><th>values outside the bounds</th><td>clipped to the declared bounds</td></tr>" in text
    assert "<tr><th>missing values</th><td>" in text
    for name, value in taken:
        assert f"<tr><th>{name}</th><td>{value}</td></tr>" in text


def test_the_report_states_why_the_algorithm_was_chosen_and_no_rows_for_absent_inputs(
    wages_csv: Path,
) -> None:
    """Facts: "chosen because" gives auto's reason when auto chose, "picked by the custodian" otherwise; a
    spec without a label or a public sample has no such rows. Kills ``or`` -> ``and`` in the reason, and
    the label row's condition forced or negated."""
    release = _released(wages_csv)
    assert release.spec.label is None and release.spec.public is None
    picked = _report(dataclasses.replace(release, auto_reason=None))
    assert "<tr><th>chosen because</th><td>picked by the custodian</td></tr>" in picked
    assert "<tr><th>label</th>" not in picked and "<tr><th>public sample</th>" not in picked
    chosen = _report(dataclasses.replace(release, auto_reason="the lowest predicted error"))
    assert "<tr><th>chosen because</th><td>the lowest predicted error</td></tr>" in chosen


def test_a_table_of_exactly_the_shown_rows_is_not_said_to_be_cut(wages_csv: Path) -> None:
    """Figure: "Showing the first N of M rows" appears only when rows were left out (M > 200). Kills
    ``>`` -> ``>=``."""
    rows = tuple((float(i), i / 200) for i in range(MAX_REPORT_ROWS))
    text = _report(dataclasses.replace(_released(wages_csv), table=ReleaseTable(("value", "cdf"), rows)))
    assert "Showing the first" not in text
    assert f"<tr><td>{MAX_REPORT_ROWS - 1}</td>" in text


def test_a_tables_default_rows_are_reported_as_the_row_count_they_mean(wages_csv: Path) -> None:
    """A GUI audit read "rows 0" (the default: the public row count) beside 28,155 synthetic rows."""
    from dpgui.tasks.registry import get_algorithm

    release = _released(wages_csv)
    spec = TaskSpec(TaskKind.TABLE, ("wage",), WAGE, 1.0, algorithm="mst", parameters=(("rows", 0),))
    table = dataclasses.replace(release, spec=spec, algorithm=get_algorithm("mst"))
    n = release.dataset.n_rows
    assert f"{n:,} (0: the public row count)" in _report(table)
    given = dataclasses.replace(table, spec=dataclasses.replace(spec, parameters=(("rows", 500),)))
    assert "(0: the public row count)" not in _report(given) and "500" in _report(given)


def test_the_report_states_the_algorithms_a_priori_error_bound(wages_csv: Path) -> None:
    """Fact: report.html gives the error bound the review showed before the charge (the README promises
    "its predicted error"; an export audit found quantiles, interior points and rectangles with none)."""
    release = _released(wages_csv)
    bound = release.algorithm.predicted_error(release.spec, release.dataset.n_rows)
    assert f"<tr><th>error bound</th><td>a-priori bound: {bound:.4g} (rank error / n)" in _report(release)


def test_a_bound_that_cannot_be_found_leaves_the_report_without_it_not_the_release_lost(
    wages_csv: Path,
) -> None:
    """The bound is found as the release finishes, after its data was read: a public file it reads that
    changed since (a DataError) must not fail a charged release; its report goes without the line."""
    from dpgui.data.errors import DataError
    from dpgui.tasks import runner

    def unreadable(spec, n):
        raise DataError("the public sample changed since it was chosen")

    release = _released(wages_csv)
    prepared = runner.PreparedRun(
        release.spec, dataclasses.replace(release.algorithm, predicted_error=unreadable), release.cost, 100
    )
    assert runner._error_bound(prepared) == ""
    assert "error bound" not in _report(dataclasses.replace(release, error_bound=""))
