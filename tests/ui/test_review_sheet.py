"""The review sheet before every charge (issue 15 item 4): Ctrl+R shows it, a failed check must be
acknowledged before "Charge and run" enables, cancelling charges nothing, charging starts the run."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from dpgui.data import CategoricalDomain, NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.review import build_review
from dpgui.tasks.runner import prepare
from dpgui.tasks.spec import Domain, TaskKind
from dpgui.ui.main_window import MainWindow
from dpgui.ui.review_sheet import FAILED_MARK, ReviewSheet
from tests.ui.test_main_window import review_shown

WEEKLY = NumericDomain(0, 20000, 20)
"""The demo's private wages are weekly; its public sample's are hourly, so PAP's cut points do not fit."""


def one_column_task(window: MainWindow, kind: TaskKind, column: str, domain: Domain) -> None:
    """A total budget of ε = 5, then the task on ``column`` declared as ``domain``."""
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(5.0))
    window.refresh_budget()
    window.task_page.select_task(kind)
    window.task_page.select_columns([column])
    window.task_page.declare(column, domain)


def pap_on_weekly_wages(window: MainWindow) -> None:
    one_column_task(window, TaskKind.CDF, "wage", WEEKLY)
    window.task_page.select_algorithm("pap")


def test_ctrl_r_shows_the_review_and_a_failed_check_must_be_acknowledged(qtbot, demo_window: MainWindow):
    window = demo_window
    pap_on_weekly_wages(window)
    assert window.run_action.shortcut() == QKeySequence("Ctrl+R")
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert sheet is not None and sheet.isVisible() and window.current_job is None
    texts = [label.text() for label in sheet.check_labels]
    assert any(text.startswith(FAILED_MARK) and "shifted" in text for text in texts)
    assert sheet.acknowledge.isVisible() and not sheet.charge_button.isEnabled()
    sheet.acknowledge.setChecked(True)
    assert sheet.charge_button.isEnabled()
    qtbot.mouseClick(sheet.charge_button, Qt.MouseButton.LeftButton)
    job = window.current_job
    assert job is not None and not sheet.isVisible()
    with qtbot.waitSignal(job.released, timeout=15000):
        pass
    assert window.ledger.state(window.record.id).spent == PrivacyCost(1.0)


def test_cancelling_the_review_charges_nothing(qtbot, demo_window: MainWindow):
    window = demo_window
    pap_on_weekly_wages(window)
    assert window.record is not None
    window.run_page.run_button.click()
    sheet = review_shown(qtbot, window)
    assert sheet is not None
    sheet.cancel_button.click()
    assert window.current_job is None and window.ledger.entries(window.record.id) == []


def test_a_review_whose_checks_pass_can_be_charged_at_once(qtbot, demo_window: MainWindow):
    window = demo_window
    pap_on_weekly_wages(window)
    window.task_page.declare("wage", NumericDomain(0, 20000, 1))
    window.task_page.select_algorithm("tree-laplace")
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert sheet is not None and sheet.review.failures == ()
    assert not sheet.acknowledge.isVisible() and sheet.charge_button.isEnabled()
    summary = dict(sheet.review.summary())
    assert "tree-laplace" in summary["Algorithm"] and summary["Budget after"] == "ε = 4, δ = 0 left"
    sheet.reject()


def test_the_review_is_prepared_off_the_gui_thread_and_redone_if_the_task_changed(
    qtbot, demo_window: MainWindow, monkeypatch
):
    """auto's simulations can take seconds: prepare runs in the pool, and a review prepared for a task the
    custodian has since changed is prepared again rather than shown (its charge would run another task)."""
    import threading

    from dpgui.ui import main_window

    window = demo_window
    pap_on_weekly_wages(window)
    window.task_page.select_algorithm("tree-laplace")
    threads, specs = [], []
    real_prepare = main_window.prepare

    def recording(spec, n, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        specs.append(spec)
        if len(specs) == 1:  # the custodian switches algorithm while the first review is prepared
            monkeypatch.setattr(window, "current_spec", lambda: spec.with_algorithm("privtree"))
        return real_prepare(spec, n, **kwargs)

    monkeypatch.setattr(main_window, "prepare", recording)
    window.run_action.trigger()
    assert window.review_sheet is None  # nothing shown before the worker is done
    sheet = review_shown(qtbot, window)
    assert threads == [False, False]
    assert [s.algorithm for s in specs] == ["tree-laplace", "privtree"]
    assert sheet.review.algorithm.name == "privtree"


def test_the_data_checks_warnings_are_shown_before_the_charge(qtbot, demo_window: MainWindow):
    """A custodian-only warning of the data pass (here: the declared categories match none of the file's
    values) is on the sheet, before anything is charged, as the CLI prints it before its review."""
    window = demo_window
    one_column_task(window, TaskKind.HISTOGRAM, "region", CategoricalDomain(("1", "2"), other=True))
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    texts = [label.text() for label in sheet.data_labels]
    assert any("100.0% of column 'region' is none of the declared categories" in text for text in texts)
    assert sheet.acknowledge.isVisible() and not sheet.charge_button.isEnabled()  # acknowledged first
    assert "warnings about the private data" in sheet.acknowledge.text()  # no check failed
    sheet.acknowledge.setChecked(True)
    assert sheet.charge_button.isEnabled()
    sheet.reject()
    assert window.ledger.entries(window.record.id) == []


def test_the_charge_reuses_the_reviews_data_check(qtbot, demo_window: MainWindow, monkeypatch):
    """The review ran the data pass off the GUI thread; charging the same spec does not run it again there."""
    from dpgui.jobs import release_job

    passes = []
    real = release_job.checked_data
    monkeypatch.setattr(release_job, "checked_data", lambda *args: passes.append(1) or real(*args))
    window = demo_window
    one_column_task(window, TaskKind.CDF, "wage", NumericDomain(0, 20000, 20))
    window.task_page.select_algorithm("tree-laplace")
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    sheet.charge_button.click()
    job = window.current_job
    assert job is not None and job.data_check is not None
    with qtbot.waitSignal(job.released, timeout=15000):
        pass
    assert passes == [1]


def test_a_release_that_does_not_fit_cannot_be_charged_and_the_review_says_why(
    qtbot, demo_window: MainWindow
):
    """The sheet said "Budget after: ε = 0 left" and, once a failed check was acknowledged, let the custodian
    click "Charge and run" for a release the ledger then refused."""
    window = demo_window
    pap_on_weekly_wages(window)  # a failed check too: acknowledging it must not enable the charge
    window.ledger.set_total(window.record.id, PrivacyCost(0.5))
    window.refresh_budget()
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert sheet is not None and sheet.over_budget is not None
    assert "needs ε=1 but only ε=0.5" in sheet.over_budget
    assert dict(sheet.review.summary())["Budget after"].startswith("does not fit")
    sheet.acknowledge.setChecked(True)
    assert not sheet.charge_button.isEnabled() and "does not fit" in sheet.charge_button.toolTip()
    sheet.reject()
    assert window.ledger.entries(window.record.id) == []


def test_a_plans_failed_check_in_a_later_release_must_be_acknowledged(qtbot, demo_window: MainWindow):
    """A plan's sheet counts the failed checks of every release, not only its first's (planted error
    ui-plan-review-later-failures-ignored)."""
    window = demo_window
    pap_on_weekly_wages(window)
    failing = window.current_spec()
    window.task_page.declare("wage", NumericDomain(0, 20000, 1))
    window.task_page.select_algorithm("tree-laplace")
    passing = window.current_spec()
    n = window.dataset.n_rows
    pair = (("a", passing), ("b", failing))
    reviews = [(name, build_review(prepare(spec, n), PrivacyCost(5.0))) for name, spec in pair]
    assert reviews[0][1].failures == () and reviews[1][1].failures
    sheet = ReviewSheet(reviews, window)
    qtbot.addWidget(sheet)
    assert sheet.acknowledge.isVisibleTo(sheet) and not sheet.charge_button.isEnabled()
    sheet.acknowledge.setChecked(True)
    assert sheet.charge_button.isEnabled()


def test_at_1024_by_700_a_tables_review_keeps_every_row_whole_and_scrolls(qtbot, demo_window: MainWindow):
    """Seven columns bring ten checks: the sheet had squeezed the summary's wrapped rows (columns, why, budget
    after) to one clipped line each. Now the reviews scroll inside a sheet no taller than the window."""
    from PySide6.QtWidgets import QFormLayout, QLabel

    from tests.ui.test_session import build

    window = demo_window
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    window.ledger.set_total(window.record.id, PrivacyCost(5.0, 1e-5))
    build(window, TaskKind.TABLE)
    window.task_page.select_columns(["wage", "education", "experience", "ethnicity", "smsa", "region"])
    window.task_page.declare("wage", WEEKLY)
    window.task_page.declare("ethnicity", CategoricalDomain(("cauc", "afam")))
    window.task_page.declare("smsa", CategoricalDomain(("no", "yes")))
    window.task_page.declare("region", CategoricalDomain(("midwest", "northeast", "south", "west")))
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert len(sheet.review.checks) >= 9
    assert sheet.height() <= 0.9 * window.height() + 1
    form = sheet.findChild(QFormLayout)
    values = [form.itemAt(row, QFormLayout.ItemRole.FieldRole).widget() for row in range(form.rowCount())]
    for value in values:
        fresh = QLabel(value.text())
        fresh.setWordWrap(True)
        fresh.setFont(value.font())
        assert value.height() >= fresh.heightForWidth(value.width()), value.text()
    sheet.reject()


def test_a_data_check_warning_must_be_acknowledged_like_a_failed_check(qtbot, demo_window: MainWindow):
    """GUI audit (session 37): wages declared on the public sample's hourly range [0, 49] put every weekly
    wage outside the bounds; the sheet's only sign was a red line, and "Charge and run" took one click."""
    window = demo_window
    one_column_task(window, TaskKind.CDF, "wage", NumericDomain(0, 49, 1))
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert any("outside" in label.text() for label in sheet.data_labels)
    assert sheet.acknowledge.isVisible() and not sheet.charge_button.isEnabled()
    sheet.acknowledge.setChecked(True)
    assert sheet.charge_button.isEnabled()
    sheet.reject()


def test_without_a_total_the_review_cannot_be_charged_and_says_where_to_set_one(
    qtbot, demo_window: MainWindow
):
    """GUI audit (session 39): with no total the sheet said "the ledger will refuse the release" beside an
    enabled Charge and run, whose click ended in a refusal quoting a command line."""
    window = demo_window
    one_column_task(window, TaskKind.CDF, "wage", NumericDomain(0, 20000, 1))
    window.task_page.select_algorithm("tree-laplace")
    prepared = prepare(window.current_spec(), window.dataset.n_rows)
    sheet = ReviewSheet(build_review(prepared, None), window)
    qtbot.addWidget(sheet)
    assert sheet.no_total and not sheet.charge_button.isEnabled()
    assert "Set total budget" in sheet.charge_button.toolTip()
    charged = ReviewSheet(build_review(prepared, PrivacyCost(5.0)), window)
    qtbot.addWidget(charged)
    assert not charged.no_total and charged.charge_button.isEnabled()


def test_a_task_the_preflight_refuses_is_refused_before_a_review(qtbot, demo_window: MainWindow, errors):
    """GUI audit (session 39): a step of 5,000 on [0, 4000] (a grid of one point) was reviewed, with a
    failed check to acknowledge, though the charge's pre-flight refuses it, as the command line does."""
    window = demo_window
    one_column_task(window, TaskKind.QUANTILES, "wage", NumericDomain(0, 4000, 5000))
    window.run_action.trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=15000)
    assert "has one point" in errors[0] and window.review_sheet is None


def test_every_problem_of_the_data_check_is_named(qtbot, demo_window: MainWindow, errors):
    """GUI audit (session 39): a refusal read "'city_230' is not a declared category ... (and 1 more
    problem)", and the other problem was never named."""
    window = demo_window
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(5.0))
    window.refresh_budget()
    window.task_page.select_task(TaskKind.TABLE)
    window.task_page.select_columns(["region", "smsa"])
    window.task_page.declare("region", CategoricalDomain(("south",), other=False))
    window.task_page.declare("smsa", CategoricalDomain(("yes",), other=False))
    window.task_page.select_algorithm("independent")
    window.run_action.trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=30000)
    assert "(and 1 more problem)" in errors[0] and "\n\nAlso: " in errors[0]
    assert (
        "'northeast' is not a declared category" in errors[0]
        and "'no' is not a declared category" in errors[0]
    )
